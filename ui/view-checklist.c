/* view-checklist.c: the findings strip of the workstation and the full
 * "checklist" view; until the checks are merged they list the probes'
 * warnings (a pinned core, interrupts on one CPU, drops, a degraded PCIe
 * link, offloads off, flows held back by the window) */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nls.h"
#include "probe-ethtool.h"
#include "probe-irq.h"
#include "probe-link.h"
#include "probe-pci.h"
#include "ui-internal.h"
#include "ui-text.h"

struct fcoll {
	char (*out)[256];
	int *level;
	int n, max;
};

static void add(struct fcoll *c, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(struct fcoll *c, int level, const char *fmt, ...)
{
	va_list ap;

	if (c->n >= c->max)
		return;
	va_start(ap, fmt);
	vsnprintf(c->out[c->n], 256, fmt, ap);
	va_end(ap);
	c->level[c->n++] = level;
}

static void status_line(struct fcoll *c, const char *what, enum ps_status st,
			const char *reason)
{
	/* absent, unsupported, not recorded: the panels say so; only what
	 * hides data that should be there is a finding */
	if (st != PS_ST_ERROR && st != PS_ST_NEEDS_ROOT)
		return;
	add(c, 0, "%s: %s%s%s", what, ps_status_text(st), reason[0] ? ", " : "",
	    reason);
}

int ui_findings_collect(const struct ui *ui, char (*out)[256], int *level,
			int max)
{
	const struct ps_snapshot *s = ui->snap;
	const struct ui_test_view *v = &ui->tv;
	struct fcoll c = { out, level, 0, max };

	if (v->error[0])
		add(&c, 2, _("test: %s"), v->error);
	for (int i = 0; i < v->nstreams; i++) {
		const char *why = ps_limit_reason(&v->streams[i]);

		if (why && !strcmp(why, "rwnd"))
			add(&c, 1,
			    _("stream %d is held back by the receiver's window "
			      "(rwnd)"),
			    v->streams[i].fd);
		else if (why && !strcmp(why, "sndbuf"))
			add(&c, 1,
			    _("stream %d is held back by its send buffer "
			      "(sndbuf)"),
			    v->streams[i].fd);
	}
	if (!s)
		goto sort;
	if (s->hdr.iface.status != PS_ST_OK)
		add(&c, 1, _("interface: %s"), s->hdr.iface.reason);
	if (s->cpu.status == PS_ST_OK && s->cpu.busiest >= 0 &&
	    s->cpu.cores[s->cpu.busiest].pct_valid &&
	    s->cpu.cores[s->cpu.busiest].busy_pct >= 90) {
		char b[160];

		ps_cpu_busiest_text(&s->cpu, b, sizeof(b));
		add(&c, 1, _("a core is saturated: %s"), b);
	}
	status_line(&c, _("CPU"), s->cpu.status, s->cpu.reason);
	status_line(&c, _("sysctl"), s->sysctl.status, s->sysctl.reason);
	if (!s->hdr.rates && s->hdr.rates_reason[0])
		add(&c, 0, "%s", s->hdr.rates_reason);

	const struct ps_irq_info *irq = ui_snap_irq(s);

	if (irq) {
		if (irq->queues_with_irqs > 1 && irq->irq_cpus == 1)
			add(&c, 1, _("all %d queues' interrupts land on cpu%d"),
			    irq->queues_with_irqs, irq->busiest_cpu);
		if (irq->rated && irq->dropped_rate_total > 0)
			add(&c, 2,
			    _("softnet drops %.0f packets/s (backlog full)"),
			    irq->dropped_rate_total);
		if (irq->rated && irq->squeeze_rate_total > 0)
			add(&c, 1,
			    _("softirq ran out of budget %.0f times/s "
			      "(time_squeeze)"),
			    irq->squeeze_rate_total);
		status_line(&c, _("IRQ"), irq->status, irq->reason);
	}
	const struct ps_pci_info *pci = ui_snap_pci(s);

	if (pci && pci->status == PS_ST_OK && pci->link_status == PS_ST_OK &&
	    (pci->downgraded || pci->limited_upstream)) {
		char t[320];

		ui_fmt_pcie(pci, ui->style.utf8, t, sizeof(t));
		add(&c, 2, _("PCIe link: %s"), t);
	} else if (pci) {
		status_line(&c, _("PCIe"), pci->status, pci->reason);
	}
	const struct ps_ethtool_info *et = ui_snap_ethtool(s);

	if (et && et->features.status == PS_ST_OK) {
		static const enum ps_eth_flag_id want[] = { PS_ETH_TSO,
							    PS_ETH_GSO,
							    PS_ETH_GRO };

		for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			if (et->features.flag[want[i]].known &&
			    !et->features.flag[want[i]].on)
				add(&c, 1, _("offload %s is off"),
				    ps_ethtool_flag_name(want[i]));
	} else if (et) {
		status_line(&c, _("ethtool"), et->status, et->reason);
	}
	const struct ps_link_info *ln = ui_snap_link(s);

	if (ln && ln->rates.valid && ln->rates.rx_drops_ps > 0)
		add(&c, 2, _("%s drops %.0f received packets/s"), ln->ifname,
		    ln->rates.rx_drops_ps);
sort:
	/* most severe first, stable */
	for (int i = 1; i < c.n; i++)
		for (int k = i; k > 0 && level[k] > level[k - 1]; k--) {
			char t[256];
			int l = level[k];

			memcpy(t, out[k], sizeof(t));
			memcpy(out[k], out[k - 1], sizeof(t));
			memcpy(out[k - 1], t, sizeof(t));
			level[k] = level[k - 1];
			level[k - 1] = l;
		}
	return c.n;
}

static const enum ui_color lvl_color[3] = { UI_C_DIM, UI_C_WARN, UI_C_BAD };

void ui_panel_findings(struct ui *ui, const struct ui_rect *r, bool full)
{
	char lines[32][256];
	int level[32], n, y;
	struct ui_rect in;
	const char *bullet[3] = { "-", "!", "!!" };

	ui_clear(r);
	n = ui_findings_collect(ui, lines, level, 32);
	in = ui_title(ui, r, _("Findings"),
		      _("probe warnings until the checks land"));
	y = in.y;
	if (!n && in.h > 0) {
		ui_put(y, in.x, in.w, ui_attr(UI_C_GOOD),
		       ui->snap ? _("nothing stands out yet")
				: _("not sampled yet"));
		return;
	}
	for (int i = 0; i < n && y < in.y + in.h; i++) {
		if (!full && i == in.h - 1 && n > in.h) {
			ui_printf(y, in.x, in.w, ui_attr(UI_C_DIM),
				  _("%s (and %d more: view 6)"), lines[i],
				  n - i - 1);
			break;
		}
		ui_printf(y++, in.x, in.w, ui_attr(lvl_color[level[i]]),
			  "%-2s %s", bullet[level[i]], lines[i]);
	}
}

static void draw_checklist(struct ui *ui, const struct ui_rect *body)
{
	ui_panel_findings(ui, body, true);
}

const struct ui_view_ops ui_view_checklist = {
	.name = "checklist",
	.title = N_("Checklist"),
	.key = '6',
	.draw = draw_checklist,
};
