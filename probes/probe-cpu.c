/* probe-cpu.c: the per-core CPU split (user/system/irq/softirq/steal ...) of
 * "pipescope probe", the busiest core and why, NUMA node and cpufreq */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "jsonutil.h"
#include "log.h"
#include "nls.h"
#include "probe-cpu.h"
#include "probe.h"
#include "sysroot.h"
#include "xmalloc.h"

static const char *const field_names[PS_CPU_NFIELDS + 1] = {
	[PS_CPU_USER] = "user",	      [PS_CPU_NICE] = "nice",
	[PS_CPU_SYSTEM] = "system",   [PS_CPU_IDLE] = "idle",
	[PS_CPU_IOWAIT] = "iowait",   [PS_CPU_IRQ] = "irq",
	[PS_CPU_SOFTIRQ] = "softirq", [PS_CPU_STEAL] = "steal",
	[PS_CPU_GUEST] = "guest",     [PS_CPU_GUEST_NICE] = "guest_nice",
	[PS_CPU_NFIELDS] = NULL,
};

/* the labels of the text output (translated) */
static const char *const field_labels[PS_CPU_NFIELDS] = {
	[PS_CPU_USER] = N_("user"),
	[PS_CPU_NICE] = N_("nice"),
	[PS_CPU_SYSTEM] = N_("system"),
	[PS_CPU_IDLE] = N_("idle"),
	[PS_CPU_IOWAIT] = N_("iowait"),
	[PS_CPU_IRQ] = N_("irq"),
	[PS_CPU_SOFTIRQ] = N_("softirq"),
	[PS_CPU_STEAL] = N_("steal"),
	[PS_CPU_GUEST] = N_("guest"),
	[PS_CPU_GUEST_NICE] = N_("guest nice"),
};

static const char *const basis_names[] = {
	[PS_CPU_BASIS_NONE] = "none",
	[PS_CPU_BASIS_INTERVAL] = "interval",
	[PS_CPU_BASIS_SINCE_BOOT] = "since_boot",
	NULL,
};

const char *ps_cpu_field_name(enum ps_cpu_field f)
{
	if ((unsigned)f >= PS_CPU_NFIELDS)
		return "?";
	return field_names[f];
}

static void core_init(struct ps_cpu_core *c, int id)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->node = -1;
	c->cur_khz = -1;
	c->max_khz = -1;
}

static void info_init(struct ps_cpu_info *out)
{
	memset(out, 0, sizeof(*out));
	core_init(&out->all, -1);
	out->busiest = -1;
	out->numa_status = PS_ST_NOT_RECORDED;
	out->freq_status = PS_ST_NOT_RECORDED;
}

/* one "cpu..." line: returns the number of value columns, or -1 */
static int parse_values(const char *p, uint64_t *ticks)
{
	int n = 0;

	for (;;) {
		char *end;
		unsigned long long v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n')
			break;
		if (!isdigit((unsigned char)*p))
			return -1;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno || (*end && !isspace((unsigned char)*end)))
			return -1;
		if (n < PS_CPU_NFIELDS)
			ticks[n] = v;
		n++;
		p = end;
	}
	return n;
}

int ps_cpu_parse_stat(const char *text, struct ps_cpu_info *out)
{
	const char *line = text;
	int cap = 0, lineno = 0;
	bool have_all = false;

	info_init(out);
	out->status = PS_ST_ERROR;
	if (!text) {
		snprintf(out->reason, sizeof(out->reason), "%s",
			 _("/proc/stat is empty"));
		return -EINVAL;
	}
	for (; *line; line = strchrnul(line, '\n'), line += *line ? 1 : 0) {
		uint64_t ticks[PS_CPU_NFIELDS] = { 0 };
		const char *p = line;
		long id = -1;
		int n;

		lineno++;
		if (strncmp(p, "cpu", 3))
			continue;
		p += 3;
		if (isdigit((unsigned char)*p)) {
			char *end;

			errno = 0;
			id = strtol(p, &end, 10);
			if (errno || (*end != ' ' && *end != '\t'))
				goto bad;
			if (id > PS_CPU_MAX_ID) {
				snprintf(out->reason, sizeof(out->reason),
					 _("/proc/stat line %d names CPU %ld; "
					   "Linux has at most %d CPUs"),
					 lineno, id, PS_CPU_MAX_ID + 1);
				goto bad_said;
			}
			p = end;
		} else if (*p != ' ' && *p != '\t') {
			goto bad;
		}
		n = parse_values(p, ticks);
		if (n < 4 || n > PS_CPU_NFIELDS)
			goto bad;
		if (out->ncolumns && n != out->ncolumns)
			goto bad;
		out->ncolumns = n;
		if (id < 0) {
			if (have_all)
				goto bad;
			have_all = true;
			memcpy(out->all.ticks, ticks, sizeof(ticks));
			continue;
		}
		for (int i = 0; i < out->ncores; i++)
			if (out->cores[i].id == id)
				goto bad;
		if (out->ncores == cap) {
			cap = cap ? cap * 2 : 16;
			out->cores = xrealloc(
				out->cores, (size_t)cap * sizeof(*out->cores));
		}
		core_init(&out->cores[out->ncores], (int)id);
		memcpy(out->cores[out->ncores].ticks, ticks, sizeof(ticks));
		out->ncores++;
	}
	if (!out->ncores && !have_all) {
		snprintf(out->reason, sizeof(out->reason), "%s",
			 _("/proc/stat has no cpu lines"));
		return -EINVAL;
	}
	if (!have_all) {
		/* tolerate a missing total: add it up */
		for (int i = 0; i < out->ncores; i++)
			for (int f = 0; f < PS_CPU_NFIELDS; f++)
				out->all.ticks[f] += out->cores[i].ticks[f];
	}
	out->status = PS_ST_OK;
	return 0;
bad:
	snprintf(out->reason, sizeof(out->reason),
		 _("/proc/stat line %d is not a cpu line of 4 to 10 counters"),
		 lineno);
bad_said:
	free(out->cores);
	out->cores = NULL;
	out->ncores = 0;
	out->ncolumns = 0;
	return -EINVAL;
}

