/* view-nic.c: the NIC panel of the workstation: link speed/duplex, MTU,
 * offloads on/off, channels, rings, coalescing, the PCIe link ("x8 8GT/s of
 * x8 8GT/s", "x1 5GT/s of x8 8GT/s — degraded") and the NUMA node; the full
 * "NIC" view gives each its own line */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nls.h"
#include "check.h"
#include "probe-ethtool.h"
#include "probe-link.h"
#include "probe-irq.h"
#include "probe-pci.h"
#include "probe-sysctl.h"
#include "sanitize.h"
#include "ui-internal.h"
#include "ui-text.h"

/* items flow across lines, wrapping where the next does not fit */
struct flow {
	struct ui_rect r;
	int y, x;
	bool full; /* one group per line */
};

static void flow_item(struct flow *f, const char *label, const char *value,
		      attr_t va)
{
	int need = ui_text_width(label) + 1 + ui_text_width(value) + 2;

	if (f->x > f->r.x && f->x + need > f->r.x + f->r.w) {
		f->y++;
		f->x = f->r.x;
	}
	if (f->y >= f->r.y + f->r.h)
		return;
	f->x = ui_pair(f->y, f->x, f->r.x + f->r.w, label, value, va);
}

static void flow_break(struct flow *f)
{
	if (f->full && f->x > f->r.x) {
		f->y++;
		f->x = f->r.x;
	}
}

static bool nic_full; /* set per draw: the full view has room */

/* why a value is missing: "n/a" on the dashboard when the device just
 * does not report it, the status in words otherwise */
static void na(char *buf, size_t len, enum ps_status st)
{
	if (!nic_full && (st == PS_ST_UNSUPPORTED || st == PS_ST_ABSENT))
		snprintf(buf, len, "%s", _("n/a"));
	else
		snprintf(buf, len, "%s", ps_status_text(st));
}

static void pair64(char *buf, size_t len, int64_t cur, int64_t max)
{
	if (cur == PS_ETH_NA)
		snprintf(buf, len, "-");
	else if (max == PS_ETH_NA)
		snprintf(buf, len, "%lld", (long long)cur);
	else
		snprintf(buf, len, "%lld/%lld", (long long)cur, (long long)max);
}

static void link_items(struct ui *ui, struct flow *f,
		       const struct ps_link_info *ln,
		       const struct ps_ethtool_info *et,
		       const struct ps_pci_info *pci)
{
	char v[400];
	attr_t good = ui_attr(UI_C_VALUE), warn = ui_attr(UI_C_WARN);

	if (ln && ln->status == PS_ST_OK) {
		snprintf(v, sizeof(v), "%s%s%s", ln->operstate,
			 ln->kind[0] ? " " : "", ln->kind);
		flow_item(f, ln->ifname, v,
			  strcmp(ln->operstate, "up") &&
					  strcmp(ln->operstate, "unknown")
				  ? warn
				  : good);
		snprintf(v, sizeof(v), "%lld", (long long)ln->mtu);
		flow_item(f, _("MTU"), v, good);
		if (ln->lower.n) {
			ps_link_chain_text(ln, v, sizeof(v), ui->style.utf8);
			flow_item(f, _("over"), v, good);
		}
	} else if (ln) {
		/* the reason is long: the full view has room for it */
		snprintf(v, sizeof(v), "%s%s%s", ps_status_text(ln->status),
			 f->full && ln->reason[0] ? ": " : "",
			 f->full ? ln->reason : "");
		flow_item(f, ui->iface.name, v,
			  ln->status == PS_ST_NOT_RECORDED ? ui_attr(UI_C_DIM)
							   : warn);
	} else {
		flow_item(f, ui->iface.name[0] ? ui->iface.name : "-",
			  _("link not sampled yet"), ui_attr(UI_C_DIM));
	}
	if (et && et->linkmodes.status == PS_ST_OK &&
	    et->linkmodes.speed_bps > 0) {
		char sp[32];

		ui_fmt_bps(sp, sizeof(sp), (double)et->linkmodes.speed_bps);
		snprintf(v, sizeof(v), "%s %s", sp,
			 et->linkmodes.duplex == 1   ? _("full")
			 : et->linkmodes.duplex == 0 ? _("half")
						     : "");
		flow_item(f, _("speed"), v,
			  et->linkmodes.duplex == 0 ? warn : good);
	} else if (et) {
		na(v, sizeof(v),
		   et->linkmodes.status == PS_ST_OK ? PS_ST_UNSUPPORTED
						    : et->linkmodes.status);
		flow_item(f, _("speed"), v, ui_attr(UI_C_DIM));
	}
	if (et && et->drvinfo.status == PS_ST_OK && et->drvinfo.driver[0])
		flow_item(f, _("driver"), et->drvinfo.driver, good);
	if (pci && pci->numa_node >= 0) {
		snprintf(v, sizeof(v), "%d", pci->numa_node);
		flow_item(f, _("NUMA"), v, good);
	}
	flow_break(f);
}

