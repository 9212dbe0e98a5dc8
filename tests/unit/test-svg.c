/* test-svg.c: the SVG chart writer (src/check/svg.c) and the HTML report
 * (src/check/report-html.c): hostile strings escaped, scales that hold with
 * one point, zeros, huge values and NaN, and the step's series for the
 * pictures (src/check/step.c) */
#include "config.h"

#include <float.h>
#include <math.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "ceiling.h"
#include "check.h"
#include "report-check.h"
#include "report-html.h"
#include "step.h"
#include "svg.h"

static const char hostile[] =
	"<script>alert(\"x\")</script> ]]> it's & \x1b[31m\x07\x01 \xff\xfe "
	"a\nb";

static char *escaped(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ps_xml_escape(f, s);
	fclose(f);
	return buf;
}

/* nothing the markup would act on, no byte XML forbids */
static void assert_inert(const char *s)
{
	assert_null(strcasestr(s, "<script"));
	assert_null(strstr(s, "]]>"));
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20)
			assert_true(*p == '\n');
}

static void test_escape(void **state)
{
	char *e = escaped(hostile), buf[64];

	(void)state;
	assert_inert(e);
	assert_null(strchr(e, '<'));
	assert_null(strchr(e, '>'));
	assert_null(strchr(e, '"'));
	assert_null(strchr(e, '\''));
	assert_null(strchr(e, '\n'));
	assert_non_null(strstr(e, "&lt;script&gt;alert(&quot;x&quot;)"));
	assert_non_null(strstr(e, "]]&gt;"));
	assert_non_null(strstr(e, "it&#39;s &amp; "));
	/* controls visible, bad UTF-8 a '?', the line break a space */
	assert_non_null(strstr(e, "\\x1b[31m\\x07\\x01"));
	assert_non_null(strstr(e, " ?? a b"));
	free(e);
	e = escaped(NULL);
	assert_string_equal(e, "");
	free(e);

	/* cut short, never inside an entity or a character */
	ps_xml_escape_buf(buf, 8, "ab<cd");
	assert_string_equal(buf, "ab&lt;c");
	ps_xml_escape_buf(buf, 6, "ab<cd");
	assert_string_equal(buf, "ab");
	ps_xml_escape_buf(buf, 4, "a\xc3\xa9\xc3\xa9");
	assert_string_equal(buf, "a\xc3\xa9");
	ps_xml_escape_buf(buf, 3, "a\xc3\xa9");
	assert_string_equal(buf, "a");
	ps_xml_escape_buf(buf, sizeof(buf), hostile);
	assert_inert(buf);
	assert_null(strchr(buf, '<'));
}

static char *line_chart(const struct ps_svg_line_chart *c, bool sa)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ps_svg_line_chart(f, c, sa);
	fclose(f);
	return buf;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* no number that is not one */
static void assert_finite_text(const char *s)
{
	regex_t re;

	assert_int_equal(regcomp(&re, "(^|[^a-z])(nan|inf)([^a-z]|$)",
				 REG_EXTENDED | REG_ICASE | REG_NOSUB),
			 0);
	assert_int_equal(regexec(&re, s, 0, NULL, 0), REG_NOMATCH);
	regfree(&re);
}

