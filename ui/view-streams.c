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

enum ui_stream_sort {
	UI_SORT_ID,
	UI_SORT_RATE,
	UI_SORT_RTT,
	UI_SORT_RETR,
	UI_SORT_LIMIT,
	UI_SORT_COUNT
};

static const char *const sort_names[UI_SORT_COUNT] = {
	N_("id"), N_("rate"), N_("rtt"), N_("retr"), N_("limit"),
};

/* the streams' table's state (the dashboard's panel shares it): its
 * first row shown, its order, the rows a page moves (the table's height
 * the last frame) */
struct streams_state {
	int top;
	int sort; /* enum ui_stream_sort */
	int page_rows;
};

static struct streams_state *sstate(const struct ui *ui)
{
	return ui_view_state(ui, &ui_view_streams);
}

static void streams_init(struct ui *ui, void *state)
{
	struct streams_state *st = state;

	(void)ui;
	st->page_rows = 10;
}

/* a test's stream as the screen numbers it: the engine's id, the number
 * its messages ("data stream 3 failed") and the JSON use */
static int stream_no(const struct ps_stream_iv *s)
{
	return s->id;
}

/* the limit order: the factor the row shows, the receiver's window and
 * the send buffer first (a setting lifts them), then the congestion
 * window, the application, no TCP_INFO; the same factor by id (the rate
 * is its own order) */
static double limit_key(const struct ps_stream_iv *ti)
{
	static const char *const rank[] = { "app", "cwnd", "sndbuf", "rwnd" };
	const char *why = ti ? ps_limit_reason(ti) : NULL;

	for (int i = 0; why && i < 4; i++)
		if (!strcmp(why, rank[i]))
			return i + 1;
	return 0;
}

/* how a stream sorts: larger first (equals by id) */
static double sort_key(const struct ui_test_view *v,
		       const struct ps_stream_iv *s, int how)
{
	const struct ps_stream_iv *ti = tcpinfo_of(v, s);

	switch (how) {
	case UI_SORT_RATE:
		return s->bps;
	case UI_SORT_RTT:
		return ti ? (double)ti->rtt_us : -1;
	case UI_SORT_RETR:
		return ti ? (double)ti->retrans : -1;
	case UI_SORT_LIMIT:
		return limit_key(ti);
	default:
		return -s->id;
	}
}

/* the rows in the chosen order: out[] indexes v->streams */
static void order_rows(const struct ui *ui, int *out)
{
	const struct ui_test_view *v = &ui->tv;
	const struct ps_stream_iv *st = v->streams;
	double key[UI_MAX_ROWS];

	for (int i = 0; i < v->nstreams; i++) {
		int j = i;

		key[i] = sort_key(v, &st[i], sstate(ui)->sort);
		/* insertion sort: at most 2 x 128 rows */
		while (j > 0 && (key[out[j - 1]] < key[i] ||
				 (key[out[j - 1]] == key[i] &&
				  st[out[j - 1]].id > st[i].id))) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = i;
	}
}

/* the spread of the streams' rates: total, min, median, max and Jain's
 * fairness index (sum x)^2 / (n sum x^2), 1 when all are equal */
struct spread {
	double total, min, median, max, jain;
};

static void spread_of(const struct ui_test_view *v, struct spread *sp)
{
	double r[UI_MAX_ROWS], sq = 0;
	int n = v->nstreams;

	memset(sp, 0, sizeof(*sp));
	for (int i = 0; i < n; i++) {
		int j = i;
		double x = v->streams[i].bps;

		sp->total += x;
		sq += x * x;
		while (j > 0 && r[j - 1] > x) {
			r[j] = r[j - 1];
			j--;
		}
		r[j] = x;
	}
	if (!n)
		return;
	sp->min = r[0];
	sp->max = r[n - 1];
	sp->median = n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
	sp->jain = sq > 0 ? sp->total * sp->total / (n * sq) : 1;
}