int ps_cpu_parse_list(const char *text, void (*fn)(int id, void *arg),
		      void *arg)
{
	const char *p = text;

	if (!text)
		return -EINVAL;
	while (*p && *p != '\n') {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		a = strtol(p, &end, 10);
		b = a;
		if (*end == '-') {
			p = end + 1;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			b = strtol(p, &end, 10);
		}
		if (a > PS_CPU_MAX_ID || b > PS_CPU_MAX_ID || b < a)
			return -EINVAL;
		for (long i = a; i <= b; i++)
			fn((int)i, arg);
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return 0;
}

static void count_id(int id, void *arg)
{
	(void)id;
	(*(int *)arg)++;
}

int ps_cpu_list_count(const char *text)
{
	int n = 0;

	return ps_cpu_parse_list(text, count_id, &n) ? -1 : n;
}

int ps_cpu_list_add_range(char *out, size_t len, size_t *used, int a, int b)
{
	int w = b > a ? snprintf(out + *used, len - *used, "%s%d-%d",
				 *used ? "," : "", a, b)
		      : snprintf(out + *used, len - *used, "%s%d",
				 *used ? "," : "", a);

	if (w < 0 || (size_t)w >= len - *used) {
		out[0] = 0;
		return -ENOSPC;
	}
	*used += (size_t)w;
	return 0;
}

/* bit id of a mask's digits (most significant first) */
static bool mask_bit(const char *digits, size_t n, int id)
{
	char d = digits[n - 1 - (size_t)(id / 4)];
	int v = isdigit((unsigned char)d)
			? d - '0'
			: tolower((unsigned char)d) - 'a' + 10;

	return (v >> (id % 4)) & 1;
}

int ps_cpu_mask_to_list(const char *hex, char *out, size_t len)
{
	size_t n = 0, used = 0;
	int start = -1, count = 0, nbits;
	char digits[PS_CPU_MAX_ID / 4 + 8];

	out[0] = 0;
	if (!hex)
		return -EINVAL;
	/* the groups' digits, most significant first, commas dropped */
	for (const char *p = hex; *p && *p != '\n'; p++) {
		if (*p == ',')
			continue;
		if (!isxdigit((unsigned char)*p) || n + 1 >= sizeof(digits))
			return -EINVAL;
		digits[n++] = *p;
	}
	if (!n)
		return -EINVAL;
	/* the runs of set bits, lowest first, as sysfs lists them */
	nbits = (int)n * 4;
	for (int id = 0; id <= nbits; id++) {
		bool on = id < nbits && mask_bit(digits, n, id);

		if (on && start < 0)
			start = id;
		if (!on && start >= 0) {
			if (ps_cpu_list_add_range(out, len, &used, start,
						  id - 1))
				return -ENOSPC;
			count += id - start;
			start = -1;
		}
	}
	return count;
}

static struct ps_cpu_core *core_by_id(const struct ps_cpu_info *info, int id)
{
	for (int i = 0; i < info->ncores; i++)
		if (info->cores[i].id == id)
			return &info->cores[i];
	return NULL;
}

struct node_arg {
	struct ps_cpu_info *info;
	int node;
	int hits;
};

static void set_node(int id, void *arg)
{
	struct node_arg *na = arg;
	struct ps_cpu_core *c = core_by_id(na->info, id);

	if (c) {
		c->node = na->node;
		na->hits++;
	}
}

static bool is_node_dir(const char *name, long *node)
{
	char *end;

	if (strncmp(name, "node", 4) || !isdigit((unsigned char)name[4]))
		return false;
	*node = strtol(name + 4, &end, 10);
	return !*end;
}

/* /sys/devices/system/node/nodeM/cpulist, else cpuN/nodeM links */
static void sample_numa(struct ps_cpu_info *info)
{
	char path[4096];
	struct dirent *de;
	DIR *d;
	int hits = 0;

	d = ps_opendir("/sys/devices/system/node");
	if (d) {
		while ((de = readdir(d))) {
			struct node_arg na = { .info = info };
			char rel[320], *text;
			long node;

			if (!is_node_dir(de->d_name, &node))
				continue;
			snprintf(rel, sizeof(rel),
				 "/sys/devices/system/node/%s/cpulist",
				 de->d_name);
			text = ps_read_file(rel, NULL);
			if (!text)
				continue;
			na.node = (int)node;
			if (!ps_cpu_parse_list(text, set_node, &na)) {
				info->nnodes++;
				hits += na.hits;
			}
			free(text);
		}
		closedir(d);
	}
	if (!hits) {
		info->nnodes = 0;
		for (int i = 0; i < info->ncores; i++) {
			struct ps_cpu_core *c = &info->cores[i];
			long node;

			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d", c->id);
			d = ps_opendir(path);
			if (!d)
				continue;
			while ((de = readdir(d)))
				if (is_node_dir(de->d_name, &node)) {
					c->node = (int)node;
					hits++;
					if (node + 1 > info->nnodes)
						info->nnodes = (int)node + 1;
					break;
				}
			closedir(d);
		}
	}
	if (hits) {
		info->numa_status = PS_ST_OK;
		return;
	}
	if (ps_sysroot_is_live()) {
		info->numa_status = PS_ST_UNSUPPORTED;
		snprintf(info->numa_reason, sizeof(info->numa_reason), "%s",
			 _("the kernel shows no NUMA nodes in sysfs"));
	} else {
		info->numa_status = PS_ST_NOT_RECORDED;
		snprintf(info->numa_reason, sizeof(info->numa_reason), "%s",
			 _("no NUMA node files in the recorded tree"));
	}
}

static void sample_freq(struct ps_cpu_info *info)
{
	int hits = 0;

	for (int i = 0; i < info->ncores; i++) {
		struct ps_cpu_core *c = &info->cores[i];
		char rel[96];
		long khz;

		snprintf(rel, sizeof(rel),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/"
			 "scaling_governor",
			 c->id);
		if (!ps_read_line(rel, c->governor, sizeof(c->governor)))
			hits++;
		else
			c->governor[0] = 0;
		snprintf(rel, sizeof(rel),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/"
			 "scaling_cur_freq",
			 c->id);
		if (!ps_read_long(rel, &khz) && khz > 0) {
			c->cur_khz = khz;
			hits++;
		}
		snprintf(rel, sizeof(rel),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/"
			 "cpuinfo_max_freq",
			 c->id);
		if (!ps_read_long(rel, &khz) && khz > 0)
			c->max_khz = khz;
	}
	if (hits) {
		info->freq_status = PS_ST_OK;
		return;
	}
	if (ps_sysroot_is_live()) {
		info->freq_status = PS_ST_UNSUPPORTED;
		snprintf(info->freq_reason, sizeof(info->freq_reason), "%s",
			 _("no cpufreq in sysfs (a virtual machine, or no "
			   "frequency driver)"));
	} else {
		info->freq_status = PS_ST_NOT_RECORDED;
		snprintf(info->freq_reason, sizeof(info->freq_reason), "%s",
			 _("no cpufreq files in the recorded tree"));
	}
}

struct offline_arg {
	struct ps_cpu_info *info;
	int cap;
};

static void add_offline(int id, void *arg)
{
	struct offline_arg *oa = arg;
	struct ps_cpu_info *info = oa->info;

	if (core_by_id(info, id))
		return;
	if (info->noffline == oa->cap) {
		oa->cap = oa->cap ? oa->cap * 2 : 8;
		info->offline =
			xrealloc(info->offline, (size_t)oa->cap * sizeof(int));
	}
	info->offline[info->noffline++] = id;
}

static void max_id(int id, void *arg)
{
	int *n = arg;

	if (id + 1 > *n)
		*n = id + 1;
}

/* one past the highest N of the "cpuN " lines of /proc/stat's text */
static int stat_ids(const char *text)
{
	int n = 0;

	for (const char *l = text; *l; l = strchrnul(l, '\n'), l += !!*l) {
		char *end;
		long id;

		if (strncmp(l, "cpu", 3) || !isdigit((unsigned char)l[3]))
			continue;
		errno = 0;
		id = strtol(l + 3, &end, 10);
		if (!errno && id <= PS_CPU_MAX_ID &&
		    (*end == ' ' || *end == '\t'))
			max_id((int)id, &n);
	}
	return n;
}

int ps_cpu_known_ids(void)
{
	static const char *const lists[] = {
		"/sys/devices/system/cpu/possible",
		"/sys/devices/system/cpu/present",
	};
	char *text;
	int n = 0;

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]) && !n; i++) {
		text = ps_read_file(lists[i], NULL);
		if (text && ps_cpu_parse_list(text, max_id, &n))
			n = 0;
		free(text);
	}
	if (!n && (text = ps_read_file("/proc/stat", NULL))) {
		n = stat_ids(text);
		free(text);
	}
	return n;
}

