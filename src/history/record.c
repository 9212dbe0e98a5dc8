/* record.c: a run record from what a test or a check leaves: the -J
 * document (made here into memory, whatever the output is), both ends'
 * snapshots, the check report; written once the results are final */
#include "config.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ceiling.h"
#include "clock.h"
#include "log.h"
#include "nls.h"
#include "record.h"
#include "snapshot.h"
#include "thread.h"
#include "xmalloc.h"

/* ---- the spread -------------------------------------------------------- */

void ps_hist_spread_add(struct ps_hist_spread *s, const struct ps_interval *iv)
{
	double bps = 0;

	if (iv->omitted)
		return;
	for (int i = 0; i < 2; i++)
		if (iv->have_sum[i])
			bps += iv->sum[i].bps;
	if (!(bps > 0))
		return;
	s->n++;
	s->sum += bps;
	s->sumsq += bps * bps;
}

double ps_hist_spread_get(const struct ps_hist_spread *s)
{
	double mean, var;

	if (s->n < 2 || !(s->sum > 0))
		return NAN;
	mean = s->sum / s->n;
	var = s->sumsq / s->n - mean * mean;
	return var > 0 ? sqrt(var) / mean : 0;
}

/* ---- writing ----------------------------------------------------------- */

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

bool ps_hist_enabled(const struct ps_opts *o)
{
	char *path = ps_hist_path(o);

	free(path);
	return path != NULL;
}

int64_t ps_hist_save(const struct ps_opts *o, const struct ps_hist_rec *r)
{
	char *path = ps_hist_path(o);
	struct ps_hist *h;
	char err[512];
	int64_t id = 0, t0 = ps_mono_ns();

	if (!path)
		return 0;
	if (!ps_hist_open(path, PS_HIST_WRITE, &h, err, sizeof(err))) {
		if (ps_hist_write(h, r, &id, err, sizeof(err)))
			id = 0;
		ps_hist_close(h);
	}
	if (!id)
		ps_hist_warn_once(err);
	else
		ps_debug("history: run %lld written in %.1f ms", (long long)id,
			 (ps_mono_ns() - t0) / 1e6);
	free(path);
	return id;
}

/* (the text -J wrote of the same snapshot, when it did) */
static char *snap_json(const struct ps_snapshot *s)
{
	return s ? xstrdup(ps_snapshot_text(s)) : NULL;
}

static char *json_text(struct json_object *o)
{
	return o ? xstrdup(json_object_to_json_string_ext(
			   o, JSON_C_TO_STRING_PLAIN))
		 : NULL;
}

/* this end: the snapshot's host, pipescope's version */
/* host, boot id and kernel from the snapshot itself (its text is not
 * parsed again: a far end's may hold 300000 values) */
static void end_from_snap(struct ps_hist_end *e, const struct ps_snapshot *s)
{
	if (!s)
		return;
	if (!e->host[0])
		snprintf(e->host, sizeof(e->host), "%s", s->hdr.hostname);
	snprintf(e->boot_id, sizeof(e->boot_id), "%s", s->hdr.boot_id);
	snprintf(e->kernel, sizeof(e->kernel), "%s", s->hdr.kernel);
}

static void local_end(struct ps_hist_end *e, const struct ps_snapshot *s)
{
	snprintf(e->version, sizeof(e->version), "pipescope %s",
		 PACKAGE_VERSION);
	end_from_snap(e, s);
}

/* the far end: "iperf3 3.12" as it said, the host from its snapshot */
static void far_version(struct ps_hist_end *e, const char *kind,
			const char *version)
{
	if (kind && *kind)
		snprintf(e->version, sizeof(e->version), "%s%s%s", kind,
			 version && *version ? " " : "",
			 version ? version : "");
}

static void far_end(struct ps_hist_end *e, const struct ps_snapshot *s,
		    const char *target)
{
	end_from_snap(e, s);
	if (!e->host[0])
		snprintf(e->host, sizeof(e->host), "%s", target);
}

