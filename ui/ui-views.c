/* ui-views.c: the workstation's views in the order of Tab; a new view is
 * its own file (a const struct ui_view_ops with its keys) and one line
 * here */
#include "config.h"

#include "ui-internal.h"

extern const struct ui_view_ops ui_view_streams, ui_view_cpu, ui_view_irq,
	ui_view_nic, ui_view_history;

const struct ui_view_ops *const ui_views[] = {
	&ui_view_dashboard, &ui_view_streams,	&ui_view_cpu,	  &ui_view_irq,
	&ui_view_nic,	    &ui_view_checklist, &ui_view_history,
};
const int ui_nviews = (int)(sizeof(ui_views) / sizeof(ui_views[0]));
