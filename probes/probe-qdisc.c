/* probe-qdisc.c: the qdiscs and classes of the interface ("tc -s qdisc",
 * "tc -s class") over libnl-route-3's qdisc and class caches, and the pure
 * parser of their recorded text for --sysroot trees and tests */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/route/class.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/fifo.h>
#include <netlink/route/qdisc/fq_codel.h>
#include <netlink/route/qdisc/htb.h>
#include <netlink/route/qdisc/tbf.h>
#include <netlink/route/tc.h>

#include "jsonutil.h"
#include "log.h"
#include "nls.h"
#include "probe-qdisc.h"
#include "probe.h"
#include "rtnl.h"
#include "sysroot.h"
#include "units.h"
#include "xmalloc.h"

/* what a counter or setting may be: bigger is a recording's garbage */
#define NUM_MAX ((uint64_t)1 << 62)
#define RATE_MAX ((int64_t)1 << 50) /* bit/s: a petabit */

/* an opened qdisc probe: an rtnetlink socket (rtnl.c), kept for the next
 * samples (a socket a sample came and went beside the sampler's) */
struct ps_qdisc_probe {
	struct ps_rtnl *rt; /* own, or the probe set's */
	struct ps_rtnl own;
};

static void set_status(struct ps_qdisc_info *i, enum ps_status st,
		       const char *why)
{
	i->status = st;
	snprintf(i->reason, sizeof(i->reason), "%s", why ? why : "");
}

static void entry_init(struct ps_qdisc_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->rate_bps = e->ceil_bps = e->burst_bytes = PS_NA;
	e->limit_bytes = e->limit_packets = e->default_class = PS_NA;
}

void ps_qdisc_init(struct ps_qdisc_info *info, const char *ifname)
{
	memset(info, 0, sizeof(*info));
	info->status = PS_ST_ERROR;
	snprintf(info->ifname, sizeof(info->ifname), "%s",
		 ifname ? ifname : "");
}

void ps_qdisc_free(struct ps_qdisc_info *info)
{
	(void)info; /* everything is inline */
}

/* a kind as the kernel names them: lower case, digits, '_' and '-' */
static void clean_kind(char *dst, size_t cap, const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && s[i] && k + 1 < cap; i++) {
		unsigned char c = (unsigned char)s[i];

		dst[k++] = (islower(c) || isdigit(c) || c == '_' || c == '-')
				   ? (char)c
				   : '?';
	}
	dst[k] = 0;
}

/* ---- handles ---------------------------------------------------------- */

static int hex16(const char *s, size_t n, uint32_t *out)
{
	uint32_t v = 0;

	if (n > 4)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return -EINVAL;
		v = v * 16 + (uint32_t)(isdigit((unsigned char)s[i])
						? s[i] - '0'
						: tolower((unsigned char)s[i]) -
							  'a' + 10);
	}
	*out = v;
	return 0;
}

int ps_qdisc_parse_handle(const char *s, uint32_t *out)
{
	const char *colon;
	uint32_t maj = 0, min = 0;

	if (!s)
		return -EINVAL;
	if (!strcmp(s, "root")) {
		*out = PS_QDISC_ROOT;
		return 0;
	}
	colon = strchr(s, ':');
	if (!colon || hex16(s, (size_t)(colon - s), &maj) ||
	    hex16(colon + 1, strlen(colon + 1), &min))
		return -EINVAL;
	*out = maj << 16 | min;
	return 0;
}

void ps_qdisc_handle_text(uint32_t h, bool is_class, char *buf, size_t len)
{
	if (h == PS_QDISC_ROOT)
		snprintf(buf, len, "root");
	else if (!(h >> 16))
		snprintf(buf, len, ":%x", h & 0xffff);
	else if (!is_class && !(h & 0xffff))
		snprintf(buf, len, "%x:", h >> 16);
	else
		snprintf(buf, len, "%x:%x", h >> 16, h & 0xffff);
}

static void set_ids(struct ps_qdisc_entry *e, uint32_t h, uint32_t p,
		    bool is_class)
{
	e->hid = h;
	e->pid = p;
	ps_qdisc_handle_text(h, is_class, e->handle, sizeof(e->handle));
	ps_qdisc_handle_text(p, false, e->parent, sizeof(e->parent));
}

/* ---- the recorded text ------------------------------------------------ */

