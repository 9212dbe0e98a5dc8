/* ui-colors.c: the workstation's colours (semantic pairs, monochrome
 * fallback, NO_COLOR) and its UTF-8 / ASCII glyphs */
#include "config.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ui-colors.h"

/* the glyphs of UTF-8 and of ASCII terminals, but for the parts of a bar
 * (one solid shade in colour; four shapes in monochrome) */
#define GLYPHS_UTF8(...)                                                       \
	{                                                                      \
		.utf8 = true, .hline = "\u2500", .vline = "\u2502",            \
		.corner = { "\u250c", "\u2510", "\u2514", "\u2518" },          \
		.bar = { __VA_ARGS__ }, .bar_empty = "\u00b7",                 \
		.heat = { "\u00b7", "\u2591", "\u2592", "\u2593", "\u2588" },  \
		.mark = "\u25c0", .arrow = "\u2192", .dash = "\u2014",         \
		.blocks = { " ",      "\u2581", "\u2582", "\u2583", "\u2584",  \
			    "\u2585", "\u2586", "\u2587", "\u2588" },          \
	}
#define GLYPHS_ASCII(...)                                                      \
	{                                                                      \
		.utf8 = false, .hline = "-", .vline = "|",                     \
		.corner = { "+", "+", "+", "+" }, .bar = { __VA_ARGS__ },      \
		.bar_empty = " ", .heat = { ".", ":", "+", "*", "#" },         \
		.mark = "<", .arrow = "->", .dash = "--",                      \
		.blocks = { " ", ".", ".", ".", ":", ":", ":", "#", "#" },     \
	}

static const struct ui_glyphs glyphs_utf8 =
	GLYPHS_UTF8("\u2588", "\u2588", "\u2588", "\u2588");
/* monochrome UTF-8: the four parts of a bar must differ by shape */
static const struct ui_glyphs glyphs_utf8_mono =
	GLYPHS_UTF8("\u2588", "\u2593", "\u2592", "\u2591");
static const struct ui_glyphs glyphs_ascii = GLYPHS_ASCII("|", "|", "|", "|");
/* monochrome ASCII: a letter-free code explained by the legend */
static const struct ui_glyphs glyphs_ascii_mono =
	GLYPHS_ASCII("#", "=", "!", "%");

static attr_t attrs[UI_C_COUNT];

static bool locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

void ui_style_choose(bool no_color, struct ui_style *st)
{
	const char *term = getenv("TERM");
	const char *nc = getenv("NO_COLOR");

	memset(st, 0, sizeof(*st));
	/* no-color.org: present and not empty turns colour off */
	st->color = !no_color && !(nc && *nc);
	st->utf8 = locale_utf8();
	if (!st->utf8)
		st->graph = UI_GRAPH_ASCII;
	else if (term && !strcmp(term, "linux"))
		st->graph = UI_GRAPH_BLOCKS;
	else
		st->graph = UI_GRAPH_BRAILLE;
	st->g = st->utf8 ? &glyphs_utf8 : &glyphs_ascii;
}

/*
 * The pairs hold on a dark and on a light background alike (contrast 3:1
 * or more on black and on white, tests/ui-manners.sh): text on the
 * terminal's own background is its own colour, red or magenta with eight
 * colours, or with 256 the darker teal, green, amber and grey that read
 * on both; the light hues (yellow, cyan, green) only as a background
 * under black or white text, or on the header's blue. The graph, the bars
 * and the heat cells are blocks of colour, not text.
 */
struct pair_def {
	enum ui_color c;
	short fg, bg;
	short fg256;	      /* its foreground with 256 colours (0: fg) */
	attr_t extra, extra8; /* extra8: with eight colours only */
};

