/* test-ui.c: the workstation's pure arithmetic: where panels go at every
 * size, how many cores fold into the CPU panel, bars, the graph's axis and
 * dots, and the short numbers and the PCIe line the screen prints; and the
 * views' table: the footers and the help's keys come from it */
#include "config.h"

#include <locale.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "probe-pci.h"
#include "ui-internal.h"
#include "ui-layout.h"
#include "ui-model.h"
#include "ui-text.h"
#include "xmalloc.h"

static bool inside(const struct ui_rect *r, int rows, int cols)
{
	return r->y >= 0 && r->x >= 0 && r->y + r->h <= rows &&
	       r->x + r->w <= cols;
}

static void check_dashboard(int rows, int cols, int want)
{
	static const int min_h[UI_P_COUNT] = {
		[UI_P_HEADER] = 2,   [UI_P_GRAPH] = 5,	 [UI_P_STREAMS] = 4,
		[UI_P_CPU] = 4,	     [UI_P_IRQ] = 4,	 [UI_P_NIC] = 4,
		[UI_P_FINDINGS] = 2, [UI_P_MESSAGE] = 1, [UI_P_FOOTER] = 1,
	};
	struct ui_layout l;

	ui_layout_compute(rows, cols, true, want, &l);
	assert_false(l.too_small);
	assert_int_equal(l.p[UI_P_HEADER].y, 0);
	assert_int_equal(l.p[UI_P_FOOTER].y, rows - 1);
	assert_int_equal(l.p[UI_P_MESSAGE].y, rows - 2);
	assert_int_equal(l.p[UI_P_BODY].h, 0);
	for (int i = 0; i < UI_P_COUNT; i++) {
		if (i == UI_P_BODY)
			continue;
		assert_true(inside(&l.p[i], rows, cols));
		assert_true(l.p[i].h >= min_h[i]);
		assert_true(l.p[i].w >= 35);
		for (int k = 0; k < i; k++)
			assert_false(ui_rect_overlap(&l.p[i], &l.p[k]));
	}
	/* every row of the screen belongs to some panel */
	for (int y = 0; y < rows; y++) {
		bool used = false;

		for (int i = 0; i < UI_P_COUNT; i++)
			used |= l.p[i].h && y >= l.p[i].y &&
				y < l.p[i].y + l.p[i].h;
		assert_true(used);
	}
}

static void test_layout(void **state)
{
	struct ui_layout l;

	check_dashboard(24, 80, 0);
	check_dashboard(30, 100, 0);
	check_dashboard(40, 80, 0);
	check_dashboard(24, 300, 0);
	check_dashboard(60, 200, 0);
	for (int r = 24; r < 70; r += 3)
		for (int c = 80; c < 260; c += 7)
			check_dashboard(r, c, 0);

	/* the CPU panel asks for its cores' lines; the IRQ panel gets the
	 * rest, and neither goes below four lines */
	for (int want = 1; want < 300; want += 7) {
		check_dashboard(24, 80, want);
		check_dashboard(30, 100, want);
		check_dashboard(50, 140, want);
	}
	ui_layout_compute(30, 100, true, 4, &l);
	assert_int_equal(l.p[UI_P_CPU].h, 4);
	assert_int_equal(l.p[UI_P_IRQ].h, 15);
	ui_layout_compute(30, 100, true, 258, &l);
	assert_int_equal(l.p[UI_P_IRQ].h, 4);
	assert_int_equal(l.p[UI_P_CPU].h, 15);

	ui_layout_compute(30, 100, false, 0, &l);
	assert_false(l.too_small);
	assert_int_equal(l.p[UI_P_BODY].y, 2);
	assert_int_equal(l.p[UI_P_BODY].h, 26);
	assert_int_equal(l.p[UI_P_BODY].w, 100);
	assert_int_equal(l.p[UI_P_CPU].h, 0);

	/* the streams panel and the findings strip as tall as they ask,
	 * the graph the rest and never below its minimum; nothing overlaps */
	ui_layout_compute_want(60, 200, true, 0, 7, 9, &l);
	assert_int_equal(l.p[UI_P_STREAMS].h, 7);
	assert_int_equal(l.p[UI_P_FINDINGS].h, 9);
	assert_int_equal(l.p[UI_P_GRAPH].y + l.p[UI_P_GRAPH].h,
			 l.p[UI_P_STREAMS].y);
	assert_false(ui_rect_overlap(&l.p[UI_P_FINDINGS], &l.p[UI_P_NIC]));
	ui_layout_compute_want(24, 80, true, 0, 300, 300, &l);
	assert_true(l.p[UI_P_GRAPH].h >= UI_GRAPH_MIN_H);
	assert_int_equal(l.p[UI_P_FINDINGS].h, 24 / 5);
	assert_false(ui_rect_overlap(&l.p[UI_P_STREAMS], &l.p[UI_P_NIC]));

	ui_layout_compute(24, 79, true, 0, &l);
	assert_true(l.too_small);
	ui_layout_compute(23, 80, true, 0, &l);
	assert_true(l.too_small);
	ui_layout_compute(20, 60, false, 0, &l);
	assert_true(l.too_small);
	ui_layout_compute(0, 0, true, 0, &l);
	assert_true(l.too_small);
}

