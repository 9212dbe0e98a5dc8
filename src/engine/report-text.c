/* report-text.c: iperf3-style text: interval rows per stream, [SUM], summary
 * (every string from the far end goes through the sanitiser) */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "engine.h"
#include "nls.h"
#include "sanitize.h"
#include "units.h"
#include "xmalloc.h"

/* the most of the server's text output the client prints */
#define SERVER_OUTPUT_MAX (4u << 20)

struct text {
	const struct ps_opts *o;
	FILE *out;
	bool header_done;
	bool bidir;
	bool server;
	enum ps_proto proto;
	int nstreams;
	bool any_sender;   /* this end sends on some stream */
	bool verbose_done; /* -V's preamble is out */
};

static void flush(struct text *x)
{
	if (x->o->forceflush)
		fflush(x->out);
}

static void title(struct text *x)
{
	if (x->o->timestamps) { /* --timestamps: before -T, as iperf3 */
		char buf[256];
		time_t now = time(NULL);
		struct tm tm;

		/* the user's own strftime format, as iperf3 takes it */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		if (localtime_r(&now, &tm) &&
		    strftime(buf, sizeof(buf), x->o->timestamps, &tm))
			fputs(buf, x->out);
#pragma GCC diagnostic pop
	}
	if (x->o->title)
		fprintf(x->out, "%s:  ", x->o->title);
}

static const char *tag(struct text *x, bool sender)
{
	if (!x->bidir)
		return "";
	/* [TX-C] etc. as iperf3 marks the two directions */
	if (x->server)
		return sender ? "[TX-S]" : "[RX-S]";
	return sender ? "[TX-C]" : "[RX-C]";
}

static void row(struct text *x, const char *id, const struct ps_stream_iv *v,
		bool summary, const char *role)
{
	char xfer[32], rate[32];

	ps_fmt_bytes(xfer, sizeof(xfer), (double)v->bytes,
		     x->o->format == 'a' ? 'A' : x->o->format);
	ps_fmt_rate(rate, sizeof(rate), v->bps, x->o->format);
	title(x);
	fprintf(x->out, "[%s]%s %6.2f-%-6.2f sec  %s  %s", id,
		tag(x, v->sender), v->start, v->end, xfer, rate);
	if (x->proto == PS_PROTO_UDP) {
		if (v->sender && !summary)
			fprintf(x->out, "  %llu  ",
				(unsigned long long)v->packets);
		else if (!v->sender) {
			uint64_t total = v->packets +
					 (v->lost > 0 ? (uint64_t)v->lost : 0);

			fprintf(x->out, "  %.3f ms  %lld/%llu (%.2g%%)",
				v->jitter_ms, (long long)v->lost,
				(unsigned long long)total,
				total ? 100.0 * (double)v->lost / (double)total
				      : 0.0);
		}
	} else if (v->sender && v->has_tcpinfo) {
		char cwnd[32];

		fprintf(x->out, "  %4lld", (long long)v->retrans);
		if (!summary) {
			const char *why = ps_limit_reason(v);

			ps_fmt_bytes(cwnd, sizeof(cwnd), (double)v->cwnd, 'A');
			fprintf(x->out, "   %s", cwnd);
			/* as iperf3: Retr and Cwnd, no more */
			if (!x->o->iperf3_mode)
				fprintf(x->out, "  %5.0f us",
					(double)v->rtt_us);
			if (why && !x->o->iperf3_mode)
				fprintf(x->out, "  %s", why);
		}
	}
	if (role)
		fprintf(x->out, "  %s", role);
	if (v->omitted)
		fprintf(x->out, "  %s", _("(omitted)"));
	fputc('\n', x->out);
}

static void header(struct text *x, bool end)
{
	title(x);
	if (x->proto == PS_PROTO_UDP)
		fputs(_("[ ID] Interval           Transfer     Bitrate         "
			"Jitter    Lost/Total Datagrams\n"),
		      x->out);
	else if (end)
		fputs(_("[ ID] Interval           Transfer     Bitrate         "
			"Retr\n"),
		      x->out);
	else if (!x->any_sender)
		fputs(_("[ ID] Interval           Transfer     Bitrate\n"),
		      x->out);
	else if (x->o->iperf3_mode)
		fputs(_("[ ID] Interval           Transfer     Bitrate         "
			"Retr  Cwnd\n"),
		      x->out);
	else
		fputs(_("[ ID] Interval           Transfer     Bitrate         "
			"Retr  Cwnd          RTT  Limit\n"),
		      x->out);
}