/* a number with tc's suffixes: mult 1000 for rates (bit; "bps" is bytes),
 * 1024 for sizes ("b", "Kb", "Mb", "Gb"); -1 when not a number */
static double tc_number(const char *tok, bool rate)
{
	char *end;
	double v = strtod(tok, &end), m = 1;

	if (end == tok || !isfinite(v) || v < 0)
		return -1;
	if (rate) {
		bool iec = end[0] && end[1] == 'i'; /* "Mibit" */
		double k = iec ? 1024 : 1000;

		switch (*end) {
		case 'K':
		case 'k':
			m = k;
			break;
		case 'M':
			m = k * k;
			break;
		case 'G':
			m = k * k * k;
			break;
		case 'T':
			m = k * k * k * k;
			break;
		default:
			break;
		}
		if (strstr(end, "bps"))
			m *= 8; /* bytes per second */
		return v * m;
	}
	switch (*end) {
	case 'K':
	case 'k':
		m = 1024;
		break;
	case 'M':
		m = 1024.0 * 1024;
		break;
	case 'G':
		m = 1024.0 * 1024 * 1024;
		break;
	default:
		break;
	}
	return v * m;
}

static int64_t bounded(double v, int64_t max)
{
	if (v < 0 || !isfinite(v))
		return PS_NA;
	return v > (double)max ? max : (int64_t)v;
}

static uint64_t counter(const char *tok)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)*tok))
		return 0;
	v = strtoull(tok, &end, 10);
	return v > NUM_MAX ? NUM_MAX : v;
}

#define MAX_TOKENS 96

/* the words of a line (cut in place), at most MAX_TOKENS; strtok_r: two
 * threads may parse at once (strtok's one cursor gave wrong parses) */
static int split(char *line, char **tok)
{
	char *save = NULL;
	int n = 0;

	for (char *p = strtok_r(line, " \t\r,()", &save); p && n < MAX_TOKENS;
	     p = strtok_r(NULL, " \t\r,()", &save))
		tok[n++] = p;
	return n;
}

/* the head line of a qdisc or class: kind, handle, parent, settings;
 * false when it names another interface ("dev X") */
static bool parse_head(char **tok, int n, bool is_class, const char *ifname,
		       struct ps_qdisc_entry *e)
{
	uint32_t h = 0, p = PS_QDISC_ROOT;
	double lat = -1;

	entry_init(e);
	if (n >= 2)
		clean_kind(e->kind, sizeof(e->kind), tok[1], strlen(tok[1]));
	if (n >= 3 && ps_qdisc_parse_handle(tok[2], &h))
		h = 0;
	for (int i = 3; i < n; i++) {
		const char *k = tok[i], *v = i + 1 < n ? tok[i + 1] : "";

		if (!strcmp(k, "root")) {
			p = PS_QDISC_ROOT;
		} else if (!strcmp(k, "dev") && i + 1 < n) {
			if (ifname[0] && strcmp(v, ifname))
				return false;
			i++;
		} else if (!strcmp(k, "parent") && i + 1 < n) {
			if (ps_qdisc_parse_handle(v, &p))
				p = 0;
			i++;
		} else if (!strcmp(k, "rate") && i + 1 < n) {
			e->rate_bps = bounded(tc_number(v, true), RATE_MAX);
			i++;
		} else if (!strcmp(k, "ceil") && i + 1 < n) {
			e->ceil_bps = bounded(tc_number(v, true), RATE_MAX);
			i++;
		} else if ((!strcmp(k, "burst") || !strcmp(k, "buffer")) &&
			   i + 1 < n) {
			e->burst_bytes = bounded(tc_number(v, false), NUM_MAX);
			i++;
		} else if (!strcmp(k, "limit") && i + 1 < n) {
			size_t l = strlen(v);

			if (l && v[l - 1] == 'p')
				e->limit_packets =
					bounded(tc_number(v, false), NUM_MAX);
			else
				e->limit_bytes =
					bounded(tc_number(v, false), NUM_MAX);
			i++;
		} else if ((!strcmp(k, "lat") || !strcmp(k, "latency")) &&
			   i + 1 < n) {
			char *end;

			lat = strtod(v, &end);
			if (end == v || !isfinite(lat) || lat < 0)
				lat = -1;
			else if (!strncmp(end, "us", 2))
				lat /= 1e6;
			else if (!strncmp(end, "ms", 2))
				lat /= 1e3;
			i++;
		} else if (!strcmp(k, "default") && i + 1 < n) {
			uint32_t d;

			/* "default 20" (hex) or "default 0x20" */
			if (!strncmp(v, "0x", 2))
				v += 2;
			if (!hex16(v, strlen(v), &d))
				e->default_class = d;
			i++;
		}
	}
	set_ids(e, h, p, is_class);
	/* tbf prints its limit as a latency: limit = lat * rate + burst */
	if (e->limit_bytes == PS_NA && lat >= 0 && e->rate_bps > 0 &&
	    e->burst_bytes >= 0)
		e->limit_bytes = bounded(lat * (double)e->rate_bps / 8 +
						 (double)e->burst_bytes,
					 NUM_MAX);
	return true;
}

