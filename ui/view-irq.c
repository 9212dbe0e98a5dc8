/* view-irq.c: the IRQ/RSS panel of the workstation: a heatmap of the NIC's
 * queue interrupts per CPU, receive softirqs per CPU, softnet drops and
 * time_squeeze; affinity and RPS in the full "IRQ" view */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "nls.h"
#include "probe-irq.h"
#include "ui-internal.h"
#include "ui-text.h"
#include "view-drops.h"

extern const struct ui_view_ops ui_view_irq;

static const enum ui_color heat_color[5] = { UI_C_DIM, UI_C_HEAT1, UI_C_HEAT2,
					     UI_C_HEAT3, UI_C_HEAT4 };

/* 0 for nothing, 1..4 by share of the maximum */
static int heat_level(double v, double max)
{
	double f;

	if (!(v > 0) || !(max > 0))
		return 0;
	f = v / max;
	return f > 0.75 ? 4 : f > 0.5 ? 3 : f > 0.25 ? 2 : 1;
}

static void cell(struct ui *ui, int y, int x, int w, double v, double max)
{
	int l = heat_level(v, max);

	ui_repeat(y, x, w, ui_attr(heat_color[l]), ui->style.g->heat[l]);
}

/* interrupts per second when there were any in the interval, else the
 * counts since boot (a quiet NIC, a recorded tree): still where they go */
static bool use_rates(const struct ps_irq_info *irq)
{
	if (!irq->rated)
		return false;
	for (int i = 0; i < irq->nlines; i++)
		if (irq->lines[i].total_rate > 0)
			return true;
	return false;
}

/* did anything move per CPU in the interval (softirqs, backlog)? */
static bool any_softnet_rate(const struct ps_irq_info *irq)
{
	for (int c = 0; c < irq->ncpu; c++)
		if (irq->cpus[c].net_rx_rate > 0 ||
		    irq->cpus[c].processed_rate > 0 ||
		    irq->cpus[c].nic_irq_rate > 0)
			return true;
	return false;
}

static double line_value(const struct ps_irq_info *irq,
			 const struct ps_irq_line *l, int cpu, bool rates)
{
	if (cpu < 0 || cpu >= irq->ncpu)
		return 0;
	if (rates)
		return l->rate ? l->rate[cpu] : 0;
	return l->count ? (double)l->count[cpu] : 0;
}

/* which CPUs get a column: all when they fit, else those with activity */
static int pick_cpus(const struct ps_irq_info *irq, int room, int *out,
		     int *hidden)
{
	int n = 0;

	*hidden = 0;
	for (int c = 0; c < irq->ncpu; c++)
		if (irq->cpus[c].online)
			n++;
	if (n <= room) {
		n = 0;
		for (int c = 0; c < irq->ncpu; c++)
			if (irq->cpus[c].online)
				out[n++] = c;
		return n;
	}
	n = 0;
	for (int c = 0; c < irq->ncpu; c++) {
		const struct ps_irq_cpu *pc = &irq->cpus[c];
		bool busy = pc->nic_irqs || pc->dropped || pc->time_squeeze ||
			    pc->net_rx_rate > 0;

		if (!pc->online)
			continue;
		if (busy && n < room)
			out[n++] = c;
		else
			(*hidden)++;
	}
	return n;
}

static void line_label(const struct ps_irq_line *l, char *buf, size_t len)
{
	if (l->kind[0] && l->queue >= 0)
		snprintf(buf, len, "%s-%d", l->kind, l->queue);
	else if (l->kind[0])
		snprintf(buf, len, "%s", l->kind);
	else
		snprintf(buf, len, "%d", l->irq);
}

