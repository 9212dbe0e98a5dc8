/* irq-parse.c: the pure parsers of the IRQ probe: /proc/interrupts (rows,
 * chips, action names and the queue each names), /proc/softirqs,
 * /proc/net/softnet_stat and the queue names and RPS/XPS masks of
 * /sys/class/net/IF/queues. Text in, structs out: no file is read here
 * (probe-irq.c reads them through the sysroot and keeps the deltas). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "irq-parse.h"
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

/*
 * "CPU0 CPU1 ..." header: the ids of its first columns, up to the first
 * whose id is at or past @ncpu (or @ncpu columns: a real header lists each
 * online CPU once, in order); *nhdr counts every column, kept or not, so
 * that a row's values past the kept ones can be skipped. Returns the kept
 * count or -EINVAL.
 */
static int parse_cpu_header(const char *line, const char *end, int ncpu,
			    int **ids, int *nhdr)
{
	const char *p = line;
	int n = 0, cap = 16;
	bool full = false;

	*nhdr = 0;
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
		if (*nhdr == INT32_MAX)
			goto bad;
		(*nhdr)++;
		p += len;
		if (full || id >= ncpu || n == ncpu) {
			full = true;
			continue;
		}
		if (n == cap) {
			cap *= 2;
			*ids = xrealloc(*ids, cap * sizeof(**ids));
		}
		(*ids)[n++] = (int)id;
	}
	if (n)
		return n;
bad:
	free(*ids);
	*ids = NULL;
	*nhdr = 0;
	return -EINVAL;
}

static int clamp_cpus(int ncpu)
{
	return ncpu > 0 && ncpu < PS_IRQ_MAX_CPUS ? ncpu : PS_IRQ_MAX_CPUS;
}

