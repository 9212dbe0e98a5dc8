/* pcie-bw.c: a PCIe link's usable bandwidth from its speed, width and max
 * payload (REFERENCE-probes 2.4: encoding, then TLP overhead) */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pcie-bw.h"

double ps_pcie_encoding(double gts, const char **name)
{
	const char *n = "";
	double enc = 0;

	if (gts <= 0) {
		enc = 0;
	} else if (gts < 8) {
		enc = 8.0 / 10.0;
		n = "8b/10b";
	} else if (gts < 64) {
		enc = 128.0 / 130.0;
		n = "128b/130b";
	} else {
		enc = 242.0 / 256.0;
		n = "242B/256B FLIT";
	}
	if (name)
		*name = n;
	return enc;
}

int ps_pcie_bw(double gts, int lanes, int mps, struct ps_pcie_bw *out)
{
	const char *name;
	int m = mps > 0 ? mps : PS_PCIE_MPS_ASSUMED;

	memset(out, 0, sizeof(*out));
	out->speed_gts = gts;
	out->lanes = lanes;
	out->encoding_ratio = ps_pcie_encoding(gts, &name);
	snprintf(out->encoding, sizeof(out->encoding), "%s", name);
	out->payload_bytes = m;
	out->payload_assumed = mps <= 0;
	out->tlp_overhead_bytes = PS_PCIE_TLP_OVERHEAD;
	out->tlp_efficiency = (double)m / (m + PS_PCIE_TLP_OVERHEAD);
	if (out->encoding_ratio <= 0 || lanes <= 0)
		return -EINVAL;
	out->encoded_bps = gts * 1e9 * lanes * out->encoding_ratio;
	out->usable_bps = out->encoded_bps * out->tlp_efficiency;
	return 0;
}
