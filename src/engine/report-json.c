/* report-json.c: iperf3's -J document and --json-stream events, plus
 * "pipescope" */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "engine.h"
#include "net.h"
#include "sanitize.h"
#include "snapshot.h"
#include "xmalloc.h"

struct jrep {
	const struct ps_opts *o;
	FILE *out;
	bool stream; /* --json-stream: one event per line */
	struct json_object *doc;
	struct json_object *intervals;
	struct json_object *extra;	 /* the "pipescope" key */
	struct json_object *live_remote; /* far end's TCP_INFO per interval */
	enum ps_proto proto;
	bool bidir;
	bool server;
	bool ended;
	bool failed;	 /* an error was reported */
	char title[256]; /* a server's: the client's -T */
};

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *jint(int64_t v)
{
	return json_object_new_int64(v);
}
static struct json_object *jdbl(double v)
{
	return json_object_new_double(v);
}

/* JSON has no NaN or Infinity (json-c would write them bare) */
static bool not_finite(struct json_object *v)
{
	return json_object_is_type(v, json_type_double) &&
	       !isfinite(json_object_get_double(v));
}

/*
 * Before a document goes out: every NaN or Infinity in it (a far end's
 * results, live data or probe snapshot can hold them) becomes null, the
 * key stays. The depth is bounded by the parsers that read the far end.
 */
static void nulls_for_nonfinite(struct json_object *o)
{
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v)
		{
			if (not_finite(v))
				json_object_object_add(o, k, NULL);
			else
				nulls_for_nonfinite(v);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		size_t n = json_object_array_length(o);

		for (size_t i = 0; i < n; i++) {
			struct json_object *v = json_object_array_get_idx(o, i);

			if (not_finite(v))
				json_object_array_put_idx(o, i, NULL);
			else
				nulls_for_nonfinite(v);
		}
	}
}
static struct json_object *jstr(const char *s)
{
	return json_object_new_string(s ? s : "");
}
static struct json_object *jbool(bool b)
{
	return json_object_new_boolean(b);
}