/* a planned grid; -1: that field is not checked */
#define ANY -1
static const struct {
	int n, h, w;
	struct ui_cpu_grid want;
} grids[] = {
	{ 2, 8, 44, { UI_CPU_BARS, 1, 2, 44, ANY } },
	{ 64, 26, 100, { UI_CPU_BARS, 3, 22, ANY, ANY } },
	/* 8 columns a cell: "255:100 " */
	{ 256, 26, 100, { UI_CPU_CELLS, 12, 22, 8, ANY } },
	{ 64, 8, 44, { UI_CPU_DOTS, ANY, 2, ANY, 3 } },
	{ 256, 8, 44, { UI_CPU_DOTS, ANY, 7, ANY, ANY } },
	/* 256 cores in 8 x 35 (the dashboard at 80x24): no room for labels */
	{ 256, 8, 35, { UI_CPU_DOTS, 35, 8, ANY, 0 } },
};

static void test_cpu_grid(void **state)
{
	struct ui_cpu_grid g;

	for (size_t i = 0; i < sizeof(grids) / sizeof(grids[0]); i++) {
		const struct ui_cpu_grid *w = &grids[i].want;

		assert_true(ui_cpu_grid_plan(grids[i].n, grids[i].h, grids[i].w,
					     &g));
		assert_int_equal(g.mode, w->mode);
		if (w->ncols != ANY)
			assert_int_equal(g.ncols, w->ncols);
		if (w->nrows != ANY)
			assert_int_equal(g.nrows, w->nrows);
		if (w->cell_w != ANY)
			assert_int_equal(g.cell_w, w->cell_w);
		if (w->label_w != ANY)
			assert_int_equal(g.label_w, w->label_w);
	}

	/* 256 cores in 2 x 44: one cell each does not fit */
	assert_false(ui_cpu_grid_plan(256, 2, 44, &g));
	assert_true(ui_cpu_grid_plan(0, 8, 44, &g));

	/* whatever fits shows every core, inside the panel */
	for (int n = 1; n <= 300; n += 3)
		for (int h = 1; h <= 30; h += 2)
			for (int w = 20; w <= 120; w += 9) {
				if (!ui_cpu_grid_plan(n, h, w, &g))
					continue;
				assert_true(g.ncols * g.nrows >= n);
				assert_true(g.nrows <= h);
				switch (g.mode) {
				case UI_CPU_BARS:
					assert_true(g.ncols * (g.cell_w + 1) -
							    1 <=
						    w);
					break;
				case UI_CPU_CELLS:
					assert_true(g.ncols * g.cell_w <= w);
					break;
				case UI_CPU_DOTS:
					assert_true(g.label_w + g.ncols <= w);
					break;
				}
			}
}

