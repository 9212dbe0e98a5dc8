/* check-drops.c: where the packets were dropped, from the kernel counters
 * of both ends over each test (probe-netstat): UDP loss split between the
 * receiver's socket buffer and the path, TCP memory pressure and
 * receive-queue pruning; and the one rule of whether anything dropped */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "nls.h"
#include "step.h"

/* the thresholds of the drop checks ("pipescope check --rules") */
enum {
	R_LOSS_INFO,
	R_LOSS_SERIOUS,
	R_RCVBUF_PART,
	R_GRO_BUFFER,
	R_RCVBUF_BOOT,
};
static const struct ps_rule rules[] = {
	[R_LOSS_INFO] = {
		.name = "udp_loss_info",
		.value = 0.001,
		.unit = "share",
		.why = N_("a UDP test that lost this share of its datagrams "
			  "(at least) is worth telling"),
	},
	[R_LOSS_SERIOUS] = {
		.name = "udp_loss_serious",
		.value = 0.01,
		.unit = "share",
		.why = N_("losing this share makes UDP loss a warning, and a "
			  "bottleneck when the receiver's buffer dropped it"),
	},
	[R_RCVBUF_PART] = {
		.name = "udp_rcvbuf_part",
		.value = 0.5,
		.unit = "ratio",
		.why = N_("the receiver's socket buffer is the cause when it "
			  "dropped this part of what was lost"),
	},
	[R_GRO_BUFFER] = {
		.name = "udp_gro_buffer",
		.value = 1.5,
		.unit = "count",
		.why = N_("more datagrams than this per buffer the kernel "
			  "counted: GRO merged them, the evidence says so"),
	},
	[R_RCVBUF_BOOT] = {
		.name = "udp_rcvbuf_since_boot",
		.value = 0.001,
		.unit = "share",
		.why = N_("UDP receive buffers that dropped this share of the "
			  "datagrams since boot are worth telling"),
	},
};
PS_RULE_FAMILY(drops, rules);

/* the kernel's drop counters of one end over a step: the UDP ones only
 * for a UDP test (the namespace's other sockets drop there too) */
static int64_t kernel_drops(const struct ps_netstat_counters *c, bool udp)
{
	int64_t n = 0;

	for (int i = 0; i < PS_ND_COUNT; i++)
		if (udp || !ps_netstat_drop_udp(i))
			n += ps_grew(ps_netstat_drop(c, i));
	return n;
}

bool ps_step_drops_grew(const struct ps_step_result *s)
{
	int64_t n = 0;

	if (s->have_netstat)
		n += kernel_drops(&s->netstat, s->udp);
	if (s->have_peer_netstat)
		n += kernel_drops(&s->peer_netstat, s->udp);
	/* the backlog of this end's softirq (probe-irq) */
	if (s->have_irq && s->softnet_drop_rate > 0)
		n++;
	/* the root qdisc of either end's interface (probe-qdisc) */
	if (s->qdisc.have)
		n += (int64_t)s->qdisc.drops;
	if (s->peer_qdisc.have)
		n += (int64_t)s->peer_qdisc.drops;
	/* the NIC's own drop classes (missed, no buffer ...: check-nic.c) */
	if (ps_step_nic_drops(s) > 0)
		n++;
	return n > 0;
}

/* "UdpRcvbufErrors +12" for each drop counter of c that grew */
static void drops_of(char *buf, size_t len, const char *who,
		     const struct ps_netstat_counters *c, bool udp)
{
	bool first = true;

	for (int i = 0; i < PS_ND_COUNT; i++) {
		int64_t v = ps_netstat_drop(c, i);

		if (v <= 0 || (!udp && ps_netstat_drop_udp(i)))
			continue;
		ps_appendf(buf, len, "%s%s%s +%lld", buf[0] ? ", " : "",
			   first ? who : "", ps_netstat_drops[i].name,
			   (long long)v);
		first = false;
	}
}

