/* ui-frame.c: the workstation's frame: the two header lines (target, peer,
 * protocol, direction, streams, clock, sum now and average), the message
 * line, the key footer and the "terminal too small" screen */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "nls.h"
#include "ui-internal.h"
#include "ui-text.h"

static const char *state_text(enum ui_test_state st)
{
	switch (st) {
	case UI_TEST_IDLE:
		return _("idle");
	case UI_TEST_CONNECTING:
		return _("connecting");
	case UI_TEST_RUNNING:
		return _("running");
	case UI_TEST_STOPPING:
		return _("stopping");
	case UI_TEST_DONE:
		return _("done");
	case UI_TEST_FAILED:
		return _("failed");
	}
	return "";
}

/* the state's badge on the header: its own pair over the header's blue */
static attr_t state_attr(enum ui_test_state st)
{
	switch (st) {
	case UI_TEST_RUNNING:
		return ui_attr_header(UI_C_GOOD);
	case UI_TEST_FAILED:
		return ui_attr_header(UI_C_BAD);
	case UI_TEST_CONNECTING:
	case UI_TEST_STOPPING:
		return ui_attr_header(UI_C_WARN);
	default:
		return ui_attr_header(UI_C_VALUE);
	}
}

/* the clock: "12/30 s" or "12 s" for a test without end; paused, it
 * stays where p stopped it */
static void clock_text(const struct ui *ui, char *buf, size_t len)
{
	const struct ui_test_view *v = &ui->tv;
	double el = v->elapsed, dur = v->duration;
	int64_t now = ui->paused ? ui->paused_ns : ps_mono_ns();

	if (v->state == UI_TEST_RUNNING || v->state == UI_TEST_STOPPING)
		el = (double)(now - v->started_ns) / 1e9;
	else if (v->state == UI_TEST_CONNECTING || v->state == UI_TEST_IDLE)
		el = 0;
	if (dur > 0 && el > dur)
		el = dur;
	if (dur > 0)
		snprintf(buf, len, _("%.0f/%.0f s"), el, dur);
	else
		snprintf(buf, len, _("%.0f s, no end"), el);
}

/* what the next test changes from the one shown: "next: -R -P 2", or "" */
static void pending_text(struct ui *ui, const struct ps_opts *shown, char *buf,
			 size_t len)
{
	const struct ps_opts *n = &ui->test;
	size_t l;

	buf[0] = 0;
	if (ui_grun_busy(&ui->grun))
		return;
	snprintf(buf, len, "%s", _("next:"));
	l = strlen(buf);
	if (n->proto != shown->proto)
		snprintf(buf + l, len - l, " %s",
			 n->proto == PS_PROTO_UDP ? "UDP" : "TCP");
	l = strlen(buf);
	if (n->bidir != shown->bidir || n->reverse != shown->reverse)
		snprintf(buf + l, len - l, " %s",
			 n->bidir     ? "-d"
			 : n->reverse ? "-R"
				      : _("send"));
	l = strlen(buf);
	if (n->parallel != shown->parallel)
		snprintf(buf + l, len - l, " -P %d", n->parallel);
	l = strlen(buf);
	if (n->duration != shown->duration)
		snprintf(buf + l, len - l, " -t %.0f", n->duration);
	l = strlen(buf);
	if (n->rate != shown->rate && n->proto == shown->proto) {
		char r[32];

		ui_fmt_bps_short(r, sizeof(r), (double)n->rate);
		snprintf(buf + l, len - l, " -b %s", n->rate ? r : "0");
	}
	if (!strcmp(buf, _("next:")))
		buf[0] = 0;
}

/* line 2 after the end: the result; the far end's half of a stopped or
 * failed test is unknown, or the last figure it gave */
