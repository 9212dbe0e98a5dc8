/* snapshot.c: the snapshot of "pipescope probe": its header, its JSON
 * document (doc/snapshot.md), loading one back for "check --snapshot FILE",
 * and the grouped text */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "clock.h"
#include "jsonutil.h"
#include "log.h"
#include "nls.h"
#include "probe.h"
#include "snapshot.h"
#include "sysroot.h"
#include "xmalloc.h"

static void mark_all(struct ps_snapshot *s, enum ps_status st, const char *why)
{
	for (size_t i = 0; i < ps_probe_count; i++)
		ps_probe_registry[i]->mark(s, st, why);
}

struct ps_snapshot *ps_snapshot_new(void)
{
	struct ps_snapshot *s = xcalloc(1, sizeof(*s));

	atomic_init(&s->refs, 1);
	mark_all(s, PS_ST_NOT_RECORDED, "");
	return s;
}

bool ps_snapshot_same_host(const struct ps_snapshot *a,
			   const struct ps_snapshot *b)
{
	return a && b && a->hdr.boot_id[0] &&
	       !strcmp(a->hdr.boot_id, b->hdr.boot_id);
}

struct ps_snapshot *ps_snapshot_get(struct ps_snapshot *s)
{
	if (s)
		atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
	return s;
}

void ps_snapshot_put(struct ps_snapshot *s)
{
	if (!s)
		return;
	if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
		return;
	ps_snapshot_free(s);
	free(s);
}

void ps_snapshot_free(struct ps_snapshot *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < ps_probe_count; i++)
		ps_probe_registry[i]->free(s);
	free(atomic_exchange(&s->text, NULL));
}

/* this process's CPUs as a list ("0-3,6"), "" when unknown or cut */
static void affinity_list(char *buf, size_t len)
{
	cpu_set_t set;
	int c = 0;

	buf[0] = 0;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	while (c < CPU_SETSIZE) {
		int end = c;
		size_t used = strlen(buf);

		if (!CPU_ISSET(c, &set)) {
			c++;
			continue;
		}
		while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, &set))
			end++;
		if (snprintf(buf + used, len - used,
			     end > c ? "%s%d-%d" : "%s%d", used ? "," : "", c,
			     end) >= (int)(len - used)) {
			buf[0] = 0; /* cut: better unknown than wrong */
			return;
		}
		c = end + 1;
	}
}

void ps_snapshot_fill_header(struct ps_snapshot *s,
			     const struct ps_iface_choice *iface)
{
	struct ps_snapshot_header *h = &s->hdr;
	struct utsname u;

	h->version = PS_SNAPSHOT_VERSION;
	snprintf(h->pipescope_version, sizeof(h->pipescope_version), "%s",
		 PACKAGE_VERSION);
	h->time_ns = ps_clock_ns(CLOCK_REALTIME);
	h->mono_ns = ps_mono_ns();
	h->source = ps_sysroot_is_live() ? PS_SNAP_LIVE : PS_SNAP_SYSROOT;
	snprintf(h->sysroot, sizeof(h->sysroot), "%s", ps_sysroot_get());
	h->root = geteuid() == 0;
	if (ps_read_line("/proc/sys/kernel/hostname", h->hostname,
			 sizeof(h->hostname)))
		h->hostname[0] = 0;
	if (ps_read_line("/proc/sys/kernel/osrelease", h->kernel,
			 sizeof(h->kernel)))
		h->kernel[0] = 0;
	if (ps_read_line("/proc/sys/kernel/random/boot_id", h->boot_id,
			 sizeof(h->boot_id)))
		h->boot_id[0] = 0;
	if (h->source == PS_SNAP_LIVE)
		affinity_list(h->affinity, sizeof(h->affinity));
	if (h->source == PS_SNAP_LIVE && !uname(&u)) {
		if (!h->hostname[0])
			snprintf(h->hostname, sizeof(h->hostname), "%s",
				 u.nodename);
		if (!h->kernel[0])
			snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
	}
	if (iface)
		h->iface = *iface;
}

