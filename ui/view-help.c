/* view-help.c: the workstation's help screen (F1 or ?): every key and
 * what the panels show */
#include "config.h"

#include <curses.h>

#include "nls.h"
#include "ui-internal.h"
#include "ui-text.h"

static const struct {
	const char *key;
	const char *what;
} help_keys[] = {
	{ "F1 ?", N_("this help; any key returns") },
	{ "q", N_("quit (also Ctrl-C); the terminal is restored") },
	{ "s", N_("start the test, or stop the running one") },
	{ "+ -", N_("one stream more / less (-P); restarts a running test") },
	{ "R", N_("reverse: the peer sends (-R)") },
	{ "d", N_("both directions at once (-d, --bidir)") },
	{ "u", N_("UDP / TCP (-u)") },
	{ "t", N_("duration: 10, 30, 60 s, no end, 5 s (-t)") },
	{ "i", N_("pick the interface the probes watch (--iface)") },
	{ "1-7 Tab",
	  N_("views: dashboard, streams, CPU, IRQ, NIC, checklist, history") },
	{ "g", N_("guided run of 'pipescope check' (view 6; --quick: the short "
		  "one)") },
	{ "s x w",
	  N_("guided run: s skips a test, x aborts it; Enter: details; "
	     "w: report") },
	{ "p", N_("pause the screen (the test goes on)") },
};

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
	struct ui_rect in;
	int y, n = (int)(sizeof(help_keys) / sizeof(help_keys[0]));

	ui_clear(body);
	in = ui_title(ui, body, _("Help: keys"), NULL);
	y = in.y;
	for (int i = 0; i < n && y < in.y + in.h; i++, y++) {
		ui_put(y, in.x + 1, 8, ui_attr(UI_C_TITLE), help_keys[i].key);
		ui_put(y, in.x + 10, in.w - 10, A_NORMAL, _(help_keys[i].what));
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
