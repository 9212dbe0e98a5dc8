/* view-cpu.c: the CPU panel of the workstation: one bar per core split into
 * user / system / irq / softirq, the busiest core marked, many cores folded
 * into numbered cells or one shaded cell each; and the full "CPU" view */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "nls.h"
#include "sanitize.h"
#include "ui-internal.h"
#include "ui-text.h"

extern const struct ui_view_ops ui_view_cpu;

static const enum ui_color part_color[4] = { UI_C_BAR_USER, UI_C_BAR_SYSTEM,
					     UI_C_BAR_IRQ, UI_C_BAR_SOFTIRQ };

static void parts_of(const struct ps_cpu_core *c, double p[4])
{
	if (!c->pct_valid) {
		p[0] = p[1] = p[2] = p[3] = 0;
		return;
	}
	p[0] = c->pct[PS_CPU_USER] + c->pct[PS_CPU_NICE];
	p[1] = c->pct[PS_CPU_SYSTEM];
	p[2] = c->pct[PS_CPU_IRQ];
	p[3] = c->pct[PS_CPU_SOFTIRQ];
}

static double busy_of(const struct ps_cpu_core *c)
{
	return c->pct_valid ? c->busy_pct : 0;
}

static int dominant(const double p[4])
{
	int best = 0;

	for (int i = 1; i < 4; i++)
		if (p[i] > p[best])
			best = i;
	return best;
}

/*
 * Each core's busy % over the last samples, for the sparklines a wide bar
 * has room for: one column a snapshot (a second), the newest on the right.
 * The frame's snapshot is added once (its time says whether it is new).
 */
#define CORE_SPARK 16
#define CORE_SPARK_CPUS 256
struct core_hist {
	int64_t mono_ns;
	uint32_t n;
	float busy[CORE_SPARK_CPUS][CORE_SPARK];
};

/* the view's state (the dashboard's panel shares it) */
static struct core_hist *hstate(const struct ui *ui)
{
	return ui_view_state(ui, &ui_view_cpu);
}

static void core_hist_add(struct core_hist *h, const struct ps_snapshot *s)
{
	const struct ps_cpu_info *cpu = &s->cpu;

	if (s->hdr.mono_ns == h->mono_ns || cpu->ncores <= 0 ||
	    !cpu->cores[0].pct_valid)
		return;
	h->mono_ns = s->hdr.mono_ns;
	for (int i = 0; i < cpu->ncores && i < CORE_SPARK_CPUS; i++)
		h->busy[i][h->n % CORE_SPARK] = (float)busy_of(&cpu->cores[i]);
	h->n++;
}

/* core idx's recent busy % as block heights, w columns at most */
static void core_sparkline(struct ui *ui, int y, int x, int w, int idx)
{
	const struct core_hist *h = hstate(ui);
	int n = (int)(h->n < CORE_SPARK ? h->n : CORE_SPARK);

	if (w > n)
		w = n;
	if (idx < 0 || idx >= CORE_SPARK_CPUS)
		return;
	for (int c = 0; c < w; c++) {
		uint32_t k = h->n - (uint32_t)w + (uint32_t)c;
		float b = h->busy[idx][k % CORE_SPARK];
		int lvl = (int)(b / 100 * 8 + 0.5);

		if (lvl < 1 && b >= 1)
			lvl = 1;
		if (lvl > 8)
			lvl = 8;
		ui_put(y, x + c, 1, ui_attr(UI_C_GRAPH),
		       ui->style.g->blocks[lvl]);
	}
}

/* a bar this wide (its cell) gives CORE_SPARK columns to a sparkline */
#define SPARK_BAR_W 64

