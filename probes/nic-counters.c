/* nic-counters.c: the driver's counters read by name (nic-counters.h) */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic-counters.h"
#include "nls.h"

#define NAMELEN 64

static const char *const drop_names[PS_NIC_NDROP] = {
	"missed", "no_buffer", "out_of_buffer", "fifo", "discards", "dropped",
};

const char *ps_nic_drop_name(enum ps_nic_drop d)
{
	return d < PS_NIC_NDROP ? drop_names[d] : "?";
}

const char *ps_nic_dir_name(enum ps_nic_dir d)
{
	return d == PS_NIC_TX ? "tx" : "rx";
}

/* ---- one name ---------------------------------------------------------- */

/* lower case, no padding, at most NAMELEN - 1 bytes */
static void normalise(const char *in, char *out)
{
	size_t n = 0;

	while (*in == ' ' || *in == '\t')
		in++;
	for (; *in && n < NAMELEN - 1; in++)
		out[n++] = (char)tolower((unsigned char)*in);
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

/* a decimal queue number at *p (advanced), -1 when none or too large */
static int queue_num(const char **p)
{
	long v = 0;
	int digits = 0;

	while (isdigit((unsigned char)**p) && digits < 6) {
		v = v * 10 + (**p - '0');
		(*p)++;
		digits++;
	}
	if (!digits || isdigit((unsigned char)**p))
		return -1;
	return (int)v;
}

static bool dir_prefix(const char *s, enum ps_nic_dir *d)
{
	if (!strncmp(s, "rx", 2))
		*d = PS_NIC_RX;
	else if (!strncmp(s, "tx", 2))
		*d = PS_NIC_TX;
	else
		return false;
	return true;
}

/*
 * The per-queue naming schemes: "[N]: rest", "rx_queue_N_rest",
 * "rx-N.rest", "queue_N_rx_rest", "rx_qN_rest", "rxqN_rest", "rxN_rest".
 * true with *q, *dir (when the scheme says it) and *rest.
 */
static bool queue_scheme(const char *s, int *q, enum ps_nic_dir *dir,
			 bool *have_dir, const char **rest)
{
	const char *p = s;

	*have_dir = false;
	if (*p == '[') {
		p++;
		*q = queue_num(&p);
		if (*q < 0 || strncmp(p, "]:", 2))
			return false;
		p += 2;
		while (*p == ' ')
			p++;
		*rest = p;
		return true;
	}
	if (!strncmp(p, "queue_", 6)) {
		p += 6;
		*q = queue_num(&p);
		if (*q < 0 || *p != '_' || !dir_prefix(p + 1, dir) ||
		    p[3] != '_')
			return false;
		*have_dir = true;
		*rest = p + 4;
		return true;
	}
	if (!dir_prefix(p, dir))
		return false;
	*have_dir = true;
	p += 2;
	if (!strncmp(p, "_queue_", 7))
		p += 7;
	else if (*p == '-')
		p++;
	else if (!strncmp(p, "_q", 2) && isdigit((unsigned char)p[2]))
		p += 2;
	else if (*p == 'q' && isdigit((unsigned char)p[1]))
		p++;
	else if (!isdigit((unsigned char)*p))
		return false;
	*q = queue_num(&p);
	if (*q < 0 || (*p != '_' && *p != '.'))
		return false;
	*rest = p + 1;
	return true;
}

/* split s into words at '_', ' ', '.', '-', ':' (at most max) */
static int words(const char *s, char w[][NAMELEN], int max)
{
	int n = 0;

	while (*s && n < max) {
		size_t k = 0;

		while (*s && strchr("_ .-:[]", *s))
			s++;
		if (!*s)
			break;
		while (*s && !strchr("_ .-:[]", *s) && k < NAMELEN - 1)
			w[n][k++] = *s++;
		w[n][k] = '\0';
		while (*s && !strchr("_ .-:[]", *s))
			s++;
		n++;
	}
	return n;
}

static bool in_list(const char *w, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(w, *list))
			return true;
	return false;
}