static void test_line_scales(void **state)
{
	double x1[] = { 1 }, y1[] = { 5e9 };
	double xz[] = { 0, 1, 2 }, yz[] = { 0, 0, 0 };
	double xh[] = { 1, 2, 3, 4 }, yh[] = { 1e308, DBL_MAX, -1e308, 1 };
	double xn[] = { 1, NAN, 3, 4, INFINITY },
	       yn[] = { 2, 3, NAN, -INFINITY, 5 };
	struct ps_svg_series s = { hostile, x1, y1, 1 };
	struct ps_svg_hline h[] = { { hostile, 6e9 },
				    { "far above", 1e12 },
				    { "nan", NAN } };
	struct ps_svg_line_chart c = {
		.id = "t",
		.title = hostile,
		.xlabel = hostile,
		.ylabel = hostile,
		.yunit = PS_SVG_BPS,
		.series = &s,
		.nseries = 1,
		.hlines = h,
		.nhlines = 3,
	};
	char *o;

	(void)state;
	/* one point, the ceilings: drawn, named, escaped */
	o = line_chart(&c, true);
	assert_true(!strncmp(o, "<?xml ", 6));
	assert_non_null(strstr(o, "xmlns=\"http://www.w3.org/2000/svg\""));
	assert_inert(o);
	assert_finite_text(o);
	assert_int_equal(count(o, "<polyline class=\"series\""), 1);
	assert_int_equal(count(o, "<circle class=\"point\""), 1);
	assert_int_equal(count(o, "<line class=\"hline\""), 1);
	assert_int_equal(count(o, "class=\"hline-label\""), 1);
	/* the one 200 times the data is named above the chart */
	assert_non_null(strstr(o, "above the chart: far above 1000.00 Gbit/s"));
	assert_int_equal(count(o, "<svg"), 1);
	assert_int_equal(count(o, "</svg>"), 1);
	free(o);

	/* a count: whole ticks only, even for one point */
	c.xunit = PS_SVG_PLAIN;
	c.xinteger = true;
	o = line_chart(&c, true);
	assert_null(strstr(o, ">1.2</text>"));
	assert_non_null(strstr(o, ">1</text>"));
	free(o);
	c.xinteger = false;
	o = line_chart(&c, true);
	assert_non_null(strstr(o, ">1.2</text>"));
	free(o);

	/* inline: no namespace URL in the page */
	o = line_chart(&c, false);
	assert_null(strstr(o, "http:"));
	assert_null(strstr(o, "<?xml"));
	free(o);

	/* zeros */
	s = (struct ps_svg_series){ "zero", xz, yz, 3 };
	c.nhlines = 0;
	o = line_chart(&c, true);
	assert_finite_text(o);
	assert_int_equal(count(o, "<circle class=\"point\""), 3);
	assert_non_null(strstr(o, ">0 bit/s</text>"));
	free(o);

	/* huge both ways */
	s = (struct ps_svg_series){ "huge", xh, yh, 4 };
	c.yunit = PS_SVG_PLAIN;
	o = line_chart(&c, true);
	assert_finite_text(o);
	assert_int_equal(count(o, "<circle class=\"point\""), 4);
	free(o);

	/* not finite: left out */
	s = (struct ps_svg_series){ "nan", xn, yn, 5 };
	c.title = "t";
	o = line_chart(&c, true);
	assert_int_equal(count(o, "<circle class=\"point\""), 1);
	free(o);

	/* nothing at all */
	s.n = 0;
	c.nseries = 0;
	o = line_chart(&c, true);
	assert_finite_text(o);
	assert_non_null(strstr(o, ">no data</text>"));
	free(o);
}

/* (not inlined: gcc takes the returned buffer for the local that held it)
 */
__attribute__((noinline)) static char *heatmap(const struct ps_svg_heatmap *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ps_svg_heatmap(f, h, true);
	fclose(f);
	return buf;
}

