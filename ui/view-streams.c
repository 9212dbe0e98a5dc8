/* view-streams.c: the per-stream rows of the workstation (rate, RTT, cwnd,
 * retransmits and the flow's limiting factor from TCP_INFO), as a panel of
 * the dashboard and as the full "streams" view */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "nls.h"
#include "ui-internal.h"
#include "ui-text.h"

/* the TCP_INFO of a stream: ours when we send, the peer's when it does */
static const struct ps_stream_iv *tcpinfo_of(const struct ui_test_view *v,
					     const struct ps_stream_iv *s)
{
	if (s->has_tcpinfo)
		return s;
	for (int i = 0; i < v->nremote; i++)
		if (v->remote[i].id == s->id && v->remote[i].has_tcpinfo)
			return &v->remote[i];
	return NULL;
}

static attr_t limit_attr(const char *why)
{
	if (!why)
		return ui_attr(UI_C_DIM);
	if (!strcmp(why, "rwnd") || !strcmp(why, "sndbuf"))
		return ui_attr(UI_C_WARN);
	return ui_attr(UI_C_VALUE);
}

/* narrow (the dashboard's half): a table under one line of column names */
static void narrow_head(int y, const struct ui_rect *r, bool udp)
{
	ui_put(y, r->x, r->w, ui_attr(UI_C_LABEL),
	       udp ? _(" id  dir   rate  jitter   lost/packets")
		   : _(" id  dir   rate    rtt   cwnd  retr  limit"));
}

static void narrow_row(struct ui *ui, int y, const struct ui_rect *r,
		       const struct ps_stream_iv *s, bool udp)
{
	const struct ps_stream_iv *ti = tcpinfo_of(&ui->tv, s);
	const char *why = ti ? ps_limit_reason(ti) : NULL;
	char rate[32], a[32], b[32], line[256];
	int w;

	ui_fmt_bps_short(rate, sizeof(rate), s->bps);
	if (udp) {
		snprintf(line, sizeof(line), "%3d  %-4s %6s %6.3fms %lld/%llu",
			 s->fd > 0 ? s->fd : s->id,
			 s->sender ? _("send") : _("recv"), rate, s->jitter_ms,
			 (long long)s->lost, (unsigned long long)s->packets);
		ui_put(y, r->x, r->w, A_NORMAL, line);
		return;
	}
	if (ti) {
		ui_fmt_usec(a, sizeof(a), ti->rtt_us);
		ui_fmt_bytes_short(b, sizeof(b), (double)ti->cwnd);
	} else {
		snprintf(a, sizeof(a), "-");
		snprintf(b, sizeof(b), "-");
	}
	snprintf(line, sizeof(line), "%3d  %-4s %6s %6s %6s %5lld  ",
		 s->fd > 0 ? s->fd : s->id, s->sender ? _("send") : _("recv"),
		 rate, a, b, ti ? (long long)ti->retrans : 0LL);
	ui_put(y, r->x, r->w, A_NORMAL, line);
	w = ui_text_width(line);
	ui_put(y, r->x + w, r->w - w, limit_attr(why), why ? why : "-");
}