static void bar(struct ui *ui, int y, int x, int w, const struct ps_cpu_core *c,
		bool busiest, int label_w, int idx)
{
	const struct ui_glyphs *g = ui->style.g;
	double p[4];
	int seg[4], bw, used = 0;
	char lab[24], pct[16];

	if (w >= SPARK_BAR_W && hstate(ui)->n >= 2) {
		w -= CORE_SPARK + 1;
		core_sparkline(ui, y, x + w + 1, CORE_SPARK, idx);
	}
	parts_of(c, p);
	snprintf(lab, sizeof(lab), "%*d", label_w, c->id);
	ui_put(y, x, w, busiest ? ui_attr(UI_C_WARN) : ui_attr(UI_C_LABEL),
	       lab);
	/* "[" bar "] 100%" and the mark */
	bw = w - label_w - 1 - 2 - 5 - 2;
	if (bw < 3)
		bw = 3;
	ui_put(y, x + label_w + 1, 1, ui_attr(UI_C_DIM), "[");
	ui_bar_split(p, 4, bw, seg);
	for (int i = 0; i < 4; i++) {
		ui_repeat(y, x + label_w + 2 + used, seg[i],
			  ui_attr(part_color[i]), g->bar[i]);
		used += seg[i];
	}
	ui_repeat(y, x + label_w + 2 + used, bw - used, ui_attr(UI_C_DIM),
		  g->bar_empty);
	ui_put(y, x + label_w + 2 + bw, 1, ui_attr(UI_C_DIM), "]");
	snprintf(pct, sizeof(pct), "%3.0f%%", busy_of(c));
	ui_put(y, x + label_w + 3 + bw, 5,
	       busiest ? ui_attr(UI_C_WARN) : ui_attr(UI_C_VALUE), pct);
	if (busiest)
		ui_put(y, x + label_w + 3 + bw + 4, 2, ui_attr(UI_C_WARN),
		       g->mark);
}

static int id_digits(const struct ps_cpu_info *cpu)
{
	int max = 0, d = 1;

	for (int i = 0; i < cpu->ncores; i++)
		if (cpu->cores[i].id > max)
			max = cpu->cores[i].id;
	while (max >= 10) {
		max /= 10;
		d++;
	}
	return d;
}

/* the legend; returns its width */
static int legend(struct ui *ui, int y, int x, int w)
{
	static const char *const names[4] = { N_("user"), N_("sys"), N_("irq"),
					      N_("softirq") };
	int cx = x;

	for (int i = 0; i < 4 && cx < x + w; i++) {
		ui_put(y, cx, x + w - cx, ui_attr(part_color[i]),
		       ui->style.g->bar[i]);
		ui_put(y, cx + 1, x + w - cx - 1, ui_attr(UI_C_DIM),
		       _(names[i]));
		cx += 2 + ui_text_width(_(names[i])) + 1;
	}
	return cx - x;
}

/* append " N" for each distinct CPU the streams' threads (or, rx, their
 * softirqs) ran on */
static size_t cpu_list(const struct ui_test_view *v, bool rx, char *line,
		       size_t n, size_t len)
{
	int seen[UI_MAX_ROWS], nseen = 0;

	for (int i = 0; i < v->nstreams && n < len; i++) {
		int c = rx ? v->streams[i].rx_cpu : v->streams[i].cpu, dup = 0;

		for (int k = 0; k < nseen; k++)
			dup |= seen[k] == c;
		if (c < 0 || dup)
			continue;
		seen[nseen++] = c;
		n += (size_t)snprintf(line + n, len - n, " %d", c);
	}
	return n;
}

static void threads_line(struct ui *ui, int y, const struct ui_rect *r)
{
	const struct ui_test_view *v = &ui->tv;
	char line[512];
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "%s",
			     _("test threads on cpu:"));
	n = cpu_list(v, false, line, n, sizeof(line));
	if (n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, "   %s",
				      _("receive softirq on cpu:"));
	cpu_list(v, true, line, n, sizeof(line));
	ui_put(y, r->x, r->w, ui_attr(UI_C_DIM), line);
}

/* the platform under the cores, one line: SMT, the deepest idle state
 * enabled, cpu0's clock of its maximum and governor, the IOMMU's mode */
