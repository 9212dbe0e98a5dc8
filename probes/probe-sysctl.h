/* probe-sysctl.h: the socket-buffer, TCP and softirq-budget settings of
 * "pipescope probe" (what "sysctl net.core net.ipv4.tcp_*" would show) */
#ifndef PS_PROBE_SYSCTL_H
#define PS_PROBE_SYSCTL_H

#include <stdio.h>

#include "status.h"

struct json_object;

enum ps_sysctl_id {
	PS_SYSCTL_RMEM_MAX,
	PS_SYSCTL_WMEM_MAX,
	PS_SYSCTL_RMEM_DEFAULT,
	PS_SYSCTL_WMEM_DEFAULT,
	PS_SYSCTL_TCP_RMEM,
	PS_SYSCTL_TCP_WMEM,
	PS_SYSCTL_TCP_CC,
	PS_SYSCTL_TCP_CC_AVAILABLE,
	PS_SYSCTL_DEFAULT_QDISC,
	PS_SYSCTL_NETDEV_MAX_BACKLOG,
	PS_SYSCTL_NETDEV_BUDGET,
	PS_SYSCTL_NETDEV_BUDGET_USECS,
	PS_SYSCTL_TCP_MTU_PROBING,
	PS_SYSCTL_BUSY_POLL,
	PS_SYSCTL_BUSY_READ,
	PS_SYSCTL_TCP_TIMESTAMPS,
	PS_SYSCTL_TCP_SACK,
	PS_SYSCTL_TCP_WINDOW_SCALING,
	PS_SYSCTL_TCP_ADV_WIN_SCALE,
	PS_SYSCTL_RPS_SOCK_FLOW_ENTRIES,
	PS_SYSCTL_TCP_NOTSENT_LOWAT,
	PS_SYSCTL_COUNT
};

enum ps_sysctl_kind {
	PS_SYSCTL_INT,	  /* one integer */
	PS_SYSCTL_TRIPLE, /* min default max */
	PS_SYSCTL_WORD,	  /* one word: "cubic" */
	PS_SYSCTL_WORDS,  /* a list of words: "reno cubic bbr" */
};

struct ps_sysctl_value {
	enum ps_status status;
	char reason[96];
	long long v[3]; /* INT: v[0]; TRIPLE: v[0..2] */
	char text[256]; /* WORD / WORDS (words separated by one space) */
};

struct ps_sysctl_info {
	enum ps_status status; /* ok when at least one value was read */
	char reason[160];
	struct ps_sysctl_value val[PS_SYSCTL_COUNT];
};

/* "net.core.rmem_max" */
const char *ps_sysctl_name(enum ps_sysctl_id id);
enum ps_sysctl_kind ps_sysctl_kind(enum ps_sysctl_id id);
/* the value of an INT setting (or the max of a TRIPLE), dflt when not read */
long long ps_sysctl_get(const struct ps_sysctl_info *info, enum ps_sysctl_id id,
			long long dflt);

/* parse the text of one /proc/sys file; 0 or -EINVAL (status/reason set) */
int ps_sysctl_parse_value(enum ps_sysctl_id id, const char *text,
			  struct ps_sysctl_value *out);

int ps_sysctl_sample(const char *ifname, struct ps_sysctl_info *out);
void ps_sysctl_free(struct ps_sysctl_info *info);

struct json_object *ps_sysctl_to_json(const struct ps_sysctl_info *info);
int ps_sysctl_from_json(struct json_object *obj, struct ps_sysctl_info *out);
void ps_sysctl_print(FILE *out, const struct ps_sysctl_info *info);

#endif
