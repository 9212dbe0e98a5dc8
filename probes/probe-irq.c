/* probe-irq.c: which CPUs take the NIC's interrupts and softirqs — what
 * /proc/interrupts, /proc/softirqs, /proc/net/softnet_stat, the RPS/XPS
 * masks in /sys/class/net/IF/queues and a running irqbalance tell about
 * one interface ("pipescope probe", the IRQ/queue heatmap, the checks) */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nls.h"
#include "probe-irq.h"
#include "probe-pci.h"
#include "sysroot.h"
#include "xmalloc.h"

/* ------------------------------------------------------------------ */
/* small text helpers                                                  */

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static void copy_trim(char *dst, size_t len, const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
		     s[n - 1] == '\r'))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = 0;
}

/* the next whitespace-separated token of a line: start and length */
static const char *next_token(const char *p, size_t *n)
{
	p = skip_ws(p);
	*n = strcspn(p, " \t\n");
	return p;
}

/* "CPU0 CPU1 ..." header: fills ids, returns the count or -EINVAL */
static int parse_cpu_header(const char *line, const char *end, int **ids)
{
	const char *p = line;
	int n = 0, cap = 16;

	*ids = xmalloc(cap * sizeof(**ids));
	for (;;) {
		size_t len;
		char *e;
		long id;

		p = next_token(p, &len);
		if (p >= end || !len)
			break;
		if (len < 4 || strncmp(p, "CPU", 3) ||
		    !isdigit((unsigned char)p[3]))
			goto bad;
		id = strtol(p + 3, &e, 10);
		if (e != p + len || id < 0 || id > 65535)
			goto bad;
		if (n == cap) {
			cap *= 2;
			*ids = xrealloc(*ids, cap * sizeof(**ids));
		}
		(*ids)[n++] = (int)id;
		p += len;
	}
	if (n)
		return n;
bad:
	free(*ids);
	*ids = NULL;
	return -EINVAL;
}

/* ------------------------------------------------------------------ */
/* /proc/interrupts                                                    */

static bool is_hwirq(const char *tok, size_t n)
{
	size_t i = 0;

	while (i < n && isdigit((unsigned char)tok[i]))
		i++;
	if (!i)
		return false;
	return i == n || tok[i] == '-';
}

static void parse_descriptor(struct ps_irq_row *r, const char *p)
{
	const char *t;
	size_t n;

	if (r->irq < 0) { /* "Non-maskable interrupts" */
		copy_trim(r->actions, sizeof(r->actions), p, strcspn(p, "\n"));
		return;
	}
	t = next_token(p, &n);
	if (!n)
		return;
	copy_trim(r->chip, sizeof(r->chip), t, n);
	p = t + n;
	t = next_token(p, &n);
	if (n && is_hwirq(t, n)) {
		copy_trim(r->hwirq, sizeof(r->hwirq), t, n);
		p = t + n;
		/* arm GIC: "27 Level" */
		t = next_token(p, &n);
		if ((n == 5 && !strncmp(t, "Level", 5)) ||
		    (n == 4 && !strncmp(t, "Edge", 4))) {
			size_t l = strlen(r->hwirq);

			snprintf(r->hwirq + l, sizeof(r->hwirq) - l, " %.*s",
				 (int)n, t);
			p = t + n;
		}
	}
	copy_trim(r->actions, sizeof(r->actions), p, strcspn(p, "\n"));
}

