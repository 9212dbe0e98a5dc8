/* probe-cpu.h: the per-core CPU line of "pipescope probe" (like htop's bars) */
#ifndef PS_PROBE_CPU_H
#define PS_PROBE_CPU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

struct json_object;

/* the /proc/stat columns, in the kernel's order (USER_HZ ticks) */
enum ps_cpu_field {
	PS_CPU_USER,
	PS_CPU_NICE,
	PS_CPU_SYSTEM,
	PS_CPU_IDLE,
	PS_CPU_IOWAIT,
	PS_CPU_IRQ,
	PS_CPU_SOFTIRQ,
	PS_CPU_STEAL,
	PS_CPU_GUEST,	   /* already counted in user */
	PS_CPU_GUEST_NICE, /* already counted in nice */
	PS_CPU_NFIELDS
};

/* how the percentages were obtained */
enum ps_cpu_basis {
	PS_CPU_BASIS_NONE = 0,	 /* not computed */
	PS_CPU_BASIS_INTERVAL,	 /* delta between two samples */
	PS_CPU_BASIS_SINCE_BOOT, /* one sample: average since boot */
};

/* the highest CPU id read from a tree or a snapshot: Linux builds at most
 * 8192 CPUs (NR_CPUS, x86-64 MAXSMP and ppc64), as irq-parse.h's
 * PS_IRQ_MAX_CPUS; a recording of cpu0 ... cpu65535 is not a machine */
#define PS_CPU_MAX_ID 8191

struct ps_cpu_core {
	int id; /* N of "cpuN"; -1 for the all-CPU line */
	uint64_t ticks[PS_CPU_NFIELDS]; /* columns past ncolumns are 0 */
	bool pct_valid;
	double pct[PS_CPU_NFIELDS]; /* share of the interval, 0..100 */
	double busy_pct;	    /* 100 - idle - iowait */
	int node;		    /* NUMA node, -1 unknown */
	char governor[32];	    /* cpufreq scaling_governor, "" unknown */
	long cur_khz;		    /* cpufreq scaling_cur_freq, -1 unknown */
	long max_khz;		    /* cpufreq cpuinfo_max_freq, -1 unknown */
};

struct ps_cpu_info {
	enum ps_status status; /* /proc/stat */
	char reason[160];
	int ncolumns;		   /* value columns in /proc/stat, 4..10 */
	int ncores;		   /* rows present (online CPUs) */
	struct ps_cpu_core *cores; /* xmalloc'ed, ncores, file order */
	struct ps_cpu_core all;	   /* the "cpu" line */

	/* offline CPUs: present in sysfs, missing from /proc/stat */
	int noffline;
	int *offline; /* xmalloc'ed ids */

	/* percentages */
	enum ps_cpu_basis basis;
	double interval_s;		/* PS_CPU_BASIS_INTERVAL: seconds */
	int busiest;			/* index into cores, -1 none */
	enum ps_cpu_field busiest_main; /* what keeps it busy */

	enum ps_status numa_status;
	char numa_reason[160];
	int nnodes;

	enum ps_status freq_status;
	char freq_reason[160];
};

/* the JSON key of a column ("user", "softirq", ...) */
const char *ps_cpu_field_name(enum ps_cpu_field f);

/*
 * Parse the text of /proc/stat: the "cpu" line and every "cpuN" line
 * (4 to 10 value columns; offline CPUs have no row). Fills ncolumns, ncores,
 * cores[].id/ticks and all.ticks; 0, or -EINVAL when there is no cpu line or
 * a cpu line is malformed (reason says which).
 */
int ps_cpu_parse_stat(const char *text, struct ps_cpu_info *out);

/* parse a sysfs CPU list ("0-3,8,10-11"); calls fn for each id; 0 / -EINVAL */
int ps_cpu_parse_list(const char *text, void (*fn)(int id, void *arg),
		      void *arg);
/* how many ids such a list names, -1 when it is not one */
int ps_cpu_list_count(const char *text);
/* the range a-b (or a alone) appended to the list in out, whose *used
 * bytes are filled; 0, or -ENOSPC with out "" */
int ps_cpu_list_add_range(char *out, size_t len, size_t *used, int a, int b);
/* a sysfs hex CPU mask ("00000000,0000000c") as a list ("2-3") in out;
 * the number of CPUs it names (0: none, out ""), -EINVAL, -ENOSPC */
int ps_cpu_mask_to_list(const char *hex, char *out, size_t len);

/*
 * One past the highest CPU id the tree says exists: the kernel's
 * /sys/devices/system/cpu/possible, else present, else the cpuN lines of
 * /proc/stat; 0 when none of them says (sysroot-aware). What the per-CPU
 * tables of other files (/proc/interrupts, softirqs) are bounded by.
 */
int ps_cpu_known_ids(void);

/* read /proc/stat, NUMA nodes and cpufreq (sysroot-aware); 0 or -errno */
int ps_cpu_sample(const char *ifname, struct ps_cpu_info *out);
void ps_cpu_free(struct ps_cpu_info *info);
/* deep copy (for snapshots that must outlive their source) */
void ps_cpu_copy(struct ps_cpu_info *dst, const struct ps_cpu_info *src);

/*
 * Percentages from the deltas prev -> cur over `seconds`; prev NULL gives
 * the averages since boot. Also picks the busiest core.
 */
void ps_cpu_rates(const struct ps_cpu_info *prev, struct ps_cpu_info *cur,
		  double seconds);

/* "cpu1 96% busy, 71% softirq" into buf; "" when unknown */
void ps_cpu_busiest_text(const struct ps_cpu_info *info, char *buf, size_t len);

struct json_object *ps_cpu_to_json(const struct ps_cpu_info *info);
int ps_cpu_from_json(struct json_object *obj, struct ps_cpu_info *out);
void ps_cpu_print(FILE *out, const struct ps_cpu_info *info);

#endif