void ps_step_drops_text(const struct ps_step_result *s, char *buf, size_t len)
{
	char who[64];

	buf[0] = 0;
	if (s->have_netstat) {
		snprintf(who, sizeof(who), "%s: ", _("this end"));
		drops_of(buf, len, who, &s->netstat, s->udp);
	}
	if (s->have_peer_netstat) {
		snprintf(who, sizeof(who), "%s: ", _("far end"));
		drops_of(buf, len, who, &s->peer_netstat, s->udp);
	}
	if (s->have_irq && s->softnet_drop_rate > 0)
		ps_appendf(buf, len, _("%ssoftnet backlog %.0f/s"),
			   buf[0] ? ", " : "", s->softnet_drop_rate);
	if (s->qdisc.have && s->qdisc.drops)
		ps_appendf(buf, len, _("%sqdisc dropped %llu (%.0f/s)"),
			   buf[0] ? ", " : "",
			   (unsigned long long)s->qdisc.drops,
			   s->qdisc.drop_rate);
	if (s->peer_qdisc.have && s->peer_qdisc.drops)
		ps_appendf(buf, len, _("%sfar end's qdisc dropped %llu"),
			   buf[0] ? ", " : "",
			   (unsigned long long)s->peer_qdisc.drops);
	if (ps_step_nic_drops(s) > 0)
		ps_appendf(buf, len, _("%sNIC ring %.0f/s"), buf[0] ? ", " : "",
			   ps_step_nic_drops(s));
}

/* ---- UDP loss: the receiver's socket buffer or the path -------------- */

/* the UDP step that lost the largest share */
static const struct ps_step_result *worst_udp(const struct ps_run *r)
{
	const struct ps_step_result *best = NULL;

	for (int i = 0; r && i < r->nsteps; i++) {
		const struct ps_step_result *s = &r->steps[i];

		if (s->state != PS_STEP_DONE || !s->udp || s->udp_sent <= 0 ||
		    s->bidir)
			continue;
		if (!best ||
		    (double)s->udp_lost / (double)s->udp_sent >
			    (double)best->udp_lost / (double)best->udp_sent)
			best = s;
	}
	return best;
}

/* a loopback address: the far end is in this network namespace */
static bool peer_here(const struct ps_run *r)
{
	return r->loopback || !strncmp(r->peer, "127.", 4) ||
	       !strcmp(r->peer, "::1") || !strcmp(r->peer, "localhost");
}

/* the receiving end's counters over the step, or NULL: the far end in a
 * forward test (this namespace's when the far end is on a loopback
 * address: the self-test, an iperf3 on 127.0.0.1), this end with -R */
static const struct ps_netstat_counters *
receiver_counters(const struct ps_run *r, const struct ps_step_result *s,
		  bool *far)
{
	*far = !s->reverse && !peer_here(r);
	if (*far)
		return s->have_peer_netstat ? &s->peer_netstat : NULL;
	return s->have_netstat ? &s->netstat : NULL;
}

static enum ps_check_state eval_udp_loss(const struct ps_evidence *ev,
					 struct ps_finding *f)
{
	const struct ps_step_result *s = worst_udp(ev->res);
	const struct ps_netstat_counters *c;
	double sent, lost, share, buf_share, seg = 1, inbuf;
	int64_t rcvbuf, inerr, disc, indg;
	bool far, serious;

