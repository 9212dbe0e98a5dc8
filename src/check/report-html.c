/* report-html.c: check's report as one self-contained HTML page and its
 * charts as SVG files (report-html.h) */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "answer.h"
#include "log.h"
#include "nls.h"
#include "report-html.h"
#include "sanitize.h"
#include "svg.h"
#include "xmalloc.h"

/* ---- the page skeleton ----------------------------------------------- */

static const char css[] =
	"body{font-family:sans-serif;margin:2em;color:#222;max-width:70em}"
	"h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ccc;"
	"padding-bottom:.2em;margin-top:1.6em}"
	"table{border-collapse:collapse}td,th{border:1px solid #ccc;"
	"padding:.25em .6em;text-align:left}td.num{text-align:right}"
	"figure{margin:1em 0}figcaption{color:#555;font-size:.9em}"
	"code{background:#f3f3f3;padding:.1em .3em}"
	".sev{font-weight:bold;padding:0 .4em;border-radius:3px}"
	".sev-bottleneck{background:#f4c7c3}.sev-warning{background:#fce8b2}"
	".sev-info{background:#e3eefa}.nodata{color:#777}"
	"li.finding{margin-bottom:.8em}"
	"p.change{font-size:1.2em;font-weight:bold}p.noise{color:#777}"
	"p.since{background:#eef3fb;border-left:4px solid #1f77b4;"
	"padding:.5em .8em}"
	"td code{white-space:pre-wrap;word-break:break-all}";

void ps_html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" "
	      "content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
	      "<title>",
	      out);
	ps_html_text(out, title);
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
	ps_html_text(out, title);
	fputs("</h1>\n", out);
}

void ps_html_section(FILE *out, const char *id, const char *heading)
{
	fputs("<section id=\"", out);
	ps_html_text(out, id);
	fputs("\">\n<h2>", out);
	ps_html_text(out, heading);
	fputs("</h2>\n", out);
}

void ps_html_section_end(FILE *out)
{
	fputs("</section>\n", out);
}

void ps_html_end(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}

void ps_html_text(FILE *out, const char *s)
{
	ps_xml_escape(out, s);
}