static const struct pair_def pairs[] = {
	{ UI_C_TITLE, -1, -1, 30, A_BOLD, 0 },
	{ UI_C_HEADER, COLOR_WHITE, COLOR_BLUE, 0, A_BOLD, 0 },
	{ UI_C_LABEL, -1, -1, 30, 0, 0 },
	{ UI_C_VALUE, -1, -1, 0, A_BOLD, 0 },
	{ UI_C_GOOD, -1, -1, 28, 0, 0 },
	{ UI_C_WARN, COLOR_MAGENTA, -1, 136, A_BOLD, 0 },
	{ UI_C_BAD, COLOR_RED, -1, 160, A_BOLD, 0 },
	{ UI_C_DIM, -1, -1, 244, 0, A_DIM },
	{ UI_C_BAR_USER, COLOR_GREEN, -1, 0, 0, 0 },
	{ UI_C_BAR_SYSTEM, COLOR_RED, -1, 0, 0, 0 },
	{ UI_C_BAR_IRQ, COLOR_YELLOW, -1, 0, 0, 0 },
	{ UI_C_BAR_SOFTIRQ, COLOR_MAGENTA, -1, 0, 0, 0 },
	{ UI_C_GRAPH, COLOR_GREEN, -1, 0, A_BOLD, 0 },
	{ UI_C_HEAT1, COLOR_BLUE, -1, 0, A_BOLD, 0 },
	{ UI_C_HEAT2, COLOR_GREEN, -1, 0, 0, 0 },
	{ UI_C_HEAT3, COLOR_YELLOW, -1, 0, A_BOLD, 0 },
	{ UI_C_HEAT4, COLOR_RED, -1, 0, A_BOLD, 0 },
	{ UI_C_KEY, COLOR_BLACK, COLOR_CYAN, 0, 0, 0 },
	{ UI_C_FOOTER, -1, -1, 0, 0, 0 },
	{ UI_C_SELECTED, COLOR_BLACK, COLOR_CYAN, 0, 0, 0 },
	{ UI_C_HEAD_GOOD, COLOR_BLACK, COLOR_GREEN, 0, 0, 0 },
	{ UI_C_HEAD_WARN, COLOR_YELLOW, COLOR_BLUE, 0, A_BOLD, 0 },
	{ UI_C_HEAD_BAD, COLOR_WHITE, COLOR_RED, 0, A_BOLD, 0 },
};

static void mono(void)
{
	for (int i = 0; i < UI_C_COUNT; i++)
		attrs[i] = A_NORMAL;
	attrs[UI_C_TITLE] = A_BOLD;
	attrs[UI_C_HEADER] = A_REVERSE;
	attrs[UI_C_VALUE] = A_BOLD;
	attrs[UI_C_WARN] = A_BOLD;
	attrs[UI_C_BAD] = A_BOLD | A_UNDERLINE;
	attrs[UI_C_DIM] = A_DIM;
	attrs[UI_C_HEAT3] = A_BOLD;
	attrs[UI_C_HEAT4] = A_BOLD;
	attrs[UI_C_KEY] = A_REVERSE;
	attrs[UI_C_SELECTED] = A_REVERSE;
	attrs[UI_C_HEAD_GOOD] = A_REVERSE | A_BOLD;
	attrs[UI_C_HEAD_WARN] = A_REVERSE | A_BOLD;
	attrs[UI_C_HEAD_BAD] = A_REVERSE | A_BOLD | A_UNDERLINE;
}

void ui_colors_init(struct ui_style *st)
{
	mono();
	if (st->color && has_colors() && start_color() != ERR) {
		bool dflt = use_default_colors() != ERR;

		for (unsigned i = 0; i < sizeof(pairs) / sizeof(pairs[0]);
		     i++) {
			bool wide = COLORS >= 256 && pairs[i].fg256;
			short fg = wide ? pairs[i].fg256 : pairs[i].fg;
			short bg = pairs[i].bg;
			short n = (short)(i + 1);

			if (!dflt) {
				fg = fg < 0 ? COLOR_WHITE : fg;
				bg = bg < 0 ? COLOR_BLACK : bg;
			}
			if (n >= COLOR_PAIRS)
				break;
			init_pair(n, fg, bg);
			attrs[pairs[i].c] = COLOR_PAIR(n) | pairs[i].extra |
					    (wide ? 0 : pairs[i].extra8);
		}
	} else {
		st->color = false;
	}
	if (!st->color)
		st->g = st->utf8 ? &glyphs_utf8_mono : &glyphs_ascii_mono;
}

attr_t ui_attr(enum ui_color c)
{
	return (unsigned)c < UI_C_COUNT ? attrs[c] : A_NORMAL;
}

attr_t ui_attr_header(enum ui_color c)
{
	switch (c) {
	case UI_C_GOOD:
		return attrs[UI_C_HEAD_GOOD];
	case UI_C_WARN:
		return attrs[UI_C_HEAD_WARN];
	case UI_C_BAD:
		return attrs[UI_C_HEAD_BAD];
	default:
		return attrs[UI_C_HEADER] | A_BOLD;
	}
}
