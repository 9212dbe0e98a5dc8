/* compare.c: two runs side by side. The snapshots are diffed generically:
 * each is flattened to "path = value" leaves (arrays of objects keyed by
 * their name, index or cpu), and the table below says which paths are
 * settings and how each is called; counters and rates are not settings. */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare.h"
#include "jsonutil.h"
#include "nls.h"
#include "sanitize.h"
#include "units.h"
#include "xmalloc.h"

/* ---- which leaves are settings ----------------------------------------- */

/* how a setting's value is shown: with its unit, as it was set */
enum vkind {
	V_AS_IS,       /* a name, on/off, a count its name says */
	V_ONOFF,       /* a sysctl's 0 and 1: off and on */
	V_BPS,	       /* bit/s: "600 Mbit/s" */
	V_BYTES,       /* each of a list: "4 KiB / 128 KiB / 6 MiB" */
	V_MTU,	       /* "1500 bytes" */
	V_USEC,	       /* "50 µs" */
	V_PACKETS,     /* "1000 packets" */
	V_ENTRIES,     /* a ring's "4096 entries" */
	V_FRAMES,      /* "64 frames" */
	V_CPULIST,     /* "0-3": "CPUs 0-3" */
	V_CPUMASK,     /* "0000000f": "CPUs 0-3"; "0": "no CPU" */
	V_GTS,	       /* "8 GT/s" */
	V_WIDTH,       /* "x8" */
	V_HEX,	       /* htb's default class: 32 is "0x20", as tc says it */
	V_MTU_PROBING, /* net.ipv4.tcp_mtu_probing: 0, 1, 2 */
	V_SYSCTL,      /* by the sysctl's name (sysctl_kinds) */
};

/*
 * A leaf "prefix X suffix" is a setting called fmt with X in it (X may hold
 * dots only with dots set: sysctl names). An exact path has no %s. With
 * qdisc, X is "qdiscs.HANDLE" or "classes.HANDLE" and fmt's %s is the qdisc
 * named by its kind, handle and device ("tbf 8009: on eth0").
 */
struct setting_rule {
	const char *prefix, *suffix, *fmt;
	bool dots;
	enum vkind kind;
	bool qdisc;
};

static const struct setting_rule rules[] = {
	{ "link.mtu", "", N_("MTU"), false, V_MTU, false },
	{ "link.qdisc", "", N_("qdisc"), false, V_AS_IS, false },
	{ "link.txqlen", "", N_("txqueuelen"), false, V_PACKETS, false },
	{ "link.num_rx_queues", "", N_("rx queues"), false, V_AS_IS, false },
	{ "link.num_tx_queues", "", N_("tx queues"), false, V_AS_IS, false },
	{ "link.gso_max_size", "", N_("GSO max size"), false, V_BYTES, false },
	{ "link.gro_max_size", "", N_("GRO max size"), false, V_BYTES, false },
	{ "ethtool.features.offloads.", ".on", N_("offload %s"), false, V_AS_IS,
	  false },
	{ "ethtool.channels.", ".current", N_("%s channels"), false, V_AS_IS,
	  false },
	{ "ethtool.rings.", ".current", N_("%s ring"), false, V_ENTRIES,
	  false },
	{ "ethtool.coalesce.adaptive_rx", "", N_("adaptive rx coalescing"),
	  false, V_AS_IS, false },
	{ "ethtool.coalesce.adaptive_tx", "", N_("adaptive tx coalescing"),
	  false, V_AS_IS, false },
	{ "ethtool.coalesce.rx_usecs", "", N_("coalescing rx-usecs"), false,
	  V_USEC, false },
	{ "ethtool.coalesce.tx_usecs", "", N_("coalescing tx-usecs"), false,
	  V_USEC, false },
	{ "ethtool.coalesce.rx_frames", "", N_("coalescing rx-frames"), false,
	  V_FRAMES, false },
	{ "ethtool.coalesce.tx_frames", "", N_("coalescing tx-frames"), false,
	  V_FRAMES, false },
	/* (its frame counts are counters, not settings) */
	{ "ethtool.pause.autoneg", "", N_("pause autonegotiation"), false,
	  V_AS_IS, false },
	{ "ethtool.pause.rx", "", N_("pause rx"), false, V_AS_IS, false },
	{ "ethtool.pause.tx", "", N_("pause tx"), false, V_AS_IS, false },
	{ "ethtool.rss.hfunc", "", N_("RSS hash function"), false, V_AS_IS,
	  false },
	{ "sysctl.values.", ".value", "%s", true, V_SYSCTL, false },
	{ "irq.lines.", ".smp_affinity_list", N_("IRQ %s affinity"), false,
	  V_CPULIST, false },
	{ "irq.queues.rx.", ".rps_cpus", N_("rx queue %s RPS CPUs"), false,
	  V_CPUMASK, false },
	{ "irq.queues.rx.", ".rps_flow_cnt", N_("rx queue %s RPS flows"), false,
	  V_AS_IS, false },
	{ "irq.queues.tx.", ".xps_cpus", N_("tx queue %s XPS CPUs"), false,
	  V_CPUMASK, false },
	{ "irq.irqbalance.running", "", N_("irqbalance running"), false,
	  V_AS_IS, false },
	{ "cpu.cores.", ".governor", N_("cpu%s governor"), false, V_AS_IS,
	  false },
	{ "pci.link.speed_gts", "", N_("PCIe link speed"), false, V_GTS,
	  false },
	{ "pci.link.width", "", N_("PCIe link width"), false, V_WIDTH, false },
	{ "pci.payload.max_payload", "", N_("PCIe max payload"), false, V_BYTES,
	  false },
	{ "pci.payload.max_read_request", "", N_("PCIe max read request"),
	  false, V_BYTES, false },
	/* the shapers (tbf, htb, ...): what limits a rate, not counters */
	{ "qdisc.", ".kind", N_("%s: kind"), true, V_AS_IS, true },
	{ "qdisc.", ".rate_bps", N_("%s: rate"), true, V_BPS, true },
	{ "qdisc.", ".ceil_bps", N_("%s: ceil"), true, V_BPS, true },
	{ "qdisc.", ".burst_bytes", N_("%s: burst"), true, V_BYTES, true },
	{ "qdisc.", ".limit_bytes", N_("%s: limit"), true, V_BYTES, true },
	{ "qdisc.", ".limit_packets", N_("%s: limit"), true, V_PACKETS, true },
	{ "qdisc.", ".default_class", N_("%s: default class"), true, V_HEX,
	  true },
};

