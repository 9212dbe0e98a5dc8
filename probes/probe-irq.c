/* probe-irq.c: which CPUs take the NIC's interrupts and softirqs — what
 * /proc/interrupts, /proc/softirqs, /proc/net/softnet_stat, the RPS/XPS
 * masks in /sys/class/net/IF/queues and a running irqbalance tell about
 * one interface ("pipescope probe", the IRQ/queue heatmap, the checks).
 * This file reads them (through the sysroot) and computes the rates; the
 * parsers of their text are in irq-parse.c. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "brief.h"
#include "jsonutil.h"
#include "log.h"
#include "nls.h"
#include "probe-cpu.h"
#include "probe-irq.h"
#include "probe-pci.h"
#include "probe.h"
#include "sysroot.h"
#include "xmalloc.h"

/* ------------------------------------------------------------------ */
/* sampling                                                            */

/* why a file could not be read, as a status */
static void set_unreadable(enum ps_status *st, char *reason, size_t len,
			   const char *path, int err)
{
	if (!ps_sysroot_is_live() && err == ENOENT) {
		*st = PS_ST_NOT_RECORDED;
		snprintf(reason, len, _("%s is not in the recording"), path);
	} else if (err == EACCES || err == EPERM) {
		*st = PS_ST_NEEDS_ROOT;
		snprintf(reason, len, _("%s is readable only by root"), path);
	} else {
		*st = PS_ST_ERROR;
		snprintf(reason, len, _("cannot read %s: %s"), path,
			 ps_strerror(err));
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* IRQ numbers listed in DEVPATH/msi_irqs/; count or 0 */
static int read_msi_irqs(const char *devpath, int **irqs)
{
	char path[4096];
	struct dirent *de;
	int n = 0, cap = 16;
	DIR *d;

	*irqs = NULL;
	snprintf(path, sizeof(path), "%s/msi_irqs", devpath);
	d = ps_opendir(path);
	if (!d)
		return 0;
	*irqs = xmalloc(cap * sizeof(int));
	while ((de = readdir(d))) {
		char *e;
		long v = strtol(de->d_name, &e, 10);

		if (!isdigit((unsigned char)de->d_name[0]) || *e)
			continue;
		if (n == cap) {
			cap *= 2;
			*irqs = xrealloc(*irqs, cap * sizeof(int));
		}
		(*irqs)[n++] = (int)v;
	}
	closedir(d);
	qsort(*irqs, n, sizeof(int), cmp_int);
	return n;
}

static bool row_in_set(const struct ps_irq_row *r, const int *set, int n)
{
	return r->irq >= 0 &&
	       bsearch(&r->irq, set, n, sizeof(int), cmp_int) != NULL;
}

static void add_line(struct ps_irq_info *info, const struct ps_irq_table *t,
		     const struct ps_irq_row *r, int *cap)
{
	struct ps_irq_line *l;
	char path[64];

	if (info->nlines == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		info->lines = xrealloc(info->lines, *cap * sizeof(*l));
	}
	l = &info->lines[info->nlines++];
	memset(l, 0, sizeof(*l));
	l->irq = r->irq;
	snprintf(l->name, sizeof(l->name), "%s", r->actions);
	snprintf(l->chip, sizeof(l->chip), "%s", r->chip);
	ps_irq_actions_queue(r->actions, l->kind, sizeof(l->kind), &l->queue);
	l->count = xcalloc(info->ncpu, sizeof(uint64_t));
	l->rate = xcalloc(info->ncpu, sizeof(double));
	for (int c = 0; c < r->ncount; c++) {
		int cpu = t->col_cpu[c];

		if (cpu < info->ncpu)
			l->count[cpu] = r->count[c];
		l->total += r->count[c];
	}
	snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", l->irq);
	{
		int rc = ps_read_line(path, l->affinity, sizeof(l->affinity));

		if (rc) {
			char reason[160];

			set_unreadable(&l->aff_status, reason, sizeof(reason),
				       path, -rc);
		}
	}
	snprintf(path, sizeof(path), "/proc/irq/%d/effective_affinity_list",
		 l->irq);
	if (ps_read_line(path, l->effective, sizeof(l->effective)))
		l->effective[0] = 0;
	snprintf(path, sizeof(path), "/proc/irq/%d/affinity_hint", l->irq);
	{
		char mask[300];

		if (ps_read_line(path, mask, sizeof(mask)) ||
		    ps_cpu_mask_to_list(mask, l->hint, sizeof(l->hint)) <= 0)
			l->hint[0] = 0;
	}
}

static void find_lines(struct ps_irq_info *info, const struct ps_irq_table *t,
		       const char *devpath, int fnrc)
{
	int *msi = NULL, nmsi = 0, cap = 0;
	char chipsfx[32];

	if (fnrc == 0)
		nmsi = read_msi_irqs(devpath, &msi);
	snprintf(chipsfx, sizeof(chipsfx), "-%s", info->bdf);
	for (int i = 0; i < t->nrows; i++) {
		const struct ps_irq_row *r = &t->rows[i];
		bool take;

		if (r->irq < 0)
			continue;
		if (nmsi) {
			take = row_in_set(r, msi, nmsi);
		} else {
			size_t cl = strlen(r->chip), sl = strlen(chipsfx);

			take = ps_irq_actions_match(r->actions, info->ifname,
						    info->bdf, info->virtio) ||
			       (info->bdf[0] && cl > sl &&
				!strcmp(r->chip + cl - sl, chipsfx));
		}
		if (take)
			add_line(info, t, r, &cap);
	}
	snprintf(info->attribution, sizeof(info->attribution), "%s",
		 nmsi ? "msi_irqs" : "names");
	free(msi);

	/* a single-vector NIC: the line named like the interface is its queue
	 */
	{
		bool any = false;

		for (int i = 0; i < info->nlines; i++)
			any |= info->lines[i].kind[0] != 0;
		for (int i = 0; !any && i < info->nlines; i++) {
			struct ps_irq_line *l = &info->lines[i];

			if (!strcmp(l->name, info->ifname)) {
				snprintf(l->kind, sizeof(l->kind), "rxtx");
				l->queue = 0;
				break;
			}
		}
	}
}

static int cmp_rxq(const void *a, const void *b)
{
	return cmp_int(&((const struct ps_irq_rxq *)a)->index,
		       &((const struct ps_irq_rxq *)b)->index);
}

static int cmp_txq(const void *a, const void *b)
{
	return cmp_int(&((const struct ps_irq_txq *)a)->index,
		       &((const struct ps_irq_txq *)b)->index);
}

static void read_queues(struct ps_irq_info *info)
{
	char rel[256];
	struct dirent *de;
	int rcap = 0, tcap = 0;
	DIR *d;

	snprintf(rel, sizeof(rel), "/sys/class/net/%s/napi_defer_hard_irqs",
		 info->ifname);
	if (ps_read_long(rel, &info->napi_defer_hard_irqs))
		info->napi_defer_hard_irqs = -1;
	snprintf(rel, sizeof(rel), "/sys/class/net/%s/gro_flush_timeout",
		 info->ifname);
	if (ps_read_long(rel, &info->gro_flush_timeout))
		info->gro_flush_timeout = -1;
	snprintf(rel, sizeof(rel), "/sys/class/net/%s/queues", info->ifname);
	d = ps_opendir(rel);
	if (!d) {
		set_unreadable(&info->queues_status, info->queues_reason,
			       sizeof(info->queues_reason), rel, errno);
		return;
	}
	while ((de = readdir(d))) {
		char f[800];
		int ix;

		if ((ix = ps_irq_queue_dir_index(de->d_name, "rx-")) >= 0) {
			struct ps_irq_rxq *q;

			if (info->nrxq == rcap) {
				rcap = rcap ? rcap * 2 : 8;
				info->rxq =
					xrealloc(info->rxq, rcap * sizeof(*q));
			}
			q = &info->rxq[info->nrxq++];
			memset(q, 0, sizeof(*q));
			q->index = ix;
			snprintf(f, sizeof(f), "%s/%s/rps_cpus", rel,
				 de->d_name);
			if (ps_read_line(f, q->rps_cpus, sizeof(q->rps_cpus)))
				q->rps_cpus[0] = 0;
			q->rps_on = ps_irq_mask_nonzero(q->rps_cpus);
			snprintf(f, sizeof(f), "%s/%s/rps_flow_cnt", rel,
				 de->d_name);
			if (ps_read_long(f, &q->rps_flow_cnt))
				q->rps_flow_cnt = -1;
		} else if ((ix = ps_irq_queue_dir_index(de->d_name, "tx-")) >=
			   0) {
			struct ps_irq_txq *q;

			if (info->ntxq == tcap) {
				tcap = tcap ? tcap * 2 : 8;
				info->txq =
					xrealloc(info->txq, tcap * sizeof(*q));
			}
			q = &info->txq[info->ntxq++];
			memset(q, 0, sizeof(*q));
			q->index = ix;
			snprintf(f, sizeof(f), "%s/%s/xps_cpus", rel,
				 de->d_name);
			if (ps_read_line(f, q->xps_cpus, sizeof(q->xps_cpus)))
				q->xps_cpus[0] = 0;
			q->xps_on = ps_irq_mask_nonzero(q->xps_cpus);
		}
	}
	closedir(d);
	qsort(info->rxq, info->nrxq, sizeof(*info->rxq), cmp_rxq);
	qsort(info->txq, info->ntxq, sizeof(*info->txq), cmp_txq);
	info->queues_status = PS_ST_OK;
}

static void find_irqbalance(struct ps_irq_info *info)
{
	struct dirent *de;
	int procs = 0;
	DIR *d;

	d = ps_opendir("/proc");
	if (!d) {
		set_unreadable(&info->irqbalance_status,
			       info->irqbalance_reason,
			       sizeof(info->irqbalance_reason), "/proc", errno);
		return;
	}
	info->irqbalance_pid = -1;
	while ((de = readdir(d))) {
		char rel[64], comm[64];
		char *e;
		long pid = strtol(de->d_name, &e, 10);

		if (!isdigit((unsigned char)de->d_name[0]) || *e)
			continue;
		procs++;
		snprintf(rel, sizeof(rel), "/proc/%ld/comm", pid);
		if (ps_read_line(rel, comm, sizeof(comm)))
			continue;
		if (!strcmp(comm, "irqbalance")) {
			info->irqbalance_running = true;
			info->irqbalance_pid = (int)pid;
			break;
		}
	}
	closedir(d);
	if (!procs) {
		info->irqbalance_status =
			ps_sysroot_is_live() ? PS_ST_ERROR : PS_ST_NOT_RECORDED;
		snprintf(info->irqbalance_reason,
			 sizeof(info->irqbalance_reason), "%s",
			 ps_sysroot_is_live()
				 ? _("no processes visible in /proc")
				 : _("no processes in the recording"));
		return;
	}
	info->irqbalance_status = PS_ST_OK;
}

static void ensure_cpus(struct ps_irq_info *info, int ncpu)
{
	if (ncpu <= info->ncpu)
		return;
	info->cpus = xrealloc(info->cpus, ncpu * sizeof(*info->cpus));
	memset(info->cpus + info->ncpu, 0,
	       (ncpu - info->ncpu) * sizeof(*info->cpus));
	for (int c = info->ncpu; c < ncpu; c++)
		info->cpus[c].cpu = c;
	info->ncpu = ncpu;
}

static const char *basis_name(bool cpu_column)
{
	return cpu_column ? "cpu_column" : "row_order";
}

int ps_irq_sample(const char *ifname, struct ps_irq_info *out)
{
	struct ps_irq_table t = { 0 };
	struct ps_softirq_counts si = { 0 };
	struct ps_softnet_table sn = { 0 };
	char devpath[256] = "", *text;
	bool have_t = false, have_si = false, have_sn = false;
	int fnrc, ncpu;

	memset(out, 0, sizeof(*out));
	snprintf(out->ifname, sizeof(out->ifname), "%s", ifname);
	out->busiest_cpu = -1;
	out->napi_defer_hard_irqs = out->gro_flush_timeout = -1;
	snprintf(out->share_basis, sizeof(out->share_basis), "counts");

	/* host-wide tables first: they decide how many CPUs there are, up
	 * to as many as the tree says it has (a header of 65536 CPUs in a
	 * recording of two is not 65536 columns of zeros) */
	ncpu = ps_cpu_known_ids();
	text = ps_read_file("/proc/interrupts", NULL);
	if (!text) {
		set_unreadable(&out->status, out->reason, sizeof(out->reason),
			       "/proc/interrupts", errno);
	} else if (ps_irq_parse_interrupts_n(text, ncpu, &t)) {
		out->status = PS_ST_ERROR;
		snprintf(out->reason, sizeof(out->reason),
			 _("/proc/interrupts has no CPU header"));
	} else {
		have_t = true;
		ensure_cpus(out, t.max_cpu + 1);
		for (int c = 0; c < t.ncol; c++)
			out->cpus[t.col_cpu[c]].online = true;
	}
	free(text);

	text = ps_read_file("/proc/softirqs", NULL);
	if (!text) {
		set_unreadable(&out->softirq_status, out->softirq_reason,
			       sizeof(out->softirq_reason), "/proc/softirqs",
			       errno);
	} else if (ps_irq_parse_softirqs_n(text, ncpu, &si)) {
		out->softirq_status = PS_ST_ERROR;
		snprintf(out->softirq_reason, sizeof(out->softirq_reason),
			 _("/proc/softirqs has no NET_RX/NET_TX rows"));
	} else {
		have_si = true;
		ensure_cpus(out, si.ncpu);
	}
	free(text);

	text = ps_read_file("/proc/net/softnet_stat", NULL);
	if (!text) {
		set_unreadable(&out->softnet_status, out->softnet_reason,
			       sizeof(out->softnet_reason),
			       "/proc/net/softnet_stat", errno);
	} else if (ps_irq_parse_softnet_n(text, ncpu, &sn)) {
		out->softnet_status = PS_ST_ERROR;
		snprintf(out->softnet_reason, sizeof(out->softnet_reason),
			 _("/proc/net/softnet_stat is not in a known format"));
	} else {
		have_sn = true;
		for (int i = 0; i < sn.nrows; i++)
			ensure_cpus(out, sn.rows[i].cpu + 1);
	}
	free(text);

	if (have_si) {
		for (int c = 0; c < si.ncpu; c++) {
			out->cpus[c].net_rx = si.net_rx[c];
			out->cpus[c].net_tx = si.net_tx[c];
		}
		ps_irq_softirqs_free(&si);
	}
	if (have_sn) {
		out->softnet_cols = sn.ncols;
		snprintf(out->softnet_cpu_basis, sizeof(out->softnet_cpu_basis),
			 "%s", basis_name(sn.cpu_column));
		for (int i = 0; i < sn.nrows; i++) {
			struct ps_irq_cpu *c = &out->cpus[sn.rows[i].cpu];

			c->softnet = true;
			c->processed = sn.rows[i].processed;
			c->dropped = sn.rows[i].dropped;
			c->time_squeeze = sn.rows[i].time_squeeze;
		}
		free(sn.rows);
	}

	/* the NIC's own lines */
	fnrc = ps_pci_find_function(ifname, out->bdf, sizeof(out->bdf), devpath,
				    sizeof(devpath), out->virtio,
				    sizeof(out->virtio));
	if (strncmp(out->virtio, "virtio", 6))
		out->virtio[0] = 0; /* only virtio names its vectors so */
	if (fnrc == -ENOENT) {
		out->status = PS_ST_ERROR;
		snprintf(out->reason, sizeof(out->reason),
			 ps_sysroot_is_live()
				 ? _("no interface named %s")
				 : _("no interface named %s in the recording"),
			 ifname);
	} else if (fnrc == -ENODEV) {
		out->status = PS_ST_ABSENT;
		snprintf(out->reason, sizeof(out->reason),
			 _("virtual interface: no interrupt lines"));
	} else if (have_t) {
		find_lines(out, &t, devpath, fnrc);
		if (out->nlines) {
			out->status = PS_ST_OK;
		} else {
			out->status = PS_ST_ABSENT;
			snprintf(
				out->reason, sizeof(out->reason),
				_("no interrupt line of %s found (no msi_irqs, "
				  "no known name in /proc/interrupts)"),
				ifname);
		}
	}
	if (have_t)
		ps_irq_table_free(&t);

	if (fnrc != -ENOENT)
		read_queues(out);
	else
		set_unreadable(&out->queues_status, out->queues_reason,
			       sizeof(out->queues_reason), "/sys/class/net",
			       ENOENT);
	find_irqbalance(out);
	ps_irq_summarise(out);
	return 0;
}

static double rate_of(uint64_t now, uint64_t before, double s)
{
	return now >= before && s > 0 ? (double)(now - before) / s : 0;
}

void ps_irq_rates(const struct ps_irq_info *prev, struct ps_irq_info *cur,
		  double seconds)
{
	for (int i = 0; i < cur->nlines; i++) {
		struct ps_irq_line *l = &cur->lines[i];
		const struct ps_irq_line *p = NULL;

		for (int j = 0; j < prev->nlines && !p; j++)
			if (prev->lines[j].irq == l->irq)
				p = &prev->lines[j];
		l->total_rate = 0;
		for (int c = 0; c < cur->ncpu; c++) {
			uint64_t before = p && c < prev->ncpu ? p->count[c] : 0;

			l->rate[c] =
				p ? rate_of(l->count[c], before, seconds) : 0;
			l->total_rate += l->rate[c];
		}
	}
	for (int c = 0; c < cur->ncpu; c++) {
		struct ps_irq_cpu *n = &cur->cpus[c];
		const struct ps_irq_cpu *o =
			c < prev->ncpu ? &prev->cpus[c] : NULL;

		if (!o) {
			n->net_rx_rate = n->net_tx_rate = 0;
			n->processed_rate = n->dropped_rate = 0;
			n->squeeze_rate = 0;
			continue;
		}
		n->net_rx_rate = rate_of(n->net_rx, o->net_rx, seconds);
		n->net_tx_rate = rate_of(n->net_tx, o->net_tx, seconds);
		n->processed_rate =
			rate_of(n->processed, o->processed, seconds);
		n->dropped_rate = rate_of(n->dropped, o->dropped, seconds);
		n->squeeze_rate =
			rate_of(n->time_squeeze, o->time_squeeze, seconds);
	}
	cur->rated = true;
	cur->interval = seconds;
	ps_irq_summarise(cur);
}

void ps_irq_summarise(struct ps_irq_info *info)
{
	bool queues_only = false;
	double total = 0, best = -1;

	info->queues_with_irqs = 0;
	for (int i = 0; i < info->nlines; i++)
		if (info->lines[i].kind[0]) {
			info->queues_with_irqs++;
			queues_only = true;
		}
	snprintf(info->share_basis, sizeof(info->share_basis), "%s",
		 info->rated ? "rates" : "counts");
	info->irq_cpus = 0;
	info->busiest_cpu = -1;
	info->busiest_share = 0;
	info->dropped_total = info->squeeze_total = 0;
	info->dropped_rate_total = info->squeeze_rate_total = 0;
	for (int c = 0; c < info->ncpu; c++) {
		struct ps_irq_cpu *cpu = &info->cpus[c];
		double v = 0;

		cpu->nic_irqs = 0;
		cpu->nic_irq_rate = 0;
		for (int i = 0; i < info->nlines; i++) {
			const struct ps_irq_line *l = &info->lines[i];

			if (queues_only && !l->kind[0])
				continue;
			cpu->nic_irqs += l->count[c];
			cpu->nic_irq_rate += l->rate[c];
		}
		v = info->rated ? cpu->nic_irq_rate : (double)cpu->nic_irqs;
		if (v > 0)
			info->irq_cpus++;
		total += v;
		if (v > best) {
			best = v;
			info->busiest_cpu = c;
		}
		info->dropped_total += cpu->dropped;
		info->squeeze_total += cpu->time_squeeze;
		info->dropped_rate_total += cpu->dropped_rate;
		info->squeeze_rate_total += cpu->squeeze_rate;
	}
	if (total > 0)
		info->busiest_share = best / total;
	else
		info->busiest_cpu = -1;
}

static void *dup_array(const void *src, size_t n, size_t size)
{
	void *p;

	if (!src || !n)
		return NULL;
	p = xmalloc(n * size);
	memcpy(p, src, n * size);
	return p;
}

void ps_irq_copy(struct ps_irq_info *dst, const struct ps_irq_info *src)
{
	size_t ncpu = src->ncpu > 0 ? (size_t)src->ncpu : 0;

	*dst = *src;
	dst->lines =
		dup_array(src->lines, (size_t)src->nlines, sizeof(*src->lines));
	for (int i = 0; dst->lines && i < src->nlines; i++) {
		dst->lines[i].count = dup_array(src->lines[i].count, ncpu,
						sizeof(*src->lines[i].count));
		dst->lines[i].rate = dup_array(src->lines[i].rate, ncpu,
					       sizeof(*src->lines[i].rate));
	}
	dst->cpus = dup_array(src->cpus, ncpu, sizeof(*src->cpus));
	dst->rxq = dup_array(src->rxq, (size_t)src->nrxq, sizeof(*src->rxq));
	dst->txq = dup_array(src->txq, (size_t)src->ntxq, sizeof(*src->txq));
}

void ps_irq_free(struct ps_irq_info *info)
{
	for (int i = 0; i < info->nlines; i++) {
		free(info->lines[i].count);
		free(info->lines[i].rate);
	}
	free(info->lines);
	free(info->cpus);
	free(info->rxq);
	free(info->txq);
	memset(info, 0, sizeof(*info));
}

/* ------------------------------------------------------------------ */
/* JSON: one description of each group (jsonutil's tables)            */

#define II struct ps_irq_info
#define IL struct ps_irq_line
#define IC struct ps_irq_cpu
#define F(T, m, k, ty) PS_JFIELD(T, m, k, ty, 0, NULL, NULL)

/* "affinity_status" is a status without a reason */
static void aff_put(struct json_object *obj, const struct ps_jfield *f,
		    const void *base)
{
	ps_json_put_string(
		obj, f->key,
		ps_status_name(*PS_JAT_C(base, f->off, enum ps_status)));
}

static void aff_get(struct json_object *obj, const struct ps_jfield *f,
		    void *base)
{
	char name[32];

	*PS_JAT(base, f->off, enum ps_status) =
		ps_json_get_string(obj, f->key, name, sizeof(name))
			? PS_ST_NOT_RECORDED
			: ps_status_parse(name);
}

static const struct ps_jcodec aff_codec = { .put = aff_put, .get = aff_get };

/* a line is written as these, its per-CPU arrays, then line_tail */
static const struct ps_jfield line_head[] = { F(IL, irq, "irq", PS_JT_INT),
					      F(IL, name, "name", PS_JT_STRING),
					      F(IL, chip, "chip", PS_JT_STRING),
					      F(IL, kind, "kind", PS_JT_STRING),
					      F(IL, queue, "queue", PS_JT_INT),
					      F(IL, total, "total", PS_JT_UINT),
					      F(IL, total_rate, "total_rate",
						PS_JT_DOUBLE),
					      PS_JEND };

static const struct ps_jfield line_tail[] = {
	{ .key = "affinity_status",
	  .type = PS_JT_CUSTOM,
	  .off = offsetof(IL, aff_status),
	  .codec = &aff_codec },
	F(IL, affinity, "smp_affinity_list", PS_JT_STRING),
	F(IL, effective, "effective_affinity_list", PS_JT_STRING),
	F(IL, hint, "affinity_hint", PS_JT_STRING),
	PS_JEND
};

/* a line's count[] and rate[] have the section's ncpu entries, which the
 * line does not hold: seen through this, with their own lengths */
struct per_cpu {
	uint64_t *count;
	int ncount;
	double *rate;
	int nrate;
};

static const struct ps_jfield per_cpu_table[] = {
	PS_JARRAY_PTR(struct per_cpu, count, ncount, "counts", PS_JT_UINT, 0,
		      NULL),
	PS_JARRAY_PTR(struct per_cpu, rate, nrate, "rates", PS_JT_DOUBLE, 0,
		      NULL),
	PS_JEND
};

static void lines_put(struct json_object *obj, const struct ps_jfield *f,
		      const void *base)
{
	const struct ps_irq_info *info = base;
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < info->nlines; i++) {
		const struct ps_irq_line *l = &info->lines[i];
		struct per_cpu pc = { l->count, info->ncpu, l->rate,
				      info->ncpu };
		struct json_object *e = json_object_new_object();

		ps_jtable_put(e, line_head, l);
		ps_jtable_put(e, per_cpu_table, &pc);
		ps_jtable_put(e, line_tail, l);
		json_object_array_add(a, e);
	}
	json_object_object_add(obj, f->key, a);
}

/* the loaded arrays, cut or padded with zeros to ncpu entries */
static void *per_cpu_fit(void *v, int n, int ncpu, size_t size)
{
	void *out = xcalloc(ncpu ? ncpu : 1, size);

	if (v && n > 0)
		memcpy(out, v, (size_t)(n < ncpu ? n : ncpu) * size);
	free(v);
	return out;
}

static void lines_get(struct json_object *obj, const struct ps_jfield *f,
		      void *base)
{
	struct json_object *a = ps_json_get_obj(obj, f->key, json_type_array);
	struct json_object *cpus =
		ps_json_get_obj(obj, "cpus", json_type_array);
	struct ps_irq_info *info = base;
	size_t n = a ? json_object_array_length(a) : 0;
	int ncpu = 0;

	/* the CPUs are loaded after the lines; as many as that loader takes */
	if (cpus)
		ncpu = json_object_array_length(cpus) > PS_JSON_ARRAY_MAX
			       ? PS_JSON_ARRAY_MAX
			       : (int)json_object_array_length(cpus);
	if (n > PS_JSON_ARRAY_MAX)
		n = PS_JSON_ARRAY_MAX;
	info->lines = xcalloc(n ? n : 1, sizeof(*info->lines));
	info->nlines = (int)n;
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		struct ps_irq_line *l = &info->lines[i];
		struct per_cpu pc = { 0 };

		l->irq = l->queue = -1;
		ps_jtable_get(e, line_head, l);
		ps_jtable_get(e, per_cpu_table, &pc);
		ps_jtable_get(e, line_tail, l);
		l->count = per_cpu_fit(pc.count, pc.ncount, ncpu,
				       sizeof(*l->count));
		l->rate =
			per_cpu_fit(pc.rate, pc.nrate, ncpu, sizeof(*l->rate));
	}
}