int ps_cpu_sample(const char *ifname, struct ps_cpu_info *out)
{
	struct offline_arg oa = { .info = out };
	char *text;
	int rc;

	text = ps_read_file("/proc/stat", NULL);
	if (!text) {
		int e = errno;

		info_init(out);
		out->status = e == ENOENT && !ps_sysroot_is_live()
				      ? PS_ST_NOT_RECORDED
			      : e == EACCES ? PS_ST_NEEDS_ROOT
					    : PS_ST_ERROR;
		snprintf(out->reason, sizeof(out->reason),
			 _("cannot read /proc/stat: %s"), ps_strerror(e));
		return -e;
	}
	rc = ps_cpu_parse_stat(text, out);
	free(text);
	if (rc)
		return rc;
	text = ps_read_file("/sys/devices/system/cpu/present", NULL);
	if (text) {
		if (ps_cpu_parse_list(text, add_offline, &oa)) {
			free(out->offline);
			out->offline = NULL;
			out->noffline = 0;
		}
		free(text);
	}
	sample_numa(out);
	sample_freq(out);
	return 0;
}

void ps_cpu_free(struct ps_cpu_info *info)
{
	if (!info)
		return;
	free(info->cores);
	free(info->offline);
	info->cores = NULL;
	info->offline = NULL;
	info->ncores = 0;
	info->noffline = 0;
}