/* -V: what iperf3 -V prints before the first line: version, system, time */
static void verbose_preamble(struct text *x)
{
	struct utsname u;
	char when[64];
	time_t now = time(NULL);
	struct tm tm;

	if (!x->o->verbose || x->verbose_done)
		return;
	x->verbose_done = true;
	title(x);
	if (x->o->iperf3_mode)
		fprintf(x->out, "iperf %s (pipescope %s)\n", PS_IPERF3_VERSION,
			PACKAGE_VERSION);
	else
		fprintf(x->out, "pipescope %s\n", PACKAGE_VERSION);
	if (!uname(&u)) {
		title(x);
		fprintf(x->out, "%s %s %s %s %s\n", u.sysname, u.nodename,
			u.release, u.version, u.machine);
	}
	if (gmtime_r(&now, &tm) &&
	    strftime(when, sizeof(when), "%a, %d %b %Y %H:%M:%S GMT", &tm)) {
		title(x);
		fprintf(x->out, _("Time: %s\n"), when);
	}
}

static void t_message(void *arg, const char *msg)
{
	struct text *x = arg;

	verbose_preamble(x);
	title(x);
	fprintf(x->out, "%s\n", ps_safe(msg));
	flush(x);
}

static void t_error(void *arg, const char *msg)
{
	struct text *x = arg;

	fflush(x->out);
	fprintf(stderr, "pipescope: %s\n", ps_safe(msg));
}

static void t_start(void *arg, const struct ps_test_info *in)
{
	struct text *x = arg;

	x->bidir = in->bidir;
	x->server = in->server;
	x->proto = in->proto;
	x->nstreams = in->nstreams;
	x->any_sender = false;
	if (x->o->verbose && !in->server) {
		title(x);
		fprintf(x->out, "      Cookie: %.*s\n", PS_COOKIE_SIZE - 1,
			in->cookie);
		if (in->proto == PS_PROTO_TCP && in->mss_default > 0) {
			title(x);
			fprintf(x->out, _("      TCP MSS: %d (default)\n"),
				in->mss_default);
		}
	}
	for (int i = 0; i < in->nconn; i++) {
		x->any_sender |= in->conn[i].sender;
		title(x);
		fprintf(x->out,
			_("[%3d] local %s port %d connected to %s port %d\n"),
			in->conn[i].fd, in->conn[i].local, in->conn[i].lport,
			in->conn[i].remote, in->conn[i].rport);
	}
	if (!in->server && x->o->iperf3_mode && in->reverse) {
		title(x);
		fprintf(x->out, _("Reverse mode, remote host %s is sending\n"),
			in->ntargets > 0 && in->target_host[0]
				? ps_safe(in->target_host[0])
				: "?");
	}
	if (!in->server && !x->o->iperf3_mode) {
		title(x);
		fprintf(x->out, _("Peer: %s%s%s; %s, %d stream(s)%s\n"),
			ps_safe(in->peer_kind), in->peer_version[0] ? " " : "",
			ps_safe(in->peer_version),
			in->proto == PS_PROTO_UDP ? "UDP" : "TCP", in->parallel,
			in->reverse ? _(", reverse: the server sends")
			: in->bidir ? _(", both directions")
				    : "");
		if (in->window_req && in->sndbuf_actual &&
		    (uint64_t)in->sndbuf_actual < in->window_req) {
			title(x);
			fprintf(x->out,
				_("warning: asked for a %llu-byte window, the "
				  "kernel granted %d "
				  "(net.core.wmem_max/rmem_max cap it)\n"),
				(unsigned long long)in->window_req,
				in->sndbuf_actual);
		}
	}
	verbose_preamble(x);
	if (x->o->verbose && !in->server) {
		title(x);
		fprintf(x->out,
			_("Starting Test: protocol: %s, %d streams, %u byte "
			  "blocks, omitting %d seconds, %g second test, tos "
			  "%d\n"),
			in->proto == PS_PROTO_UDP ? "UDP" : "TCP", in->parallel,
			in->len, in->omit,
			in->bytes || in->blocks ? 0.0 : in->duration,
			x->o->tos < 0 ? 0 : x->o->tos);
	}
	x->header_done = false;
	flush(x);
}

static void t_interval(void *arg, const struct ps_interval *iv)
{
	struct text *x = arg;
	char id[8];

	if (!x->header_done) {
		header(x, false);
		x->header_done = true;
	}
	for (int i = 0; i < iv->nstreams; i++) {
		snprintf(id, sizeof(id), "%3d", iv->streams[i].fd);
		row(x, id, &iv->streams[i], false, NULL);
	}
	for (int k = 0; k < 2; k++) {
		int n = 0;

		for (int i = 0; i < iv->nstreams; i++)
			n += iv->streams[i].sender == (k == 0);
		if (iv->have_sum[k] && n > 1)
			row(x, "SUM", &iv->sum[k], true, NULL);
	}
	if (iv->nstreams > 1) {
		title(x);
		fputs("- - - - - - - - - - - - - - - - - - - - - - - - -\n",
		      x->out);
	}
	flush(x);
}