/* ---- JSON ---- */

static const char *const source_names[] = {
	[PS_SNAP_LIVE] = "live",
	[PS_SNAP_SYSROOT] = "sysroot",
	NULL, /* the loader reads up to here */
};

static void fmt_time(char *buf, size_t len, int64_t ns)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (!gmtime_r(&t, &tm)) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (int)(ns % 1000000000 / 1000000));
}

/* ---- the header: JSON and loader (doc/snapshot.md "Top level") ---- */

#define HDR struct ps_snapshot_header

static bool hdr_sysroot(const void *base)
{
	return ((const HDR *)base)->source == PS_SNAP_SYSROOT;
}

static bool hdr_rates(const void *base)
{
	return ((const HDR *)base)->rates;
}

static bool hdr_no_rates(const void *base)
{
	return !((const HDR *)base)->rates;
}

/* "timestamp": time_ns as text, for people; the loader reads time_ns */
static void timestamp_put(struct json_object *obj, const struct ps_jfield *f,
			  const void *base)
{
	char ts[64];

	fmt_time(ts, sizeof(ts), ((const HDR *)base)->time_ns);
	ps_json_put_string(obj, f->key, ts);
}

static const struct ps_jcodec timestamp_codec = { .put = timestamp_put };

static const struct ps_jfield host_table[] = {
	PS_JFIELD(HDR, hostname, "hostname", PS_JT_STRING, PS_JF_REQUIRED, NULL,
		  NULL),
	PS_JFIELD(HDR, kernel, "kernel", PS_JT_STRING, PS_JF_REQUIRED, NULL,
		  NULL),
	PS_JFIELD(HDR, boot_id, "boot_id", PS_JT_STRING, PS_JF_NA, NULL, NULL),
	PS_JFIELD(HDR, affinity, "affinity", PS_JT_STRING, PS_JF_NA, NULL,
		  NULL),
	PS_JFIELD(HDR, data_threads, "data_threads", PS_JT_STRING, PS_JF_NA,
		  NULL, NULL),
	PS_JFIELD(HDR, root, "root", PS_JT_BOOL, PS_JF_REQUIRED, NULL, NULL),
	PS_JEND
};

static const struct ps_jfield source_table[] = {
	PS_JENUM(HDR, source, "mode", PS_JF_REQUIRED, source_names, NULL, NULL),
	{ .key = "sysroot",
	  .type = PS_JT_STRING,
	  .off = offsetof(HDR, sysroot),
	  .size = PS_JSIZE(HDR, sysroot),
	  .when = hdr_sysroot },
	PS_JEND
};

static const struct ps_jfield rates_table[] = {
	PS_JFIELD(HDR, rates, "available", PS_JT_BOOL, PS_JF_REQUIRED, NULL,
		  NULL),
	{ .key = "interval_s",
	  .type = PS_JT_DOUBLE,
	  .flags = PS_JF_FIXED | PS_JF_REQUIRED,
	  .off = offsetof(HDR, interval_s),
	  .size = PS_JSIZE(HDR, interval_s),
	  .decimals = 3,
	  .when = hdr_rates },
	{ .key = "reason",
	  .type = PS_JT_STRING,
	  .off = offsetof(HDR, rates_reason),
	  .size = PS_JSIZE(HDR, rates_reason),
	  .when = hdr_no_rates },
	PS_JEND
};

static const char *const header_incomplete =
	N_("the snapshot header is incomplete (pipescope_version, "
	   "timestamp_ns)");

