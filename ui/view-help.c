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
	N_("Graph: the sum; a dot column per interval, several while the test "
	   "is short."),
	N_("Streams: rate, RTT, cwnd, retransmits, what held the flow back."),
	N_("CPU: user, sys, irq, softirq per core; the busiest is marked."),
	N_("IRQs: queue interrupts per CPU, receive softirqs, softnet drops."),
	N_("NIC: link, MTU, offloads, channels, rings, coalescing, PCIe, "
	   "NUMA."),
};

#define NPANELS ((int)(sizeof(help_panels) / sizeof(help_panels[0])))

/* the lines from ui->help_top (kept in range) that fit, "^ more" and
 * "v more" where more lines are above and below */
static void draw_help(struct ui *ui, const struct ui_rect *body)
{
	struct ui_help_line keys[48];
	struct ui_rect in;
	int n = ui_help_lines(keys, 48), total, top;
	const char *scroll = _("Up/Down, PgUp/PgDn, j/k scroll");

	ui_clear(body);
	/* the keys, a blank line, what the panels show */
	total = n + 1 + NPANELS;
	in = ui_title(ui, body, _("Help: keys"),
		      total > body->h - 1 ? scroll : NULL);
	if (in.h <= 0)
		return;
	ui->help_page = in.h > 1 ? in.h - 1 : 1;
	top = ui->help_top;
	if (top > total - in.h)
		top = total - in.h;
	if (top < 0)
		top = 0;
	ui->help_top = top;
	for (int k = 0; k < in.h && top + k < total; k++) {
		int i = top + k, y = in.y + k;

		if (i < n) {
			ui_put(y, in.x + 1, 8, ui_attr(UI_C_TITLE),
			       keys[i].key);
			ui_put(y, in.x + 10, in.w - 10, A_NORMAL, keys[i].text);
		} else if (i > n) {
			ui_put(y, in.x + 1, in.w - 1, ui_attr(UI_C_DIM),
			       _(help_panels[i - n - 1]));
		}
	}
	if (top > 0)
		ui_printf(in.y, in.x + in.w - 8, 8, ui_attr(UI_C_DIM), "%8s",
			  _("^ more"));
	if (top + in.h < total)
		ui_printf(in.y + in.h - 1, in.x + in.w - 8, 8,
			  ui_attr(UI_C_DIM), "%8s", _("v more"));
}

/* the arrows, j/k, PgUp/PgDn, Home/End scroll; any other key returns to
 * the view before (q still quits) */
static bool help_key(struct ui *ui, int ch)
{
	if (ch == KEY_RESIZE || ch == 'q' || ch == 'Q')
		return false;
	if (ch == 'j' || ch == 'k')
		ch = ch == 'j' ? KEY_DOWN : KEY_UP;
	if (!ui_scroll_key(ch, &ui->help_top, ui->help_page, 1000))
		ui->view =
			ui->before_help ? ui->before_help : &ui_view_dashboard;
	return true;
}

const struct ui_view_ops ui_view_help = {
	.name = "help",
	.title = N_("Help"),
	.key = '?',
	.draw = draw_help,
	.key_handler = help_key,
};