/* the counters of the lines below a head (" Sent ...", " backlog ...") */
static void parse_stats(char **tok, int n, struct ps_qdisc_entry *e)
{
	for (int i = 0; i + 1 < n; i++) {
		const char *k = tok[i], *v = tok[i + 1];

		if (!strcmp(k, "Sent")) {
			e->bytes = counter(v);
		} else if (!strcmp(v, "pkt")) {
			e->packets = counter(k);
		} else if (!strcmp(k, "dropped")) {
			e->drops = counter(v);
		} else if (!strcmp(k, "overlimits")) {
			e->overlimits = counter(v);
		} else if (!strcmp(k, "requeues")) {
			e->requeues = counter(v);
		} else if (!strcmp(k, "backlog")) {
			double b = tc_number(v, false);

			e->backlog_bytes =
				b > 0 ? (uint64_t)bounded(b, NUM_MAX) : 0;
			if (i + 2 < n)
				e->backlog_packets = counter(tok[i + 2]);
		}
	}
}

int ps_qdisc_parse_tc(const char *text, struct ps_qdisc_info *out)
{
	struct ps_qdisc_entry *cur = NULL, spare;
	char *copy, *line, *save = NULL;

	if (!text)
		return -EINVAL;
	copy = xstrdup(text);
	out->n = out->nclass = 0;
	out->truncated = false;
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok[MAX_TOKENS];
		bool head_q = !strncmp(line, "qdisc ", 6);
		bool head_c = !strncmp(line, "class ", 6);
		int n;

		if (line[0] == '#')
			continue;
		n = split(line, tok);
		if (head_q || head_c) {
			unsigned *cnt = head_q ? &out->n : &out->nclass;
			struct ps_qdisc_entry *v = head_q ? out->q : out->c;

			cur = *cnt < PS_QDISC_MAX ? &v[*cnt] : &spare;
			if (!parse_head(tok, n, head_c, out->ifname, cur)) {
				cur = NULL; /* another interface's */
				continue;
			}
			if (cur == &spare)
				out->truncated = true; /* read, not kept */
			else
				(*cnt)++;
			continue;
		}
		/* a settings line a mail client wrapped, or the counters */
		if (!cur || n == 0)
			continue;
		if (!strcmp(tok[0], "Sent") || !strcmp(tok[0], "backlog") ||
		    !strcmp(tok[0], "dropped") || !strcmp(tok[0], "requeues"))
			parse_stats(tok, n, cur);
	}
	free(copy);
	if (!out->n) {
		set_status(out, PS_ST_ERROR,
			   _("no qdisc in the recorded text"));
		return -EINVAL;
	}
	set_status(out, PS_ST_OK, NULL);
	return 0;
}

/* ---- live: libnl's caches --------------------------------------------- */

struct ps_qdisc_probe *ps_qdisc_open_on(struct ps_rtnl *rt)
{
	struct ps_qdisc_probe *qp = xcalloc(1, sizeof(*qp));

	ps_rtnl_init(&qp->own, false);
	qp->rt = rt ? rt : &qp->own;
	return qp;
}

struct ps_qdisc_probe *ps_qdisc_open(void)
{
	return ps_qdisc_open_on(NULL);
}

void ps_qdisc_close(struct ps_qdisc_probe *qp)
{
	if (!qp)
		return;
	ps_rtnl_fini(&qp->own);
	free(qp);
}

