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
		.bar = { __VA_ARGS__ }, .bar_empty = "\u00b7",                 \
		.heat = { "\u00b7", "\u2591", "\u2592", "\u2593", "\u2588" },  \
		.mark = "\u25c0", .arrow = "\u2192", .dash = "\u2014",         \
		.blocks = { " ",      "\u2581", "\u2582", "\u2583", "\u2584",  \
			    "\u2585", "\u2586", "\u2587", "\u2588" },          \
	}
#define GLYPHS_ASCII(...)                                                      \
	{                                                                      \
		.utf8 = false, .hline = "-", .vline = "|",                     \
		.bar = { __VA_ARGS__ }, .bar_empty = " ",                      \
		.heat = { ".", ":", "+", "*", "#" }, .mark = "<",              \
		.arrow = "->", .dash = "--",                                   \
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

struct pair_def {
	enum ui_color c;
	short fg, bg;
	attr_t extra;
};

static const struct pair_def pairs[] = {
	{ UI_C_TITLE, COLOR_CYAN, -1, A_BOLD },
	{ UI_C_HEADER, COLOR_WHITE, COLOR_BLUE, A_BOLD },
	{ UI_C_LABEL, COLOR_CYAN, -1, 0 },
	{ UI_C_VALUE, -1, -1, A_BOLD },
	{ UI_C_GOOD, COLOR_GREEN, -1, 0 },
	{ UI_C_WARN, COLOR_YELLOW, -1, A_BOLD },
	{ UI_C_BAD, COLOR_RED, -1, A_BOLD },
	{ UI_C_DIM, COLOR_BLUE, -1, A_BOLD },
	{ UI_C_BAR_USER, COLOR_GREEN, -1, 0 },
	{ UI_C_BAR_SYSTEM, COLOR_RED, -1, 0 },
	{ UI_C_BAR_IRQ, COLOR_YELLOW, -1, 0 },
	{ UI_C_BAR_SOFTIRQ, COLOR_MAGENTA, -1, 0 },
	{ UI_C_GRAPH, COLOR_GREEN, -1, A_BOLD },
	{ UI_C_HEAT1, COLOR_BLUE, -1, A_BOLD },
	{ UI_C_HEAT2, COLOR_GREEN, -1, 0 },
	{ UI_C_HEAT3, COLOR_YELLOW, -1, A_BOLD },
	{ UI_C_HEAT4, COLOR_RED, -1, A_BOLD },
	{ UI_C_KEY, COLOR_BLACK, COLOR_CYAN, 0 },
	{ UI_C_FOOTER, -1, -1, 0 },
	{ UI_C_SELECTED, COLOR_BLACK, COLOR_CYAN, 0 },
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
}

void ui_colors_init(struct ui_style *st)
{
	mono();
	if (st->color && has_colors() && start_color() != ERR) {
		bool dflt = use_default_colors() != ERR;

		for (unsigned i = 0; i < sizeof(pairs) / sizeof(pairs[0]);
		     i++) {
			short fg = pairs[i].fg, bg = pairs[i].bg;
			short n = (short)(i + 1);

			if (!dflt) {
				fg = fg < 0 ? COLOR_WHITE : fg;
				bg = bg < 0 ? COLOR_BLACK : bg;
			}
			if (n >= COLOR_PAIRS)
				break;
			init_pair(n, fg, bg);
			attrs[pairs[i].c] = COLOR_PAIR(n) | pairs[i].extra;
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