/* ---- a test: the reporter ---------------------------------------------- */

/*
 * The slow parts stay off the test's end: this end is sampled on a thread
 * of its own while the test runs, and the record is finished (the far
 * end's snapshot as JSON, compression, the transaction) on another while
 * the test's own output is written; destroy waits for it.
 */
struct hrep {
	struct ps_reporter inner;
	const struct ps_opts *o;
	char kind[16];
	struct ps_hist_attach *att; /* the test's check, or NULL */
	/* the -J document of the running test, into memory */
	struct ps_reporter json;
	bool json_live;
	FILE *mem;
	char *buf;
	size_t len;
	struct ps_hist_spread spread;
	/* this end's snapshot, sampled as the test starts */
	pthread_t sampler;
	bool sampling;
	char *local_snap;
	struct ps_hist_end local_end;
	/* the record being written */
	pthread_t writer;
	bool writing;
	struct ps_hist_rec rec;
	struct ps_snapshot *peer; /* a reference, made JSON by the writer */
	int64_t sync_ns;	  /* the end's own time for the record */
	int64_t cpu_ns;		  /* CPU of both parts (a busy machine's
				   * wall clock says little) */
};

static void json_drop(struct hrep *x)
{
	if (!x->json_live)
		return;
	ps_report_destroy(&x->json);
	fclose(x->mem);
	free(x->buf);
	x->buf = NULL;
	x->json_live = false;
}

static void *sample_local(void *arg)
{
	struct hrep *x = arg;
	struct ps_iface_choice iface;
	struct ps_host host = { 0 };

	memset(&x->local_end, 0, sizeof(x->local_end));
	ps_check_iface_choose(x->o, &iface);
	if (!ps_host_sample(&host, &iface, 0)) {
		x->local_snap = snap_json(host.snap);
		local_end(&x->local_end, host.snap);
	}
	ps_host_free(&host);
	return NULL;
}

static void sampler_join(struct hrep *x)
{
	if (x->sampling)
		pthread_join(x->sampler, NULL);
	x->sampling = false;
}

static void *write_record(void *arg)
{
	struct hrep *x = arg;
	struct ps_hist_rec *r = &x->rec;
	int64_t c0 = ps_clock_ns(CLOCK_THREAD_CPUTIME_ID);

	r->snap[1] = snap_json(x->peer);
	far_end(&r->end[1], x->peer, r->target);
	if (x->peer)
		ps_snapshot_put(x->peer);
	x->peer = NULL;
	ps_hist_save(x->o, r);
	ps_hist_rec_free(r);
	x->cpu_ns += ps_clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	return NULL;
}

/* what the record added to the test's end: its part of the end, and the
 * wait for the writer once the test's output is out */
static void writer_join(struct hrep *x)
{
	int64_t t0 = ps_mono_ns();

	if (!x->writing)
		return;
	pthread_join(x->writer, NULL);
	x->writing = false;
	ps_debug("history: the record added %.1f ms to the test's end (%.1f "
		 "ms of CPU)",
		 (x->sync_ns + ps_mono_ns() - t0) / 1e6, x->cpu_ns / 1e6);
}

static void h_start(void *arg, const struct ps_test_info *in)
{
	struct hrep *x = arg;

	if (x->inner.start)
		x->inner.start(x->inner.arg, in);
	json_drop(x);
	writer_join(x);
	sampler_join(x);
	free(x->local_snap);
	x->local_snap = NULL;
	memset(&x->spread, 0, sizeof(x->spread));
	x->mem = open_memstream(&x->buf, &x->len);
	if (!x->mem)
		return;
	ps_report_json_init(&x->json, x->o, x->mem, false);
	x->json_live = true;
	x->json.start(x->json.arg, in);
	if (!in->server && !ps_thread_start(&x->sampler, sample_local, x))
		x->sampling = true;
}

