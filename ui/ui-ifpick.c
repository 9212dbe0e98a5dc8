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

#include "nls.h"
#include "ui-internal.h"
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
	ui->picking = ui->nifnames > 0;
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

void ui_picker_draw(struct ui *ui)
{
	int w = 24, h = ui->nifnames + 2, y0, x0, first = 0;

	if (h > LINES - 4)
		h = LINES - 4;
	y0 = (LINES - h) / 2;
	x0 = (COLS - w) / 2;
	if (ui->pick >= h - 2)
		first = ui->pick - (h - 3);
	for (int i = 0; i < h; i++) {
		move(y0 + i, x0);
		attrset(ui_attr(UI_C_HEADER));
		hline(' ', w);
	}
	ui_put(y0, x0 + 1, w - 2, ui_attr(UI_C_HEADER), _("Interface"));
	for (int i = 0; i < h - 2 && first + i < ui->nifnames; i++) {
		int k = first + i;

		ui_printf(y0 + 1 + i, x0 + 1, w - 2,
			  k == ui->pick ? ui_attr(UI_C_SELECTED) | A_BOLD
					: ui_attr(UI_C_HEADER),
			  " %-*s", w - 4, ui->ifnames[k]);
	}
	ui_put(y0 + h - 1, x0 + 1, w - 2, ui_attr(UI_C_HEADER),
	       _("Enter picks, Esc"));
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