/* the sysctls whose values have a unit or are switches */
static const struct {
	const char *name;
	enum vkind kind;
} sysctl_kinds[] = {
	{ "net.core.rmem_max", V_BYTES },
	{ "net.core.wmem_max", V_BYTES },
	{ "net.core.rmem_default", V_BYTES },
	{ "net.core.wmem_default", V_BYTES },
	{ "net.ipv4.tcp_rmem", V_BYTES },
	{ "net.ipv4.tcp_wmem", V_BYTES },
	{ "net.core.netdev_max_backlog", V_PACKETS },
	{ "net.core.netdev_budget", V_PACKETS },
	{ "net.core.netdev_budget_usecs", V_USEC },
	{ "net.core.busy_poll", V_USEC },
	{ "net.core.busy_read", V_USEC },
	{ "net.ipv4.tcp_timestamps", V_ONOFF },
	{ "net.ipv4.tcp_sack", V_ONOFF },
	{ "net.ipv4.tcp_window_scaling", V_ONOFF },
	{ "net.ipv4.tcp_mtu_probing", V_MTU_PROBING },
};

static bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n >= k && !memcmp(s + n - k, suf, k);
}

/* fmt with its "%s" replaced by x (a table's format is no literal) */
static void subst(char *out, size_t len, const char *fmt, const char *x)
{
	const char *at = strstr(fmt, "%s");

	if (!at)
		snprintf(out, len, "%s", fmt);
	else
		snprintf(out, len, "%.*s%s%s", (int)(at - fmt), fmt, x, at + 2);
}

/* the rule path is a setting of, with its X, or NULL when it is none */
static const struct setting_rule *setting_of(const char *path, char *x,
					     size_t xlen)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct setting_rule *r = &rules[i];
		size_t p = strlen(r->prefix), s = strlen(r->suffix);

		if (!strchr(r->fmt, '%')) {
			if (strcmp(path, r->prefix))
				continue;
			x[0] = 0;
			return r;
		}
		if (n <= p + s || strncmp(path, r->prefix, p) ||
		    !ends_with(path, n, r->suffix))
			continue;
		if (n - p - s >= xlen)
			continue;
		memcpy(x, path + p, n - p - s);
		x[n - p - s] = 0;
		if (!r->dots && strchr(x, '.'))
			continue;
		/* a status or a reason says why, it is no setting */
		if (!strcmp(x, "status") || !strcmp(x, "reason") ||
		    ends_with(x, strlen(x), ".status") ||
		    ends_with(x, strlen(x), ".reason"))
			continue;
		return r;
	}
	return NULL;
}

/* ---- a value with its unit ---------------------------------------------- */

/* s as a whole number or fraction; false when it is none */
static bool number(const char *s, double *v)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return !*end && !errno && isfinite(*v);
}

/* "0-3,8" of a hexadecimal CPU mask ("00000000,0000000f"); false when it
 * is no mask; "" when no bit is set */
static bool mask_list(const char *mask, char *out, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char d[1024]; /* the digits, the lowest CPUs first */
	size_t nd = 0, used = 0;
	int from = -1;

	out[0] = 0;
	for (size_t i = strlen(mask); i-- > 0;) {
		const char *h = strchr(hex, mask[i] | 0x20);

		if (mask[i] == ',')
			continue;
		if (!h || !*h || nd == sizeof(d))
			return false;
		d[nd++] = (unsigned char)(h - hex);
	}
	if (!nd)
		return false;
	/* one bit past the end closes the last range */
	for (size_t bit = 0; bit <= 4 * nd && used < len; bit++) {
		bool on = bit < 4 * nd && (d[bit / 4] >> (bit % 4) & 1);
		int w = 0;

		if (on && from < 0)
			from = (int)bit;
		if (on || from < 0)
			continue;
		if ((int)bit - 1 == from)
			w = snprintf(out + used, len - used, "%s%d",
				     used ? "," : "", from);
		else
			w = snprintf(out + used, len - used, "%s%d-%d",
				     used ? "," : "", from, (int)bit - 1);
		used += w > 0 ? (size_t)w : 0;
		from = -1;
	}
	return true;
}