static const struct ps_jcodec lines_codec = { .put = lines_put,
					      .get = lines_get };

static const struct ps_jfield cpu_table[] = {
	F(IC, cpu, "cpu", PS_JT_INT),
	F(IC, online, "online", PS_JT_BOOL),
	F(IC, nic_irqs, "nic_irqs", PS_JT_UINT),
	F(IC, nic_irq_rate, "nic_irq_rate", PS_JT_DOUBLE),
	F(IC, net_rx, "net_rx", PS_JT_UINT),
	F(IC, net_tx, "net_tx", PS_JT_UINT),
	F(IC, net_rx_rate, "net_rx_rate", PS_JT_DOUBLE),
	F(IC, net_tx_rate, "net_tx_rate", PS_JT_DOUBLE),
	F(IC, softnet, "softnet", PS_JT_BOOL),
	F(IC, processed, "processed", PS_JT_UINT),
	F(IC, dropped, "dropped", PS_JT_UINT),
	F(IC, time_squeeze, "time_squeeze", PS_JT_UINT),
	F(IC, processed_rate, "processed_rate", PS_JT_DOUBLE),
	F(IC, dropped_rate, "dropped_rate", PS_JT_DOUBLE),
	F(IC, squeeze_rate, "time_squeeze_rate", PS_JT_DOUBLE),
	PS_JEND
};