/* a queue's traffic counter: [rx|tx] [ucast|mcast|bcast] packets|bytes */
static enum ps_nic_kind traffic_kind(const char *rest)
{
	static const char *const casts[] = {
		"ucast",     "mcast", "bcast", "unicast", "multicast",
		"broadcast", "rx",    "tx",    NULL
	};
	static const char *const pk[] = { "packets", "pkts", "cnt",
					  "frames",  "pkt",  NULL };
	static const char *const by[] = { "bytes", "byte", "octets", NULL };
	char w[6][NAMELEN];
	int n = words(rest, w, 6);
	enum ps_nic_kind k = PS_NIC_K_NONE;

	if (n >= 6)
		return PS_NIC_K_NONE;
	for (int i = 0; i < n; i++) {
		if (in_list(w[i], casts))
			continue;
		if (k != PS_NIC_K_NONE)
			return PS_NIC_K_NONE;
		if (in_list(w[i], pk))
			k = PS_NIC_K_QPACKETS;
		else if (in_list(w[i], by))
			k = PS_NIC_K_QBYTES;
		else
			return PS_NIC_K_NONE;
	}
	return k;
}

/* the direction a name speaks of: its first word starting rx/tx */
static bool name_dir(const char *s, enum ps_nic_dir *d)
{
	char w[8][NAMELEN];
	int n = words(s, w, 8);

	for (int i = 0; i < n; i++)
		if (dir_prefix(w[i], d))
			return true;
	return false;
}

static bool has_any(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strstr(s, *list))
			return true;
	return false;
}

/* the drop class of a name, or -1 */
static int drop_class(const char *s)
{
	/* XDP verdicts are the program's, per-priority and flow-director
	 * counters repeat the totals or count no loss */
	static const char *const not_loss[] = { "xdp",	 "prio",      "fdir",
						"irq",	 "steer",     "pause",
						"xoff",	 "xon",	      "csum",
						"cache", "missed_tx", NULL };
	static const char *const nobuf[] = { "no_buf", "nobuf", "no_pbuf",
					     "no buffer", NULL };

	if (has_any(s, not_loss))
		return -1;
	if (strstr(s, "out_of_buffer"))
		return PS_NIC_OUT_OF_BUFFER;
	if (has_any(s, nobuf))
		return PS_NIC_NO_BUFFER;
	if (strstr(s, "miss"))
		return PS_NIC_MISSED;
	if (strstr(s, "fifo"))
		return PS_NIC_FIFO;
	if (strstr(s, "discard"))
		return PS_NIC_DISCARDS;
	if (strstr(s, "drop"))
		return PS_NIC_DROPPED;
	return -1;
}

static bool is_pause(const char *s)
{
	static const char *const not_frames[] = {
		"prio",	     "admin", "duration", "transition", "storm",
		"xon",	     "time",  "pfc",	  "quanta",	"deferred",
		"ctrl_phy_", "state", "constant", "events",	NULL
	};

	return (strstr(s, "pause") || strstr(s, "xoff")) &&
	       !has_any(s, not_frames);
}

void ps_nic_classify(const char *raw, int q_ctx, enum ps_nic_dir dir_ctx,
		     struct ps_nic_class *out)
{
	char s[NAMELEN];
	const char *rest;
	enum ps_nic_dir d = PS_NIC_RX;
	bool have_dir;
	int q, cls;

	memset(out, 0, sizeof(*out));
	out->q = -1;
	normalise(raw, s);
	/* vmxnet3: "Rx Queue#" (value: the queue), then indented counters */
	if (!strcmp(s, "rx queue#") || !strcmp(s, "tx queue#")) {
		out->kind = PS_NIC_K_QMARK;
		out->dir = s[0] == 't' ? PS_NIC_TX : PS_NIC_RX;
		return;
	}
	if (queue_scheme(s, &q, &d, &have_dir, &rest)) {
		if (!have_dir && !name_dir(rest, &d))
			d = PS_NIC_RX;
	} else if (q_ctx >= 0 && raw[0] == ' ') {
		q = q_ctx;
		d = dir_ctx;
		rest = s;
	} else {
		q = -1;
		rest = s;
		if (!name_dir(s, &d))
			d = PS_NIC_RX;
	}
	out->dir = d;
	if (q >= 0) {
		enum ps_nic_kind k = traffic_kind(rest);

		if (k != PS_NIC_K_NONE) {
			if (q >= PS_NIC_MAXQ)
				return;
			out->kind = k;
			out->q = q;
			return;
		}
	}
	cls = drop_class(s);
	if (cls >= 0) {
		out->kind = PS_NIC_K_DROP;
		out->cls = (enum ps_nic_drop)cls;
		out->q = q;
		return;
	}
	if (q < 0 && is_pause(s))
		out->kind = PS_NIC_K_PAUSE;
}