static void fill_tc(struct rtnl_tc *tc, bool is_class, struct ps_qdisc_entry *e)
{
	const char *kind = rtnl_tc_get_kind(tc);

	entry_init(e);
	clean_kind(e->kind, sizeof(e->kind), kind ? kind : "", 15);
	set_ids(e, rtnl_tc_get_handle(tc), rtnl_tc_get_parent(tc), is_class);
	e->bytes = rtnl_tc_get_stat(tc, RTNL_TC_BYTES);
	e->packets = rtnl_tc_get_stat(tc, RTNL_TC_PACKETS);
	e->drops = rtnl_tc_get_stat(tc, RTNL_TC_DROPS);
	e->overlimits = rtnl_tc_get_stat(tc, RTNL_TC_OVERLIMITS);
	e->requeues = rtnl_tc_get_stat(tc, RTNL_TC_REQUEUES);
	e->backlog_bytes = rtnl_tc_get_stat(tc, RTNL_TC_BACKLOG);
	e->backlog_packets = rtnl_tc_get_stat(tc, RTNL_TC_QLEN);
}

/* the settings libnl parses for the kinds that set a rate or a limit */
static void fill_qdisc_opts(struct rtnl_qdisc *q, struct ps_qdisc_entry *e)
{
	int v;

	if (!strcmp(e->kind, "tbf")) {
		if ((v = rtnl_qdisc_tbf_get_rate(q)) > 0)
			e->rate_bps = (int64_t)v * 8;
		if ((v = rtnl_qdisc_tbf_get_rate_bucket(q)) > 0)
			e->burst_bytes = v;
		if ((v = rtnl_qdisc_tbf_get_limit(q)) > 0)
			e->limit_bytes = v;
	} else if (!strcmp(e->kind, "htb")) {
		e->default_class = rtnl_htb_get_defcls(q) & 0xffff;
	} else if (!strcmp(e->kind, "fq_codel")) {
		if ((v = rtnl_qdisc_fq_codel_get_limit(q)) > 0)
			e->limit_packets = v;
	} else if (!strcmp(e->kind, "pfifo") || !strcmp(e->kind, "bfifo")) {
		if ((v = rtnl_qdisc_fifo_get_limit(q)) > 0) {
			if (e->kind[0] == 'p')
				e->limit_packets = v;
			else
				e->limit_bytes = v;
		}
	}
}

struct walk {
	int ifindex;
	struct ps_qdisc_info *out;
	bool classes;
};

static void qdisc_cb(struct nl_object *obj, void *arg)
{
	struct walk *w = arg;
	struct rtnl_tc *tc = (struct rtnl_tc *)obj;
	struct ps_qdisc_entry *e;
	unsigned *n = w->classes ? &w->out->nclass : &w->out->n;

	if (rtnl_tc_get_ifindex(tc) != w->ifindex)
		return;
	if (*n >= PS_QDISC_MAX) {
		w->out->truncated = true;
		return;
	}
	e = w->classes ? &w->out->c[(*n)++] : &w->out->q[(*n)++];
	fill_tc(tc, w->classes, e);
	if (w->classes) {
		if (!strcmp(e->kind, "htb")) {
			struct rtnl_class *c = (struct rtnl_class *)obj;
			uint64_t r;

			if (!rtnl_htb_get_rate64(c, &r) && r)
				e->rate_bps = bounded((double)r * 8, RATE_MAX);
			if (!rtnl_htb_get_ceil64(c, &r) && r)
				e->ceil_bps = bounded((double)r * 8, RATE_MAX);
			if (rtnl_htb_get_rbuffer(c))
				e->burst_bytes = rtnl_htb_get_rbuffer(c);
		}
	} else {
		fill_qdisc_opts((struct rtnl_qdisc *)obj, e);
	}
}

/* the root qdisc first, then in the kernel's order */
static void root_first(struct ps_qdisc_info *i)
{
	for (unsigned k = 1; k < i->n; k++)
		if (i->q[k].pid == PS_QDISC_ROOT) {
			struct ps_qdisc_entry t = i->q[k];

			memmove(&i->q[1], &i->q[0], k * sizeof(i->q[0]));
			i->q[0] = t;
			return;
		}
}

/* libnl's qdisc parser on each RTM_NEWQDISC of a dump's bytes */
static void parse_qdiscs(const unsigned char *buf, int len, struct walk *w)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
	int rem = len;

	for (; NLMSG_OK(nlh, rem); nlh = NLMSG_NEXT(nlh, rem)) {
		struct nl_msg *msg;

		if (nlh->nlmsg_type != RTM_NEWQDISC ||
		    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(struct tcmsg)))
			continue;
		msg = nlmsg_convert((struct nlmsghdr *)nlh);
		if (!msg)
			continue;
		nlmsg_set_proto(msg, NETLINK_ROUTE);
		nl_msg_parse(msg, qdisc_cb, w);
		nlmsg_free(msg);
	}
}