static enum vkind sysctl_kind(const char *name)
{
	for (size_t i = 0; i < sizeof(sysctl_kinds) / sizeof(sysctl_kinds[0]);
	     i++)
		if (!strcmp(name, sysctl_kinds[i].name))
			return sysctl_kinds[i].kind;
	return V_AS_IS;
}

/* one number of kind k with its unit into buf; false when raw is none */
static bool with_unit(enum vkind k, const char *raw, char *buf, size_t len)
{
	double v;
	unsigned long n;
	char l[256];

	if (k == V_CPULIST) {
		snprintf(buf, len,
			 strpbrk(raw, ",-") ? _("CPUs %s") : _("CPU %s"), raw);
		return true;
	}
	if (k == V_CPUMASK) {
		if (!mask_list(raw, l, sizeof(l)))
			return false;
		if (!l[0])
			snprintf(buf, len, "%s", _("no CPU"));
		else
			snprintf(buf, len,
				 strpbrk(l, ",-") ? _("CPUs %s") : _("CPU %s"),
				 l);
		return true;
	}
	if (!number(raw, &v))
		return false;
	n = v >= 0 && v < 1e18 && v == floor(v) ? (unsigned long)v : 2;
	switch (k) {
	case V_BPS:
		ps_fmt_setting(buf, len, v, &ps_scale_setting_bps);
		return true;
	case V_BYTES:
		ps_fmt_setting(buf, len, v, &ps_scale_setting_bytes);
		return true;
	case V_MTU:
		snprintf(buf, len, P_("%s byte", "%s bytes", n), raw);
		return true;
	case V_USEC:
		snprintf(buf, len, _("%s µs"), raw);
		return true;
	case V_PACKETS:
		snprintf(buf, len, P_("%s packet", "%s packets", n), raw);
		return true;
	case V_ENTRIES:
		snprintf(buf, len, P_("%s entry", "%s entries", n), raw);
		return true;
	case V_FRAMES:
		snprintf(buf, len, P_("%s frame", "%s frames", n), raw);
		return true;
	case V_GTS:
		snprintf(buf, len, _("%s GT/s"), raw);
		return true;
	case V_WIDTH:
		snprintf(buf, len, "x%s", raw);
		return true;
	case V_HEX:
		if (v < 0 || v != floor(v) || v > 0xffffffff)
			return false;
		snprintf(buf, len, "0x%lx", n);
		return true;
	case V_ONOFF:
		if (v != 0 && v != 1)
			return false;
		snprintf(buf, len, "%s", v ? _("on") : _("off"));
		return true;
	case V_MTU_PROBING:
		if (v != 0 && v != 1 && v != 2)
			return false;
		snprintf(buf, len, "%s",
			 v == 0	  ? _("off")
			 : v == 1 ? _("on after a black hole")
				  : _("always on"));
		return true;
	default:
		return false;
	}
}

/* a setting's value as it is shown: with its unit ("600 Mbit/s", a list
 * "4 KiB / 128 KiB / 6 MiB"), else as it is; "" stays "" (missing) */
static void value_text(enum vkind k, const char *raw, char *buf, size_t len)
{
	char one[64], num[64];
	const char *p = raw;
	size_t used = 0;

	buf[0] = 0;
	if (k == V_AS_IS || !*raw) {
		snprintf(buf, len, "%s", raw);
		return;
	}
	/* a list of values is one value: "4096 131072 6291456" */
	while (*p) {
		size_t w = strcspn(p, " ");
		int r;

		if (w >= sizeof(num) || !w)
			break;
		memcpy(num, p, w);
		num[w] = 0;
		if (!with_unit(k, num, one, sizeof(one)))
			break;
		r = snprintf(buf + used, len - used, "%s%s", used ? " / " : "",
			     one);
		used += r > 0 ? (size_t)r : 0;
		if (used >= len)
			break;
		p += w;
		p += *p == ' ';
	}
	/* anything else (a file's own text) is shown as it is */
	if (*p || !used)
		snprintf(buf, len, "%s", raw);
}

/* ---- flattening -------------------------------------------------------- */

struct leaf {
	char *path;
	char *value;
};

struct leaves {
	struct leaf *v;
	size_t n, cap;
	size_t bytes;	    /* of the paths and values kept */
	char qdisc_dev[64]; /* the qdisc section's interface, "" unknown */
};

/* what one snapshot's settings may take (a real one: under 100 KB) */
#define LEAVES_MAX_BYTES (4u << 20)

/* a leaf that is a setting (the others are never compared), while the
 * snapshot's settings fit LEAVES_MAX_BYTES */
static void leaf_add(struct leaves *l, const char *path, const char *value)
{
	char x[128];
	size_t b = strlen(path) + strlen(value) + 2 + sizeof(*l->v);

	if (l->bytes + b > LEAVES_MAX_BYTES || !setting_of(path, x, sizeof(x)))
		return;
	l->bytes += b;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n].path = xstrdup(path);
	l->v[l->n].value = xstrdup(value);
	l->n++;
}