/* ---- all counters of a sample ------------------------------------------ */

void ps_nic_counters_init(struct ps_nic_counters *c)
{
	memset(c, 0, sizeof(*c));
	for (int d = 0; d < PS_NIC_NDIR; d++) {
		for (int q = 0; q < PS_NIC_MAXQ; q++)
			c->packets[d][q] = c->bytes[d][q] = PS_NA;
		for (int k = 0; k < PS_NIC_NDROP; k++)
			c->drops[d][k] = PS_NA;
		c->pause[d] = PS_NA;
	}
}

void ps_nic_rates_init(struct ps_nic_rates *r)
{
	memset(r, 0, sizeof(*r));
	for (int d = 0; d < PS_NIC_NDIR; d++) {
		for (int q = 0; q < PS_NIC_MAXQ; q++)
			r->pps[d][q] = -1, r->bps[d][q] = NAN;
		for (int k = 0; k < PS_NIC_NDROP; k++)
			r->drops[d][k] = NAN;
		r->pause[d] = NAN;
	}
}

static void add(int64_t *slot, uint64_t v)
{
	if (v > INT64_MAX / 2)
		v = INT64_MAX / 2;
	if (*slot == PS_NA)
		*slot = 0;
	*slot += (int64_t)v;
	if (*slot > INT64_MAX / 2)
		*slot = INT64_MAX / 2;
}

void ps_nic_counters_from(struct ps_nic_counters *c, const char *names,
			  size_t namelen, const uint64_t *vals, unsigned n)
{
	/* port-wide drop counters win over the sum of the queues' */
	int64_t queue_drops[PS_NIC_NDIR][PS_NIC_NDROP];
	int q_ctx = -1;
	enum ps_nic_dir dir_ctx = PS_NIC_RX;

	ps_nic_counters_init(c);
	if (!names || !vals || namelen < 2)
		return;
	for (int d = 0; d < PS_NIC_NDIR; d++)
		for (int k = 0; k < PS_NIC_NDROP; k++)
			queue_drops[d][k] = PS_NA;
	for (unsigned i = 0; i < n; i++) {
		char name[NAMELEN];
		struct ps_nic_class k;
		size_t l = namelen < NAMELEN ? namelen : NAMELEN;

		memcpy(name, names + (size_t)i * namelen, l);
		name[l - 1] = '\0';
		ps_nic_classify(name, q_ctx, dir_ctx, &k);
		switch (k.kind) {
		case PS_NIC_K_QMARK:
			q_ctx = vals[i] < PS_NIC_MAXQ ? (int)vals[i] : -1;
			dir_ctx = k.dir;
			break;
		case PS_NIC_K_QPACKETS:
			add(&c->packets[k.dir][k.q], vals[i]);
			if (c->nq[k.dir] < (unsigned)k.q + 1)
				c->nq[k.dir] = (unsigned)k.q + 1;
			break;
		case PS_NIC_K_QBYTES:
			add(&c->bytes[k.dir][k.q], vals[i]);
			if (c->nq_bytes[k.dir] < (unsigned)k.q + 1)
				c->nq_bytes[k.dir] = (unsigned)k.q + 1;
			break;
		case PS_NIC_K_DROP:
			add(k.q >= 0 ? &queue_drops[k.dir][k.cls]
				     : &c->drops[k.dir][k.cls],
			    vals[i]);
			break;
		case PS_NIC_K_PAUSE:
			/* several names of one count (mlx5): the largest */
			if (c->pause[k.dir] == PS_NA ||
			    (int64_t)vals[i] > c->pause[k.dir])
				c->pause[k.dir] = vals[i] > INT64_MAX / 2
							  ? INT64_MAX / 2
							  : (int64_t)vals[i];
			break;
		case PS_NIC_K_NONE:
			break;
		}
	}
	for (int d = 0; d < PS_NIC_NDIR; d++) {
		for (int k = 0; k < PS_NIC_NDROP; k++)
			if (c->drops[d][k] == PS_NA)
				c->drops[d][k] = queue_drops[d][k];
		/* byte counters without packet counters say nothing alone */
		if (c->nq_bytes[d] > c->nq[d])
			c->nq_bytes[d] = c->nq[d];
	}
	c->valid = true;
}

