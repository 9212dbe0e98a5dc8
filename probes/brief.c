/* brief.c: the one-screen blocks of "pipescope probe" for the NIC: link
 * (like "ip -s link"), ethtool, PCIe (like "lspci -vv") and interrupts;
 * "pipescope probe -V" prints each probe's full text instead */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "brief.h"
#include "nls.h"
#include "snapshot.h"
#include "units.h"

/* "  not recorded: netlink answers are not part of ..." */
static bool status_line(FILE *out, enum ps_status st, const char *reason)
{
	if (st == PS_ST_OK)
		return false;
	fprintf(out, "  %s%s%s\n", ps_status_text(st), *reason ? ": " : "",
		reason);
	return true;
}

void ps_brief_link(FILE *out, const struct ps_snapshot *s)
{
	const struct ps_link_info *l = &s->link;
	char rx[32], tx[32], chain[256];

	fprintf(out, "\n%s\n", _("Link"));
	if (l->lower.status == PS_ST_OK && l->lower.n) {
		ps_link_chain_text(l, chain, sizeof(chain), false);
		fprintf(out, "  %s: %s\n", _("device chain"), chain);
	}
	if (status_line(out, l->status, l->reason))
		return;
	fprintf(out,
		_("  %s %s, MTU %lld, qdisc %s, txqueuelen %lld, %lld RX / "
		  "%lld TX queues\n"),
		l->ifname, l->operstate, (long long)l->mtu,
		*l->qdisc ? l->qdisc : "-", (long long)l->txqlen,
		(long long)l->num_rx_queues, (long long)l->num_tx_queues);
	if (l->rates.valid) {
		ps_fmt_scaled(rx, sizeof(rx), l->rates.rx_bps,
			      &ps_scale_brief_bps, -1);
		ps_fmt_scaled(tx, sizeof(tx), l->rates.tx_bps,
			      &ps_scale_brief_bps, -1);
		fprintf(out,
			_("  RX %s %.0f pkt/s, TX %s %.0f pkt/s, drops %.0f/s, "
			  "errors %.0f/s\n"),
			rx, l->rates.rx_pps, tx, l->rates.tx_pps,
			l->rates.rx_drops_ps + l->rates.tx_drops_ps,
			l->rates.rx_errors_ps + l->rates.tx_errors_ps);
	} else if (l->counters.status == PS_ST_OK) {
		const struct ps_link_counters *c = &l->counters.c;

		fprintf(out,
			_("  since boot: RX %llu packets, TX %llu packets, "
			  "%llu dropped, %llu missed, %llu errors\n"),
			(unsigned long long)c->rx_packets,
			(unsigned long long)c->tx_packets,
			(unsigned long long)(c->rx_dropped + c->tx_dropped),
			(unsigned long long)c->rx_missed,
			(unsigned long long)(c->rx_errors + c->tx_errors));
	}
}

/* the short names of "ethtool -k"'s legacy flags, in enum ps_eth_flag_id
 * order (the JSON keys are ps_ethtool_flag_name's) */
static const char *const flag_short[PS_ETH_NFLAGS] = {
	[PS_ETH_TSO] = "tso",	    [PS_ETH_GSO] = "gso",
	[PS_ETH_GRO] = "gro",	    [PS_ETH_GRO_HW] = "gro-hw",
	[PS_ETH_LRO] = "lro",	    [PS_ETH_RX_CSUM] = "rx",
	[PS_ETH_TX_CSUM] = "tx",    [PS_ETH_SG] = "sg",
	[PS_ETH_RXHASH] = "rxhash", [PS_ETH_NTUPLE] = "ntuple",
};

static void cur_max(FILE *out, const char *name, int64_t cur, int64_t max,
		    bool *first)
{
	if (cur == PS_ETH_NA && max == PS_ETH_NA)
		return;
	fprintf(out, "%s%s ", *first ? "" : ", ", name);
	if (cur == PS_ETH_NA)
		fputs("-", out);
	else
		fprintf(out, "%lld", (long long)cur);
	if (max != PS_ETH_NA)
		fprintf(out, "/%lld", (long long)max);
	*first = false;
}

