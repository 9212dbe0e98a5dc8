/* report-html.h: reports with pictures: one self-contained HTML page
 * (inline CSS and SVG, no script, nothing fetched: a Content-Security-Policy
 * of default-src 'none' says so to the browser too), the same charts as
 * SVG files (--plot DIR), and the page skeleton other pages share
 * (compare --format html) */
#ifndef PS_REPORT_HTML_H
#define PS_REPORT_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "report-check.h"

/* ---- the page skeleton ----------------------------------------------- */

/* <!DOCTYPE html> .. <body><h1>title</h1> (title escaped) */
void ps_html_begin(FILE *out, const char *title);
/* <section id="id"><h2>heading</h2> .. </section> */
void ps_html_section(FILE *out, const char *id, const char *heading);
void ps_html_section_end(FILE *out);
/* </body></html> */
void ps_html_end(FILE *out);
/* untrusted text, escaped (ps_xml_escape) */
void ps_html_text(FILE *out, const char *s);
/* a table's row of headings: h[0..n) translated and escaped */
void ps_html_th_row(FILE *out, const char *const *h, int n);
/* <p class="cls">text</p>, escaped */
void ps_html_p(FILE *out, const char *cls, const char *text);

/* write a file whole or not at all: fn writes into a temporary file in
 * path's directory, which is renamed to path when every write succeeded;
 * 0 or -errno (nothing left behind) */
int ps_write_atomic(const char *path, void (*fn)(FILE *out, const void *arg),
		    const void *arg);

/* ---- check's charts ------------------------------------------------------ */

enum ps_check_chart {
	PS_CHART_SWEEP, /* sum per stream count, the ceilings as lines */
	PS_CHART_RATE,	/* the rate over time of each step */
	PS_CHART_CPU,	/* each step's cores, a heat strip a step */
	PS_CHART_IRQ,	/* interrupts per queue line and CPU, one step */
	PS_CHART_COUNT,
};

/* the stable file name: "sweep" -> sweep.svg */
const char *ps_check_chart_name(enum ps_check_chart c);
/* whether the run has the chart's data */
bool ps_check_chart_has_data(const struct ps_check_report *r,
			     enum ps_check_chart c);
void ps_check_chart_svg(FILE *out, const struct ps_check_report *r,
			enum ps_check_chart c, bool standalone);

/* check --format html */
void ps_check_report_html(FILE *out, const struct ps_check_report *r);
/* the same page at md_path with ".html" for ".md" (the screen's w key);
 * 0 or -errno */
int ps_check_report_html_beside(const char *md_path,
				const struct ps_check_report *r);

/* --plot DIR: make DIR if it is missing; 0, or -errno with one line on
 * stderr (run before the test, so a bad DIR is said at once) */
int ps_plot_dir_ready(const char *dir);
/* every chart with data as DIR/NAME.svg; 0, or -errno with one line on
 * stderr (charts already written stay, each one whole) */
int ps_check_report_plot(const char *dir, const struct ps_check_report *r);
/* the markdown report's links to them (r->plot_dir), relative to where
 * DIR was given */
void ps_check_report_md_charts(FILE *out, const struct ps_check_report *r);

#endif