static void test_heatmap(void **state)
{
	const char *rows[] = { hostile, NULL };
	const char *cols[] = { "cpu0", hostile, "cpu2" };
	double v[] = { 0, 50, NAN, 1e308, INFINITY, 100 };
	struct ps_svg_heatmap h = {
		.id = "hm",
		.title = hostile,
		.rows = 2,
		.cols = 3,
		.row_label = rows,
		.col_label = cols,
		.v = v,
		.unit = PS_SVG_PCT,
	};
	char *o, *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	o = heatmap(&h);
	assert_inert(o);
	assert_finite_text(o);
	assert_int_equal(count(o, "<rect class=\"cell\""), 6);
	/* no data: grey, and the title says so */
	assert_int_equal(count(o, "fill=\"#d9d9d9\""), 2);
	assert_int_equal(count(o, ": no data</title>"), 2);
	/* the values in the cells that have one, huge ones short */
	assert_int_equal(count(o, "<text class=\"cell-value\""), 4);
	assert_non_null(strstr(o, ">1e+308%</text>"));
	assert_non_null(strstr(o, ">50%</text>"));
	free(o);

	/* a fixed scale: 100 is the hottest */
	h.vmax = 100;
	h.rows = 1;
	v[0] = 100;
	o = heatmap(&h);
	assert_int_equal(count(o, "fill=\"#b41419\""), 1 + 1);
	free(o);

	/* empty */
	h.rows = h.cols = 0;
	o = heatmap(&h);
	assert_non_null(strstr(o, ">no data</text>"));
	assert_int_equal(count(o, "<rect class=\"cell\""), 0);
	free(o);

	/* a strip is one row */
	f = open_memstream(&buf, &len);
	ps_svg_heat_strip(f, "strip", "t", hostile, 3, cols, v, 100, PS_SVG_PCT,
			  false);
	fclose(f);
	assert_inert(buf);
	assert_int_equal(count(buf, "<rect class=\"cell\""), 3);
	free(buf);
}

/* ---- the step's series ---------------------------------------------- */

/* the x="..." of the first element of class cls, -1e9 when none */
static double attr_x(const char *o, const char *cls)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "class=\"%s\" x=\"", cls);
	p = strstr(o, pat);
	return p ? strtod(p + strlen(pat), NULL) : -1e9;
}

/* the width of the cut row label after its title */
static double cut_width(const char *o)
{
	const char *t = strstr(o, "</title>xx");
	size_t n = t ? strcspn(t + 8, "<") : 0;
	char cut[400];

	assert_non_null(t);
	snprintf(cut, sizeof(cut), "%.*s", (int)n, t + 8);
	return ps_svg_text_width(cut, 12);
}

/* issue 25 item 12: the labels have the room their text needs, the legend
 * wraps, the tooltips say their units */
static void test_label_room(void **state)
{
	const char *rows[] = { "1 stream", "both directions, 2 streams each" };
	const char *cols[] = { "cpu0", "cpu1" };
	double v[] = { 10, 20, 30, 40 };
	struct ps_svg_heatmap h = {
		.id = "hm",
		.title = "t",
		.rows = 2,
		.cols = 2,
		.row_label = rows,
		.col_label = cols,
		.v = v,
		.unit = PS_SVG_PCT,
	};
	char *o, txt[64], longer[400];
	double x, w = ps_svg_text_width(rows[1], 12);

	(void)state;
	/* wider than the old fixed 150 px room: the estimate at least the
	 * 0.55 em a sans-serif letter takes on average */
	assert_true(w >= 0.55 * 12 * strlen(rows[1]));
	assert_true(ps_svg_text_width("mmm", 12) >
		    ps_svg_text_width("iii", 12));
	assert_true(ps_svg_text_width("é", 12) == ps_svg_text_width("M", 12));
	o = heatmap(&h);
	/* the labels end 6 px before the cells, and start inside */
	x = attr_x(o, "row-label");
	assert_true(x - w >= 0);
	assert_true(fabs(attr_x(o, "cell") - (x + 6)) < 0.11);
	free(o);

	/* longer than half the picture: cut with "…", whole in its title */
	memset(longer, 'x', 300);
	longer[300] = 0;
	rows[1] = longer;
	o = heatmap(&h);
	x = attr_x(o, "row-label");
	assert_true(x <= 760 / 2);
	assert_non_null(strstr(o, "xx…</text>"));
	assert_non_null(strstr(o, "><title>xxxxxxxx"));
	assert_true(x - cut_width(o) >= 0);
	free(o);
	/* cut between characters, never inside one */
	longer[0] = 0;
	for (int i = 0; i < 150; i++)
		strcat(longer, "é");
	o = heatmap(&h);
	assert_non_null(strstr(o, "é…</text>"));
	free(o);

	/* the tooltips' seconds: two decimals at most, with the unit */
	ps_svg_format(txt, sizeof(txt), 2.00085, PS_SVG_SECONDS);
	assert_string_equal(txt, "2 s");
	ps_svg_format(txt, sizeof(txt), 0.5, PS_SVG_SECONDS);
	assert_string_equal(txt, "0.5 s");
	ps_svg_format(txt, sizeof(txt), 1.0085, PS_SVG_SECONDS);
	assert_string_equal(txt, "1.01 s");
	ps_svg_format(txt, sizeof(txt), 1234.4, PS_SVG_PER_S);
	assert_string_equal(txt, "1234/s");
}

