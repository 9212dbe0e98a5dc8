/* view-drops.c: the "Drops" section of the IRQ view (4): where a received
 * packet can be dropped on its way up (NIC ring, softnet backlog, IP, the
 * UDP and TCP socket layers, the application) and how many each layer
 * dropped per second, on this end and the far end, from the kernel
 * counters of the snapshots (probe-netstat, probe-irq) */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "nls.h"
#include "probe-netstat.h"
#include "ui-internal.h"
#include "view-drops.h"

double ui_drops_nic_ring(const struct ps_snapshot *s)
{
	/* the driver's receive drop classes (nic-counters.h), NaN when it
	 * reports none or the snapshot has no rates */
	return s->ethtool.nic_rate.rated
		       ? ps_nic_rates_drops(&s->ethtool.nic_rate, PS_NIC_RX)
		       : NAN;
}

/* the rows: the NIC's ring and softnet's backlog (the ethtool and irq
 * probes'), the kernel's layers of the receive path (probe-netstat.h's
 * one list of drop counters), and what was delivered */
enum layer {
	L_RING,
	L_SOFTNET,
	L_NET, /* L_NET + enum ps_drop_layer */
	L_APP = L_NET + PS_DROP_NLAYERS,
	L_COUNT
};

static const char *const layer_label[L_COUNT] = {
	[L_RING] = N_("NIC ring"),
	[L_SOFTNET] = N_("softnet backlog"),
	[L_NET + PS_DROP_IP] = N_("IP discards, bad headers"),
	[L_NET + PS_DROP_UDP_BUF] = N_("UDP socket buffer"),
	[L_NET + PS_DROP_UDP_ERR] = N_("UDP other receive errors"),
	[L_NET + PS_DROP_TCP_BACKLOG] = N_("TCP backlog (socket busy)"),
	[L_NET + PS_DROP_TCP_PRUNE] = N_("TCP receive queue pruned"),
	[L_NET + PS_DROP_TCP_OFO] = N_("TCP out-of-order, rcvq drops"),
	[L_APP] = N_("delivered (UDP + TCP in)"),
};

static double sum2(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return a + b;
}

/* a + b of two counters (PS_NA: unknown), saturating: the far end's
 * numbers are untrusted */
static int64_t isum(int64_t a, int64_t b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* one layer's per-second rate in ns (NAN unknown) */
static double layer_rate(enum layer l, const struct ps_snapshot *s)
{
	const struct ps_netstat_rates *r = &s->netstat.r;
	bool ok = s->netstat.status == PS_ST_OK && s->netstat.rated;

	if (l == L_RING)
		return ui_drops_nic_ring(s);
	if (l == L_SOFTNET)
		return s->irq.rated && s->irq.softnet_status == PS_ST_OK
			       ? s->irq.dropped_rate_total
			       : NAN;
	if (l == L_APP)
		return ok ? sum2(r->udp_in_datagrams, r->tcp_in_segs) : NAN;
	return ps_netstat_layer_rate(&s->netstat,
				     (enum ps_drop_layer)(l - L_NET));
}

/* the same layer's count in a counter set (PS_NA unknown) */
static int64_t layer_count(enum layer l, const struct ps_netstat_counters *c)
{
	if (l == L_APP)
		return isum(c->udp_in_datagrams, c->tcp_in_segs);
	if (l < L_NET || l >= L_APP)
		return PS_NA;
	return ps_netstat_layer_count(c, (enum ps_drop_layer)(l - L_NET));
}

/* "12/s +340" into buf: the rate and the growth since the test began */
static bool cell_text(char *buf, size_t len, enum layer l,
		      const struct ps_snapshot *s,
		      const struct ps_snapshot *since)
{
	double r = layer_rate(l, s);
	int64_t now, then;

	if (isnan(r)) {
		snprintf(buf, len, "%s", _("unknown"));
		return false;
	}
	snprintf(buf, len, "%.0f/s", r);
	if (since && s->netstat.status == PS_ST_OK &&
	    since->netstat.status == PS_ST_OK) {
		now = layer_count(l, &s->netstat.c);
		then = layer_count(l, &since->netstat.c);
		if (now >= 0 && then >= 0 && now >= then)
			ps_appendf(buf, len, " +%lld", (long long)(now - then));
	}
	return l != L_APP && r > 0;
}

int ui_drops_section(struct ui *ui, int y, int x, int w, int ymax)
{
	const struct ps_snapshot *here = ui->snap;
	const struct ps_snapshot *far = ui->selftest ? NULL : ui->peer;
	bool testing = ui->tv.state == UI_TEST_RUNNING ||
		       ui->tv.state == UI_TEST_STOPPING;
	int col = w >= 76 ? 30 : 24, cw = (w - col) / 2;
	struct ps_snapshot *here0, *far0;
	bool one_kernel = far && ps_snapshot_same_host(here, far);

	if (y >= ymax || !here)
		return y;
	ui_put(y++, x, w, ui_attr(UI_C_TITLE),
	       testing ? _("Drops: where a received packet was dropped, per "
			   "second (+ since the test began)")
		       : _("Drops: where a received packet was dropped, per "
			   "second"));
	if (y >= ymax)
		return y;
	ui_put(y, x, col, ui_attr(UI_C_LABEL), _("layer"));
	ui_put(y, x + col, cw, ui_attr(UI_C_LABEL), _("this end"));
	ui_put(y++, x + col + cw, cw, ui_attr(UI_C_LABEL),
	       far ? _("far end")
	       : ui->selftest
		       ? _("far end: this host")
		       : _("far end: no counters (not a pipescope server)"));
	/* "since": the test's session counts from these (session.h) */
	ui_model_bases(&ui->model, &here0, &far0);
	for (int l = 0; l < L_COUNT && y < ymax; l++, y++) {
		char a[48], b[48];
		bool bad;

		ui_put(y, x, col, A_NORMAL, _(layer_label[l]));
		bad = cell_text(a, sizeof(a), (enum layer)l, here,
				testing ? here0 : NULL);
		ui_put(y, x + col, cw,
		       bad		? ui_attr(UI_C_BAD)
		       : strchr(a, '/') ? ui_attr(UI_C_VALUE)
					: ui_attr(UI_C_DIM),
		       a);
		if (!far)
			continue;
		/* softnet's backlog is the kernel's, not a namespace's */
		if (l == L_SOFTNET && one_kernel) {
			ui_put(y, x + col + cw, cw, ui_attr(UI_C_DIM),
			       _("= this end (one kernel)"));
			continue;
		}
		bad = cell_text(b, sizeof(b), (enum layer)l, far,
				testing ? far0 : NULL);
		ui_put(y, x + col + cw, cw,
		       bad		? ui_attr(UI_C_BAD)
		       : strchr(b, '/') ? ui_attr(UI_C_VALUE)
					: ui_attr(UI_C_DIM),
		       b);
	}
	ps_snapshot_put(here0);
	ps_snapshot_put(far0);
	return y;
}