static void spread_line(struct ui *ui, int y, const struct ui_rect *r,
			bool narrow)
{
	struct spread sp;
	char t[32], a[32], m[32], b[32], line[256];

	spread_of(&ui->tv, &sp);
	ui_fmt_bps_short(t, sizeof(t), sp.total);
	ui_fmt_bps_short(a, sizeof(a), sp.min);
	ui_fmt_bps_short(m, sizeof(m), sp.median);
	ui_fmt_bps_short(b, sizeof(b), sp.max);
	snprintf(line, sizeof(line),
		 narrow ? _("total %s min %s med %s max %s fair %.3f")
			: _("total %s  min %s  median %s  max %s  fairness "
			    "%.3f (Jain)"),
		 t, a, m, b, sp.jain);
	ui_put(y, r->x, r->w, ui_attr(sp.jain < 0.9 ? UI_C_WARN : UI_C_LABEL),
	       line);
}

/* above 32 streams: one cell per stream (or group of them, in the
 * table's order), its height its rate against the fastest */
static void strip_line(struct ui *ui, int y, const struct ui_rect *r,
		       const int *ord)
{
	const struct ui_test_view *v = &ui->tv;
	const char *label = _("spread ");
	int lw = ui_text_width(label), w = r->w - lw - 1, n = v->nstreams;
	double max = 0;

	for (int i = 0; i < n; i++)
		if (v->streams[i].bps > max)
			max = v->streams[i].bps;
	ui_put(y, r->x, lw, ui_attr(UI_C_LABEL), label);
	if (w > n)
		w = n;
	for (int c = 0; c < w && max > 0; c++) {
		int a = c * n / w, b = (c + 1) * n / w, lvl;
		double sum = 0;

		for (int i = a; i < b; i++)
			sum += v->streams[ord[i]].bps;
		lvl = (int)(sum / (b - a) / max * 8 + 0.5);
		if (lvl < 1 && sum > 0)
			lvl = 1;
		if (lvl > 8)
			lvl = 8;
		ui_put(y, r->x + lw + c, 1, ui_attr(UI_C_GRAPH),
		       ui->style.g->blocks[lvl]);
	}
}

/* UDP: what a row says of the receiver's count */
static void udp_text(const struct ui_test_view *v, const struct ps_stream_iv *s,
		     bool narrow, char *buf, size_t len, attr_t *a)
{
	*a = A_NORMAL;
	if (s->sender && !v->rows_avg) {
		/* the sender's own figures say nothing of the loss */
		snprintf(buf, len,
			 narrow ? _("    -   sent %llu")
				: _("sent %llu packets so far; the receiver's "
				    "loss comes at the end"),
			 (unsigned long long)s->packets);
		*a = ui_attr(UI_C_DIM);
	} else if (s->sender && !s->packets) {
		snprintf(buf, len, "%s",
			 v->stopped ? _("received: unknown (stopped)")
				    : _("received: unknown (failed)"));
		*a = ui_attr(UI_C_WARN);
	} else {
		double pct = s->packets ? 100.0 * (double)s->lost /
						  (double)s->packets
					: 0;

		snprintf(buf, len,
			 narrow ? "%6.3fms %lld/%llu %.1f%%"
			 : v->rows_avg
				 ? _("jitter %.3fms lost %lld/%llu (%.1f%%)")
				 : _("jitter %.3fms lost %lld/%llu (%.1f%%) "
				     "so far"),
			 s->jitter_ms, (long long)s->lost,
			 (unsigned long long)s->packets, pct);
		if (pct >= 1)
			*a = ui_attr(pct >= 10 ? UI_C_BAD : UI_C_WARN);
	}
}

/* the largest rate in the sparklines, this frame (their common scale) */
static double spark_max;