static void offload_items(struct ui *ui, struct flow *f,
			  const struct ps_ethtool_info *et)
{
	static const struct {
		enum ps_eth_flag_id id;
		const char *name;
		bool want_on; /* off costs throughput */
	} flags[] = {
		{ PS_ETH_TSO, "TSO", true },
		{ PS_ETH_GSO, "GSO", true },
		{ PS_ETH_GRO, "GRO", true },
		{ PS_ETH_LRO, "LRO", false },
		{ PS_ETH_RX_CSUM, "rx-csum", true },
		{ PS_ETH_TX_CSUM, "tx-csum", true },
	};
	char v[64];

	if (!et) {
		flow_item(f, _("offloads"), _("not sampled yet"),
			  ui_attr(UI_C_DIM));
		flow_break(f);
		return;
	}
	if (et->features.status != PS_ST_OK) {
		na(v, sizeof(v), et->features.status);
		flow_item(f, _("offloads"), v, ui_attr(UI_C_DIM));
		flow_break(f);
		return;
	}
	for (unsigned i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		const struct ps_eth_flag *fl = &et->features.flag[flags[i].id];
		attr_t a = ui_attr(UI_C_VALUE);

		if (!fl->known) {
			flow_item(f, flags[i].name, "-", ui_attr(UI_C_DIM));
			continue;
		}
		if (fl->on != flags[i].want_on)
			a = ui_attr(UI_C_WARN);
		flow_item(f, flags[i].name, fl->on ? _("on") : _("off"), a);
	}
	flow_break(f);
}

static void queue_items(struct ui *ui, struct flow *f,
			const struct ps_ethtool_info *et)
{
	char v[96], a[32], b[32];

	if (!et)
		return;
	if (et->channels.status == PS_ST_OK) {
		if (et->channels.combined != PS_ETH_NA &&
		    et->channels.combined > 0) {
			pair64(v, sizeof(v), et->channels.combined,
			       et->channels.combined_max);
			flow_item(f, _("channels combined"), v,
				  ui_attr(UI_C_VALUE));
		} else {
			pair64(a, sizeof(a), et->channels.rx,
			       et->channels.rx_max);
			pair64(b, sizeof(b), et->channels.tx,
			       et->channels.tx_max);
			snprintf(v, sizeof(v), "rx %s tx %s", a, b);
			flow_item(f, _("channels"), v, ui_attr(UI_C_VALUE));
		}
	} else {
		na(v, sizeof(v), et->channels.status);
		flow_item(f, _("channels"), v, ui_attr(UI_C_DIM));
	}
	if (et->rings.status == PS_ST_OK) {
		pair64(a, sizeof(a), et->rings.rx, et->rings.rx_max);
		pair64(b, sizeof(b), et->rings.tx, et->rings.tx_max);
		snprintf(v, sizeof(v), "rx %s tx %s", a, b);
		flow_item(f, _("rings"), v, ui_attr(UI_C_VALUE));
	} else {
		na(v, sizeof(v), et->rings.status);
		flow_item(f, _("rings"), v, ui_attr(UI_C_DIM));
	}
	flow_break(f);
	if (et->coalesce.status == PS_ST_OK) {
		char rx[32] = "-", tx[32] = "-";

		if (et->coalesce.rx_usecs != PS_ETH_NA)
			snprintf(rx, sizeof(rx), "%lldus",
				 (long long)et->coalesce.rx_usecs);
		if (et->coalesce.tx_usecs != PS_ETH_NA)
			snprintf(tx, sizeof(tx), "%lldus",
				 (long long)et->coalesce.tx_usecs);
		snprintf(v, sizeof(v), "rx %s%s tx %s%s", rx,
			 et->coalesce.adaptive_rx == 1 ? _(" adaptive") : "",
			 tx,
			 et->coalesce.adaptive_tx == 1 ? _(" adaptive") : "");
		flow_item(f, _("coalesce"), v, ui_attr(UI_C_VALUE));
	} else {
		na(v, sizeof(v), et->coalesce.status);
		flow_item(f, _("coalesce"), v, ui_attr(UI_C_DIM));
	}
	flow_break(f);
}