int ps_irq_parse_interrupts(const char *text, struct ps_irq_table *out)
{
	const char *p = text, *eol;
	int cap = 64;

	memset(out, 0, sizeof(*out));
	/* header: the first line that is not blank */
	while (*p) {
		eol = strchrnul(p, '\n');
		if (*skip_ws(p) != '\n' && *skip_ws(p))
			break;
		p = *eol ? eol + 1 : eol;
	}
	if (!*p)
		return -EINVAL;
	eol = strchrnul(p, '\n');
	out->ncol = parse_cpu_header(p, eol, &out->col_cpu);
	if (out->ncol < 0) {
		out->ncol = 0;
		return -EINVAL;
	}
	out->max_cpu = 0;
	for (int i = 0; i < out->ncol; i++)
		if (out->col_cpu[i] > out->max_cpu)
			out->max_cpu = out->col_cpu[i];
	out->rows = xcalloc(cap, sizeof(*out->rows));
	p = *eol ? eol + 1 : eol;

	while (*p) {
		struct ps_irq_row *r;
		const char *colon, *q;
		char *e;

		eol = strchrnul(p, '\n');
		q = skip_ws(p);
		colon = memchr(q, ':', eol - q);
		if (!colon || colon == q || colon - q >= 16) {
			p = *eol ? eol + 1 : eol;
			continue;
		}
		if (out->nrows == cap) {
			cap *= 2;
			out->rows =
				xrealloc(out->rows, cap * sizeof(*out->rows));
		}
		r = &out->rows[out->nrows];
		memset(r, 0, sizeof(*r));
		copy_trim(r->label, sizeof(r->label), q, colon - q);
		r->irq = -1;
		if (isdigit((unsigned char)r->label[0])) {
			long v = strtol(r->label, &e, 10);

			if (*e == 0 && v >= 0 && v < INT32_MAX)
				r->irq = (int)v;
		}
		r->count = xcalloc(out->ncol, sizeof(*r->count));
		q = colon + 1;
		while (r->ncount < out->ncol) {
			const char *s = skip_ws(q);
			unsigned long long v;

			if (s >= eol || !isdigit((unsigned char)*s))
				break;
			errno = 0;
			v = strtoull(s, &e, 10);
			if (errno ||
			    (*e != ' ' && *e != '\t' && *e != '\n' && *e != 0))
				break;
			r->count[r->ncount++] = v;
			q = e;
		}
		{
			/* the descriptor, bounded by the end of the line */
			size_t n = eol - q;
			char *d = xmalloc(n + 1);

			memcpy(d, q, n);
			d[n] = 0;
			parse_descriptor(r, d);
			free(d);
		}
		out->nrows++;
		p = *eol ? eol + 1 : eol;
	}
	return 0;
}

void ps_irq_table_free(struct ps_irq_table *t)
{
	for (int i = 0; i < t->nrows; i++)
		free(t->rows[i].count);
	free(t->rows);
	free(t->col_cpu);
	memset(t, 0, sizeof(*t));
}

/* calls fn for each ", "-separated action name of a row */
static bool each_action(const char *actions,
			bool (*fn)(const char *name, void *arg), void *arg)
{
	char buf[128];
	const char *p = actions;

	while (*p) {
		size_t n = strcspn(p, ",");

		copy_trim(buf, sizeof(buf), p, n);
		if (buf[0] && fn(buf, arg))
			return true;
		p += n;
		if (*p == ',')
			p++;
	}
	return false;
}

static bool eq_name(const char *name, void *arg)
{
	return !strcmp(name, (const char *)arg);
}

bool ps_irq_row_has_action(const struct ps_irq_row *row, const char *name)
{
	return each_action(row->actions, eq_name, (void *)name);
}

static bool ends_with_ci(const char *s, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);

	return n >= m && !strncasecmp(s + n - m, suffix, m);
}

void ps_irq_queue_of(const char *action, char *kind, size_t klen, int *index)
{
	static const struct {
		const char *suffix;
		const char *kind;
	} pats[] = {
		{ "-TxRx-", "rxtx" },	 { "-Tx-Rx-", "rxtx" },
		{ "-rxtx-", "rxtx" },	 { "-fp-", "rxtx" },
		{ "-rx-", "rx" },	 { "-tx-", "tx" },
		{ "-input.", "rx" },	 { "-output.", "tx" },
		{ "mlx5_comp", "rxtx" }, { "-ntfy-blk", "rxtx" },
		{ "mana_q", "rxtx" },
	};
	size_t n = strcspn(action, "@"), d = 0;

	kind[0] = 0;
	*index = -1;
	if (strstr(action, ":fdir")) /* i40e flow director, not a queue */
		return;
	while (d < n && isdigit((unsigned char)action[n - d - 1]))
		d++;
	if (!d || d > 6)
		return;
	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		if (ends_with_ci(action, n - d, pats[i].suffix)) {
			snprintf(kind, klen, "%s", pats[i].kind);
			*index = atoi(action + n - d);
			return;
		}
	}
}

