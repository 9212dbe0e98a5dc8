/* compare-html.c: the comparison of two runs as an HTML page and an SVG
 * bar chart (compare-html.h). Every string of a record is untrusted: it
 * goes through ps_html_text / the chart's escaping, never raw. */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare-html.h"
#include "log.h"
#include "nls.h"
#include "report-html.h"
#include "sanitize.h"
#include "svg.h"
#include "units.h"
#include "xmalloc.h"

/* streams drawn one by one at most (more are left out of the chart) */
#define MAXSTREAMS 32

/* ---- the rates ----------------------------------------------------------- */

/* each stream's rate in a -J document (end.streams[]): the receiver's,
 * else UDP's, else the sender's; the count, 0 when there are none */
static int stream_rates(const char *result, double *v, int max)
{
	struct json_object *doc, *end, *streams;
	int n = 0;

	if (!result)
		return 0;
	doc = json_tokener_parse(result);
	if (doc && json_object_object_get_ex(doc, "end", &end) &&
	    json_object_object_get_ex(end, "streams", &streams) &&
	    json_object_is_type(streams, json_type_array)) {
		size_t len = json_object_array_length(streams);

		for (size_t i = 0; i < len && n < max; i++) {
			static const char *const part[] = { "receiver", "udp",
							    "sender" };
			struct json_object *s, *p, *b;
			double r = NAN;

			s = json_object_array_get_idx(streams, i);
			for (size_t k = 0; k < 3 && !isfinite(r); k++)
				if (json_object_object_get_ex(s, part[k], &p) &&
				    json_object_object_get_ex(
					    p, "bits_per_second", &b) &&
				    (json_object_is_type(b, json_type_double) ||
				     json_object_is_type(b, json_type_int)))
					r = json_object_get_double(b);
			v[n++] = isfinite(r) && r >= 0 ? r : NAN;
		}
	}
	json_object_put(doc);
	return n;
}

/* "+12.3%", "noise (+1.2%)", "" when pct is not known */
static void pct_note(double pct, bool noise, char *buf, size_t len)
{
	buf[0] = 0;
	if (!isfinite(pct))
		return;
	if (noise)
		snprintf(buf, len, _("noise (%+.1f%%)"), pct);
	else
		snprintf(buf, len, "%+.1f%%", pct);
}

/* a stream's change, noise within the runs' spread (as the sums') */
static void change_note(double a, double b, double noise_pct, char *buf,
			size_t len)
{
	double pct =
		isfinite(a) && isfinite(b) && a > 0 ? (b - a) / a * 100 : NAN;

	pct_note(pct, isfinite(noise_pct) && fabs(pct) <= noise_pct, buf, len);
}

void ps_compare_chart_svg(FILE *out, const struct ps_cmp *c, bool standalone)
{
	double s[2][MAXSTREAMS], v[2 * (MAXSTREAMS + 1)];
	char label[MAXSTREAMS + 1][32], note[MAXSTREAMS + 1][64];
	const char *lp[MAXSTREAMS + 1], *np[MAXSTREAMS + 1];
	char sn[2][48], title[96];
	const char *series[2] = { sn[0], sn[1] };
	int n[2], groups = 1;

	for (int i = 0; i < 2; i++) {
		n[i] = stream_rates(c->run[i].result, s[i], MAXSTREAMS);
		snprintf(sn[i], sizeof(sn[i]), _("run %c (%lld)"),
			 i ? 'B' : 'A', (long long)c->run[i].id);
		v[i] = c->run[i].bps;
	}
	snprintf(label[0], sizeof(label[0]), "%s", _("sum"));
	pct_note(c->change_pct, c->noise, note[0], sizeof(note[0]));
	/* each stream, when both runs have them and one has more than one */
	if (n[0] && n[1] && (n[0] > 1 || n[1] > 1)) {
		int m = n[0] > n[1] ? n[0] : n[1];

		for (int k = 0; k < m; k++, groups++) {
			double a = k < n[0] ? s[0][k] : NAN;
			double b = k < n[1] ? s[1][k] : NAN;

			snprintf(label[groups], sizeof(label[groups]),
				 _("stream %d"), k + 1);
			change_note(a, b, c->noise_pct, note[groups],
				    sizeof(note[groups]));
			v[2 * groups] = a;
			v[2 * groups + 1] = b;
		}
	}
	for (int g = 0; g < groups; g++) {
		lp[g] = label[g];
		np[g] = note[g];
	}
	snprintf(title, sizeof(title), _("rate: run %lld and run %lld"),
		 (long long)c->run[0].id, (long long)c->run[1].id);
	ps_svg_bar_chart(out,
			 &(struct ps_svg_bar_chart){ .id = "chart-compare",
						     .title = title,
						     .ylabel = _("rate"),
						     .unit = PS_SVG_BPS,
						     .ngroups = groups,
						     .nseries = 2,
						     .group_label = lp,
						     .group_note = np,
						     .series_name = series,
						     .v = v },
			 standalone);
}