static void row(struct ui *ui, int y, const struct ui_rect *r,
		const struct ps_stream_iv *s, bool udp, bool far)
{
	const struct ps_stream_iv *ti = far ? s : tcpinfo_of(&ui->tv, s);
	char rate[32], a[32], b[32], c[32], line[256];
	const char *why;
	int x = r->x;

	if (ti && !ti->has_tcpinfo)
		ti = NULL;
	why = ti ? ps_limit_reason(ti) : NULL;
	ui_fmt_bps(rate, sizeof(rate), s->bps);
	snprintf(line, sizeof(line), "[%3d] %-4s %12s",
		 s->fd > 0 ? s->fd : s->id, s->sender ? _("send") : _("recv"),
		 rate);
	ui_put(y, x, r->w, ui_attr(UI_C_VALUE), line);
	x += ui_text_width(line) + 1;
	if (udp) {
		if (s->packets)
			snprintf(line, sizeof(line),
				 _("jitter %.3fms lost %lld/%llu"),
				 s->jitter_ms, (long long)s->lost,
				 (unsigned long long)s->packets);
		else
			line[0] = 0;
		ui_put(y, x, r->x + r->w - x, A_NORMAL, line);
		return;
	}
	if (!ti) {
		ui_put(y, x, r->x + r->w - x, ui_attr(UI_C_DIM),
		       far ? _("receiver: no TCP_INFO")
			   : _("no TCP_INFO on this end"));
		return;
	}
	ui_fmt_usec(a, sizeof(a), ti->rtt_us);
	ui_fmt_bytes_short(b, sizeof(b), (double)ti->cwnd);
	snprintf(c, sizeof(c), "%lld", (long long)ti->retrans);
	snprintf(line, sizeof(line), _("rtt %7s cwnd %6s retr %4s"), a, b, c);
	ui_put(y, x, r->x + r->w - x, A_NORMAL, line);
	x += ui_text_width(line) + 1;
	snprintf(line, sizeof(line), _("limit %s"), why ? why : "-");
	ui_put(y, x, r->x + r->w - x, limit_attr(why), line);
	x += ui_text_width(line) + 1;
	if (!far && (s->cpu >= 0 || s->rx_cpu >= 0)) {
		snprintf(line, sizeof(line), _("cpu %d rx %d"), s->cpu,
			 s->rx_cpu);
		ui_put(y, x, r->x + r->w - x, ui_attr(UI_C_DIM), line);
	}
}

void ui_panel_streams(struct ui *ui, const struct ui_rect *r, bool full)
{
	const struct ui_test_view *v = &ui->tv;
	bool udp = v->proto == PS_PROTO_UDP, narrow, far_info = false;
	struct ui_rect in;
	char right[64];
	int y, shown, room;

	ui_clear(r);
	snprintf(right, sizeof(right),
		 P_("%d stream", "%d streams", v->nstreams), v->nstreams);
	in = ui_title(ui, r, _("Streams"), right);
	if (in.h <= 0)
		return;
	if (!v->nstreams) {
		const char *why = _("waiting for the first interval");

		if (v->state == UI_TEST_IDLE)
			why = _("no test yet; s starts one");
		else if (v->state == UI_TEST_FAILED)
			why = _("the test failed (the message is below); s "
				"tries again");
		else if (v->state == UI_TEST_DONE)
			why = _("the test ended before an interval; s runs "
				"another");
		ui_put(in.y, in.x, in.w, ui_attr(UI_C_DIM), why);
		return;
	}
	for (int i = 0; i < v->nremote; i++)
		far_info |= v->remote[i].has_tcpinfo;
	narrow = in.w < 80;
	y = in.y;
	room = in.h;
	if (narrow) {
		narrow_head(y++, &in, udp);
		room--;
	}
	if (full && far_info)
		room = in.h / 2;
	shown = v->nstreams <= room ? v->nstreams : room - 1;
	for (int i = 0; i < shown; i++) {
		if (narrow)
			narrow_row(ui, y++, &in, &v->streams[i], udp);
		else
			row(ui, y++, &in, &v->streams[i], udp, false);
	}
	if (shown < v->nstreams)
		ui_printf(y++, in.x, in.w, ui_attr(UI_C_DIM),
			  _("... and %d more (view 2 shows them all)"),
			  v->nstreams - shown);
	if (!full || !far_info || y >= in.y + in.h - 1)
		return;
	y++;
	ui_put(y++, in.x, in.w, ui_attr(UI_C_TITLE),
	       _("The far end's TCP_INFO (the peer is pipescope)"));
	for (int i = 0; i < v->nremote && y < in.y + in.h; i++)
		row(ui, y++, &in, &v->remote[i], udp, true);
}

static void draw_streams(struct ui *ui, const struct ui_rect *body)
{
	ui_panel_streams(ui, body, true);
}

const struct ui_view_ops ui_view_streams = {
	.name = "streams",
	.title = N_("Streams"),
	.key = '2',
	.panel = UI_P_STREAMS,
	.draw = draw_streams,
};
