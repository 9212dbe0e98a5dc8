/* ethtool-internal.h: what the files of the ethtool probe share and
 * nobody else reads: probe-ethtool.c (the snapshot member, sampling, the
 * ops), ethtool-parse.c (one parser per netlink reply), ethtool-text.c
 * (the driver's own counters and the recorded "ethtool -S/-x" text) and
 * ethtool-table.c (the legacy "-k" flags, JSON, loader and text) */
#ifndef PS_ETHTOOL_INTERNAL_H
#define PS_ETHTOOL_INTERNAL_H

#include <stdint.h>

#include "probe-ethtool.h"
#include "status.h"

/* ---- probe-ethtool.c: the snapshot member ------------------------------ */

/* status and reason of each group, so loops can treat them alike */
struct ps_eth_grp_ref {
	enum ps_status *st;
	char *reason;
};

struct ps_eth_grp_ref ps_eth_group_ref(struct ps_ethtool_info *i,
				       enum ps_ethtool_group g);
void ps_eth_set_status(enum ps_status *st, char *reason, enum ps_status v,
		       const char *text);
void ps_eth_names_free(struct ps_eth_names *n);
void ps_eth_clear_linkmodes(struct ps_ethtool_info *i);
/* a group back to "nothing read" (its status aside) */
void ps_eth_clear_group(struct ps_ethtool_info *i, enum ps_ethtool_group g);

/* ---- ethtool-parse.c: the netlink messages ----------------------------- */

/* request, reply command and header attribute of each group */
struct ps_eth_request {
	uint8_t cmd, reply;
	uint16_t hdr;
	uint32_t flags;
	const char *msg; /* for "this kernel has no ..." */
};
extern const struct ps_eth_request ps_eth_requests[PS_ETHG_COUNT];

/* one counter more at the end of *v */
void ps_eth_add_counter(struct ps_eth_counter **v, unsigned *n,
			const char *group, const char *name, uint64_t value);
/* from an errno (and the kernel's extack text) to status and reason */
void ps_eth_group_error(enum ps_status *st, char *reason, int err,
			const char *ext, const char *what);
/* what a group is, translated, for the reasons */
const char *ps_eth_group_what(enum ps_ethtool_group g);

#endif