void ps_brief_ethtool(FILE *out, const struct ps_snapshot *s)
{
	const struct ps_ethtool_info *e = &s->ethtool;
	bool first, any_fixed = false;

	fprintf(out, "\n%s\n", _("NIC (ethtool)"));
	if (status_line(out, e->status, e->reason))
		return;
	fputs(" ", out);
	if (e->drvinfo.status == PS_ST_OK)
		fprintf(out, " %s %s%s%s,", e->drvinfo.driver,
			e->drvinfo.version, *e->drvinfo.bus_info ? " @ " : "",
			e->drvinfo.bus_info);
	if (e->linkstate.status == PS_ST_OK && e->linkstate.link != PS_ETH_NA)
		fprintf(out, " %s %s,", _("link"),
			e->linkstate.link ? _("yes") : _("no"));
	if (e->linkmodes.status == PS_ST_OK) {
		if (e->linkmodes.speed_bps == PS_ETH_NA)
			fprintf(out, " %s", _("speed unknown"));
		else
			fprintf(out, _(" %lld Mbit/s"),
				(long long)(e->linkmodes.speed_bps / 1000000));
		if (e->linkmodes.duplex == 1)
			fprintf(out, " %s", _("full duplex"));
		else if (e->linkmodes.duplex == 0)
			fprintf(out, " %s", _("half duplex"));
		if (e->linkmodes.autoneg != PS_ETH_NA)
			fprintf(out, ", %s %s", _("autoneg"),
				e->linkmodes.autoneg ? _("on") : _("off"));
	} else {
		fprintf(out, " %s: %s", _("speed"),
			ps_status_text(e->linkmodes.status));
	}
	fputc('\n', out);
	if (e->features.status == PS_ST_OK) {
		fprintf(out, "  %s:", _("offloads"));
		first = true;
		for (int f = 0; f < PS_ETH_NFLAGS; f++) {
			const struct ps_eth_flag *fl = &e->features.flag[f];

			if (!fl->known)
				continue;
			fprintf(out, "%s %s %s%s%s", first ? "" : ",",
				flag_short[f], fl->on ? _("on") : _("off"),
				fl->fixed ? "*" : "",
				fl->requested_on ? _(" [requested on]") : "");
			any_fixed |= fl->fixed;
			first = false;
		}
		if (any_fixed)
			fprintf(out, "  (%s)", _("* fixed"));
		fputc('\n', out);
	} else {
		fprintf(out, "  %s: %s\n", _("offloads"),
			ps_status_text(e->features.status));
	}
	fputs("  ", out);
	first = true;
	if (e->channels.status == PS_ST_OK) {
		fprintf(out, "%s ", _("channels"));
		cur_max(out, "combined", e->channels.combined,
			e->channels.combined_max, &first);
		cur_max(out, "rx", e->channels.rx, e->channels.rx_max, &first);
		cur_max(out, "tx", e->channels.tx, e->channels.tx_max, &first);
		fputs("; ", out);
	}
	if (e->rings.status == PS_ST_OK) {
		first = true;
		fprintf(out, "%s ", _("rings"));
		cur_max(out, "rx", e->rings.rx, e->rings.rx_max, &first);
		cur_max(out, "tx", e->rings.tx, e->rings.tx_max, &first);
		fputs("; ", out);
	}
	if (e->coalesce.status == PS_ST_OK) {
		fprintf(out, "%s", _("coalescing"));
		if (e->coalesce.adaptive_rx != PS_ETH_NA)
			fprintf(out, " adaptive-rx %s",
				e->coalesce.adaptive_rx ? _("on") : _("off"));
		if (e->coalesce.rx_usecs != PS_ETH_NA)
			fprintf(out, " rx-usecs %lld",
				(long long)e->coalesce.rx_usecs);
		if (e->coalesce.rx_frames != PS_ETH_NA)
			fprintf(out, " rx-frames %lld",
				(long long)e->coalesce.rx_frames);
	} else {
		fprintf(out, "%s %s", _("coalescing"),
			ps_status_text(e->coalesce.status));
	}
	fputc('\n', out);
	if (e->drv_stats.status == PS_ST_OK) {
		unsigned nz = 0;

		for (unsigned i = 0; i < e->drv_stats.n; i++)
			if (e->drv_stats.v[i].value) {
				if (!nz)
					fprintf(out, "  %s:",
						_("driver drop/miss/error "
						  "counters"));
				if (nz < 4)
					fprintf(out, " %s %llu",
						e->drv_stats.v[i].name,
						(unsigned long long)e->drv_stats
							.v[i]
							.value);
				nz++;
			}
		if (nz > 4)
			fprintf(out, _(" and %u more"), nz - 4);
		if (nz)
			fputc('\n', out);
	}
}

