/* ui-layout.h: where each panel of the workstation screen goes, how the CPU
 * panel folds many cores, how bars and the graph are cut into cells (pure
 * arithmetic, no curses, unit-tested) */
#ifndef PS_UI_LAYOUT_H
#define PS_UI_LAYOUT_H

#include <stdbool.h>

#define UI_MIN_COLS 80
#define UI_MIN_ROWS 24

struct ui_rect {
	int y, x, h, w;
};

enum ui_panel {
	UI_P_HEADER,   /* two lines: test, sum */
	UI_P_GRAPH,    /* throughput over time */
	UI_P_STREAMS,  /* per-stream rows */
	UI_P_CPU,      /* one bar per core */
	UI_P_IRQ,      /* queues x CPUs, softnet */
	UI_P_NIC,      /* link, MTU, offloads, rings, PCIe */
	UI_P_FINDINGS, /* the top findings */
	UI_P_BODY,     /* a full-screen view (streams, CPU, ...) */
	UI_P_MESSAGE,  /* the message line */
	UI_P_FOOTER,   /* the keys */
	UI_P_COUNT
};

struct ui_layout {
	bool too_small; /* below UI_MIN_COLS x UI_MIN_ROWS */
	bool dashboard;
	struct ui_rect p[UI_P_COUNT]; /* h == 0: not on this screen */
};

/*
 * Lay out a rows x cols screen: the dashboard (every panel at once) or a
 * single view (header, body, message, footer). Panels never overlap and
 * never leave the screen; below the minimum only too_small is set.
 * cpu_want: the lines the CPU panel would like (cores + title + legend),
 * the rest of its column goes to the IRQ panel; 0 splits by default.
 */
void ui_layout_compute(int rows, int cols, bool dashboard, int cpu_want,
		       struct ui_layout *out);
/*
 * The same, the panels taking the room they need: the streams panel
 * streams_want lines (its rows, title and head; the graph gets the rest,
 * at least UI_GRAPH_MIN_H), the findings strip findings_want (up to a
 * fifth of the screen); 0: the default split.
 */
#define UI_GRAPH_MIN_H 6
void ui_layout_compute_want(int rows, int cols, bool dashboard, int cpu_want,
			    int streams_want, int findings_want,
			    struct ui_layout *out);
bool ui_rect_overlap(const struct ui_rect *a, const struct ui_rect *b);

/* ---- the CPU panel: how n cores fit into h x w -------------------------- */

enum ui_cpu_mode {
	UI_CPU_BARS,  /* "cpu3 [||||||    ] 45%" in one or more columns */
	UI_CPU_CELLS, /* "3:45" numbers, many per line */
	UI_CPU_DOTS,  /* one shaded cell per core, rows labelled */
};

struct ui_cpu_grid {
	enum ui_cpu_mode mode;
	int ncols;   /* cores side by side */
	int nrows;   /* lines used */
	int cell_w;  /* columns per core (bars: the whole cell) */
	int label_w; /* DOTS: the row label width (0: no labels) */
};

/*
 * Choose how ncores fit: bars when each gets a line (or a column of at
 * least 18 characters), else numbered cells, else one glyph per core. Every
 * core is shown in every mode when h x w allows one cell per core;
 * returns false when even that does not fit.
 */
bool ui_cpu_grid_plan(int ncores, int h, int w, struct ui_cpu_grid *g);

/*
 * Cut a bar of width cells into parts by percentage (largest remainder):
 * the parts add up to round(sum(pct) * width / 100), capped at width.
 */
void ui_bar_split(const double *pct, int n, int width, int *out);

/* ---- the throughput graph ----------------------------------------------- */

/* a round axis maximum at or above v: 1, 2, 2.5, 5 x 10^k */
double ui_graph_axis_max(double v);
/*
 * How many of the levels (of levels_per_row) row r (0 = bottom) of a
 * column shows for value v of max over rows rows: 0..levels_per_row.
 */
int ui_graph_fill(double v, double max, int rows, int r, int levels_per_row);
/* the braille dots (U+2800 offset) for left/right fills of 0..4 from below */
unsigned ui_braille_bits(int left, int right);

#endif
