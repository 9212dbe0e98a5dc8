/* ui-colors.h: the workstation's semantic colours (with a monochrome
 * scheme for !has_colors(), NO_COLOR and --no-color) and its glyphs (UTF-8
 * when the locale is UTF-8, ASCII otherwise) */
#ifndef PS_UI_COLORS_H
#define PS_UI_COLORS_H

#include <stdbool.h>

#include <curses.h>

enum ui_color {
	UI_C_NORMAL,
	UI_C_TITLE,  /* panel titles */
	UI_C_HEADER, /* the two header lines */
	UI_C_LABEL,  /* "MTU", "rtt" */
	UI_C_VALUE,  /* the numbers */
	UI_C_GOOD,
	UI_C_WARN,
	UI_C_BAD,
	UI_C_DIM, /* "not sampled yet", axes */
	UI_C_BAR_USER,
	UI_C_BAR_SYSTEM,
	UI_C_BAR_IRQ,
	UI_C_BAR_SOFTIRQ,
	UI_C_GRAPH,
	UI_C_HEAT1, /* heatmap, low to high */
	UI_C_HEAT2,
	UI_C_HEAT3,
	UI_C_HEAT4,
	UI_C_KEY,      /* footer: the key */
	UI_C_FOOTER,   /* footer: what it does */
	UI_C_SELECTED, /* the chosen entry of a list */
	/* good, warn and bad on the header's background (ui_attr_header) */
	UI_C_HEAD_GOOD,
	UI_C_HEAD_WARN,
	UI_C_HEAD_BAD,
	UI_C_COUNT
};

/* the glyphs of one drawing style */
struct ui_glyphs {
	bool utf8;
	const char *hline;     /* titles' rule */
	const char *vline;     /* between the two halves */
	const char *corner[4]; /* a box's: top left, top right, bottom left
				* and right */
	const char *bar[4];    /* user, system, irq, softirq */
	const char *bar_empty;
	const char *heat[5];   /* none .. most */
	const char *mark;      /* the busiest core */
	const char *arrow;     /* "->" */
	const char *dash;      /* "--" */
	const char *blocks[9]; /* graph without braille: " " + 8 heights */
};

enum ui_graph_style {
	UI_GRAPH_BRAILLE, /* 2x4 dots per cell */
	UI_GRAPH_BLOCKS,  /* 8 heights per cell (Linux console fonts) */
	UI_GRAPH_ASCII,	  /* '#' and '.' */
};

struct ui_style {
	bool color; /* colour pairs in use */
	bool utf8;
	enum ui_graph_style graph;
	const struct ui_glyphs *g;
};

/*
 * Decide the style before curses starts: colour unless no_color, NO_COLOR
 * set and not empty, or the terminal has none; UTF-8 glyphs when the locale's
 * codeset is UTF-8; braille unless TERM is the Linux console (its fonts
 * have blocks but no braille) or the locale is not UTF-8.
 */
void ui_style_choose(bool no_color, struct ui_style *st);
/* after initscr: start the colour pairs (if st->color and has_colors) */
void ui_colors_init(struct ui_style *st);
/* the attributes of a semantic colour in the current style */
attr_t ui_attr(enum ui_color c);
/* the same on the header's line: good, warn and bad have pairs of their
 * own there (a colour pair or'd with the header's is another pair), the
 * rest is the header's, bold */
attr_t ui_attr_header(enum ui_color c);

#endif