static void pci_items(struct ui *ui, struct flow *f,
		      const struct ps_pci_info *pci)
{
	char v[320], u[32];

	if (!pci) {
		flow_item(f, _("PCIe"), _("not sampled yet"),
			  ui_attr(UI_C_DIM));
		return;
	}
	if (!f->full &&
	    (pci->status == PS_ST_ABSENT || pci->status == PS_ST_UNSUPPORTED))
		na(v, sizeof(v), pci->status);
	else
		ui_fmt_pcie(pci, ui->style.utf8, v, sizeof(v));
	flow_item(f, _("PCIe"), v,
		  pci->status != PS_ST_OK || pci->link_status != PS_ST_OK
			  ? ui_attr(UI_C_DIM)
		  : pci->downgraded || pci->limited_upstream
			  ? ui_attr(UI_C_BAD)
			  : ui_attr(UI_C_VALUE));
	if (pci->status == PS_ST_OK && pci->link_status == PS_ST_OK &&
	    pci->usable_bps > 0) {
		ui_fmt_bps(u, sizeof(u), pci->usable_bps);
		flow_item(f, _("usable"), u, ui_attr(UI_C_VALUE));
	}
	if (f->full && pci->status == PS_ST_OK) {
		flow_break(f);
		snprintf(v, sizeof(v), "%s %s %s", pci->bdf, pci->vendor,
			 pci->device);
		flow_item(f, _("device"), v, A_NORMAL);
		if (pci->usable_how[0]) {
			flow_break(f);
			flow_item(f, "", pci->usable_how, ui_attr(UI_C_DIM));
		}
	}
}

/* ---- the driver's counters: per-queue rates, drop classes, pause ------ */

static void fmt_rate(char *buf, size_t len, double v)
{
	if (!(v >= 0))
		snprintf(buf, len, "-");
	else if (v < 1000)
		snprintf(buf, len, "%.0f", v);
	else if (v < 1e6)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.2fM", v / 1e6);
}

/* "rx pps  q0 812.3k  q1 10  ..." for one direction; the hot queue
 * stands out when others exist */
static void queue_rates(struct flow *f, const struct ps_nic_rates *r,
			enum ps_nic_dir d)
{
	unsigned n = r->nq[d];
	double sum = 0, top = 0;
	char lbl[16], v[32];

	if (!n)
		return;
	for (unsigned q = 0; q < n; q++)
		if (r->pps[d][q] > 0) {
			sum += r->pps[d][q];
			if (r->pps[d][q] > top)
				top = r->pps[d][q];
		}
	flow_break(f);
	flow_item(f, d == PS_NIC_RX ? _("rx packets/s") : _("tx packets/s"), "",
		  ui_attr(UI_C_LABEL));
	for (unsigned q = 0; q < n; q++) {
		attr_t a = ui_attr(UI_C_VALUE);

		if (n > 1 && sum > 0 && r->pps[d][q] == top && top > 0.5 * sum)
			a = ui_attr(UI_C_WARN);
		else if (!(r->pps[d][q] > 0))
			a = ui_attr(UI_C_DIM);
		snprintf(lbl, sizeof(lbl), "q%u", q);
		fmt_rate(v, sizeof(v), r->pps[d][q]);
		flow_item(f, lbl, v, a);
	}
}