static const struct ps_jfield softirq_table[] = {
	PS_JSTATUS(II, softirq_status, softirq_reason, 0), PS_JEND
};

static const struct ps_jfield softnet_table[] = {
	PS_JSTATUS(II, softnet_status, softnet_reason, 0),
	F(II, softnet_cols, "columns", PS_JT_INT),
	F(II, softnet_cpu_basis, "cpu_basis", PS_JT_STRING), PS_JEND
};

static const struct ps_jfield rxq_table[] = {
	F(struct ps_irq_rxq, index, "index", PS_JT_INT),
	F(struct ps_irq_rxq, rps_cpus, "rps_cpus", PS_JT_STRING),
	F(struct ps_irq_rxq, rps_on, "rps_enabled", PS_JT_BOOL),
	F(struct ps_irq_rxq, rps_flow_cnt, "rps_flow_cnt", PS_JT_INT), PS_JEND
};

static const struct ps_jfield txq_table[] = {
	F(struct ps_irq_txq, index, "index", PS_JT_INT),
	F(struct ps_irq_txq, xps_cpus, "xps_cpus", PS_JT_STRING),
	F(struct ps_irq_txq, xps_on, "xps_enabled", PS_JT_BOOL), PS_JEND
};

static const struct ps_jfield queues_table[] = {
	PS_JSTATUS(II, queues_status, queues_reason, 0),
	PS_JFIELD(II, napi_defer_hard_irqs, "napi_defer_hard_irqs", PS_JT_INT,
		  PS_JF_NA, NULL, NULL),
	PS_JFIELD(II, gro_flush_timeout, "gro_flush_timeout", PS_JT_INT,
		  PS_JF_NA, NULL, NULL),
	PS_JARRAY_PTR(II, rxq, nrxq, "rx", PS_JT_OBJECT, 0, rxq_table),
	PS_JARRAY_PTR(II, txq, ntxq, "tx", PS_JT_OBJECT, 0, txq_table),
	PS_JEND
};

