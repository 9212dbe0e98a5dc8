/* probe-pci.h: the NIC's PCIe link, as "lspci -vv" shows it and beyond
 * (LnkCap vs LnkSta, downgrades, the narrowest link up to the root port,
 * payload sizes, NUMA node, usable bandwidth and how it was computed) */
#ifndef PS_PROBE_PCI_H
#define PS_PROBE_PCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pcie-bw.h"
#include "status.h"

struct json_object;

/* ---- pure helpers ---------------------------------------------------- */

/*
 * Link speed in GT/s from the kernel's sysfs string ("8.0 GT/s PCIe",
 * "2.5 GT/s", "Unknown") or lspci's ("8GT/s", "2.5GT/s", "unknown").
 * 0 on success; -EINVAL for "Unknown" or garbage (*gts = 0).
 */
int ps_pci_parse_speed(const char *s, double *gts);
/* LnkCap/LnkSta speed code (1 = 2.5 GT/s ... 6 = 64, 8 = 128); 0 unknown */
double ps_pci_speed_of_code(unsigned code);

struct ps_pci_lnk {
	double speed;	     /* GT/s, 0 unknown */
	int width;	     /* lanes, 0 unknown */
	char speed_mark[16]; /* "downgraded", "ok", "overdriven", "strange", ""
			      */
	char width_mark[16];
};
/*
 * One "LnkCap:" or "LnkSta:" line of lspci -vv, any pciutils era
 * ("Speed 2.5GT/s (downgraded), Width x1 (ok)", "Speed unknown, Width x8").
 */
int ps_pci_parse_lnk(const char *line, struct ps_pci_lnk *out);

/* line encoding: 0.8 (8b/10b), 128/130, 242/256 (FLIT); 0 when unknown
 * (the arithmetic itself is src/lib/pcie-bw.c) */
double ps_pci_encoding(double gts, const char **name);
/* GT/s x lanes x encoding, bit/s per direction */
double ps_pci_encoded_bps(double gts, int width);
/*
 * Usable bit/s after TLP overhead: MPS/(MPS+24); @mps 0 = unknown (then 128
 * is assumed). @how (may be NULL) gets the sentence that says how.
 */
double ps_pci_usable_bps(double gts, int width, int mps, char *how,
			 size_t howlen);
/* lspci's verdict for one field: "", "downgraded" or "overdriven" */
const char *ps_pci_compare(double sta, double cap, bool port);

/*
 * The PCI function behind a netdev: resolves /sys/class/net/IF/device and
 * walks up from a virtio (or other) child to the PCI device. @bdf gets
 * "0000:00:03.0", @devpath its sysfs path as on the live machine
 * ("/sys/devices/pci0000:00/0000:00:03.0"), @child the basename of the
 * child device ("virtio2") or "". 0, -ENOENT (no such interface),
 * -ENODEV (no device link: virtual), -ENXIO (not on a PCI bus).
 */
int ps_pci_find_function(const char *ifname, char *bdf, size_t bdflen,
			 char *devpath, size_t pathlen, char *child,
			 size_t childlen);

/* ---- the probe ------------------------------------------------------- */

/* one device on the way from the NIC up to the root port */
struct ps_pci_hop {
	char bdf[16];
	char type[16]; /* "endpoint", "root_port", "upstream", ... */
	double cap_speed, sta_speed;
	int cap_width, sta_width;
	double bps; /* encoded bit/s of the current link */
};

#define PS_PCI_MAX_HOPS 8

struct ps_pci_info {
	char ifname[32];

	/* the function */
	enum ps_status status;
	char reason[160];
	char bdf[16];
	char devpath[256];
	char child[32]; /* "virtio2" */
	char driver[32];
	unsigned vendor_id, device_id;
	char vendor[96], device[160];
	int numa_node; /* -1 unknown */
	char local_cpulist[128];

	/* the link */
	enum ps_status link_status;
	char link_reason[160];
	char link_source[16]; /* "config" (libpci) or "sysfs" */
	char dev_type[16];
	double cap_speed, sta_speed;
	int cap_width, sta_width;
	char speed_mark[16], width_mark[16]; /* as lspci would mark them */
	bool downgraded; /* speed or width below this device's LnkCap */

	/* the path to the root port */
	struct ps_pci_hop hops[PS_PCI_MAX_HOPS];
	int nhops;
	char limit_bdf[16]; /* where the narrowest link is */
	double limit_speed;
	int limit_width;
	bool limited_upstream; /* narrowest link is above the NIC's own */

	/* payload (DevCtl) */
	enum ps_status payload_status;
	char payload_reason[160];
	int mps, mps_cap, mrrs; /* bytes, 0 unknown */

	/* bandwidth per direction */
	double capable_bps;   /* NIC's LnkCap, encoded */
	double encoded_bps;   /* narrowest current link, encoded */
	double usable_bps;    /* minus TLP overhead */
	char usable_how[320]; /* translated: the words of usable_basis */
	/* the numbers of the narrowest link's usable_bps: ok, unsupported
	 * (speed or width unknown), absent (no PCIe link) */
	struct {
		enum ps_status status;
		char reason[96];
		struct ps_pcie_bw bw;
	} usable_basis;
};

int ps_pci_sample(const char *ifname, struct ps_pci_info *out);
void ps_pci_free(struct ps_pci_info *info);
struct json_object *ps_pci_to_json(const struct ps_pci_info *info);
int ps_pci_from_json(struct json_object *obj, struct ps_pci_info *out);
void ps_pci_print(FILE *out, const struct ps_pci_info *info);

#endif