/* "RSS 16 of 63 rings, toeplitz, key 40 bytes": what the table reaches */
static void rss_item(struct flow *f, const struct ps_ethtool_info *et)
{
	bool seen[256] = { false };
	int in_table = 0;
	long long rings = 0;
	char v[120];

	if (et->rss.status != PS_ST_OK || !et->rss.n_indir)
		return;
	for (unsigned i = 0; i < et->rss.n_indir; i++)
		if (et->rss.indir[i] < 256 && !seen[et->rss.indir[i]]) {
			seen[et->rss.indir[i]] = true;
			in_table++;
		}
	if (et->rss.rx_rings > 0) {
		rings = et->rss.rx_rings;
	} else if (et->channels.status == PS_ST_OK) {
		rings = et->channels.combined > 0 ? et->channels.combined : 0;
		if (et->channels.rx > 0)
			rings += et->channels.rx;
	}
	if (rings > 0)
		snprintf(v, sizeof(v), _("%d of %lld rings"), in_table, rings);
	else
		snprintf(v, sizeof(v), _("%d rings"), in_table);
	if (et->rss.hfunc[0])
		ps_appendf(v, sizeof(v), ", %s", ps_safe(et->rss.hfunc));
	if (et->rss.n_hkey)
		ps_appendf(v, sizeof(v), _(", key %u bytes"), et->rss.n_hkey);
	flow_item(f, _("RSS"), v,
		  rings > 0 && in_table < rings ? ui_attr(UI_C_WARN)
						: ui_attr(UI_C_VALUE));
	flow_break(f);
}

static void counter_items(struct flow *f, const struct ps_ethtool_info *et)
{
	const struct ps_nic_rates *r = &et->nic_rate;
	char v[80], lbl[48];
	bool any = false;

	flow_break(f);
	rss_item(f, et);
	if (!et->nic.valid) {
		char why[200];

		snprintf(why, sizeof(why), "%s",
			 ps_status_text(et->drv_stats.status));
		flow_item(f, _("queue counters"), why, ui_attr(UI_C_DIM));
		return;
	}
	if (!r->rated) {
		flow_item(f, _("queue counters"),
			  _("rates after the next sample"), ui_attr(UI_C_DIM));
		return;
	}
	queue_rates(f, r, PS_NIC_RX);
	queue_rates(f, r, PS_NIC_TX);
	flow_break(f);
	for (int d = 0; d < PS_NIC_NDIR; d++)
		for (int k = 0; k < PS_NIC_NDROP; k++) {
			if (!isfinite(r->drops[d][k]))
				continue;
			if (!any)
				flow_item(f, _("drops/s"), "",
					  ui_attr(UI_C_LABEL));
			any = true;
			snprintf(lbl, sizeof(lbl), "%s_%s", ps_nic_dir_name(d),
				 ps_nic_drop_name(k));
			fmt_rate(v, sizeof(v), r->drops[d][k]);
			flow_item(f, lbl, v,
				  r->drops[d][k] > 0 ? ui_attr(UI_C_BAD)
						     : ui_attr(UI_C_VALUE));
		}
	if (!any)
		flow_item(f, _("drops/s"), _("no drop counters"),
			  ui_attr(UI_C_DIM));
	flow_break(f);
	if (isfinite(r->pause[PS_NIC_RX]) || isfinite(r->pause[PS_NIC_TX])) {
		char a[32], b[32];

		fmt_rate(a, sizeof(a),
			 isfinite(r->pause[PS_NIC_RX]) ? r->pause[PS_NIC_RX]
						       : -1);
		fmt_rate(b, sizeof(b),
			 isfinite(r->pause[PS_NIC_TX]) ? r->pause[PS_NIC_TX]
						       : -1);
		snprintf(v, sizeof(v), "rx %s tx %s", a, b);
		flow_item(f, _("pause/s"), v,
			  r->pause[PS_NIC_RX] > 0 || r->pause[PS_NIC_TX] > 0
				  ? ui_attr(UI_C_WARN)
				  : ui_attr(UI_C_VALUE));
	}
}

/* the tuning guides' NIC and stack settings (the nic_tuning, rfs and
 * busy-poll readings): a row of the full view */