static const char *scalar(struct json_object *o)
{
	if (!o)
		return "null";
	if (json_object_is_type(o, json_type_boolean))
		return json_object_get_boolean(o) ? "on" : "off";
	return json_object_get_string(o);
}

/* an array of objects: each element's name for the path */
static void elem_key(struct json_object *e, size_t i, char *buf, size_t len)
{
	static const char *const keys[] = { "name", "ifname", "index",
					    "cpu",  "irq",    "handle" };
	struct json_object *v;

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (json_object_object_get_ex(e, keys[k], &v) &&
		    !json_object_is_type(v, json_type_object) &&
		    !json_object_is_type(v, json_type_array)) {
			snprintf(buf, len, "%s", json_object_get_string(v));
			return;
		}
	snprintf(buf, len, "%zu", i);
}

static void flatten(struct leaves *l, struct json_object *o, char *path,
		    size_t at, size_t cap, int depth)
{
	if (depth > 12 || at >= cap - 1)
		return;
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v)
		{
			int n;

			/* null is a key left out (doc/snapshot.md) */
			if (!v)
				continue;
			n = snprintf(path + at, cap - at, "%s%s", at ? "." : "",
				     k);

			if (n > 0 && (size_t)n < cap - at)
				flatten(l, v, path, at + (size_t)n, cap,
					depth + 1);
		}
		path[at] = 0;
		return;
	}
	if (json_object_is_type(o, json_type_array)) {
		size_t n = json_object_array_length(o);
		struct json_object *e0 =
			n ? json_object_array_get_idx(o, 0) : NULL;

		if (e0 && json_object_is_type(e0, json_type_object)) {
			for (size_t i = 0; i < n && i < 4096; i++) {
				struct json_object *e =
					json_object_array_get_idx(o, i);
				char key[96];
				int w;

				elem_key(e, i, key, sizeof(key));
				w = snprintf(path + at, cap - at, ".%s", key);
				if (w > 0 && (size_t)w < cap - at)
					flatten(l, e, path, at + (size_t)w, cap,
						depth + 1);
			}
			path[at] = 0;
			return;
		}
		/* a list of values is one value: "4096 131072 6291456" */
		{
			char buf[512] = "";
			size_t used = 0;

			for (size_t i = 0; i < n && used < sizeof(buf) - 1;
			     i++) {
				int w = snprintf(
					buf + used, sizeof(buf) - used, "%s%s",
					i ? " " : "",
					scalar(json_object_array_get_idx(o,
									 i)));

				if (w < 0)
					break;
				used += (size_t)w;
			}
			leaf_add(l, path, buf);
		}
		return;
	}
	leaf_add(l, path, scalar(o));
}

static int leaf_cmp(const void *a, const void *b)
{
	return strcmp(((const struct leaf *)a)->path,
		      ((const struct leaf *)b)->path);
}

static void leaves_of(struct leaves *l, const char *json)
{
	struct json_object *o = json ? json_tokener_parse(json) : NULL;
	char path[1024] = "";

	struct json_object *q, *dev;

	memset(l, 0, sizeof(*l));
	if (!o)
		return;
	if (json_object_object_get_ex(o, "qdisc", &q) &&
	    json_object_object_get_ex(q, "ifname", &dev) &&
	    json_object_is_type(dev, json_type_string))
		snprintf(l->qdisc_dev, sizeof(l->qdisc_dev), "%s",
			 json_object_get_string(dev));
	flatten(l, o, path, 0, sizeof(path), 0);
	json_object_put(o);
	if (l->n) /* (an object of empty objects has no leaves) */
		qsort(l->v, l->n, sizeof(*l->v), leaf_cmp);
}

static void leaves_free(struct leaves *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].value);
	}
	free(l->v);
}

static void change_add(struct ps_cmp_change **v, size_t *n, const char *what,
		       const char *key, const char *before, const char *after)
{
	struct ps_cmp_change *c;

	*v = xgrow(*v, *n, sizeof(**v));
	c = &(*v)[(*n)++];
	snprintf(c->what, sizeof(c->what), "%s", what);
	snprintf(c->key, sizeof(c->key), "%s", key);
	snprintf(c->before, sizeof(c->before), "%s", before);
	snprintf(c->after, sizeof(c->after), "%s", after);
	snprintf(c->before_text, sizeof(c->before_text), "%s", before);
	snprintf(c->after_text, sizeof(c->after_text), "%s", after);
}

/* the value of the leaf at path, or NULL */
static const char *leaf_value(const struct leaves *l, const char *path)
{
	struct leaf k = { .path = (char *)path }, *f;

	f = l->n ? bsearch(&k, l->v, l->n, sizeof(*l->v), leaf_cmp) : NULL;
	return f ? f->value : NULL;
}

/* a qdisc or class of X ("qdiscs.8009:", "classes.1:10") named as tc would:
 * "tbf 8009: on eth0", "htb class 1:10 on eth0" (the kind of run B, else
 * of run A; "qdisc" for a change of the kind itself) */
