/* metrics.c: "pipescope history --export openmetrics": per target the
 * newest run of each protocol and direction (its rate, retransmits, UDP
 * loss, when it ended) and the newest check (its top finding, binding
 * ceiling), as the Prometheus text format node_exporter's textfile
 * collector reads, in the part of it that OpenMetrics reads too */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "jsonutil.h"
#include "metrics.h"
#include "sanitize.h"
#include "xmalloc.h"

/* ---- the values -------------------------------------------------------- */

void ps_om_label(char *dst, size_t cap, const char *s)
{
	/* '\n' and '\t' become "\x0a", "\x09": no line is ever broken */
	ps_sanitize(dst, cap, s, 0);
}

void ps_om_number(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", "");
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	/* the shortest of the two that reads back as the same double */
	snprintf(buf, len, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, len, "%.17g", v);
}

static struct json_object *parsed(const char *text)
{
	struct json_object *o = text ? json_tokener_parse(text) : NULL;

	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

/* obj[key] as a number that may be a rate or a count: finite and not
 * negative; else NAN (json-c reads NaN and Infinity in a hostile file) */
static double count(struct json_object *obj, const char *key)
{
	double v;

	if (!obj || ps_json_get_double(obj, key, &v) || !isfinite(v) || v < 0)
		return NAN;
	return v;
}

/* what a test's receiver counted of one direction: its rate, the loss
 * (UDP), and the sender's retransmits (TCP) */
static void test_dir(struct json_object *end, const struct ps_hist_rec *r,
		     bool bidir_back, struct ps_om_dir *d)
{
	const char *rk =
		bidir_back ? "sum_received_bidir_reverse" : "sum_received";
	const char *sk = bidir_back ? "sum_sent_bidir_reverse" : "sum_sent";
	const char *uk = bidir_back ? "sum_bidir_reverse" : "sum";
	struct json_object *rx = ps_json_get_obj(end, rk, json_type_object);
	struct json_object *tx = ps_json_get_obj(end, sk, json_type_object);
	struct json_object *u = ps_json_get_obj(end, uk, json_type_object);
	double lost, packets;

	d->bps = count(rx, "bits_per_second");
	/* the record's own rate is the receivers' sum of a one-way test */
	if (!isfinite(d->bps) && strcmp(r->direction, "bidir") &&
	    isfinite(r->bps) && r->bps >= 0)
		d->bps = r->bps;
	d->retransmits = NAN;
	d->loss = NAN;
	if (!strcmp(d->proto, "tcp")) {
		d->retransmits = count(tx, "retransmits");
		return;
	}
	lost = count(rx, "lost_packets");
	packets = count(rx, "packets");
	if (!isfinite(lost) || !isfinite(packets)) {
		lost = count(u, "lost_packets");
		packets = count(u, "packets");
	}
	/* a share of what was sent: a file's lost beyond its packets is no
	 * ratio */
	if (packets > 0 && lost <= packets)
		d->loss = lost / packets;
}

static void dir_init(struct ps_om_dir *d, const struct ps_hist_rec *r,
		     const char *target, const char *proto, const char *dir)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->target, sizeof(d->target), "%s", target);
	snprintf(d->proto, sizeof(d->proto), "%s", proto);
	snprintf(d->dir, sizeof(d->dir), "%s", dir);
	d->id = r->id;
	d->time_ns = r->time_ns;
	d->bps = d->retransmits = d->loss = NAN;
}

int ps_om_from_test(const struct ps_hist_rec *r, const char *target,
		    struct ps_om_dir d[2])
{
	struct json_object *doc, *end;
	bool fwd = !strcmp(r->direction, "forward");
	bool rev = !strcmp(r->direction, "reverse");
	bool bidir = !strcmp(r->direction, "bidir");
	int n = 0;

	if (strcmp(r->proto, "tcp") && strcmp(r->proto, "udp"))
		return 0;
	if (!fwd && !rev && !bidir)
		return 0;
	doc = parsed(r->result);
	end = doc ? ps_json_get_obj(doc, "end", json_type_object) : NULL;
	if (fwd || bidir) {
		dir_init(&d[n], r, target, r->proto, "out");
		test_dir(end, r, false, &d[n++]);
	}
	if (rev || bidir) {
		dir_init(&d[n], r, target, r->proto, "in");
		test_dir(end, r, bidir, &d[n++]);
	}
	json_object_put(doc);
	return n;
}

/* a string member as a label value; "" when missing */
static void label_of(struct json_object *o, const char *key, char *dst,
		     size_t cap)
{
	struct json_object *v;

	dst[0] = 0;
	if (o && json_object_object_get_ex(o, key, &v) &&
	    json_object_is_type(v, json_type_string))
		ps_om_label(dst, cap, json_object_get_string(v));
}