void ps_brief_pci(FILE *out, const struct ps_snapshot *s)
{
	const struct ps_pci_info *p = &s->pci;
	char a[32], b[32];

	fprintf(out, "\n%s\n", _("PCIe"));
	if (status_line(out, p->status, p->reason))
		return;
	fprintf(out, "  %s %s %s", p->bdf, p->vendor, p->device);
	if (p->numa_node >= 0)
		fprintf(out, _(", NUMA node %d"), p->numa_node);
	if (*p->local_cpulist)
		fprintf(out, _(", local CPUs %s"), p->local_cpulist);
	fputc('\n', out);
	if (status_line(out, p->link_status, p->link_reason))
		return;
	fprintf(out, _("  link %g GT/s x%d of %g GT/s x%d"), p->sta_speed,
		p->sta_width, p->cap_speed, p->cap_width);
	if (p->downgraded)
		fprintf(out, " (%s)", _("downgraded"));
	if (p->limited_upstream)
		fprintf(out, _(", narrowest upstream at %s: %g GT/s x%d"),
			p->limit_bdf, p->limit_speed, p->limit_width);
	fputc('\n', out);
	if (p->usable_bps > 0) {
		ps_fmt_scaled(a, sizeof(a), p->usable_bps, &ps_scale_brief_bps,
			      -1);
		ps_fmt_scaled(b, sizeof(b), p->capable_bps, &ps_scale_brief_bps,
			      -1);
		fprintf(out,
			_("  usable about %s per direction, of %s the NIC's "
			  "own link could carry (-V shows how)\n"),
			a, b);
	}
}

void ps_brief_irq(FILE *out, const struct ps_snapshot *s)
{
	const struct ps_irq_info *q = &s->irq;
	int rxq_rps = 0;

	fprintf(out, "\n%s\n", _("Interrupts and queues"));
	if (!status_line(out, q->status, q->reason)) {
		fprintf(out,
			P_("  %d NIC interrupt line (%s)",
			   "  %d NIC interrupt lines (%s)", q->nlines),
			q->nlines, q->attribution);
		fprintf(out,
			P_(", %d serves a queue", ", %d serve queues",
			   q->queues_with_irqs),
			q->queues_with_irqs);
		fprintf(out, P_(", on %d CPU", ", on %d CPUs", q->irq_cpus),
			q->irq_cpus);
		if (q->busiest_cpu >= 0)
			fprintf(out, _("; CPU %d takes %.0f%% (%s)"),
				q->busiest_cpu, 100.0 * q->busiest_share,
				strcmp(q->share_basis, "rates")
					? _("since boot")
					: _("now"));
		fputc('\n', out);
	}
	if (q->softnet_status == PS_ST_OK) {
		if (q->rated)
			fprintf(out,
				_("  softnet: %.0f dropped/s, %.0f time "
				  "squeezes/s (since boot %llu and %llu)\n"),
				q->dropped_rate_total, q->squeeze_rate_total,
				(unsigned long long)q->dropped_total,
				(unsigned long long)q->squeeze_total);
		else
			fprintf(out,
				_("  softnet since boot: %llu dropped, %llu "
				  "time squeezes\n"),
				(unsigned long long)q->dropped_total,
				(unsigned long long)q->squeeze_total);
	} else {
		status_line(out, q->softnet_status, q->softnet_reason);
	}
	if (q->queues_status == PS_ST_OK) {
		for (int i = 0; i < q->nrxq; i++)
			rxq_rps += q->rxq[i].rps_on;
		fprintf(out, _("  RPS on %d of %d RX queues"), rxq_rps,
			q->nrxq);
	} else {
		fprintf(out, "  %s: %s", _("queues"),
			ps_status_text(q->queues_status));
	}
	if (q->irqbalance_status == PS_ST_OK)
		fprintf(out, "; %s",
			q->irqbalance_running ? _("irqbalance runs")
					      : _("irqbalance does not run"));
	fputc('\n', out);
}