/* clang-format off */
static const struct ps_jfield header_table[] = {
	{ .key = "snapshot_version", .type = PS_JT_INT,
	  .flags = PS_JF_REQUIRED, .off = offsetof(HDR, version),
	  .size = PS_JSIZE(HDR, version),
	  .bad = N_("not a pipescope snapshot (no snapshot_version)") },
	{ .key = "pipescope_version", .type = PS_JT_STRING,
	  .flags = PS_JF_REQUIRED, .off = offsetof(HDR, pipescope_version),
	  .size = PS_JSIZE(HDR, pipescope_version), .bad = header_incomplete },
	{ .key = "timestamp", .type = PS_JT_CUSTOM,
	  .codec = &timestamp_codec },
	{ .key = "timestamp_ns", .type = PS_JT_INT, .flags = PS_JF_REQUIRED,
	  .off = offsetof(HDR, time_ns), .size = PS_JSIZE(HDR, time_ns),
	  .bad = header_incomplete },
	{ .key = "host", .type = PS_JT_OBJECT, .sub = host_table,
	  .bad = N_("the snapshot's host section is malformed") },
	{ .key = "source", .type = PS_JT_OBJECT, .sub = source_table,
	  .bad = N_("the snapshot's source section is malformed") },
	{ .key = "rates", .type = PS_JT_OBJECT, .sub = rates_table,
	  .bad = N_("the snapshot's rates section is malformed") },
	{ .key = "iface", .type = PS_JT_OBJECT, .sub = ps_iface_table,
	  .off = offsetof(HDR, iface), .size = PS_JSIZE(HDR, iface),
	  .bad = N_("the snapshot's iface section is malformed") },
	PS_JEND
};
/* clang-format on */

#undef HDR

struct json_object *ps_snapshot_to_json(const struct ps_snapshot *s)
{
	struct json_object *o = ps_jtable_to_json(header_table, &s->hdr);

	for (size_t i = 0; i < ps_probe_count; i++)
		json_object_object_add(o, ps_probe_registry[i]->name,
				       ps_probe_registry[i]->to_json(s));
	return o;
}

char *ps_snapshot_to_string(const struct ps_snapshot *s)
{
	struct json_object *o = ps_snapshot_to_json(s);
	char *text = xstrdup(json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			   JSON_C_TO_STRING_NOSLASHESCAPE));

	json_object_put(o);
	return text;
}

const char *ps_snapshot_text(const struct ps_snapshot *s)
{
	/* the cache is not the snapshot's content: it may be filled through
	 * a const pointer (every snapshot is made writable, on the heap or
	 * the stack) */
	struct ps_snapshot *w = (struct ps_snapshot *)s;
	struct json_object *o;
	char *t, *none = NULL;

	if (!s)
		return NULL;
	t = atomic_load_explicit(&w->text, memory_order_acquire);
	if (t)
		return t;
	o = ps_snapshot_to_json(s);
	t = xstrdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	/* two threads at once: the first text stays */
	if (!atomic_compare_exchange_strong(&w->text, &none, t)) {
		free(t);
		return none;
	}
	return t;
}