/* the top finding's severity and title, from the ranked findings */
static void top_finding(struct json_object *check, struct ps_om_check *c)
{
	struct json_object *fs =
		ps_json_get_obj(check, "findings", json_type_array);
	size_t n = fs ? json_object_array_length(fs) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(fs, i);
		char id[PS_OM_LABEL_MAX];

		if (!json_object_is_type(f, json_type_object))
			continue;
		label_of(f, "id", id, sizeof(id));
		if (strcmp(id, c->top))
			continue;
		label_of(f, "severity", c->severity, sizeof(c->severity));
		label_of(f, "title", c->title, sizeof(c->title));
		return;
	}
}

int ps_om_from_check(const struct ps_hist_rec *r, const char *target,
		     struct ps_om_check *c, struct ps_om_dir d[2])
{
	struct json_object *check = parsed(r->check), *answer, *dirs, *bind;
	bool b;
	size_t nd;
	int n = 0;

	memset(c, 0, sizeof(*c));
	snprintf(c->target, sizeof(c->target), "%s", target);
	c->id = r->id;
	c->time_ns = r->time_ns;
	c->bottleneck = -1;
	c->ceiling_bps = NAN;
	answer = check ? ps_json_get_obj(check, "answer", json_type_object)
		       : NULL;
	if (!answer) {
		json_object_put(check);
		return 0;
	}
	if (!ps_json_get_bool(answer, "bottleneck", &b))
		c->bottleneck = b;
	label_of(answer, "top", c->top, sizeof(c->top));
	if (c->top[0]) {
		top_finding(check, c);
		if (!c->title[0] && r->top_finding[0])
			ps_om_label(c->title, sizeof(c->title), r->top_finding);
	}
	bind = ps_json_get_obj(answer, "binding", json_type_object);
	if (bind) {
		c->ceiling_bps = count(bind, "bps");
		label_of(bind, "id", c->ceiling, sizeof(c->ceiling));
	}
	/* each direction once: the first the answer names */
	dirs = ps_json_get_obj(answer, "directions", json_type_array);
	nd = dirs ? json_object_array_length(dirs) : 0;
	for (size_t i = 0; i < nd && n < 2; i++) {
		struct json_object *x = json_object_array_get_idx(dirs, i);
		char dir[8];
		double bps;

		if (!json_object_is_type(x, json_type_object) ||
		    ps_json_get_string(x, "direction", dir, sizeof(dir)) ||
		    (strcmp(dir, "out") && strcmp(dir, "in")) ||
		    (n == 1 && !strcmp(d[0].dir, dir)))
			continue;
		bps = count(x, "measured_bps");
		if (!isfinite(bps))
			continue;
		dir_init(&d[n], r, target, "tcp", dir);
		d[n++].bps = bps;
	}
	json_object_put(check);
	return n;
}

/* ---- the newest of each ------------------------------------------------ */

/* a run of the list, with its target as a label */
struct row {
	const struct ps_hist_rec *r;
	char *target;
};

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->target, y->target);

	if (c)
		return c;
	/* newest first */
	if (x->r->time_ns != y->r->time_ns)
		return x->r->time_ns > y->r->time_ns ? -1 : 1;
	return x->r->id > y->r->id ? -1 : x->r->id < y->r->id;
}

static bool is_check(const struct ps_hist_rec *r)
{
	return !strcmp(r->kind, "check") || !strcmp(r->kind, "static");
}

/* the slots of one target: tcp out, tcp in, udp out, udp in */
static int slot_of(const char *proto, const char *dir)
{
	return (strcmp(proto, "tcp") ? 2 : 0) + (strcmp(dir, "out") ? 1 : 0);
}

/* the slots a test of r's protocol and direction may fill (a bit each) */
static unsigned test_slots(const struct ps_hist_rec *r)
{
	unsigned s = 0;

	if (strcmp(r->proto, "tcp") && strcmp(r->proto, "udp"))
		return 0;
	if (!strcmp(r->direction, "forward") || !strcmp(r->direction, "bidir"))
		s |= 1u << slot_of(r->proto, "out");
	if (!strcmp(r->direction, "reverse") || !strcmp(r->direction, "bidir"))
		s |= 1u << slot_of(r->proto, "in");
	return s;
}

/* one target's runs, newest first: each slot from the newest run that
 * measured it, the check from the newest check */