static void test_bar_split(void **state)
{
	const double a[4] = { 50, 25, 0, 25 };
	const double b[4] = { 33.3, 33.3, 33.3, 0 };
	const double c[4] = { 90, 30, -5, 10 };
	const double d[4] = { 0.4, 0.4, 0.4, 0.4 };
	int out[4];

	ui_bar_split(a, 4, 40, out);
	assert_int_equal(out[0], 20);
	assert_int_equal(out[1], 10);
	assert_int_equal(out[2], 0);
	assert_int_equal(out[3], 10);

	ui_bar_split(b, 4, 10, out);
	assert_int_equal(out[0] + out[1] + out[2] + out[3], 10);
	assert_int_equal(out[3], 0);
	assert_true(out[0] >= 3 && out[1] >= 3 && out[2] >= 3);

	/* more than 100 %: capped at the width; negative parts are none */
	ui_bar_split(c, 4, 20, out);
	assert_int_equal(out[0] + out[1] + out[2] + out[3], 20);
	assert_int_equal(out[2], 0);

	/* 1.6 % of 30 cells rounds to no cell */
	ui_bar_split(d, 4, 30, out);
	assert_int_equal(out[0] + out[1] + out[2] + out[3], 0);
}

static void test_graph(void **state)
{
	assert_true(ui_graph_axis_max(0) == 1);
	assert_true(ui_graph_axis_max(7) == 10);
	assert_true(ui_graph_axis_max(1e9) == 1e9);
	assert_true(ui_graph_axis_max(3e9) == 5e9);
	assert_true(ui_graph_axis_max(21.3e9) == 25e9);
	assert_true(ui_graph_axis_max(26e9) == 50e9);
	assert_true(ui_graph_axis_max(1.5e8) == 2e8);

	/* a full column, an empty one, half, a tiny non-zero value */
	for (int r = 0; r < 4; r++) {
		assert_int_equal(ui_graph_fill(10, 10, 4, r, 4), 4);
		assert_int_equal(ui_graph_fill(0, 10, 4, r, 4), 0);
		assert_int_equal(ui_graph_fill(5, 10, 4, r, 4), r < 2 ? 4 : 0);
		assert_int_equal(ui_graph_fill(1e-6, 10, 4, r, 4),
				 r == 0 ? 1 : 0);
		assert_int_equal(ui_graph_fill(20, 10, 4, r, 8), 8);
	}
	/* 5.5 of 10 over 16 levels is 8.8, rounded 9: row 2 shows 1 */
	assert_int_equal(ui_graph_fill(5.5, 10, 4, 2, 4), 1);
	assert_int_equal(ui_graph_fill(5.5, 10, 4, 1, 4), 4);

	assert_int_equal(ui_braille_bits(0, 0), 0);
	assert_int_equal(ui_braille_bits(4, 4), 0xff);
	assert_int_equal(ui_braille_bits(1, 0), 0x40);
	assert_int_equal(ui_braille_bits(0, 1), 0x80);
	assert_int_equal(ui_braille_bits(2, 1), 0x40 | 0x04 | 0x80);
	assert_int_equal(ui_braille_bits(4, 0), 0x47);
}

static void test_numbers(void **state)
{
	char b[64];

	ui_fmt_bps(b, sizeof(b), 38.2e9);
	assert_string_equal(b, "38.2 Gbit/s");
	ui_fmt_bps(b, sizeof(b), 940e6);
	assert_string_equal(b, "940 Mbit/s");
	ui_fmt_bps(b, sizeof(b), 0);
	assert_string_equal(b, "0 bit/s");
	ui_fmt_bps(b, sizeof(b), 999.96e6);
	assert_string_equal(b, "1.00 Gbit/s");
	ui_fmt_bps(b, sizeof(b), 5);
	assert_string_equal(b, "5 bit/s");
	ui_fmt_bps_short(b, sizeof(b), 21.3e9);
	assert_string_equal(b, "21.3G");
	ui_fmt_bps_short(b, sizeof(b), 300e6);
	assert_string_equal(b, "300M");
	ui_fmt_bytes_short(b, sizeof(b), 1.62 * 1024 * 1024);
	assert_string_equal(b, "1.62M");
	ui_fmt_bytes_short(b, sizeof(b), 767 * 1024);
	assert_string_equal(b, "767K");
	ui_fmt_bytes_short(b, sizeof(b), 900);
	assert_string_equal(b, "900");
	ui_fmt_usec(b, sizeof(b), 45);
	assert_string_equal(b, "45us");
	ui_fmt_usec(b, sizeof(b), 1234);
	assert_string_equal(b, "1.23ms");
	ui_fmt_usec(b, sizeof(b), 18400);
	assert_string_equal(b, "18.4ms");
	ui_fmt_usec(b, sizeof(b), 1.5e6);
	assert_string_equal(b, "1.50s");
	ui_fmt_gts(b, sizeof(b), 2.5);
	assert_string_equal(b, "2.5GT/s");
	ui_fmt_gts(b, sizeof(b), 16);
	assert_string_equal(b, "16GT/s");
}