static const struct ps_jfield irqbalance_table[] = {
	PS_JSTATUS(II, irqbalance_status, irqbalance_reason, 0),
	F(II, irqbalance_running, "running", PS_JT_BOOL),
	F(II, irqbalance_pid, "pid", PS_JT_INT), PS_JEND
};

static const struct ps_jfield summary_table[] = {
	F(II, queues_with_irqs, "queues_with_irqs", PS_JT_INT),
	F(II, irq_cpus, "irq_cpus", PS_JT_INT),
	F(II, busiest_cpu, "busiest_cpu", PS_JT_INT),
	F(II, busiest_share, "busiest_share", PS_JT_DOUBLE),
	F(II, share_basis, "share_basis", PS_JT_STRING),
	F(II, dropped_total, "dropped_total", PS_JT_UINT),
	F(II, squeeze_total, "time_squeeze_total", PS_JT_UINT),
	F(II, dropped_rate_total, "dropped_rate_total", PS_JT_DOUBLE),
	F(II, squeeze_rate_total, "time_squeeze_rate_total", PS_JT_DOUBLE),
	PS_JEND
};

static const struct ps_jfield irq_table[] = {
	F(II, ifname, "ifname", PS_JT_STRING),
	F(II, bdf, "pci_function", PS_JT_STRING),
	F(II, virtio, "virtio_device", PS_JT_STRING),
	PS_JSTATUS(II, status, reason, 0),
	F(II, attribution, "attribution", PS_JT_STRING),
	F(II, rated, "rated", PS_JT_BOOL),
	F(II, interval, "interval_s", PS_JT_DOUBLE),
	{ .key = "lines", .type = PS_JT_CUSTOM, .codec = &lines_codec },
	PS_JARRAY_PTR(II, cpus, ncpu, "cpus", PS_JT_OBJECT, 0, cpu_table),
	PS_JOBJECT("softirqs", 0, softirq_table, NULL),
	PS_JOBJECT("softnet", 0, softnet_table, NULL),
	PS_JOBJECT("queues", 0, queues_table, NULL),
	PS_JOBJECT("irqbalance", 0, irqbalance_table, NULL),
	PS_JOBJECT("summary", 0, summary_table, NULL),
	PS_JEND
};