	if (!s) {
		PS_SET(f->evidence, "%s", _("no UDP test"));
		return PS_CHECK_NA;
	}
	sent = (double)s->udp_sent;
	lost = (double)(s->udp_lost > 0 ? s->udp_lost : 0);
	share = lost / sent;
	ps_fact(f, "udp_sent", sent, "count");
	ps_fact(f, "udp_lost", lost, "count");
	ps_fact(f, "udp_loss_share", share, "share");
	PS_SET(f->evidence, _("%.0f of %.0f datagrams lost (%.2f%%)"), lost,
	       sent, 100 * share);
	if (share < rules[R_LOSS_INFO].value)
		return PS_CHECK_CLEAR;
	ps_crossed(f, &rules[R_LOSS_INFO]);
	serious = share >= rules[R_LOSS_SERIOUS].value;
	if (serious)
		ps_crossed(f, &rules[R_LOSS_SERIOUS]);
	c = receiver_counters(ev->res, s, &far);
	f->severity = serious ? PS_SEV_WARNING : PS_SEV_INFO;
	if (!c) {
		PS_SET(f->title,
		       _("UDP loss %.2f%%: where is not known (the receiver's "
			 "kernel counters are not available)"),
		       100 * share);
		PS_SET(f->remedy, "%s",
		       far ? _("run pipescope -s on the far end (it sends its "
			       "counters), or read nstat -az Udp* there before "
			       "and after a test")
			   : _("nstat -az 'Udp*' before and after a test"));
		return PS_CHECK_FIRED;
	}
	rcvbuf = ps_grew(c->udp_rcvbuf_errors);
	inerr = ps_grew(c->udp_in_errors);
	disc = ps_grew(c->ip_in_discards);
	indg = ps_grew(c->udp_in_datagrams);
	/*
	 * The kernel counts buffers, not datagrams: with GRO one buffer holds
	 * many (as many as the datagrams that came per InDatagrams). The
	 * counters are the namespace's: other sockets' count too, so the
	 * estimate is capped by the loss.
	 */
	if (indg > 0 && sent > lost)
		seg = (sent - lost) / (double)indg;
	if (seg < 1)
		seg = 1;
	if (seg > 64)
		seg = 64;
	inbuf = (double)rcvbuf * seg;
	/* the far end's readings may span less than the test (1 Hz) */
	if (far && s->peer_netstat_s > 0 && s->seconds > s->peer_netstat_s) {
		double k = s->seconds / s->peer_netstat_s;

		inbuf *= k > 4 ? 4 : k;
		ps_fact(f, "counters_span_us", s->peer_netstat_s * 1e6, "us");
	}
	if (inbuf > lost)
		inbuf = lost;
	buf_share = inbuf / sent;
	ps_fact(f, "udp_rcvbuf_errors", (double)ps_grew(c->udp_rcvbuf_errors),
		"count");
	ps_fact(f, "udp_in_errors", (double)inerr, "count");
	ps_fact(f, "ip_in_discards", (double)disc, "count");
	ps_fact(f, "rcvbuf_share", buf_share, "share");
	ps_fact(f, "datagrams_per_buffer", seg, "count");
	if (rcvbuf > 0 && buf_share >= rules[R_RCVBUF_PART].value * share) {
		ps_crossed(f, &rules[R_RCVBUF_PART]);
		f->severity = serious ? PS_SEV_BOTTLENECK : PS_SEV_WARNING;
		/* the receiver's buffer: the far end's in a forward test */
		f->far = far;
		PS_SET(f->title,
		       _("Of %.1f%% lost, %.1f%% were dropped by the "
			 "receiver's "
			 "socket buffer (UdpRcvbufErrors +%lld, %s)"),
		       100 * share, 100 * buf_share,
		       (long long)ps_grew(c->udp_rcvbuf_errors),
		       far ? _("far end") : _("this end"));
		PS_APPEND(
			f->evidence,
			_("; the receiver's kernel counted %lld socket-buffer "
			  "drops and %lld UDP receive errors: the "
			  "application did not read as fast as the "
			  "datagrams came; the rest (%.2f%%) on the path or "
			  "the NIC"),
			(long long)ps_grew(c->udp_rcvbuf_errors),
			(long long)inerr, 100 * (share - buf_share));
		if (far && s->peer_netstat_s > 0 &&
		    s->seconds > s->peer_netstat_s)
			PS_APPEND(f->evidence,
				  _("; its counters cover %.1f s of the %.1f s "
				    "test"),
				  s->peer_netstat_s, s->seconds);
		if (seg > rules[R_GRO_BUFFER].value)
			PS_APPEND(f->evidence,
				  _("; each buffer it counted held about %.0f "
				    "datagrams (GRO)"),
				  seg);
		PS_SET(f->remedy, "%s",
		       !s->reverse
			       ? _("raise the receiver's buffer: -w 8M here "
				   "(the "
				   "test's window is the server's receive "
				   "buffer too) and sysctl -w "
				   "net.core.rmem_max=16777216 on the server's "
				   "host; or send slower (-b)")
			       : _("raise the receiver's buffer: -w 8M with -R "
				   "(this end's receive buffer) and sysctl -w "
				   "net.core.rmem_max=16777216 here; or send "
				   "slower (-b)"));
		return PS_CHECK_FIRED;
	}
	PS_SET(f->title,
	       _("UDP loss %.2f%% on the path or the NIC: the receiver's "
		 "socket buffer dropped %.2f%%"),
	       100 * share, 100 * buf_share);
	PS_APPEND(f->evidence,
		  _("; the receiver's kernel counted %lld socket-buffer drops, "
		    "%lld UDP receive errors and %lld IP discards: the rest "
		    "was lost before its kernel saw it"),
		  (long long)ps_grew(c->udp_rcvbuf_errors), (long long)inerr,
		  (long long)disc);
	if (!far && s->have_irq && s->softnet_drop_rate > 0)
		PS_APPEND(f->evidence,
			  _("; this end's softirq backlog dropped %.0f/s"),
			  s->softnet_drop_rate);
	PS_SET(f->remedy,
	       _("look for drops on the way: ethtool -S %s | grep -iE "
		 "'drop|miss|fifo|no_buf', tc -s qdisc show dev %s, the switch "
		 "port's counters; or send slower (-b)"),
	       ps_ev_ifname(ev)[0] ? ps_ev_ifname(ev) : "IF",
	       ps_ev_ifname(ev)[0] ? ps_ev_ifname(ev) : "IF");
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_udp_loss = {
	.id = "udp_loss",
	.family = "path",
	.title = N_("UDP loss by where it happened"),
	.weight = 78,
	.needs_test = true,
	.eval = eval_udp_loss,
};

/* ---- UDP receive buffers of this host, without a test ---------------- */

static enum ps_check_state eval_udp_buffers(const struct ps_evidence *ev,
					    struct ps_finding *f)
{
	const struct ps_netstat_info *ns =
		ev->snap && ev->snap->netstat.status == PS_ST_OK
			? &ev->snap->netstat
			: NULL;
	int64_t drops, dgrams;
	double share;

