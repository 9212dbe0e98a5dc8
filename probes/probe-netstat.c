/* probe-netstat.c: the "Kernel counters" block of "pipescope probe": what
 * the kernel of this network namespace dropped and retransmitted (IP, UDP
 * and TCP counters of /proc/net/snmp and /proc/net/netstat, as "nstat"
 * shows them) and its socket memory (/proc/net/sockstat, tcp_mem) */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "jsonutil.h"
#include "log.h"
#include "nls.h"
#include "probe-netstat.h"
#include "probe.h"
#include "sysroot.h"

/* bounds of the untrusted text: columns per line, a name's length */
#define MAX_COLS 512
#define MAX_SECTION 32

static const struct {
	const char *sec, *name;
	size_t off, roff; /* in the counters, in the rates */
} counters[] = {
#define ENTRY(k, s, n)                                                         \
	{ s, n, offsetof(struct ps_netstat_counters, k),                       \
	  offsetof(struct ps_netstat_rates, k) },
	PS_NETSTAT_COUNTERS(ENTRY)
#undef ENTRY
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

const struct ps_netstat_drop ps_netstat_drops[PS_ND_COUNT] = {
#define DROP(id, k, n, l)                                                      \
	[PS_ND_##id] = { #k, n, offsetof(struct ps_netstat_counters, k),       \
			 offsetof(struct ps_netstat_rates, k), l },
	PS_NETSTAT_DROPS(DROP)
#undef DROP
};

int64_t ps_netstat_drop(const struct ps_netstat_counters *c,
			enum ps_netstat_drop_id id)
{
	return *(const int64_t *)((const char *)c + ps_netstat_drops[id].off);
}

int64_t ps_netstat_layer_count(const struct ps_netstat_counters *c,
			       enum ps_drop_layer l)
{
	int64_t sum = PS_NA, buf;

	for (int i = 0; i < PS_ND_COUNT; i++) {
		int64_t v = ps_netstat_drop(c, (enum ps_netstat_drop_id)i);

		if (ps_netstat_drops[i].layer != l || v < 0)
			continue;
		sum = sum < 0 ? v : sum > INT64_MAX - v ? INT64_MAX : sum + v;
	}
	if (l == PS_DROP_UDP_ERR && sum >= 0) {
		buf = ps_netstat_layer_count(c, PS_DROP_UDP_BUF);
		if (buf >= 0)
			sum = sum > buf ? sum - buf : 0;
	}
	return sum;
}

double ps_netstat_layer_rate(const struct ps_netstat_info *n,
			     enum ps_drop_layer l)
{
	double sum = NAN, buf;

	if (n->status != PS_ST_OK || !n->rated)
		return NAN;
	for (int i = 0; i < PS_ND_COUNT; i++) {
		double v = *(const double *)((const char *)&n->r +
					     ps_netstat_drops[i].roff);

		if (ps_netstat_drops[i].layer == l && isfinite(v))
			sum = isnan(sum) ? v : sum + v;
	}
	if (l == PS_DROP_UDP_ERR && !isnan(sum)) {
		buf = ps_netstat_layer_rate(n, PS_DROP_UDP_BUF);
		if (!isnan(buf))
			sum = fmax(0, sum - buf);
	}
	return sum;
}

bool ps_netstat_drop_udp(enum ps_netstat_drop_id id)
{
	return ps_netstat_drops[id].layer == PS_DROP_UDP_BUF ||
	       ps_netstat_drops[id].layer == PS_DROP_UDP_ERR;
}

bool ps_netstat_drop_tcp(enum ps_netstat_drop_id id)
{
	return ps_netstat_drops[id].layer == PS_DROP_TCP_BACKLOG ||
	       ps_netstat_drops[id].layer == PS_DROP_TCP_PRUNE ||
	       ps_netstat_drops[id].layer == PS_DROP_TCP_OFO;
}

static int64_t *counter_at(struct ps_netstat_counters *c, size_t i)
{
	return (int64_t *)((char *)c + counters[i].off);
}

static int64_t counter_of(const struct ps_netstat_counters *c, size_t i)
{
	return *(const int64_t *)((const char *)c + counters[i].off);
}

static double *rate_at(struct ps_netstat_rates *r, size_t i)
{
	return (double *)((char *)r + counters[i].roff);
}

void ps_netstat_init(struct ps_netstat_info *info)
{
	memset(info, 0, sizeof(*info));
	info->status = PS_ST_NOT_RECORDED;
	for (size_t i = 0; i < NCOUNTERS; i++) {
		*counter_at(&info->c, i) = PS_NA;
		*rate_at(&info->r, i) = NAN;
	}
	info->interval_s = NAN;
	info->sock = (struct ps_sockstat){ PS_NA, PS_NA, PS_NA, PS_NA, PS_NA,
					   PS_NA, PS_NA, PS_NA, PS_NA, PS_NA };
}

/* ---- parsing -------------------------------------------------------- */

/* "Section: rest": the section's name into sec; NULL when the line is not
 * of that shape */
static const char *section_of(const char *line, const char *eol, char *sec)
{
	size_t n = 0;

	while (line + n < eol && isalnum((unsigned char)line[n]))
		n++;
	if (!n || n >= MAX_SECTION || line + n >= eol || line[n] != ':')
		return NULL;
	memcpy(sec, line, n);
	sec[n] = 0;
	return line + n + 1;
}

/* split [p, eol) at blanks; at most MAX_COLS words, -1 past that */
static int split(const char *p, const char *eol, const char **w, size_t *wl)
{
	int n = 0;

	for (;;) {
		while (p < eol && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p >= eol)
			return n;
		if (n == MAX_COLS)
			return -1;
		w[n] = p;
		while (p < eol && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		wl[n] = (size_t)(p - w[n]);
		n++;
	}
}

/* a decimal integer, optionally negative, exactly len characters */
static bool number(const char *w, size_t len, int64_t *out)
{
	char buf[24], *end;
	long long v;

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, w, len);
	buf[len] = 0;
	if (!isdigit((unsigned char)buf[buf[0] == '-']))
		return false;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* one header/value pair of a section: the counters it names */
static int pair(const char *sec, const char *h, const char *heol, const char *v,
		const char *veol, struct ps_netstat_counters *c)
{
	const char *hw[MAX_COLS], *vw[MAX_COLS];
	size_t hl[MAX_COLS], vl[MAX_COLS];
	int64_t val[MAX_COLS];
	int nh = split(h, heol, hw, hl), nv = split(v, veol, vw, vl), set = 0;

	if (nh <= 0 || nh != nv)
		return -1;
	for (int i = 0; i < nv; i++)
		if (!number(vw[i], vl[i], &val[i]))
			return -1;
	for (size_t k = 0; k < NCOUNTERS; k++) {
		int64_t *dst = counter_at(c, k);

		if (strcmp(counters[k].sec, sec) || *dst != PS_NA)
			continue; /* another section, or set by a first pair */
		for (int i = 0; i < nh; i++) {
			if (hl[i] != strlen(counters[k].name) ||
			    memcmp(hw[i], counters[k].name, hl[i]))
				continue;
			if (val[i] >= 0) {
				*dst = val[i];
				set++;
			}
			break;
		}
	}
	return set;
}

int ps_netstat_parse(const char *text, struct ps_netstat_counters *c)
{
	const char *line = text, *hdr = NULL, *hdr_eol = NULL;
	char sec[MAX_SECTION], hsec[MAX_SECTION] = "";
	int set = 0, good = 0;

	if (!text)
		return -EINVAL;
	while (*line) {
		const char *eol = strchrnul(line, '\n');
		const char *rest = section_of(line, eol, sec);

		if (!rest) {
			hdr = NULL;
		} else if (hdr && !strcmp(sec, hsec)) {
			int n = pair(sec, hdr, hdr_eol, rest, eol, c);

			if (n >= 0) {
				good++;
				set += n;
			}
			hdr = NULL;
		} else {
			hdr = rest;
			hdr_eol = eol;
			memcpy(hsec, sec, sizeof(hsec));
		}
		line = *eol ? eol + 1 : eol;
	}
	return good ? set : -EINVAL;
}

/* "key value key value ..." of one sockstat line into the named fields */
static int kv_line(const char *p, const char *eol, const char *const *keys,
		   int64_t *const *dst)
{
	const char *w[MAX_COLS];
	size_t wl[MAX_COLS];
	int n = split(p, eol, w, wl), set = 0;

	for (int i = 0; i + 1 < n; i += 2) {
		int64_t v;

		if (!number(w[i + 1], wl[i + 1], &v) || v < 0)
			continue;
		for (int k = 0; keys[k]; k++)
			if (wl[i] == strlen(keys[k]) &&
			    !memcmp(w[i], keys[k], wl[i]) && *dst[k] == PS_NA) {
				*dst[k] = v;
				set++;
			}
	}
	return set;
}

int ps_sockstat_parse(const char *text, struct ps_sockstat *s)
{
	static const char *const tcp_keys[] = { "inuse", "orphan", "tw",
						"alloc", "mem",	   NULL };
	static const char *const udp_keys[] = { "inuse", "mem", NULL };
	int64_t *const tcp_dst[] = { &s->tcp_inuse, &s->tcp_orphan, &s->tcp_tw,
				     &s->tcp_alloc, &s->tcp_mem };
	int64_t *const udp_dst[] = { &s->udp_inuse, &s->udp_mem };
	const char *line = text;
	char sec[MAX_SECTION];
	int set = 0;

	if (!text)
		return -EINVAL;
	while (*line) {
		const char *eol = strchrnul(line, '\n');
		const char *rest = section_of(line, eol, sec);

		if (rest && !strcmp(sec, "TCP"))
			set += kv_line(rest, eol, tcp_keys, tcp_dst);
		else if (rest && !strcmp(sec, "UDP"))
			set += kv_line(rest, eol, udp_keys, udp_dst);
		line = *eol ? eol + 1 : eol;
	}
	return set ? set : -EINVAL;
}

int ps_tcp_mem_parse(const char *text, struct ps_sockstat *s)
{
	const char *w[MAX_COLS];
	size_t wl[MAX_COLS];
	int64_t v[3];

	if (!text || split(text, strchrnul(text, '\n'), w, wl) != 3)
		return -EINVAL;
	for (int i = 0; i < 3; i++)
		if (!number(w[i], wl[i], &v[i]) || v[i] < 0)
			return -EINVAL;
	s->tcp_mem_low = v[0];
	s->tcp_mem_pressure = v[1];
	s->tcp_mem_high = v[2];
	return 0;
}

int64_t ps_netstat_delta(int64_t prev, int64_t cur)
{
	if (prev < 0 || cur < 0 || cur < prev)
		return PS_NA;
	return cur - prev;
}

void ps_netstat_diff(const struct ps_netstat_counters *prev,
		     const struct ps_netstat_counters *cur,
		     struct ps_netstat_counters *d)
{
	for (size_t i = 0; i < NCOUNTERS; i++)
		*counter_at(d, i) = ps_netstat_delta(counter_of(prev, i),
						     counter_of(cur, i));
}

int ps_netstat_bound(struct ps_netstat_counters *d, int64_t max)
{
	int n = 0;

	for (size_t i = 0; i < NCOUNTERS; i++)
		if (*counter_at(d, i) > max) {
			*counter_at(d, i) = PS_NA;
			n++;
		}
	return n;
}

/* ---- sampling ------------------------------------------------------- */

/* read one file; NULL and a word on why into why (appended) */
static char *read_one(const char *path, char *why, size_t len, int *nrec)
{
	char *text = ps_read_file(path, NULL);
	size_t used = strlen(why);

	if (text)
		return text;
	if (errno == ENOENT && !ps_sysroot_is_live())
		(*nrec)++;
	snprintf(why + used, len - used, "%s%s: %s", used ? "; " : "", path,
		 errno == ENOENT && !ps_sysroot_is_live()
			 ? _("not in the recorded tree")
			 : ps_strerror(errno));
	return NULL;
}

int ps_netstat_sample(const char *ifname, struct ps_netstat_info *out)
{
	static const char *const files[] = { "/proc/net/snmp",
					     "/proc/net/netstat" };
	char why[sizeof(out->reason)] = "";
	int ok = 0, nrec = 0;
	char *text;

	(void)ifname; /* the namespace, not an interface */
	ps_netstat_init(out);
	for (size_t i = 0; i < 2; i++) {
		text = read_one(files[i], why, sizeof(why), &nrec);
		if (text && ps_netstat_parse(text, &out->c) >= 0)
			ok++;
		else if (text)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "%s%s: %s", why[0] ? "; " : "", files[i],
				 _("no counters in it"));
		free(text);
	}
	text = read_one("/proc/net/sockstat", why, sizeof(why), &nrec);
	if (text)
		ps_sockstat_parse(text, &out->sock);
	free(text);
	text = read_one("/proc/sys/net/ipv4/tcp_mem", why, sizeof(why), &nrec);
	if (text)
		ps_tcp_mem_parse(text, &out->sock);
	free(text);
	snprintf(out->reason, sizeof(out->reason), "%s", why);
	if (ok) {
		out->status = PS_ST_OK;
		return 0;
	}
	out->status = nrec >= 2 ? PS_ST_NOT_RECORDED : PS_ST_ERROR;
	if (nrec >= 2)
		snprintf(out->reason, sizeof(out->reason), "%s",
			 _("no /proc/net/snmp or /proc/net/netstat in the "
			   "recorded tree"));
	return out->status == PS_ST_ERROR ? -EIO : 0;
}

void ps_netstat_rates(const struct ps_netstat_info *prev,
		      struct ps_netstat_info *cur, double seconds)
{
	cur->rated = false;
	if (prev->status != PS_ST_OK || cur->status != PS_ST_OK ||
	    !(seconds > 0))
		return;
	for (size_t i = 0; i < NCOUNTERS; i++) {
		int64_t d = ps_netstat_delta(counter_of(&prev->c, i),
					     counter_of(&cur->c, i));

		*rate_at(&cur->r, i) = d >= 0 ? (double)d / seconds : NAN;
	}
	cur->rated = true;
	cur->interval_s = seconds;
}

void ps_netstat_free(struct ps_netstat_info *info)
{
	(void)info; /* nothing allocated */
}

/* ---- JSON and text: one table --------------------------------------- */

#define T struct ps_netstat_info
/* clang-format off */
static const struct ps_jfield counters_table[] = {
#define CFIELD(k, s, n)                                                        \
	PS_JFIELD(T, c.k, #k, PS_JT_INT, PS_JF_NA | PS_JF_SKIPNA, s " " n,      \
		  NULL),
	PS_NETSTAT_COUNTERS(CFIELD)
#undef CFIELD
	PS_JEND
};

static const struct ps_jfield rates_table[] = {
#define RFIELD(k, s, n)                                                        \
	{ .key = #k, .type = PS_JT_DOUBLE,                                     \
	  .flags = PS_JF_NA | PS_JF_FIXED | PS_JF_SKIPNA,                      \
	  .off = offsetof(T, r.k), .size = PS_JSIZE(T, r.k),                   \
	  .label = s " " n, .unit = N_("/s"), .decimals = 2 },
	PS_NETSTAT_COUNTERS(RFIELD)
#undef RFIELD
	PS_JEND
};

#define SOCK(m, lbl, un)                                                       \
	PS_JFIELD(T, sock.m, #m, PS_JT_INT, PS_JF_NA | PS_JF_SKIPNA, lbl, un)
static const struct ps_jfield sock_table[] = {
	SOCK(tcp_inuse, N_("TCP in use:"), NULL),
	SOCK(tcp_orphan, N_("TCP orphans:"), NULL),
	SOCK(tcp_tw, N_("TCP time-wait:"), NULL),
	SOCK(tcp_alloc, N_("TCP allocated:"), NULL),
	SOCK(tcp_mem, N_("TCP memory:"), N_("pages")),
	SOCK(udp_inuse, N_("UDP in use:"), NULL),
	SOCK(udp_mem, N_("UDP memory:"), N_("pages")),
	SOCK(tcp_mem_low, N_("tcp_mem low:"), N_("pages")),
	SOCK(tcp_mem_pressure, N_("tcp_mem pressure:"), N_("pages")),
	SOCK(tcp_mem_high, N_("tcp_mem high:"), N_("pages")),
	PS_JEND
};

static const struct ps_jfield netstat_table[] = {
	PS_JSTATUS(T, status, reason, PS_JF_NA),
	PS_JOBJECT("counters", PS_JF_OK, counters_table,
		   N_("counters since boot")),
	{ .key = "interval_s", .type = PS_JT_DOUBLE,
	  .flags = PS_JF_OK | PS_JF_NA | PS_JF_FIXED | PS_JF_NOTEXT,
	  .off = offsetof(T, interval_s), .size = PS_JSIZE(T, interval_s),
	  .decimals = 3 },
	PS_JOBJECT("rates", PS_JF_OK, rates_table, N_("per second")),
	PS_JOBJECT("sockstat", PS_JF_OK, sock_table, N_("socket memory")),
	PS_JEND
};
/* clang-format on */
#undef T

struct json_object *ps_netstat_to_json(const struct ps_netstat_info *info)
{
	return ps_jtable_to_json(netstat_table, info);
}

struct json_object *
ps_netstat_counters_json(const struct ps_netstat_counters *c)
{
	struct ps_netstat_info tmp;

	ps_netstat_init(&tmp);
	tmp.c = *c;
	return ps_jtable_to_json(counters_table, &tmp);
}

int ps_netstat_from_json(struct json_object *obj, struct ps_netstat_info *out)
{
	ps_netstat_init(out);
	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	ps_jtable_get(obj, netstat_table, out);
	/* the far end's numbers: a negative counter is not one */
	for (size_t i = 0; i < NCOUNTERS; i++)
		if (*counter_at(&out->c, i) < 0)
			*counter_at(&out->c, i) = PS_NA;
	for (size_t i = 0; i < NCOUNTERS; i++) {
		double *r = rate_at(&out->r, i);

		if (isfinite(*r) && *r < 0)
			*r = NAN;
		else if (isfinite(*r))
			out->rated = true;
	}
	return 0;
}

void ps_netstat_print(FILE *out, const struct ps_netstat_info *info)
{
	if (info->status != PS_ST_OK) {
		fprintf(out, "  %s%s%s\n", ps_status_text(info->status),
			info->reason[0] ? ": " : "", info->reason);
		return;
	}
	ps_jtable_print(out, netstat_table, info);
}

/* a count, or "-" when not reported */
static const char *num(char *buf, size_t len, int64_t v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

void ps_netstat_brief(FILE *out, const struct ps_netstat_info *info)
{
	const struct ps_netstat_counters *c = &info->c;
	const struct ps_sockstat *s = &info->sock;
	char a[24], b[24], d[24], e[24], g[24], h[24];

	fprintf(out, "\n%s\n", _("Kernel counters (this network namespace)"));
	if (info->status != PS_ST_OK) {
		ps_netstat_print(out, info);
		return;
	}
	fprintf(out,
		_("  UDP: %s receive errors, %s socket-buffer drops, %s to no "
		  "port; IP: %s discarded, %s bad headers\n"),
		num(a, sizeof(a), c->udp_in_errors),
		num(b, sizeof(b), c->udp_rcvbuf_errors),
		num(d, sizeof(d), c->udp_no_ports),
		num(e, sizeof(e), c->ip_in_discards),
		num(g, sizeof(g), c->ip_in_hdr_errors));
	fprintf(out,
		_("  TCP: %s of %s segments retransmitted; %s timeouts, %s "
		  "fast retransmits, %s loss probes\n"),
		num(a, sizeof(a), c->tcp_retrans_segs),
		num(b, sizeof(b), c->tcp_out_segs),
		num(d, sizeof(d), c->tcp_timeouts),
		num(e, sizeof(e), c->tcp_fast_retrans),
		num(g, sizeof(g), c->tcp_loss_probes));
	fprintf(out,
		_("  TCP receive side: %s backlog drops, %s pruned, %s "
		  "out-of-order drops, %s memory pressure events\n"),
		num(a, sizeof(a), c->tcp_backlog_drop),
		num(b, sizeof(b), c->tcp_rcv_pruned),
		num(d, sizeof(d), c->tcp_ofo_drop),
		num(e, sizeof(e), c->tcp_memory_pressures));
	if (s->tcp_mem >= 0 || s->tcp_mem_high >= 0)
		fprintf(out,
			_("  sockets: TCP %s in use, %s orphans, memory %s "
			  "pages (tcp_mem %s %s %s)\n"),
			num(a, sizeof(a), s->tcp_inuse),
			num(b, sizeof(b), s->tcp_orphan),
			num(d, sizeof(d), s->tcp_mem),
			num(e, sizeof(e), s->tcp_mem_low),
			num(g, sizeof(g), s->tcp_mem_pressure),
			num(h, sizeof(h), s->tcp_mem_high));
}

/* the probe "pipescope probe" runs (probe.h), in PS_PROBE_LIST */
PS_PROBE_GLUE(netstat)
PS_PROBE_RATES(netstat)

static void netstat_op_brief(FILE *f, const struct ps_snapshot *s)
{
	ps_netstat_brief(f, &s->netstat);
}

/* clang-format off */
const struct ps_probe_ops ps_netstat_ops = {
	PS_PROBE_OPS(netstat),
	.title = N_("Kernel counters (this network namespace)"),
	.rates = netstat_op_rates,
	.brief = netstat_op_brief,
};
/* clang-format on */