static void test_legend_wraps(void **state)
{
	static const char *const names[] = {
		"1 stream",
		"2 streams",
		"4 streams",
		"reverse, 2 streams",
		"both directions, 2 streams each: sent",
		"both directions, 2 streams each: received",
	};
	double x[] = { 1, 2 }, y[] = { 1e9, 2e9 };
	struct ps_svg_series s[6];
	struct ps_svg_line_chart c = {
		.id = "l",
		.title = "t",
		.xunit = PS_SVG_SECONDS,
		.yunit = PS_SVG_BPS,
		.series = s,
		.nseries = 6,
	};
	const char *p;
	char *o;
	double right = 0;

	(void)state;
	for (int i = 0; i < 6; i++)
		s[i] = (struct ps_svg_series){ names[i], x, y, 2 };
	o = line_chart(&c, false);
	/* every name starts inside and, as estimated, ends inside */
	for (p = o; (p = strstr(p, "class=\"legend-label\" x=\"")); p++) {
		const char *t = strchr(p, '>') + 1;
		char name[64];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(t, "<"), t);
		right = fmax(right, strtod(p + 24, NULL) +
					    ps_svg_text_width(name, 12));
	}
	assert_true(right > 0 && right <= 760);
	/* on a second line, the plot and the picture 18 px lower */
	assert_non_null(strstr(o, "y=\"56.0\">both directions, 2 streams "
				  "each: received</text>"));
	assert_non_null(strstr(o, "height=\"358\""));
	assert_non_null(strstr(o, "<rect class=\"plot\" x=\"105\" y=\"78\""));
	/* the tooltips: seconds and rates with their units */
	assert_non_null(strstr(o, "<title>1 stream: 2 s, 2.00 Gbit/s</title>"));
	free(o);
}

static void test_rate_series(void **state)
{
	struct ps_step_result *s = calloc(1, sizeof(*s));
	struct ps_stream_iv st[2] = { { .sender = true, .bps = 0 },
				      { .sender = false, .bps = 7 } };
	struct ps_interval iv = { .nstreams = 2, .streams = st };

	(void)state;
	/* 80 half-second intervals, the rate k: pairs merge when full */
	for (int k = 0; k < 80; k++) {
		iv.start = k * 0.5;
		iv.end = iv.start + 0.5;
		st[0].bps = k;
		ps_step_add_rate(s, &iv);
	}
	assert_true(s->nrate > 0 && s->nrate <= PS_STEP_MAX_RATES);
	assert_true(s->rate_t0[0] == 0);
	assert_true(fabs(s->rate_t1[s->nrate - 1] - 40) < 1e-6);
	assert_int_equal(s->nrate, 32 + 16);
	/* the first point holds intervals 0 and 1: their mean */
	assert_true(fabs(s->rate_bps[0] - 0.5) < 1e-6);
	for (int i = 1; i < s->nrate; i++)
		assert_true(s->rate_t0[i] == s->rate_t1[i - 1]);

	/* omitted, empty or not finite: nothing */
	memset(s, 0, sizeof(*s));
	iv.omitted = true;
	ps_step_add_rate(s, &iv);
	iv.omitted = false;
	iv.start = iv.end = 1;
	ps_step_add_rate(s, &iv);
	iv.end = NAN;
	ps_step_add_rate(s, &iv);
	assert_int_equal(s->nrate, 0);

	/* reverse: what this end received */
	s->reverse = true;
	iv.start = 0;
	iv.end = 1;
	ps_step_add_rate(s, &iv);
	assert_int_equal(s->nrate, 1);
	assert_true(s->rate_bps[0] == 7);

	/* both directions: what this end sent, and apart what it received */
	memset(s, 0, sizeof(*s));
	s->bidir = true;
	st[0].bps = 3;
	ps_step_add_rate(s, &iv);
	assert_int_equal(s->nrate, 1);
	assert_true(s->rate_bps[0] == 3);
	assert_true(s->rate_back_bps[0] == 7);
	/* merged in pairs as the other */
	for (int k = 1; k < 80; k++) {
		iv.start = k;
		iv.end = k + 1;
		st[1].bps = 7 + k;
		ps_step_add_rate(s, &iv);
	}
	assert_true(fabs(s->rate_back_bps[0] - 7.5) < 1e-6);
	assert_true(s->rate_bps[0] == 3);
	free(s);
}