bool ps_irq_action_matches(const char *action, const char *ifname,
			   const char *bdf, const char *virtio)
{
	char pat[64];
	size_t l;

	if (ifname && *ifname) {
		l = strlen(ifname);
		if (!strcmp(action, ifname))
			return true;
		if (!strncmp(action, ifname, l) && action[l] == '-')
			return true;
		snprintf(pat, sizeof(pat), "-%s-", ifname);
		if (strstr(action, pat))
			return true;
	}
	if (bdf && *bdf) {
		snprintf(pat, sizeof(pat), "@pci:%s", bdf);
		if (strstr(action, pat))
			return true;
		snprintf(pat, sizeof(pat), "-%s:", bdf);
		if (strstr(action, pat))
			return true;
	}
	if (virtio && *virtio) {
		l = strlen(virtio);
		if (!strncmp(action, virtio, l) && action[l] == '-')
			return true;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* /proc/softirqs and /proc/net/softnet_stat                           */

static void softirq_free(struct ps_softirq_counts *s)
{
	free(s->net_rx);
	free(s->net_tx);
	free(s->present);
	memset(s, 0, sizeof(*s));
}

int ps_irq_parse_softirqs(const char *text, struct ps_softirq_counts *out)
{
	const char *p = text, *eol;
	int *ids, n, found = 0;

	memset(out, 0, sizeof(*out));
	eol = strchrnul(p, '\n');
	n = parse_cpu_header(p, eol, &ids);
	if (n < 0)
		return -EINVAL;
	for (int i = 0; i < n; i++)
		if (ids[i] + 1 > out->ncpu)
			out->ncpu = ids[i] + 1;
	out->net_rx = xcalloc(out->ncpu, sizeof(uint64_t));
	out->net_tx = xcalloc(out->ncpu, sizeof(uint64_t));
	out->present = xcalloc(out->ncpu, sizeof(bool));
	for (int i = 0; i < n; i++)
		out->present[ids[i]] = true;
	p = *eol ? eol + 1 : eol;
	while (*p) {
		const char *q = skip_ws(p);
		uint64_t *dst = NULL;

		eol = strchrnul(p, '\n');
		if (!strncmp(q, "NET_RX:", 7))
			dst = out->net_rx;
		else if (!strncmp(q, "NET_TX:", 7))
			dst = out->net_tx;
		if (dst) {
			char *e;

			q += 7;
			for (int i = 0; i < n; i++) {
				unsigned long long v;

				q = skip_ws(q);
				if (q >= eol || !isdigit((unsigned char)*q))
					break;
				v = strtoull(q, &e, 10);
				dst[ids[i]] = v;
				q = e;
			}
			found++;
		}
		p = *eol ? eol + 1 : eol;
	}
	free(ids);
	if (found < 2) {
		softirq_free(out);
		return -EINVAL;
	}
	return 0;
}

int ps_irq_parse_softnet(const char *text, struct ps_softnet_table *out)
{
	const char *p = text;
	int cap = 16;

	memset(out, 0, sizeof(*out));
	out->rows = xcalloc(cap, sizeof(*out->rows));
	while (*p) {
		const char *eol = strchrnul(p, '\n');
		uint32_t col[32];
		int nc = 0;
		const char *q = p;

		while (nc < 32) {
			char *e;
			unsigned long v;

			q = skip_ws(q);
			if (q >= eol)
				break;
			errno = 0;
			v = strtoul(q, &e, 16);
			if (e == q || errno || v > UINT32_MAX ||
			    (*e != ' ' && *e != '\t' && *e != '\n' && *e))
				goto bad;
			col[nc++] = (uint32_t)v;
			q = e;
		}
		if (nc) {
			struct ps_softnet_row *r;

			if (nc < 3 || (out->ncols && nc != out->ncols))
				goto bad;
			out->ncols = nc;
			if (out->nrows == cap) {
				cap *= 2;
				out->rows = xrealloc(out->rows,
						     cap * sizeof(*out->rows));
			}
			r = &out->rows[out->nrows];
			r->processed = col[0];
			r->dropped = col[1];
			r->time_squeeze = col[2];
			r->cpu = nc >= 13 ? (int)col[12] : out->nrows;
			if (r->cpu > 65535)
				goto bad;
			out->nrows++;
		}
		p = *eol ? eol + 1 : eol;
	}
	if (!out->nrows)
		goto bad;
	out->cpu_column = out->ncols >= 13;
	return 0;
bad:
	free(out->rows);
	memset(out, 0, sizeof(*out));
	return -EINVAL;
}

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
			 strerror(err));
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

struct match_ctx {
	const char *ifname, *bdf, *virtio;
};

static bool match_fn(const char *name, void *arg)
{
	struct match_ctx *m = arg;

	return ps_irq_action_matches(name, m->ifname, m->bdf, m->virtio);
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
	l->queue = -1;
	{
		/* the queue of the first action name that names one */
		char buf[128];
		const char *p = r->actions;

		while (*p && !l->kind[0]) {
			size_t n = strcspn(p, ",");

			copy_trim(buf, sizeof(buf), p, n);
			ps_irq_queue_of(buf, l->kind, sizeof(l->kind),
					&l->queue);
			p += n;
			if (*p == ',')
				p++;
		}
	}
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
}

static void find_lines(struct ps_irq_info *info, const struct ps_irq_table *t,
		       const char *devpath, int fnrc)
{
	struct match_ctx m = { info->ifname, info->bdf, info->virtio };
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

			take = each_action(r->actions, match_fn, &m) ||
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

static int queue_index(const char *name, const char *pfx)
{
	size_t l = strlen(pfx);
	char *e;
	long v;

	if (strncmp(name, pfx, l) || !isdigit((unsigned char)name[l]))
		return -1;
	v = strtol(name + l, &e, 10);
	return *e || v > 65535 ? -1 : (int)v;
}

static bool mask_nonzero(const char *m)
{
	for (; *m; m++)
		if (isxdigit((unsigned char)*m) && *m != '0')
			return true;
	return false;
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

		if ((ix = queue_index(de->d_name, "rx-")) >= 0) {
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
			q->rps_on = mask_nonzero(q->rps_cpus);
			snprintf(f, sizeof(f), "%s/%s/rps_flow_cnt", rel,
				 de->d_name);
			if (ps_read_long(f, &q->rps_flow_cnt))
				q->rps_flow_cnt = -1;
		} else if ((ix = queue_index(de->d_name, "tx-")) >= 0) {
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
			q->xps_on = mask_nonzero(q->xps_cpus);
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
	int fnrc;

	memset(out, 0, sizeof(*out));
	snprintf(out->ifname, sizeof(out->ifname), "%s", ifname);
	out->busiest_cpu = -1;
	snprintf(out->share_basis, sizeof(out->share_basis), "counts");

	/* host-wide tables first: they decide how many CPUs there are */
	text = ps_read_file("/proc/interrupts", NULL);
	if (!text) {
		set_unreadable(&out->status, out->reason, sizeof(out->reason),
			       "/proc/interrupts", errno);
	} else if (ps_irq_parse_interrupts(text, &t)) {
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
	} else if (ps_irq_parse_softirqs(text, &si)) {
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
	} else if (ps_irq_parse_softnet(text, &sn)) {
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
		softirq_free(&si);
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
/* JSON                                                                */

static void put_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

static void put_int(struct json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void put_dbl(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

static void put_bool(struct json_object *o, const char *k, bool v)
{
	json_object_object_add(o, k, json_object_new_boolean(v));
}

static void put_status(struct json_object *o, enum ps_status st,
		       const char *reason)
{
	put_str(o, "status", ps_status_name(st));
	put_str(o, "reason", reason);
}

struct json_object *ps_irq_to_json(const struct ps_irq_info *info)
{
	struct json_object *o = json_object_new_object(), *a, *g;

	put_str(o, "ifname", info->ifname);
	put_str(o, "pci_function", info->bdf);
	put_str(o, "virtio_device", info->virtio);
	put_status(o, info->status, info->reason);
	put_str(o, "attribution", info->attribution);
	put_bool(o, "rated", info->rated);
	put_dbl(o, "interval_s", info->interval);

	a = json_object_new_array();
	for (int i = 0; i < info->nlines; i++) {
		const struct ps_irq_line *l = &info->lines[i];
		struct json_object *e = json_object_new_object(), *c, *r;

		put_int(e, "irq", l->irq);
		put_str(e, "name", l->name);
		put_str(e, "chip", l->chip);
		put_str(e, "kind", l->kind);
		put_int(e, "queue", l->queue);
		put_int(e, "total", (int64_t)l->total);
		put_dbl(e, "total_rate", l->total_rate);
		c = json_object_new_array();
		r = json_object_new_array();
		for (int k = 0; k < info->ncpu; k++) {
			json_object_array_add(
				c, json_object_new_int64((int64_t)l->count[k]));
			json_object_array_add(
				r, json_object_new_double(l->rate[k]));
		}
		json_object_object_add(e, "counts", c);
		json_object_object_add(e, "rates", r);
		put_str(e, "affinity_status", ps_status_name(l->aff_status));
		put_str(e, "smp_affinity_list", l->affinity);
		put_str(e, "effective_affinity_list", l->effective);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "lines", a);

	a = json_object_new_array();
	for (int k = 0; k < info->ncpu; k++) {
		const struct ps_irq_cpu *c = &info->cpus[k];
		struct json_object *e = json_object_new_object();

		put_int(e, "cpu", c->cpu);
		put_bool(e, "online", c->online);
		put_int(e, "nic_irqs", (int64_t)c->nic_irqs);
		put_dbl(e, "nic_irq_rate", c->nic_irq_rate);
		put_int(e, "net_rx", (int64_t)c->net_rx);
		put_int(e, "net_tx", (int64_t)c->net_tx);
		put_dbl(e, "net_rx_rate", c->net_rx_rate);
		put_dbl(e, "net_tx_rate", c->net_tx_rate);
		put_bool(e, "softnet", c->softnet);
		put_int(e, "processed", (int64_t)c->processed);
		put_int(e, "dropped", (int64_t)c->dropped);
		put_int(e, "time_squeeze", (int64_t)c->time_squeeze);
		put_dbl(e, "processed_rate", c->processed_rate);
		put_dbl(e, "dropped_rate", c->dropped_rate);
		put_dbl(e, "time_squeeze_rate", c->squeeze_rate);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "cpus", a);

	g = json_object_new_object();
	put_status(g, info->softirq_status, info->softirq_reason);
	json_object_object_add(o, "softirqs", g);

	g = json_object_new_object();
	put_status(g, info->softnet_status, info->softnet_reason);
	put_int(g, "columns", info->softnet_cols);
	put_str(g, "cpu_basis", info->softnet_cpu_basis);
	json_object_object_add(o, "softnet", g);

	g = json_object_new_object();
	put_status(g, info->queues_status, info->queues_reason);
	a = json_object_new_array();
	for (int i = 0; i < info->nrxq; i++) {
		struct json_object *e = json_object_new_object();

		put_int(e, "index", info->rxq[i].index);
		put_str(e, "rps_cpus", info->rxq[i].rps_cpus);
		put_bool(e, "rps_enabled", info->rxq[i].rps_on);
		put_int(e, "rps_flow_cnt", info->rxq[i].rps_flow_cnt);
		json_object_array_add(a, e);
	}
	json_object_object_add(g, "rx", a);
	a = json_object_new_array();
	for (int i = 0; i < info->ntxq; i++) {
		struct json_object *e = json_object_new_object();

		put_int(e, "index", info->txq[i].index);
		put_str(e, "xps_cpus", info->txq[i].xps_cpus);
		put_bool(e, "xps_enabled", info->txq[i].xps_on);
		json_object_array_add(a, e);
	}
	json_object_object_add(g, "tx", a);
	json_object_object_add(o, "queues", g);

	g = json_object_new_object();
	put_status(g, info->irqbalance_status, info->irqbalance_reason);
	put_bool(g, "running", info->irqbalance_running);
	put_int(g, "pid", info->irqbalance_pid);
	json_object_object_add(o, "irqbalance", g);

	g = json_object_new_object();
	put_int(g, "queues_with_irqs", info->queues_with_irqs);
	put_int(g, "irq_cpus", info->irq_cpus);
	put_int(g, "busiest_cpu", info->busiest_cpu);
	put_dbl(g, "busiest_share", info->busiest_share);
	put_str(g, "share_basis", info->share_basis);
	put_int(g, "dropped_total", (int64_t)info->dropped_total);
	put_int(g, "time_squeeze_total", (int64_t)info->squeeze_total);
	put_dbl(g, "dropped_rate_total", info->dropped_rate_total);
	put_dbl(g, "time_squeeze_rate_total", info->squeeze_rate_total);
	json_object_object_add(o, "summary", g);
	return o;
}

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, k, &v))
		return NULL;
	return v;
}

static void get_str(struct json_object *o, const char *k, char *dst, size_t len)
{
	struct json_object *v = get(o, k);

	snprintf(dst, len, "%s", v ? json_object_get_string(v) : "");
}

static int64_t get_int(struct json_object *o, const char *k, int64_t dflt)
{
	struct json_object *v = get(o, k);

	return v ? json_object_get_int64(v) : dflt;
}

static double get_dbl(struct json_object *o, const char *k)
{
	struct json_object *v = get(o, k);

	return v ? json_object_get_double(v) : 0;
}

static bool get_bool(struct json_object *o, const char *k)
{
	struct json_object *v = get(o, k);

	return v && json_object_get_boolean(v);
}

static enum ps_status get_status(struct json_object *o, char *reason,
				 size_t len)
{
	struct json_object *v = get(o, "status");

	if (reason)
		get_str(o, "reason", reason, len);
	return v ? ps_status_parse(json_object_get_string(v)) : PS_ST_ERROR;
}

static size_t arr_len(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array)
		       ? json_object_array_length(a)
		       : 0;
}

int ps_irq_from_json(struct json_object *obj, struct ps_irq_info *out)
{
	struct json_object *a, *g;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	get_str(obj, "ifname", out->ifname, sizeof(out->ifname));
	get_str(obj, "pci_function", out->bdf, sizeof(out->bdf));
	get_str(obj, "virtio_device", out->virtio, sizeof(out->virtio));
	out->status = get_status(obj, out->reason, sizeof(out->reason));
	get_str(obj, "attribution", out->attribution, sizeof(out->attribution));
	out->rated = get_bool(obj, "rated");
	out->interval = get_dbl(obj, "interval_s");

	a = get(obj, "cpus");
	n = arr_len(a);
	if (n > 65536)
		return -EINVAL;
	out->ncpu = (int)n;
	out->cpus = xcalloc(n ? n : 1, sizeof(*out->cpus));
	for (size_t k = 0; k < n; k++) {
		struct json_object *e = json_object_array_get_idx(a, k);
		struct ps_irq_cpu *c = &out->cpus[k];

		c->cpu = (int)get_int(e, "cpu", (int64_t)k);
		c->online = get_bool(e, "online");
		c->nic_irqs = (uint64_t)get_int(e, "nic_irqs", 0);
		c->nic_irq_rate = get_dbl(e, "nic_irq_rate");
		c->net_rx = (uint64_t)get_int(e, "net_rx", 0);
		c->net_tx = (uint64_t)get_int(e, "net_tx", 0);
		c->net_rx_rate = get_dbl(e, "net_rx_rate");
		c->net_tx_rate = get_dbl(e, "net_tx_rate");
		c->softnet = get_bool(e, "softnet");
		c->processed = (uint64_t)get_int(e, "processed", 0);
		c->dropped = (uint64_t)get_int(e, "dropped", 0);
		c->time_squeeze = (uint64_t)get_int(e, "time_squeeze", 0);
		c->processed_rate = get_dbl(e, "processed_rate");
		c->dropped_rate = get_dbl(e, "dropped_rate");
		c->squeeze_rate = get_dbl(e, "time_squeeze_rate");
	}

	a = get(obj, "lines");
	n = arr_len(a);
	out->nlines = (int)n;
	out->lines = xcalloc(n ? n : 1, sizeof(*out->lines));
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		struct ps_irq_line *l = &out->lines[i];
		struct json_object *c = get(e, "counts"), *r = get(e, "rates");

		l->irq = (int)get_int(e, "irq", -1);
		get_str(e, "name", l->name, sizeof(l->name));
		get_str(e, "chip", l->chip, sizeof(l->chip));
		get_str(e, "kind", l->kind, sizeof(l->kind));
		l->queue = (int)get_int(e, "queue", -1);
		l->total = (uint64_t)get_int(e, "total", 0);
		l->total_rate = get_dbl(e, "total_rate");
		l->count = xcalloc(out->ncpu ? out->ncpu : 1, sizeof(uint64_t));
		l->rate = xcalloc(out->ncpu ? out->ncpu : 1, sizeof(double));
		for (int k = 0; k < out->ncpu; k++) {
			if ((size_t)k < arr_len(c))
				l->count[k] = (uint64_t)json_object_get_int64(
					json_object_array_get_idx(c, k));
			if ((size_t)k < arr_len(r))
				l->rate[k] = json_object_get_double(
					json_object_array_get_idx(r, k));
		}
		l->aff_status = ps_status_parse(
			json_object_get_string(get(e, "affinity_status")));
		get_str(e, "smp_affinity_list", l->affinity,
			sizeof(l->affinity));
		get_str(e, "effective_affinity_list", l->effective,
			sizeof(l->effective));
	}

	g = get(obj, "softirqs");
	out->softirq_status =
		get_status(g, out->softirq_reason, sizeof(out->softirq_reason));
	g = get(obj, "softnet");
	out->softnet_status =
		get_status(g, out->softnet_reason, sizeof(out->softnet_reason));
	out->softnet_cols = (int)get_int(g, "columns", 0);
	get_str(g, "cpu_basis", out->softnet_cpu_basis,
		sizeof(out->softnet_cpu_basis));

	g = get(obj, "queues");
	out->queues_status =
		get_status(g, out->queues_reason, sizeof(out->queues_reason));
	a = get(g, "rx");
	n = arr_len(a);
	out->nrxq = (int)n;
	out->rxq = xcalloc(n ? n : 1, sizeof(*out->rxq));
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);

		out->rxq[i].index = (int)get_int(e, "index", 0);
		get_str(e, "rps_cpus", out->rxq[i].rps_cpus,
			sizeof(out->rxq[i].rps_cpus));
		out->rxq[i].rps_on = get_bool(e, "rps_enabled");
		out->rxq[i].rps_flow_cnt = (long)get_int(e, "rps_flow_cnt", -1);
	}
	a = get(g, "tx");
	n = arr_len(a);
	out->ntxq = (int)n;
	out->txq = xcalloc(n ? n : 1, sizeof(*out->txq));
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);

		out->txq[i].index = (int)get_int(e, "index", 0);
		get_str(e, "xps_cpus", out->txq[i].xps_cpus,
			sizeof(out->txq[i].xps_cpus));
		out->txq[i].xps_on = get_bool(e, "xps_enabled");
	}

	g = get(obj, "irqbalance");
	out->irqbalance_status = get_status(g, out->irqbalance_reason,
					    sizeof(out->irqbalance_reason));
	out->irqbalance_running = get_bool(g, "running");
	out->irqbalance_pid = (int)get_int(g, "pid", -1);

	g = get(obj, "summary");
	out->queues_with_irqs = (int)get_int(g, "queues_with_irqs", 0);
	out->irq_cpus = (int)get_int(g, "irq_cpus", 0);
	out->busiest_cpu = (int)get_int(g, "busiest_cpu", -1);
	out->busiest_share = get_dbl(g, "busiest_share");
	get_str(g, "share_basis", out->share_basis, sizeof(out->share_basis));
	out->dropped_total = (uint64_t)get_int(g, "dropped_total", 0);
	out->squeeze_total = (uint64_t)get_int(g, "time_squeeze_total", 0);
	out->dropped_rate_total = get_dbl(g, "dropped_rate_total");
	out->squeeze_rate_total = get_dbl(g, "time_squeeze_rate_total");
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
					  "affinity %s  effective %s\n"),
					l->irq, l->name, l->total_rate,
					cpus[0] ? cpus : "-",
					l->affinity[0] ? l->affinity : "?",
					l->effective[0] ? l->effective
							: _("n/a"));
			else
				fprintf(out,
					_("  IRQ %-5d %-28s %12" PRIu64
					  " since boot  CPUs %s  affinity %s  "
					  "effective %s\n"),
					l->irq, l->name, l->total,
					cpus[0] ? cpus : "-",
					l->affinity[0] ? l->affinity : "?",
					l->effective[0] ? l->effective
							: _("n/a"));
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