static void test_pcie(void **state)
{
	struct ps_pci_info p;
	char b[256];

	memset(&p, 0, sizeof(p));
	p.status = PS_ST_OK;
	p.link_status = PS_ST_OK;
	p.sta_width = p.cap_width = 8;
	p.sta_speed = p.cap_speed = 8;
	ui_fmt_pcie(&p, true, b, sizeof(b));
	assert_string_equal(b, "x8 8GT/s of x8 8GT/s");

	p.sta_width = 1;
	p.sta_speed = 5;
	p.downgraded = true;
	ui_fmt_pcie(&p, true, b, sizeof(b));
	assert_string_equal(b, "x1 5GT/s of x8 8GT/s \u2014 degraded");
	ui_fmt_pcie(&p, false, b, sizeof(b));
	assert_string_equal(b, "x1 5GT/s of x8 8GT/s -- degraded");

	/* the NIC trained fully, a switch above it did not */
	p.sta_width = 8;
	p.sta_speed = 8;
	p.downgraded = false;
	p.limited_upstream = true;
	p.limit_width = 4;
	p.limit_speed = 2.5;
	snprintf(p.limit_bdf, sizeof(p.limit_bdf), "0000:00:1c.0");
	ui_fmt_pcie(&p, false, b, sizeof(b));
	assert_string_equal(
		b, "x8 8GT/s of x8 8GT/s, upstream x4 2.5GT/s at 0000:00:1c.0");

	/* a virtual NIC: the reason, not numbers */
	memset(&p, 0, sizeof(p));
	p.status = PS_ST_ABSENT;
	snprintf(p.reason, sizeof(p.reason), "virtual interface");
	ui_fmt_pcie(&p, true, b, sizeof(b));
	assert_non_null(strstr(b, "virtual interface"));
	assert_null(strstr(b, "GT/s"));

	p.status = PS_ST_OK;
	p.link_status = PS_ST_NEEDS_ROOT;
	p.link_reason[0] = 0;
	ui_fmt_pcie(&p, true, b, sizeof(b));
	assert_null(strstr(b, "GT/s"));
	assert_true(strlen(b) > 0);
}

/* in UTF-8: a string's width, and what is left of it clipped to cols */
static const struct {
	const char *s;
	int cols;
} widths[] = {
	{ "x\u2014y", 3 },
	{ "\u2800\u28ff", 2 },
	{ "a\377\376b", 4 },
	{ "\u4e2de\u0301", 3 },
};
static const struct {
	const char *s;
	int cols;
	const char *want;
} clips[] = {
	{ "h\u00e9llo", 2, "h\u00e9" },
	{ "abc", 10, "abc" },
	{ "abc", 0, "" },
	{ "a\377\377b", 2, "a\377" },
	{ "a\u4e2db", 2, "a" },
};

static void test_width(void **state)
{
	char s[64];

	assert_int_equal(ui_text_width("abc"), 3);
	assert_int_equal(ui_text_width(""), 0);
	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		skip();
	/* a byte that is no UTF-8 is one column; wide and combining ones too */
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		assert_int_equal(ui_text_width(widths[i].s), widths[i].cols);
	for (size_t i = 0; i < sizeof(clips) / sizeof(clips[0]); i++) {
		snprintf(s, sizeof(s), "%s", clips[i].s);
		ui_text_clip(s, clips[i].cols);
		assert_string_equal(s, clips[i].want);
	}
	setlocale(LC_CTYPE, "C");
}

/* the engine's callbacks fill the model the screen copies */
static bool woken(struct ui_model *m)
{
	struct pollfd p = { .fd = m->wake_fd, .events = POLLIN };
	bool r = poll(&p, 1, 0) == 1;

	ui_model_drain(m);
	return r;
}