static void qdisc_name(const struct setting_rule *r, const char *x,
		       const struct leaves *la, const struct leaves *lb,
		       char *out, size_t len)
{
	bool cls = !strncmp(x, "classes.", 8);
	const char *handle = strchr(x, '.'), *kind = NULL;
	const char *dev = lb->qdisc_dev[0] ? lb->qdisc_dev : la->qdisc_dev;
	char path[160];

	if (!handle || (!cls && strncmp(x, "qdiscs.", 7))) {
		snprintf(out, len, "%s %s", _("qdisc"), x);
		return;
	}
	handle++;
	snprintf(path, sizeof(path), "qdisc.%s.kind", x);
	if (strcmp(r->suffix, ".kind"))
		kind = leaf_value(lb, path) ? leaf_value(lb, path)
					    : leaf_value(la, path);
	if (!kind || !*kind)
		kind = _("qdisc");
	if (dev[0])
		snprintf(out, len,
			 cls ? _("%s class %s on %s") : _("%s %s on %s"), kind,
			 handle, dev);
	else
		snprintf(out, len, cls ? _("%s class %s") : _("%s %s"), kind,
			 handle);
}

/* a change between leaves a and b (either NULL: missing in that run),
 * named and shown with its unit */
static void setting_change(struct ps_cmp_side *s, const struct leaf *a,
			   const struct leaf *b, const struct leaves *la,
			   const struct leaves *lb)
{
	const char *path = a ? a->path : b->path;
	const struct setting_rule *r;
	struct ps_cmp_change *c;
	char x[128], name[160], what[192];
	enum vkind k;

	r = setting_of(path, x, sizeof(x));
	if (!r)
		return;
	if (r->qdisc) {
		qdisc_name(r, x, la, lb, name, sizeof(name));
		subst(what, sizeof(what), _(r->fmt), name);
	} else {
		subst(what, sizeof(what), _(r->fmt), x);
	}
	change_add(&s->v, &s->n, what, path, a ? a->value : "",
		   b ? b->value : "");
	c = &s->v[s->n - 1];
	k = r->kind == V_SYSCTL ? sysctl_kind(x) : r->kind;
	value_text(k, c->before, c->before_text, sizeof(c->before_text));
	value_text(k, c->after, c->after_text, sizeof(c->after_text));
}

/* the settings that differ between two snapshots, in path order */
static void diff_side(struct ps_cmp_side *s, const char *a, const char *b)
{
	struct leaves la, lb;
	size_t i = 0, j = 0;

	if (!a || !b)
		return;
	s->have = true;
	leaves_of(&la, a);
	leaves_of(&lb, b);
	while (i < la.n || j < lb.n) {
		int c = i >= la.n   ? 1
			: j >= lb.n ? -1
				    : strcmp(la.v[i].path, lb.v[j].path);

		if (c || strcmp(la.v[i].value, lb.v[j].value))
			setting_change(s, c <= 0 ? &la.v[i] : NULL,
				       c >= 0 ? &lb.v[j] : NULL, &la, &lb);
		if (c <= 0)
			i++;
		if (c >= 0)
			j++;
	}
	leaves_free(&la);
	leaves_free(&lb);
}

/* the host section's field of a snapshot */
static void snap_host(const char *json, const char *key, char *buf, size_t len)
{
	struct json_object *o = json ? json_tokener_parse(json) : NULL, *h, *v;

	buf[0] = 0;
	if (o && json_object_object_get_ex(o, "host", &h) &&
	    json_object_object_get_ex(h, key, &v))
		snprintf(buf, len, "%s", json_object_get_string(v));
	json_object_put(o);
}

static void machines(struct ps_cmp_side *s, const char *a, const char *b)
{
	char ha[256], hb[256], ba[64], bb[64];

	if (!a || !b)
		return;
	snap_host(a, "hostname", ha, sizeof(ha));
	snap_host(b, "hostname", hb, sizeof(hb));
	snap_host(a, "boot_id", ba, sizeof(ba));
	snap_host(b, "boot_id", bb, sizeof(bb));
	s->other_host = ha[0] && hb[0] && strcmp(ha, hb);
	s->rebooted = !s->other_host && ba[0] && bb[0] && strcmp(ba, bb);
}

/* ---- findings ---------------------------------------------------------- */

static size_t findings_of(const char *check, struct ps_cmp_finding **out)
{
	struct json_object *o = check ? json_tokener_parse(check) : NULL, *fs;
	size_t n = 0;

	*out = NULL;
	if (o && json_object_object_get_ex(o, "findings", &fs) &&
	    json_object_is_type(fs, json_type_array)) {
		size_t len = json_object_array_length(fs);

		*out = xcalloc(len ? len : 1, sizeof(**out));
		for (size_t i = 0; i < len; i++) {
			struct json_object *f = json_object_array_get_idx(fs,
									  i),
					   *id, *t;

			if (!json_object_object_get_ex(f, "id", &id))
				continue;
			snprintf((*out)[n].id, sizeof((*out)[n].id), "%s",
				 json_object_get_string(id));
			if (json_object_object_get_ex(f, "title", &t))
				snprintf((*out)[n].title,
					 sizeof((*out)[n].title), "%s",
					 json_object_get_string(t));
			n++;
		}
	}
	json_object_put(o);
	return n;
}