/*
 * the drop-in's end, in iperf3's words: the CPU and congestion control
 * lines with -V only, then "iperf Done." (not translated: scripts read them)
 */
static void iperf3_end(struct text *x, const struct ps_test_info *in,
		       const struct ps_summary *sum)
{
	const char *here = x->any_sender ? "sender" : "receiver";
	const char *there = x->any_sender ? "receiver" : "sender";

	if (x->o->verbose) {
		title(x);
		fprintf(x->out,
			"CPU Utilization: local/%s %.1f%% (%.1f%%u/%.1f%%s), "
			"remote/%s %.1f%% (%.1f%%u/%.1f%%s)\n",
			here, sum->cpu_local_total, sum->cpu_local_user,
			sum->cpu_local_system, there,
			sum->remote_valid ? sum->cpu_remote_total : 0.0,
			sum->remote_valid ? sum->cpu_remote_user : 0.0,
			sum->remote_valid ? sum->cpu_remote_system : 0.0);
	}
	if (x->o->verbose && sum->congestion_local[0] && !in->server) {
		const char *remote = sum->congestion_remote[0]
					     ? ps_safe(sum->congestion_remote)
					     : "?";
		const char *local = ps_safe(sum->congestion_local);

		title(x);
		fprintf(x->out, "snd_tcp_congestion %s\n",
			x->any_sender ? local : remote);
		title(x);
		fprintf(x->out, "rcv_tcp_congestion %s\n",
			x->any_sender ? remote : local);
	}
	if (!in->server) {
		fputc('\n', x->out);
		title(x);
		fputs("iperf Done.\n", x->out);
	}
	fflush(x->out);
}

