/* place.h: where a test's data threads run. By default they stay on the
 * CPUs local to the NIC the test crosses (its NUMA node), as pScheduler
 * runs iperf3 under numactl -N: a remote node's cores reach the NIC's
 * memory and interrupts over the interconnect. -A chooses instead;
 * --no-numa turns it off; a one-node machine, or an interface without a
 * NIC (loopback, veth, a bridge), changes nothing. */
#ifndef PS_PLACE_H
#define PS_PLACE_H

#include <sched.h>
#include <stdbool.h>

struct ps_placement {
	bool applied; /* the threads were kept to cpus */
	int node;     /* the NIC's NUMA node, -1 unknown */
	char ifname[16];
	char cpus[128]; /* the list they were kept to, "" when not applied */
	char why[200];	/* what was decided and why, one sentence */
	cpu_set_t set;	/* the CPUs (applied) */
};

/* the placement for a test whose control connection is fd: off is
 * --no-numa, pinned is -A. Reads /sys live, or below the directory
 * PIPESCOPE_PLACE_SYSROOT names (the tests' recorded machines: a NIC with
 * a NUMA node cannot exist on a one-node test machine) */
void ps_place_plan(int fd, bool off, bool pinned, struct ps_placement *out);

#endif
