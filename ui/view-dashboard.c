/* view-dashboard.c: the workstation's first view: the graph, the streams,
 * the CPU bars, the IRQ heatmap, the NIC panel and the findings at once */
#include "config.h"

#include "nls.h"
#include "ui-internal.h"

static void draw_dashboard(struct ui *ui, const struct ui_rect *body)
{
	const struct ui_layout *l = &ui->lay;

	(void)body;
	ui_panel_graph(ui, &l->p[UI_P_GRAPH]);
	ui_panel_streams(ui, &l->p[UI_P_STREAMS], false);
	ui_panel_cpu(ui, &l->p[UI_P_CPU], false);
	ui_panel_irq(ui, &l->p[UI_P_IRQ], false);
	ui_panel_nic(ui, &l->p[UI_P_NIC], false);
	ui_panel_findings(ui, &l->p[UI_P_FINDINGS], false);
	/* the air between the two halves */
	for (int y = l->p[UI_P_GRAPH].y;
	     y < l->p[UI_P_STREAMS].y + l->p[UI_P_STREAMS].h; y++)
		ui_put(y, l->p[UI_P_GRAPH].w, 1, ui_attr(UI_C_DIM),
		       ui->style.g->vline);
}

const struct ui_view_ops ui_view_dashboard = {
	.name = "dashboard",
	.title = N_("Dashboard"),
	.noun = N_("dashboard"),
	.key = '1',
	.dashboard = true,
	.panel = UI_P_GRAPH,
	.draw = draw_dashboard,
	/* the streams panel scrolls and orders here too (the footer has no
	 * room for its keys) */
	.key_handler = ui_streams_key,
};