void ps_cpu_copy(struct ps_cpu_info *dst, const struct ps_cpu_info *src)
{
	*dst = *src;
	dst->cores = NULL;
	dst->offline = NULL;
	if (src->ncores) {
		dst->cores = xmalloc((size_t)src->ncores * sizeof(*src->cores));
		memcpy(dst->cores, src->cores,
		       (size_t)src->ncores * sizeof(*src->cores));
	}
	if (src->noffline) {
		dst->offline = xmalloc((size_t)src->noffline * sizeof(int));
		memcpy(dst->offline, src->offline,
		       (size_t)src->noffline * sizeof(int));
	}
}

/* the delta of one core; prev NULL: since boot */
static void core_rates(const struct ps_cpu_core *prev, struct ps_cpu_core *cur)
{
	double d[PS_CPU_NFIELDS], total = 0;

	for (int f = 0; f < PS_CPU_NFIELDS; f++) {
		uint64_t a = prev ? prev->ticks[f] : 0, b = cur->ticks[f];

		/* iowait (and counters after a hotplug) can go backwards */
		d[f] = b > a ? (double)(b - a) : 0;
		/* guest time is already inside user and nice */
		if (f != PS_CPU_GUEST && f != PS_CPU_GUEST_NICE)
			total += d[f];
	}
	if (total <= 0) {
		cur->pct_valid = false;
		memset(cur->pct, 0, sizeof(cur->pct));
		cur->busy_pct = 0;
		return;
	}
	for (int f = 0; f < PS_CPU_NFIELDS; f++)
		cur->pct[f] = 100.0 * d[f] / total;
	cur->busy_pct = 100.0 - cur->pct[PS_CPU_IDLE] - cur->pct[PS_CPU_IOWAIT];
	if (cur->busy_pct < 0)
		cur->busy_pct = 0;
	cur->pct_valid = true;
}

/* the biggest non-idle share of a core */
static enum ps_cpu_field main_field(const struct ps_cpu_core *c)
{
	static const enum ps_cpu_field busy_fields[] = {
		PS_CPU_USER, PS_CPU_NICE,    PS_CPU_SYSTEM,
		PS_CPU_IRQ,  PS_CPU_SOFTIRQ, PS_CPU_STEAL,
	};
	enum ps_cpu_field best = PS_CPU_USER;

	for (size_t i = 0; i < sizeof(busy_fields) / sizeof(busy_fields[0]);
	     i++)
		if (c->pct[busy_fields[i]] > c->pct[best])
			best = busy_fields[i];
	return best;
}

static void pick_busiest(struct ps_cpu_info *cur)
{
	cur->busiest = -1;
	for (int i = 0; i < cur->ncores; i++) {
		const struct ps_cpu_core *c = &cur->cores[i];

		if (!c->pct_valid)
			continue;
		/* ties go to the lower index: stable output */
		if (cur->busiest < 0 ||
		    c->busy_pct > cur->cores[cur->busiest].busy_pct + 1e-9)
			cur->busiest = i;
	}
	if (cur->busiest >= 0)
		cur->busiest_main = main_field(&cur->cores[cur->busiest]);
}

