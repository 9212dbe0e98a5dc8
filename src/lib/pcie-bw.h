/* pcie-bw.h: the arithmetic of a PCIe link's bandwidth (line encoding, TLP
 * overhead, usable bit/s per direction), pure, for the PCIe probe that
 * records it and the checks whose PCIe ceiling it is */
#ifndef PS_PCIE_BW_H
#define PS_PCIE_BW_H

#include <stdbool.h>

#define PS_PCIE_TLP_OVERHEAD 24 /* STP/seq/header/LCRC bytes per TLP */
#define PS_PCIE_MPS_ASSUMED 128 /* the smallest max payload, when unknown */

/* every number of the computation, so a reader can check it */
struct ps_pcie_bw {
	double speed_gts; /* per lane */
	int lanes;
	char encoding[16];     /* "8b/10b", "128b/130b", "242B/256B FLIT" */
	double encoding_ratio; /* 0.8, 128/130, 242/256; 0 when unknown */
	double encoded_bps;    /* speed x 1e9 x lanes x encoding_ratio */
	int payload_bytes;     /* max payload per TLP */
	bool payload_assumed;  /* the max payload is unknown: 128 assumed */
	int tlp_overhead_bytes;
	double tlp_efficiency; /* payload / (payload + overhead) */
	double usable_bps;     /* encoded_bps x tlp_efficiency */
};

/* line encoding of a generation: 8b/10b below 8 GT/s, 128b/130b below 64,
 * FLIT from 64; 0 (and "") for an unknown speed */
double ps_pcie_encoding(double gts, const char **name);
/*
 * The usable bandwidth of gts x lanes at max payload mps bytes (0 =
 * unknown). 0, or -EINVAL when the speed or the width is unknown (then
 * encoded_bps and usable_bps are 0, the rest as far as known).
 */
int ps_pcie_bw(double gts, int lanes, int mps, struct ps_pcie_bw *out);

#endif
