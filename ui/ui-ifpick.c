/* ui-ifpick.c: the workstation's interface picker (key i): the host's
 * interfaces in a box, Up/Down and Enter; the choice is the probes' new
 * interface, as --iface would be */
#include "config.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "clock.h"
#include "nls.h"
#include "sysroot.h"
#include "ui-internal.h"
#include "ui-text.h"
#include "xmalloc.h"

void ui_picker_open(struct ui *ui)
{
	struct if_nameindex *ifs = if_nameindex(), *p;
	int n = 0;

	if (!ifs) {
		ui_say(ui, 2, _("cannot list the interfaces: %s"),
		       strerror(errno));
		return;
	}
	for (p = ifs; p->if_index; p++)
		n++;
	free(ui->ifnames);
	ui->ifnames = xcalloc((size_t)n + 1, sizeof(*ui->ifnames));
	ui->nifnames = 0;
	ui->pick = 0;
	for (p = ifs; p->if_index; p++) {
		snprintf(ui->ifnames[ui->nifnames], sizeof(ui->ifnames[0]),
			 "%s", p->if_name);
		if (!strcmp(p->if_name, ui->iface.name))
			ui->pick = ui->nifnames;
		ui->nifnames++;
	}
	if_freenameindex(ifs);
	free(ui->ifinfo);
	ui->ifinfo = xcalloc((size_t)n + 1, sizeof(*ui->ifinfo));
	for (int i = 0; i < ui->nifnames; i++)
		ui->ifinfo[i].bps = -1;
	/* the interface the route to the peer leaves by */
	{
		struct ps_iface_choice rt;
		const char *peer = ui->test.ntargets ? ui->test.targets[0].host
						     : "127.0.0.1";

		ps_iface_choose(NULL, peer, &rt);
		ui->ifroute = -1;
		for (int i = 0; i < ui->nifnames; i++)
			if (!strcmp(ui->ifnames[i], rt.name))
				ui->ifroute = i;
	}
	ui->picking = ui->nifnames > 0;
}

/* state, speed and the rate since the last look (/sys/class/net) */
static void info_update(struct ui *ui, int i)
{
	struct ui_ifinfo *f = &ui->ifinfo[i];
	const char *name = ui->ifnames[i];
	char p[128];
	long rx = 0, tx = 0, sp = -1;
	double now = ps_now(), b;

	snprintf(p, sizeof(p), "/sys/class/net/%s/operstate", name);
	if (ps_read_line(p, f->state, sizeof(f->state)))
		snprintf(f->state, sizeof(f->state), "?");
	snprintf(p, sizeof(p), "/sys/class/net/%s/speed", name);
	f->speed = ps_read_long(p, &sp) == 0 && sp > 0 ? sp : -1;
	snprintf(p, sizeof(p), "/sys/class/net/%s/statistics/rx_bytes", name);
	if (ps_read_long(p, &rx))
		return;
	snprintf(p, sizeof(p), "/sys/class/net/%s/statistics/tx_bytes", name);
	if (ps_read_long(p, &tx))
		return;
	b = (double)rx + (double)tx;
	if (f->t > 0 && now - f->t >= 0.5) {
		f->bps = b >= f->bytes ? (b - f->bytes) * 8 / (now - f->t) : -1;
	} else if (f->t > 0) {
		return; /* too soon for a rate: keep the last one */
	}
	f->bytes = b;
	f->t = now;
}

static void picker_choose(struct ui *ui)
{
	const char *name = ui->ifnames[ui->pick];

	/* even the same name: it is now the user's choice (--iface) */
	ui->picking = false;
	if (ui->sampler)
		ps_sampler_stop(ui->sampler);
	ui->sampler = NULL;
	if (ui->snap)
		ps_snapshot_put(ui->snap);
	ui->snap = NULL;
	ps_iface_choose(name, NULL, &ui->iface);
	if (ui_sampler_start(ui))
		ui_say(ui, 2, _("cannot watch %s: the sampler did not start"),
		       name);
	else
		ui_say(ui, 0, _("watching %s"), name);
}

