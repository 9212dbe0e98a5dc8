/* check-pcie.c: the PCIe check of "pipescope check": the link the NIC
 * trained (width x speed) against what the card and the port need, and the
 * narrowest link on the way to the CPU; the bandwidth arithmetic is
 * src/lib/pcie-bw.c, shared with the probe */
#include "config.h"

#include "check.h"
#include "nls.h"

/* the thresholds of the PCIe check ("pipescope check --rules") */
enum { R_HEADROOM, R_REACHED, R_HALF_BUILT };
static const struct ps_rule rules[] = {
	[R_HEADROOM] = {
		.name = "pcie_headroom",
		.value = 1.1,
		.unit = "ratio",
		.why = N_("a PCIe link usable for less than this many times "
			  "the port's line rate is a finding even when not "
			  "downgraded"),
	},
	[R_REACHED] = {
		.name = "pcie_reached",
		.value = 0.8,
		.unit = "share",
		.why = N_("a test reaching this share of the PCIe link's "
			  "usable rate makes the link a bottleneck"),
	},
	[R_HALF_BUILT] = {
		.name = "pcie_downgrade_bottleneck",
		.value = 0.5,
		.unit = "share",
		.why = N_("without a line rate, a link trained to less than "
			  "this share of what the card was built for is a "
			  "bottleneck"),
	},
};
PS_RULE_FAMILY(pcie, rules);

static enum ps_check_state eval_pcie(const struct ps_evidence *ev,
				     struct ps_finding *f)
{
	const struct ps_pci_info *p = ev->pci;
	const struct ps_step_result *best = ps_run_best(ev->res);
	double line = ps_ev_line_bps(ev), capable_usable;
	char usable[32], lr[32];
	int lw;
	double ls;

	if (!p) {
		PS_SET(f->evidence, "%s", _("the PCIe probe was not sampled"));
		return PS_CHECK_NA;
	}
	if (p->status != PS_ST_OK || p->link_status != PS_ST_OK) {
		PS_SET(f->evidence, "%s",
		       p->link_status != PS_ST_OK && p->link_reason[0]
			       ? p->link_reason
			       : p->reason);
		return PS_CHECK_NA;
	}
	lw = p->limit_width ? p->limit_width : p->sta_width;
	ls = p->limit_speed > 0 ? p->limit_speed : p->sta_speed;
	ps_fmt_bps(usable, sizeof(usable), p->usable_bps);
	/* what the card's own LnkCap would carry, with the same overhead */
	capable_usable = p->encoded_bps > 0 ? p->capable_bps * p->usable_bps /
						      p->encoded_bps
					    : 0;

	ps_fact(f, "pcie_width", p->sta_width, "lanes");
	ps_fact(f, "pcie_speed", p->sta_speed, "GT/s");
	ps_fact(f, "pcie_capable_width", p->cap_width, "lanes");
	ps_fact(f, "pcie_capable_speed", p->cap_speed, "GT/s");
	ps_fact(f, "pcie_usable", p->usable_bps, "bit/s");
	if (p->limited_upstream) {
		ps_fact(f, "pcie_limit_width", lw, "lanes");
		ps_fact(f, "pcie_limit_speed", ls, "GT/s");
	}
	if (line > 0)
		ps_fact(f, "line_rate", line, "bit/s");
	PS_SET(f->evidence,
	       _("%s: link x%d at %g GT/s, capable of x%d at %g GT/s; about %s "
		 "usable per direction"),
	       p->bdf, p->sta_width, p->sta_speed, p->cap_width, p->cap_speed,
	       usable);
	if (p->limited_upstream)
		PS_APPEND(f->evidence,
			  _("; the narrowest link is upstream at %s (x%d at %g "
			    "GT/s)"),
			  p->limit_bdf, lw, ls);
	if (p->usable_how[0])
		PS_APPEND(f->evidence, " (%s)", p->usable_how);
	if (line > 0) {
		ps_fmt_bps(lr, sizeof(lr), line);
		PS_APPEND(f->evidence, _("; the port's line rate is %s"), lr);
	}

	if (!p->downgraded && !p->limited_upstream &&
	    !(line > 0 && p->usable_bps < rules[R_HEADROOM].value * line)) {
		return PS_CHECK_CLEAR;
	}
	if (line > 0 && p->usable_bps < rules[R_HEADROOM].value * line)
		ps_crossed(f, &rules[R_HEADROOM]);
	f->scope = PS_SCOPE_SHARED;
	f->ceiling_bps = p->usable_bps;
	PS_SET(f->ceiling_what, _("PCIe x%d at %g GT/s, usable"), lw, ls);
	/*
	 * A bottleneck: below the port's line rate, or a test reached it;
	 * without a line rate, a link trained to less than half of what
	 * the card was built for.
	 */
	f->severity = PS_SEV_WARNING;
	if (line > 0 && p->usable_bps < line)
		f->severity = PS_SEV_BOTTLENECK;
	if (best && best->bps >= rules[R_REACHED].value * p->usable_bps) {
		f->severity = PS_SEV_BOTTLENECK;
		ps_crossed(f, &rules[R_REACHED]);
	}
	if (!(line > 0) && p->downgraded && capable_usable > 0 &&
	    p->usable_bps < rules[R_HALF_BUILT].value * capable_usable) {
		f->severity = PS_SEV_BOTTLENECK;
		ps_crossed(f, &rules[R_HALF_BUILT]);
	}
	if (p->downgraded)
		PS_SET(f->title,
		       _("PCIe link downgraded: x%d at %g GT/s instead of x%d "
			 "at %g GT/s, about %s usable"),
		       p->sta_width, p->sta_speed, p->cap_width, p->cap_speed,
		       usable);
	else
		PS_SET(f->title,
		       _("PCIe path too narrow: x%d at %g GT/s on the way to "
			 "the CPU, about %s usable"),
		       lw, ls, usable);
	PS_SET(f->remedy,
	       _("move the NIC to a CPU-attached slot with x%d lanes at %g "
		 "GT/s (check the BIOS lane/bifurcation setting, reseat the "
		 "card); verify with: lspci -vv -s %s | grep -E "
		 "'LnkCap|LnkSta'"),
	       p->cap_width, p->cap_speed, p->bdf);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_pcie = {
	.id = "pcie_link",
	.family = "host",
	.title = N_("PCIe link width and speed"),
	.weight = 90,
	.eval = eval_pcie,
};