static void h_interval(void *arg, const struct ps_interval *iv)
{
	struct hrep *x = arg;

	if (x->inner.interval)
		x->inner.interval(x->inner.arg, iv);
	if (!x->json_live)
		return;
	x->json.interval(x->json.arg, iv);
	ps_hist_spread_add(&x->spread, iv);
}

static void h_error(void *arg, const char *msg)
{
	struct hrep *x = arg;

	if (x->inner.error)
		x->inner.error(x->inner.arg, msg);
	/* a test that failed is not a run to compare with */
	json_drop(x);
}

static void h_message(void *arg, const char *msg)
{
	struct hrep *x = arg;

	if (x->inner.message)
		x->inner.message(x->inner.arg, msg);
}

static void h_destroy(void *arg)
{
	struct hrep *x = arg;

	json_drop(x);
	/* the test's own output first, then wait for its record */
	ps_report_destroy(&x->inner);
	writer_join(x);
	sampler_join(x);
	free(x->local_snap);
	free(x);
}

/* the test's parameters: -J's start.test_start */
static char *test_params(struct json_object *doc)
{
	struct json_object *st, *ts;

	if (json_object_object_get_ex(doc, "start", &st) &&
	    json_object_object_get_ex(st, "test_start", &ts))
		return json_text(ts);
	return NULL;
}

static char *test_extras(const struct hrep *x, const struct ps_summary *sum,
			 double spread)
{
	struct json_object *e = json_object_new_object();
	char *t;

	json_object_object_add(e, "kind", json_object_new_string(x->kind));
	json_object_object_add(e, "partial",
			       json_object_new_boolean(sum->partial));
	if (sum->stopped)
		json_object_object_add(e, "stopped",
				       json_object_new_boolean(true));
	json_object_object_add(e, "duration",
			       json_object_new_double(sum->duration));
	if (isfinite(spread))
		json_object_object_add(e, "spread",
				       json_object_new_double(spread));
	if (x->o->iface)
		json_object_object_add(e, "iface",
				       json_object_new_string(x->o->iface));
	/* -J's pipescope.peer_snapshot is the record's far-end snapshot:
	 * kept once, put back by --export */
	json_object_object_add(e, "peer_snapshot_in_result",
			       json_object_new_boolean(sum->peer_snap != NULL));
	t = json_text(e);
	json_object_put(e);
	return t;
}

/* doc.end.KEY.FIELD as a number, NAN when absent */
static double end_num(struct json_object *doc, const char *key,
		      const char *field)
{
	struct json_object *e, *k, *v;

	if (json_object_object_get_ex(doc, "end", &e) &&
	    json_object_object_get_ex(e, key, &k) &&
	    json_object_object_get_ex(k, field, &v) &&
	    (json_object_is_type(v, json_type_double) ||
	     json_object_is_type(v, json_type_int)))
		return json_object_get_double(v);
	return NAN;
}

static double end_bps(struct json_object *doc, const char *key)
{
	return end_num(doc, key, "bits_per_second");
}

/* a UDP run's share of datagrams lost, as its receivers counted them
 * (end.sum, and end.sum_bidir_reverse for both directions); NAN when no
 * datagram was counted */
static double udp_loss(struct json_object *doc, bool bidir)
{
	double lost = end_num(doc, "sum", "lost_packets"),
	       packets = end_num(doc, "sum", "packets");

	if (bidir) {
		double l2 = end_num(doc, "sum_bidir_reverse", "lost_packets"),
		       p2 = end_num(doc, "sum_bidir_reverse", "packets");

		if (isfinite(l2) && isfinite(p2)) {
			lost += l2;
			packets += p2;
		}
	}
	if (!(packets > 0) || !(lost >= 0) || lost > packets)
		return NAN;
	return lost / packets;
}

/* the run's rate: iperf3's end.sum_received, or sum_sent when nothing was
 * received here; of UDP what arrived, by the receivers' counts, since a
 * sender's rate hides its loss */