static int errf(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int header_from_json(struct json_object *o, struct ps_snapshot_header *h,
			    char *err, size_t errlen)
{
	const struct ps_jfield *bad = ps_jtable_load(o, header_table, h);

	if (bad == header_table)
		return errf(err, errlen, "%s", _(bad->bad));
	if (h->version < 1 || h->version > PS_SNAPSHOT_VERSION)
		return errf(err, errlen,
			    _("snapshot version %d is not one this pipescope "
			      "reads (1 to %d)"),
			    h->version, PS_SNAPSHOT_VERSION);
	if (bad)
		return errf(err, errlen, "%s", _(bad->bad));
	/* a CPU list, or nothing: digits, commas and ranges only */
	if (strspn(h->affinity, "0123456789,-") != strlen(h->affinity))
		h->affinity[0] = 0;
	if (strspn(h->data_threads, "0123456789,-") != strlen(h->data_threads))
		h->data_threads[0] = 0;
	h->seq = 1;
	return 0;
}

int ps_snapshot_from_string(const char *text, size_t len, struct ps_snapshot *s,
			    char *err, size_t errlen)
{
	struct json_tokener *tok;
	struct json_object *o;
	enum json_tokener_error jerr;
	size_t used;
	int rc;

	memset(s, 0, sizeof(*s));
	atomic_init(&s->refs, 1);
	mark_all(s, PS_ST_NOT_RECORDED, "");
	if (len > (size_t)1 << 30)
		return errf(err, errlen, "%s", _("the snapshot is too large"));
	tok = json_tokener_new_ex(64);
	if (!tok)
		return errf(err, errlen, "%s", strerror(ENOMEM));
	o = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	used = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o || jerr != json_tokener_success) {
		json_object_put(o);
		if (jerr == json_tokener_continue ||
		    (!o && jerr == json_tokener_success))
			return errf(err, errlen, "%s",
				    _("the snapshot is truncated (the JSON "
				      "ends early)"));
		return errf(
			err, errlen,
			_("the snapshot is not valid JSON: %s (at byte %zu)"),
			json_tokener_error_desc(jerr), used);
	}
	for (; used < len; used++)
		if (text[used] != ' ' && text[used] != '\n' &&
		    text[used] != '\t' && text[used] != '\r')
			break;
	if (used < len) {
		json_object_put(o);
		return errf(err, errlen,
			    _("the snapshot has extra text after the JSON (at "
			      "byte %zu)"),
			    used);
	}
	rc = ps_snapshot_from_json(o, s, err, errlen);
	json_object_put(o);
	return rc;
}

/*
 * What a snapshot may hold, from the largest real one with a margin. A
 * 256-CPU host whose NIC has 256 queue interrupts (tests/fixtures'
 * wide-256cpu) writes 326 KB: 258 IRQ lines by 256 CPUs, 256 cores; the
 * longest lists of real NICs are a driver's counters (mlx5 with 64
 * channels: about 3000) and an RSS table (ice: 2048). A loader builds a
 * struct for each entry and a row of every CPU for each IRQ line, whatever
 * the entries hold, so "[0,0,...]" of 150 KB would become gigabytes: at
 * most 16384 entries in any list or object, and 163840 cells in the IRQ
 * table (2.5 times the 256-CPU host's; all that a far end's message of
 * 327680 values could list, two values a cell).
 */
#define SNAP_MAX_ITEMS 16384
#define SNAP_MAX_IRQ_CELLS (160 * 1024)
/* a number no counter, time or size reaches (2^62: 4.6 EB, two years of
 * 800 Gbit/s; the clock in ns until 2116): not known, left out */
#define SNAP_MAX_NUMBER 4611686018427387904.0

/* a number that no reading can be (2^63-1, 2^64-1 and the like) */
static bool out_of_range(struct json_object *v)
{
	if (json_object_is_type(v, json_type_int)) {
		int64_t i = json_object_get_int64(v);

		return i > ((int64_t)1 << 62) || i < -((int64_t)1 << 62);
	}
	if (json_object_is_type(v, json_type_double))
		return fabs(json_object_get_double(v)) > SNAP_MAX_NUMBER;
	return false;
}

/* the entries of a list or an object; 0 for anything else */
static size_t entries(struct json_object *o)
{
	if (json_object_is_type(o, json_type_object))
		return (size_t)json_object_object_length(o);
	if (json_object_is_type(o, json_type_array))
		return json_object_array_length(o);
	return 0;
}

/*
 * The document's shape before any loader sees it: no list or object over
 * SNAP_MAX_ITEMS entries, no NaN or Infinity (JSON has none, json-c reads
 * them, and such a snapshot could not be written back); a member whose
 * number is out of range is left out, an element made null, so it reads
 * as not known. The depth is the parser's bound. 0, or -EINVAL with err.
 */