void ps_html_th_row(FILE *out, const char *const *h, int n)
{
	fputs("<tr>", out);
	for (int i = 0; i < n; i++) {
		fputs("<th>", out);
		ps_html_text(out, _(h[i]));
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
}

void ps_html_p(FILE *out, const char *cls, const char *text)
{
	if (cls)
		fprintf(out, "<p class=\"%s\">", cls);
	else
		fputs("<p>", out);
	ps_html_text(out, text);
	fputs("</p>\n", out);
}

int ps_write_atomic(const char *path, void (*fn)(FILE *out, const void *arg),
		    const void *arg)
{
	const char *slash = strrchr(path, '/');
	char *tmp;
	FILE *f;
	int fd, err = 0;

	if (slash)
		xasprintf(&tmp, "%.*s/.%s.XXXXXX", (int)(slash - path), path,
			  slash + 1);
	else
		xasprintf(&tmp, ".%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		free(tmp);
		return err;
	}
	/* readable as any file the user makes (mkstemp gives 0600) */
	{
		mode_t mask = umask(0);

		umask(mask);
		if (fchmod(fd, 0666 & ~mask))
			err = -errno;
	}
	f = err ? NULL : fdopen(fd, "w");
	if (!f) {
		err = err ? err : -errno;
		close(fd);
		goto out;
	}
	errno = 0;
	fn(f, arg);
	if (fflush(f) || ferror(f) || fsync(fileno(f)))
		err = -(errno ? errno : EIO);
	if (fclose(f) && !err)
		err = -(errno ? errno : EIO);
	if (!err && rename(tmp, path))
		err = -errno;
out:
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}

/* ---- the charts' data --------------------------------------------------- */

#define MAXSTEPS                                                               \
	(sizeof(((struct ps_run *)0)->steps) / sizeof(struct ps_step_result))
#define MAXCORES 512

static const char *const chart_names[PS_CHART_COUNT] = {
	"sweep",
	"rate",
	"cpu",
	"irq",
};

const char *ps_check_chart_name(enum ps_check_chart c)
{
	return c < PS_CHART_COUNT ? chart_names[c] : "";
}

/* a series' name: title, or fmt with title for its %s (96 bytes) */
static void subst_name(char *name, const char *title, const char *fmt)
{
	const char *at = fmt ? strstr(fmt, "%s") : NULL;

	if (!at)
		snprintf(name, 96, "%s", title);
	else
		snprintf(name, 96, "%.*s%s%s", (int)(at - fmt), fmt, title,
			 at + 2);
}

static bool done(const struct ps_step_result *s)
{
	return s->state == PS_STEP_DONE;
}

/* the step whose interrupts are drawn: the measured rate's, else the
 * first that has them */
static const struct ps_step_result *irq_step(const struct ps_run *res)
{
	const struct ps_step_result *b;

	if (!res)
		return NULL;
	b = ps_run_best(res);
	if (b && b->irqm_lines > 0 && b->irqm_cpus > 0)
		return b;
	for (int i = 0; i < res->nsteps; i++)
		if (done(&res->steps[i]) && res->steps[i].irqm_lines > 0 &&
		    res->steps[i].irqm_cpus > 0)
			return &res->steps[i];
	return NULL;
}

bool ps_check_chart_has_data(const struct ps_check_report *r,
			     enum ps_check_chart c)
{
	const struct ps_run *res = r->ev->res;
	const struct ps_step_result *st[MAXSTEPS];

	if (!res)
		return false;
	switch (c) {
	case PS_CHART_SWEEP:
		return ps_run_sweep(res, st, MAXSTEPS) > 0;
	case PS_CHART_RATE:
	case PS_CHART_CPU:
		for (int i = 0; i < res->nsteps; i++)
			if (done(&res->steps[i]) &&
			    (c == PS_CHART_RATE ? res->steps[i].nrate > 0
						: res->steps[i].have_cpu))
				return true;
		return false;
	case PS_CHART_IRQ:
		return irq_step(res) != NULL;
	case PS_CHART_COUNT:
		break;
	}
	return false;
}

static void chart_sweep(FILE *out, const struct ps_check_report *r, bool sa)
{
	const struct ps_step_result *st[MAXSTEPS];
	const struct ps_ceiling_model *m = &r->d->ceil;
	struct ps_svg_hline h[PS_MAX_CEILINGS];
	char names[PS_MAX_CEILINGS][160];
	double x[MAXSTEPS], y[MAXSTEPS];
	size_t n = r->ev->res ? ps_run_sweep(r->ev->res, st, MAXSTEPS) : 0;
	struct ps_svg_series s = { _("sum of the streams"), x, y, 0 };
	struct ps_svg_line_chart c = {
		.id = "chart-sweep",
		.title = _("Sweep: the sum per stream count, and the ceilings"),
		.xlabel = _("streams"),
		.ylabel = _("rate"),
		.xunit = PS_SVG_PLAIN,
		.yunit = PS_SVG_BPS,
		.series = &s,
		.nseries = 1,
		.hlines = h,
		.xinteger = true,
	};

	/* in order of the stream count */
	for (size_t i = 0; i < n; i++) {
		size_t k = (size_t)s.n;

		while (k > 0 && x[k - 1] > st[i]->streams) {
			x[k] = x[k - 1];
			y[k] = y[k - 1];
			k--;
		}
		x[k] = st[i]->streams;
		y[k] = st[i]->bps;
		s.n++;
	}
	for (int i = 0; i < m->n && i < PS_MAX_CEILINGS; i++) {
		const char *w = m->c[i].what[0] ? m->c[i].what : m->c[i].id;

		/* a flow's ceiling is drawn at its rate, said per flow
		 * unless its name says so */
		snprintf(names[i], sizeof(names[i]), "%s%s", w,
			 m->c[i].scope == PS_SCOPE_FLOW && !strstr(w, "flow")
				 ? _(" (per flow)")
				 : "");
		h[c.nhlines].name = names[i];
		h[c.nhlines].y = m->c[i].bps;
		c.nhlines++;
	}
	ps_svg_line_chart(out, &c, sa);
}

/* one series of the rate chart: n points of t1 and bps */
static void rate_series(struct ps_svg_series *s, char *name, const char *title,
			const char *fmt, const struct ps_step_result *t,
			const float *bps, double *xy)
{
	int n = t->nrate < PS_STEP_MAX_RATES ? t->nrate : PS_STEP_MAX_RATES;

	subst_name(name, title, fmt);
	for (int k = 0; k < n; k++) {
		xy[k] = t->rate_t1[k];
		xy[PS_STEP_MAX_RATES + k] = bps[k];
	}
	s->name = name;
	s->x = xy;
	s->y = xy + PS_STEP_MAX_RATES;
	s->n = n;
}

static void chart_rate(FILE *out, const struct ps_check_report *r, bool sa)
{
	const struct ps_run *res = r->ev->res;
	/* a line a test, two for a test of both directions */
	struct ps_svg_series s[2 * MAXSTEPS];
	char names[2 * MAXSTEPS][96], title[64];
	double *xy =
		xcalloc(2 * MAXSTEPS * PS_STEP_MAX_RATES * 2, sizeof(double));
	struct ps_svg_line_chart c = {
		.id = "chart-rate",
		.title = _("The rate over time of each test"),
		.xlabel = _("seconds into the test"),
		.ylabel = _("rate"),
		.xunit = PS_SVG_SECONDS,
		.yunit = PS_SVG_BPS,
		.series = s,
		.xzero = true,
	};

	for (int i = 0; res && i < res->nsteps; i++) {
		const struct ps_step_result *t = &res->steps[i];

		if (!done(t) || t->nrate <= 0)
			continue;
		ps_check_step_title(t, title, sizeof(title));
		rate_series(&s[c.nseries], names[c.nseries], title,
			    t->bidir ? _("%s: sent") : NULL, t, t->rate_bps,
			    xy + (size_t)c.nseries * PS_STEP_MAX_RATES * 2);
		c.nseries++;
		if (!t->bidir)
			continue;
		rate_series(&s[c.nseries], names[c.nseries], title,
			    _("%s: received"), t, t->rate_back_bps,
			    xy + (size_t)c.nseries * PS_STEP_MAX_RATES * 2);
		c.nseries++;
	}
	ps_svg_line_chart(out, &c, sa);
	free(xy);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void chart_cpu(FILE *out, const struct ps_check_report *r, bool sa)
{
	const struct ps_run *res = r->ev->res;
	int ids[MAXCORES], nids = 0, rows = 0;
	char rl[MAXSTEPS][64], (*cl)[16] = xcalloc(MAXCORES, sizeof(*cl));
	const char *rlab[MAXSTEPS], **clab = xcalloc(MAXCORES, sizeof(char *));
	double *v;
	struct ps_svg_heatmap h = {
		.id = "chart-cpu",
		.title = _("Each core's busy % during each test"),
		.vmax = 100,
		.unit = PS_SVG_PCT,
	};

	/* the columns: every core id any step saw */
	for (int i = 0; res && i < res->nsteps; i++) {
		const struct ps_step_result *t = &res->steps[i];

		if (!done(t) || !t->have_cpu)
			continue;
		for (int k = 0; k < t->cpu.ncores; k++) {
			int id = t->cpu.cores[k].id, j;

			for (j = 0; j < nids && ids[j] != id; j++)
				;
			if (j == nids && nids < MAXCORES)
				ids[nids++] = id;
		}
	}
	qsort(ids, (size_t)nids, sizeof(int), cmp_int);
	for (int j = 0; j < nids; j++) {
		snprintf(cl[j], sizeof(cl[j]), "cpu%d", ids[j]);
		clab[j] = cl[j];
	}
	v = xcalloc(MAXSTEPS * (size_t)(nids ? nids : 1), sizeof(double));
	for (int i = 0; res && i < res->nsteps; i++) {
		const struct ps_step_result *t = &res->steps[i];

		if (!done(t) || !t->have_cpu)
			continue;
		ps_check_step_title(t, rl[rows], sizeof(rl[rows]));
		rlab[rows] = rl[rows];
		for (int j = 0; j < nids; j++) {
			double b = NAN;

			for (int k = 0; k < t->cpu.ncores; k++)
				if (t->cpu.cores[k].id == ids[j] &&
				    t->cpu.cores[k].pct_valid)
					b = t->cpu.cores[k].busy_pct;
			v[rows * nids + j] = b;
		}
		rows++;
	}
	h.rows = rows;
	h.cols = nids;
	h.row_label = rlab;
	h.col_label = clab;
	h.v = v;
	ps_svg_heatmap(out, &h, sa);
	free(v);
	free(cl);
	free(clab);
}

static void chart_irq(FILE *out, const struct ps_check_report *r, bool sa)
{
	const struct ps_step_result *t = irq_step(r->ev->res);
	const char *rlab[PS_STEP_IRQ_LINES], *clab[PS_STEP_IRQ_CPUS];
	char cl[PS_STEP_IRQ_CPUS][16], title[200], st[64] = "";
	double v[PS_STEP_IRQ_LINES * PS_STEP_IRQ_CPUS];
	struct ps_svg_heatmap h = {
		.id = "chart-irq",
		.title = title,
		.row_label = rlab,
		.col_label = clab,
		.v = v,
		.unit = PS_SVG_PER_S,
	};

	if (t) {
		ps_check_step_title(t, st, sizeof(st));
		h.rows = t->irqm_lines < PS_STEP_IRQ_LINES ? t->irqm_lines
							   : PS_STEP_IRQ_LINES;
		h.cols = t->irqm_cpus < PS_STEP_IRQ_CPUS ? t->irqm_cpus
							 : PS_STEP_IRQ_CPUS;
	}
	snprintf(title, sizeof(title),
		 _("The NIC's interrupts/s per queue line and CPU (%s)"), st);
	for (int i = 0; i < h.rows; i++) {
		rlab[i] = t->irqm_name[i];
		for (int c = 0; c < h.cols; c++)
			v[i * h.cols + c] = t->irqm_rate[i][c];
	}
	for (int c = 0; c < h.cols; c++) {
		snprintf(cl[c], sizeof(cl[c]), "cpu%d", t->irqm_cpu[c]);
		clab[c] = cl[c];
	}
	ps_svg_heatmap(out, &h, sa);
}

void ps_check_chart_svg(FILE *out, const struct ps_check_report *r,
			enum ps_check_chart c, bool standalone)
{
	switch (c) {
	case PS_CHART_SWEEP:
		chart_sweep(out, r, standalone);
		break;
	case PS_CHART_RATE:
		chart_rate(out, r, standalone);
		break;
	case PS_CHART_CPU:
		chart_cpu(out, r, standalone);
		break;
	case PS_CHART_IRQ:
		chart_irq(out, r, standalone);
		break;
	case PS_CHART_COUNT:
		break;
	}
}

/* ---- the page ------------------------------------------------------------ */

static void html_kv(FILE *out, const char *k, const char *v)
{
	fputs("<tr><th>", out);
	ps_html_text(out, k);
	fputs("</th><td>", out);
	ps_html_text(out, v && *v ? v : "?");
	fputs("</td></tr>\n", out);
}

/* a wall-clock time in ns as the local "2026-11-29 19:19:57 +0100" */
static void when_text(int64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	buf[0] = 0;
	if (ns > 0 && localtime_r(&t, &tm))
		strftime(buf, len, "%Y-%m-%d %H:%M:%S %z", &tm);
}

static void html_header(FILE *out, const struct ps_check_report *r)
{
	const struct ps_evidence *ev = r->ev;
	const struct ps_run *res = ev->res;
	const struct ps_snapshot *s = ev->snap;
	char when[64], far[600];

	ps_html_section(out, "host", _("The test"));
	fputs("<table>\n", out);
	/* when: the run's start, or when the evaluated snapshot was taken */
	when_text(res ? res->start_ns
		  : s ? s->hdr.time_ns
		      : 0,
		  when, sizeof(when));
	if (when[0])
		html_kv(out, res ? _("started") : _("snapshot taken"), when);
	if (r->cmdline) {
		fputs("<tr><th>", out);
		ps_html_text(out, _("command line"));
		fputs("</th><td><code class=\"cmdline\">", out);
		ps_html_text(out, r->cmdline);
		fputs("</code></td></tr>\n", out);
	}
	if (s) {
		html_kv(out, _("this host"), s->hdr.hostname);
		html_kv(out, _("kernel"), s->hdr.kernel);
		html_kv(out, _("interface"), s->hdr.iface.name);
	}
	if (res && res->loopback) {
		html_kv(out, _("far end"),
			_("this host: the in-process server on 127.0.0.1"));
	} else if (res) {
		const char *name = ev->peer ? ev->peer->hdr.hostname : "";

		snprintf(far, sizeof(far), name[0] ? "%s (%s)" : "%s",
			 res->peer, name);
		html_kv(out, _("far end"), far);
	}
	html_kv(out, "pipescope", PACKAGE_VERSION);
	html_kv(out, _("mode"),
		!res		? _("static checks only: no test was run")
		: res->loopback ? _("loopback test against an in-process "
				    "server: it measures this host, not the "
				    "link")
				: _("a test against a remote server"));
	if (!res && r->snapshot_file)
		html_kv(out, _("evaluated"), r->snapshot_file);
	if (res && !res->loopback) {
		html_kv(out, _("peer kind"), res->peer_kind);
		html_kv(out, _("peer version"), res->peer_version);
	}
	if (res && (res->cc_local[0] || res->cc_remote[0])) {
		html_kv(out, _("congestion control here"), res->cc_local);
		html_kv(out, _("congestion control there"), res->cc_remote);
	}
	if (ev->peer)
		html_kv(out, _("far end's kernel"), ev->peer->hdr.kernel);
	fputs("</table>\n", out);
	ps_html_section_end(out);
}

/* the history's line: what changed since the last run to the same host */
static void html_since(FILE *out, const struct ps_check_report *r)
{
	if (!r->since || !r->since[0])
		return;
	ps_html_section(out, "since", _("Since the last run"));
	ps_html_p(out, "since", r->since);
	ps_html_section_end(out);
}

static void html_answer(FILE *out, const struct ps_check_report *r)
{
	struct ps_answer a;
	struct ps_answer_line l[PS_ANSWER_MAX_LINES];
	int n;

	ps_answer_of(r->d, &a);
	n = ps_answer_phrase(&a, PS_ANSWER_SCREEN, l);
	ps_html_section(out, "answer", _("The answer"));
	for (int i = 0; i < n; i++)
		if (l[i].part != PS_ANSWER_HEADING)
			ps_html_p(out, "answer", l[i].text);
	ps_html_section_end(out);
}

static const char *const chart_missing[PS_CHART_COUNT] = {
	N_("no forward test finished: there is no sweep to draw"),
	N_("no test reported intervals"),
	N_("the cores were not read during the tests"),
	N_("no queue interrupts were seen (loopback or a virtual "
	   "interface has none, or /proc/interrupts was not readable)"),
};

static void html_charts(FILE *out, const struct ps_check_report *r)
{
	ps_html_section(out, "charts", _("Charts"));
	for (int c = 0; c < PS_CHART_COUNT; c++) {
		fprintf(out, "<figure id=\"fig-%s\">\n", chart_names[c]);
		if (ps_check_chart_has_data(r, c))
			ps_check_chart_svg(out, r, c, false);
		else
			ps_html_p(out, "nodata", _(chart_missing[c]));
		fputs("</figure>\n", out);
	}
	ps_html_section_end(out);
}

static const char *state_text(enum ps_step_state st)
{
	switch (st) {
	case PS_STEP_DONE:
		return _("done");
	case PS_STEP_SKIPPED:
		return _("skipped");
	case PS_STEP_FAILED:
		return _("failed");
	case PS_STEP_PENDING:
		break;
	}
	return _("not run");
}

static void td(FILE *out, bool num, const char *s)
{
	fputs(num ? "<td class=\"num\">" : "<td>", out);
	ps_html_text(out, s);
	fputs("</td>", out);
}

static void html_steps(FILE *out, const struct ps_check_report *r)
{
	const struct ps_run *res = r->ev->res;

	if (!res || !res->nsteps)
		return;
	ps_html_section(out, "tests", _("Tests"));
	fputs("<table>\n<tr>", out);
	{
		const char *h[] = {
			_("test"),   _("state"),   _("rate"),
			_("RTT ms"), _("retrans"), _("busiest core")
		};

		for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
			fputs("<th>", out);
			ps_html_text(out, h[i]);
			fputs("</th>", out);
		}
	}
	fputs("</tr>\n", out);
	for (int i = 0; i < res->nsteps; i++) {
		const struct ps_step_result *s = &res->steps[i];
		char t[64], v[64];
		int k;

		ps_check_step_title(s, t, sizeof(t));
		fputs("<tr>", out);
		td(out, false, t);
		if (!done(s)) {
			snprintf(v, sizeof(v), "%s", state_text(s->state));
			td(out, false, v);
			fputs("<td colspan=\"4\">", out);
			ps_html_text(out, s->note);
			fputs("</td></tr>\n", out);
			continue;
		}
		td(out, false, state_text(s->state));
		ps_svg_format(v, sizeof(v), s->bps, PS_SVG_BPS);
		if (s->bidir) {
			size_t l = strlen(v);

			snprintf(v + l, sizeof(v) - l, " + ");
			l = strlen(v);
			ps_svg_format(v + l, sizeof(v) - l, s->bps_back,
				      PS_SVG_BPS);
		}
		td(out, true, v);
		*v = 0;
		if (s->have_tcpinfo && isfinite(s->rtt_us))
			snprintf(v, sizeof(v), "%.2f", s->rtt_us / 1e3);
		td(out, true, v);
		*v = 0;
		if (s->have_tcpinfo)
			snprintf(v, sizeof(v), "%lld", (long long)s->retrans);
		td(out, true, v);
		*v = 0;
		k = ps_step_test_core(s, NULL);
		if (k >= 0 && isfinite(s->cpu.cores[k].busy_pct))
			snprintf(v, sizeof(v), "cpu%d %.0f%%",
				 s->cpu.cores[k].id, s->cpu.cores[k].busy_pct);
		td(out, false, v);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	ps_html_section_end(out);
}

static void html_findings(FILE *out, const struct ps_check_report *r)
{
	const struct ps_diagnosis *d = r->d;

	ps_html_section(out, "findings", _("Findings, most explaining first"));
	if (!d->nrank)
		ps_html_p(out, NULL, _("none"));
	else
		fputs("<ol>\n", out);
	for (size_t i = 0; i < d->nrank; i++) {
		const struct ps_finding *f = &ps_diagnosis_ranked(d, i)->f;
		char c[32];

		fprintf(out,
			"<li class=\"finding\" id=\"finding-%zu\"><span "
			"class=\"sev sev-%s\">",
			i + 1, ps_severity_name(f->severity));
		ps_html_text(out, ps_severity_text(f->severity));
		fputs("</span> <strong>", out);
		ps_html_text(out, f->title);
		fputs("</strong> (<code>", out);
		ps_html_text(out, f->id);
		fputs("</code>)\n<ul>\n<li class=\"evidence\">", out);
		ps_html_text(out, _("evidence"));
		fputs(": ", out);
		ps_html_text(out, f->evidence);
		fputs("</li>\n", out);
		if (f->remedy[0]) {
			fputs("<li class=\"remedy\">", out);
			ps_html_text(out, _("remedy"));
			fputs(": <code>", out);
			ps_html_text(out, f->remedy);
			fputs("</code></li>\n", out);
		}
		if (f->ceiling_bps > 0 && isfinite(f->ceiling_bps)) {
			ps_fmt_bps(c, sizeof(c), f->ceiling_bps);
			fputs("<li class=\"ceiling\">", out);
			ps_html_text(out, _("ceiling"));
			fputs(": ", out);
			ps_html_text(out, c);
			fputs(" (", out);
			ps_html_text(out, ps_scope_text(f->scope));
			fputs(")</li>\n", out);
		}
		fputs("</ul></li>\n", out);
	}
	if (d->nrank)
		fputs("</ol>\n", out);
	ps_html_section_end(out);
}

static void html_rest(FILE *out, const struct ps_check_report *r)
{
	const struct ps_diagnosis *d = r->d;

	for (int pass = 0; pass < 2; pass++) {
		enum ps_check_state want = pass ? PS_CHECK_NA : PS_CHECK_CLEAR;
		bool any = false;

		for (size_t i = 0; i < d->n; i++) {
			if (d->out[i].state != want)
				continue;
			if (!any) {
				ps_html_section(
					out, pass ? "not-checked" : "ruled-out",
					pass ? _("Not checked")
					     : _("Ruled out"));
				fputs("<ul>\n", out);
			}
			any = true;
			fputs("<li><strong>", out);
			ps_html_text(out, _(d->out[i].ops->title));
			fputs("</strong>: ", out);
			ps_html_text(out, d->out[i].f.evidence);
			fputs("</li>\n", out);
		}
		if (any) {
			fputs("</ul>\n", out);
			ps_html_section_end(out);
		}
	}
}

static void html_settings_of(FILE *out, const struct ps_evidence *ev,
			     const char *id, const char *heading)
{
	struct json_object *s = ps_check_settings_json(ev), *sys;

	ps_html_section(out, id, heading);
	fputs("<table>\n", out);
	json_object_object_foreach(s, key, val)
	{
		size_t kl = strlen(key);
		char v[64];

		if (!strcmp(key, "sysctl") || !val)
			continue;
		/* rates in human units, as the text report */
		if (kl > 4 && !strcmp(key + kl - 4, "_bps"))
			ps_svg_format(v, sizeof(v), json_object_get_double(val),
				      PS_SVG_BPS);
		else
			snprintf(v, sizeof(v), "%s",
				 json_object_get_string(val));
		html_kv(out, key, v);
	}
	if (json_object_object_get_ex(s, "sysctl", &sys)) {
		json_object_object_foreach(sys, k2, v2)
		{
			html_kv(out, k2, json_object_get_string(v2));
		}
	}
	fputs("</table>\n", out);
	ps_html_section_end(out);
	json_object_put(s);
}

static void html_settings(FILE *out, const struct ps_check_report *r)
{
	html_settings_of(out, r->ev, "settings", _("Settings of this end"));
	if (r->ev->peer) {
		struct ps_evidence pev;

		ps_evidence_of(r->ev->peer, NULL, &pev);
		html_settings_of(out, &pev, "settings-far",
				 _("Settings of the far end"));
	}
}

void ps_check_report_html(FILE *out, const struct ps_check_report *r)
{
	ps_html_begin(out, _("pipescope check"));
	html_header(out, r);
	html_answer(out, r);
	html_since(out, r);
	html_charts(out, r);
	html_steps(out, r);
	html_findings(out, r);
	html_rest(out, r);
	html_settings(out, r);
	ps_html_end(out);
}

static void html_fn(FILE *out, const void *arg)
{
	ps_check_report_html(out, arg);
}

int ps_check_report_html_beside(const char *md_path,
				const struct ps_check_report *r)
{
	size_t l = strlen(md_path);
	char *path;
	int rc;

	if (l > 3 && !strcmp(md_path + l - 3, ".md"))
		l -= 3;
	xasprintf(&path, "%.*s.html", (int)l, md_path);
	rc = ps_write_atomic(path, html_fn, r);
	free(path);
	return rc;
}

/* ---- --plot DIR ---------------------------------------------------------- */

int ps_plot_dir_ready(const char *dir)
{
	struct stat st;
	int err = 0;

	if (!dir || !*dir)
		err = -ENOENT;
	else if (mkdir(dir, 0777) && errno != EEXIST)
		err = -errno;
	else if (stat(dir, &st))
		err = -errno;
	else if (!S_ISDIR(st.st_mode))
		err = -ENOTDIR;
	else if (access(dir, W_OK | X_OK))
		err = -errno;
	if (err)
		ps_err(_("--plot %s: %s"), ps_safe(dir ? dir : ""),
		       strerror(-err));
	return err;
}

struct plot_arg {
	const struct ps_check_report *r;
	enum ps_check_chart c;
};

static void plot_fn(FILE *out, const void *arg)
{
	const struct plot_arg *a = arg;

	ps_check_chart_svg(out, a->r, a->c, true);
}

int ps_check_report_plot(const char *dir, const struct ps_check_report *r)
{
	for (int c = 0; c < PS_CHART_COUNT; c++) {
		struct plot_arg a = { r, c };
		char *path;
		int rc;

		if (!ps_check_chart_has_data(r, c))
			continue;
		xasprintf(&path, "%s/%s.svg", dir, chart_names[c]);
		rc = ps_write_atomic(path, plot_fn, &a);
		if (rc)
			ps_err(_("cannot write %s: %s"), ps_safe(path),
			       strerror(-rc));
		free(path);
		if (rc)
			return rc;
	}
	return 0;
}

void ps_check_report_md_charts(FILE *out, const struct ps_check_report *r)
{
	bool any = false;

	if (!r->plot_dir)
		return;
	for (int c = 0; c < PS_CHART_COUNT; c++) {
		if (!ps_check_chart_has_data(r, c))
			continue;
		if (!any)
			fprintf(out, "### %s\n\n", _("Charts"));
		any = true;
		/* the path as it was given (a relative DIR stays relative),
		 * every byte but [A-Za-z0-9._~/-] %-encoded */
		fprintf(out, "![%s](", chart_names[c]);
		for (const unsigned char *p =
			     (const unsigned char *)r->plot_dir;
		     *p; p++) {
			if ((*p >= 'a' && *p <= 'z') ||
			    (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || strchr("._~/-", *p))
				fputc(*p, out);
			else
				fprintf(out, "%%%02X", *p);
		}
		fprintf(out, "/%s.svg)\n\n", chart_names[c]);
	}
}