/* one RTM_GETQDISC dump of one device (tcm_ifindex, which the kernel
 * honours; qdisc_cb checks it again), not of every interface */
static int dump_qdiscs(struct nl_sock *sk, struct walk *w)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC,
			     .tcm_ifindex = w->ifindex };
	struct nl_msg *req = nlmsg_alloc_simple(RTM_GETQDISC, NLM_F_DUMP);
	unsigned char *buf = NULL;
	int len = 0, err;

	if (!req)
		return -ENOMEM;
	if (nlmsg_append(req, &tcm, sizeof(tcm), NLMSG_ALIGNTO) < 0) {
		nlmsg_free(req);
		return -ENOMEM;
	}
	err = ps_rtnl_dump(sk, req, &buf, &len);
	nlmsg_free(req);
	if (err < 0)
		return err;
	parse_qdiscs(buf, len, w);
	free(buf);
	return 0;
}

static int live_sample(struct ps_qdisc_probe *qp, struct ps_qdisc_info *out,
		       int ifindex)
{
	struct nl_cache *cache = NULL;
	struct walk w = { .out = out };
	struct nl_sock *sk;
	int err;

	w.ifindex = ifindex > 0 ? ifindex : (int)if_nametoindex(out->ifname);
	if (w.ifindex <= 0) {
		char msg[PS_QDISC_REASON];

		snprintf(msg, sizeof(msg), _("no network interface named %s"),
			 out->ifname);
		set_status(out, PS_ST_ABSENT, msg);
		return 0;
	}
	sk = ps_rtnl_lock(qp->rt, &err);
	if (!sk) {
		ps_rtnl_unlock(qp->rt);
		set_status(out, PS_ST_ERROR,
			   _("cannot talk to the kernel over rtnetlink"));
		return -EPROTO;
	}
	err = dump_qdiscs(sk, &w);
	if (err < 0) {
		ps_rtnl_unlock(qp->rt);
		if (err == -ENODEV || err == -EINVAL) {
			set_status(out, PS_ST_ABSENT,
				   _("the interface went away"));
			return 0;
		}
		set_status(out, PS_ST_ERROR, ps_strerror(-err));
		return -EIO;
	}
	root_first(out);
	w.classes = true;
	if (rtnl_class_alloc_cache(sk, w.ifindex, &cache) == 0) {
		nl_cache_foreach(cache, qdisc_cb, &w);
		nl_cache_free(cache);
	}
	ps_rtnl_unlock(qp->rt);
	if (!out->n)
		set_status(out, PS_ST_ABSENT, _("the interface has no qdisc"));
	else
		set_status(out, PS_ST_OK, NULL);
	return 0;
}

/* --sysroot: DIR/tc/IF.txt, the text of "tc -s qdisc show dev IF; tc -s
 * class show dev IF" */
static int recorded_sample(struct ps_qdisc_info *out)
{
	char path[64];
	char msg[PS_QDISC_REASON];
	char *text;

	snprintf(path, sizeof(path), "/tc/%s.txt", out->ifname);
	text = ps_read_file(path, NULL);
	if (!text) {
		snprintf(msg, sizeof(msg), _("%s is not in the recording"),
			 path);
		set_status(out, PS_ST_NOT_RECORDED, msg);
		return 0;
	}
	ps_qdisc_parse_tc(text, out);
	free(text);
	return 0;
}

int ps_qdisc_sample_dev(struct ps_qdisc_probe *qp, const char *ifname,
			int ifindex, struct ps_qdisc_info *out)
{
	ps_qdisc_init(out, ifname);
	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE ||
	    strchr(ifname, '/')) {
		set_status(out, PS_ST_ABSENT,
			   _("no valid interface name given"));
		return 0;
	}
	if (!ps_sysroot_is_live())
		return recorded_sample(out);
	return live_sample(qp, out, ifindex);
}

int ps_qdisc_sample_with(struct ps_qdisc_probe *qp, const char *ifname,
			 struct ps_qdisc_info *out)
{
	return ps_qdisc_sample_dev(qp, ifname, 0, out);
}

int ps_qdisc_sample(const char *ifname, struct ps_qdisc_info *out)
{
	struct ps_qdisc_probe *qp = ps_qdisc_open();
	int ret = ps_qdisc_sample_with(qp, ifname, out);

	ps_qdisc_close(qp);
	return ret;
}