static int shape_check(struct json_object *o, char *err, size_t errlen)
{
	size_t n = entries(o);

	if (json_object_is_type(o, json_type_double) &&
	    !isfinite(json_object_get_double(o)))
		return errf(err, errlen, "%s",
			    _("the snapshot holds a number that is not finite "
			      "(NaN or Infinity)"));
	if (n > SNAP_MAX_ITEMS)
		return errf(err, errlen,
			    _("the snapshot lists %zu entries in one place; "
			      "pipescope reads at most %d"),
			    n, SNAP_MAX_ITEMS);
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v)
		{
			/* the iteration has the next entry already */
			if (out_of_range(v))
				json_object_object_del(o, k);
			else if (shape_check(v, err, errlen))
				return -EINVAL;
		}
	} else if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < n; i++) {
			struct json_object *v = json_object_array_get_idx(o, i);

			if (out_of_range(v))
				json_object_array_put_idx(o, i, NULL);
			else if (shape_check(v, err, errlen))
				return -EINVAL;
		}
	}
	return 0;
}

/*
 * Lists whose entries the loaders turn into structs (and write back as
 * objects) bounded by what hardware has, with room: kernels know about 120
 * link modes and 70 features, a standard statistics group has about 30
 * counters, a NIC at most a queue a CPU and a few hundred CPUs. A "*" is
 * every member of the object there.
 */
static const struct {
	const char *path;
	size_t max;
} snap_lists[] = {
	{ "irq.queues.rx", 2048 },
	{ "irq.queues.tx", 2048 },
	{ "ethtool.features.all", 512 },
	{ "ethtool.link_modes.supported", 512 },
	{ "ethtool.link_modes.advertised", 512 },
	{ "ethtool.link_modes.partner", 512 },
	{ "ethtool.std_stats.groups.*", 512 },
	{ "ethtool.std_stats.groups", 64 },
	{ "link.lower.devices", 256 },
};

/* the largest list at path (dotted, "*" = every member) below o */
static size_t list_at(struct json_object *o, const char *path)
{
	const char *dot = strchr(path, '.');
	size_t klen = dot ? (size_t)(dot - path) : strlen(path);
	char key[48];
	size_t most = 0;

	if (!json_object_is_type(o, json_type_object) || klen >= sizeof(key))
		return 0;
	if (klen == 1 && path[0] == '*') {
		json_object_object_foreach(o, k, v)
		{
			size_t n = dot ? list_at(v, dot + 1) : entries(v);

			(void)k;
			if (n > most)
				most = n;
		}
		return most;
	}
	memcpy(key, path, klen);
	key[klen] = 0;
	if (!json_object_object_get_ex(o, key, &o))
		return 0;
	return dot ? list_at(o, dot + 1) : entries(o);
}

static int lists_check(struct json_object *o, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(snap_lists) / sizeof(snap_lists[0]);
	     i++) {
		size_t n = list_at(o, snap_lists[i].path);

		if (n > snap_lists[i].max)
			return errf(err, errlen,
				    _("the snapshot lists %zu entries in %s; "
				      "pipescope reads at most %zu"),
				    n, snap_lists[i].path, snap_lists[i].max);
	}
	return 0;
}

/* the IRQ table: each of its lines gets a count and a rate for each CPU */
static int irq_cells_check(struct json_object *o, char *err, size_t errlen)
{
	struct json_object *irq = ps_json_get_obj(o, "irq", json_type_object);
	size_t nl = entries(ps_json_get_obj(irq, "lines", json_type_array));
	size_t nc = entries(ps_json_get_obj(irq, "cpus", json_type_array));

	if (nl * nc <= SNAP_MAX_IRQ_CELLS)
		return 0;
	return errf(err, errlen,
		    _("the snapshot's IRQ table is %zu lines by %zu CPUs; "
		      "pipescope reads at most %d cells"),
		    nl, nc, SNAP_MAX_IRQ_CELLS);
}

