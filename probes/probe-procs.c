/* probe-procs.c: the processes that use the CPUs, from /proc/PID/stat
 * (probe-procs.h) */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonutil.h"
#include "log.h"
#include "nls.h"
#include "probe-procs.h"
#include "probe.h"
#include "sanitize.h"
#include "sysroot.h"
#include "xmalloc.h"

/* ---- one /proc/PID/stat ------------------------------------------------ */

/* the next space-separated field of p (bounded by end): true with its
 * value when it is a number (a negative one counts as 0: tpgid, nice) */
static bool field(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	bool neg;
	char *e;

	while (s < end && *s == ' ')
		s++;
	neg = s < end && *s == '-';
	if (s + neg >= end || !isdigit((unsigned char)s[neg])) {
		/* not a number (the state letter): skipped */
		while (s < end && *s != ' ')
			s++;
		*p = s;
		return false;
	}
	errno = 0;
	*v = strtoull(s + neg, &e, 10);
	if (errno || e > end)
		return false;
	if (neg)
		*v = 0;
	*p = e;
	return true;
}

int ps_procs_parse_stat(const char *text, struct ps_proc *out)
{
	const char *open, *close, *p, *end;
	uint64_t v[20] = { 0 }, utime, stime;
	char comm[64];
	size_t n;
	long pid;
	char *e;

	memset(out, 0, sizeof(*out));
	out->pct = NAN;
	if (!text)
		return -EINVAL;
	end = text + strnlen(text, 4096);
	open = memchr(text, '(', (size_t)(end - text));
	close = NULL;
	for (const char *q = end; q > text; q--)
		if (q[-1] == ')') {
			close = q - 1;
			break;
		}
	if (!open || !close || close < open)
		return -EINVAL;
	errno = 0;
	pid = strtol(text, &e, 10);
	if (errno || e == text || pid <= 0 || pid > 1L << 30)
		return -EINVAL;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(comm))
		n = sizeof(comm) - 1;
	memcpy(comm, open + 1, n);
	comm[n] = 0;
	/* after ')': state ppid pgrp ... (fields 3 to 22) */
	p = close + 1;
	for (int i = 0; i < 20; i++)
		if (!field(&p, end, &v[i]) && i > 0)
			return -EINVAL;
	utime = v[11];
	stime = v[12];
	if (utime > UINT64_MAX / 2 || stime > UINT64_MAX / 2)
		return -EINVAL;
	out->pid = (int)pid;
	ps_sanitize(out->comm, sizeof(out->comm), comm, 0);
	out->ticks = utime + stime;
	out->start = v[19];
	return 0;
}

/* ---- the busiest over an interval -------------------------------------- */

