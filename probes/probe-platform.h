/* probe-platform.h: what the host's platform does to every packet, as the
 * vendors' and the research networks' tuning guides check it: SMT, the
 * idle states (C-states) a core may sleep in and their exit latency, and
 * the IOMMU (the kernel command line's words and how the NIC's IOMMU group
 * maps DMA: translated, or passed through) */
#ifndef PS_PROBE_PLATFORM_H
#define PS_PROBE_PLATFORM_H

#include <stdbool.h>
#include <stdio.h>

#include "status.h"

struct json_object;

#define PS_PLATFORM_MAX_CSTATES 12

/* one idle state of cpu0 (/sys/devices/system/cpu/cpu0/cpuidle/stateN) */
struct ps_platform_cstate {
	char name[24];	 /* "POLL", "C1", "C1E", "C6" */
	long latency_us; /* its exit latency, -1 unknown */
	bool disabled;	 /* "disable" is 1 */
};

struct ps_platform_info {
	enum ps_status status; /* ok when one of the parts was read */
	char reason[160];

	/* SMT (/sys/devices/system/cpu/smt/{active,control}) */
	enum ps_status smt_status;
	char smt_reason[96];
	bool smt_active;
	char smt_control[16]; /* "on", "off", "forceoff", "notsupported" */

	/* the idle states of cpu0 */
	enum ps_status idle_status;
	char idle_reason[96];
	char idle_driver[32]; /* cpuidle/current_driver: "intel_idle" */
	int nstates;
	struct ps_platform_cstate states[PS_PLATFORM_MAX_CSTATES];

	/* the IOMMU */
	enum ps_status iommu_status;
	char iommu_reason[96];
	/* the kernel command line's IOMMU words, space-separated
	 * ("intel_iommu=on iommu=pt"), "" none */
	char iommu_args[160];
	int iommu_groups; /* entries of /sys/kernel/iommu_groups */
	/* the NIC's group's type (/sys/class/net/IF/device/iommu_group/
	 * type: "identity", "DMA", "DMA-FQ"), "" none or unknown */
	char nic_domain[16];
};

/* the IOMMU words of a kernel command line into out (space-separated,
 * truncated to len); untrusted text: only the known keys are kept and
 * each value only of [A-Za-z0-9_,.-] */
void ps_platform_iommu_args(const char *cmdline, char *out, size_t len);
/* how the IOMMU maps the NIC's DMA, from the readings: "translated",
 * "passthrough", "off" or "" (not known) */
const char *ps_platform_iommu_mode(const struct ps_platform_info *p);
/* the enabled idle states of cpu0 with an exit latency above us, and the
 * deepest one's latency into *deepest (-1 none) */
int ps_platform_deep_states(const struct ps_platform_info *p, long us,
			    long *deepest);

int ps_platform_sample(const char *ifname, struct ps_platform_info *out);
void ps_platform_free(struct ps_platform_info *info);
struct json_object *ps_platform_to_json(const struct ps_platform_info *info);
int ps_platform_from_json(struct json_object *obj,
			  struct ps_platform_info *out);
void ps_platform_print(FILE *out, const struct ps_platform_info *info);

#endif