static int end_line(struct ui *ui, const struct ui_rect *r, attr_t h)
{
	const struct ui_test_view *v = &ui->tv;
	const char *why = v->stopped ? _("stopped") : _("failed");
	char sent[32], rcv[64], line[512];
	bool sender = false, receiver = false;

	for (int i = 0; i < v->nstreams; i++) {
		sender |= v->streams[i].sender;
		receiver |= !v->streams[i].sender;
	}
	ui_fmt_bps(sent, sizeof(sent), v->end_bps[0]);
	ui_fmt_bps(rcv, sizeof(rcv), v->end_bps[1]);
	if (v->end_known) {
		snprintf(line, sizeof(line),
			 _(" sum %s sent, %s received over %.1f s"), sent, rcv,
			 v->end_duration);
		/* narrow, with UDP's loss to tell: the short form */
		if (v->proto == PS_PROTO_UDP && r->w < 100)
			snprintf(line, sizeof(line),
				 _(" sent %s, received %s in %.1f s"), sent,
				 rcv, v->end_duration);
		ui_put(r->y + 1, 0, r->w, h, line);
		return ui_text_width(line) + 2;
	}
	/* this end counted only its own side */
	if (sender && !receiver) {
		char last[32], rx[96];

		if (v->far_rx_bps >= 0) {
			ui_fmt_bps(last, sizeof(last), v->far_rx_bps);
			snprintf(rx, sizeof(rx),
				 _("received: %s at the last report (%s)"),
				 last, why);
		} else {
			snprintf(rx, sizeof(rx), _("received: unknown (%s)"),
				 why);
		}
		snprintf(line, sizeof(line), _(" sum %s sent, %s over %.1f s"),
			 sent, rx, v->end_duration);
	} else if (receiver && !sender) {
		snprintf(line, sizeof(line),
			 _(" sum sent: unknown (%s), %s received over %.1f s"),
			 why, rcv, v->end_duration);
	} else {
		snprintf(line, sizeof(line),
			 _(" sum this end's count over %.1f s: the far end's "
			   "is unknown (%s)"),
			 v->end_duration, why);
	}
	ui_put(r->y + 1, 0, r->w, ui_attr_header(UI_C_WARN), line);
	return ui_text_width(line) + 2;
}

/* UDP: the receiver's loss and jitter, and the sender against its -b */
static int udp_line(struct ui *ui, const struct ui_rect *r, int x, attr_t h)
{
	const struct ui_test_view *v = &ui->tv;
	char line[256];
	attr_t a = h;

	if (v->rx_packets > 0) {
		double pct = 100.0 * (double)v->rx_lost / (double)v->rx_packets;

		snprintf(line, sizeof(line),
			 _("receiver lost %.1f%% (%lld/%lld), jitter %.3f ms"),
			 pct, (long long)v->rx_lost, (long long)v->rx_packets,
			 v->rx_jitter_ms);
		if (x + ui_text_width(line) > r->w)
			snprintf(line, sizeof(line),
				 _("lost %.1f%%, jitter %.3f ms"), pct,
				 v->rx_jitter_ms);
		if (pct >= 1)
			a = ui_attr_header(pct >= 10 ? UI_C_BAD : UI_C_WARN);
	} else if (v->have_end) {
		snprintf(line, sizeof(line), "%s",
			 _("receiver's loss: unknown"));
		a = ui_attr_header(UI_C_WARN);
	} else if (v->state == UI_TEST_RUNNING) {
		snprintf(line, sizeof(line), "%s",
			 _("receiver's loss: at the end"));
	} else {
		return x;
	}
	ui_put(r->y + 1, x, r->w - x, a, line);
	return x + ui_text_width(line) + 2;
}