static void test_model(void **state)
{
	static struct ui_model m;
	static struct ui_test_view v;
	static struct ps_test_info info;
	struct ps_reporter rep;
	struct ps_stream_iv st[2], one;
	struct ps_interval iv;
	struct ps_summary sum;
	uint64_t remote_bytes[1] = { 1000 };

	assert_int_equal(ui_model_init(&m), 0);
	ui_model_reporter(&m, &rep);
	assert_false(woken(&m));

	memset(&info, 0, sizeof(info));
	info.ntargets = 1;
	info.target_host[0] = "192.0.2.1";
	info.target_port[0] = 5201;
	info.peer_kind = "iperf3";
	snprintf(info.peer_version, sizeof(info.peer_version), "3.12");
	info.parallel = 2;
	info.reverse = true;
	info.duration = 30;
	rep.start(rep.arg, &info);
	assert_true(woken(&m));
	ui_model_copy(&m, &v);
	assert_int_equal(v.state, UI_TEST_RUNNING);
	assert_string_equal(v.target, "192.0.2.1:5201");
	assert_string_equal(v.peer_kind, "iperf3");
	assert_string_equal(v.peer_version, "3.12");
	assert_true(v.reverse);
	assert_int_equal(v.parallel, 2);

	/* two streams and their sum */
	memset(st, 0, sizeof(st));
	memset(&iv, 0, sizeof(iv));
	st[0].id = 1;
	st[0].bytes = 1000;
	st[0].bps = 8000;
	st[1].id = 3;
	st[1].bytes = 2000;
	st[1].bps = 16000;
	iv.start = 0;
	iv.end = 1;
	iv.nstreams = 2;
	iv.streams = st;
	iv.have_sum[1] = true;
	iv.sum[1].bytes = 3000;
	iv.sum[1].bps = 24000;
	rep.interval(rep.arg, &iv);
	assert_true(woken(&m));
	ui_model_copy(&m, &v);
	assert_int_equal(v.nstreams, 2);
	assert_int_equal(v.streams[1].id, 3);
	assert_true(v.now_bps == 24000);
	assert_true(v.sum_bps[1] == 24000 && v.sum_bps[0] == 0);
	assert_true(v.bytes_total == 3000 && v.time_total == 1);
	assert_true(v.elapsed == 1);
	assert_int_equal(v.nhist, 1);
	assert_true(v.hist[0] == 24000);

	/* an omitted interval is drawn but not averaged */
	iv.start = 1;
	iv.end = 2;
	iv.omitted = true;
	rep.interval(rep.arg, &iv);
	ui_model_copy(&m, &v);
	assert_true(v.bytes_total == 3000 && v.time_total == 1);
	assert_int_equal(v.nhist, 2);

	/* one stream without sums: the stream is the sum */
	memset(&one, 0, sizeof(one));
	one.bytes = 500;
	one.bps = 4000;
	memset(&iv, 0, sizeof(iv));
	iv.start = 2;
	iv.end = 3;
	iv.nstreams = 1;
	iv.streams = &one;
	rep.interval(rep.arg, &iv);
	ui_model_copy(&m, &v);
	assert_true(v.now_bps == 4000);
	assert_true(v.bytes_total == 3500 && v.time_total == 2);
	assert_int_equal(v.nstreams, 1);

	/* the history is a ring: the newest sample is at nhist - 1 */
	for (int i = 0; i < UI_HIST + 5; i++)
		rep.interval(rep.arg, &iv);
	ui_model_copy(&m, &v);
	assert_int_equal(v.nhist, UI_HIST + 8);
	assert_true(v.hist[(v.nhist - 1) % UI_HIST] == 4000);

	/* an error is shown, unless a stop was asked for */
	rep.error(rep.arg, "unable to connect");
	ui_model_copy(&m, &v);
	assert_string_equal(v.error, "unable to connect");
	assert_int_equal(v.message_level, 2);
	v.error[0] = 0;
	m.v.error[0] = 0;
	atomic_store(&m.stop, true);
	rep.error(rep.arg, "interrupted");
	ui_model_copy(&m, &v);
	assert_string_equal(v.error, "");
	assert_string_equal(v.message, "interrupted");
	assert_int_equal(v.message_level, 0);

	/* the end: the sender's and the receiver's counts */
	memset(&sum, 0, sizeof(sum));
	memset(&one, 0, sizeof(one));
	one.sender = true;
	one.bytes = 1250;
	sum.duration = 1;
	sum.nstreams = 1;
	sum.local = &one;
	sum.remote_valid = true;
	sum.remote_bytes = remote_bytes;
	rep.end(rep.arg, &info, &sum);
	ui_model_copy(&m, &v);
	assert_true(v.have_end);
	assert_true(v.end_bps[0] == 10000);
	assert_true(v.end_bps[1] == 8000);
	assert_true(v.end_duration == 1);

	ui_model_say(&m, 1, "hello");
	ui_model_copy(&m, &v);
	assert_string_equal(v.message, "hello");
	assert_int_equal(v.message_level, 1);
	ui_model_destroy(&m);
}

