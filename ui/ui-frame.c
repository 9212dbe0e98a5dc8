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

static attr_t state_attr(enum ui_test_state st)
{
	switch (st) {
	case UI_TEST_RUNNING:
		return ui_attr(UI_C_GOOD);
	case UI_TEST_FAILED:
		return ui_attr(UI_C_BAD);
	case UI_TEST_CONNECTING:
	case UI_TEST_STOPPING:
		return ui_attr(UI_C_WARN);
	default:
		return ui_attr(UI_C_VALUE);
	}
}

/* the clock: "12/30 s" or "12 s" for a test without end */
static void clock_text(const struct ui *ui, char *buf, size_t len)
{
	const struct ui_test_view *v = &ui->tv;
	double el = v->elapsed, dur = v->duration;

	if (v->state == UI_TEST_RUNNING || v->state == UI_TEST_STOPPING)
		el = (double)(ps_mono_ns() - v->started_ns) / 1e9;
	else if (v->state == UI_TEST_CONNECTING || v->state == UI_TEST_IDLE)
		el = 0;
	if (dur > 0 && el > dur)
		el = dur;
	if (dur > 0)
		snprintf(buf, len, _("%.0f/%.0f s"), el, dur);
	else
		snprintf(buf, len, _("%.0f s, no end"), el);
}

void ui_draw_header(struct ui *ui, const struct ui_rect *r)
{
	const struct ui_test_view *v = &ui->tv;
	struct ps_opts gt;
	const struct ps_opts *t = &ui->test;
	attr_t h = ui_attr(UI_C_HEADER);
	char peer[96], clk[48], now[32], avg[32], line[512], dir[64];
	const char *target = v->target[0] ? v->target : "-";
	int x;

	/* a guided run's test says itself what it runs */
	if (ui_grun_busy(&ui->grun)) {
		gt = ui->test;
		gt.proto = v->proto;
		gt.reverse = v->reverse;
		gt.bidir = v->bidir;
		if (v->parallel > 0)
			gt.parallel = v->parallel;
		t = &gt;
	}
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
		snprintf(line, sizeof(line), "[%s]", state_text(v->state));
		rw += ui_text_width(line) + 1;
		if (ui->paused)
			rw += ui_text_width(_("PAUSED")) + 1;
		x = r->w - rw;
		if (x < 0)
			x = 0;
		ui_put(r->y, x, r->w - x, h, right);
		x += ui_text_width(right);
		ui_put(r->y, x, r->w - x, h | state_attr(v->state), line);
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

	/* line 2: the sum now and on average; after the end, the result */
	if (v->have_end &&
	    (v->state == UI_TEST_DONE || v->state == UI_TEST_FAILED)) {
		ui_fmt_bps(now, sizeof(now), v->end_bps[0]);
		ui_fmt_bps(avg, sizeof(avg), v->end_bps[1]);
		snprintf(line, sizeof(line),
			 _(" sum %s sent, %s received over %.1f s (the last "
			   "test)"),
			 now, avg, v->end_duration);
		ui_put(r->y + 1, 0, r->w, h, line);
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
	if (ui->iface.name[0]) {
		snprintf(line, sizeof(line), _("iface %s"), ui->iface.name);
		if (x + ui_text_width(line) < r->w)
			ui_put(r->y + 1, r->w - ui_text_width(line) - 1,
			       ui_text_width(line), h, line);
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

static const struct ui_footer_key ui_keys_main[] = {
	{ "F1", "?", N_("help"), N_("help") },
	{ "q", "q", N_("quit"), N_("quit") },
	{ "s", "s", N_("start/stop"), N_("run") },
	{ "+-", "+-", N_("streams"), N_("P") },
	{ "R", "R", N_("reverse"), N_("rev") },
	{ "d", "d", N_("both ways"), N_("bidir") },
	{ "u", "u", N_("UDP/TCP"), N_("udp") },
	{ "t", "t", N_("duration"), N_("time") },
	{ "i", "i", N_("interface"), N_("if") },
	{ "1-7", "1-7", N_("views"), N_("view") },
	{ "p", "p", N_("pause"), N_("pause") },
};

/* "F1 help  q quit ..." or, narrow, "?:help q:quit ..."; items that do
 * not fit are left out whole (the help screen lists them all) */
void ui_draw_footer(struct ui *ui, const struct ui_rect *r)
{
	const struct ui_footer_key *keys = ui_keys_main;
	int n = (int)(sizeof(ui_keys_main) / sizeof(ui_keys_main[0]));
	int x = 0, need = 0;
	bool shorter;

	/* a view with keys of its own lists them */
	if (ui->view->footer) {
		int vn = 0;
		const struct ui_footer_key *vk = ui->view->footer(ui, &vn);

		if (vk) {
			keys = vk;
			n = vn;
		}
	}

	for (int i = 0; i < n; i++)
		need += ui_text_width(keys[i].key) + 1 +
			ui_text_width(_(keys[i].longer)) + 2;
	shorter = need > r->w;
	move(r->y, 0);
	attrset(ui_attr(UI_C_FOOTER));
	clrtoeol();
	for (int i = 0; i < n; i++) {
		const char *label =
			_(shorter ? keys[i].shorter : keys[i].longer);
		const char *key = shorter ? keys[i].shortkey : keys[i].key;
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
