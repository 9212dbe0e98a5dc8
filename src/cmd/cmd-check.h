/* cmd-check.h: "pipescope check": the guided checklist without the screen */
#ifndef PS_CMD_CHECK_H
#define PS_CMD_CHECK_H

#include <stddef.h>

#include "options.h"

struct ps_host;
struct ps_iface_choice;

/*
 * Runs the command: the guided run against -c HOST (or the in-process
 * loopback server), or the static checks of --snapshot FILE / --sysroot
 * DIR; prints the report in --format. Returns PS_EXIT_FOUND when a
 * bottleneck was found, PS_EXIT_OK when not, PS_EXIT_FAIL on failure.
 */
int ps_cmd_check(const struct ps_opts *opts);

/* the interface the guided run reads: --iface, lo for the self-test and
 * loopback peers, else the route to the peer (also the workstation's g) */
void ps_check_iface_choose(const struct ps_opts *opts,
			   struct ps_iface_choice *iface);
/* the inventory step's one line: "interface lo (option), MTU 65536, 2
 * cores" */
void ps_check_inventory_line(const struct ps_host *host,
			     const struct ps_iface_choice *iface, char *line,
			     size_t len);

#endif