static double run_bps(const struct ps_test_info *in,
		      const struct ps_summary *sum)
{
	if (in->proto == PS_PROTO_UDP && sum->duration > 0 &&
	    (sum->remote_valid || !sum->have_sent)) {
		double sent, received;

		ps_summary_bytes(sum, &sent, &received);
		return received * 8 / sum->duration;
	}
	return sum->have_received ? sum->sum_received.bps
	       : sum->have_sent	  ? sum->sum_sent.bps
				  : NAN;
}

static void test_record(struct hrep *x, const struct ps_test_info *in,
			const struct ps_summary *sum)
{
	struct ps_hist_rec *r = &x->rec;
	struct ps_summary lean = *sum;
	struct json_object *doc;
	const char *target;
	int64_t t0 = ps_mono_ns(), c0 = ps_clock_ns(CLOCK_THREAD_CPUTIME_ID);

	memset(r, 0, sizeof(*r));
	r->time_ns = now_ns();
	/* the document without the far end's snapshot (kept on its own) */
	lean.peer_snap = NULL;
	x->json.end(x->json.arg, in, &lean);
	ps_report_destroy(&x->json);
	fclose(x->mem);
	x->json_live = false;
	doc = json_tokener_parse(x->buf ? x->buf : "");
	free(x->buf);
	x->buf = NULL;

	target = in->ntargets > 0 && in->target_host[0] ? in->target_host[0]
		 : x->o->ntargets			? x->o->targets[0].host
							: "127.0.0.1";
	snprintf(r->kind, sizeof(r->kind), "%s", x->kind);
	snprintf(r->target, sizeof(r->target), "%s", target);
	r->port = in->ntargets > 0 && in->target_port[0] ? in->target_port[0]
							 : x->o->port;
	snprintf(r->proto, sizeof(r->proto), "%s",
		 in->proto == PS_PROTO_UDP ? "udp" : "tcp");
	snprintf(r->direction, sizeof(r->direction), "%s",
		 in->bidir     ? "bidir"
		 : in->reverse ? "reverse"
			       : "forward");
	r->streams = in->parallel;
	snprintf(r->ended, sizeof(r->ended), "%s",
		 sum->stopped	? "stopped"
		 : sum->partial ? "partial"
				: "done");
	r->bps = run_bps(in, sum);
	/* both directions at once: what both receivers counted (the
	 * summary's sums are one direction's) */
	if (in->bidir && in->proto != PS_PROTO_UDP) {
		double a = end_bps(doc, "sum_received"),
		       b = end_bps(doc, "sum_received_bidir_reverse");

		if (isfinite(a) && isfinite(b) && a >= 0 && b >= 0)
			r->bps = a + b;
	}
	r->loss = in->proto == PS_PROTO_UDP ? udp_loss(doc, in->bidir) : NAN;
	r->spread = ps_hist_spread_get(&x->spread);
	r->result = json_text(doc);
	r->params = test_params(doc);
	r->extras = test_extras(x, sum, r->spread);
	json_object_put(doc);
	if (x->att && x->att->check) {
		r->check = x->att->check;
		x->att->check = NULL;
		snprintf(r->top_finding, sizeof(r->top_finding), "%s",
			 x->att->top);
	}

	sampler_join(x);
	r->snap[0] = x->local_snap;
	x->local_snap = NULL;
	r->end[0] = x->local_end;
	local_end(&r->end[0], NULL);
	far_version(&r->end[1], in->peer_kind, in->peer_version);
	x->peer =
		sum->peer_snap
			? ps_snapshot_get((struct ps_snapshot *)sum->peer_snap)
			: NULL;
	x->sync_ns = ps_mono_ns() - t0;
	x->cpu_ns = ps_clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	if (!ps_thread_start(&x->writer, write_record, x))
		x->writing = true;
	else
		write_record(x);
}

static void h_end(void *arg, const struct ps_test_info *in,
		  const struct ps_summary *sum)
{
	struct hrep *x = arg;

	if (x->inner.end)
		x->inner.end(x->inner.arg, in, sum);
	if (x->json_live && !in->server)
		test_record(x, in, sum);
	json_drop(x);
}

