/* ui.h: the workstation, the screen "pipescope" and "pipescope -c HOST"
 * open on a terminal */
#ifndef PS_UI_H
#define PS_UI_H

#include <stdbool.h>

#include "options.h"

/*
 * Whether this run should open the workstation: a self-test or client run,
 * stdout and stdin terminals, and neither --no-tui nor -J/--json-stream.
 */
bool ps_ui_wanted(const struct ps_opts *o);

/*
 * Run the workstation until q (or SIGINT/SIGTERM/SIGHUP). Returns an exit
 * code; -1 when the terminal cannot show it (TERM=dumb, no cursor
 * addressing): one line has said so and the caller runs the text test.
 */
int ps_ui_run(const struct ps_opts *o);

#endif