/* a model whose test to 192.0.2.1:5201 has started */
static void model_start(struct ui_model *m, struct ps_reporter *rep,
			struct ps_test_info *info, enum ps_proto proto,
			bool reverse, int parallel)
{
	assert_int_equal(ui_model_init(m), 0);
	ui_model_reporter(m, rep);
	memset(info, 0, sizeof(*info));
	info->ntargets = 1;
	info->target_host[0] = "192.0.2.1";
	info->target_port[0] = 5201;
	info->parallel = parallel;
	info->reverse = reverse;
	info->proto = proto;
	info->duration = 5;
	rep->start(rep->arg, info);
}

/* -R: the final rows show the far end's (the sender's) retransmits of the
 * whole test, not 0 of this receiving end nor its last interval's */
static void test_model_far_retrans(void **state)
{
	static struct ui_model m;
	static struct ui_test_view v;
	static struct ps_test_info info;
	struct ps_reporter rep;
	struct ps_stream_iv here[2], far[2];
	struct ps_interval iv;
	struct ps_summary sum;
	uint64_t remote_bytes[2] = { 1000, 1000 };
	int64_t remote_retrans[2] = { 22, -1 };

	(void)state;
	model_start(&m, &rep, &info, PS_PROTO_TCP, true, 2);
	memset(here, 0, sizeof(here));
	memset(far, 0, sizeof(far));
	memset(&iv, 0, sizeof(iv));
	for (int i = 0; i < 2; i++) {
		here[i].id = far[i].id = 2 * i + 1;
		here[i].bytes = far[i].bytes = 1000;
		far[i].sender = true;
		far[i].has_tcpinfo = true;
		far[i].retrans = 3 + 5 * i; /* its last interval's */
		far[i].rtt_us = 120;
	}
	iv.end = 1;
	iv.nstreams = iv.nremote = 2;
	iv.streams = here;
	iv.remote = far;
	rep.interval(rep.arg, &iv);
	ui_model_copy(&m, &v);
	assert_true(v.remote[0].retrans == 3);
	memset(&sum, 0, sizeof(sum));
	sum.duration = 1;
	sum.nstreams = 2;
	sum.local = here;
	sum.remote_valid = true;
	sum.remote_bytes = remote_bytes;
	sum.remote_retrans = remote_retrans;
	rep.end(rep.arg, &info, &sum);
	ui_model_copy(&m, &v);
	assert_true(v.rows_avg);
	assert_true(v.remote[0].retrans ==
		    22); /* the test's, from its results */
	assert_true(v.remote[1].retrans == 8); /* not told: kept */
	assert_true(v.remote[0].rtt_us == 120);
	ui_model_destroy(&m);
}

/* UDP: the graph plots what the receiver said arrived (a flat sent rate
 * hides a 30% loss); with no receiver's word, the sent rate */
static void test_model_udp_graph(void **state)
{
	static struct ui_model m;
	static struct ui_test_view v;
	static struct ps_test_info info;
	struct ps_reporter rep;
	struct ps_stream_iv here, far;
	struct ps_interval iv;

	(void)state;
	model_start(&m, &rep, &info, PS_PROTO_UDP, false, 1);
	memset(&here, 0, sizeof(here));
	memset(&far, 0, sizeof(far));
	memset(&iv, 0, sizeof(iv));
	here.id = far.id = 1;
	here.sender = true;
	here.bps = 2e9;
	far.bps = 1.4e9; /* what arrived */
	iv.end = 1;
	iv.nstreams = iv.nremote = 1;
	iv.streams = &here;
	iv.remote = &far;
	rep.interval(rep.arg, &iv);
	ui_model_copy(&m, &v);
	assert_int_equal(v.nhist, 1);
	assert_true(v.hist[0] == 1.4e9);
	iv.start = 1;
	iv.end = 2;
	iv.nremote = 0; /* an iperf3 server says nothing while it runs */
	rep.interval(rep.arg, &iv);
	ui_model_copy(&m, &v);
	assert_true(v.hist[1] == 2e9);
	ui_model_destroy(&m);
}