void ps_hist_wrap_reporter(struct ps_reporter *rep, const struct ps_opts *o,
			   const char *kind)
{
	ps_hist_wrap_reporter_attach(rep, o, kind, NULL);
}

void ps_hist_wrap_reporter_attach(struct ps_reporter *rep,
				  const struct ps_opts *o, const char *kind,
				  struct ps_hist_attach *att)
{
	struct hrep *x;

	if (!ps_hist_enabled(o))
		return; /* --no-history */
	x = xcalloc(1, sizeof(*x));
	x->inner = *rep;
	x->o = o;
	x->att = att;
	snprintf(x->kind, sizeof(x->kind), "%s", kind);
	*rep = (struct ps_reporter){ .start = h_start,
				     .interval = h_interval,
				     .end = h_end,
				     .error = h_error,
				     .message = h_message,
				     .destroy = h_destroy,
				     .arg = x };
}

/* ---- a check ----------------------------------------------------------- */

static char *check_params(const struct ps_opts *o)
{
	struct json_object *p = json_object_new_object();
	char *t;

	json_object_object_add(p, "quick", json_object_new_boolean(o->quick));
	if (o->iface)
		json_object_object_add(p, "iface",
				       json_object_new_string(o->iface));
	if (o->sysroot)
		json_object_object_add(p, "sysroot",
				       json_object_new_string(o->sysroot));
	if (o->snapshot)
		json_object_object_add(p, "snapshot",
				       json_object_new_string(o->snapshot));
	t = json_text(p);
	json_object_put(p);
	return t;
}

int64_t ps_hist_record_check(const struct ps_opts *o,
			     const struct ps_check_report *cr, double spread)
{
	const struct ps_run *res = cr->ev->res;
	const struct ps_step_result *best = res ? ps_run_best(res) : NULL;
	const struct ps_outcome *top = ps_diagnosis_ranked(cr->d, 0);
	struct ps_hist_rec r = {
		.time_ns = now_ns(), .bps = NAN, .loss = NAN, .spread = spread
	};
	struct json_object *rep;
	struct json_object *e;
	char *path = ps_hist_path(o);
	int64_t id;

	if (!path)
		return 0;
	free(path);
	snprintf(r.kind, sizeof(r.kind), "%s", res ? "check" : "static");
	snprintf(r.target, sizeof(r.target), "%s", res ? res->peer : "");
	r.port = o->ntargets && o->targets[0].port ? o->targets[0].port
						   : o->port;
	snprintf(r.proto, sizeof(r.proto), "tcp");
	snprintf(r.direction, sizeof(r.direction), "%s",
		 !best		 ? "none"
		 : best->bidir	 ? "bidir"
		 : best->reverse ? "reverse"
				 : "forward");
	if (best) {
		r.streams = best->streams;
		r.bps = best->bps;
	}
	if (top)
		snprintf(r.top_finding, sizeof(r.top_finding), "%s",
			 top->f.title);
	rep = ps_check_report_json(cr);
	r.check = json_text(rep);
	json_object_put(rep);
	r.params = check_params(o);
	e = json_object_new_object();
	json_object_object_add(e, "kind", json_object_new_string(r.kind));
	if (isfinite(spread))
		json_object_object_add(e, "spread",
				       json_object_new_double(spread));
	r.extras = json_text(e);
	json_object_put(e);
	r.snap[0] = snap_json(cr->ev->snap);
	r.snap[1] = snap_json(res ? res->peer_snap : NULL);
	local_end(&r.end[0], cr->ev->snap);
	if (res) {
		far_version(&r.end[1], res->peer_kind, res->peer_version);
		far_end(&r.end[1], res->peer_snap, res->peer);
	}
	id = ps_hist_save(o, &r);
	ps_hist_rec_free(&r);
	return id;
}