/* a stream's recent rates as block heights, where the row leaves room */
static void sparkline(struct ui *ui, int y, int x, int w, int idx)
{
	const struct ui_test_view *v = &ui->tv;
	int n = (int)(v->nspark < UI_SPARK ? v->nspark : UI_SPARK);

	if (w > n)
		w = n;
	if (w < 2 || spark_max <= 0 || idx < 0)
		return;
	for (int c = 0; c < w; c++) {
		uint32_t k = v->nspark - (uint32_t)w + (uint32_t)c;
		double b = v->spark[idx][k % UI_SPARK];
		int lvl = (int)(b / spark_max * 8 + 0.5);

		if (lvl < 1 && b > 0)
			lvl = 1;
		if (lvl > 8)
			lvl = 8;
		ui_put(y, x + c, 1, ui_attr(UI_C_GRAPH),
		       ui->style.g->blocks[lvl]);
	}
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
		attr_t at;

		snprintf(line, sizeof(line), "%3d  %-4s %6s ", stream_no(s),
			 s->sender ? _("send") : _("recv"), rate);
		ui_put(y, r->x, r->w, A_NORMAL, line);
		w = ui_text_width(line);
		udp_text(&ui->tv, s, true, a, sizeof(a), &at);
		ui_put(y, r->x + w, r->w - w, at, a);
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
		 stream_no(s), s->sender ? _("send") : _("recv"), rate, a, b,
		 ti ? (long long)ti->retrans : 0LL);
	ui_put(y, r->x, r->w, A_NORMAL, line);
	w = ui_text_width(line);
	ui_put(y, r->x + w, r->w - w, limit_attr(why), why ? why : "-");
}

static void row(struct ui *ui, int y, const struct ui_rect *r,
		const struct ps_stream_iv *s, bool udp, bool far, int idx)
{
	const struct ps_stream_iv *ti = far ? s : tcpinfo_of(&ui->tv, s);
	char rate[32], a[32], b[32], c[32], line[256];
	const char *why;
	int x = r->x;

	if (ti && !ti->has_tcpinfo)
		ti = NULL;
	why = ti ? ps_limit_reason(ti) : NULL;
	ui_fmt_bps(rate, sizeof(rate), s->bps);
	snprintf(line, sizeof(line), "[%3d] %-4s %12s", stream_no(s),
		 s->sender ? _("send") : _("recv"), rate);
	ui_put(y, x, r->w, ui_attr(UI_C_VALUE), line);
	x += ui_text_width(line) + 1;
	if (udp) {
		attr_t at;

		udp_text(&ui->tv, s, false, line, sizeof(line), &at);
		ui_put(y, x, r->x + r->w - x, at, line);
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
		x += ui_text_width(line) + 2;
	}
	if (!far)
		sparkline(ui, y, x, r->x + r->w - x, idx);
}

bool ui_streams_key(struct ui *ui, int ch)
{
	struct streams_state *st = sstate(ui);
	int n = ui->tv.nstreams;

	if (ch == 'o' || ch == 'O') {
		st->sort = (st->sort + 1) % UI_SORT_COUNT;
		st->top = 0;
		ui_say(ui, 0, _("streams ordered by %s (o: the next order)"),
		       _(sort_names[st->sort]));
		return true;
	}
	return ui_scroll_key(ch, &st->top, st->page_rows, n);
}

