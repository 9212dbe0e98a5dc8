/* report-json.c: iperf3's -J document and --json-stream events, plus
 * "pipescope" */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "engine.h"
#include "jsonutil.h"
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
static void emit(struct jrep *x, const char *event, struct json_object *data)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "event", ps_jv_str(event));
	json_object_object_add(o, "data", json_object_get(data));
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
		json_object_object_add(o, "socket", ps_jv_int(v->fd));
	json_object_object_add(o, "start", ps_jv_num(v->start, PS_JV_EXACT));
	json_object_object_add(o, "end", ps_jv_num(v->end, PS_JV_EXACT));
	json_object_object_add(o, "seconds",
			       ps_jv_num(v->end - v->start, PS_JV_EXACT));
	json_object_object_add(o, "bytes", ps_jv_int((int64_t)v->bytes));
	json_object_object_add(o, "bits_per_second",
			       ps_jv_num(v->bps, PS_JV_EXACT));
	if (udp) {
		if (v->sender) {
			json_object_object_add(o, "packets",
					       ps_jv_int((int64_t)v->packets));
		} else {
			uint64_t total = v->packets +
					 (v->lost > 0 ? (uint64_t)v->lost : 0);

			json_object_object_add(
				o, "jitter_ms",
				ps_jv_num(v->jitter_ms, PS_JV_EXACT));
			json_object_object_add(o, "lost_packets",
					       ps_jv_int(v->lost));
			json_object_object_add(o, "packets",
					       ps_jv_int((int64_t)total));
			json_object_object_add(
				o, "lost_percent",
				ps_jv_num(total ? 100.0 * v->lost /
							  (double)total
						: 0,
					  PS_JV_EXACT));
		}
	} else if (v->sender && v->has_tcpinfo) {
		json_object_object_add(o, "retransmits", ps_jv_int(v->retrans));
		if (!sum) {
			json_object_object_add(o, "snd_cwnd",
					       ps_jv_int((int64_t)v->cwnd));
			json_object_object_add(o, "snd_wnd",
					       ps_jv_int((int64_t)v->snd_wnd));
			json_object_object_add(o, "rtt", ps_jv_int(v->rtt_us));
			json_object_object_add(o, "rttvar",
					       ps_jv_int(v->rttvar_us));
			json_object_object_add(o, "pmtu", ps_jv_int(v->pmtu));
			json_object_object_add(o, "reorder",
					       ps_jv_int(v->reorder));
		}
	}
	json_object_object_add(o, "omitted", ps_jv_bool(v->omitted));
	json_object_object_add(o, "sender", ps_jv_bool(v->sender));
	return o;
}

/* pipescope's per-stream extras: why a flow is slow and where it ran */
static struct json_object *extra_obj(const struct ps_stream_iv *v)
{
	struct json_object *o = json_object_new_object();
	const char *why = ps_limit_reason(v);

	json_object_object_add(o, "socket", ps_jv_int(v->fd));
	json_object_object_add(o, "id", ps_jv_int(v->id));
	json_object_object_add(o, "sender", ps_jv_bool(v->sender));
	json_object_object_add(o, "cpu", ps_jv_int(v->cpu));
	json_object_object_add(o, "rx_cpu", ps_jv_int(v->rx_cpu));
	if (!v->sender && v->rx_batch > 0)
		json_object_object_add(o, "rx_batch", ps_jv_int(v->rx_batch));
	if (v->has_tcpinfo) {
		json_object_object_add(o, "min_rtt", ps_jv_int(v->min_rtt_us));
		json_object_object_add(o, "mss", ps_jv_int(v->mss));
		json_object_object_add(o, "delivery_rate",
				       ps_jv_int((int64_t)v->delivery_bps));
		json_object_object_add(o, "pacing_rate",
				       ps_jv_int((int64_t)v->pacing_bps));
		json_object_object_add(o, "busy_us",
				       ps_jv_int((int64_t)v->busy_us));
		json_object_object_add(o, "rwnd_limited_us",
				       ps_jv_int((int64_t)v->rwnd_limited_us));
		json_object_object_add(
			o, "sndbuf_limited_us",
			ps_jv_int((int64_t)v->sndbuf_limited_us));
		json_object_object_add(o, "app_limited",
				       ps_jv_bool(v->app_limited));
		ps_json_put_known(o, "limited_by", ps_jv_str_known(why));
	}
	return o;
}