static void tuning_items(struct flow *f, const struct ps_snapshot *s,
			 const struct ps_link_info *ln,
			 const struct ps_ethtool_info *et)
{
	const struct ps_irq_info *irq = ui_snap_irq(s);
	const struct ps_sysctl_info *sc = &s->sysctl;
	attr_t val = ui_attr(UI_C_VALUE);
	char v[96];

	if (ln && ln->status == PS_ST_OK) {
		snprintf(v, sizeof(v), "%lld", (long long)ln->txqlen);
		flow_item(f, _("txqueuelen"), v, val);
		if (ln->gso_max_size > 0 || ln->gro_max_size > 0) {
			snprintf(v, sizeof(v), "%lld/%lld",
				 (long long)ln->gso_max_size,
				 (long long)ln->gro_max_size);
			flow_item(f, _("gso/gro max"), v, val);
		}
	}
	if (et && et->features.status == PS_ST_OK) {
		static const char *const feat[][2] = {
			{ "tx-nocache-copy", N_("nocache-copy") },
			{ "rx-ntuple-filter", N_("ntuple") },
		};

		for (unsigned i = 0; i < sizeof(feat) / sizeof(feat[0]); i++) {
			const struct ps_eth_feature *x =
				ps_ethtool_feature(et, feat[i][0]);

			if (x)
				flow_item(f, _(feat[i][1]),
					  x->active ? _("on") : _("off"), val);
		}
	}
	if (sc->val[PS_SYSCTL_RPS_SOCK_FLOW_ENTRIES].status == PS_ST_OK) {
		long long e =
			ps_sysctl_get(sc, PS_SYSCTL_RPS_SOCK_FLOW_ENTRIES, 0);
		long cnt = irq && irq->queues_status == PS_ST_OK && irq->nrxq
				   ? irq->rxq[0].rps_flow_cnt
				   : -1;

		if (e > 0 && cnt >= 0)
			snprintf(v, sizeof(v), _("%lld, rx-0 %ld"), e, cnt);
		else
			snprintf(v, sizeof(v), "%s",
				 e > 0 ? _("on") : _("off"));
		flow_item(f, _("RFS"), v, val);
	}
	if (irq && irq->queues_status == PS_ST_OK && irq->ntxq > 0) {
		int on = 0;

		for (int i = 0; i < irq->ntxq; i++)
			on += irq->txq[i].xps_on;
		snprintf(v, sizeof(v), _("%d/%d queues"), on, irq->ntxq);
		flow_item(f, _("XPS"), v, val);
	}
	if (sc->val[PS_SYSCTL_BUSY_READ].status == PS_ST_OK &&
	    sc->val[PS_SYSCTL_BUSY_POLL].status == PS_ST_OK) {
		snprintf(v, sizeof(v), "%lld/%lldus",
			 ps_sysctl_get(sc, PS_SYSCTL_BUSY_READ, 0),
			 ps_sysctl_get(sc, PS_SYSCTL_BUSY_POLL, 0));
		flow_item(f, _("busy read/poll"), v, val);
	}
	if (irq && irq->napi_defer_hard_irqs >= 0) {
		snprintf(v, sizeof(v), _("%ld, gro flush %ldns"),
			 irq->napi_defer_hard_irqs, irq->gro_flush_timeout);
		flow_item(f, _("NAPI defer"), v, val);
	}
	flow_break(f);
}

void ui_panel_nic(struct ui *ui, const struct ui_rect *r, bool full)
{
	const struct ps_snapshot *s = ui->snap;
	const struct ps_link_info *ln = s ? ui_snap_link(s) : NULL;
	const struct ps_ethtool_info *et = s ? ui_snap_ethtool(s) : NULL;
	const struct ps_pci_info *pci = s ? ui_snap_pci(s) : NULL;
	char right[200] = "";
	struct flow f;

	ui_clear(r);
	if (ui->iface.name[0])
		snprintf(right, sizeof(right), "%s (%s)", ui->iface.name,
			 ps_iface_source_name(ui->iface.source));
	f.r = ui_title(ui, r, _("NIC"), right);
	f.y = f.r.y;
	f.x = f.r.x;
	f.full = full;
	if (f.r.h <= 0)
		return;
	if (!s) {
		ui_not_sampled(&f.r, 0);
		return;
	}
	nic_full = full;
	link_items(ui, &f, ln, et, pci);
	/* the PCIe link before the details: on the dashboard it must not
	 * be the item that falls off the end */
	if (!full) {
		pci_items(ui, &f, pci);
		flow_break(&f);
	}
	offload_items(ui, &f, et);
	queue_items(ui, &f, et);
	if (full)
		tuning_items(&f, s, ln, et);
	if (full)
		pci_items(ui, &f, pci);
	if (full && et)
		counter_items(&f, et);
	if (full && s->hdr.iface.reason[0]) {
		flow_break(&f);
		f.y++;
		flow_item(&f, _("chosen because"), s->hdr.iface.reason,
			  ui_attr(UI_C_DIM));
	}
}

static void draw_nic(struct ui *ui, const struct ui_rect *body)
{
	ui_panel_nic(ui, body, true);
}

const struct ui_view_ops ui_view_nic = {
	.name = "nic",
	.title = N_("NIC"),
	.noun = N_("NIC"),
	.key = '5',
	.panel = UI_P_NIC,
	.draw = draw_nic,
};