	if (worst_udp(ev->res)) {
		PS_SET(f->evidence, "%s",
		       _("a UDP test ran: see the UDP loss by where it "
			 "happened"));
		return PS_CHECK_CLEAR;
	}
	if (!ns || ns->c.udp_rcvbuf_errors < 0) {
		PS_SET(f->evidence, "%s", _("no UDP counters"));
		return PS_CHECK_NA;
	}
	if (ns->c.udp_rcvbuf_errors > PS_GREW_MAX ||
	    ns->c.udp_in_datagrams > PS_GREW_MAX) {
		PS_SET(f->evidence, "%s",
		       _("its UDP counters since boot are past what a host "
			 "counts (2^48): not known"));
		return PS_CHECK_NA;
	}
	drops = ps_grew(ns->c.udp_rcvbuf_errors);
	dgrams = ps_grew(ns->c.udp_in_datagrams);
	share = drops + dgrams > 0 ? (double)drops / (double)(drops + dgrams)
				   : 0;
	ps_fact(f, "udp_rcvbuf_errors", (double)drops, "count");
	ps_fact(f, "udp_in_datagrams", (double)dgrams, "count");
	ps_fact(f, "rcvbuf_share", share, "share");
	PS_SET(f->evidence,
	       _("since boot UDP sockets took %lld datagrams and their "
		 "receive buffers dropped %lld (UdpRcvbufErrors, %.2f%% of "
		 "what came)"),
	       (long long)dgrams, (long long)drops, 100 * share);
	if (ns->rated && ns->r.udp_rcvbuf_errors > 0) {
		ps_fact(f, "udp_rcvbuf_error_rate", ns->r.udp_rcvbuf_errors,
			"1/s");
		f->severity = PS_SEV_WARNING;
		PS_SET(f->title,
		       _("UDP receive buffers are overflowing now: %.0f "
			 "drops/s (UdpRcvbufErrors)"),
		       ns->r.udp_rcvbuf_errors);
	} else if (drops > 0 && share >= rules[R_RCVBUF_BOOT].value) {
		f->severity = PS_SEV_INFO;
		ps_crossed(f, &rules[R_RCVBUF_BOOT]);
		PS_SET(f->title,
		       _("UDP receive buffers dropped %.2f%% of the datagrams "
			 "since boot (UdpRcvbufErrors %lld)"),
		       100 * share, (long long)drops);
	} else {
		return PS_CHECK_CLEAR;
	}
	PS_SET(f->remedy, "%s",
	       _("find the socket (ss -uamp: its drops are the d field of "
		 "skmem) and give it a larger buffer (SO_RCVBUF; sysctl -w "
		 "net.core.rmem_max=16777216 net.core.rmem_default=...), or "
		 "read it faster"));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_udp_buffers = {
	.id = "udp_buffers",
	.family = "host",
	.title = N_("UDP receive buffer drops"),
	.weight = 33,
	.eval = eval_udp_buffers,
};

/* ---- TCP memory pressure and receive-queue pruning ------------------- */

/* TCP's memory events, and its drop counters (PS_NETSTAT_DROPS) */
struct mem_sum {
	int64_t pressures, prune_called, collapsed;
	int64_t drop[PS_ND_COUNT]; /* the UDP and IP ones stay 0 */
};

static void mem_add(struct mem_sum *m, const struct ps_netstat_counters *c)
{
	m->pressures += ps_grew(c->tcp_memory_pressures);
	m->prune_called += ps_grew(c->tcp_prune_called);
	m->collapsed += ps_grew(c->tcp_rcv_collapsed);
	for (int i = 0; i < PS_ND_COUNT; i++)
		if (ps_netstat_drop_tcp(i))
			m->drop[i] += ps_grew(ps_netstat_drop(c, i));
}

static bool mem_any(const struct mem_sum *m)
{
	bool any = m->pressures || m->prune_called;

	for (int i = 0; i < PS_ND_COUNT; i++)
		any |= m->drop[i] != 0;
	return any;
}

/* a drop counter of both ends */
static int64_t both(const struct mem_sum *a, const struct mem_sum *b,
		    enum ps_netstat_drop_id id)
{
	return a->drop[id] + b->drop[id];
}

/* the same as a fact, under its key ("tcp_ofo_drop") */
static void drop_fact(struct ps_finding *f, const struct mem_sum *a,
		      const struct mem_sum *b, enum ps_netstat_drop_id id)
{
	ps_fact(f, ps_netstat_drops[id].key, (double)both(a, b, id), "count");
}

/* one end's part of the evidence: "this end: 3 memory-pressure events..." */
static void mem_text(struct ps_finding *f, const char *who,
		     const struct mem_sum *m)
{
	PS_APPEND(f->evidence,
		  _("%s%s: %lld memory-pressure events, %lld receive queues "
		    "pruned (%lld segments dropped), %lld out-of-order and "
		    "%lld receive-queue drops, %lld backlog drops"),
		  f->evidence[0] ? "; " : "", who, (long long)m->pressures,
		  (long long)m->prune_called,
		  (long long)m->drop[PS_ND_TCP_PRUNED],
		  (long long)m->drop[PS_ND_TCP_OFO],
		  (long long)m->drop[PS_ND_TCP_RCVQ],
		  (long long)m->drop[PS_ND_TCP_BACKLOG]);
}

static enum ps_check_state eval_tcp_memory(const struct ps_evidence *ev,
					   struct ps_finding *f)
{
	const struct ps_netstat_info *ns =
		ev->snap && ev->snap->netstat.status == PS_ST_OK
			? &ev->snap->netstat
			: NULL;
	struct mem_sum here = { 0 }, far = { 0 };
	bool any_step = false;

	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];