/* skips up to @n whitespace-separated numbers: where the next token starts */
static const char *skip_numbers(const char *q, const char *eol, long n)
{
	while (n-- > 0) {
		const char *s = skip_ws(q);

		if (s >= eol || !isdigit((unsigned char)*s))
			break;
		while (s < eol && isdigit((unsigned char)*s))
			s++;
		q = s;
	}
	return q;
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

int ps_irq_parse_interrupts_n(const char *text, int ncpu,
			      struct ps_irq_table *out)
{
	const char *p = text, *eol;
	uint64_t *vals;
	long cells = 0;
	int cap = 64, nhdr;

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
	ncpu = clamp_cpus(ncpu);
	out->ncol = parse_cpu_header(p, eol, ncpu, &out->col_cpu, &nhdr);
	if (out->ncol < 0) {
		out->ncol = 0;
		return -EINVAL;
	}
	out->header_cols = nhdr;
	out->max_cpu = 0;
	for (int i = 0; i < out->ncol; i++)
		if (out->col_cpu[i] > out->max_cpu)
			out->max_cpu = out->col_cpu[i];
	out->rows = xcalloc(cap, sizeof(*out->rows));
	vals = xmalloc(out->ncol * sizeof(*vals));
	p = *eol ? eol + 1 : eol;

	for (; *p; p = *eol ? eol + 1 : eol) {
		struct ps_irq_row *r;
		const char *colon, *q;
		char *e;

		eol = strchrnul(p, '\n');
		q = skip_ws(p);
		colon = memchr(q, ':', eol - q);
		if (!colon || colon == q || colon - q >= 16)
			continue;
		if (out->nrows == PS_IRQ_MAX_ROWS ||
		    cells >= PS_IRQ_MAX_CELLS) {
			out->truncated = true;
			break;
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
			vals[r->ncount++] = v;
			q = e;
		}
		/* the values of the columns past the kept ones */
		if (r->ncount == out->ncol)
			q = skip_numbers(q, eol, (long)nhdr - out->ncol);
		/* a short row (ERR, MIS) keeps only the values it has */
		r->count = xmalloc((r->ncount ? r->ncount : 1) * sizeof(*vals));
		memcpy(r->count, vals, r->ncount * sizeof(*vals));
		cells += r->ncount + 1;
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
	}
	free(vals);
	return 0;
}

int ps_irq_parse_interrupts(const char *text, struct ps_irq_table *out)
{
	return ps_irq_parse_interrupts_n(text, PS_IRQ_MAX_CPUS, out);
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

struct match_ctx {
	const char *ifname, *bdf, *virtio;
};

static bool match_fn(const char *name, void *arg)
{
	struct match_ctx *m = arg;

	return ps_irq_action_matches(name, m->ifname, m->bdf, m->virtio);
}

bool ps_irq_actions_match(const char *actions, const char *ifname,
			  const char *bdf, const char *virtio)
{
	struct match_ctx m = { ifname, bdf, virtio };

	return each_action(actions, match_fn, &m);
}

struct queue_ctx {
	char *kind;
	size_t klen;
	int *index;
};

static bool queue_fn(const char *name, void *arg)
{
	struct queue_ctx *q = arg;

	ps_irq_queue_of(name, q->kind, q->klen, q->index);
	return q->kind[0] != 0;
}

void ps_irq_actions_queue(const char *actions, char *kind, size_t klen,
			  int *index)
{
	struct queue_ctx q = { kind, klen, index };

	kind[0] = 0;
	*index = -1;
	each_action(actions, queue_fn, &q);
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

void ps_irq_softirqs_free(struct ps_softirq_counts *s)
{
	free(s->net_rx);
	free(s->net_tx);
	free(s->present);
	memset(s, 0, sizeof(*s));
}

int ps_irq_parse_softirqs_n(const char *text, int ncpu,
			    struct ps_softirq_counts *out)
{
	const char *p = text, *eol;
	int *ids, n, nhdr, found = 0;

	memset(out, 0, sizeof(*out));
	eol = strchrnul(p, '\n');
	n = parse_cpu_header(p, eol, clamp_cpus(ncpu), &ids, &nhdr);
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
		ps_irq_softirqs_free(out);
		return -EINVAL;
	}
	return 0;
}

int ps_irq_parse_softirqs(const char *text, struct ps_softirq_counts *out)
{
	return ps_irq_parse_softirqs_n(text, PS_IRQ_MAX_CPUS, out);
}

int ps_irq_parse_softnet_n(const char *text, int ncpu,
			   struct ps_softnet_table *out)
{
	const char *p = text;
	int cap = 16, seen = 0;

	ncpu = clamp_cpus(ncpu);

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

			int cpu = nc >= 13 ? (int)col[12] : seen;

			if (nc < 3 || (out->ncols && nc != out->ncols))
				goto bad;
			out->ncols = nc;
			if (seen++ == INT32_MAX || (uint32_t)cpu > 65535)
				goto bad;
			/* a CPU the tree does not have, or more rows than it
			 * has CPUs: not kept */
			if (cpu >= ncpu || out->nrows == ncpu) {
				p = *eol ? eol + 1 : eol;
				continue;
			}
			if (out->nrows == cap) {
				cap *= 2;
				out->rows = xrealloc(out->rows,
						     cap * sizeof(*out->rows));
			}
			r = &out->rows[out->nrows];
			r->processed = col[0];
			r->dropped = col[1];
			r->time_squeeze = col[2];
			r->cpu = cpu;
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

int ps_irq_parse_softnet(const char *text, struct ps_softnet_table *out)
{
	return ps_irq_parse_softnet_n(text, PS_IRQ_MAX_CPUS, out);
}

/* ------------------------------------------------------------------ */
/* /sys/class/net/IF/queues                                            */

int ps_irq_queue_dir_index(const char *name, const char *pfx)
{
	size_t l = strlen(pfx);
	char *e;
	long v;

	if (strncmp(name, pfx, l) || !isdigit((unsigned char)name[l]))
		return -1;
	v = strtol(name + l, &e, 10);
	return *e || v > 65535 ? -1 : (int)v;
}

bool ps_irq_mask_nonzero(const char *mask)
{
	for (; *mask; mask++)
		if (isxdigit((unsigned char)*mask) && *mask != '0')
			return true;
	return false;
}