static bool has_finding(const struct ps_cmp_finding *v, size_t n,
			const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].id, id))
			return true;
	return false;
}

/* what is in x and not in y */
static void only_in(const struct ps_cmp_finding *x, size_t nx,
		    const struct ps_cmp_finding *y, size_t ny,
		    struct ps_cmp_finding **out, size_t *nout)
{
	*out = xcalloc(nx ? nx : 1, sizeof(**out));
	*nout = 0;
	for (size_t i = 0; i < nx; i++)
		if (!has_finding(y, ny, x[i].id))
			(*out)[(*nout)++] = x[i];
}

/* ---- the model --------------------------------------------------------- */

static void param_diffs(struct ps_cmp *c)
{
	const struct ps_hist_rec *a = &c->run[0], *b = &c->run[1];
	char x[32], y[32];

	if (strcmp(a->target, b->target))
		change_add(&c->params, &c->nparams, _("target"), "target",
			   a->target, b->target);
	if (strcmp(a->kind, b->kind))
		change_add(&c->params, &c->nparams, _("kind"), "kind", a->kind,
			   b->kind);
	if (strcmp(a->proto, b->proto))
		change_add(&c->params, &c->nparams, _("protocol"), "proto",
			   a->proto, b->proto);
	if (strcmp(a->direction, b->direction))
		change_add(&c->params, &c->nparams, _("direction"), "direction",
			   a->direction, b->direction);
	if (a->streams != b->streams) {
		snprintf(x, sizeof(x), "%d", a->streams);
		snprintf(y, sizeof(y), "%d", b->streams);
		change_add(&c->params, &c->nparams, _("streams"), "streams", x,
			   y);
	}
}

void ps_compare_build(struct ps_cmp *c)
{
	const struct ps_hist_rec *a = &c->run[0], *b = &c->run[1];
	struct ps_cmp_finding *fa, *fb;
	size_t na, nb;
	double sa = isfinite(a->spread) ? a->spread : 0;
	double sb = isfinite(b->spread) ? b->spread : 0;

	c->change_pct = isfinite(a->bps) && isfinite(b->bps) && a->bps > 0
				? (b->bps - a->bps) / a->bps * 100
				: NAN;
	c->noise_pct = isfinite(a->spread) || isfinite(b->spread)
			       ? 100 * (sa > sb ? sa : sb)
			       : NAN;
	c->noise = isfinite(c->change_pct) && isfinite(c->noise_pct) &&
		   fabs(c->change_pct) <= c->noise_pct;
	param_diffs(c);
	for (int s = 0; s < 2; s++) {
		diff_side(&c->side[s], a->snap[s], b->snap[s]);
		machines(&c->side[s], a->snap[s], b->snap[s]);
	}
	/* a test has no findings: only two checks compare theirs */
	na = findings_of(a->check && b->check ? a->check : NULL, &fa);
	nb = findings_of(a->check && b->check ? b->check : NULL, &fb);
	only_in(fb, nb, fa, na, &c->appeared, &c->nappeared);
	only_in(fa, na, fb, nb, &c->gone, &c->ngone);
	free(fa);
	free(fb);
}

int ps_compare_runs(struct ps_hist *h, int64_t a, int64_t b, struct ps_cmp *c,
		    char *err, size_t errlen)
{
	int rc;

	memset(c, 0, sizeof(*c));
	rc = ps_hist_get(h, a, &c->run[0], err, errlen);
	if (!rc)
		rc = ps_hist_get(h, b, &c->run[1], err, errlen);
	if (rc) {
		ps_compare_free(c);
		return rc;
	}
	ps_compare_build(c);
	return 0;
}

int ps_compare_pick(struct ps_hist *h, const char *target, int64_t *a,
		    int64_t *b, char *err, size_t errlen)
{
	struct ps_hist_rec *rows;
	bool alone = false;
	int n;

	n = ps_hist_list(h, target, 1, &rows, err, errlen);
	if (n < 0)
		return n;
	if (n == 1) {
		char t[256];

		*b = rows[0].id;
		snprintf(t, sizeof(t), "%s", rows[0].target);
		free(rows);
		n = ps_hist_list(h, t, 2, &rows, err, errlen);
		if (n < 0)
			return n;
		if (n == 2)
			*a = rows[0].id;
		alone = n == 1;
	}
	free(rows);
	if (n == 2)
		return 0;
	/* the newest run is its target's only one: name the runs there are */
	if (alone && !target &&
	    (n = ps_hist_list(h, NULL, 2, &rows, err, errlen)) >= 0) {
		if (n == 2)
			snprintf(err, errlen,
				 _("the newest run (%lld, to %s) is the only "
				   "one to its target; 'pipescope compare %lld "
				   "%lld' compares it with the run before it "
				   "(to %s), 'pipescope history' lists them "
				   "all"),
				 (long long)rows[1].id, rows[1].target,
				 (long long)rows[0].id, (long long)rows[1].id,
				 rows[0].target);
		free(rows);
		if (n == 2)
			return -ENOENT;
	}
	snprintf(err, errlen,
		 _("fewer than two runs to compare%s%s (see 'pipescope "
		   "history')"),
		 target ? _(" to ") : "", target ? target : "");
	return -ENOENT;
}