static void test_irq_matrix(void **state)
{
	struct ps_step_result *s = calloc(1, sizeof(*s));
	double r0[3] = { 10, 0, 5 }, r1[3] = { 0, NAN, 20 }, r2[3] = { 1 };
	struct ps_irq_line l[3] = {
		{ .irq = 40, .kind = "rx", .queue = 0, .rate = r0 },
		{ .irq = 41, .kind = "tx", .queue = -1, .rate = r1 },
		{ .irq = 42, .kind = "", .queue = -1, .rate = r2 },
	};
	struct ps_irq_info b = { .lines = l,
				 .nlines = 3,
				 .ncpu = 3,
				 .rated = true,
				 .busiest_cpu = -1 };

	(void)state;
	ps_step_set_irq(s, &b);
	/* the queue lines (not the misc one), every CPU */
	assert_int_equal(s->irqm_lines, 2);
	assert_int_equal(s->irqm_cpus, 3);
	assert_string_equal(s->irqm_name[0], "rx-0");
	assert_string_equal(s->irqm_name[1], "irq 41");
	assert_true(s->irqm_rate[0][2] == 5);
	assert_true(s->irqm_rate[1][1] == 0); /* NAN: none */
	/* not rated: nothing */
	b.rated = false;
	ps_step_irq_matrix(s, &b);
	assert_int_equal(s->irqm_lines, 0);
	free(s);
}

/* ---- the page ------------------------------------------------------------ */

static char *bar_chart(const struct ps_svg_bar_chart *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ps_svg_bar_chart(f, c, true);
	fclose(f);
	return buf;
}

static void test_bar_chart(void **state)
{
	const char *groups[] = { hostile, NULL, "stream 2" };
	const char *notes[] = { "+12.0%", hostile, NULL };
	const char *series[] = { "run A", hostile };
	double v[] = { 1e9, 2e9, NAN, INFINITY, 1e308, -5 };
	struct ps_svg_bar_chart c = {
		.id = "bars",
		.title = hostile,
		.ylabel = hostile,
		.unit = PS_SVG_BPS,
		.ngroups = 3,
		.nseries = 2,
		.group_label = groups,
		.group_note = notes,
		.series_name = series,
		.v = v,
	};
	char *o = bar_chart(&c);

	assert_inert(o);
	assert_finite_text(o);
	assert_non_null(strstr(o, "class=\"ps-chart ps-bar\""));
	/* a bar each finite value (the negative one drawn flat) */
	assert_int_equal(count(o, "<rect class=\"bar\""), 4);
	assert_int_equal(count(o, "class=\"group-label\""), 3);
	assert_int_equal(count(o, "class=\"group-note\""), 2);
	assert_non_null(strstr(o, ">+12.0%</text>"));
	assert_null(strstr(o, "height=\"-"));
	free(o);

	/* nothing at all: said, no ticks */
	c.ngroups = 0;
	o = bar_chart(&c);
	assert_finite_text(o);
	assert_non_null(strstr(o, ">no data</text>"));
	assert_null(strstr(o, "class=\"tick\""));
	free(o);
}