/* ---- the page ------------------------------------------------------------ */

static void td(FILE *out, const char *cls, const char *text)
{
	if (cls)
		fprintf(out, "<td class=\"%s\">", cls);
	else
		fputs("<td>", out);
	ps_html_text(out, text);
	fputs("</td>", out);
}

static void runs_table(FILE *out, const struct ps_cmp *c)
{
	static const char *const head[] = {
		N_("run"),    N_("kind"),     N_("when"),
		N_("target"), N_("streams"),  N_("rate"),
		N_("spread"), N_("this end"), N_("far end"),
	};

	fputs("<table class=\"runs\">\n", out);
	ps_html_th_row(out, head, sizeof(head) / sizeof(head[0]));
	for (int i = 0; i < 2; i++) {
		const struct ps_hist_rec *x = &c->run[i];
		char b[64];

		fprintf(out, "<tr id=\"run-%c\">", i ? 'b' : 'a');
		snprintf(b, sizeof(b), "%c %lld", i ? 'B' : 'A',
			 (long long)x->id);
		td(out, NULL, b);
		td(out, NULL, x->kind);
		ps_hist_when(x->time_ns, true, b, sizeof(b));
		td(out, NULL, b);
		td(out, NULL, x->target[0] ? x->target : "-");
		snprintf(b, sizeof(b), "%d %s", x->streams, x->direction);
		td(out, NULL, b);
		ps_hist_rate_text(x, b, sizeof(b));
		td(out, "num", b);
		if (isfinite(x->spread))
			snprintf(b, sizeof(b), "%.1f%%", 100 * x->spread);
		else
			snprintf(b, sizeof(b), "-");
		td(out, "num", b);
		td(out, NULL, x->end[0].host[0] ? x->end[0].host : "-");
		td(out, NULL, x->end[1].host[0] ? x->end[1].host : "-");
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void changes_table(FILE *out, const struct ps_cmp_change *v, size_t n)
{
	static const char *const head[] = { N_("setting"), N_("run A"),
					    N_("run B"), N_("where") };

	fputs("<table class=\"changes\">\n", out);
	ps_html_th_row(out, head, 4);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr class=\"change\">", out);
		td(out, "what", v[i].what);
		td(out, "before",
		   v[i].before[0] ? v[i].before_text : _("(none)"));
		td(out, "after", v[i].after[0] ? v[i].after_text : _("(none)"));
		fputs("<td><code>", out);
		ps_html_text(out, v[i].key);
		fputs("</code></td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void findings_list(FILE *out, const char *cls,
			  const struct ps_cmp_finding *v, size_t n)
{
	fputs("<ul>\n", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<li class=\"%s\"><code>", cls);
		ps_html_text(out, v[i].id);
		fputs("</code> ", out);
		ps_html_text(out, v[i].title);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

void ps_compare_html(FILE *out, const struct ps_cmp *c)
{
	static const char *const side_name[2] = { N_("this end"),
						  N_("far end") };
	static const char *const side_id[2] = { "local", "remote" };
	char t[256];

	snprintf(t, sizeof(t), _("pipescope: run %lld compared with run %lld"),
		 (long long)c->run[1].id, (long long)c->run[0].id);
	ps_html_begin(out, t);

	ps_html_section(out, "runs", _("The runs"));
	runs_table(out, c);
	ps_html_section_end(out);

	ps_html_section(out, "rate", _("The rate"));
	fputs("<figure id=\"fig-compare\">\n", out);
	ps_compare_chart_svg(out, c, false);
	fputs("</figure>\n", out);
	if (isfinite(c->change_pct)) {
		snprintf(t, sizeof(t), _("rate change: %+.1f%%"),
			 c->change_pct);
		ps_html_p(out, c->noise ? "change noise" : "change", t);
		if (c->noise)
			snprintf(t, sizeof(t),
				 _("noise: the change is within the runs' "
				   "spread of %.1f%%"),
				 c->noise_pct);
		else if (isfinite(c->noise_pct))
			snprintf(t, sizeof(t),
				 _("more than the runs' spread of %.1f%%"),
				 c->noise_pct);
		else
			snprintf(t, sizeof(t), "%s",
				 _("the runs' spread is not known: the "
				   "change may be noise"));
		ps_html_p(out, "spread", t);
	} else {
		ps_html_p(out, "nodata",
			  _("no rate in one of the runs: no change to "
			    "give"));
	}
	ps_html_section_end(out);

	if (c->nparams) {
		ps_html_section(out, "params", _("The tests differ"));
		changes_table(out, c->params, c->nparams);
		ps_html_section_end(out);
	}

	ps_html_section(out, "changes", _("What changed on each end"));
	for (int s = 0; s < 2; s++) {
		const struct ps_cmp_side *d = &c->side[s];

		fprintf(out, "<h3 id=\"end-%s\">", side_id[s]);
		ps_html_text(out, _(side_name[s]));
		if (c->run[1].end[s].host[0]) {
			fputs(" (", out);
			ps_html_text(out, c->run[1].end[s].host);
			fputc(')', out);
		}
		fputs("</h3>\n", out);
		if (!d->have) {
			ps_html_p(out, "nodata",
				  _("no snapshot in both runs: not compared"));
			continue;
		}
		if (d->other_host)
			ps_html_p(out, "note",
				  _("another machine than in run A"));
		else if (d->rebooted)
			ps_html_p(out, "note", _("rebooted between the runs"));
		if (!d->n)
			ps_html_p(out, "nodata", _("no setting changed"));
		else
			changes_table(out, d->v, d->n);
	}
	ps_html_section_end(out);

	ps_html_section(out, "findings", _("Findings"));
	if (!c->nappeared && !c->ngone)
		ps_html_p(out, "nodata", _("no finding appeared or went away"));
	if (c->nappeared) {
		fputs("<h3>", out);
		ps_html_text(out, _("appeared"));
		fputs("</h3>\n", out);
		findings_list(out, "appeared", c->appeared, c->nappeared);
	}
	if (c->ngone) {
		fputs("<h3>", out);
		ps_html_text(out, _("gone"));
		fputs("</h3>\n", out);
		findings_list(out, "gone", c->gone, c->ngone);
	}
	ps_html_section_end(out);
	ps_html_end(out);
}

/* ---- --plot DIR ---------------------------------------------------------- */

static void plot_fn(FILE *out, const void *arg)
{
	ps_compare_chart_svg(out, arg, true);
}

int ps_compare_plot(const char *dir, const struct ps_cmp *c)
{
	char *path;
	int rc;

	xasprintf(&path, "%s/compare.svg", dir);
	rc = ps_write_atomic(path, plot_fn, c);
	if (rc)
		ps_err(_("cannot write %s: %s"), ps_safe(path),
		       ps_strerror(-rc));
	free(path);
	return rc;
}