static double delta(int64_t a, int64_t b, double s)
{
	if (a == PS_NA || b == PS_NA || b < a || !(s > 0))
		return NAN;
	return (double)(b - a) / s;
}

void ps_nic_rates_compute(const struct ps_nic_counters *prev,
			  const struct ps_nic_counters *cur, double seconds,
			  struct ps_nic_rates *out)
{
	ps_nic_rates_init(out);
	if (!prev->valid || !cur->valid || !(seconds > 0))
		return;
	out->rated = true;
	out->seconds = seconds;
	for (int d = 0; d < PS_NIC_NDIR; d++) {
		out->nq[d] =
			cur->nq[d] < prev->nq[d] ? cur->nq[d] : prev->nq[d];
		for (unsigned q = 0; q < out->nq[d]; q++) {
			/* an array element: -1 is "not reported" */
			out->pps[d][q] = delta(prev->packets[d][q],
					       cur->packets[d][q], seconds);
			if (isnan(out->pps[d][q]))
				out->pps[d][q] = -1;
			out->bps[d][q] = 8 * delta(prev->bytes[d][q],
						   cur->bytes[d][q], seconds);
		}
		for (int k = 0; k < PS_NIC_NDROP; k++)
			out->drops[d][k] = delta(prev->drops[d][k],
						 cur->drops[d][k], seconds);
		out->pause[d] = delta(prev->pause[d], cur->pause[d], seconds);
	}
}

double ps_nic_rates_drops(const struct ps_nic_rates *r, enum ps_nic_dir d)
{
	double sum = NAN;

	for (int k = 0; r->rated && k < PS_NIC_NDROP; k++)
		if (isfinite(r->drops[d][k]))
			sum = (isnan(sum) ? 0 : sum) + r->drops[d][k];
	return sum;
}

int64_t ps_nic_counters_drops(const struct ps_nic_counters *c,
			      enum ps_nic_dir d)
{
	int64_t sum = PS_NA;

	for (int k = 0; c->valid && k < PS_NIC_NDROP; k++)
		if (c->drops[d][k] != PS_NA)
			sum = (sum == PS_NA ? 0 : sum) + c->drops[d][k];
	return sum;
}

/* ---- JSON and text ------------------------------------------------------ */

#define NC struct ps_nic_counters
#define NR struct ps_nic_rates

/* clang-format off */
#define Q_ARRAY(T, m, n, k, et)                                               \
	{ .key = (k), .type = PS_JT_ARRAY, .flags = PS_JF_NA,                 \
	  .off = offsetof(T, m), .size = PS_JSIZE(T, m),                      \
	  .off2 = offsetof(T, n), .size2 = PS_JSIZE(T, n), .elem = (et),      \
	  .elem_size = sizeof(((T *)0)->m[0]), .max = PS_NIC_MAXQ }
#define DROP_INT(d, k, ky, lbl)                                              \
	PS_JFIELD(NC, drops[d][k], ky, PS_JT_INT, PS_JF_NA | PS_JF_SKIPNA,   \
		  lbl, NULL)
#define DROP_DBL(d, k, ky, lbl)                                              \
	{ .key = (ky), .type = PS_JT_DOUBLE,                                 \
	  .flags = PS_JF_NA | PS_JF_SKIPNA | PS_JF_FIXED, .decimals = 1,      \
	  .off = offsetof(NR, drops[d][k]), .size = sizeof(double),           \
	  .label = (lbl), .unit = N_("/s") }