static void t_end(void *arg, const struct ps_test_info *in,
		  const struct ps_summary *sum)
{
	struct text *x = arg;
	struct ps_stream_iv tot[2][2]; /* [direction: local sender?][role] */
	int nd[2] = { 0, 0 };
	char id[8];

	memset(tot, 0, sizeof(tot));
	x->proto = in->proto;
	title(x);
	fputs("- - - - - - - - - - - - - - - - - - - - - - - - -\n", x->out);
	if (sum->partial) {
		title(x);
		fputs(sum->stopped
			      ? _("Partial results: the test was stopped "
				  "before its end.\n")
			      : _("Partial results: the test ended early.\n"),
		      x->out);
	}
	if (x->o->verbose) {
		title(x);
		fputs(_("Test Complete. Summary Results:\n"), x->out);
	}
	header(x, true);
	for (int i = 0; i < sum->nstreams; i++) {
		const struct ps_stream_iv *v = &sum->local[i];
		struct ps_stream_iv snd = *v, rcv = *v;
		uint64_t sent, received;
		int d = v->sender ? 0 : 1;

		ps_summary_stream_bytes(sum, i, &sent, &received);
		snprintf(id, sizeof(id), "%3d", v->fd);
		snd.sender = true;
		snd.bytes = sent;
		snd.bps = sent * 8.0 / sum->duration;
		snd.has_tcpinfo = v->sender && v->has_tcpinfo;
		if (!v->sender && sum->remote_valid &&
		    sum->remote_retrans[i] >= 0 && x->proto == PS_PROTO_TCP) {
			/* the far end sent: its retransmits are in its results
			 */
			snd.has_tcpinfo = true;
			snd.retrans = sum->remote_retrans[i];
		}
		rcv.sender = false;
		rcv.bytes = received;
		rcv.bps = received * 8.0 / sum->duration;
		rcv.has_tcpinfo = false;
		if (!v->sender) {
			/* the far end's loss and jitter are in its results */
			rcv.lost = v->lost;
		} else if (sum->remote_valid) {
			int64_t got = sum->remote_packets[i];

			rcv.lost = sum->remote_errors[i];
			/* what the receiver got (every peer sends its
			 * highest number, the lost included): the row adds
			 * the lost */
			if (rcv.lost > 0)
				got -= rcv.lost;
			rcv.packets = got > 0 ? (uint64_t)got : 0;
			rcv.jitter_ms = sum->remote_jitter_ms[i];
		}
		if (x->proto == PS_PROTO_UDP) {
			/*
			 * As iperf3: the sender's row is 0 lost of what it
			 * sent (the far end's count with -R); the receiver's,
			 * its loss of what it got and lost.
			 */
			snd.sender = false; /* a UDP row has Lost/Total */
			snd.lost = 0;
			snd.jitter_ms = 0;
			if (!v->sender)
				snd.packets =
					sum->remote_valid &&
							sum->remote_packets[i] >
								0
						? (uint64_t)
							  sum->remote_packets[i]
						: rcv.packets +
							  (rcv.lost > 0
								   ? (uint64_t)rcv
									     .lost
								   : 0);
		}
		row(x, id, &snd, true, _("sender"));
		if (sum->remote_valid || !v->sender)
			row(x, id, &rcv, true, _("receiver"));
		tot[d][0].bytes += snd.bytes;
		tot[d][0].packets += snd.packets;
		tot[d][0].retrans += snd.retrans;
		tot[d][0].has_tcpinfo |= snd.has_tcpinfo;
		tot[d][1].bytes += rcv.bytes;
		tot[d][1].lost += rcv.lost;
		tot[d][1].packets += rcv.packets;
		tot[d][1].jitter_ms += rcv.jitter_ms;
		nd[d]++;
	}
	for (int d = 0; d < 2; d++) {
		if (nd[d] < 2)
			continue;
		for (int r = 0; r < 2; r++) {
			tot[d][r].end = sum->duration;
			tot[d][r].bps = tot[d][r].bytes * 8.0 / sum->duration;
			tot[d][r].sender = r == 0 && x->proto == PS_PROTO_TCP;
			if (r)
				tot[d][r].jitter_ms /= nd[d];
			row(x, "SUM", &tot[d][r], true,
			    r ? _("receiver") : _("sender"));
		}
	}
	if (x->o->iperf3_mode) {
		iperf3_end(x, in, sum);
		return;
	}
	title(x);
	fprintf(x->out,
		_("CPU: this end %.1f%% (user %.1f%%, system %.1f%%), %.2f "
		  "CPU-seconds per GB"),
		sum->cpu_local_total, sum->cpu_local_user,
		sum->cpu_local_system, sum->cpu_seconds_per_gb);
	if (sum->remote_valid)
		fprintf(x->out,
			_("; far end %.1f%% (user %.1f%%, system %.1f%%)"),
			sum->cpu_remote_total, sum->cpu_remote_user,
			sum->cpu_remote_system);
	fputc('\n', x->out);
	if (sum->congestion_local[0]) {
		title(x);
		fprintf(x->out,
			_("TCP congestion control: %s here, %s there\n"),
			ps_safe(sum->congestion_local),
			sum->congestion_remote[0]
				? ps_safe(sum->congestion_remote)
				: "?");
	}
	/* as iperf3: the server's own text only when asked for, and only
	 * on the client (a client's results may carry one too) */
	if (sum->server_output && x->o->get_server_output && !x->server) {
		char *text =
			ps_sanitize_dup(sum->server_output, SERVER_OUTPUT_MAX,
					PS_SAN_MULTILINE);

		fputs(_("\nServer output:\n"), x->out);
		fputs(text, x->out);
		free(text);
	}
	/* a -J server's document, as iperf3 prints it */
	if (sum->server_output_json && x->o->get_server_output && !x->server) {
		char *text = ps_sanitize_dup(
			json_object_to_json_string_ext(sum->server_output_json,
						       JSON_C_TO_STRING_PRETTY),
			SERVER_OUTPUT_MAX, PS_SAN_MULTILINE);

		fputs(_("\nServer JSON output:\n"), x->out);
		fputs(text, x->out);
		fputs("\n", x->out);
		free(text);
	}
	if (!in->server) {
		const char *done = _("\npipescope done.\n");

		/* the prefixes (-T, --timestamps) on the line, not the gap */
		fputc('\n', x->out);
		title(x);
		fputs(done + (done[0] == '\n'), x->out);
	}
	fflush(x->out);
}

void ps_report_text_init(struct ps_reporter *r, const struct ps_opts *o,
			 FILE *out)
{
	struct text *x = xcalloc(1, sizeof(*x));

	x->o = o;
	x->out = out;
	memset(r, 0, sizeof(*r));
	r->start = t_start;
	r->interval = t_interval;
	r->end = t_end;
	r->error = t_error;
	r->message = t_message;
	r->destroy = free;
	r->arg = x;
}

void ps_report_destroy(struct ps_reporter *r)
{
	if (r->destroy)
		r->destroy(r->arg);
	memset(r, 0, sizeof(*r));
}