void ps_cpu_rates(const struct ps_cpu_info *prev, struct ps_cpu_info *cur,
		  double seconds)
{
	if (cur->status != PS_ST_OK) {
		cur->basis = PS_CPU_BASIS_NONE;
		return;
	}
	if (prev && prev->status != PS_ST_OK)
		prev = NULL;
	cur->basis = prev ? PS_CPU_BASIS_INTERVAL : PS_CPU_BASIS_SINCE_BOOT;
	cur->interval_s = prev ? seconds : 0;
	core_rates(prev ? &prev->all : NULL, &cur->all);
	for (int i = 0; i < cur->ncores; i++) {
		const struct ps_cpu_core *p = NULL;

		if (prev) {
			p = core_by_id(prev, cur->cores[i].id);
			/* a core that came online: nothing to compare */
			if (!p) {
				cur->cores[i].pct_valid = false;
				continue;
			}
		}
		core_rates(p, &cur->cores[i]);
	}
	pick_busiest(cur);
}

void ps_cpu_busiest_text(const struct ps_cpu_info *info, char *buf, size_t len)
{
	const struct ps_cpu_core *c;

	if (!len)
		return;
	buf[0] = 0;
	if (info->busiest < 0 || info->busiest >= info->ncores)
		return;
	c = &info->cores[info->busiest];
	/* TRANSLATORS: "cpu1 96% busy, 71% softirq" */
	snprintf(buf, len, _("cpu%d %.0f%% busy, %.0f%% %s"), c->id,
		 c->busy_pct, c->pct[info->busiest_main],
		 _(field_labels[info->busiest_main]));
}

/* ---- JSON: tables (doc/snapshot.md "cpu") ---- */

#define CI struct ps_cpu_info
#define CC struct ps_cpu_core

static bool core_numbered(const void *base)
{
	return ((const CC *)base)->id >= 0;
}

/* a core's "cpu" and "node" (not the all-CPU line's), ... */
static const struct ps_jfield core_head[] = { { .key = "cpu",
						.type = PS_JT_INT,
						.flags = PS_JF_REQUIRED,
						.off = offsetof(CC, id),
						.size = PS_JSIZE(CC, id),
						.when = core_numbered },
					      { .key = "node",
						.type = PS_JT_INT,
						.flags = PS_JF_NA,
						.off = offsetof(CC, node),
						.size = PS_JSIZE(CC, node),
						.when = core_numbered },
					      PS_JEND };

/* ... its "ticks" and "pct": the first ncolumns columns (the info's) ... */
#define TICK(f, k)                                                             \
	{                                                                      \
		.key = (k), .type = PS_JT_UINT, .flags = PS_JF_REQUIRED,       \
		.off = offsetof(CC, ticks[f]), .size = sizeof(uint64_t)        \
	}
#define PCT(f, k)                                                              \
	{                                                                      \
		.key = (k), .type = PS_JT_DOUBLE,                              \
		.flags = PS_JF_REQUIRED | PS_JF_FIXED, .decimals = 1,          \
		.off = offsetof(CC, pct[f]), .size = sizeof(double)            \
	}
#define COLUMNS(X)                                                             \
	X(PS_CPU_USER, "user"), X(PS_CPU_NICE, "nice"),                        \
		X(PS_CPU_SYSTEM, "system"), X(PS_CPU_IDLE, "idle"),            \
		X(PS_CPU_IOWAIT, "iowait"), X(PS_CPU_IRQ, "irq"),              \
		X(PS_CPU_SOFTIRQ, "softirq"), X(PS_CPU_STEAL, "steal"),        \
		X(PS_CPU_GUEST, "guest"), X(PS_CPU_GUEST_NICE, "guest_nice")
static const struct ps_jfield ticks_table[] = { COLUMNS(TICK), PS_JEND };
static const struct ps_jfield pct_table[] = { COLUMNS(PCT), PS_JEND };
static const struct ps_jfield busy_table[] = { { .key = "busy",
						 .type = PS_JT_DOUBLE,
						 .flags = PS_JF_REQUIRED |
							  PS_JF_FIXED,
						 .decimals = 1,
						 .off = offsetof(CC, busy_pct),
						 .size = sizeof(double) },
					       PS_JEND };

/* ... and its cpufreq */
static const struct ps_jfield core_tail[] = {
	PS_JFIELD(CC, governor, "governor", PS_JT_STRING, PS_JF_NA, NULL, NULL),
	PS_JFIELD(CC, cur_khz, "cur_khz", PS_JT_INT, PS_JF_POSITIVE, NULL,
		  NULL),
	PS_JFIELD(CC, max_khz, "max_khz", PS_JT_INT, PS_JF_POSITIVE, NULL,
		  NULL),
	PS_JEND
};

