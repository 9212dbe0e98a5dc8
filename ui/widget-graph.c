/* widget-graph.c: the throughput graph of the workstation: the sum over
 * time in braille dots (2x4 per cell), block heights on the Linux console,
 * '#' and '.' in ASCII */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "nls.h"
#include "ui-internal.h"
#include "ui-text.h"

static size_t utf8_put(char *p, unsigned cp)
{
	if (cp < 0x80) {
		p[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		p[0] = (char)(0xc0 | (cp >> 6));
		p[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	p[0] = (char)(0xe0 | (cp >> 12));
	p[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	p[2] = (char)(0x80 | (cp & 0x3f));
	return 3;
}

void ui_panel_graph(struct ui *ui, const struct ui_rect *r)
{
	const struct ui_test_view *v = &ui->tv;
	enum ui_graph_style gs = ui->style.graph;
	int per = gs == UI_GRAPH_BRAILLE ? 2 : 1;
	int levels = gs == UI_GRAPH_BRAILLE ? 4 : gs == UI_GRAPH_BLOCKS ? 8 : 2;
	struct ui_rect in;
	double samples[UI_HIST], max = 0, top;
	char axis[3][16], right[64];
	int axw = 0, pw, rows, n, slots, first;
	bool stretch;

	ui_clear(r);
	in = *r;
	if (in.h < 2)
		return;
	/* the test's samples (the last one's until the next has some);
	 * fewer than the columns are stretched over the width, more scroll;
	 * the axis is theirs, so it shrinks for a slower test */
	{
		uint64_t have = v->nhist - v->hist_start;

		n = (int)(have < UI_HIST ? have : UI_HIST);
	}
	axw = 6;
	pw = in.w - axw - 1;
	slots = pw * per;
	if (slots > UI_HIST)
		slots = UI_HIST;
	stretch = n > 0 && n < slots;
	if (n > slots)
		n = slots;
	for (int i = 0; i < (stretch ? slots : n); i++) {
		int k = stretch ? i * n / slots : i;
		uint64_t idx = v->nhist - (uint64_t)n + (uint64_t)k;

		samples[i] = v->hist[idx % UI_HIST];
		if (samples[i] > max)
			max = samples[i];
	}
	if (stretch)
		n = slots;
	top = ui_graph_axis_max(max > 0 ? max : 1e9);
	ui_fmt_bps_short(axis[0], sizeof(axis[0]), top);
	ui_fmt_bps_short(axis[1], sizeof(axis[1]), top / 2);
	snprintf(axis[2], sizeof(axis[2]), "0");
	if (stretch)
		snprintf(right, sizeof(right), "%s",
			 _("this test, stretched to the width"));
	else
		snprintf(right, sizeof(right), _("%s per column"),
			 per == 2 ? _("2 intervals") : _("1 interval"));
	in = ui_title(ui, r, _("Throughput, sum (bit/s)"), right);
	rows = in.h;
	if (rows < 1 || pw < 4)
		return;

	first = slots - n; /* empty slots on the left */
	for (int i = 0; i < rows; i++) {
		int rr = rows - 1 - i; /* 0 = bottom row */
		char line[4096];
		size_t used = 0;
		const char *lab = "";

		if (i == 0)
			lab = axis[0];
		else if (i == rows / 2 && rows > 2)
			lab = axis[1];
		else if (i == rows - 1)
			lab = axis[2];
		ui_printf(in.y + i, in.x, axw, ui_attr(UI_C_DIM), "%5s", lab);
		ui_put(in.y + i, in.x + axw - 1, 1, ui_attr(UI_C_DIM),
		       ui->style.g->vline);

		for (int c = 0; c < pw && used + 8 < sizeof(line); c++) {
			int f[2] = { 0, 0 };

			for (int k = 0; k < per; k++) {
				int s = c * per + k - first;

				if (s >= 0 && s < n)
					f[k] = ui_graph_fill(samples[s], top,
							     rows, rr, levels);
			}
			if (gs == UI_GRAPH_BRAILLE) {
				unsigned bits = ui_braille_bits(f[0], f[1]);

				if (bits)
					used += utf8_put(line + used,
							 0x2800 + bits);
				else
					line[used++] = ' ';
			} else if (gs == UI_GRAPH_BLOCKS) {
				const char *b = ui->style.g->blocks[f[0]];

				memcpy(line + used, b, strlen(b));
				used += strlen(b);
			} else {
				line[used++] = f[0] >= 2   ? '#'
					       : f[0] == 1 ? '.'
							   : ' ';
			}
		}
		line[used] = 0;
		ui_put(in.y + i, in.x + axw, pw, ui_attr(UI_C_GRAPH), line);
	}
}