static void test_html_hostile(void **state)
{
	struct ps_run *r = calloc(1, sizeof(*r));
	struct ps_snapshot *snap = calloc(1, sizeof(*snap));
	struct ps_diagnosis *d = calloc(1, sizeof(*d));
	struct ps_evidence ev;
	struct ps_check_report rep = { .snapshot_file = hostile };
	char *o = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	snprintf(snap->hdr.hostname, sizeof(snap->hdr.hostname), "%s", hostile);
	snprintf(snap->hdr.kernel, sizeof(snap->hdr.kernel), "%s", hostile);
	snprintf(snap->sysctl.val[PS_SYSCTL_DEFAULT_QDISC].text,
		 sizeof(snap->sysctl.val[PS_SYSCTL_DEFAULT_QDISC].text), "%s",
		 hostile);
	snprintf(r->peer, sizeof(r->peer), "%s", hostile);
	snprintf(r->peer_version, sizeof(r->peer_version), "%.40s", hostile);
	r->nsteps = 3;
	for (int i = 0; i < 2; i++) {
		struct ps_step_result *s = &r->steps[i];

		snprintf(s->id, sizeof(s->id), i ? "sweep" : "single");
		s->state = PS_STEP_DONE;
		s->streams = i ? 4 : 1;
		s->seconds = 2;
		s->bps = i ? 5e9 : 3e9;
		s->nrate = 2;
		s->rate_t0[1] = s->rate_t1[0] = 1;
		s->rate_t1[1] = 2;
		s->rate_bps[0] = 2e9;
		s->rate_bps[1] = INFINITY;
		s->irqm_lines = 1;
		s->irqm_cpus = 2;
		snprintf(s->irqm_name[0], sizeof(s->irqm_name[0]),
			 "<b>\x1b]]>");
		s->irqm_rate[0][0] = 100;
	}
	r->steps[2].state = PS_STEP_FAILED;
	r->steps[2].streams = 1;
	r->steps[2].reverse = true;
	snprintf(r->steps[2].note, sizeof(r->steps[2].note), "%s", hostile);
	r->start_ns = 1795979997486994405LL;
	ps_evidence_of(snap, r, &ev);
	ps_diagnose(&ev, d);
	rep.ev = &ev;
	rep.d = d;
	/* the command line and the history's line may hold anything */
	rep.cmdline = hostile;
	rep.since = hostile;
	f = open_memstream(&o, &len);
	ps_check_report_html(f, &rep);
	fclose(f);
	if (getenv("TEST_SVG_DUMP"))
		fputs(o, stderr);
	assert_inert(o);
	assert_finite_text(o);
	/* nothing fetched from anywhere */
	assert_null(strstr(o, "http:"));
	assert_null(strstr(o, "https:"));
	assert_null(strstr(o, "src="));
	assert_null(strstr(o, "url("));
	assert_null(strstr(o, "@import"));
	assert_non_null(strstr(o, "&lt;script&gt;"));
	assert_non_null(strstr(o, "&lt;b&gt;\\x1b]]&gt;"));
	/* the header: when, the command line, both hosts; the history's
	 * line in its own styled paragraph */
	assert_non_null(strstr(o, "<tr><th>started</th><td>2026-11-"));
	assert_non_null(strstr(o, "<tr><th>command line</th><td><code "
				  "class=\"cmdline\">&lt;script&gt;"));
	assert_non_null(strstr(o, "<tr><th>this host</th><td>&lt;script"));
	assert_non_null(strstr(o, "<tr><th>far end</th><td>&lt;script"));
	assert_non_null(strstr(o, "<section id=\"since\">"));
	assert_non_null(strstr(o, "<p class=\"since\">&lt;script&gt;"));
	assert_non_null(strstr(o, "p.since{"));
	assert_true(strstr(o, "<p class=\"since\">") < strstr(o, "</body>"));
	assert_non_null(strstr(o, "id=\"chart-sweep\""));
	assert_non_null(strstr(o, "id=\"chart-rate\""));
	assert_non_null(strstr(o, "id=\"chart-irq\""));
	/* the settings, a recorded value escaped like the rest */
	assert_non_null(strstr(o, "<section id=\"settings\">"));
	assert_non_null(
		strstr(o, "<th>net.core.default_qdisc</th><td>&lt;script&gt;"));
	/* the cores were not read: said, not drawn */
	assert_null(strstr(o, "id=\"chart-cpu\""));
	assert_int_equal(count(o, "<svg"), count(o, "</svg>"));
	assert_int_equal(count(o, "<section"), count(o, "</section>"));
	free(o);

	/* the markdown links what --plot wrote, the path %-encoded */
	rep.plot_dir = "my dir/)x";
	o = NULL;
	f = open_memstream(&o, &len);
	ps_check_report_print(f, PS_FORMAT_MARKDOWN, &rep);
	fclose(f);
	assert_non_null(strstr(o, "![sweep](my%20dir/%29x/sweep.svg)"));
	assert_non_null(strstr(o, "![irq](my%20dir/%29x/irq.svg)"));
	assert_null(strstr(o, "/cpu.svg"));
	free(o);
	free(d);
	free(snap);
	free(r);
}