void ps_compare_free(struct ps_cmp *c)
{
	for (int i = 0; i < 2; i++) {
		ps_hist_rec_free(&c->run[i]);
		free(c->side[i].v);
	}
	free(c->params);
	free(c->appeared);
	free(c->gone);
	memset(c, 0, sizeof(*c));
}

/* ---- text -------------------------------------------------------------- */

void ps_compare_ago(int64_t then_ns, int64_t now_ns, char *buf, size_t len)
{
	/* in double: a stored time may be anything (-(2^63-1) overflows
	 * a difference of int64_t) */
	double s = ((double)now_ns - (double)then_ns) / 1e9;

	if (s < 0)
		s = 0;
	if (s < 90)
		snprintf(buf, len, _("%.0f s ago"), s);
	else if (s < 5400)
		snprintf(buf, len, _("%.0f min ago"), s / 60);
	else if (s < 2 * 86400)
		snprintf(buf, len, _("%.0f h ago"), s / 3600);
	else
		snprintf(buf, len, _("%.0f d ago"), s / 86400);
}

static void print_changes(FILE *out, const struct ps_cmp_change *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "  %-32s %s", ps_safe(v[i].what),
			v[i].before[0] ? ps_safe(v[i].before_text)
				       : _("(none)"));
		fprintf(out, " → %s\n",
			v[i].after[0] ? ps_safe(v[i].after_text) : _("(none)"));
	}
}

void ps_compare_print(FILE *out, const struct ps_cmp *c)
{
	static const char *const side_name[2] = { N_("this end"),
						  N_("far end") };
	char w[2][32], r[2][64];

	for (int i = 0; i < 2; i++) {
		ps_hist_when(c->run[i].time_ns, true, w[i], sizeof(w[i]));
		ps_hist_rate_text(&c->run[i], r[i], sizeof(r[i]));
	}
	fprintf(out, _("%-10s %-8s %-20s %-10s %-24s %s\n"), _("run"),
		_("kind"), _("when"), _("streams"), _("target"), _("rate"));
	for (int i = 0; i < 2; i++) {
		const struct ps_hist_rec *x = &c->run[i];
		char streams[32];

		/* what comes back from the file is untrusted too */
		snprintf(streams, sizeof(streams), "%d %s", x->streams,
			 ps_safe(x->direction));
		fprintf(out, "%c %-8lld %-8s %-20s %-10s %-24s %s\n",
			i ? 'B' : 'A', (long long)x->id, ps_safe(x->kind), w[i],
			streams, x->target[0] ? ps_safe(x->target) : "-", r[i]);
	}
	/* a run that did not run its course: its rate is of a part */
	for (int i = 0; i < 2; i++) {
		if (!strcmp(c->run[i].ended, "stopped"))
			fprintf(out,
				_("run %c was stopped before its end: its "
				  "rate is of the part it ran\n"),
				i ? 'B' : 'A');
		else if (!strcmp(c->run[i].ended, "partial"))
			fprintf(out,
				_("run %c ended early (a fault): its rate is "
				  "of the part it ran\n"),
				i ? 'B' : 'A');
	}
	if (isfinite(c->change_pct)) {
		fprintf(out, _("rate change: %+.1f%%"), c->change_pct);
		if (c->noise)
			fprintf(out,
				_(" (noise: within the runs' spread of "
				  "%.1f%%)"),
				c->noise_pct);
		else if (isfinite(c->noise_pct))
			fprintf(out, _(" (the runs' spread: %.1f%%)"),
				c->noise_pct);
		fputc('\n', out);
	}
	if (c->nparams) {
		fprintf(out, "%s\n", _("the tests differ:"));
		print_changes(out, c->params, c->nparams);
	}
	for (int s = 0; s < 2; s++) {
		const struct ps_cmp_side *d = &c->side[s];

		fprintf(out, "%s", _(side_name[s]));
		if (c->run[1].end[s].host[0])
			fprintf(out, " (%s)", ps_safe(c->run[1].end[s].host));
		fputs(":\n", out);
		if (!d->have) {
			fprintf(out, "  %s\n",
				_("no snapshot in both runs: not compared"));
			continue;
		}
		if (d->other_host)
			fprintf(out, "  %s\n",
				_("another machine than in run A"));
		else if (d->rebooted)
			fprintf(out, "  %s\n", _("rebooted between the runs"));
		if (!d->n)
			fprintf(out, "  %s\n", _("no setting changed"));
		print_changes(out, d->v, d->n);
	}
	for (size_t i = 0; i < c->ngone; i++)
		fprintf(out, _("gone:     %s: %s\n"), ps_safe(c->gone[i].id),
			ps_safe(c->gone[i].title));
	for (size_t i = 0; i < c->nappeared; i++)
		fprintf(out, _("appeared: %s: %s\n"),
			ps_safe(c->appeared[i].id),
			ps_safe(c->appeared[i].title));
}

/* ---- JSON -------------------------------------------------------------- */