static void platform_line(struct ui *ui, int y, const struct ui_rect *r)
{
	const struct ps_snapshot *s = ui->snap;
	const struct ps_platform_info *p = &s->platform;
	const struct ps_cpu_core *c0 = s->cpu.ncores ? &s->cpu.cores[0] : NULL;
	const char *mode = ps_platform_iommu_mode(p);
	char line[320];
	size_t n;
	long deepest;

	if (p->smt_status != PS_ST_OK && p->idle_status != PS_ST_OK && !*mode &&
	    !(c0 && c0->cur_khz > 0))
		return; /* nothing known */
	n = (size_t)snprintf(line, sizeof(line), "%s", _("platform:"));
	if (p->smt_status == PS_ST_OK)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s",
				      p->smt_active ? _("SMT on")
						    : _("SMT off"));
	if (n < sizeof(line) && p->idle_status == PS_ST_OK) {
		int k = ps_platform_deep_states(p, 10, &deepest);

		if (k)
			n += (size_t)snprintf(line + n, sizeof(line) - n,
					      _("  idle states to %ld us"),
					      deepest);
		else
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s",
					      _("  no deep idle state"));
	}
	if (n < sizeof(line) && c0 && c0->cur_khz > 0)
		n += (size_t)snprintf(line + n, sizeof(line) - n,
				      c0->max_khz > 0
					      ? _("  cpu0 %ld of %ld MHz")
					      : _("  cpu0 %ld MHz"),
				      c0->cur_khz / 1000, c0->max_khz / 1000);
	if (n < sizeof(line) && c0 && c0->governor[0])
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s",
				      ps_safe(c0->governor));
	if (n < sizeof(line) && *mode)
		snprintf(line + n, sizeof(line) - n, _("  IOMMU %s%s%s%s"),
			 !strcmp(mode, "translated")	? _("translated")
			 : !strcmp(mode, "passthrough") ? _("passthrough")
							: _("off"),
			 p->nic_domain[0] ? " (" : "", p->nic_domain,
			 p->nic_domain[0] ? ")" : "");
	ui_put(y, r->x, r->w, ui_attr(UI_C_DIM), line);
}

/* one host's cores in h lines of w columns from (y, x); the grid used goes
 * to *g; false when not every core fits */
static bool cores(struct ui *ui, const struct ps_cpu_info *cpu, int y, int x,
		  int w, int h, struct ui_cpu_grid *g)
{
	int d = id_digits(cpu);
	bool fits = ui_cpu_grid_plan(cpu->ncores, h, w, g);

	for (int i = 0; i < cpu->ncores; i++) {
		const struct ps_cpu_core *c = &cpu->cores[i];
		int row, col, cx;
		double p[4];
		bool busiest = i == cpu->busiest && c->pct_valid;

		if (g->mode == UI_CPU_DOTS) {
			row = i / (g->ncols > 0 ? g->ncols : 1);
			col = i % (g->ncols > 0 ? g->ncols : 1);
		} else {
			/* bars and cells run down the columns */
			row = g->mode == UI_CPU_BARS ? i % g->nrows
						     : i / g->ncols;
			col = g->mode == UI_CPU_BARS ? i / g->nrows
						     : i % g->ncols;
		}
		if (row >= h)
			break;
		parts_of(c, p);
		switch (g->mode) {
		case UI_CPU_BARS:
			cx = x + col * (g->cell_w + 1);
			bar(ui, y + row, cx, g->cell_w, c, busiest, d + 3,
			    ui->snap && cpu == &ui->snap->cpu ? i : -1);
			break;
		case UI_CPU_CELLS: {
			char cell[24];
			attr_t a = busy_of(c) >= 5
					   ? ui_attr(part_color[dominant(p)])
					   : ui_attr(UI_C_DIM);

			if (busiest)
				a |= A_REVERSE;
			snprintf(cell, sizeof(cell), "%*d:%-3.0f", d, c->id,
				 busy_of(c));
			ui_put(y + row, x + col * g->cell_w, g->cell_w - 1, a,
			       cell);
			break;
		}
		case UI_CPU_DOTS: {
			int lvl = (int)(busy_of(c) / 20.01);
			attr_t a = ui_attr(part_color[dominant(p)]);

			if (lvl > 4)
				lvl = 4;
			if (lvl == 0)
				a = ui_attr(UI_C_DIM);
			if (busiest)
				a |= A_REVERSE;
			if (col == 0 && g->label_w)
				ui_printf(y + row, x, g->label_w,
					  ui_attr(UI_C_LABEL), "%*d", d, c->id);
			ui_put(y + row, x + g->label_w + col, 1, a,
			       ui->style.g->heat[lvl]);
			break;
		}
		}
	}
	if (!fits)
		ui_printf(y + h - 1, x, w, ui_attr(UI_C_WARN),
			  _("%d cores, view %s shows all"), cpu->ncores,
			  ui_view_ref(&ui_view_cpu));
	return fits;
}