#define DROPS(X)                                                               \
	X(PS_NIC_RX, PS_NIC_MISSED, "rx_missed", N_("rx missed:"))            \
	X(PS_NIC_RX, PS_NIC_NO_BUFFER, "rx_no_buffer", N_("rx no buffer:"))    \
	X(PS_NIC_RX, PS_NIC_OUT_OF_BUFFER, "rx_out_of_buffer",                 \
	  N_("rx out of buffer:"))                                             \
	X(PS_NIC_RX, PS_NIC_FIFO, "rx_fifo", N_("rx fifo:"))                   \
	X(PS_NIC_RX, PS_NIC_DISCARDS, "rx_discards", N_("rx discards:"))       \
	X(PS_NIC_RX, PS_NIC_DROPPED, "rx_dropped", N_("rx dropped:"))          \
	X(PS_NIC_TX, PS_NIC_MISSED, "tx_missed", N_("tx missed:"))            \
	X(PS_NIC_TX, PS_NIC_NO_BUFFER, "tx_no_buffer", N_("tx no buffer:"))    \
	X(PS_NIC_TX, PS_NIC_OUT_OF_BUFFER, "tx_out_of_buffer",                 \
	  N_("tx out of buffer:"))                                             \
	X(PS_NIC_TX, PS_NIC_FIFO, "tx_fifo", N_("tx fifo:"))                   \
	X(PS_NIC_TX, PS_NIC_DISCARDS, "tx_discards", N_("tx discards:"))       \
	X(PS_NIC_TX, PS_NIC_DROPPED, "tx_dropped", N_("tx dropped:"))
#define DROP_INT_X(d, k, ky, lbl) DROP_INT(d, k, ky, lbl),
#define DROP_DBL_X(d, k, ky, lbl) DROP_DBL(d, k, ky, lbl),
/* clang-format on */

const struct ps_jfield ps_nic_counters_table[] = {
	Q_ARRAY(NC, packets[PS_NIC_RX], nq[PS_NIC_RX], "rx_packets", PS_JT_INT),
	Q_ARRAY(NC, bytes[PS_NIC_RX], nq_bytes[PS_NIC_RX], "rx_bytes",
		PS_JT_INT),
	Q_ARRAY(NC, packets[PS_NIC_TX], nq[PS_NIC_TX], "tx_packets", PS_JT_INT),
	Q_ARRAY(NC, bytes[PS_NIC_TX], nq_bytes[PS_NIC_TX], "tx_bytes",
		PS_JT_INT),
	PS_JFIELD(NC, nq[PS_NIC_RX], NULL, PS_JT_UINT, PS_JF_NOJSON,
		  N_("rx queues counted:"), NULL),
	PS_JFIELD(NC, nq[PS_NIC_TX], NULL, PS_JT_UINT, PS_JF_NOJSON,
		  N_("tx queues counted:"), NULL),
	DROPS(DROP_INT_X) PS_JFIELD(NC, pause[PS_NIC_RX], "pause_rx", PS_JT_INT,
				    PS_JF_NA | PS_JF_SKIPNA,
				    N_("pause frames received:"), NULL),
	PS_JFIELD(NC, pause[PS_NIC_TX], "pause_tx", PS_JT_INT,
		  PS_JF_NA | PS_JF_SKIPNA, N_("pause frames sent:"), NULL),
	PS_JEND
};

/* clang-format off */
#define RATE_DBL(m, ky, lbl, un)                                             \
	{ .key = (ky), .type = PS_JT_DOUBLE,                                 \
	  .flags = PS_JF_NA | PS_JF_SKIPNA | PS_JF_FIXED, .decimals = 1,      \
	  .off = offsetof(NR, m), .size = sizeof(double), .label = (lbl),     \
	  .unit = (un) }
/* clang-format on */

const struct ps_jfield ps_nic_rates_table[] = {
	RATE_DBL(seconds, "seconds", NULL, NULL),
	Q_ARRAY(NR, pps[PS_NIC_RX], nq[PS_NIC_RX], "rx_pps", PS_JT_DOUBLE),
	Q_ARRAY(NR, pps[PS_NIC_TX], nq[PS_NIC_TX], "tx_pps", PS_JT_DOUBLE),
	DROPS(DROP_DBL_X) RATE_DBL(pause[PS_NIC_RX], "pause_rx",
				   N_("pause frames received:"), N_("/s")),
	RATE_DBL(pause[PS_NIC_TX], "pause_tx", N_("pause frames sent:"),
		 N_("/s")),
	PS_JEND
};
