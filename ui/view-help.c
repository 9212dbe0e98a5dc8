/* view-help.c: the workstation's help screen (F1 or ?): every key (the
 * workstation's and each view's, from their tables) and what the panels
 * show */
#include "config.h"

#include <curses.h>

#include "nls.h"
#include "ui-internal.h"
#include "ui-text.h"

static const char *const help_panels[] = {
	N_("Header: target, peer, protocol, direction, streams, clock, sum."),
	N_("Graph: the sum over time; each dot column is one interval."),
	N_("Streams: rate, RTT, cwnd, retransmits, what held the flow back."),
	N_("CPU: user, sys, irq, softirq per core; the busiest is marked."),
	N_("IRQs: queue interrupts per CPU, receive softirqs, softnet drops."),
	N_("NIC: link, MTU, offloads, channels, rings, coalescing, PCIe, "
	   "NUMA."),
};

static void draw_help(struct ui *ui, const struct ui_rect *body)
{
	struct ui_help_line keys[48];
	struct ui_rect in;
	int y, n = ui_help_lines(keys, 48);

	ui_clear(body);
	in = ui_title(ui, body, _("Help: keys"), NULL);
	y = in.y;
	for (int i = 0; i < n && y < in.y + in.h; i++, y++) {
		ui_put(y, in.x + 1, 8, ui_attr(UI_C_TITLE), keys[i].key);
		ui_put(y, in.x + 10, in.w - 10, A_NORMAL, keys[i].text);
	}
	/* the blank line only when every panel's line still fits */
	if (y + 1 + (int)(sizeof(help_panels) / sizeof(help_panels[0])) <=
	    in.y + in.h)
		y++;
	for (unsigned i = 0; i < sizeof(help_panels) / sizeof(help_panels[0]) &&
			     y < in.y + in.h;
	     i++, y++)
		ui_put(y, in.x + 1, in.w - 1, ui_attr(UI_C_DIM),
		       _(help_panels[i]));
}

/* any key returns to the view before (q still quits) */
static bool help_key(struct ui *ui, int ch)
{
	if (ch == KEY_RESIZE || ch == 'q' || ch == 'Q')
		return false;
	ui->view = ui->before_help ? ui->before_help : &ui_view_dashboard;
	return true;
}

const struct ui_view_ops ui_view_help = {
	.name = "help",
	.title = N_("Help"),
	.key = '?',
	.draw = draw_help,
	.key_handler = help_key,
};