/* the far end is this machine: the self-test, or a server in another
 * network namespace (the same boot id): its cores are the ones shown */
static bool peer_here(const struct ui *ui)
{
	return ui->selftest || ps_snapshot_same_host(ui->snap, ui->peer);
}

/* the far end's cores when a pipescope server on another machine sent
 * them, else NULL */
const struct ps_cpu_info *ui_peer_cpu(const struct ui *ui)
{
	const struct ps_snapshot *p = ui->peer;

	if (!p || p->cpu.status != PS_ST_OK || p->cpu.ncores <= 0 ||
	    peer_here(ui))
		return NULL;
	return &p->cpu;
}

/* the heading of one end's half: "this host: vm, busiest cpu1 ..." */
static void end_heading(struct ui *ui, int y, int x, int w, const char *who,
			const struct ps_snapshot *s)
{
	char busy[160] = "";

	if (s && s->cpu.busiest >= 0 && s->cpu.ncores > 0 &&
	    s->cpu.cores[0].pct_valid)
		ps_cpu_busiest_text(&s->cpu, busy, sizeof(busy));
	ui_printf(y, x, w, ui_attr(UI_C_LABEL), "%s%s%s%s%s", who,
		  s && s->hdr.hostname[0] ? " " : "",
		  s && s->hdr.hostname[0] ? s->hdr.hostname : "",
		  busy[0] ? ": " : "", busy);
}

/* the full view's last line: what is known of the far end's cores */
static void far_line(struct ui *ui, int y, const struct ui_rect *in)
{
	const struct ps_snapshot *p = ui->peer;

	if (peer_here(ui))
		ui_put(y, in->x, in->w, ui_attr(UI_C_DIM),
		       _("far end: this machine (the self-test, or a server in "
			 "another network namespace): the cores above"));
	else if (p && ui_peer_cpu(ui))
		ui_printf(y, in->x, in->w, ui_attr(UI_C_DIM),
			  _("far end: %d cores, %s, interface %s (sent by "
			    "the pipescope server each second)"),
			  p->cpu.ncores,
			  p->hdr.hostname[0] ? p->hdr.hostname : "?",
			  p->hdr.iface.name[0] ? p->hdr.iface.name : "?");
	else if (!strcmp(ui->tv.peer_kind, "pipescope"))
		ui_put(y, in->x, in->w, ui_attr(UI_C_DIM),
		       _("far end (pipescope): no readings yet, or the server "
			 "runs with --no-share-probes"));
	else if (ui->tv.peer_kind[0])
		ui_put(y, in->x, in->w, ui_attr(UI_C_DIM),
		       _("far end (iperf3): only its total CPU, at the end"));
}