/* the box's frame: its top with the title, its sides, its bottom */
static void picker_frame(struct ui *ui, int y0, int x0, int w, int h)
{
	const struct ui_glyphs *g = ui->style.g;
	attr_t a = ui_attr(UI_C_HEADER);

	for (int i = 0; i < h; i++) {
		move(y0 + i, x0);
		attrset(a);
		hline(' ', w);
		ui_put(y0 + i, x0, 1, a,
		       !i	    ? g->corner[0]
		       : i == h - 1 ? g->corner[2]
				    : g->vline);
		ui_put(y0 + i, x0 + w - 1, 1, a,
		       !i	    ? g->corner[1]
		       : i == h - 1 ? g->corner[3]
				    : g->vline);
	}
	ui_repeat(y0, x0 + 1, w - 2, a, g->hline);
	ui_repeat(y0 + h - 1, x0 + 1, w - 2, a, g->hline);
	ui_printf(y0, x0 + 2, w - 4, a | A_BOLD, " %s ", _("Interface"));
}

/* a box in the middle: its top and title, the column names, a line per
 * interface (those that fit, the chosen one among them), the keys and
 * its bottom */
void ui_picker_draw(struct ui *ui)
{
	int w = 64, h = ui->nifnames + 4, y0, x0, first = 0, rows;

	if (w > COLS - 2)
		w = COLS - 2;
	if (h > LINES - 4)
		h = LINES - 4;
	rows = h - 4;
	y0 = (LINES - h) / 2;
	x0 = (COLS - w) / 2;
	if (ui->pick >= rows)
		first = ui->pick - rows + 1;
	picker_frame(ui, y0, x0, w, h);
	ui_printf(y0 + 1, x0 + 1, w - 2, ui_attr(UI_C_HEADER) | A_BOLD,
		  " %-15s %-8s %10s %13s", _("name"), _("state"), _("speed"),
		  _("rate now"));
	for (int i = 0; i < rows && first + i < ui->nifnames; i++) {
		int k = first + i;
		const struct ui_ifinfo *f;
		char sp[32], rate[32];

		info_update(ui, k);
		f = &ui->ifinfo[k];
		if (f->speed > 0)
			ui_fmt_bps(sp, sizeof(sp), (double)f->speed * 1e6);
		else
			snprintf(sp, sizeof(sp), "-");
		if (f->bps >= 0)
			ui_fmt_bps(rate, sizeof(rate), f->bps);
		else
			snprintf(rate, sizeof(rate), "...");
		ui_printf(y0 + 2 + i, x0 + 1, w - 2,
			  k == ui->pick ? ui_attr(UI_C_SELECTED) | A_BOLD
					: ui_attr(UI_C_HEADER),
			  " %-15s %-8s %10s %13s %s", ui->ifnames[k], f->state,
			  sp, rate, k == ui->ifroute ? _("<- route") : "");
	}
	if (rows < ui->nifnames)
		ui_printf(y0 + h - 2, x0 + 1, w - 2, ui_attr(UI_C_HEADER),
			  _(" %d of %d: Up/Down choose, Enter watches it, Esc "
			    "closes"),
			  ui->pick + 1, ui->nifnames);
	else
		ui_put(y0 + h - 2, x0 + 1, w - 2, ui_attr(UI_C_HEADER),
		       _(" Up/Down choose, Enter watches it, Esc closes"));
	attrset(A_NORMAL);
}

void ui_picker_key(struct ui *ui, int ch)
{
	switch (ch) {
	case KEY_UP:
	case 'k':
		if (ui->pick > 0)
			ui->pick--;
		break;
	case KEY_DOWN:
	case 'j':
		if (ui->pick < ui->nifnames - 1)
			ui->pick++;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		picker_choose(ui);
		break;
	case 27:
	case 'q':
	case 'i':
		ui->picking = false;
		break;
	}
}