static void emit(struct jrep *x, const char *event, struct json_object *data)
{
	struct json_object *o = json_object_new_object();

	add(o, "event", jstr(event));
	add(o, "data", json_object_get(data));
	nulls_for_nonfinite(o);
	fprintf(x->out, "%s\n",
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	fflush(x->out);
	json_object_put(o);
}

static struct json_object *stream_obj(const struct ps_stream_iv *v, bool udp,
				      bool sum)
{
	struct json_object *o = json_object_new_object();

	if (!sum)
		add(o, "socket", jint(v->fd));
	add(o, "start", jdbl(v->start));
	add(o, "end", jdbl(v->end));
	add(o, "seconds", jdbl(v->end - v->start));
	add(o, "bytes", jint((int64_t)v->bytes));
	add(o, "bits_per_second", jdbl(v->bps));
	if (udp) {
		if (v->sender) {
			add(o, "packets", jint((int64_t)v->packets));
		} else {
			uint64_t total = v->packets +
					 (v->lost > 0 ? (uint64_t)v->lost : 0);

			add(o, "jitter_ms", jdbl(v->jitter_ms));
			add(o, "lost_packets", jint(v->lost));
			add(o, "packets", jint((int64_t)total));
			add(o, "lost_percent",
			    jdbl(total ? 100.0 * v->lost / (double)total : 0));
		}
	} else if (v->sender && v->has_tcpinfo) {
		add(o, "retransmits", jint(v->retrans));
		if (!sum) {
			add(o, "snd_cwnd", jint((int64_t)v->cwnd));
			add(o, "snd_wnd", jint((int64_t)v->snd_wnd));
			add(o, "rtt", jint(v->rtt_us));
			add(o, "rttvar", jint(v->rttvar_us));
			add(o, "pmtu", jint(v->pmtu));
			add(o, "reorder", jint(v->reorder));
		}
	}
	add(o, "omitted", jbool(v->omitted));
	add(o, "sender", jbool(v->sender));
	return o;
}

/* pipescope's per-stream extras: why a flow is slow and where it ran */
static struct json_object *extra_obj(const struct ps_stream_iv *v)
{
	struct json_object *o = json_object_new_object();
	const char *why = ps_limit_reason(v);

	add(o, "socket", jint(v->fd));
	add(o, "id", jint(v->id));
	add(o, "sender", jbool(v->sender));
	add(o, "cpu", jint(v->cpu));
	add(o, "rx_cpu", jint(v->rx_cpu));
	if (!v->sender && v->rx_batch > 0)
		add(o, "rx_batch", jint(v->rx_batch));
	if (v->has_tcpinfo) {
		add(o, "min_rtt", jint(v->min_rtt_us));
		add(o, "mss", jint(v->mss));
		add(o, "delivery_rate", jint((int64_t)v->delivery_bps));
		add(o, "pacing_rate", jint((int64_t)v->pacing_bps));
		add(o, "busy_us", jint((int64_t)v->busy_us));
		add(o, "rwnd_limited_us", jint((int64_t)v->rwnd_limited_us));
		add(o, "sndbuf_limited_us",
		    jint((int64_t)v->sndbuf_limited_us));
		add(o, "app_limited", jbool(v->app_limited));
		add(o, "limited_by", why ? jstr(why) : NULL);
	}
	return o;
}

/* what iperf3's start has even when the test never began */
static void start_basics(struct json_object *st, struct json_object *conn)
{
	struct utsname u;
	char sys[400];

	add(st, "connected", conn);
	add(st, "version", jstr("pipescope " PACKAGE_VERSION));
	uname(&u);
	snprintf(sys, sizeof(sys), "%s %s %s %s %s", u.sysname, u.nodename,
		 u.release, u.version, u.machine);
	add(st, "system_info", jstr(sys));
}

static void j_start(void *arg, const struct ps_test_info *in)
{
	struct jrep *x = arg;
	struct json_object *st = json_object_new_object();
	struct json_object *conn = json_object_new_array();
	struct json_object *ts = json_object_new_object();
	struct json_object *ct = json_object_new_object();
	struct json_object *tst = json_object_new_object();
	char tbuf[64];
	struct tm tmv;
	struct timespec tsv;
	time_t now;

	x->proto = in->proto;
	x->bidir = in->bidir;
	x->server = in->server;
	/* from the far end: valid UTF-8 of printable characters only */
	if (in->server)
		ps_sanitize(x->title, sizeof(x->title), in->title, 0);
	for (int i = 0; i < in->nconn; i++) {
		struct json_object *c = json_object_new_object();

		add(c, "socket", jint(in->conn[i].fd));
		add(c, "local_host", jstr(in->conn[i].local));
		add(c, "local_port", jint(in->conn[i].lport));
		add(c, "remote_host", jstr(in->conn[i].remote));
		add(c, "remote_port", jint(in->conn[i].rport));
		json_object_array_add(conn, c);
	}
	start_basics(st, conn);
	/* gmtime_r: several targets start their documents from their threads */
	clock_gettime(CLOCK_REALTIME, &tsv);
	now = tsv.tv_sec;
	strftime(tbuf, sizeof(tbuf), "%a, %d %b %Y %H:%M:%S GMT",
		 gmtime_r(&now, &tmv));
	add(ts, "time", jstr(tbuf));
	add(ts, "timesecs", jint(now));
	add(ts, "timemillisecs",
	    jint((int64_t)now * 1000 + tsv.tv_nsec / 1000000));
	add(st, "timestamp", ts);
	if (!in->server && in->ntargets) {
		add(ct, "host", jstr(in->target_host[0]));
		add(ct, "port", jint(in->target_port[0]));
		add(st, "connecting_to", ct);
	} else if (in->server && in->ctrl_remote[0]) {
		add(ct, "host", jstr(in->ctrl_remote));
		add(ct, "port", jint(in->ctrl_rport));
		add(st, "accepted_connection", ct);
	} else {
		json_object_put(ct);
	}
	add(st, "cookie", jstr(in->cookie));
	if (in->proto != PS_PROTO_UDP)
		add(st, "tcp_mss_default", jint(in->mss_default));
	add(st, "target_bitrate", jint((int64_t)in->rate));
	add(st, "fq_rate", jint((int64_t)in->fq_rate));
	add(st, "sock_bufsize", jint((int64_t)in->window_req));
	add(st, "sndbuf_actual", jint(in->sndbuf_actual));
	add(st, "rcvbuf_actual", jint(in->rcvbuf_actual));
	add(tst, "protocol", jstr(in->proto == PS_PROTO_UDP ? "UDP" : "TCP"));
	add(tst, "num_streams", jint(in->parallel));
	add(tst, "blksize", jint(in->len));
	add(tst, "omit", jint(in->omit));
	add(tst, "duration", jint((int64_t)in->duration));
	add(tst, "bytes", jint((int64_t)in->bytes));
	add(tst, "blocks", jint((int64_t)in->blocks));
	add(tst, "reverse", jint(in->reverse));
	add(tst, "tos", jint(x->o->tos > 0 ? x->o->tos : 0));
	add(tst, "target_bitrate", jint((int64_t)in->rate));
	add(tst, "bidir", jint(in->bidir));
	add(tst, "fqrate", jint((int64_t)in->fq_rate));
	add(tst, "interval", jdbl(x->o->interval));
	add(tst, "gso", jint(in->gsro));
	add(tst, "gro", jint(in->gsro));
	add(st, "test_start", tst);
	add(x->doc, "start", st);
	{
		struct json_object *socks = json_object_new_array();

		for (int i = 0; i < in->nconn; i++) {
			struct json_object *c = json_object_new_object();

			add(c, "socket", jint(in->conn[i].fd));
			add(c, "nodelay", jint(in->conn[i].nodelay));
			add(c, "mss", jint(in->conn[i].mss));
			add(c, "sndbuf", jint(in->conn[i].sndbuf));
			add(c, "rcvbuf", jint(in->conn[i].rcvbuf));
			add(c, "tos", jint(in->conn[i].tos));
			add(c, "congestion", jstr(in->conn[i].congestion));
			json_object_array_add(socks, c);
		}
		add(x->extra, "sockets", socks);
		add(x->extra, "window_capped",
		    jbool(in->window_req && in->sndbuf_actual &&
			  (uint64_t)in->sndbuf_actual < in->window_req));
	}
	add(x->extra, "version", jstr(PACKAGE_VERSION));
	add(x->extra, "peer", jstr(in->peer_kind));
	add(x->extra, "peer_version", jstr(in->peer_version));
	add(x->extra, "threads", jint(in->threads));
	if (in->send_piece)
		add(x->extra, "send_piece", jint((int64_t)in->send_piece));
	if (x->stream)
		emit(x, "start", st);
}

static void j_interval(void *arg, const struct ps_interval *iv)
{
	struct jrep *x = arg;
	struct json_object *o = json_object_new_object();
	struct json_object *arr = json_object_new_array();
	struct json_object *ext = json_object_new_array();
	bool udp = x->proto == PS_PROTO_UDP;
	int fwd;

	for (int i = 0; i < iv->nstreams; i++) {
		json_object_array_add(arr,
				      stream_obj(&iv->streams[i], udp, false));
		json_object_array_add(ext, extra_obj(&iv->streams[i]));
	}
	add(o, "streams", arr);
	/* iperf3: "sum" is the client's sending direction (or the only one) */
	fwd = x->bidir ? (x->server ? 1 : 0) : (iv->have_sum[0] ? 0 : 1);
	add(o, "sum", stream_obj(&iv->sum[fwd], udp, true));
	if (x->bidir)
		add(o, "sum_bidir_reverse",
		    stream_obj(&iv->sum[!fwd], udp, true));
	{
		struct json_object *pe = json_object_new_object();

		add(pe, "streams", ext);
		if (iv->nremote) {
			struct json_object *rem = json_object_new_array();

			for (int i = 0; i < iv->nremote; i++) {
				struct json_object *r =
					extra_obj(&iv->remote[i]);

				add(r, "bits_per_second",
				    jdbl(iv->remote[i].bps));
				add(r, "rtt", jint(iv->remote[i].rtt_us));
				add(r, "snd_cwnd",
				    jint((int64_t)iv->remote[i].cwnd));
				add(r, "retransmits",
				    jint(iv->remote[i].retrans));
				json_object_array_add(rem, r);
			}
			add(pe, "remote_streams", rem);
		}
		add(o, "pipescope", pe);
	}
	json_object_array_add(x->intervals, o);
	if (x->stream)
		emit(x, "interval", o);
}

static struct json_object *sum_obj(double dur, uint64_t bytes, int64_t retrans,
				   bool with_retrans, bool sender)
{
	struct json_object *o = json_object_new_object();

	add(o, "start", jdbl(0));
	add(o, "end", jdbl(dur));
	add(o, "seconds", jdbl(dur));
	add(o, "bytes", jint((int64_t)bytes));
	add(o, "bits_per_second", jdbl(bytes * 8.0 / dur));
	if (with_retrans)
		add(o, "retransmits", jint(retrans));
	add(o, "sender", jbool(sender));
	return o;
}

/* iperf3's UDP totals: the receiver's loss and jitter on end.sum and
 * end.sum_received, none on end.sum_sent */
static void udp_loss(struct json_object *o, double jitter, int64_t lost,
		     int64_t packets)
{
	add(o, "jitter_ms", jdbl(jitter));
	add(o, "lost_packets", jint(lost));
	add(o, "packets", jint(packets));
	add(o, "lost_percent", jdbl(packets ? 100.0 * lost / packets : 0));
}

/*
 * iperf3's end.streams[].sender for TCP: the full set on a stream this
 * host sends, and on a client's receiving stream (the server's
 * retransmits, the rest 0 as iperf3 writes); a server's receiving stream
 * has none of it.
 */
static void tcp_sender_fields(struct json_object *snd,
			      const struct ps_stream_iv *v, bool server,
			      const struct ps_summary *sum, int i)
{
	bool mine = v->sender && v->has_tcpinfo;

	if (!mine && (server || v->sender))
		return;
	add(snd, "retransmits",
	    jint(mine ? v->retrans
		      : (sum->remote_valid && sum->remote_retrans[i] > 0
				 ? sum->remote_retrans[i]
				 : 0)));
	add(snd, "reorder", jint(mine ? v->reorder : 0));
	add(snd, "max_snd_cwnd", jint(mine ? (int64_t)v->cwnd : 0));
	add(snd, "max_snd_wnd", jint(mine ? (int64_t)v->snd_wnd : 0));
	add(snd, "max_rtt", jint(mine ? v->rttvar_us : 0));
	add(snd, "min_rtt", jint(mine ? v->min_rtt_us : 0));
	add(snd, "mean_rtt", jint(mine ? v->rtt_us : 0));
}

static void j_end(void *arg, const struct ps_test_info *in,
		  const struct ps_summary *sum)
{
	struct jrep *x = arg;
	struct json_object *end = json_object_new_object();
	struct json_object *streams = json_object_new_array();
	struct json_object *cpu = json_object_new_object();
	bool udp = x->proto == PS_PROTO_UDP;
	uint64_t gs[2] = { 0, 0 }, gr[2] = { 0, 0 };
	int64_t gret[2] = { 0, 0 }, glost[2] = { 0, 0 }, gpk[2] = { 0, 0 };
	double gj[2] = { 0, 0 };
	int gn[2] = { 0, 0 };
	/* per group: this host sends it (iperf3's "sender" flags), and
	 * iperf3 writes its sum_sent.retransmits */
	bool gsnd[2] = { false, false }, gretr[2] = { false, false };
	bool local_sends = false;

	for (int i = 0; i < sum->nstreams; i++) {
		const struct ps_stream_iv *v = &sum->local[i];
		struct json_object *s = json_object_new_object();
		uint64_t sent, received;
		/* group 0: the client's sending direction; 1: the other (bidir)
		 */
		int g = x->bidir ? (v->sender != !x->server) : 0;
		double d = sum->duration;
		int64_t lost =
			v->sender ? (sum->remote_valid ? sum->remote_errors[i]
						       : 0)
				  : v->lost;
		int64_t packets = v->sender
					  ? (int64_t)v->packets
					  : (int64_t)v->packets +
						    (v->lost > 0 ? v->lost : 0);
		double jit = v->sender ? (sum->remote_valid
						  ? sum->remote_jitter_ms[i]
						  : 0)
				       : v->jitter_ms;

		ps_summary_stream_bytes(sum, i, &sent, &received);
		gsnd[g] = v->sender;
		local_sends |= v->sender;
		if (udp) {
			struct json_object *u = json_object_new_object();

			add(u, "socket", jint(v->fd));
			add(u, "start", jdbl(0));
			add(u, "end", jdbl(d));
			add(u, "seconds", jdbl(d));
			add(u, "bytes",
			    jint((int64_t)(v->sender ? sent : received)));
			add(u, "bits_per_second",
			    jdbl((v->sender ? sent : received) * 8.0 / d));
			udp_loss(u, jit, lost, packets);
			add(u, "out_of_order", jint((int64_t)v->ooo));
			add(u, "sender", jbool(v->sender));
			add(s, "udp", u);
			glost[g] += lost;
			gpk[g] += packets;
			gj[g] += jit;
		} else {
			struct json_object *snd =
				sum_obj(d, sent, 0, false, v->sender);
			struct json_object *rcv =
				sum_obj(d, received, 0, false, v->sender);

			add(snd, "socket", jint(v->fd));
			add(rcv, "socket", jint(v->fd));
			tcp_sender_fields(snd, v, x->server, sum, i);
			gretr[g] |= !x->server || v->sender;
			add(s, "sender", snd);
			add(s, "receiver", rcv);
		}
		json_object_array_add(streams, s);
		gs[g] += sent;
		gr[g] += received;
		gret[g] += !v->sender && sum->remote_valid &&
					   sum->remote_retrans[i] > 0
				   ? sum->remote_retrans[i]
				   : v->retrans;
		gn[g]++;
	}
	add(end, "streams", streams);
	for (int g = 0; g < (x->bidir ? 2 : 1); g++) {
		const char *ks = g ? "sum_sent_bidir_reverse" : "sum_sent";
		const char *kr =
			g ? "sum_received_bidir_reverse" : "sum_received";
		double jit = gn[g] ? gj[g] / gn[g] : 0;
		struct json_object *ss, *sr;

		if (udp) {
			/* iperf3: sum says who sent, sum_sent and
			 * sum_received are always true and false */
			struct json_object *u = sum_obj(sum->duration, gs[g], 0,
							false, gsnd[g]);

			json_object_object_del(u, "sender");
			udp_loss(u, jit, glost[g], gpk[g]);
			add(u, "sender", jbool(gsnd[g]));
			add(end, g ? "sum_bidir_reverse" : "sum", u);
			ss = sum_obj(sum->duration, gs[g], 0, false, true);
			sr = sum_obj(sum->duration, gr[g], 0, false, false);
			json_object_object_del(ss, "sender");
			json_object_object_del(sr, "sender");
			udp_loss(ss, 0, 0, gpk[g]);
			udp_loss(sr, jit, glost[g], gpk[g]);
			add(ss, "sender", jbool(true));
			add(sr, "sender", jbool(false));
		} else {
			ss = sum_obj(sum->duration, gs[g], gret[g], gretr[g],
				     gsnd[g]);
			sr = sum_obj(sum->duration, gr[g], 0, false, gsnd[g]);
		}
		add(end, ks, ss);
		add(end, kr, sr);
	}
	add(cpu, "host_total", jdbl(sum->cpu_local_total));
	add(cpu, "host_user", jdbl(sum->cpu_local_user));
	add(cpu, "host_system", jdbl(sum->cpu_local_system));
	add(cpu, "remote_total", jdbl(sum->cpu_remote_total));
	add(cpu, "remote_user", jdbl(sum->cpu_remote_user));
	add(cpu, "remote_system", jdbl(sum->cpu_remote_system));
	add(end, "cpu_utilization_percent", cpu);
	if (!udp) {
		bool local_snd = x->server ? local_sends : !in->reverse;
		const char *snd_cc = local_snd ? sum->congestion_local
					       : sum->congestion_remote;
		const char *rcv_cc = local_snd ? sum->congestion_remote
					       : sum->congestion_local;

		/* a server knows its own only, as iperf3's */
		if (!x->server || local_sends)
			add(end, "sender_tcp_congestion", jstr(snd_cc));
		if (!x->server || !local_sends)
			add(end, "receiver_tcp_congestion", jstr(rcv_cc));
	}
	add(x->doc, "end", end);
	add(x->extra, "cpu_seconds_per_gb", jdbl(sum->cpu_seconds_per_gb));
	add(x->extra, "partial", jbool(sum->partial));
	/* an iperf3 peer is dated by its results ("<=3.13") */
	add(x->extra, "peer_version", jstr(in->peer_version));
	/* a pipescope server's latest probe snapshot (doc/snapshot.md) */
	if (sum->peer_snap)
		add(x->extra, "peer_snapshot",
		    ps_snapshot_to_json(sum->peer_snap));
	{
		struct json_object *ext = json_object_new_array();

		for (int i = 0; i < sum->nstreams; i++)
			json_object_array_add(ext, extra_obj(&sum->local[i]));
		add(x->extra, "streams", ext);
	}
	/* as iperf3: the server's text only when asked for */
	if (sum->server_output && x->o->get_server_output)
		add(x->doc, "server_output_text", jstr(sum->server_output));
	if (sum->server_output_json && x->o->get_server_output)
		add(x->doc, "server_output_json",
		    json_object_get(sum->server_output_json));
	x->ended = true;
	if (x->stream)
		emit(x, "end", end);
}

static void j_error(void *arg, const char *msg)
{
	struct jrep *x = arg;

	add(x->doc, "error", jstr(msg));
	x->failed = true;
	if (x->stream) {
		struct json_object *s = jstr(msg);

		emit(x, "error", s);
		json_object_put(s);
	}
}

static void j_message(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static void j_destroy(void *arg)
{
	struct jrep *x = arg;
	struct json_object *v;

	/* an error document has iperf3's start and end all the same
	 * (iperf3-python reads both): the basics and {} */
	if (!json_object_object_get_ex(x->doc, "start", &v)) {
		v = json_object_new_object();
		start_basics(v, json_object_new_array());
		add(x->doc, "start", v);
	}
	if (!x->ended) {
		add(x->doc, "end", json_object_new_object());
		/* --json-stream: the closing end after the error, as iperf3 */
		if (x->stream && x->failed)
			emit(x, "end", json_object_object_get(x->doc, "end"));
	}
	if (!x->stream) {
		add(x->doc, "intervals", x->intervals);
		x->intervals = NULL;
		if (x->o->title || x->title[0])
			add(x->doc, "title",
			    jstr(x->o->title ? x->o->title : x->title));
		if (x->o->extra_data)
			add(x->doc, "extra_data", jstr(x->o->extra_data));
		add(x->doc, "pipescope", x->extra);
		x->extra = NULL;
		nulls_for_nonfinite(x->doc);
		fprintf(x->out, "%s\n",
			json_object_to_json_string_ext(
				x->doc, JSON_C_TO_STRING_PRETTY |
						JSON_C_TO_STRING_SPACED));
		fflush(x->out);
	}
	json_object_put(x->intervals);
	json_object_put(x->extra);
	json_object_put(x->doc);
	free(x);
}

void ps_report_json_init(struct ps_reporter *r, const struct ps_opts *o,
			 FILE *out, bool stream)
{
	struct jrep *x = xcalloc(1, sizeof(*x));

	x->o = o;
	x->out = out;
	x->stream = stream;
	x->doc = json_object_new_object();
	x->intervals = json_object_new_array();
	x->extra = json_object_new_object();
	memset(r, 0, sizeof(*r));
	r->start = j_start;
	r->interval = j_interval;
	r->end = j_end;
	r->error = j_error;
	r->message = j_message;
	r->destroy = j_destroy;
	r->arg = x;
}