static int one_target(struct ps_hist *h, const struct row *v, size_t n,
		      struct ps_om *m, size_t *dcap, size_t *ccap, char *err,
		      size_t errlen)
{
	struct ps_om_dir slot[4];
	unsigned filled = 0;
	bool checked = false;

	for (size_t i = 0; i < n && (filled != 15 || !checked); i++) {
		const struct ps_hist_rec *lr = v[i].r;
		bool chk = is_check(lr);
		unsigned want = chk ? 0 : test_slots(lr) & ~filled;
		struct ps_hist_rec r;
		struct ps_om_dir d[2];
		struct ps_om_check c;
		int nd, rc;

		if (chk ? checked : !want)
			continue;
		rc = ps_hist_get_docs(h, lr->id, &r, err, errlen);
		if (rc == -ENOENT) /* gone since the list was read */
			continue;
		if (rc)
			return rc;
		if (chk) {
			nd = ps_om_from_check(&r, v[i].target, &c, d);
			if (m->ncheck == *ccap) {
				*ccap = *ccap ? 2 * *ccap : 16;
				m->check = xrealloc(m->check,
						    *ccap * sizeof(*m->check));
			}
			m->check[m->ncheck++] = c;
			checked = true;
		} else {
			nd = ps_om_from_test(&r, v[i].target, d);
		}
		ps_hist_rec_free(&r);
		for (int k = 0; k < nd; k++) {
			int s = slot_of(d[k].proto, d[k].dir);

			if (filled & (1u << s))
				continue;
			slot[s] = d[k];
			filled |= 1u << s;
		}
	}
	for (int s = 0; s < 4; s++) {
		if (!(filled & (1u << s)))
			continue;
		if (m->ndir == *dcap) {
			*dcap = *dcap ? 2 * *dcap : 16;
			m->dir = xrealloc(m->dir, *dcap * sizeof(*m->dir));
		}
		m->dir[m->ndir++] = slot[s];
	}
	return 0;
}

int ps_om_collect(struct ps_hist *h, const char *target, struct ps_om *m,
		  char *err, size_t errlen)
{
	struct ps_hist_rec *rows;
	struct row *v;
	size_t dcap = 0, ccap = 0;
	int n, rc = 0;

	memset(m, 0, sizeof(*m));
	n = ps_hist_list(h, target, 0, &rows, err, errlen);
	if (n < 0)
		return n;
	v = xcalloc(n ? (size_t)n : 1, sizeof(*v));
	for (int i = 0; i < n; i++) {
		/* a static check has no far host: the host it checked */
		const char *t = rows[i].target[0] ? rows[i].target
						  : rows[i].end[0].host;

		v[i].r = &rows[i];
		v[i].target = xmalloc(PS_OM_LABEL_MAX);
		ps_om_label(v[i].target, PS_OM_LABEL_MAX, t);
	}
	/* grouped by the label, not the stored name: two names a hostile
	 * file makes alike once sanitised are one target, never two series
	 * with the same labels */
	qsort(v, (size_t)n, sizeof(*v), row_cmp);
	for (size_t i = 0; i < (size_t)n && !rc;) {
		size_t j = i + 1;

		while (j < (size_t)n && !strcmp(v[j].target, v[i].target))
			j++;
		rc = one_target(h, v + i, j - i, m, &dcap, &ccap, err, errlen);
		i = j;
	}
	for (int i = 0; i < n; i++)
		free(v[i].target);
	free(v);
	free(rows);
	if (rc)
		ps_om_free(m);
	return rc;
}

void ps_om_free(struct ps_om *m)
{
	free(m->dir);
	free(m->check);
	memset(m, 0, sizeof(*m));
}

/* ---- the text ---------------------------------------------------------- */

/* a label value with the format's escapes: \\, \" and \n */
static void put_value(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', out);
		if (*s == '\n') {
			fputs("\\n", out);
			continue;
		}
		fputc(*s, out);
	}
	fputc('"', out);
}

/* a label: its name and where its value (a string) is in an element */
struct label {
	const char *name;
	size_t off;
};

/* a family: its name, its help (English, as Prometheus keeps one help per
 * name across a fleet whatever each host's language) and how to read a
 * sample's value and labels from an element */
struct family {
	const char *name;
	const char *help;
	bool of_checks; /* the elements are m->check, else m->dir */
	double (*value)(const void *e);
	const struct label *labels; /* ends with a NULL name */
};

/* Prometheus's base unit is the byte (its naming conventions; promtool's
 * lint refuses "bits"), node_exporter's NIC counters are bytes: a test's
 * rate and the NIC's compare without a factor. pipescope's bit/s / 8. */
static double dir_bytes(const void *e)
{
	return ((const struct ps_om_dir *)e)->bps / 8;
}

static double dir_retrans(const void *e)
{
	return ((const struct ps_om_dir *)e)->retransmits;
}

static double dir_loss(const void *e)
{
	return ((const struct ps_om_dir *)e)->loss;
}

static double seconds(int64_t ns)
{
	/* to the millisecond, as the format's timestamps are */
	return ns > 0 ? (double)(ns / 1000000) / 1000 : NAN;
}