void ui_panel_irq(struct ui *ui, const struct ui_rect *r, bool full)
{
	const struct ps_irq_info *irq = ui->snap ? ui_snap_irq(ui->snap) : NULL;
	struct ui_rect in;
	char right[160] = "", title[96];
	int cpus[1024], ncol, hidden, lw = 8, cw, y, x, maxrows;
	double max = 0, rxmax = 0;
	bool rates, softnet_rows;

	ui_clear(r);
	snprintf(title, sizeof(title), _("IRQs and queues%s%s"),
		 ui->iface.name[0] ? " " : "", ui->iface.name);
	rates = irq && use_rates(irq);
	if (irq && irq->busiest_cpu >= 0 && irq->nlines)
		snprintf(right, sizeof(right),
			 rates ? _("cpu%d takes %.0f%%")
			       : _("cpu%d took %.0f%% since boot"),
			 irq->busiest_cpu, irq->busiest_share * 100);
	else if (irq && irq->nlines && !rates)
		snprintf(right, sizeof(right), "%s", _("since boot"));
	in = ui_title(ui, r, title, right);
	if (in.h <= 0)
		return;
	if (!irq) {
		ui_not_sampled(&in, 0);
		return;
	}
	y = in.y;
	if (irq->ncpu <= 0) {
		ui_printf(y, in.x, in.w, ui_attr(UI_C_WARN), "%s: %s",
			  ps_status_text(irq->status), irq->reason);
		return;
	}
	cw = in.w - lw >= 2 * irq->ncpu ? 2 : 1;
	ncol = pick_cpus(irq, (in.w - lw) / cw, cpus, &hidden);
	if (ncol > (int)(sizeof(cpus) / sizeof(cpus[0])))
		ncol = (int)(sizeof(cpus) / sizeof(cpus[0]));
	for (int i = 0; i < irq->nlines; i++)
		for (int k = 0; k < ncol; k++) {
			double val =
				line_value(irq, &irq->lines[i], cpus[k], rates);

			if (val > max)
				max = val;
		}
	for (int k = 0; k < ncol; k++)
		if (irq->cpus[cpus[k]].net_rx_rate > rxmax)
			rxmax = irq->cpus[cpus[k]].net_rx_rate;

	/* the CPU ids */
	ui_put(y, in.x, lw, ui_attr(UI_C_LABEL), _("cpu"));
	for (int k = 0; k < ncol; k++)
		ui_printf(y, in.x + lw + k * cw, cw, ui_attr(UI_C_LABEL),
			  cw == 2 ? "%2d" : "%d",
			  cw == 2 ? cpus[k] % 100 : cpus[k] % 10);
	if (hidden)
		ui_printf(y, in.x + lw + ncol * cw + 1,
			  in.w - lw - ncol * cw - 1, ui_attr(UI_C_DIM),
			  _("+%d idle"), hidden);
	y++;

	/* one row per interrupt line; the bottom rows are kept for softnet */
	/* the bottom: net_rx, drops and squeeze per CPU, the totals; the
	 * per-CPU drop rows give way first when the panel is short */
	softnet_rows = irq->softnet_status == PS_ST_OK &&
		       in.y + in.h - y >= 4 + (irq->nlines ? 1 : 0);
	maxrows = in.y + in.h - y - (softnet_rows ? 4 : 2);
	if (irq->status != PS_ST_OK || irq->nlines == 0) {
		/* the reason says it best ("virtual interface: ...") */
		ui_put(y++, in.x, in.w, ui_attr(UI_C_DIM),
		       irq->reason[0]		 ? irq->reason
		       : irq->status != PS_ST_OK ? ps_status_text(irq->status)
						 : _("no interrupt lines"));
	} else {
		int shown = irq->nlines <= maxrows ? irq->nlines : maxrows - 1;
		int order[1024], n = 0;

		/* the queues first: they are what the heatmap is for */
		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < irq->nlines && n < 1024; i++)
				if ((irq->lines[i].queue >= 0) == (pass == 0))
					order[n++] = i;
		if (shown > n)
			shown = n;
		for (int j = 0; j < shown; j++) {
			const struct ps_irq_line *l = &irq->lines[order[j]];
			char lab[32];

			line_label(l, lab, sizeof(lab));
			ui_put(y, in.x, lw - 1, ui_attr(UI_C_LABEL), lab);
			for (int k = 0; k < ncol; k++)
				cell(ui, y, in.x + lw + k * cw, cw,
				     line_value(irq, l, cpus[k], rates), max);
			x = in.x + lw + ncol * cw + 1;
			if (full && x < in.x + in.w)
				ui_printf(y, x, in.x + in.w - x,
					  ui_attr(UI_C_DIM),
					  _("irq %d aff %s eff %s %s"), l->irq,
					  l->affinity[0] ? l->affinity : "-",
					  l->effective[0] ? l->effective : "-",
					  l->name);
			y++;
		}
		if (shown < irq->nlines)
			ui_printf(y++, in.x, in.w, ui_attr(UI_C_DIM),
				  _("... %d more lines (view %s)"),
				  irq->nlines - shown,
				  ui_view_ref(&ui_view_irq));
	}

	/* receive softirqs per CPU, then softnet drops and squeeze */
	if (y < in.y + in.h) {
		ui_put(y, in.x, lw - 1, ui_attr(UI_C_LABEL), _("net_rx"));
		if (irq->softirq_status == PS_ST_OK && irq->rated)
			for (int k = 0; k < ncol; k++)
				cell(ui, y, in.x + lw + k * cw, cw,
				     irq->cpus[cpus[k]].net_rx_rate, rxmax);
		else
			ui_put(y, in.x + lw, in.w - lw, ui_attr(UI_C_DIM),
			       irq->softirq_status == PS_ST_OK
				       ? _("rates after the second sample")
				       : ps_status_text(irq->softirq_status));
		y++;
	}
	if (softnet_rows && y + 2 < in.y + in.h + 1) {
		double dmax = 0, smax = 0;

		for (int k = 0; k < ncol; k++) {
			const struct ps_irq_cpu *pc = &irq->cpus[cpus[k]];
			double d =
				rates ? pc->dropped_rate : (double)pc->dropped;
			double q = rates ? pc->squeeze_rate
					 : (double)pc->time_squeeze;

			dmax = d > dmax ? d : dmax;
			smax = q > smax ? q : smax;
		}
		ui_put(y, in.x, lw - 1, ui_attr(UI_C_LABEL), _("drops"));
		ui_put(y + 1, in.x, lw - 1, ui_attr(UI_C_LABEL), _("squeeze"));
		for (int k = 0; k < ncol; k++) {
			const struct ps_irq_cpu *pc = &irq->cpus[cpus[k]];

			cell(ui, y, in.x + lw + k * cw, cw,
			     rates ? pc->dropped_rate : (double)pc->dropped,
			     dmax);
			cell(ui, y + 1, in.x + lw + k * cw, cw,
			     rates ? pc->squeeze_rate
				   : (double)pc->time_squeeze,
			     smax);
		}
		y += 2;
	}
	if (y < in.y + in.h) {
		char line[256];
		bool bad = irq->dropped_rate_total > 0 ||
			   irq->squeeze_rate_total > 0;

		if (irq->softnet_status != PS_ST_OK)
			snprintf(line, sizeof(line), _("softnet: %s"),
				 ps_status_text(irq->softnet_status));
		else if (irq->rated && !full)
			snprintf(line, sizeof(line),
				 _("softnet drops %.0f/s, squeeze %.0f/s"),
				 irq->dropped_rate_total,
				 irq->squeeze_rate_total);
		else if (irq->rated)
			snprintf(line, sizeof(line),
				 _("softnet drops %.0f/s squeeze %.0f/s (since "
				   "boot %llu, %llu)"),
				 irq->dropped_rate_total,
				 irq->squeeze_rate_total,
				 (unsigned long long)irq->dropped_total,
				 (unsigned long long)irq->squeeze_total);
		else
			snprintf(
				line, sizeof(line),
				_("softnet drops %llu squeeze %llu since boot"),
				(unsigned long long)irq->dropped_total,
				(unsigned long long)irq->squeeze_total);
		ui_put(y++, in.x, in.w,
		       bad ? ui_attr(UI_C_BAD) : ui_attr(UI_C_DIM), line);
	}
	if (!full)
		return;

	/* the full view: per-CPU softnet (per second, or since boot when
	 * nothing moved in the interval) and the RPS masks */
	if (y < in.y + in.h - 1) {
		bool per_s = irq->rated && any_softnet_rate(irq);

		y++;
		ui_put(y++, in.x, in.w, ui_attr(UI_C_TITLE),
		       per_s ? _("cpu  nic irq/s  net_rx/s  processed/s  "
				 "drops/s  squeeze/s")
			     : _("cpu   nic irqs    net_rx   processed    drops"
				 "  squeeze  (since boot)"));
		for (int c = 0; c < irq->ncpu && y < in.y + in.h - 2; c++) {
			const struct ps_irq_cpu *pc = &irq->cpus[c];
			bool bad = per_s ? pc->dropped_rate > 0 ||
						   pc->squeeze_rate > 0
					 : pc->dropped > 0;

			if (!pc->online && !pc->softnet)
				continue;
			if (per_s)
				ui_printf(y++, in.x, in.w,
					  bad ? ui_attr(UI_C_BAD) : A_NORMAL,
					  "%3d  %11.0f  %8.0f  %11.0f  %7.0f  "
					  "%9.0f",
					  c, pc->nic_irq_rate, pc->net_rx_rate,
					  pc->processed_rate, pc->dropped_rate,
					  pc->squeeze_rate);
			else
				ui_printf(y++, in.x, in.w,
					  bad ? ui_attr(UI_C_BAD) : A_NORMAL,
					  "%3d  %10llu  %8llu  %10llu  %7llu  "
					  "%7llu",
					  c, (unsigned long long)pc->nic_irqs,
					  (unsigned long long)pc->net_rx,
					  (unsigned long long)pc->processed,
					  (unsigned long long)pc->dropped,
					  (unsigned long long)pc->time_squeeze);
		}
	}
	if (y < in.y + in.h) {
		int on = 0;

		for (int i = 0; i < irq->nrxq; i++)
			on += irq->rxq[i].rps_on;
		if (irq->queues_status != PS_ST_OK)
			ui_printf(y++, in.x, in.w, ui_attr(UI_C_DIM),
				  _("RPS: %s"),
				  ps_status_text(irq->queues_status));
		else
			ui_printf(y++, in.x, in.w, A_NORMAL,
				  _("RPS on %d of %d receive queues; "
				    "irqbalance %s"),
				  on, irq->nrxq,
				  irq->irqbalance_running ? _("running")
							  : _("not running"));
	}
	/* where the packets were dropped, layer by layer (view-drops.c) */
	if (y + 1 < in.y + in.h)
		ui_drops_section(ui, y + 1, in.x, in.w, in.y + in.h);
}

static void draw_irq(struct ui *ui, const struct ui_rect *body)
{
	ui_panel_irq(ui, body, true);
}

const struct ui_view_ops ui_view_irq = {
	.name = "irq",
	.title = N_("IRQ"),
	.noun = N_("IRQ"),
	.key = '4',
	.panel = UI_P_IRQ,
	.draw = draw_irq,
};