		if (s->state != PS_STEP_DONE)
			continue;
		if (s->have_netstat) {
			mem_add(&here, &s->netstat);
			any_step = true;
		}
		if (s->have_peer_netstat && !ev->res->loopback) {
			mem_add(&far, &s->peer_netstat);
			any_step = true;
		}
	}
	if (!any_step && !ns) {
		PS_SET(f->evidence, "%s", _("no kernel counters"));
		return PS_CHECK_NA;
	}
	ps_fact(f, "tcp_memory_pressures",
		(double)(here.pressures + far.pressures), "count");
	drop_fact(f, &here, &far, PS_ND_TCP_PRUNED);
	ps_fact(f, "tcp_prune_called",
		(double)(here.prune_called + far.prune_called), "count");
	drop_fact(f, &here, &far, PS_ND_TCP_OFO);
	drop_fact(f, &here, &far, PS_ND_TCP_RCVQ);
	drop_fact(f, &here, &far, PS_ND_TCP_BACKLOG);
	if (ns && ns->sock.tcp_mem >= 0 && ns->sock.tcp_mem_pressure > 0) {
		ps_fact(f, "tcp_mem_pages", (double)ns->sock.tcp_mem, "count");
		ps_fact(f, "tcp_mem_pressure_pages",
			(double)ns->sock.tcp_mem_pressure, "count");
	}
	if (any_step) {
		mem_text(f, _("this end"), &here);
		if (mem_any(&far) || far.collapsed)
			mem_text(f, _("far end"), &far);
	}
	if (mem_any(&here) || mem_any(&far)) {
		const char *who = mem_any(&here) && mem_any(&far)
					  ? _("both ends")
				  : mem_any(&here) ? _("this end")
						   : _("the far end");
		int64_t pruned = both(&here, &far, PS_ND_TCP_PRUNED);

		f->far = !mem_any(&here);
		f->severity = here.pressures + far.pressures + pruned > 0
				      ? PS_SEV_WARNING
				      : PS_SEV_INFO;
		PS_SET(f->title,
		       _("TCP receive memory ran short on %s during the tests: "
			 "%lld memory-pressure events, %lld segments pruned, "
			 "%lld dropped from receive queues"),
		       who, (long long)(here.pressures + far.pressures),
		       (long long)pruned,
		       (long long)(both(&here, &far, PS_ND_TCP_OFO) +
				   both(&here, &far, PS_ND_TCP_RCVQ) +
				   both(&here, &far, PS_ND_TCP_BACKLOG)));
		PS_SET(f->remedy, "%s",
		       _("the receiving application falls behind or its "
			 "buffers are too small for the window: raise "
			 "net.ipv4.tcp_rmem's max and net.ipv4.tcp_mem (pages) "
			 "on the receiver, and see whether its core is "
			 "saturated"));
		return PS_CHECK_FIRED;
	}
	if (ns && ns->sock.tcp_mem >= 0 && ns->sock.tcp_mem_pressure > 0 &&
	    ns->sock.tcp_mem >= ns->sock.tcp_mem_pressure) {
		f->severity = PS_SEV_WARNING;
		PS_SET(f->title,
		       _("TCP memory is above the pressure threshold now: %lld "
			 "of %lld pages"),
		       (long long)ns->sock.tcp_mem,
		       (long long)ns->sock.tcp_mem_pressure);
		PS_APPEND(f->evidence,
			  _("%ssockstat TCP mem %lld pages, tcp_mem %lld %lld "
			    "%lld: every socket's buffers are being trimmed"),
			  f->evidence[0] ? "; " : "",
			  (long long)ns->sock.tcp_mem,
			  (long long)ns->sock.tcp_mem_low,
			  (long long)ns->sock.tcp_mem_pressure,
			  (long long)ns->sock.tcp_mem_high);
		PS_SET(f->remedy, "%s",
		       _("find the sockets that hold the memory (ss -tm, "
			 "orphans in /proc/net/sockstat) or raise "
			 "net.ipv4.tcp_mem"));
		return PS_CHECK_FIRED;
	}
	if (!any_step)
		PS_SET(f->evidence,
		       _("sockstat TCP mem %lld pages, below the pressure "
			 "threshold %lld"),
		       (long long)ns->sock.tcp_mem,
		       (long long)ns->sock.tcp_mem_pressure);
	return PS_CHECK_CLEAR;
}

const struct ps_check_ops ps_check_tcp_memory = {
	.id = "tcp_memory",
	.family = "host",
	.title = N_("TCP memory pressure and pruning"),
	.weight = 58,
	.eval = eval_tcp_memory,
};
