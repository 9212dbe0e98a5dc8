/* probe-procs.h: the processes that use the CPUs (what "top -o %CPU"
 * shows): each process's CPU time from /proc/PID/stat, and the busiest ones
 * over the interval between two samples, so other work beside a test can be
 * named (its command name, pid and share of one core) */
#ifndef PS_PROBE_PROCS_H
#define PS_PROBE_PROCS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

struct json_object;

#define PS_PROCS_MAX 8192 /* processes read in one sample, at most */
#define PS_PROCS_TOP 8	  /* the busiest kept (and written) per sample */

/* one process: its CPU time since it started */
struct ps_proc {
	int pid;
	char comm[32];	/* its command name, sanitised (\x1b for ESC) */
	uint64_t start; /* starttime, clock ticks after boot: a reused pid
			 * is another process */
	uint64_t ticks; /* utime + stime, clock ticks */
	double pct;	/* % of one core over an interval, NaN unknown */
};

struct ps_procs_info {
	enum ps_status status; /* ok when /proc listed processes */
	char reason[160];
	int self;	     /* the sampling process's pid, 0 unknown */
	long hz;	     /* clock ticks per second */
	int nall;	     /* every process read, by pid; not in JSON */
	struct ps_proc *all; /* xmalloc'ed */
	bool truncated;	     /* more than PS_PROCS_MAX */
	/* the busiest over the interval since the sample before (rated),
	 * most first */
	bool rated;
	double interval_s;
	int ntop;
	struct ps_proc top[PS_PROCS_TOP];
};

/*
 * One line of /proc/PID/stat: "pid (comm) state ppid ... utime stime ...
 * starttime ...": the command name is what stands between the first '('
 * and the last ')' (it may hold spaces and parentheses). 0, or -EINVAL
 * (untrusted text: every field bounded).
 */
int ps_procs_parse_stat(const char *text, struct ps_proc *out);

/*
 * The busiest processes from sample a to sample b (seconds apart), a
 * process counted when it is in both (same pid and start); the pids in
 * skip (nskip of them: the test's own processes) left out. Up to max into
 * out, most CPU first; returns how many.
 */
int ps_procs_busiest(const struct ps_procs_info *a,
		     const struct ps_procs_info *b, double seconds,
		     const int *skip, int nskip, struct ps_proc *out, int max);

int ps_procs_sample(const char *ifname, struct ps_procs_info *out);
void ps_procs_rates(const struct ps_procs_info *prev, struct ps_procs_info *cur,
		    double seconds);
void ps_procs_free(struct ps_procs_info *info);

struct json_object *ps_procs_to_json(const struct ps_procs_info *info);
int ps_procs_from_json(struct json_object *obj, struct ps_procs_info *out);
/* n processes as a JSON array of {pid, comm, cpu_pct} (a step's busiest) */
struct json_object *ps_procs_list_json(const struct ps_proc *p, int n);
void ps_procs_print(FILE *out, const struct ps_procs_info *info);

#endif