/* the checks' signs in ASCII, the rest untouched */
static void test_ascii(void **state)
{
	char a[] = "2 \u00d7 BDP \u2192 x \u2265 1\u2026 \u00b5s \u00e9";
	char b[] = "\u00d7\u00d7";

	(void)state;
	ui_text_ascii(a);
	assert_string_equal(a, "2 x BDP -> x >= 1... us \u00e9");
	ui_text_ascii(b);
	assert_string_equal(b, "xx");
}

/* whether k is one of keys[0..n) */
static bool among(const struct ui_key *k, const struct ui_key *keys, int n)
{
	return k >= keys && k < keys + n;
}

/* how many of the footer's n keys carry this name */
static int named(const struct ui_key **f, int n, const char *name)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		c += !strcmp(f[i]->key, name);
	return c;
}

/* whether view v shows its key k in its footer now */
static bool own_shown(struct ui *ui, const struct ui_key *k)
{
	return k->key && !(k->flags & UI_KEY_OTHER_FOOTERS) &&
	       (!k->shown || k->shown(ui));
}

/* one view's footer: every key from the tables, each name once; every
 * global key it does not leave out or replace; every own key it shows */
static void check_footer(struct ui *ui, const struct ui_view_ops *v)
{
	const struct ui_key *f[64];
	int n = ui_footer_keys(ui, v, f, 64);

	assert_true(n > 0 && n < 64);
	for (int i = 0; i < n; i++) {
		bool from_table =
			among(f[i], ui_global_keys, ui_nglobal_keys) ||
			among(f[i], v->keys, v->nkeys);

		for (int w = 0; w < ui_nviews; w++)
			from_table |= among(f[i], ui_views[w]->keys,
					    ui_views[w]->nkeys) &&
				      (f[i]->flags & UI_KEY_OTHER_FOOTERS);
		assert_true(from_table);
		assert_int_equal(named(f, n, f[i]->key), 1);
		/* in rank order */
		if (i)
			assert_true(f[i - 1]->rank <= f[i]->rank);
	}
	for (int i = 0; i < ui_nglobal_keys; i++) {
		const struct ui_key *k = &ui_global_keys[i];
		bool left = v->footer_without && k->ch[0] > 0 &&
			    k->ch[0] < 256 &&
			    strchr(v->footer_without, k->ch[0]);

		if (k->key && !left)
			assert_int_equal(named(f, n, k->key), 1);
	}
	for (int i = 0; i < v->nkeys; i++)
		if (own_shown(ui, &v->keys[i]))
			assert_int_equal(named(f, n, v->keys[i].key), 1);
	/* help, quit and the views' keys are in every footer */
	assert_int_equal(named(f, n, "F1"), 1);
	assert_int_equal(named(f, n, "q"), 1);
	assert_int_equal(named(f, n, "%s"), 1);
}

/* no view's table repeats a global key: one of the same name says
 * something else there (the checklist's s skips a step) */
static void check_no_repeat(const struct ui_view_ops *v)
{
	for (int i = 0; i < v->nkeys; i++)
		for (int g = 0; g < ui_nglobal_keys; g++) {
			const struct ui_key *k = &v->keys[i];
			const struct ui_key *gk = &ui_global_keys[g];

			if (k->key && gk->key && !strcmp(k->key, gk->key))
				assert_string_not_equal(k->longer, gk->longer);
		}
}

/* the footers of every view come from the tables; the checklist's s is
 * its own while a guided run goes */
