/* view-drops.h: the "Drops" section of view 4 (view-drops.c) */
#ifndef PS_VIEW_DROPS_H
#define PS_VIEW_DROPS_H

#include <stdbool.h>

struct ui;
struct ps_snapshot;

/*
 * The path of a received packet, NIC ring -> softnet -> IP -> socket ->
 * application, with what each layer dropped per second over the latest
 * interval and since the running test began, on this end and (a pipescope
 * server's snapshots) the far end; rows from y to below ymax, columns x to
 * x + w. Returns the next free row.
 */
int ui_drops_section(struct ui *ui, int y, int x, int w, int ymax);

/*
 * The NIC ring's receive drops per second (missed, no buffer, fifo) in s:
 * NAN when not known (until the NIC counters' drop classes feed it).
 */
double ui_drops_nic_ring(const struct ps_snapshot *s);

#endif