static struct json_object *core_to_json(const CI *info, const CC *c)
{
	struct json_object *o = ps_jtable_to_json(core_head, c), *t;
	size_t n = (size_t)info->ncolumns;

	t = json_object_new_object();
	ps_jtable_put_n(t, ticks_table, n, c);
	json_object_object_add(o, "ticks", t);
	if (c->pct_valid) {
		t = json_object_new_object();
		ps_jtable_put_n(t, pct_table, n, c);
		ps_jtable_put(t, busy_table, c);
		json_object_object_add(o, "pct", t);
	}
	ps_jtable_put(o, core_tail, c);
	return o;
}

/* 0, or -EINVAL: a core as the writer writes it, nothing missing */
static int core_from_json(struct json_object *o, CC *c, int ncolumns,
			  bool is_all)
{
	struct json_object *t;

	core_init(c, is_all ? -1 : 0);
	if (!json_object_is_type(o, json_type_object) ||
	    ps_jtable_load(o, core_head, c) || c->id > PS_CPU_MAX_ID ||
	    (!is_all && c->id < 0))
		return -EINVAL;
	t = ps_json_get_obj(o, "ticks", json_type_object);
	if (!t || ps_jtable_load_n(t, ticks_table, (size_t)ncolumns, c))
		return -EINVAL;
	t = ps_json_get_obj(o, "pct", json_type_object);
	if (t) {
		if (ps_jtable_load_n(t, pct_table, (size_t)ncolumns, c) ||
		    ps_jtable_load(t, busy_table, c))
			return -EINVAL;
		c->pct_valid = true;
	}
	ps_jtable_load(o, core_tail, c);
	return 0;
}

/* "all" */
static void all_put(struct json_object *obj, const struct ps_jfield *f,
		    const void *base)
{
	json_object_object_add(obj, f->key,
			       core_to_json(base, &((const CI *)base)->all));
}

static int all_load(struct json_object *obj, const struct ps_jfield *f,
		    void *base)
{
	CI *info = base;

	return core_from_json(ps_json_get_obj(obj, f->key, json_type_object),
			      &info->all, info->ncolumns, true);
}

/* "cores": one per row of /proc/stat */
static void cores_put(struct json_object *obj, const struct ps_jfield *f,
		      const void *base)
{
	const CI *info = base;
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < info->ncores; i++)
		json_object_array_add(a, core_to_json(info, &info->cores[i]));
	json_object_object_add(obj, f->key, a);
}

static int cores_load(struct json_object *obj, const struct ps_jfield *f,
		      void *base)
{
	struct json_object *a = ps_json_get_obj(obj, f->key, json_type_array);
	CI *info = base;
	size_t n = a ? json_object_array_length(a) : 0;

	if (!a || n > PS_CPU_MAX_ID + 1)
		return -EINVAL;
	info->ncores = (int)n;
	info->cores = xcalloc(n + 1, sizeof(*info->cores));
	for (size_t i = 0; i < n; i++)
		if (core_from_json(json_object_array_get_idx(a, i),
				   &info->cores[i], info->ncolumns, false))
			return -EINVAL;
	return 0;
}

/* "offline": CPU ids */
static int offline_load(struct json_object *obj, const struct ps_jfield *f,
			void *base)
{
	struct json_object *a = ps_json_get_obj(obj, f->key, json_type_array);
	CI *info = base;
	size_t n = a ? json_object_array_length(a) : 0;

	if (!n)
		return 0;
	if (n > PS_CPU_MAX_ID + 1)
		return -EINVAL;
	info->offline = xcalloc(n, sizeof(int));
	for (size_t i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(a, i);

		if (!json_object_is_type(v, json_type_int))
			return -EINVAL;
		info->offline[info->noffline++] = json_object_get_int(v);
	}
	return 0;
}

/* "busiest": the core (by its id) and its largest non-idle column */
struct busiest {
	int cpu;
	double busy_pct;
	int main;
	double main_pct;
};

static const struct ps_jfield busiest_table[] = {
	PS_JFIELD(struct busiest, cpu, "cpu", PS_JT_INT, PS_JF_REQUIRED, NULL,
		  NULL),
	{ .key = "busy_pct",
	  .type = PS_JT_DOUBLE,
	  .flags = PS_JF_FIXED,
	  .decimals = 1,
	  .off = offsetof(struct busiest, busy_pct),
	  .size = sizeof(double) },
	PS_JENUM(struct busiest, main, "main", PS_JF_REQUIRED, field_names,
		 NULL, NULL),
	{ .key = "main_pct",
	  .type = PS_JT_DOUBLE,
	  .flags = PS_JF_FIXED,
	  .decimals = 1,
	  .off = offsetof(struct busiest, main_pct),
	  .size = sizeof(double) },
	PS_JEND
};