static void test_footers(void **state)
{
	struct ui *ui = xcalloc(1, sizeof(*ui));
	const struct ui_key *f[64];
	char want[16], buf[16];
	int n;

	(void)state;
	ui_views_open(ui);
	for (int i = 0; i < ui_nviews; i++)
		check_no_repeat(ui_views[i]);
	for (int busy = 0; busy < 2; busy++) {
		/* a guided run going: its thread is live, not finished */
		ui->grun.th_live = busy;
		for (int i = 0; i < ui_nviews; i++)
			check_footer(ui, ui_views[i]);
		check_footer(ui, &ui_view_help);
	}
	/* the views' key reads "1-N", N the table's size */
	n = ui_footer_keys(ui, &ui_view_dashboard, f, 64);
	snprintf(want, sizeof(want), "1-%d", ui_nviews);
	for (int i = 0; i < n; i++)
		if (f[i]->flags & UI_KEY_VIEWS)
			assert_string_equal(
				ui_key_name(f[i], true, buf, sizeof(buf)),
				want);
	/* the checklist's g in the dashboard's footer, after s */
	assert_int_equal(named(f, n, "g"), 1);
	/* during a guided run s skips a step in the checklist only */
	ui->grun.th_live = true;
	n = ui_footer_keys(ui, &ui_view_checklist, f, 64);
	for (int i = 0; i < n; i++)
		if (!strcmp(f[i]->key, "s"))
			assert_string_equal(f[i]->longer, "skip step");
	assert_int_equal(named(f, n, "x"), 1);
	assert_int_equal(named(f, n, "g"), 0);
	n = ui_footer_keys(ui, &ui_view_dashboard, f, 64);
	for (int i = 0; i < n; i++)
		if (!strcmp(f[i]->key, "s"))
			assert_string_equal(f[i]->longer, "start/stop");
	ui->grun.th_live = false;
	ui_views_close(ui);
	assert_null(ui->vstate);
	free(ui);
}

/* the help lists every view by its noun, the range of their keys, each
 * global key and each view's keys with a help line, by rank */
static void test_help(void **state)
{
	struct ui_help_line h[64];
	char range[32];
	int n = ui_help_lines(h, 64), want = 0, views = -1;

	(void)state;
	for (int i = 0; i < ui_nglobal_keys; i++)
		want += ui_global_keys[i].helpkey != NULL;
	for (int w = 0; w < ui_nviews; w++) {
		/* the keys are the digits 1..N in the table's order */
		assert_int_equal(ui_views[w]->key, '1' + w);
		assert_int_equal(ui_view_ref(ui_views[w])[0], '1' + w);
		assert_int_equal(ui_view_ref(ui_views[w])[1], 0);
		for (int i = 0; i < ui_views[w]->nkeys; i++)
			want += ui_views[w]->keys[i].helpkey != NULL;
	}
	assert_int_equal(n, want);
	snprintf(range, sizeof(range), "1-%d Tab", ui_nviews);
	for (int i = 0; i < n; i++) {
		assert_true(h[i].key[0] && h[i].text[0]);
		/* no format left unfilled */
		assert_null(strstr(h[i].text, "%s"));
		if (!strcmp(h[i].key, range))
			views = i;
	}
	assert_true(views >= 0);
	for (int w = 0; w < ui_nviews; w++)
		assert_non_null(strstr(h[views].text, ui_views[w]->noun));
	/* a line that names a view names it by its key from the table */
	for (int i = 0; i < n; i++)
		if (!strcmp(h[i].key, "g"))
			assert_non_null(strstr(h[i].text, "(view 6;"));
}

/* a view's state: zeroed, then its init; one per view, found by its ops */
static void test_view_state(void **state)
{
	struct ui *ui = xcalloc(1, sizeof(*ui));

	(void)state;
	ui_views_open(ui);
	for (int w = 0; w < ui_nviews; w++) {
		void *st = ui_view_state(ui, ui_views[w]);

		if (ui_views[w]->state_size)
			assert_non_null(st);
		else
			assert_null(st);
	}
	assert_null(ui_view_state(ui, &ui_view_help));
	assert_int_equal(((struct ui_checklist_state *)ui_view_state(
				  ui, &ui_view_checklist))
				 ->sel,
			 0);
	ui_views_close(ui);
	free(ui);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_cpu_grid),
		cmocka_unit_test(test_bar_split),
		cmocka_unit_test(test_graph),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_pcie),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_ascii),
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_model_far_retrans),
		cmocka_unit_test(test_model_udp_graph),
		cmocka_unit_test(test_footers),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_view_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