void ui_panel_streams(struct ui *ui, const struct ui_rect *r, bool full)
{
	struct streams_state *st = sstate(ui);
	const struct ui_test_view *v = &ui->tv;
	bool udp = v->proto == PS_PROTO_UDP, narrow, far_info = false;
	struct ui_rect in;
	char right[160];
	int ord[UI_MAX_ROWS];
	int y, shown, room, top;

	ui_clear(r);
	if (v->rows_avg)
		snprintf(right, sizeof(right),
			 P_("%d stream, averages over %.1f s%s",
			    "%d streams, averages over %.1f s%s", v->nstreams),
			 v->nstreams, v->end_duration,
			 v->end_partial ? (v->stopped ? _(" (stopped)")
						      : _(" (failed)"))
					: "");
	else
		snprintf(right, sizeof(right),
			 P_("%d stream", "%d streams", v->nstreams),
			 v->nstreams);
	if (v->nstreams > 1 && st->sort != UI_SORT_ID) {
		size_t l = strlen(right);

		snprintf(right + l, sizeof(right) - l, _(", by %s"),
			 _(sort_names[st->sort]));
	}
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
	order_rows(ui, ord);
	spark_max = 0;
	for (int i = 0; i < v->nstreams; i++)
		for (int k = 0; k < UI_SPARK && (uint32_t)k < v->nspark; k++)
			if (v->spark[i][k] > spark_max)
				spark_max = v->spark[i][k];
	narrow = in.w < 80;
	y = in.y;
	room = in.h;
	if (full && far_info)
		room = in.h / 2;
	if (narrow && room > 2) {
		narrow_head(y++, &in, udp);
		room--;
	}
	/* the spread and, for many streams, a strip of them all */
	if (v->nstreams > 1 && (room > 3 || room > v->nstreams)) {
		spread_line(ui, y++, &in, narrow);
		room--;
	}
	if (v->nstreams > 32 && room > 3) {
		strip_line(ui, y++, &in, ord);
		room--;
	}
	shown = v->nstreams <= room ? v->nstreams : room - 1;
	if (shown < 1)
		shown = 1;
	st->page_rows = shown > 1 ? shown - 1 : 1;
	top = st->top;
	if (top > v->nstreams - shown)
		top = v->nstreams - shown;
	if (top < 0)
		top = 0;
	st->top = top;
	for (int i = top; i < top + shown; i++) {
		if (narrow)
			narrow_row(ui, y++, &in, &v->streams[ord[i]], udp);
		else
			row(ui, y++, &in, &v->streams[ord[i]], udp, false,
			    ord[i]);
	}
	if (shown < v->nstreams)
		ui_printf(y++, in.x, in.w, ui_attr(UI_C_DIM),
			  _("rows %d-%d of %d: arrows, PgUp/PgDn, Home/End "
			    "scroll; o orders"),
			  top + 1, top + shown, v->nstreams);
	if (!full || !far_info || y >= in.y + in.h - 1)
		return;
	y++;
	ui_put(y++, in.x, in.w, ui_attr(UI_C_TITLE),
	       _("The far end's TCP_INFO (the peer is pipescope)"));
	for (int i = 0; i < v->nremote && y < in.y + in.h; i++)
		row(ui, y++, &in, &v->remote[i], udp, true, -1);
}

static void draw_streams(struct ui *ui, const struct ui_rect *body)
{
	ui_panel_streams(ui, body, true);
}

static const struct ui_key streams_keys[] = {
	{ .ch = { KEY_UP, KEY_DOWN },
	  .key = "Up/Down",
	  .shortkey = "Up/Dn",
	  .longer = N_("scroll"),
	  .shorter = N_("scroll"),
	  .rank = 31 },
	{ .ch = { KEY_PPAGE, KEY_NPAGE },
	  .key = "PgUp/PgDn",
	  .shortkey = "PgUp/Dn",
	  .longer = N_("page"),
	  .shorter = N_("page"),
	  .rank = 32,
	  .drop = 1 },
	{ .ch = { KEY_HOME, KEY_END },
	  .key = "Home/End",
	  .shortkey = "Hm/End",
	  .longer = N_("ends"),
	  .shorter = N_("ends"),
	  .rank = 33,
	  .drop = 2 },
	{ .ch = { 'o', 'O' },
	  .key = "o",
	  .shortkey = "o",
	  .longer = N_("order"),
	  .shorter = N_("sort"),
	  .rank = 34 },
	{ .helpkey = "Up Dn o",
	  /* xgettext:c-format */
	  .help = N_("scroll the streams, PgUp/PgDn, Home/End; o orders "
		     "them; view %s: a finding, Enter opens it"),
	  .ref = &ui_view_checklist,
	  .rank = 60 },
};

const struct ui_view_ops ui_view_streams = {
	.name = "streams",
	.title = N_("Streams"),
	.noun = N_("streams"),
	.key = '2',
	.panel = UI_P_STREAMS,
	.draw = draw_streams,
	.key_handler = ui_streams_key,
	.keys = streams_keys,
	.nkeys = UI_NKEYS(streams_keys),
	/* the test's settings make room for the scrolling keys */
	.footer_without = "g+Rduti",
	.state_size = sizeof(struct streams_state),
	.init = streams_init,
};