int ps_snapshot_from_json(struct json_object *o, struct ps_snapshot *s,
			  char *err, size_t errlen)
{
	int rc;

	memset(s, 0, sizeof(*s));
	atomic_init(&s->refs, 1);
	mark_all(s, PS_ST_NOT_RECORDED, "");
	if (!json_object_is_type(o, json_type_object))
		return errf(err, errlen, "%s",
			    _("not a pipescope snapshot (not a JSON object)"));
	if (shape_check(o, err, errlen) || lists_check(o, err, errlen) ||
	    irq_cells_check(o, err, errlen))
		return -EINVAL;
	rc = header_from_json(o, &s->hdr, err, errlen);
	for (size_t i = 0; !rc && i < ps_probe_count; i++) {
		const struct ps_probe_ops *ops = ps_probe_registry[i];
		struct json_object *sec;

		sec = ps_json_get_obj(o, ops->name, json_type_object);
		if (!sec) {
			/*
			 * An older writer, or a probe it did not have: the
			 * module reads an empty section (every group "not
			 * recorded"), and the section says why.
			 */
			struct json_object *empty = json_object_new_object();

			ops->free(s);
			if (ops->from_json(empty, s))
				ops->free(s);
			json_object_put(empty);
			ops->mark(s, PS_ST_NOT_RECORDED,
				  _("not in the snapshot file"));
			continue;
		}
		if (ops->from_json(sec, s))
			rc = errf(err, errlen,
				  _("the snapshot's %s section is malformed"),
				  ops->name);
	}
	if (rc)
		ps_snapshot_free(s);
	return rc;
}

int ps_snapshot_load(const char *file, struct ps_snapshot *s)
{
	char err[256], *text;
	size_t len = 0, cap = 65536, n;
	FILE *f;
	int rc;

	memset(s, 0, sizeof(*s));
	f = strcmp(file, "-") ? fopen(file, "re") : stdin;
	if (!f) {
		rc = -errno;
		ps_err(_("%s: cannot open the snapshot: %s"), file,
		       strerror(errno));
		return rc;
	}
	text = xmalloc(cap);
	while ((n = fread(text + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			if (cap >= (size_t)1 << 30)
				break;
			cap *= 2;
			text = xrealloc(text, cap);
		}
	}
	rc = ferror(f) ? -EIO : 0;
	if (f != stdin)
		fclose(f);
	if (rc) {
		ps_err(_("%s: cannot read the snapshot: %s"), file,
		       strerror(EIO));
		free(text);
		return rc;
	}
	rc = ps_snapshot_from_string(text, len, s, err, sizeof(err));
	free(text);
	if (rc)
		ps_err("%s: %s", file, err);
	return rc;
}

/* ---- text ---- */

void ps_snapshot_print(FILE *out, const struct ps_snapshot *s, bool verbose)
{
	const struct ps_snapshot_header *h = &s->hdr;
	char ts[64];

	fmt_time(ts, sizeof(ts), h->time_ns);
	fprintf(out, "%s %s  %s %s  %s\n", _("host"),
		h->hostname[0] ? h->hostname : "?", _("kernel"),
		h->kernel[0] ? h->kernel : "?", ts);
	if (h->source == PS_SNAP_SYSROOT)
		fprintf(out, _("recorded tree: %s\n"), h->sysroot);
	if (!h->root)
		fprintf(out, "%s\n",
			_("not root: some fields need root and say so"));
	ps_iface_print(out, &h->iface);
	if (h->rates)
		fprintf(out, _("rates over %.2f s\n"), h->interval_s);
	else
		fprintf(out, "%s\n", h->rates_reason);
	for (size_t i = 0; i < ps_probe_count; i++) {
		const struct ps_probe_ops *ops = ps_probe_registry[i];

		if (!verbose && ops->brief) {
			ops->brief(out, s);
			continue;
		}
		fprintf(out, "\n%s\n", _(ops->title));
		ops->print(out, s);
	}
}