static double dir_time(const void *e)
{
	return seconds(((const struct ps_om_dir *)e)->time_ns);
}

static double dir_id(const void *e)
{
	return (double)((const struct ps_om_dir *)e)->id;
}

static const struct label dir_labels[] = {
	{ "target", offsetof(struct ps_om_dir, target) },
	{ "protocol", offsetof(struct ps_om_dir, proto) },
	{ "direction", offsetof(struct ps_om_dir, dir) },
	{ NULL, 0 },
};

static double chk_time(const void *e)
{
	return seconds(((const struct ps_om_check *)e)->time_ns);
}

static double chk_id(const void *e)
{
	return (double)((const struct ps_om_check *)e)->id;
}

static double chk_bottleneck(const void *e)
{
	const struct ps_om_check *c = e;

	return c->bottleneck < 0 ? NAN : c->bottleneck;
}

static double chk_ceiling(const void *e)
{
	return ((const struct ps_om_check *)e)->ceiling_bps / 8;
}

static const struct label chk_labels[] = {
	{ "target", offsetof(struct ps_om_check, target) },
	{ NULL, 0 },
};

static const struct label chk_ceiling_labels[] = {
	{ "target", offsetof(struct ps_om_check, target) },
	{ "ceiling", offsetof(struct ps_om_check, ceiling) },
	{ NULL, 0 },
};

/* 1 for a check with a top finding; none without */
static double chk_top(const void *e)
{
	return ((const struct ps_om_check *)e)->top[0] ? 1 : NAN;
}

static const struct label chk_top_labels[] = {
	{ "target", offsetof(struct ps_om_check, target) },
	{ "finding", offsetof(struct ps_om_check, top) },
	{ "severity", offsetof(struct ps_om_check, severity) },
	{ "title", offsetof(struct ps_om_check, title) },
	{ NULL, 0 },
};

static const struct family families[] = {
	{ "pipescope_throughput_bytes_per_second",
	  "Rate of the newest run per target, protocol and direction (out: "
	  "this host sends, in: the target sends), as its receiver counted it",
	  false, dir_bytes, dir_labels },
	{ "pipescope_tcp_retransmitted_segments",
	  "Segments the sender retransmitted in that run (TCP)", false,
	  dir_retrans, dir_labels },
	{ "pipescope_udp_loss_ratio",
	  "Share of the datagrams sent in that run that did not arrive (UDP)",
	  false, dir_loss, dir_labels },
	{ "pipescope_run_timestamp_seconds",
	  "When that run ended, in seconds since the epoch", false, dir_time,
	  dir_labels },
	{ "pipescope_run_id",
	  "That run's id in the history (pipescope compare ID)", false, dir_id,
	  dir_labels },
	{ "pipescope_check_timestamp_seconds",
	  "When the newest check of the target ended, in seconds since the "
	  "epoch",
	  true, chk_time, chk_labels },
	{ "pipescope_check_run_id",
	  "The newest check's id in the history (pipescope compare ID)", true,
	  chk_id, chk_labels },
	{ "pipescope_check_bottleneck",
	  "1 when the newest check found a bottleneck (its exit status 3), "
	  "else 0",
	  true, chk_bottleneck, chk_labels },
	{ "pipescope_binding_ceiling_bytes_per_second",
	  "The newest check's binding ceiling: the computed limit nearest the "
	  "measured rate",
	  true, chk_ceiling, chk_ceiling_labels },
	{ "pipescope_top_finding_info",
	  "The newest check's top finding (1; no sample when it found none)",
	  true, chk_top, chk_top_labels },
};

static void write_family(FILE *out, const struct family *f,
			 const struct ps_om *m)
{
	size_t n = f->of_checks ? m->ncheck : m->ndir;
	bool head = false;

	for (size_t i = 0; i < n; i++) {
		const void *e = f->of_checks ? (const void *)&m->check[i]
					     : (const void *)&m->dir[i];
		char num[40];

		ps_om_number(num, sizeof(num), f->value(e));
		if (!num[0])
			continue;
		if (!head) {
			fprintf(out, "# HELP %s %s\n", f->name, f->help);
			fprintf(out, "# TYPE %s gauge\n", f->name);
			head = true;
		}
		fprintf(out, "%s{", f->name);
		for (const struct label *l = f->labels; l->name; l++) {
			fprintf(out, "%s%s=", l == f->labels ? "" : ",",
				l->name);
			put_value(out, (const char *)e + l->off);
		}
		fprintf(out, "} %s\n", num);
	}
}

void ps_om_write(FILE *out, const struct ps_om *m)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		write_family(out, &families[i], m);
	fputs("# EOF\n", out);
}