static void busiest_put(struct json_object *obj, const struct ps_jfield *f,
			const void *base)
{
	const CI *info = base;
	const CC *c;
	struct busiest b;

	if (info->busiest < 0 || info->busiest >= info->ncores)
		return;
	c = &info->cores[info->busiest];
	b = (struct busiest){ c->id, c->busy_pct, (int)info->busiest_main,
			      c->pct[info->busiest_main] };
	json_object_object_add(obj, f->key,
			       ps_jtable_to_json(busiest_table, &b));
}

static int busiest_load(struct json_object *obj, const struct ps_jfield *f,
			void *base)
{
	struct json_object *o = ps_json_get_obj(obj, f->key, json_type_object);
	struct busiest b = { .main = PS_NA };
	CI *info = base;

	if (!o)
		return 0;
	if (ps_jtable_load(o, busiest_table, &b) || b.main < 0)
		return -EINVAL;
	for (int i = 0; i < info->ncores; i++)
		if (info->cores[i].id == b.cpu)
			info->busiest = i;
	if (info->busiest < 0)
		return -EINVAL;
	info->busiest_main = (enum ps_cpu_field)b.main;
	return 0;
}

static const struct ps_jcodec all_codec = { .put = all_put };
static const struct ps_jcodec cores_codec = { .put = cores_put };
static const struct ps_jcodec busiest_codec = { .put = busiest_put };

static bool interval_basis(const void *base)
{
	return ((const CI *)base)->basis == PS_CPU_BASIS_INTERVAL;
}

static const struct ps_jfield numa_table[] = {
	PS_JSTATUS(CI, numa_status, numa_reason, PS_JF_NA),
	PS_JFIELD(CI, nnodes, "nodes", PS_JT_INT, 0, NULL, NULL), PS_JEND
};

static const struct ps_jfield freq_table[] = {
	PS_JSTATUS(CI, freq_status, freq_reason, PS_JF_NA), PS_JEND
};

/* an entry of the section when it is ok, written by its codec; its .load
 * says what is malformed (a missing "busiest" is not) */
#define CUSTOM(k, cod, ld)                                                     \
	{                                                                      \
		.key = (k), .type = PS_JT_CUSTOM,                              \
		.flags = PS_JF_OK | PS_JF_REQUIRED, .codec = (cod),            \
		.load = (ld)                                                   \
	}

static const struct ps_jfield cpu_table[] = {
	PS_JSTATUS(CI, status, reason, PS_JF_NA),
	PS_JFIELD(CI, ncolumns, "columns", PS_JT_INT, PS_JF_OK | PS_JF_REQUIRED,
		  NULL, NULL),
	PS_JENUM(CI, basis, "basis", PS_JF_OK | PS_JF_REQUIRED, basis_names,
		 NULL, NULL),
	{ .key = "interval_s",
	  .type = PS_JT_DOUBLE,
	  .flags = PS_JF_OK | PS_JF_REQUIRED | PS_JF_FIXED,
	  .decimals = 3,
	  .off = offsetof(CI, interval_s),
	  .size = PS_JSIZE(CI, interval_s),
	  .when = interval_basis },
	CUSTOM("all", &all_codec, all_load),
	CUSTOM("cores", &cores_codec, cores_load),
	{ .key = "offline",
	  .type = PS_JT_ARRAY,
	  .flags = PS_JF_OK | PS_JF_REQUIRED, /* malformed: refused */
	  .off = offsetof(CI, offline),
	  .size = PS_JSIZE(CI, offline),
	  .off2 = offsetof(CI, noffline),
	  .size2 = PS_JSIZE(CI, noffline),
	  .elem = PS_JT_INT,
	  .elem_size = sizeof(int),
	  .load = offline_load },
	CUSTOM("busiest", &busiest_codec, busiest_load),
	PS_JOBJECT("numa", PS_JF_OK, numa_table, NULL),
	PS_JOBJECT("cpufreq", PS_JF_OK, freq_table, NULL),
	PS_JEND
};

#undef CUSTOM
#undef COLUMNS
#undef PCT
#undef TICK
#undef CC
#undef CI

struct json_object *ps_cpu_to_json(const struct ps_cpu_info *info)
{
	return ps_jtable_to_json(cpu_table, info);
}

int ps_cpu_from_json(struct json_object *obj, struct ps_cpu_info *out)
{
	info_init(out);
	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	if (!ps_jtable_load(obj, cpu_table, out) &&
	    (out->status != PS_ST_OK ||
	     (out->ncolumns >= 4 && out->ncolumns <= PS_CPU_NFIELDS)))
		return 0;
	ps_cpu_free(out);
	out->status = PS_ST_ERROR;
	snprintf(out->reason, sizeof(out->reason), "%s",
		 _("the snapshot's cpu section is malformed"));
	return -EINVAL;
}

/* ---- text ---- */