/* ---- what the checks read --------------------------------------------- */

const struct ps_qdisc_entry *ps_qdisc_root(const struct ps_qdisc_info *info)
{
	if (!info || info->status != PS_ST_OK)
		return NULL;
	for (unsigned k = 0; k < info->n; k++)
		if (info->q[k].pid == PS_QDISC_ROOT)
			return &info->q[k];
	return NULL;
}

static const struct ps_qdisc_entry *find_class(const struct ps_qdisc_info *i,
					       uint32_t h)
{
	for (unsigned k = 0; k < i->nclass; k++)
		if (i->c[k].hid == h)
			return &i->c[k];
	return NULL;
}

/* the lowest ceil (or rate) of a class and the classes above it */
static double class_cap(const struct ps_qdisc_info *i,
			const struct ps_qdisc_entry *c)
{
	double cap = INFINITY;

	for (int depth = 0; c && depth < PS_QDISC_MAX; depth++) {
		int64_t v = c->ceil_bps > 0 ? c->ceil_bps : c->rate_bps;

		if (v > 0 && (double)v < cap)
			cap = (double)v;
		c = find_class(i, c->pid);
	}
	return cap;
}

bool ps_qdisc_shaper(const struct ps_qdisc_info *info,
		     struct ps_qdisc_shaper *out)
{
	memset(out, 0, sizeof(*out));
	if (!info || info->status != PS_ST_OK)
		return false;
	for (unsigned k = 0; k < info->n; k++) {
		const struct ps_qdisc_entry *q = &info->q[k];

		if (!strcmp(q->kind, "tbf") && q->rate_bps > 0 &&
		    (!out->q || (double)q->rate_bps < out->rate_bps)) {
			out->q = q;
			out->rate_bps = (double)q->rate_bps;
		}
	}
	if (out->q)
		return true;
	for (unsigned k = 0; k < info->n; k++) {
		const struct ps_qdisc_entry *q = &info->q[k];
		const struct ps_qdisc_entry *c;
		double cap;

		if (strcmp(q->kind, "htb") || q->default_class <= 0)
			continue;
		c = find_class(info, (q->hid & 0xffff0000u) |
					     (uint32_t)q->default_class);
		cap = class_cap(info, c);
		if (!c || !isfinite(cap))
			continue;
		out->q = q;
		out->class = c;
		out->rate_bps = cap;
		out->per_class = true;
		return true;
	}
	return false;
}

int ps_qdisc_classes_near(const struct ps_qdisc_info *info, double bps,
			  double tol, double *cap)
{
	double best = 0;
	int n = 0;

	if (!info || info->status != PS_ST_OK || bps <= 0)
		return 0;
	for (unsigned k = 0; k < info->nclass; k++) {
		double c;

		if (strcmp(info->c[k].kind, "htb"))
			continue;
		c = class_cap(info, &info->c[k]);
		if (!isfinite(c) || fabs(c - bps) > tol * c)
			continue;
		n++;
		if (!best || fabs(c - bps) < fabs(best - bps))
			best = c;
	}
	if (n && cap)
		*cap = best;
	return n;
}

/* ---- rates ------------------------------------------------------------ */

static double per_s(uint64_t a, uint64_t b, double s)
{
	return b >= a ? (double)(b - a) / s : 0.0;
}

void ps_qdisc_rates(const struct ps_qdisc_info *prev, struct ps_qdisc_info *cur,
		    double seconds)
{
	const struct ps_qdisc_entry *a = ps_qdisc_root(prev);
	const struct ps_qdisc_entry *b = ps_qdisc_root(cur);
	struct ps_qdisc_rates *r = &cur->rates;

	memset(r, 0, sizeof(*r));
	if (seconds <= 0 || !a || !b || a->hid != b->hid ||
	    strcmp(a->kind, b->kind))
		return;
	r->valid = true;
	r->seconds = seconds;
	r->tx_bps = 8 * per_s(a->bytes, b->bytes, seconds);
	r->drops_ps = per_s(a->drops, b->drops, seconds);
	r->overlimits_ps = per_s(a->overlimits, b->overlimits, seconds);
	r->requeues_ps = per_s(a->requeues, b->requeues, seconds);
}

/* ---- JSON and text: one description ------------------------------------ */