void ui_panel_cpu(struct ui *ui, const struct ui_rect *r, bool full)
{
	const struct ps_snapshot *s = ui->snap;
	const struct ps_cpu_info *cpu, *far = ui_peer_cpu(ui);
	struct ui_cpu_grid g;
	struct ui_rect in;
	char right[160] = "";
	int h, extra = 0, top = 0, rows;

	ui_clear(r);
	if (s && s->cpu.status == PS_ST_OK && s->cpu.ncores > 0 &&
	    !s->cpu.cores[0].pct_valid)
		snprintf(right, sizeof(right), "%s",
			 _("load after the second sample"));
	else if (!far && s && s->cpu.status == PS_ST_OK && s->cpu.busiest >= 0)
		ps_cpu_busiest_text(&s->cpu, right, sizeof(right));
	in = ui_title(ui, r, far ? _("CPU: this host | far end") : _("CPU"),
		      right);
	if (in.h <= 0)
		return;
	if (!s) {
		ui_not_sampled(&in, 0);
		return;
	}
	cpu = &s->cpu;
	if (cpu->status != PS_ST_OK) {
		ui_printf(in.y, in.x, in.w, ui_attr(UI_C_WARN), "%s: %s",
			  ps_status_text(cpu->status), cpu->reason);
		return;
	}
	core_hist_add(hstate(ui), s);
	/* a legend line and, in the full view, where the test runs */
	if (full)
		extra = 3;
	else if (in.h > cpu->ncores + (far ? 1 : 0))
		extra = 1;
	/* with the far end's cores: a heading line, then the two hosts side
	 * by side, each in half the width */
	if (far && in.h - extra >= 2)
		top = 1;
	h = in.h - extra - top;
	if (top) {
		int lw = (in.w - 1) / 2, rx = in.x + lw + 1;
		struct ui_cpu_grid g2;

		end_heading(ui, in.y, in.x, lw, _("this host"), s);
		end_heading(ui, in.y, rx, in.w - lw - 1, _("far end"),
			    ui->peer);
		cores(ui, cpu, in.y + 1, in.x, lw, h, &g);
		cores(ui, far, in.y + 1, rx, in.w - lw - 1, h, &g2);
		if (g2.nrows > g.nrows)
			g.nrows = g2.nrows;
		for (int y = in.y; y < in.y + 1 + (g.nrows < h ? g.nrows : h);
		     y++)
			ui_put(y, in.x + lw, 1, ui_attr(UI_C_DIM), "|");
	} else {
		cores(ui, cpu, in.y, in.x, in.w, h, &g);
	}
	rows = top + (g.nrows < h ? g.nrows : h);
	if (extra >= 1) {
		int y = in.y + rows;

		if (full)
			y++;
		int lw = legend(ui, y, in.x, in.w);
		const char *note =
			g.mode == UI_CPU_DOTS	 ? _("shade: busy in 20% steps")
			: g.mode == UI_CPU_CELLS ? _("cells: cpu:busy%")
						 : NULL;
		int nx = in.x + (lw + 1 > in.w / 2 ? lw + 1 : in.w / 2);

		/* after the legend, where it fits whole */
		if (note && y < in.y + in.h &&
		    nx + ui_text_width(note) <= in.x + in.w)
			ui_put(y, nx, in.x + in.w - nx, ui_attr(UI_C_DIM),
			       note);
		if (full) {
			threads_line(ui, y + 1, &in);
			far_line(ui, y + 2, &in);
			/* below, where a line is left */
			if (y + 3 < in.y + in.h)
				platform_line(ui, y + 3, &in);
		}
	}
}

static void draw_cpu(struct ui *ui, const struct ui_rect *body)
{
	ui_panel_cpu(ui, body, true);
}

const struct ui_view_ops ui_view_cpu = {
	.name = "cpu",
	.title = N_("CPU"),
	.noun = N_("CPU"),
	.key = '3',
	.panel = UI_P_CPU,
	.draw = draw_cpu,
	.state_size = sizeof(struct core_hist),
};