/* what iperf3's start has even when the test never began */
static void start_basics(struct json_object *st, struct json_object *conn)
{
	struct utsname u;
	char sys[400];

	json_object_object_add(st, "connected", conn);
	json_object_object_add(st, "version",
			       ps_jv_str("pipescope " PACKAGE_VERSION));
	uname(&u);
	snprintf(sys, sizeof(sys), "%s %s %s %s %s", u.sysname, u.nodename,
		 u.release, u.version, u.machine);
	json_object_object_add(st, "system_info", ps_jv_str(sys));
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

		json_object_object_add(c, "socket", ps_jv_int(in->conn[i].fd));
		json_object_object_add(c, "local_host",
				       ps_jv_str(in->conn[i].local));
		json_object_object_add(c, "local_port",
				       ps_jv_int(in->conn[i].lport));
		json_object_object_add(c, "remote_host",
				       ps_jv_str(in->conn[i].remote));
		json_object_object_add(c, "remote_port",
				       ps_jv_int(in->conn[i].rport));
		json_object_array_add(conn, c);
	}
	start_basics(st, conn);
	/* gmtime_r: several targets start their documents from their threads */
	clock_gettime(CLOCK_REALTIME, &tsv);
	now = tsv.tv_sec;
	strftime(tbuf, sizeof(tbuf), "%a, %d %b %Y %H:%M:%S GMT",
		 gmtime_r(&now, &tmv));
	json_object_object_add(ts, "time", ps_jv_str(tbuf));
	json_object_object_add(ts, "timesecs", ps_jv_int(now));
	json_object_object_add(
		ts, "timemillisecs",
		ps_jv_int((int64_t)now * 1000 + tsv.tv_nsec / 1000000));
	json_object_object_add(st, "timestamp", ts);
	if (!in->server && in->ntargets) {
		json_object_object_add(ct, "host",
				       ps_jv_str(in->target_host[0]));
		json_object_object_add(ct, "port",
				       ps_jv_int(in->target_port[0]));
		json_object_object_add(st, "connecting_to", ct);
	} else if (in->server && in->ctrl_remote[0]) {
		json_object_object_add(ct, "host", ps_jv_str(in->ctrl_remote));
		json_object_object_add(ct, "port", ps_jv_int(in->ctrl_rport));
		json_object_object_add(st, "accepted_connection", ct);
	} else {
		json_object_put(ct);
	}
	json_object_object_add(st, "cookie", ps_jv_str(in->cookie));
	if (in->proto != PS_PROTO_UDP)
		json_object_object_add(st, "tcp_mss_default",
				       ps_jv_int(in->mss_default));
	json_object_object_add(st, "target_bitrate",
			       ps_jv_int((int64_t)in->rate));
	json_object_object_add(st, "fq_rate", ps_jv_int((int64_t)in->fq_rate));
	json_object_object_add(st, "sock_bufsize",
			       ps_jv_int((int64_t)in->window_req));
	json_object_object_add(st, "sndbuf_actual",
			       ps_jv_int(in->sndbuf_actual));
	json_object_object_add(st, "rcvbuf_actual",
			       ps_jv_int(in->rcvbuf_actual));
	json_object_object_add(
		tst, "protocol",
		ps_jv_str(in->proto == PS_PROTO_UDP ? "UDP" : "TCP"));
	json_object_object_add(tst, "num_streams", ps_jv_int(in->parallel));
	json_object_object_add(tst, "blksize", ps_jv_int(in->len));
	json_object_object_add(tst, "omit", ps_jv_int(in->omit));
	json_object_object_add(tst, "duration",
			       ps_jv_int((int64_t)in->duration));
	json_object_object_add(tst, "bytes", ps_jv_int((int64_t)in->bytes));
	json_object_object_add(tst, "blocks", ps_jv_int((int64_t)in->blocks));
	json_object_object_add(tst, "reverse", ps_jv_int(in->reverse));
	json_object_object_add(tst, "tos",
			       ps_jv_int(x->o->tos > 0 ? x->o->tos : 0));
	json_object_object_add(tst, "target_bitrate",
			       ps_jv_int((int64_t)in->rate));
	json_object_object_add(tst, "bidir", ps_jv_int(in->bidir));
	json_object_object_add(tst, "fqrate", ps_jv_int((int64_t)in->fq_rate));
	json_object_object_add(tst, "interval",
			       ps_jv_num(x->o->interval, PS_JV_EXACT));
	json_object_object_add(tst, "gso", ps_jv_int(in->gsro));
	json_object_object_add(tst, "gro", ps_jv_int(in->gsro));
	json_object_object_add(st, "test_start", tst);
	json_object_object_add(x->doc, "start", st);
	{
		struct json_object *socks = json_object_new_array();

		for (int i = 0; i < in->nconn; i++) {
			struct json_object *c = json_object_new_object();

			json_object_object_add(c, "socket",
					       ps_jv_int(in->conn[i].fd));
			json_object_object_add(c, "nodelay",
					       ps_jv_int(in->conn[i].nodelay));
			json_object_object_add(c, "mss",
					       ps_jv_int(in->conn[i].mss));
			json_object_object_add(c, "sndbuf",
					       ps_jv_int(in->conn[i].sndbuf));
			json_object_object_add(c, "rcvbuf",
					       ps_jv_int(in->conn[i].rcvbuf));
			json_object_object_add(c, "tos",
					       ps_jv_int(in->conn[i].tos));
			json_object_object_add(
				c, "congestion",
				ps_jv_str(in->conn[i].congestion));
			json_object_array_add(socks, c);
		}
		json_object_object_add(x->extra, "sockets", socks);
		json_object_object_add(x->extra, "window_capped",
				       ps_jv_bool(in->window_req &&
						  in->sndbuf_actual &&
						  (uint64_t)in->sndbuf_actual <
							  in->window_req));
	}
	json_object_object_add(x->extra, "version", ps_jv_str(PACKAGE_VERSION));
	json_object_object_add(x->extra, "peer", ps_jv_str(in->peer_kind));
	json_object_object_add(x->extra, "peer_version",
			       ps_jv_str(in->peer_version));
	json_object_object_add(x->extra, "threads", ps_jv_int(in->threads));
	{
		/* where the data threads were kept (place.h); each stream's
		 * interval entry says the CPU it ran on */
		struct json_object *pl = json_object_new_object();

		json_object_object_add(pl, "applied",
				       ps_jv_bool(in->place.applied));
		json_object_object_add(pl, "interface",
				       ps_jv_str(in->place.ifname));
		json_object_object_add(pl, "numa_node",
				       ps_jv_int(in->place.node));
		json_object_object_add(pl, "cpus", ps_jv_str(in->place.cpus));
		json_object_object_add(pl, "why", ps_jv_str(in->place.why));
		json_object_object_add(x->extra, "placement", pl);
	}
	if (in->send_piece)
		json_object_object_add(x->extra, "send_piece",
				       ps_jv_int((int64_t)in->send_piece));
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
	json_object_object_add(o, "streams", arr);
	/* iperf3: "sum" is the client's sending direction (or the only one) */
	fwd = x->bidir ? (x->server ? 1 : 0) : (iv->have_sum[0] ? 0 : 1);
	json_object_object_add(o, "sum", stream_obj(&iv->sum[fwd], udp, true));
	if (x->bidir)
		json_object_object_add(o, "sum_bidir_reverse",
				       stream_obj(&iv->sum[!fwd], udp, true));
	{
		struct json_object *pe = json_object_new_object();

		json_object_object_add(pe, "streams", ext);
		if (iv->nremote) {
			struct json_object *rem = json_object_new_array();

			for (int i = 0; i < iv->nremote; i++) {
				struct json_object *r =
					extra_obj(&iv->remote[i]);

				ps_json_put_known(r, "bits_per_second",
						  ps_jv_num(iv->remote[i].bps,
							    PS_JV_EXACT));
				json_object_object_add(
					r, "rtt",
					ps_jv_int(iv->remote[i].rtt_us));
				json_object_object_add(
					r, "snd_cwnd",
					ps_jv_int((int64_t)iv->remote[i].cwnd));
				json_object_object_add(
					r, "retransmits",
					ps_jv_int(iv->remote[i].retrans));
				json_object_array_add(rem, r);
			}
			json_object_object_add(pe, "remote_streams", rem);
		}
		json_object_object_add(o, "pipescope", pe);
	}
	json_object_array_add(x->intervals, o);
	if (x->stream)
		emit(x, "interval", o);
}