#define QE struct ps_qdisc_entry
#define QI struct ps_qdisc_info
#define Q_STR(m, lbl) PS_JFIELD(QE, m, #m, PS_JT_STRING, 0, lbl, NULL)
#define Q_SET(m, lbl, un)                                                      \
	PS_JFIELD(QE, m, #m, PS_JT_INT, PS_JF_NA | PS_JF_SKIPNA, lbl, un)
#define Q_CNT(m, lbl) PS_JFIELD(QE, m, #m, PS_JT_UINT, 0, lbl, NULL)
#define Q_RATE(m) PS_JFIELD(QI, rates.m, #m, PS_JT_DOUBLE, 0, NULL, NULL)

static const struct ps_jfield entry_table[] = {
	Q_STR(kind, N_("kind:")),
	Q_STR(handle, N_("handle:")),
	Q_STR(parent, N_("parent:")),
	Q_SET(rate_bps, N_("rate:"), N_("bit/s")),
	Q_SET(ceil_bps, N_("ceil:"), N_("bit/s")),
	Q_SET(burst_bytes, N_("burst:"), N_("bytes")),
	Q_SET(limit_bytes, N_("limit:"), N_("bytes")),
	Q_SET(limit_packets, N_("limit:"), N_("packets")),
	Q_SET(default_class, N_("default class:"), NULL),
	Q_CNT(bytes, N_("sent bytes:")),
	Q_CNT(packets, N_("sent packets:")),
	Q_CNT(drops, N_("dropped:")),
	Q_CNT(overlimits, N_("overlimits:")),
	Q_CNT(requeues, N_("requeues:")),
	Q_CNT(backlog_bytes, N_("backlog bytes:")),
	Q_CNT(backlog_packets, N_("backlog packets:")),
	PS_JEND
};

static const struct ps_jfield rates_table[] = {
	Q_RATE(seconds),       Q_RATE(tx_bps),	    Q_RATE(drops_ps),
	Q_RATE(overlimits_ps), Q_RATE(requeues_ps), PS_JEND
};

static const struct ps_jfield qdisc_table[] = {
	PS_JFIELD(QI, ifname, "ifname", PS_JT_STRING, 0, NULL, NULL),
	PS_JSTATUS(QI, status, reason, PS_JF_NA),
	PS_JFIELD(QI, truncated, "truncated", PS_JT_BOOL, PS_JF_OK, NULL, NULL),
	PS_JARRAY_IN(QI, q, n, "qdiscs", PS_JT_OBJECT, PS_JF_OK, entry_table),
	PS_JARRAY_IN(QI, c, nclass, "classes", PS_JT_OBJECT, PS_JF_OK,
		     entry_table),
	PS_JOBJECT_IF(struct ps_qdisc_info, rates.valid, "rates", rates_table),
	PS_JEND
};

struct json_object *ps_qdisc_to_json(const struct ps_qdisc_info *i)
{
	return ps_jtable_to_json(qdisc_table, i);
}

/* what a far end or a file sent is checked again: kinds and handles */
static void reclean(struct ps_qdisc_entry *v, unsigned n, bool is_class)
{
	for (unsigned k = 0; k < n; k++) {
		struct ps_qdisc_entry *e = &v[k];
		char kind[sizeof(e->kind)];
		uint32_t h, p;

		clean_kind(kind, sizeof(kind), e->kind, sizeof(e->kind));
		memcpy(e->kind, kind, sizeof(kind));
		int64_t *set[] = { &e->rate_bps,      &e->ceil_bps,
				   &e->burst_bytes,   &e->limit_bytes,
				   &e->limit_packets, &e->default_class };

		/* a setting is PS_NA or a sane number */
		for (size_t j = 0; j < sizeof(set) / sizeof(*set); j++)
			if (*set[j] < 0)
				*set[j] = PS_NA;
			else if (*set[j] > RATE_MAX)
				*set[j] = RATE_MAX;
		if (e->default_class > 0xffff)
			e->default_class = PS_NA;
		if (ps_qdisc_parse_handle(e->handle, &h))
			h = 0;
		if (ps_qdisc_parse_handle(e->parent, &p))
			p = 0;
		set_ids(e, h, p, is_class);
	}
}

int ps_qdisc_from_json(struct json_object *obj, struct ps_qdisc_info *i)
{
	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	ps_qdisc_init(i, NULL);
	for (unsigned k = 0; k < PS_QDISC_MAX; k++) {
		entry_init(&i->q[k]);
		entry_init(&i->c[k]);
	}
	ps_jtable_get(obj, qdisc_table, i);
	if (i->n > PS_QDISC_MAX)
		i->n = PS_QDISC_MAX;
	if (i->nclass > PS_QDISC_MAX)
		i->nclass = PS_QDISC_MAX;
	reclean(i->q, i->n, false);
	reclean(i->c, i->nclass, true);
	return 0;
}

static void print_entries(FILE *out, const char *title,
			  const struct ps_qdisc_entry *v, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		fprintf(out, "%s %s %s (%s %s)\n", title, v[k].kind,
			v[k].handle, _("parent"), v[k].parent);
		ps_jtable_print(out, entry_table + 3, &v[k]);
	}
}