static void print_core(FILE *out, const struct ps_cpu_info *info,
		       const struct ps_cpu_core *c)
{
	if (c->id >= 0)
		fprintf(out, "  cpu%-4d", c->id);
	else
		fprintf(out, "  %-7s", _("all"));
	if (!c->pct_valid) {
		fprintf(out, " %s\n", _("n/a"));
		return;
	}
	/* top's letters: us(+ni) sy hi si st wa */
	fprintf(out, " %4.0f%%  us %3.0f  sy %3.0f  hi %3.0f  si %3.0f",
		c->busy_pct, c->pct[PS_CPU_USER] + c->pct[PS_CPU_NICE],
		c->pct[PS_CPU_SYSTEM], c->pct[PS_CPU_IRQ],
		c->pct[PS_CPU_SOFTIRQ]);
	if (info->ncolumns > PS_CPU_STEAL)
		fprintf(out, "  st %3.0f", c->pct[PS_CPU_STEAL]);
	if (info->ncolumns > PS_CPU_IOWAIT)
		fprintf(out, "  wa %3.0f", c->pct[PS_CPU_IOWAIT]);
	if (c->id >= 0 && c->node >= 0)
		fprintf(out, "  %s %d", _("node"), c->node);
	if (c->cur_khz > 0)
		fprintf(out, "  %ld MHz", c->cur_khz / 1000);
	if (c->max_khz > 0)
		fprintf(out, _(" (max %ld)"), c->max_khz / 1000);
	if (c->governor[0])
		fprintf(out, " %s", c->governor);
	fputc('\n', out);
}

void ps_cpu_print(FILE *out, const struct ps_cpu_info *info)
{
	char busy[128];
	int shown = 0, limit = info->ncores > 16 ? 8 : 16;

	if (info->status != PS_ST_OK) {
		fprintf(out, "  %s: %s\n", ps_status_text(info->status),
			info->reason);
		return;
	}
	fprintf(out, "  ");
	fprintf(out, P_("%d CPU online", "%d CPUs online", info->ncores),
		info->ncores);
	if (info->noffline)
		fprintf(out, P_(", %d offline", ", %d offline", info->noffline),
			info->noffline);
	if (info->numa_status == PS_ST_OK)
		fprintf(out,
			P_(", %d NUMA node", ", %d NUMA nodes", info->nnodes),
			info->nnodes);
	if (info->basis == PS_CPU_BASIS_INTERVAL)
		fprintf(out, _(", busy %% over %.1f s"), info->interval_s);
	else if (info->basis == PS_CPU_BASIS_SINCE_BOOT)
		fprintf(out, "%s",
			_(", busy % averaged since boot (one sample)"));
	fputc('\n', out);
	ps_cpu_busiest_text(info, busy, sizeof(busy));
	if (*busy)
		fprintf(out, "  %s: %s\n", _("busiest"), busy);
	if (info->all.pct_valid && info->ncolumns > PS_CPU_STEAL &&
	    info->all.pct[PS_CPU_STEAL] >= 0.05)
		fprintf(out,
			_("  steal: %.1f%% of all CPU time (the hypervisor ran "
			  "someone else)\n"),
			info->all.pct[PS_CPU_STEAL]);
	print_core(out, info, &info->all);
	/* one screen: the busiest cores first when there are many */
	if (info->ncores <= limit) {
		for (int i = 0; i < info->ncores; i++)
			print_core(out, info, &info->cores[i]);
		shown = info->ncores;
	} else {
		char *done = xcalloc((size_t)info->ncores, 1);

		for (; shown < limit; shown++) {
			int best = -1;

			for (int i = 0; i < info->ncores; i++)
				if (!done[i] &&
				    (best < 0 ||
				     info->cores[i].busy_pct >
					     info->cores[best].busy_pct))
					best = i;
			if (best < 0)
				break;
			done[best] = 1;
			print_core(out, info, &info->cores[best]);
		}
		free(done);
		fprintf(out,
			_("  ... %d more (the busiest are shown; --json has "
			  "all)\n"),
			info->ncores - shown);
	}
	if (info->numa_status != PS_ST_OK)
		fprintf(out, "  %s: %s\n", _("NUMA"), info->numa_reason);
	if (info->freq_status != PS_ST_OK)
		fprintf(out, "  %s: %s\n", _("cpufreq"), info->freq_reason);
}

/* the probe "pipescope probe" runs (probe.h), in PS_PROBE_LIST */
PS_PROBE_GLUE(cpu)

/* with one sample the CPU probe gives the averages since boot */
static void cpu_op_rates(const struct ps_snapshot *prev,
			 struct ps_snapshot *cur, double sec)
{
	ps_cpu_rates(prev ? &prev->cpu : NULL, &cur->cpu, sec);
}

/* clang-format would pack a list that starts with a macro */
/* clang-format off */
const struct ps_probe_ops ps_cpu_ops = {
	PS_PROBE_OPS(cpu),
	.title = N_("CPU"),
	.rates = cpu_op_rates,
};
/* clang-format on */