/* a test of both directions draws both: two series, named (issue 25
 * item 12) */
static void test_html_bidir(void **state)
{
	struct ps_run *r = calloc(1, sizeof(*r));
	struct ps_snapshot *snap = calloc(1, sizeof(*snap));
	struct ps_diagnosis *d = calloc(1, sizeof(*d));
	struct ps_step_result *s = &r->steps[0];
	struct ps_evidence ev;
	struct ps_check_report rep = { 0 };
	const char *fig, *end;
	char *o = NULL, *rate;
	size_t len = 0;
	FILE *f;

	(void)state;
	r->loopback = true;
	r->nsteps = 1;
	snprintf(s->id, sizeof(s->id), "bidir");
	s->state = PS_STEP_DONE;
	s->streams = 2;
	s->bidir = true;
	s->seconds = 2;
	s->bps = 3e9;
	s->bps_back = 1e9;
	s->nrate = 2;
	s->rate_t0[1] = s->rate_t1[0] = 1.00085f;
	s->rate_t1[1] = 2.00085f;
	s->rate_bps[0] = s->rate_bps[1] = 3e9;
	s->rate_back_bps[0] = s->rate_back_bps[1] = 1e9;
	ps_evidence_of(snap, r, &ev);
	ps_diagnose(&ev, d);
	rep.ev = &ev;
	rep.d = d;
	f = open_memstream(&o, &len);
	ps_check_report_html(f, &rep);
	fclose(f);
	fig = strstr(o, "id=\"chart-rate\"");
	assert_non_null(fig);
	end = strstr(fig, "</svg>");
	rate = strndup(fig, (size_t)(end - fig));
	assert_int_equal(count(rate, "<polyline class=\"series\""), 2);
	assert_non_null(strstr(rate, ">both directions, 2 streams each: "
				     "sent</text>"));
	assert_non_null(strstr(rate, ">both directions, 2 streams each: "
				     "received</text>"));
	/* the tooltips in units: "2 s", not "2.00085" */
	assert_non_null(strstr(rate, "<title>both directions, 2 streams each: "
				     "received: 2 s, 1.00 Gbit/s</title>"));
	assert_non_null(strstr(rate, "sent: 1 s, 3.00 Gbit/s</title>"));
	assert_null(strstr(rate, "2.00085"));
	/* loopback: the far end is this host */
	assert_non_null(strstr(o, "<tr><th>far end</th><td>this host: the "
				  "in-process server on 127.0.0.1</td></tr>"));
	free(rate);
	free(o);
	free(d);
	free(snap);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_line_scales),
		cmocka_unit_test(test_heatmap),
		cmocka_unit_test(test_label_room),
		cmocka_unit_test(test_legend_wraps),
		cmocka_unit_test(test_rate_series),
		cmocka_unit_test(test_irq_matrix),
		cmocka_unit_test(test_bar_chart),
		cmocka_unit_test(test_html_hostile),
		cmocka_unit_test(test_html_bidir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