/* a change and a finding (doc/history.md); not known: no key */
static const struct ps_jfield change_table[] = {
	PS_JFIELD(struct ps_cmp_change, what, "what", PS_JT_STRING, 0, NULL,
		  NULL),
	PS_JFIELD(struct ps_cmp_change, key, "key", PS_JT_STRING, 0, NULL,
		  NULL),
	PS_JFIELD(struct ps_cmp_change, before, "before", PS_JT_STRING,
		  PS_JF_NA, NULL, NULL),
	PS_JFIELD(struct ps_cmp_change, after, "after", PS_JT_STRING, PS_JF_NA,
		  NULL, NULL),
	PS_JEND
};

static const struct ps_jfield finding_table[] = {
	PS_JFIELD(struct ps_cmp_finding, id, "id", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(struct ps_cmp_finding, title, "title", PS_JT_STRING, 0, NULL,
		  NULL),
	PS_JEND
};

struct json_object *ps_compare_json(const struct ps_cmp *c)
{
	static const char *const side_key[2] = { "local", "remote" };
	struct json_object *o = json_object_new_object(), *ends;

	json_object_object_add(o, "a", ps_hist_rec_json(&c->run[0]));
	json_object_object_add(o, "b", ps_hist_rec_json(&c->run[1]));
	ps_json_put_known(o, "change_pct",
			  ps_jv_num(c->change_pct, PS_JV_EXACT));
	ps_json_put_known(o, "noise_pct", ps_jv_num(c->noise_pct, PS_JV_EXACT));
	json_object_object_add(o, "noise", json_object_new_boolean(c->noise));
	json_object_object_add(o, "params",
			       ps_jtable_array(change_table, c->params,
					       sizeof(*c->params), c->nparams));
	ends = json_object_new_object();
	for (int s = 0; s < 2; s++) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(
			e, "compared",
			json_object_new_boolean(c->side[s].have));
		json_object_object_add(
			e, "other_host",
			json_object_new_boolean(c->side[s].other_host));
		json_object_object_add(
			e, "rebooted",
			json_object_new_boolean(c->side[s].rebooted));
		json_object_object_add(
			e, "changes",
			ps_jtable_array(change_table, c->side[s].v,
					sizeof(*c->side[s].v), c->side[s].n));
		json_object_object_add(ends, side_key[s], e);
	}
	json_object_object_add(o, "ends", ends);
	json_object_object_add(o, "appeared",
			       ps_jtable_array(finding_table, c->appeared,
					       sizeof(*c->appeared),
					       c->nappeared));
	json_object_object_add(o, "gone",
			       ps_jtable_array(finding_table, c->gone,
					       sizeof(*c->gone), c->ngone));
	return o;
}

/* ---- the one line ------------------------------------------------------ */

void ps_compare_line(const struct ps_cmp *c, int64_t now_ns, char *buf,
		     size_t len)
{
	char ago[32], ra[64], rb[64];
	size_t used, shown = 0, total = c->side[0].n + c->side[1].n;
	int w;

	ps_compare_ago(c->run[0].time_ns, now_ns, ago, sizeof(ago));
	w = snprintf(buf, len, _("since the last run to %s (%s): "),
		     ps_safe(c->run[0].target), ago);
	used = w > 0 ? (size_t)w : 0;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < c->side[s].n && shown < 4; i++) {
			const struct ps_cmp_change *x = &c->side[s].v[i];

			if (used >= len)
				return;
			w = snprintf(
				buf + used, len - used, "%s%s%s %s → %s",
				shown ? ", " : "", s ? _("far end ") : "",
				ps_safe(x->what),
				x->before[0] ? ps_safe(x->before_text) : "-",
				x->after[0] ? ps_safe(x->after_text) : "-");
			used += w > 0 ? (size_t)w : 0;
			shown++;
		}
	if (used < len && total > shown) {
		w = snprintf(buf + used, len - used, _(" and %zu more"),
			     total - shown);
		used += w > 0 ? (size_t)w : 0;
	}
	if (used < len && !total) {
		w = snprintf(buf + used, len - used, "%s",
			     _("no setting changed"));
		used += w > 0 ? (size_t)w : 0;
	}
	ps_hist_rate_text(&c->run[0], ra, sizeof(ra));
	ps_hist_rate_text(&c->run[1], rb, sizeof(rb));
	if (used < len)
		snprintf(buf + used, len - used, _(", rate %s → %s%s"), ra, rb,
			 c->noise ? _(" (noise)") : "");
}

int ps_compare_since_last(const char *path, int64_t id, char *buf, size_t len)
{
	struct ps_hist *h;
	struct ps_hist_rec cur, *rows = NULL;
	struct ps_cmp c;
	char err[512];
	int n, rc;

	buf[0] = 0;
	if (!path || !id ||
	    ps_hist_open(path, PS_HIST_GLANCE, &h, err, sizeof(err)))
		return -ENOENT;
	rc = ps_hist_get(h, id, &cur, err, sizeof(err));
	if (!rc) {
		n = ps_hist_list(h, cur.target, 2, &rows, err, sizeof(err));
		rc = n == 2 && rows[1].id == id
			     ? ps_compare_runs(h, rows[0].id, id, &c, err,
					       sizeof(err))
			     : -ENOENT;
		if (!rc) {
			ps_compare_line(&c, cur.time_ns, buf, len);
			ps_compare_free(&c);
		}
		free(rows);
		ps_hist_rec_free(&cur);
	}
	ps_hist_close(h);
	return rc;
}