void ui_draw_header(struct ui *ui, const struct ui_rect *r)
{
	const struct ui_test_view *v = &ui->tv;
	struct ps_opts gt;
	const struct ps_opts *t = &ui->test;
	attr_t h = ui_attr(UI_C_HEADER);
	char peer[96], clk[48], now[32], avg[32], line[512], dir[64];
	char next[96];
	const char *target = v->target[0] ? v->target : "-";
	const struct ui_rect *r0 = r;
	struct ui_rect l2;
	int x;

	/* the header tells of the test whose numbers it shows (the
	 * settings for the next one apart); before any, of the next */
	if (v->state != UI_TEST_IDLE) {
		gt = ui->test;
		gt.proto = v->proto;
		gt.reverse = v->reverse;
		gt.bidir = v->bidir;
		gt.duration = v->duration;
		gt.rate = (uint64_t)v->target_bps;
		if (v->parallel > 0)
			gt.parallel = v->parallel;
		t = &gt;
	}
	pending_text(ui, t, next, sizeof(next));
	if (v->peer_kind[0])
		snprintf(peer, sizeof(peer), "%s%s%s", v->peer_kind,
			 v->peer_version[0] ? " " : "", v->peer_version);
	else if (v->state == UI_TEST_CONNECTING)
		snprintf(peer, sizeof(peer), "%s", _("connecting"));
	else
		snprintf(peer, sizeof(peer), "%s", _("peer not known yet"));
	if (t->bidir)
		snprintf(dir, sizeof(dir), "%s", _("both ways (-d)"));
	else if (t->reverse)
		snprintf(dir, sizeof(dir), "%s", _("reverse (-R)"));
	else
		snprintf(dir, sizeof(dir), "%s", _("send"));
	clock_text(ui, clk, sizeof(clk));

	move(r->y, 0);
	attrset(h);
	hline(' ', r->w);
	move(r->y + 1, 0);
	hline(' ', r->w);
	attrset(A_NORMAL);

	/* the right part (what runs, the clock) never gives way */
	{
		char streams[48], right[256];
		int rw;

		snprintf(streams, sizeof(streams),
			 P_("%d stream", "%d streams", t->parallel),
			 t->parallel);
		snprintf(right, sizeof(right), "%s  %s  %s  %s  ",
			 t->proto == PS_PROTO_UDP ? "UDP" : "TCP", dir, streams,
			 clk);
		rw = ui_text_width(right);
		/* a test s ended is not one that ran its course */
		snprintf(line, sizeof(line), "[%s]",
			 v->state == UI_TEST_DONE && v->stopped
				 ? _("stopped")
				 : state_text(v->state));
		rw += ui_text_width(line) + 1;
		if (ui->paused)
			rw += ui_text_width(_("PAUSED")) + 1;
		x = r->w - rw;
		if (x < 0)
			x = 0;
		ui_put(r->y, x, r->w - x, h, right);
		x += ui_text_width(right);
		ui_put(r->y, x, r->w - x, state_attr(v->state), line);
		x += ui_text_width(line) + 1;
		if (ui->paused)
			ui_put(r->y, x, r->w - x, h | A_BOLD, _("PAUSED"));
		/* the left part gives way: self-test, then the peer */
		for (int form = 0; form < 3; form++) {
			if (form == 0)
				snprintf(line, sizeof(line),
					 " pipescope %s %s (%s%s)",
					 ui->style.g->arrow, target, peer,
					 ui->selftest ? _(", self-test") : "");
			else if (form == 1)
				snprintf(line, sizeof(line),
					 " pipescope %s %s (%s)",
					 ui->style.g->arrow, target, peer);
			else
				snprintf(line, sizeof(line), " pipescope %s %s",
					 ui->style.g->arrow, target);
			if (ui_text_width(line) <= r->w - rw - 1)
				break;
		}
		ui_put(r->y, 0, r->w - rw - 1, h, line);
	}

	/* line 2: the sum now and on average; after the end, the result;
	 * the pending change keeps its place at the right */
	{
		int nw = next[0] ? ui_text_width(next) + 2 : 0;

		l2 = *r;
		if (nw && nw < r->w / 2)
			l2.w = r->w - nw;
		r = &l2;
	}
	if (v->have_end &&
	    (v->state == UI_TEST_DONE || v->state == UI_TEST_FAILED)) {
		x = end_line(ui, r, h);
	} else if (v->have_step && v->state == UI_TEST_DONE) {
		/* a guided step as its row says it ended: its rate (the
		 * median of its runs) over its measured time */
		ui_fmt_bps(avg, sizeof(avg), v->step_bps);
		if (v->step_runs > 1)
			snprintf(line, sizeof(line),
				 P_(" sum %s, the median of %d run of %.1f s "
				    "(done)",
				    " sum %s, the median of %d runs of %.1f s "
				    "each (done)",
				    v->step_runs),
				 avg, v->step_runs, v->step_seconds);
		else
			snprintf(line, sizeof(line),
				 _(" sum %s average over %.1f s (done)"), avg,
				 v->step_seconds);
		ui_put(r->y + 1, 0, r->w, h, line);
		x = ui_text_width(line) + 2;
	} else if (v->state == UI_TEST_DONE || v->state == UI_TEST_FAILED) {
		/* it ended before the engine summed it up */
		ui_fmt_bps(avg, sizeof(avg),
			   v->time_total > 0
				   ? v->bytes_total * 8 / v->time_total
				   : 0);
		snprintf(line, sizeof(line),
			 _(" sum %s average over %.1f s, last known (%s)"), avg,
			 v->time_total,
			 v->stopped		      ? _("stopped")
			 : v->state == UI_TEST_FAILED ? _("failed")
						      : _("done"));
		ui_put(r->y + 1, 0, r->w, ui_attr_header(UI_C_WARN), line);
		x = ui_text_width(line) + 2;
	} else {
		ui_fmt_bps(now, sizeof(now), v->now_bps);
		ui_fmt_bps(avg, sizeof(avg),
			   v->time_total > 0
				   ? v->bytes_total * 8 / v->time_total
				   : 0);
		snprintf(line, sizeof(line), _(" sum %s now, %s average"), now,
			 avg);
		ui_put(r->y + 1, 0, r->w, h, line);
		x = ui_text_width(line) + 2;
	}
	if (t->bidir && !v->have_end && (v->have_sum[0] || v->have_sum[1])) {
		char s[32], rcv[32];

		ui_fmt_bps(s, sizeof(s), v->sum_bps[0]);
		ui_fmt_bps(rcv, sizeof(rcv), v->sum_bps[1]);
		snprintf(line, sizeof(line), _("(sent %s, received %s)"), s,
			 rcv);
		ui_put(r->y + 1, x, r->w - x, h, line);
		x += ui_text_width(line) + 2;
	}
	if (v->proto == PS_PROTO_UDP && v->state != UI_TEST_IDLE)
		x = udp_line(ui, r, x, h);
	{
		char ifc[64];
		int iw = 0, nw = next[0] ? ui_text_width(next) : 0;
		int W = r0->w;

		if (ui->iface.name[0]) {
			if (ui->route_if[0] &&
			    strcmp(ui->route_if, ui->iface.name))
				snprintf(ifc, sizeof(ifc),
					 _("iface %s (not on the test's path)"),
					 ui->iface.name);
			else
				snprintf(ifc, sizeof(ifc), _("iface %s"),
					 ui->iface.name);
			iw = ui_text_width(ifc);
		}
		/* the pending change first: it is what the next s runs */
		if (nw && nw < W / 2) {
			int nx = W - nw - 1;

			if (iw && nx - iw - 2 > x) {
				ui_put(r->y + 1, nx - iw - 2, iw, h, ifc);
			}
			ui_put(r->y + 1, nx, nw, h | A_BOLD, next);
			iw = 0;
		}
		if (iw && x + iw < W)
			ui_put(r->y + 1, W - iw - 1, iw, h, ifc);
	}
}