struct json_object *ps_irq_to_json(const struct ps_irq_info *info)
{
	return ps_jtable_to_json(irq_table, info);
}

int ps_irq_from_json(struct json_object *obj, struct ps_irq_info *out)
{
	memset(out, 0, sizeof(*out));
	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	out->busiest_cpu = -1;
	out->irqbalance_pid = -1;
	out->napi_defer_hard_irqs = out->gro_flush_timeout = -1;
	ps_jtable_get(obj, irq_table, out);
	return 0;
}

/* ------------------------------------------------------------------ */
/* text                                                                */

static void print_status(FILE *out, const char *what, enum ps_status st,
			 const char *reason)
{
	/* TRANSLATORS: "<what>: <status> (<reason>)" */
	fprintf(out, _("  %s: %s (%s)\n"), what, ps_status_text(st), reason);
}

/* CPUs where a line fired, as "0 (52%), 1 (48%)" with the top three */
static void line_cpus(const struct ps_irq_info *info,
		      const struct ps_irq_line *l, char *buf, size_t len)
{
	double tot = info->rated ? l->total_rate : (double)l->total;
	int shown = 0;
	bool used[4096] = { false };
	size_t off = 0;

	buf[0] = 0;
	while (shown < 3 && tot > 0) {
		int best = -1;
		double bv = 0;

		for (int c = 0; c < info->ncpu && c < 4096; c++) {
			double v =
				info->rated ? l->rate[c] : (double)l->count[c];

			if (!used[c] && v > bv) {
				bv = v;
				best = c;
			}
		}
		if (best < 0)
			break;
		used[best] = true;
		off += snprintf(buf + off, len - off, "%s%d (%.0f%%)",
				shown ? ", " : "", best, 100.0 * bv / tot);
		if (off >= len)
			break;
		shown++;
	}
}