static struct json_object *sum_obj(double dur, uint64_t bytes, int64_t retrans,
				   bool with_retrans, bool sender)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "start", ps_jv_num(0, PS_JV_EXACT));
	json_object_object_add(o, "end", ps_jv_num(dur, PS_JV_EXACT));
	json_object_object_add(o, "seconds", ps_jv_num(dur, PS_JV_EXACT));
	json_object_object_add(o, "bytes", ps_jv_int((int64_t)bytes));
	json_object_object_add(o, "bits_per_second",
			       ps_jv_num(bytes * 8.0 / dur, PS_JV_EXACT));
	if (with_retrans)
		json_object_object_add(o, "retransmits", ps_jv_int(retrans));
	json_object_object_add(o, "sender", ps_jv_bool(sender));
	return o;
}

/* iperf3's UDP totals: the receiver's loss and jitter on end.sum and
 * end.sum_received, none on end.sum_sent */
static void udp_loss(struct json_object *o, double jitter, int64_t lost,
		     int64_t packets)
{
	json_object_object_add(o, "jitter_ms", ps_jv_num(jitter, PS_JV_EXACT));
	json_object_object_add(o, "lost_packets", ps_jv_int(lost));
	json_object_object_add(o, "packets", ps_jv_int(packets));
	json_object_object_add(
		o, "lost_percent",
		ps_jv_num(packets ? 100.0 * lost / packets : 0, PS_JV_EXACT));
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
	json_object_object_add(
		snd, "retransmits",
		ps_jv_int(
			mine ? v->retrans
			     : (sum->remote_valid && sum->remote_retrans[i] > 0
					? sum->remote_retrans[i]
					: 0)));
	json_object_object_add(snd, "reorder",
			       ps_jv_int(mine ? v->reorder : 0));
	json_object_object_add(snd, "max_snd_cwnd",
			       ps_jv_int(mine ? (int64_t)v->cwnd : 0));
	json_object_object_add(snd, "max_snd_wnd",
			       ps_jv_int(mine ? (int64_t)v->snd_wnd : 0));
	json_object_object_add(snd, "max_rtt",
			       ps_jv_int(mine ? v->rttvar_us : 0));
	json_object_object_add(snd, "min_rtt",
			       ps_jv_int(mine ? v->min_rtt_us : 0));
	json_object_object_add(snd, "mean_rtt",
			       ps_jv_int(mine ? v->rtt_us : 0));
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

			json_object_object_add(u, "socket", ps_jv_int(v->fd));
			json_object_object_add(u, "start",
					       ps_jv_num(0, PS_JV_EXACT));
			json_object_object_add(u, "end",
					       ps_jv_num(d, PS_JV_EXACT));
			json_object_object_add(u, "seconds",
					       ps_jv_num(d, PS_JV_EXACT));
			json_object_object_add(
				u, "bytes",
				ps_jv_int((int64_t)(v->sender ? sent
							      : received)));
			json_object_object_add(
				u, "bits_per_second",
				ps_jv_num((v->sender ? sent : received) * 8.0 /
						  d,
					  PS_JV_EXACT));
			udp_loss(u, jit, lost, packets);
			json_object_object_add(u, "out_of_order",
					       ps_jv_int((int64_t)v->ooo));
			json_object_object_add(u, "sender",
					       ps_jv_bool(v->sender));
			json_object_object_add(s, "udp", u);
			glost[g] += lost;
			gpk[g] += packets;
			gj[g] += jit;
		} else {
			struct json_object *snd =
				sum_obj(d, sent, 0, false, v->sender);
			struct json_object *rcv =
				sum_obj(d, received, 0, false, v->sender);

			json_object_object_add(snd, "socket", ps_jv_int(v->fd));
			json_object_object_add(rcv, "socket", ps_jv_int(v->fd));
			tcp_sender_fields(snd, v, x->server, sum, i);
			gretr[g] |= !x->server || v->sender;
			json_object_object_add(s, "sender", snd);
			json_object_object_add(s, "receiver", rcv);
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
	json_object_object_add(end, "streams", streams);
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
			json_object_object_add(u, "sender",
					       ps_jv_bool(gsnd[g]));
			json_object_object_add(
				end, g ? "sum_bidir_reverse" : "sum", u);
			ss = sum_obj(sum->duration, gs[g], 0, false, true);
			sr = sum_obj(sum->duration, gr[g], 0, false, false);
			json_object_object_del(ss, "sender");
			json_object_object_del(sr, "sender");
			udp_loss(ss, 0, 0, gpk[g]);
			udp_loss(sr, jit, glost[g], gpk[g]);
			json_object_object_add(ss, "sender", ps_jv_bool(true));
			json_object_object_add(sr, "sender", ps_jv_bool(false));
		} else {
			ss = sum_obj(sum->duration, gs[g], gret[g], gretr[g],
				     gsnd[g]);
			sr = sum_obj(sum->duration, gr[g], 0, false, gsnd[g]);
		}
		json_object_object_add(end, ks, ss);
		json_object_object_add(end, kr, sr);
	}
	json_object_object_add(cpu, "host_total",
			       ps_jv_num(sum->cpu_local_total, PS_JV_EXACT));
	json_object_object_add(cpu, "host_user",
			       ps_jv_num(sum->cpu_local_user, PS_JV_EXACT));
	json_object_object_add(cpu, "host_system",
			       ps_jv_num(sum->cpu_local_system, PS_JV_EXACT));
	json_object_object_add(cpu, "remote_total",
			       ps_jv_num(sum->cpu_remote_total, PS_JV_EXACT));
	json_object_object_add(cpu, "remote_user",
			       ps_jv_num(sum->cpu_remote_user, PS_JV_EXACT));
	json_object_object_add(cpu, "remote_system",
			       ps_jv_num(sum->cpu_remote_system, PS_JV_EXACT));
	json_object_object_add(end, "cpu_utilization_percent", cpu);
	if (!udp) {
		bool local_snd = x->server ? local_sends : !in->reverse;
		const char *snd_cc = local_snd ? sum->congestion_local
					       : sum->congestion_remote;
		const char *rcv_cc = local_snd ? sum->congestion_remote
					       : sum->congestion_local;

		/* a server knows its own only, as iperf3's */
		if (!x->server || local_sends)
			json_object_object_add(end, "sender_tcp_congestion",
					       ps_jv_str(snd_cc));
		if (!x->server || !local_sends)
			json_object_object_add(end, "receiver_tcp_congestion",
					       ps_jv_str(rcv_cc));
	}
	json_object_object_add(x->doc, "end", end);
	ps_json_put_known(x->extra, "cpu_seconds_per_gb",
			  ps_jv_num(sum->cpu_seconds_per_gb, PS_JV_EXACT));
	json_object_object_add(x->extra, "partial", ps_jv_bool(sum->partial));
	if (sum->stopped)
		json_object_object_add(x->extra, "stopped", ps_jv_bool(true));
	/* an iperf3 peer is dated by its results ("<=3.13") */
	json_object_object_add(x->extra, "peer_version",
			       ps_jv_str(in->peer_version));
	/* a pipescope server's latest probe snapshot (doc/snapshot.md) */
	if (sum->peer_snap)
		json_object_object_add(
			x->extra, "peer_snapshot",
			ps_jv_raw(ps_snapshot_text(sum->peer_snap)));
	{
		struct json_object *ext = json_object_new_array();

		for (int i = 0; i < sum->nstreams; i++)
			json_object_array_add(ext, extra_obj(&sum->local[i]));
		json_object_object_add(x->extra, "streams", ext);
	}
	/* as iperf3: the server's text only when asked for */
	if (sum->server_output && x->o->get_server_output)
		json_object_object_add(x->doc, "server_output_text",
				       ps_jv_str(sum->server_output));
	if (sum->server_output_json && x->o->get_server_output)
		json_object_object_add(
			x->doc, "server_output_json",
			json_object_get(sum->server_output_json));
	x->ended = true;
	if (x->stream)
		emit(x, "end", end);
}

static void j_error(void *arg, const char *msg)
{
	struct jrep *x = arg;

	json_object_object_add(x->doc, "error", ps_jv_str(msg));
	x->failed = true;
	if (x->stream) {
		struct json_object *s = ps_jv_str(msg);

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
		json_object_object_add(x->doc, "start", v);
	}
	if (!x->ended) {
		json_object_object_add(x->doc, "end", json_object_new_object());
		/* --json-stream: the closing end after the error, as iperf3 */
		if (x->stream && x->failed)
			emit(x, "end", json_object_object_get(x->doc, "end"));
	}
	if (!x->stream) {
		json_object_object_add(x->doc, "intervals", x->intervals);
		x->intervals = NULL;
		if (x->o->title || x->title[0])
			json_object_object_add(x->doc, "title",
					       ps_jv_str(x->o->title
								 ? x->o->title
								 : x->title));
		if (x->o->extra_data)
			json_object_object_add(x->doc, "extra_data",
					       ps_jv_str(x->o->extra_data));
		json_object_object_add(x->doc, "pipescope", x->extra);
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