static int cmp_pid(const void *a, const void *b)
{
	const struct ps_proc *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static const struct ps_proc *find(const struct ps_procs_info *i,
				  const struct ps_proc *p)
{
	const struct ps_proc *q;

	if (!i->all || i->nall <= 0)
		return NULL;
	q = bsearch(p, i->all, (size_t)i->nall, sizeof(*p), cmp_pid);
	return q && q->start == p->start ? q : NULL;
}

static bool skipped(int pid, const int *skip, int nskip)
{
	for (int i = 0; i < nskip; i++)
		if (skip[i] == pid)
			return true;
	return false;
}

int ps_procs_busiest(const struct ps_procs_info *a,
		     const struct ps_procs_info *b, double seconds,
		     const int *skip, int nskip, struct ps_proc *out, int max)
{
	int n = 0;

	if (!(seconds > 0) || b->hz <= 0 || max <= 0)
		return 0;
	for (int i = 0; i < b->nall; i++) {
		const struct ps_proc *p = &b->all[i], *q = find(a, p);
		double pct;
		int k;

		if (!q || p->ticks < q->ticks || skipped(p->pid, skip, nskip))
			continue;
		pct = (double)(p->ticks - q->ticks) / (double)b->hz / seconds *
		      100;
		if (!(pct > 0))
			continue;
		/* insertion into the sorted few: a free slot, or the last
		 * one's place when it took less */
		if (n < max)
			k = n++;
		else if (out[max - 1].pct < pct)
			k = max - 1;
		else
			continue;
		while (k > 0 && out[k - 1].pct < pct) {
			out[k] = out[k - 1];
			k--;
		}
		out[k] = *p;
		out[k].pct = pct;
	}
	return n;
}

/* ---- sampling ---------------------------------------------------------- */

static void add(struct ps_procs_info *out, int *cap, const struct ps_proc *p)
{
	if (out->nall == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		out->all = xrealloc(out->all, (size_t)*cap * sizeof(*p));
	}
	out->all[out->nall++] = *p;
}

int ps_procs_sample(const char *ifname, struct ps_procs_info *out)
{
	struct dirent *de;
	int cap = 0;
	DIR *d;

	(void)ifname;
	memset(out, 0, sizeof(*out));
	out->hz = sysconf(_SC_CLK_TCK);
	if (out->hz <= 0)
		out->hz = 100;
	out->self = ps_sysroot_is_live() ? (int)getpid() : 0;
	d = ps_opendir("/proc");
	if (!d) {
		out->status =
			ps_sysroot_is_live() ? PS_ST_ERROR : PS_ST_NOT_RECORDED;
		snprintf(out->reason, sizeof(out->reason),
			 _("/proc cannot be listed: %s"), ps_strerror(errno));
		return -errno;
	}
	while ((de = readdir(d))) {
		char rel[64], buf[1024];
		struct ps_proc p;
		char *e;
		long pid = strtol(de->d_name, &e, 10);

		if (!isdigit((unsigned char)de->d_name[0]) || *e || pid <= 0)
			continue;
		if (out->nall >= PS_PROCS_MAX) {
			out->truncated = true;
			break;
		}
		snprintf(rel, sizeof(rel), "/proc/%ld/stat", pid);
		/* a process that ended meanwhile is not one */
		if (ps_read_line(rel, buf, sizeof(buf)) ||
		    ps_procs_parse_stat(buf, &p) || p.pid != pid)
			continue;
		add(out, &cap, &p);
	}
	closedir(d);
	if (!out->nall) {
		out->status =
			ps_sysroot_is_live() ? PS_ST_ERROR : PS_ST_NOT_RECORDED;
		snprintf(out->reason, sizeof(out->reason), "%s",
			 ps_sysroot_is_live()
				 ? _("no processes visible in /proc")
				 : _("no processes in the recording"));
		return -ENOENT;
	}
	qsort(out->all, (size_t)out->nall, sizeof(*out->all), cmp_pid);
	out->status = PS_ST_OK;
	return 0;
}

void ps_procs_rates(const struct ps_procs_info *prev, struct ps_procs_info *cur,
		    double seconds)
{
	if (prev->status != PS_ST_OK || cur->status != PS_ST_OK)
		return;
	cur->ntop = ps_procs_busiest(prev, cur, seconds, NULL, 0, cur->top,
				     PS_PROCS_TOP);
	cur->rated = true;
	cur->interval_s = seconds;
}

void ps_procs_free(struct ps_procs_info *info)
{
	free(info->all);
	info->all = NULL;
	info->nall = 0;
}

/* ---- JSON and text ------------------------------------------------------- */

#define T struct ps_procs_info
#define P struct ps_proc
/* clang-format off */
static const struct ps_jfield proc_table[] = {
	PS_JFIELD(P, pid, "pid", PS_JT_INT, 0, NULL, NULL),
	PS_JFIELD(P, comm, "comm", PS_JT_STRING, 0, NULL, NULL),
	{ .key = "cpu_pct", .type = PS_JT_DOUBLE,
	  .flags = PS_JF_NA | PS_JF_FIXED, .off = offsetof(P, pct),
	  .size = PS_JSIZE(P, pct), .decimals = 1 },
	PS_JEND
};

static const struct ps_jfield procs_table[] = {
	PS_JSTATUS(T, status, reason, PS_JF_NA),
	PS_JFIELD(T, self, "self_pid", PS_JT_INT, PS_JF_OK, NULL, NULL),
	PS_JFIELD(T, truncated, "truncated", PS_JT_BOOL, PS_JF_OK, NULL,
		  NULL),
	{ .key = "interval_s", .type = PS_JT_DOUBLE,
	  .flags = PS_JF_OK | PS_JF_NA | PS_JF_FIXED | PS_JF_NOTEXT,
	  .off = offsetof(T, interval_s), .size = PS_JSIZE(T, interval_s),
	  .decimals = 3 },
	PS_JARRAY_IN(T, top, ntop, "busiest", PS_JT_OBJECT, PS_JF_OK,
		     proc_table),
	PS_JEND
};
/* clang-format on */
#undef P
#undef T

struct json_object *ps_procs_to_json(const struct ps_procs_info *info)
{
	return ps_jtable_to_json(procs_table, info);
}

struct json_object *ps_procs_list_json(const struct ps_proc *p, int n)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < n; i++)
		json_object_array_add(a, ps_jtable_to_json(proc_table, &p[i]));
	return a;
}

int ps_procs_from_json(struct json_object *obj, struct ps_procs_info *out)
{
	int n = 0;

	memset(out, 0, sizeof(*out));
	out->interval_s = NAN;
	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	ps_jtable_get(obj, procs_table, out);
	/* the far end's or a file's: bounded, each name sanitised */
	for (int i = 0; i < out->ntop && i < PS_PROCS_TOP; i++) {
		struct ps_proc *p = &out->top[i];
		char safe[sizeof(p->comm)];

		if (p->pid <= 0 || !isfinite(p->pct) || p->pct < 0 ||
		    p->pct > 1e6)
			continue;
		ps_sanitize(safe, sizeof(safe), p->comm, 0);
		out->top[n] = *p;
		memcpy(out->top[n].comm, safe, sizeof(safe));
		n++;
	}
	out->ntop = n;
	out->rated = n > 0 || isfinite(out->interval_s);
	return 0;
}

void ps_procs_print(FILE *out, const struct ps_procs_info *info)
{
	if (info->status != PS_ST_OK) {
		fprintf(out, "  %s: %s\n", ps_status_text(info->status),
			ps_safe(info->reason));
		return;
	}
	if (!info->rated) {
		fprintf(out, "  %s\n", _("n/a (one sample)"));
		return;
	}
	/* the few that took more than a tick or two */
	for (int i = 0; i < info->ntop && i < 5; i++) {
		if (info->top[i].pct < 2) {
			if (!i)
				fprintf(out, "  %s\n",
					/* xgettext:no-c-format */
					_("none used more than 2% of a core"));
			break;
		}
		fprintf(out, _("  %-20s pid %-8d %5.1f%% of a core\n"),
			ps_safe(info->top[i].comm), info->top[i].pid,
			info->top[i].pct);
	}
}

PS_PROBE_GLUE(procs)
PS_PROBE_RATES(procs)

/* clang-format off */
const struct ps_probe_ops ps_procs_ops = {
	PS_PROBE_OPS(procs),
	.title = N_("Busiest processes"),
	.rates = procs_op_rates,
};
/* clang-format on */