/* "  not recorded: why" when the probe read nothing; true then */
static bool not_ok(FILE *out, const struct ps_qdisc_info *i)
{
	if (i->status == PS_ST_OK)
		return false;
	fprintf(out, "  %s%s%s\n", ps_status_text(i->status),
		i->reason[0] ? ": " : "", i->reason);
	return true;
}

void ps_qdisc_print(FILE *out, const struct ps_qdisc_info *i)
{
	fprintf(out, _("Qdiscs of %s"), i->ifname);
	fputc('\n', out);
	if (not_ok(out, i))
		return;
	print_entries(out, _("qdisc"), i->q, i->n);
	print_entries(out, _("class"), i->c, i->nclass);
	if (i->truncated)
		fprintf(out,
			_("  (more than %d qdiscs or classes: the rest "
			  "left out)\n"),
			PS_QDISC_MAX);
	if (i->rates.valid)
		fprintf(out,
			_("Root over %.1f s: %.3f Mbit/s, %.1f drops/s, %.1f "
			  "overlimits/s, %.1f requeues/s\n"),
			i->rates.seconds, i->rates.tx_bps / 1e6,
			i->rates.drops_ps, i->rates.overlimits_ps,
			i->rates.requeues_ps);
}

/* the one-screen text: a line per qdisc (the first few), the root's rates */
#define BRIEF_MAX 4

static void brief_entry(FILE *out, const struct ps_qdisc_entry *e)
{
	char a[32];

	fprintf(out, "  %s %s %s %s", e->kind, e->handle, _("parent"),
		e->parent);
	if (e->rate_bps > 0) {
		ps_fmt_bps(a, sizeof(a), (double)e->rate_bps);
		fprintf(out, _(", rate %s"), a);
	}
	if (e->limit_bytes > 0) {
		ps_fmt_bytes10(a, sizeof(a), (double)e->limit_bytes);
		fprintf(out, _(", limit %s"), a);
	} else if (e->limit_packets > 0) {
		fprintf(out, _(", limit %lld packets"),
			(long long)e->limit_packets);
	}
	fprintf(out,
		_(": dropped %" PRIu64 ", overlimits %" PRIu64
		  ", requeues %" PRIu64 ", backlog %" PRIu64 " bytes\n"),
		e->drops, e->overlimits, e->requeues, e->backlog_bytes);
}

static void qdisc_op_brief(FILE *out, const struct ps_snapshot *s)
{
	const struct ps_qdisc_info *i = &s->qdisc;
	unsigned n = i->n < BRIEF_MAX ? i->n : BRIEF_MAX;

	fprintf(out, "\n%s\n", _("Qdiscs"));
	if (not_ok(out, i))
		return;
	for (unsigned k = 0; k < n; k++)
		brief_entry(out, &i->q[k]);
	if (i->n > n || i->nclass)
		fprintf(out,
			_("  and %u more qdiscs, %u classes (-V shows "
			  "them)\n"),
			i->n - n, i->nclass);
	if (i->rates.valid)
		fprintf(out, _("  root: %.1f drops/s, %.1f overlimits/s\n"),
			i->rates.drops_ps, i->rates.overlimits_ps);
}

/* the probe "pipescope probe" runs (probe.h), in PS_PROBE_LIST */
PS_PROBE_STATE_GLUE(qdisc)
PS_PROBE_RATES(qdisc)

/* clang-format would pack a list that starts with a macro */
/* clang-format off */
const struct ps_probe_ops ps_qdisc_ops = {
	PS_PROBE_STATE_OPS(qdisc),
	.title = N_("Qdiscs"),
	.needs_iface = true,
	.rates = qdisc_op_rates,
	.brief = qdisc_op_brief,
};
/* clang-format on */
