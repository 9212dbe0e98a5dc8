/* svg.h: charts as SVG for the reports (check's HTML and --plot, and any
 * other page): a line chart with named horizontal lines (the ceilings), a
 * heatmap, a heat strip (a heatmap of one row) and a bar chart (compare's
 * two runs). Every label may come from the far end or a recorded tree: it
 * is escaped for XML/HTML here, and a number that is not finite is drawn
 * as "no data", never printed.
 * Identifiers (id) are the caller's own constants: [a-z0-9-] */
#ifndef PS_SVG_H
#define PS_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* s (NULL is "") as text for XML or HTML, content or a quoted attribute:
 * made safe as ps_sanitize does (controls visible, bad UTF-8 '?', no line
 * breaks), then & < > " ' as entities */
void ps_xml_escape(FILE *out, const char *s);
/* the same into buf (at most cap - 1 bytes, cut between entities and
 * characters); returns buf */
char *ps_xml_escape_buf(char *buf, size_t cap, const char *s);

enum ps_svg_unit {
	PS_SVG_PLAIN,	/* "%g" */
	PS_SVG_BPS,	/* "9.41 Gbit/s" */
	PS_SVG_SECONDS, /* "2.5 s", "2.01 s": two decimals at most */
	PS_SVG_PCT,	/* "85%" */
	PS_SVG_ROUND,	/* "1234", "3e+06": short, for a cell */
	PS_SVG_PER_S,	/* "1234/s" (a cell: as PS_SVG_ROUND) */
};

struct ps_svg_series {
	const char *name;    /* the legend's */
	const double *x, *y; /* n points; a point not finite is left out */
	int n;
};

/* a horizontal line across the plot with its name (a ceiling) */
struct ps_svg_hline {
	const char *name;
	double y;
};

struct ps_svg_line_chart {
	const char *id; /* the <svg> element's id */
	const char *title, *xlabel, *ylabel;
	enum ps_svg_unit xunit, yunit;
	const struct ps_svg_series *series;
	int nseries;
	/* drawn when within 4 times the data's largest value, else named
	 * in a note at the top ("above the chart: ...") */
	const struct ps_svg_hline *hlines;
	int nhlines;
	bool xzero;    /* the x axis starts at 0 (time) */
	bool xinteger; /* ticks on whole numbers only (a stream count) */
};

struct ps_svg_heatmap {
	const char *id, *title;
	int rows, cols;
	const char *const *row_label; /* rows entries (NULL entries: "") */
	const char *const *col_label; /* cols entries */
	const double *v;	      /* rows * cols, row by row; NAN: none */
	/* the value of the hottest colour; <= 0 or not finite: the largest
	 * value in v */
	double vmax;
	enum ps_svg_unit unit;
};

/* bars side by side in groups: one bar a series in each group (run A and
 * run B of each stream), a note over each group ("+12.3%") */
struct ps_svg_bar_chart {
	const char *id, *title, *ylabel;
	enum ps_svg_unit unit;
	int ngroups, nseries;
	const char *const *group_label; /* ngroups entries (NULL ones: "") */
	const char *const *group_note;	/* ngroups entries, or NULL */
	const char *const *series_name; /* nseries entries: the legend */
	const double *v; /* ngroups * nseries, group by group; NAN: none */
};

/*
 * Each writes one <svg> element: with standalone, a whole SVG file (the
 * XML declaration first). The root has class "ps-chart" and one of
 * "ps-line", "ps-heatmap", "ps-bar"; series are <polyline class="series">, bars
 * <rect class="bar">, points <circle class="point">, horizontal lines <line
 * class="hline"> with a <text class="hline-label">, heatmap cells <rect
 * class="cell">; every point and cell has a <title> (the browser's tooltip)
 * with its values in their units. The legend wraps onto more lines when
 * its names do not fit one (the plot moves down), and a heatmap's row
 * labels get the room they need (up to half the width, longer ones cut
 * with "…", the whole label in their <title>).
 */
void ps_svg_line_chart(FILE *out, const struct ps_svg_line_chart *c,
		       bool standalone);
void ps_svg_heatmap(FILE *out, const struct ps_svg_heatmap *h, bool standalone);
void ps_svg_bar_chart(FILE *out, const struct ps_svg_bar_chart *c,
		      bool standalone);
/* one row: a heat strip (label: the row's) */
void ps_svg_heat_strip(FILE *out, const char *id, const char *title,
		       const char *label, int cols,
		       const char *const *col_label, const double *v,
		       double vmax, enum ps_svg_unit unit, bool standalone);

/* a value as the axis and titles print it */
void ps_svg_format(char *buf, size_t len, double v, enum ps_svg_unit unit);
/* how wide s is drawn in px at font size px in a sans-serif font, from the
 * widths of DejaVu Sans and Liberation Sans (Arial) rounded up: what a
 * label's room is made from */
double ps_svg_text_width(const char *s, double px);

#endif