void ui_draw_message(struct ui *ui, const struct ui_rect *r)
{
	static const enum ui_color c[] = { UI_C_NORMAL, UI_C_WARN, UI_C_BAD };

	move(r->y, 0);
	clrtoeol();
	if (ui->msg[0])
		ui_put(r->y, 1, r->w - 1, ui_attr(c[ui->msg_level % 3]),
		       ui->msg);
}

/* the width of a footer's keys[0..n), narrow or not */
static int footer_width(const struct ui_key **keys, int n, bool shorter)
{
	char buf[16];
	int w = 0;

	for (int i = 0; i < n; i++)
		w += ui_text_width(
			     ui_key_name(keys[i], shorter, buf, sizeof(buf))) +
		     1 +
		     ui_text_width(
			     _(shorter ? keys[i]->shorter : keys[i]->longer)) +
		     (shorter ? 1 : 2);
	return w - (n ? (shorter ? 1 : 2) : 0);
}

/* "F1 help  q quit ..." or, narrow, "?:help q:quit ..."; the workstation's
 * keys and the view's (ui_footer_keys). Too narrow even so, the keys of
 * the highest drop go first (d:bidir before p:pause, which stays); what
 * still does not fit is left out whole (the help screen lists them all) */
void ui_draw_footer(struct ui *ui, const struct ui_rect *r)
{
	const struct ui_key *keys[48];
	int n = ui_footer_keys(ui, ui->view, keys, 48);
	int x = 0;
	char buf[16];
	bool shorter = footer_width(keys, n, false) > r->w;

	while (shorter && footer_width(keys, n, true) > r->w) {
		int worst = -1;

		for (int i = 0; i < n; i++)
			if (keys[i]->drop > 0 &&
			    (worst < 0 || keys[i]->drop >= keys[worst]->drop))
				worst = i;
		if (worst < 0)
			break;
		memmove(&keys[worst], &keys[worst + 1],
			(size_t)(n - worst - 1) * sizeof(keys[0]));
		n--;
	}
	move(r->y, 0);
	attrset(ui_attr(UI_C_FOOTER));
	clrtoeol();
	for (int i = 0; i < n; i++) {
		const char *label =
			_(shorter ? keys[i]->shorter : keys[i]->longer);
		const char *key =
			ui_key_name(keys[i], shorter, buf, sizeof(buf));
		int kw = ui_text_width(key), lw = ui_text_width(label);

		if (x + kw + 1 + lw > r->w)
			break;
		ui_put(r->y, x, kw, ui_attr(UI_C_KEY), key);
		x += kw;
		ui_put(r->y, x, 1, ui_attr(UI_C_FOOTER), shorter ? ":" : " ");
		ui_put(r->y, x + 1, lw, ui_attr(UI_C_FOOTER), label);
		x += 1 + lw + (shorter ? 1 : 2);
	}
}

void ui_draw_too_small(struct ui *ui)
{
	char line[128], now[64];
	int y = LINES / 2 - 1;
	const char *times = ui->style.utf8 ? "\u00d7" : "x";

	erase();
	snprintf(line, sizeof(line), _("terminal too small: need %d%s%d"),
		 UI_MIN_COLS, times, UI_MIN_ROWS);
	snprintf(now, sizeof(now), _("now %d%s%d; q quits"), COLS, times,
		 LINES);
	if (y < 0)
		y = 0;
	for (int i = 0; i < 2; i++) {
		const char *s = i ? now : line;
		int w = ui_text_width(s);
		int x = w < COLS ? (COLS - w) / 2 : 0;

		ui_put(y + i, x, COLS - x, i ? A_NORMAL : ui_attr(UI_C_WARN),
		       s);
	}
}