void ps_irq_print(FILE *out, const struct ps_irq_info *info)
{
	fprintf(out, _("Interrupts of %s\n"), info->ifname);
	if (info->status != PS_ST_OK) {
		print_status(out, _("interrupt lines"), info->status,
			     info->reason);
	} else {
		fprintf(out,
			_("  %d lines (found through %s), %d serve queues; PCI "
			  "function %s\n"),
			info->nlines, info->attribution, info->queues_with_irqs,
			info->bdf[0] ? info->bdf : "-");
		for (int i = 0; i < info->nlines; i++) {
			const struct ps_irq_line *l = &info->lines[i];
			char cpus[128];

			line_cpus(info, l, cpus, sizeof(cpus));
			if (info->rated)
				fprintf(out,
					_("  IRQ %-5d %-28s %8.0f/s  CPUs %s  "
					  "affinity %s  effective %s"),
					l->irq, l->name, l->total_rate,
					cpus[0] ? cpus : "-",
					l->affinity[0] ? l->affinity : "?",
					l->effective[0] ? l->effective
							: _("n/a"));
			else
				fprintf(out,
					_("  IRQ %-5d %-28s %12" PRIu64
					  " since boot  CPUs %s  affinity %s  "
					  "effective %s"),
					l->irq, l->name, l->total,
					cpus[0] ? cpus : "-",
					l->affinity[0] ? l->affinity : "?",
					l->effective[0] ? l->effective
							: _("n/a"));
			if (l->hint[0])
				fprintf(out, _("  hint %s"), l->hint);
			fputc('\n', out);
		}
		if (info->busiest_cpu >= 0)
			fprintf(out,
				_("  %d CPUs take the queue interrupts; the "
				  "busiest, CPU %d, takes %.0f%% (by %s)\n"),
				info->irq_cpus, info->busiest_cpu,
				100.0 * info->busiest_share,
				info->rated ? _("rate")
					    : _("count since boot"));
	}
	if (info->softirq_status != PS_ST_OK)
		print_status(out, _("softirqs"), info->softirq_status,
			     info->softirq_reason);
	if (info->softnet_status != PS_ST_OK)
		print_status(out, _("softnet_stat"), info->softnet_status,
			     info->softnet_reason);
	else
		fprintf(out,
			_("  softnet_stat: %d columns, CPU taken from the "
			  "%s\n"),
			info->softnet_cols,
			!strcmp(info->softnet_cpu_basis, "cpu_column")
				? _("CPU column")
				: _("row order (offline CPUs would shift it)"));
	fprintf(out, "  %-5s %12s %12s %12s %12s %10s %10s\n", _("CPU"),
		_("NIC irqs"), _("NET_RX"), _("NET_TX"), _("processed"),
		_("dropped"), _("squeezed"));
	for (int c = 0; c < info->ncpu; c++) {
		const struct ps_irq_cpu *p = &info->cpus[c];

		if (info->rated)
			fprintf(out,
				"  %-5d %10.0f/s %10.0f/s %10.0f/s %10.0f/s "
				"%8.0f/s %8.0f/s\n",
				c, p->nic_irq_rate, p->net_rx_rate,
				p->net_tx_rate, p->processed_rate,
				p->dropped_rate, p->squeeze_rate);
		else
			fprintf(out,
				"  %-5d %12" PRIu64 " %12" PRIu64 " %12" PRIu64
				" %12" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n",
				c, p->nic_irqs, p->net_rx, p->net_tx,
				p->processed, p->dropped, p->time_squeeze);
	}
	fprintf(out,
		_("  softnet totals: %" PRIu64 " dropped, %" PRIu64
		  " time squeezes\n"),
		info->dropped_total, info->squeeze_total);
	if (info->queues_status != PS_ST_OK) {
		print_status(out, _("queues"), info->queues_status,
			     info->queues_reason);
	} else {
		for (int i = 0; i < info->nrxq; i++)
			fprintf(out,
				_("  rx-%d: RPS %s (%s), flow count %ld\n"),
				info->rxq[i].index,
				info->rxq[i].rps_on ? _("on") : _("off"),
				info->rxq[i].rps_cpus[0] ? info->rxq[i].rps_cpus
							 : "-",
				info->rxq[i].rps_flow_cnt);
		for (int i = 0; i < info->ntxq; i++)
			fprintf(out, _("  tx-%d: XPS %s (%s)\n"),
				info->txq[i].index,
				info->txq[i].xps_on ? _("on") : _("off"),
				info->txq[i].xps_cpus[0] ? info->txq[i].xps_cpus
							 : "-");
	}
	if (info->irqbalance_status != PS_ST_OK)
		print_status(out, _("irqbalance"), info->irqbalance_status,
			     info->irqbalance_reason);
	else if (info->irqbalance_running)
		fprintf(out, _("  irqbalance runs (pid %d)\n"),
			info->irqbalance_pid);
	else
		fprintf(out, _("  irqbalance does not run\n"));
}

/* the probe "pipescope probe" runs (probe.h), in PS_PROBE_LIST */
PS_PROBE_GLUE(irq)
PS_PROBE_RATES(irq)

/* clang-format would pack a list that starts with a macro */
/* clang-format off */
const struct ps_probe_ops ps_irq_ops = {
	PS_PROBE_OPS(irq),
	.title = N_("Interrupts, softirqs and queues"),
	.needs_iface = true,
	.on_nic = true,
	.rates = irq_op_rates,
	.brief = ps_brief_irq,
};
/* clang-format on */
