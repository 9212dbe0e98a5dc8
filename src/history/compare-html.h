/* compare-html.h: "pipescope compare --format html": the comparison of two
 * runs (compare.h) as one self-contained page (the check page's skeleton,
 * report-html.h: inline CSS and SVG, no script, nothing fetched), and its
 * bar chart as an SVG file (compare --plot DIR) */
#ifndef PS_COMPARE_HTML_H
#define PS_COMPARE_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "compare.h"

/* the rates of both runs side by side, the change in % over each pair of
 * bars (or "noise"): the sums, and each stream's when both records have
 * them; one <svg id="chart-compare"> */
void ps_compare_chart_svg(FILE *out, const struct ps_cmp *c, bool standalone);
/* the page */
void ps_compare_html(FILE *out, const struct ps_cmp *c);
/* --plot DIR: the chart as DIR/compare.svg (whole or not at all); 0, or
 * -errno with one line on stderr */
int ps_compare_plot(const char *dir, const struct ps_cmp *c);

#endif
