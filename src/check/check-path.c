/* check-path.c: the path checks of "pipescope check": MTU (black hole,
 * mismatch, jumbo), window ÷ RTT, socket buffers against the bandwidth-delay
 * product, the stream-count fork (per-flow or shared limit), congestion
 * control and qdisc, and retransmissions */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "nls.h"

/* the part of a socket buffer that becomes window (the rest is the
 * kernel's bookkeeping: tcp_adv_win_scale, scaling_ratio) */
#define WINDOW_SHARE 0.5
#define NOTHING_BPS PS_CHECK_RULE(NOTHING_MOVED)->value
#define GROWTH PS_CHECK_RULE(FLOW_GROWTH)

/* the thresholds of the path checks ("pipescope check --rules") */
enum {
	R_JUMBO_MTU,
	R_FAST_LINE,
	R_LIMITED,
	R_WINDOW_NEAR,
	R_WINDOW_FAR,
	R_WINDOW_FAR_UNTOLD,
	R_BUFFERS_BDP,
	R_HTB_NEAR,
	R_ASYMMETRY,
	R_BIDIR_TOGETHER,
	R_RETRANS_INFO,
	R_RETRANS_WARNING,
	R_SUM_STEADY,
	R_RTT_RESOLUTION,
	R_BIDIR_RTT,
};
static const struct ps_rule rules[] = {
	[R_JUMBO_MTU] = {
		.name = "jumbo_mtu",
		.value = 1500,
		.unit = "bytes",
		.why = N_("an MTU above this (an MSS above it less 40) is "
			  "jumbo: a test that moved nothing with it is an MTU "
			  "black hole; at most this on a fast line, jumbo "
			  "frames are an option"),
	},
	[R_FAST_LINE] = {
		.name = "fast_line",
		.value = 10e9,
		.unit = "bit/s",
		.why = N_("at this line rate or more, jumbo frames and a "
			  "pacing qdisc are worth telling"),
	},
	[R_LIMITED] = {
		.name = "window_limited",
		.value = 0.2,
		.unit = "share",
		.why = N_("TCP_INFO's share of the time limited by the "
			  "receiver's window or the send buffer that proves a "
			  "window binds"),
	},
	[R_WINDOW_NEAR] = {
		.name = "window_near",
		.value = 1.3,
		.unit = "ratio",
		.why = N_("without TCP's word, a buffer's ceiling binds when "
			  "at most this many times the rate"),
	},
	[R_WINDOW_FAR] = {
		.name = "window_far",
		.value = 2,
		.unit = "ratio",
		.why = N_("a window's ceiling more than this many times the "
			  "rate waits on something else"),
	},
	[R_WINDOW_FAR_UNTOLD] = {
		.name = "window_far_untold",
		.value = 1.5,
		.unit = "ratio",
		.why = N_("without TCP's word, a window's ceiling more than "
			  "this many times the rate waits on something else"),
	},
	[R_BUFFERS_BDP] = {
		.name = "buffers_bdp",
		.value = 2,
		.unit = "ratio",
		.why = N_("socket buffers below this many bandwidth-delay "
			  "products cannot carry the target rate"),
	},
	[R_HTB_NEAR] = {
		.name = "htb_class_near",
		.value = 0.15,
		.unit = "share",
		.why = N_("htb classes capped within this share of the "
			  "one-stream rate are told as a class per flow"),
	},
	[R_ASYMMETRY] = {
		.name = "direction_asymmetry",
		.value = 1.5,
		.unit = "ratio",
		.why = N_("one direction this many times faster than the other "
			  "(beyond the spread of the runs) is only one "
			  "direction slow"),
	},
	[R_BIDIR_TOGETHER] = {
		.name = "bidir_together",
		.value = 0.7,
		.unit = "share",
		.why = N_("both directions at once below this share of their "
			  "sum alone share one limit"),
	},
	[R_RETRANS_INFO] = {
		.name = "retrans_info",
		.value = 0.001,
		.unit = "share",
		.why = N_("retransmitting this share of the segments is worth "
			  "telling"),
	},
	[R_RETRANS_WARNING] = {
		.name = "retrans_warning",
		.value = 0.01,
		.unit = "share",
		.why = N_("retransmitting this share of the segments is a "
			  "warning"),
	},
	[R_SUM_STEADY] = {
		.name = "sum_steady",
		.value = 1.05,
		.unit = "ratio",
		.why = N_("a sum within this factor of one stream's stays "
			  "where it was; beyond it the words say how much it "
			  "grew or fell"),
	},
	[R_RTT_RESOLUTION] = {
		.name = "rtt_resolution",
		.value = 10,
		.unit = "us",
		.why = N_("an RTT below this is within ten ticks of TCP's "
			  "microsecond clock (loopback, one host): no window "
			  "or BDP computed from it is a ceiling"),
	},
	[R_BIDIR_RTT] = {
		.name = "bidir_rtt",
		.value = 2,
		.unit = "ratio",
		.why = N_("both directions at once, a round trip this many "
			  "times the one-way tests' (and 1 ms longer) is a "
			  "queue they share: one direction's ACKs wait behind "
			  "the other's data"),
	},
};
PS_RULE_FAMILY(path, rules);

static const char *ifn_or(const struct ps_evidence *ev)
{
	const char *n = ps_ev_ifname(ev);

	return n[0] ? n : "IF";
}

/* ---- MTU ------------------------------------------------------------- */

/* an overlay (vxlan, geneve) on one end's path whose MTU plus its
 * encapsulation is more than its underlay carries, and that underlay:
 * true when there is one */
static bool overlay_too_big(const struct ps_snapshot *sn,
			    const struct ps_path_dev **ov,
			    const struct ps_path_dev **un)
{
	const struct ps_path_info *p = sn ? &sn->path : NULL;

	if (!p || p->status != PS_ST_OK || !p->dev)
		return false;
	for (unsigned i = 0; i < p->n; i++) {
		const struct ps_path_dev *o = &p->dev[i];

		if (o->status != PS_ST_OK || o->encap_overhead <= 0 ||
		    o->mtu <= 0)
			continue;
		for (unsigned k = 0; k < p->n; k++) {
			const struct ps_path_dev *u = &p->dev[k];

			if (u->role == PS_PATH_UNDERLAY &&
			    !strcmp(u->via, o->name) && u->status == PS_ST_OK &&
			    u->mtu > 0) {
				if (o->mtu + o->encap_overhead <= u->mtu)
					break;
				*ov = o;
				*un = u;
				return true;
			}
		}
	}
	return false;
}

/* "The overlay vx0 has MTU 1500: with its 50 bytes of encapsulation it
 * needs 1550 on its underlay eth0, which has 1500" */
static void overlay_text(char *buf, size_t len, const struct ps_path_dev *o,
			 const struct ps_path_dev *u)
{
	char on[IF_NAMESIZE], un[IF_NAMESIZE];

	ps_path_clean_name(on, o->name);
	ps_path_clean_name(un, u->name);
	snprintf(buf, len,
		 _("The overlay %s has MTU %lld: with its %d bytes of "
		   "encapsulation it needs %lld on its underlay %s, which has "
		   "%lld"),
		 on, (long long)o->mtu, o->encap_overhead,
		 (long long)(o->mtu + o->encap_overhead), un,
		 (long long)u->mtu);
}

/* the mtu_overlay finding of one end's overlay o over underlay u */
static void overlay_finding(struct ps_finding *f, bool far,
			    const struct ps_path_dev *o,
			    const struct ps_path_dev *u)
{
	int64_t need = o->mtu + o->encap_overhead,
		fit = u->mtu - o->encap_overhead;
	char on[IF_NAMESIZE], un[IF_NAMESIZE], what[200];

	ps_path_clean_name(on, o->name);
	ps_path_clean_name(un, u->name);
	overlay_text(what, sizeof(what), o, u);
	f->id = "mtu_overlay";
	f->far = far;
	f->severity = PS_SEV_WARNING;
	ps_fact(f, "overlay_mtu", (double)o->mtu, "bytes");
	ps_fact(f, "encap_overhead", o->encap_overhead, "bytes");
	ps_fact(f, "underlay_mtu", (double)u->mtu, "bytes");
	ps_fact(f, "overlay_mtu_needed", (double)fit, "bytes");
	PS_SET(f->title, "%s%s", far ? _("far end: ") : "", what);
	PS_APPEND(f->evidence,
		  _("; the overlay %s (%s) sends through %s (MTU %lld): a "
		    "full-sized inner packet becomes %lld bytes on the wire, "
		    "fragmented or dropped"),
		  on, o->kind[0] ? o->kind : "?", un, (long long)u->mtu,
		  (long long)need);
	PS_SET(f->remedy,
	       _("%sip link set %s mtu %lld (or raise the underlay's MTU to "
		 "%lld on every hop)"),
	       far ? _("on the far end: ") : "", on, (long long)fit,
	       (long long)need);
}

static enum ps_check_state eval_mtu(const struct ps_evidence *ev,
				    struct ps_finding *f)
{
	const struct ps_path_dev *ov, *un;
	const struct ps_step_result *sw[24];
	size_t n = ps_run_sweep(ev->res, sw, 24);
	const struct ps_step_result *s = n ? sw[0] : NULL;
	int64_t mtu =
		ev->link && ev->link->status == PS_ST_OK ? ev->link->mtu : -1;
	unsigned pmtu = ev->snap ? ev->snap->hdr.iface.pmtu : 0;
	long long probing = ps_ev_sysctl(ev, PS_SYSCTL_TCP_MTU_PROBING);
	double line = ps_ev_line_bps(ev);
	/* a pipescope server sent its own interface's MTU */
	int64_t far_mtu = ev->peer && ev->peer->link.status == PS_ST_OK &&
					  ev->peer->hdr.iface.name[0]
				  ? ev->peer->link.mtu
				  : -1;

	if (mtu <= 0 && !s) {
		PS_SET(f->evidence, "%s", _("the interface MTU is unknown"));
		return PS_CHECK_NA;
	}
	if (mtu > 0)
		ps_fact(f, "mtu", (double)mtu, "bytes");
	if (pmtu)
		ps_fact(f, "path_mtu", pmtu, "bytes");
	if (s && s->have_tcpinfo) {
		ps_fact(f, "mss", s->mss, "bytes");
		ps_fact(f, "test_path_mtu", s->pmtu, "bytes");
	}
	if (far_mtu > 0)
		ps_fact(f, "far_mtu", (double)far_mtu, "bytes");
	PS_SET(f->evidence, _("%s: MTU %lld"), ifn_or(ev), (long long)mtu);
	if (pmtu)
		PS_APPEND(f->evidence, _(", path MTU to the peer %u"), pmtu);
	if (s && s->have_tcpinfo)
		PS_APPEND(f->evidence, _(", the test's MSS %u (path MTU %u)"),
			  s->mss, s->pmtu);
	if (probing >= 0)
		PS_APPEND(f->evidence, _(", tcp_mtu_probing %lld"), probing);
	if (far_mtu > 0)
		PS_APPEND(f->evidence, _(", the far end's %s: MTU %lld"),
			  ev->peer->hdr.iface.name, (long long)far_mtu);

	/*
	 * A black hole: the handshake's small packets pass, the test ran,
	 * its segments are jumbo-sized and nothing arrives. (A test that
	 * could not connect at all is no evidence of one.)
	 */
	if (s && s->bps < NOTHING_BPS && s->have_tcpinfo &&
	    (s->mss > rules[R_JUMBO_MTU].value - 40 ||
	     s->pmtu > rules[R_JUMBO_MTU].value)) {
		char r[32];

		f->id = "mtu_blackhole";
		f->severity = PS_SEV_BOTTLENECK;
		ps_crossed(f, &rules[R_JUMBO_MTU]);
		PS_SET(f->title,
		       _("MTU black hole: %u-byte segments do not arrive"),
		       s->mss);
		ps_fmt_bps(r, sizeof(r), s->bps);
		PS_APPEND(f->evidence,
			  _("; one stream moved %s with %lld "
			    "retransmissions in %.1f s: the far side "
			    "accepts smaller frames than this side "
			    "sends and no ICMP \"fragmentation "
			    "needed\" comes back"),
			  r, (long long)s->retrans, s->seconds);
		PS_SET(f->remedy,
		       _("make the MTU equal on both ends and every hop (ip "
			 "link set %s mtu 1500, or jumbo frames everywhere); "
			 "meanwhile sysctl -w net.ipv4.tcp_mtu_probing=1 lets "
			 "TCP find the working size"),
		       ifn_or(ev));
		return PS_CHECK_FIRED;
	}
	if (overlay_too_big(ev->snap, &ov, &un)) {
		overlay_finding(f, false, ov, un);
		/* the far end's overlay too: one cause, said once */
		if (overlay_too_big(ev->peer, &ov, &un)) {
			char what[200];

			overlay_text(what, sizeof(what), ov, un);
			PS_APPEND(f->evidence,
				  _("; the far end's overlay likewise: %s"),
				  what);
		}
		return PS_CHECK_FIRED;
	}
	if (overlay_too_big(ev->peer, &ov, &un)) {
		overlay_finding(f, true, ov, un);
		return PS_CHECK_FIRED;
	}
	if (mtu > 0 && far_mtu > 0 && far_mtu != mtu) {
		int64_t low = far_mtu < mtu ? far_mtu : mtu;

		f->id = "mtu_mismatch";
		f->severity = PS_SEV_WARNING;
		PS_SET(f->title,
		       _("MTU differs between the ends: %lld on %s, %lld on "
			 "the "
			 "far end's %s"),
		       (long long)mtu, ifn_or(ev), (long long)far_mtu,
		       ev->peer->hdr.iface.name);
		PS_APPEND(
			f->evidence,
			_("; frames above %lld bytes from the larger side are "
			  "dropped (UDP, and TCP when the MSS is not clamped "
			  "or PMTU discovery fails)"),
			(long long)low);
		PS_SET(f->remedy,
		       _("the same MTU on both ends and every hop between: ip "
			 "link set %s mtu %lld (or jumbo frames everywhere)"),
		       far_mtu < mtu ? ifn_or(ev) : ev->peer->hdr.iface.name,
		       (long long)low);
		return PS_CHECK_FIRED;
	}
	if (mtu > 0 && pmtu > 0 && pmtu < mtu) {
		f->id = "mtu_mismatch";
		f->severity = PS_SEV_WARNING;
		PS_SET(f->title,
		       _("MTU mismatch: %s has %lld, the path to the peer %u"),
		       ifn_or(ev), (long long)mtu, pmtu);
		PS_APPEND(f->evidence, "%s",
			  _("; large UDP datagrams and frames above the path "
			    "MTU are dropped or fragmented"));
		PS_SET(f->remedy,
		       _("ip link set %s mtu %u (or raise the MTU on every "
			 "hop)"),
		       ifn_or(ev), pmtu);
		return PS_CHECK_FIRED;
	}
	if (mtu > 0 && mtu <= rules[R_JUMBO_MTU].value &&
	    line >= rules[R_FAST_LINE].value) {
		f->id = "jumbo_optional";
		f->severity = PS_SEV_INFO;
		ps_crossed(f, &rules[R_FAST_LINE]);
		PS_SET(f->title,
		       _("Jumbo frames are optional on %s (MTU %lld at %.0f "
			 "Gbit/s)"),
		       ifn_or(ev), (long long)mtu, line / 1e9);
		PS_APPEND(f->evidence, "%s",
			  _("; 9000-byte frames cut the per-packet CPU cost "
			    "about six times, where every switch and host on "
			    "the L2 path carries them"));
		PS_SET(f->remedy,
		       _("only if the whole path supports it: ip link set %s "
			 "mtu 9000 (on both ends and the switches)"),
		       ifn_or(ev));
		return PS_CHECK_FIRED;
	}
	return PS_CHECK_CLEAR;
}

const struct ps_check_ops ps_check_mtu = {
	.id = "mtu",
	.family = "path",
	.title = N_("MTU (black hole, mismatch, jumbo)"),
	.weight = 100,
	.eval = eval_mtu,
};

/* ---- window ÷ RTT ---------------------------------------------------- */

/* the part of a send buffer that is data in flight: between 0.78 and 0.91
 * was, sndbuf-limited on veth with TSO (the skbs' overhead is small, the
 * rest is data not yet sent: the writer is woken with a third free), so
 * the middle; without TSO the overhead takes up to half, and the rate lies
 * below the ceiling, which TCP's own word (sndbuf-limited) then lets bind
 * up to 2x the rate */
#define SNDBUF_SHARE 0.85
/* TCP_INFO's share of the time limited by a window that counts as proof */
#define LIMITED (rules[R_LIMITED].value)

/* an RTT of TCP_INFO (µs) as the reports print it: "87 µs", "10.40 ms" */
static const char *rtt_text(char *buf, size_t len, double us)
{
	ps_fmt_usec(buf, len, us);
	return buf;
}
#define US(b, us) rtt_text((b), sizeof(b), (us))

/* the RTT is too short for a window ceiling: said in f, true */
static bool rtt_unresolved(double rtt_s, struct ps_finding *f)
{
	char u[32];

	if (rtt_s * 1e6 >= rules[R_RTT_RESOLUTION].value)
		return false;
	PS_SET(f->evidence,
	       _("the RTT TCP measured, %s, is below what its clock resolves "
		 "(%.0f µs): no window or BDP computed from it is a ceiling"),
	       US(u, rtt_s * 1e6), rules[R_RTT_RESOLUTION].value);
	ps_fact(f, "rtt", rtt_s * 1e6, "us");
	return true;
}

static long long snap_max(const struct ps_snapshot *s, enum ps_sysctl_id id)
{
	if (!s || s->sysctl.val[id].status != PS_ST_OK)
		return -1;
	return ps_sysctl_get(&s->sysctl, id, -1);
}

/* the step a window is judged on: the step of the run's direction where a
 * flow got the most (its TCP_INFO and RTT belong to that rate), else the
 * reverse one-stream step when no forward test finished */
static const struct ps_step_result *window_step(const struct ps_run *r)
{
	const struct ps_step_result *s = NULL;

	for (int i = 0; r && i < r->nsteps; i++) {
		const struct ps_step_result *x = &r->steps[i];

		if (!ps_step_in_dir(r, x) || x->bidir || x->streams < 1 ||
		    !x->have_tcpinfo)
			continue;
		if (!s || x->bps / x->streams > s->bps / s->streams)
			s = x;
	}
	for (int i = 0; !s && r && i < r->nsteps; i++) {
		const struct ps_step_result *x = &r->steps[i];

		if (x->reverse && !x->bidir && x->streams == 1 &&
		    ps_step_counts(r, x))
			s = x;
	}
	return s;
}

/* the path's RTT in s: min_rtt (the base, without the queue the test
 * builds in a shaper or a buffer) when TCP_INFO has it */
static double path_rtt_s(const struct ps_step_result *s, bool *base)
{
	*base = s->min_rtt_us > 0;
	return (*base ? s->min_rtt_us : s->rtt_us) / 1e6;
}

/* the best sum of the forward tests (of any when none went forward) */
static double best_sum(const struct ps_evidence *ev)
{
	const struct ps_step_result *b = ps_run_best(ev->res);

	return b ? b->bps : 0;
}

/*
 * The rate a buffer must carry: the rate asked for (-b), else the line
 * rate, else the fallback the caller knows (a ceiling the run measured);
 * 0 when there is none. what says which.
 */
static double target_bps(const struct ps_evidence *ev, double fallback,
			 const char **what)
{
	double line = ps_ev_line_bps(ev);

	if (ev->res && ev->res->asked_bps > 0) {
		*what = _("the rate asked for (-b)");
		return ev->res->asked_bps;
	}
	if (line > 0) {
		*what = _("the line rate");
		return line;
	}
	*what = _("the binding rate the tests measured");
	return fallback > 0 ? fallback : 0;
}

/* "the far end (HOST)" or "this end" */
static void end_name(const struct ps_evidence *ev, bool far, char *buf,
		     size_t len)
{
	if (far)
		snprintf(buf, len, _("the far end (%s)"),
			 ev->peer && ev->peer->hdr.hostname[0]
				 ? ev->peer->hdr.hostname
			 : ev->res && ev->res->peer[0] ? ev->res->peer
						       : "?");
	else
		snprintf(buf, len, "%s", _("this end"));
}

enum wnd_kind { WND_NONE, WND_RECEIVER, WND_SENDER };

static enum ps_check_state eval_window(const struct ps_evidence *ev,
				       struct ps_finding *f)
{
	const struct ps_step_result *s = window_step(ev->res);
	const struct ps_snapshot *rs_snap, *ss_snap;
	long long rmem, wmem;
	double rtt, r, wnd, ceil_w = 0, ceil_r = 0, ceil_s = 0, ceil = 0;
	double target, bdp, want;
	char rt[32], cs[32], ws[32], bs[32], ts[32], who[300], u1[32], u2[32];
	const char *twhat = "";
	enum wnd_kind kind = WND_NONE;
	bool base, rev, far;

	if (!s || !s->have_tcpinfo || !(s->rtt_us > 0) ||
	    s->bps < NOTHING_BPS) {
		PS_SET(f->evidence, "%s",
		       _("no test with TCP_INFO (RTT, window)"));
		return PS_CHECK_NA;
	}
	/* in a forward test the far end receives; in -R this end does */
	rev = s->reverse;
	rs_snap = rev ? ev->snap : ev->peer;
	ss_snap = rev ? ev->peer : ev->snap;
	rmem = snap_max(rs_snap, PS_SYSCTL_TCP_RMEM);
	wmem = snap_max(ss_snap, PS_SYSCTL_TCP_WMEM);
	rtt = path_rtt_s(s, &base);
	if (rtt_unresolved(rtt, f))
		return PS_CHECK_NA;
	/* what a flow got in that step */
	r = s->bps / s->streams;
	wnd = s->snd_wnd_bytes;
	if (wnd > 0)
		ceil_w = wnd * 8 / rtt;
	if (rmem > 0)
		ceil_r = (double)rmem * WINDOW_SHARE * 8 / rtt;
	if (wmem > 0)
		ceil_s = (double)wmem * SNDBUF_SHARE * 8 / rtt;

	ps_fact(f, "rate", r, "bit/s");
	ps_fact(f, "rtt", s->rtt_us, "us");
	if (base)
		ps_fact(f, "min_rtt", s->min_rtt_us, "us");
	ps_fact(f, "window", wnd, "bytes");
	ps_fact(f, "window_ceiling", ceil_w, "bit/s");
	ps_fact(f, "rwnd_limited", s->rwnd_limited, "share");
	ps_fact(f, "sndbuf_limited", s->sndbuf_limited, "share");
	if (rmem > 0) {
		ps_fact(f, "receiver_rmem_max", (double)rmem, "bytes");
		ps_fact(f, "receiver_ceiling", ceil_r, "bit/s");
	}
	if (wmem > 0) {
		ps_fact(f, "sender_wmem_max", (double)wmem, "bytes");
		ps_fact(f, "sender_ceiling", ceil_s, "bit/s");
	}

	ps_fmt_bps(rt, sizeof(rt), r);
	PS_SET(f->evidence,
	       P_("%d stream%s: %s per stream (the most a flow got); "
		  "TCP_INFO: receive-window limited %.0f%%, send-buffer "
		  "limited %.0f%% of the time",
		  "%d streams%s: %s per stream (the most a flow got); "
		  "TCP_INFO: receive-window limited %.0f%%, send-buffer "
		  "limited %.0f%% of the time",
		  s->streams),
	       s->streams, rev ? _(" (the far end sending)") : "", rt,
	       100 * s->rwnd_limited, 100 * s->sndbuf_limited);
	if (base)
		PS_APPEND(f->evidence,
			  _("; the path's RTT is min_rtt %s (the smoothed "
			    "RTT, %s, holds the queue the test builds)"),
			  US(u1, rtt * 1e6), US(u2, s->rtt_us));
	else
		PS_APPEND(f->evidence,
			  _("; RTT %s (smoothed: TCP_INFO had no min_rtt)"),
			  US(u1, rtt * 1e6));
	if (wnd > 0) {
		ps_fmt_bytes10(ws, sizeof(ws), wnd);
		ps_fmt_bps(cs, sizeof(cs), ceil_w);
		PS_APPEND(f->evidence,
			  _("; the receiver's window %s × 8 / %s = %s"), ws,
			  US(u1, rtt * 1e6), cs);
	}
	end_name(ev, !rev, who, sizeof(who));
	if (rmem > 0) {
		ps_fmt_bps(cs, sizeof(cs), ceil_r);
		PS_APPEND(f->evidence,
			  _("; the receiver, %s, has tcp_rmem max %lld (about "
			    "half becomes window: %s)"),
			  who, rmem, cs);
	} else {
		PS_APPEND(f->evidence,
			  _("; the receiver's (%s) tcp_rmem is not known"),
			  who);
	}
	end_name(ev, rev, who, sizeof(who));
	if (wmem > 0) {
		ps_fmt_bps(cs, sizeof(cs), ceil_s);
		PS_APPEND(f->evidence,
			  _("; the sender, %s, has tcp_wmem max %lld (about "
			    "85%% are data in flight: %s)"),
			  who, wmem, cs);
	}

	/*
	 * What binds: TCP's own evidence first (the share of the time it
	 * waited on the receiver's window or its send buffer); without it
	 * only a buffer ceiling at or above the rate, close to it.
	 */
	if (s->rwnd_limited >= LIMITED &&
	    s->rwnd_limited >= s->sndbuf_limited) {
		/* both bound the window: the tighter one is the estimate
		 * at the base RTT (the one TCP saw, when it waited) */
		kind = WND_RECEIVER;
		ceil = ceil_w > 0 && (!(ceil_r > 0) || ceil_w < ceil_r)
			       ? ceil_w
			       : ceil_r;
	} else if (s->sndbuf_limited >= LIMITED) {
		kind = WND_SENDER;
		ceil = ceil_s;
	} else {
		if (ceil_r > 0 && ceil_r >= r &&
		    ceil_r <= rules[R_WINDOW_NEAR].value * r)
			kind = WND_RECEIVER, ceil = ceil_r;
		if (ceil_s > 0 && ceil_s >= r &&
		    ceil_s <= rules[R_WINDOW_NEAR].value * r &&
		    (!ceil || ceil_s < ceil))
			kind = WND_SENDER, ceil = ceil_s;
	}
	/*
	 * TCP waited on that window: the flow's rate was the window over the
	 * RTT it saw then (the smoothed one: a starved receiver or a slow hop
	 * stretch it), so the ceiling is taken there. Without TCP's word the
	 * buffer ceiling stays at the path's base RTT.
	 */
	if (kind != WND_NONE && ceil > rules[R_WINDOW_FAR].value * r) {
		ps_fmt_bps(cs, sizeof(cs), ceil);
		PS_APPEND(
			f->evidence,
			_("; at the path's base RTT the window carries %s, far "
			  "more than the rate: it waits on something else "
			  "(a busy receiver, a queue)"),
			cs);
		return PS_CHECK_CLEAR;
	}
	if (kind != WND_NONE && ceil > 0 && base && s->rtt_us / 1e6 > rtt &&
	    (s->rwnd_limited >= LIMITED || s->sndbuf_limited >= LIMITED)) {
		if (kind == WND_RECEIVER && s->wnd_rate_bps > 0) {
			/* each sample's window over its own RTT: the mean
			 * of the quotients, not the quotient of the means
			 * (the RTT's spikes would pull that one low) */
			ceil = s->wnd_rate_bps;
			ps_fmt_bps(cs, sizeof(cs), ceil);
			PS_APPEND(f->evidence,
				  _("; while TCP waited on it the flow saw a "
				    "smoothed RTT of %s on average: the "
				    "window over the RTT, sample by sample, "
				    "carries at most %s"),
				  US(u1, s->rtt_us), cs);
		} else {
			if (kind == WND_RECEIVER && ceil_w > 0)
				ceil = ceil_w;
			ceil *= rtt / (s->rtt_us / 1e6);
			ps_fmt_bps(cs, sizeof(cs), ceil);
			PS_APPEND(f->evidence,
				  _("; while TCP waited on it the flow saw the "
				    "smoothed RTT of %s: at most %s"),
				  US(u1, s->rtt_us), cs);
		}
	}
	if (kind == WND_NONE || !(ceil > 0)) {
		PS_APPEND(f->evidence, "%s",
			  _("; neither TCP_INFO nor a buffer ceiling near the "
			    "rate says a window binds"));
		return PS_CHECK_CLEAR;
	}
	ps_fmt_bps(cs, sizeof(cs), ceil);
	if (ceil < PS_CHECK_RULE(CONTRADICTED)->value * r) {
		PS_APPEND(f->evidence,
			  _("; the window's ceiling %s lies more than %.0f%% "
			    "below the rate: contradicted"),
			  cs, 100 * (1 - PS_CHECK_RULE(CONTRADICTED)->value));
		return PS_CHECK_CLEAR;
	}
	/* TCP's word that it waited on the window lets the ceiling lie up to
	 * twice the rate (the rule above); without it, half above at most */
	if (ceil > rules[R_WINDOW_FAR_UNTOLD].value * r &&
	    s->rwnd_limited < LIMITED && s->sndbuf_limited < LIMITED) {
		PS_APPEND(f->evidence,
			  _("; the window's ceiling %s lies far above the "
			    "rate: it waits on something else"),
			  cs);
		return PS_CHECK_CLEAR;
	}

	/* the buffer that would carry the target: 2 × BDP at it */
	target = target_bps(ev,
			    best_sum(ev) > GROWTH->value * r ? best_sum(ev) : 0,
			    &twhat);
	f->severity = PS_SEV_BOTTLENECK;
	if (s->rwnd_limited >= LIMITED || s->sndbuf_limited >= LIMITED)
		ps_crossed(f, &rules[R_LIMITED]);
	else
		ps_crossed(f, &rules[R_WINDOW_NEAR]);
	f->scope = PS_SCOPE_FLOW;
	f->ceiling_bps = ceil;
	far = kind == WND_RECEIVER ? !rev : rev;
	f->far = far;
	end_name(ev, far, who, sizeof(who));
	if (target > ceil) {
		bdp = target / 8 * rtt;
		want = 2 * bdp;
		ps_fmt_bytes10(bs, sizeof(bs), bdp);
		ps_fmt_bps(ts, sizeof(ts), target);
		ps_fact(f, "target", target, "bit/s");
		ps_fact(f, "bdp", bdp, "bytes");
		PS_APPEND(f->evidence,
			  _("; the bandwidth-delay product at %s (%s) is %s"),
			  ts, twhat, bs);
	} else {
		/* nothing says how fast it could go: four times the buffer */
		want = 4.0 *
		       (kind == WND_RECEIVER
				? (rmem > 0 ? (double)rmem : wnd / WINDOW_SHARE)
				: (wmem > 0 ? (double)wmem : 4194304));
	}
	if (kind == WND_RECEIVER) {
		PS_SET(f->ceiling_what, _("the receiver's window ÷ RTT (%s)"),
		       far ? _("far end") : _("this end"));
		if (rmem > 0)
			PS_SET(f->title,
			       _("The receiver's window caps each stream at "
				 "about %s: %s tcp_rmem max %lld at RTT %s"),
			       cs, far ? _("the far end's") : _("this end's"),
			       rmem, US(u1, rtt * 1e6));
		else
			PS_SET(f->title,
			       _("The receiver's window caps each stream at "
				 "about %s (%s, RTT %s)"),
			       cs, who, US(u1, rtt * 1e6));
		PS_SET(f->remedy,
		       _("on %s (the receiver): sysctl -w "
			 "net.ipv4.tcp_rmem='4096 131072 %.0f' "
			 "net.core.rmem_max=%.0f; or more streams (-P)"),
		       who, want, want);
	} else {
		PS_SET(f->ceiling_what, _("the sender's buffer ÷ RTT (%s)"),
		       far ? _("far end") : _("this end"));
		PS_SET(f->title,
		       _("%s send buffer caps each stream at about %s: "
			 "tcp_wmem max %lld at RTT %s"),
		       far ? _("The far end's") : _("This end's"), cs, wmem,
		       US(u1, rtt * 1e6));
		PS_SET(f->remedy,
		       _("on %s (the sender): sysctl -w "
			 "net.ipv4.tcp_wmem='4096 16384 %.0f' "
			 "net.core.wmem_max=%.0f; or more streams (-P)"),
		       who, want, want);
	}
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_window = {
	.id = "window_rtt",
	.family = "path",
	.title = N_("window ÷ RTT"),
	.weight = 88,
	.needs_test = true,
	.flow_cause = true,
	.eval = eval_window,
};

/* ---- socket buffers vs BDP ------------------------------------------- */

static enum ps_check_state eval_buffers(const struct ps_evidence *ev,
					struct ps_finding *f)
{
	const struct ps_step_result *s = window_step(ev->res);
	long long rmem = ps_ev_sysctl(ev, PS_SYSCTL_TCP_RMEM);
	long long wmem = ps_ev_sysctl(ev, PS_SYSCTL_TCP_WMEM);
	long long rmax = ps_ev_sysctl(ev, PS_SYSCTL_RMEM_MAX);
	long long wmax = ps_ev_sysctl(ev, PS_SYSCTL_WMEM_MAX);
	double rtt, target, bdp, want;
	char bs[32], ts[32], r1[32], w1[32], u1[32];
	const char *twhat = "";
	bool base;

	if (rmem <= 0 || wmem <= 0) {
		PS_SET(f->evidence, "%s", _("tcp_rmem/tcp_wmem were not read"));
		return PS_CHECK_NA;
	}
	if (!s || !s->have_tcpinfo || !(s->rtt_us > 0)) {
		PS_SET(f->evidence, "%s", _("no RTT measured"));
		return PS_CHECK_NA;
	}
	rtt = path_rtt_s(s, &base);
	if (rtt_unresolved(rtt, f))
		return PS_CHECK_NA;
	/* a rate the buffers would have to carry, or no finding */
	target = target_bps(ev, best_sum(ev), &twhat);
	if (!(target > 0)) {
		PS_SET(f->evidence, "%s",
		       _("no rate to size the buffers for (no -b, no line "
			 "rate, nothing measured)"));
		return PS_CHECK_NA;
	}
	bdp = target / 8 * rtt;
	ps_fmt_bytes10(bs, sizeof(bs), bdp);
	ps_fmt_bps(ts, sizeof(ts), target);
	ps_fmt_bytes10(r1, sizeof(r1), (double)rmem);
	ps_fmt_bytes10(w1, sizeof(w1), (double)wmem);
	ps_fact(f, "target", target, "bit/s");
	ps_fact(f, "rtt", rtt * 1e6, "us");
	ps_fact(f, "bdp", bdp, "bytes");
	ps_fact(f, "tcp_rmem_max", (double)rmem, "bytes");
	ps_fact(f, "tcp_wmem_max", (double)wmem, "bytes");
	PS_SET(f->evidence,
	       _("BDP at %s (%s) × %s %s = %s; this end's tcp_rmem max %s, "
		 "tcp_wmem max %s"),
	       ts, twhat, base ? _("min RTT") : _("RTT"), US(u1, rtt * 1e6), bs,
	       r1, w1);
	if (rmax > 0 && wmax > 0)
		PS_APPEND(f->evidence,
			  _(", rmem_max %lld, wmem_max %lld (for -w)"), rmax,
			  wmax);
	want = rules[R_BUFFERS_BDP].value * bdp;
	if (rmem >= want && wmem >= want)
		return PS_CHECK_CLEAR;
	f->severity = PS_SEV_WARNING;
	ps_crossed(f, &rules[R_BUFFERS_BDP]);
	PS_SET(f->title, _("Socket buffers below %g × BDP (%s at %s, RTT %s)"),
	       rules[R_BUFFERS_BDP].value, bs, ts, US(u1, rtt * 1e6));
	PS_SET(f->remedy,
	       "sysctl -w net.ipv4.tcp_rmem='4096 131072 %.0f' "
	       "net.ipv4.tcp_wmem='4096 16384 %.0f' net.core.rmem_max=%.0f "
	       "net.core.wmem_max=%.0f",
	       want, want, want, want);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_buffers = {
	.id = "socket_buffers",
	.family = "path",
	.title = N_("socket buffers against the bandwidth-delay product"),
	.weight = 80,
	.needs_test = true,
	.eval = eval_buffers,
};

/* ---- the stream-count fork ------------------------------------------- */

static bool shaper(const char *q)
{
	static const char *const v[] = { "tbf",	 "htb",	   "hfsc", "cbq",
					 "cake", "police", NULL };

	for (int i = 0; v[i]; i++)
		if (!strcmp(q, v[i]))
			return true;
	return false;
}

/* what the qdisc probe read of a shaper on the interface: 1 one sets a
 * rate (ps_qdisc_shaper), 0 none does, -1 the qdiscs were not read (an
 * older snapshot): then only the root qdisc's kind is known */
static int shaper_read(const struct ps_evidence *ev, struct ps_qdisc_shaper *sh)
{
	if (!ev->snap || ev->snap->qdisc.status != PS_ST_OK)
		return -1;
	return ps_qdisc_shaper(&ev->snap->qdisc, sh) ? 1 : 0;
}

/* a shaper sets a rate on the interface: read, or by the kind's name */
static bool shapes(const struct ps_evidence *ev, const char *qd)
{
	struct ps_qdisc_shaper sh;
	int r = shaper_read(ev, &sh);

	return r > 0 || (r < 0 && shaper(qd));
}

/* what the qdisc tells of a per-flow or a shared limit, true of its kind;
 * one_bps: the one-stream rate an htb class's cap may match */
static const char *shaper_note(const struct ps_evidence *ev, const char *qd,
			       bool per_flow, double one_bps, char *buf,
			       size_t len)
{
	struct ps_qdisc_shaper sh;
	int r = shaper_read(ev, &sh);
	double cap = 0;
	int n;

	if (r >= 0 && per_flow &&
	    (n = ps_qdisc_classes_near(&ev->snap->qdisc, one_bps,
				       rules[R_HTB_NEAR].value, &cap)) > 0) {
		char c[32];

		ps_fmt_bps(c, sizeof(c), cap);
		snprintf(buf, len,
			 _(" (htb: %d class(es) capped at %s, near the "
			   "one-stream rate: a class per flow)"),
			 n, c);
		return buf;
	}

	if (r < 0)
		return shaper(qd)
			       ? _(" (a shaping kind; its rate was not read)")
			       : "";
	if (!r)
		return "";
	if (sh.per_class)
		return per_flow ? _(" (htb: classes can cap flows one by one)")
				: _(" (htb: its default class caps the flows "
				    "it carries together)");
	return per_flow ? _(" (tbf: one rate for all flows together, no "
			    "classes)")
			: _(" (tbf: it caps the sum)");
}

static enum ps_check_state eval_fork(const struct ps_evidence *ev,
				     struct ps_finding *f)
{
	const struct ps_step_result *sw[24], *one, *best;
	size_t n = ps_run_sweep(ev->res, sw, 24);
	const char *qd =
		ev->link && ev->link->status == PS_ST_OK ? ev->link->qdisc : "";
	char a[32], b[32], row[64], note[160], u1[32];
	double growth;

	if (n < 2 || sw[0]->streams != 1) {
		PS_SET(f->evidence, "%s", _("no stream sweep"));
		return PS_CHECK_NA;
	}
	one = sw[0];
	if (one->bps < NOTHING_BPS) {
		PS_SET(f->evidence, "%s",
		       _("the single stream moved almost nothing: no sweep to "
			 "compare"));
		return PS_CHECK_NA;
	}
	best = one;
	for (size_t i = 1; i < n; i++)
		if (sw[i]->bps > best->bps)
			best = sw[i];
	growth = best->bps / one->bps;
	PS_SET(f->evidence, "%s", _("sum by streams:"));
	for (size_t i = 0; i < n; i++) {
		ps_fmt_bps(row, sizeof(row), sw[i]->bps);
		PS_APPEND(f->evidence, " %d: %s%s", sw[i]->streams, row,
			  i + 1 < n ? "," : "");
	}
	ps_fact(f, "one_stream_rate", one->bps, "bit/s");
	ps_fact(f, "best_rate", best->bps, "bit/s");
	ps_fact(f, "best_streams", best->streams, "count");
	ps_fact(f, "growth", growth, "ratio");
	if (ps_ev_line_bps(ev) > 0)
		ps_fact(f, "line_rate", ps_ev_line_bps(ev), "bit/s");
	ps_fmt_bps(a, sizeof(a), one->bps);
	ps_fmt_bps(b, sizeof(b), best->bps);
	f->severity = PS_SEV_BOTTLENECK;
	ps_fact(f, "one_stream_spread", ps_step_spread(one), "bit/s");
	ps_fact(f, "best_spread", ps_step_spread(best), "bit/s");
	/* growth counts when it exceeds the noise of the repeats */
	if (growth >= GROWTH->value && best->streams > 1 &&
	    !ps_step_differs(best, one))
		PS_APPEND(f->evidence,
			  _("; the growth (×%.2f) is within the spread of the "
			    "runs, so it is not counted"),
			  growth);
	if (growth >= GROWTH->value && best->streams > 1 &&
	    ps_step_differs(best, one)) {
		f->id = "per_flow_limit";
		ps_crossed(f, GROWTH);
		f->scope = PS_SCOPE_FLOW;
		/* the most a flow got, one stream or one of several */
		f->ceiling_bps = ps_run_flow_bps(ev->res);
		f->ceiling_measured = true;
		PS_SET(f->ceiling_what, "%s", _("per-flow limit"));
		PS_SET(f->title,
		       _("Per-flow limit: one stream gets %s, %d streams %s "
			 "(×%.1f)"),
		       a, best->streams, b, growth);
		PS_APPEND(f->evidence,
			  _("; the sum grows with streams, so each flow is "
			    "capped on its own: a window, a per-flow shaper or "
			    "policer, one core per flow, or an ECMP/LAG hash"));
		if (one->have_tcpinfo)
			PS_APPEND(f->evidence,
				  _("; one stream was receive-window limited "
				    "%.0f%% and send-buffer limited %.0f%% of "
				    "the time at RTT %s"),
				  100 * one->rwnd_limited,
				  100 * one->sndbuf_limited,
				  US(u1, one->rtt_us));
		ps_ev_far_placement(ev, f);
		if (qd[0])
			PS_APPEND(f->evidence, _("; qdisc on %s: %s%s"),
				  ifn_or(ev), qd,
				  shaper_note(ev, qd, true, one->bps, note,
					      sizeof(note)));
		PS_SET(f->remedy,
		       _("use %d or more parallel streams (-P %d) for bulk "
			 "transfers; to lift the per-flow cap look at the "
			 "window (window_rtt), per-flow shaping or policing on "
			 "the path, and the core each flow runs on"),
		       best->streams, best->streams);
		return PS_CHECK_FIRED;
	}
	f->id = "shared_limit";
	f->scope = PS_SCOPE_SHARED;
	f->ceiling_bps = best->bps;
	f->ceiling_measured = true;
	PS_SET(f->ceiling_what, "%s",
	       _("shared limit (the sum does not grow)"));
	/* the words follow the numbers: a sum that grew within the noise
	 * of the runs did grow, and says by how much */
	if (growth >= rules[R_SUM_STEADY].value)
		PS_SET(f->title,
		       _("Shared limit: the sum grew %.0f%% from 1 to %d "
			 "streams (to %s), within the ±%.0f%% spread of the "
			 "runs"),
		       100 * (growth - 1), best->streams, b,
		       100 * (ps_step_spread(one) + ps_step_spread(best)) /
			       one->bps);
	else if (sw[n - 1]->bps <= one->bps / rules[R_SUM_STEADY].value)
		PS_SET(f->title,
		       _("Shared limit: the sum fell %.0f%% from 1 to %d "
			 "streams (%s at best, with one)"),
		       100 * (1 - sw[n - 1]->bps / one->bps),
		       sw[n - 1]->streams, b);
	else
		PS_SET(f->title,
		       _("Shared limit: the sum stays at %s from 1 to %d "
			 "streams (×%.2f)"),
		       b, sw[n - 1]->streams, growth);
	PS_APPEND(f->evidence,
		  _("; more streams do not add up, so all flows share one "
		    "limit: the link, a shaper, the PCIe link or a CPU"));
	if (qd[0])
		PS_APPEND(f->evidence, _("; qdisc on %s: %s%s"), ifn_or(ev), qd,
			  shaper_note(ev, qd, false, 0, note, sizeof(note)));
	if (ps_ev_line_bps(ev) > 0) {
		ps_fmt_bps(a, sizeof(a), ps_ev_line_bps(ev));
		PS_APPEND(f->evidence, _("; line rate %s (%.0f%% used)"), a,
			  100 * best->bps / ps_ev_line_bps(ev));
	} else if (ps_ev_virtual(ev)) {
		PS_APPEND(f->evidence, "%s",
			  _("; a virtual interface: its speed is no limit"));
	}
	if (best->have_cpu)
		PS_APPEND(f->evidence, _("; all cores averaged %.0f%% busy"),
			  best->cpu.all.busy_pct);
	ps_ev_far_placement(ev, f);
	if (shapes(ev, qd))
		PS_SET(f->remedy,
		       _("the %s qdisc on %s shapes the traffic: tc -s qdisc "
			 "show dev %s; raise its rate (tc qdisc change dev %s "
			 "...)"),
		       qd, ifn_or(ev), ifn_or(ev), ifn_or(ev));
	else
		PS_SET(f->remedy, "%s",
		       _("compare the plateau with the line rate, the PCIe "
			 "estimate and the busiest core; if none matches, the "
			 "limit is on the path or the far end (a shaper, a "
			 "policer, a congested link)"));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_fork = {
	.id = "stream_fork",
	.family = "path",
	.title = N_("the stream-count fork (per-flow or shared limit)"),
	.weight = 20,
	.needs_test = true,
	.effect = true,
	.eval = eval_fork,
};

/* ---- one direction slower than the other ------------------------------ */

static enum ps_check_state eval_direction(const struct ps_evidence *ev,
					  struct ps_finding *f)
{
	const struct ps_step_result *fwd = NULL, *rev = NULL;
	char a[32], b[32];
	double ratio;

	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];

		if (s->state != PS_STEP_DONE || s->bidir)
			continue;
		if (s->reverse)
			rev = s;
	}
	if (!rev) {
		PS_SET(f->evidence, "%s", _("no reverse test"));
		return PS_CHECK_NA;
	}
	/* the forward step with the same stream count */
	for (int i = 0; i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];

		if (s->state == PS_STEP_DONE && !s->reverse && !s->bidir &&
		    s->streams == rev->streams)
			fwd = s;
	}
	if (!fwd || fwd->bps <= 0 || rev->bps <= 0) {
		PS_SET(f->evidence, "%s", _("no forward test to compare with"));
		return PS_CHECK_NA;
	}
	ps_fmt_bps(a, sizeof(a), fwd->bps);
	ps_fmt_bps(b, sizeof(b), rev->bps);
	ratio = rev->bps / fwd->bps;
	ps_fact(f, "streams", rev->streams, "count");
	ps_fact(f, "sending_rate", fwd->bps, "bit/s");
	ps_fact(f, "receiving_rate", rev->bps, "bit/s");
	PS_SET(f->evidence,
	       P_("%d stream: %s this end sending, %s the far end sending",
		  "%d streams: %s this end sending, %s the far end sending",
		  rev->streams),
	       rev->streams, a, b);
	if (ratio < rules[R_ASYMMETRY].value &&
	    ratio > 1 / rules[R_ASYMMETRY].value)
		return PS_CHECK_CLEAR;
	if (!ps_step_differs(fwd, rev)) {
		PS_APPEND(f->evidence, "%s",
			  _("; the difference is within the spread of the "
			    "runs"));
		return PS_CHECK_CLEAR;
	}
	f->severity = PS_SEV_WARNING;
	ps_crossed(f, &rules[R_ASYMMETRY]);
	if (ratio >= rules[R_ASYMMETRY].value) {
		PS_SET(f->title,
		       _("Only this direction is slow: %s out, %s in (×%.1f)"),
		       a, b, ratio);
		PS_APPEND(f->evidence, "%s",
			  _("; the limit sits on the way out: this end's "
			    "sending side (qdisc, shaper, offloads, CPU) or "
			    "the path towards the far end"));
		PS_SET(f->remedy,
		       _("tc -s qdisc show dev %s; compare the senders: "
			 "pipescope -c HOST -R shows the other direction"),
		       ifn_or(ev));
	} else {
		PS_SET(f->title,
		       _("Only the reverse direction is slow: %s in, %s out "
			 "(×%.1f)"),
		       b, a, 1 / ratio);
		PS_APPEND(f->evidence, "%s",
			  _("; the limit sits on the way in: the far end's "
			    "sending side or the path towards this end"));
		PS_SET(f->remedy, "%s",
		       _("run pipescope check on the far end too (pipescope -s "
			 "here), and look at its qdisc, offloads and CPU"));
	}
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_direction = {
	.id = "direction_asymmetry",
	.family = "path",
	.title = N_("the two directions compared"),
	.weight = 18,
	.needs_test = true,
	.eval = eval_direction,
};

/* ---- both directions at once --------------------------------------- */

/* the shaper whose queue the bidir test filled: this end's root one, else
 * the first on either path that held a backlog; NULL when none did */
static const struct ps_step_qdisc *bidir_queue(const struct ps_step_result *bi,
					       const char **dev)
{
	if (bi->qdisc.have && bi->qdisc.shaper[0] &&
	    bi->qdisc.backlog_peak > 0) {
		*dev = NULL;
		return &bi->qdisc;
	}
	for (int i = 0; i < bi->nshapers; i++)
		if (bi->shapers[i].q.backlog_peak > 0) {
			*dev = bi->shapers[i].dev;
			return &bi->shapers[i].q;
		}
	return NULL;
}

/*
 * What the two directions share, from what the tests read: a queue (the
 * round trip grew, a shaper held a backlog), the cores (saturated only
 * together), a half-duplex link (ethtool says so), the PCIe link (a real
 * NIC has one); never a duplex or PCIe guess on a device with neither
 */
static void bidir_why(const struct ps_evidence *ev, struct ps_finding *f,
		      const struct ps_step_result *bi,
		      const struct ps_step_result *fwd,
		      const struct ps_step_result *rev)
{
	const struct ps_step_qdisc *q;
	const char *dev = NULL;
	bool told = false;

	/* each direction's senders against their own one-way test: this
	 * end's in the forward one, the far end's in the reverse one */
	for (int d = 0; d < 2 && !told; d++) {
		const struct ps_step_result *one = d ? rev : fwd;
		double a = one->rtt_dir_us[d], b = bi->rtt_dir_us[d];

		if (!(a > 0) || !(b >= rules[R_BIDIR_RTT].value * a) ||
		    b - a < 1000)
			continue;
		ps_crossed(f, &rules[R_BIDIR_RTT]);
		ps_fact(f, "rtt_alone", a, "us");
		ps_fact(f, "rtt_together", b, "us");
		PS_APPEND(
			f->evidence,
			d ? _("; the far end's senders' round trip grew from "
			      "%.2f ms alone to %.2f ms both at once: this "
			      "end's ACKs to them wait in a queue behind this "
			      "end's data")
			  : _("; this end's senders' round trip grew from "
			      "%.2f ms alone to %.2f ms both at once: the far "
			      "end's ACKs wait in a queue behind its data"),
			a / 1000, b / 1000);
		told = true;
	}
	/* a queue explains it when the round trip shows the wait */
	q = told ? bidir_queue(bi, &dev) : NULL;
	if (q) {
		char r[32], sz[32];

		ps_fmt_bps(r, sizeof(r), q->rate_bps);
		ps_fmt_bytes10(sz, sizeof(sz), q->backlog_peak);
		ps_fact(f, "queue_peak", q->backlog_peak, "bytes");
		PS_APPEND(f->evidence, _("; the %s on %s held up to %s queued"),
			  q->shaper, dev ? dev : ps_ev_ifname(ev), sz);
		if (q->rate_bps > 0)
			PS_APPEND(f->evidence,
				  _(" (%.1f ms of queue at its %s)"),
				  q->backlog_peak * 8 / q->rate_bps * 1000, r);
		PS_SET(f->remedy,
		       _("a shorter queue on that %s (tc qdisc change dev %s "
			 "... latency 5ms, or a smaller limit), so the ACKs of "
			 "one direction do not wait behind the other's data; "
			 "the rate it shapes to stays as configured"),
		       q->shaper, dev ? dev : ps_ev_ifname(ev));
		return;
	}
	if (bi->have_cpu && ps_cpu_saturated(&bi->cpu) &&
	    !(fwd->have_cpu && ps_cpu_saturated(&fwd->cpu)) &&
	    !(rev->have_cpu && ps_cpu_saturated(&rev->cpu))) {
		char b[160];

		ps_cpu_busiest_text(&bi->cpu, b, sizeof(b));
		PS_APPEND(f->evidence,
			  _("; a core saturated only with both directions at "
			    "once (%s): they share this host's CPUs"),
			  b);
		PS_SET(f->remedy, "%s",
		       _("spread the work over more cores (RSS/RPS, -A for "
			 "the test's threads), or a test host with more of "
			 "them"));
		return;
	}
	if (ev->eth && ev->eth->linkmodes.status == PS_ST_OK &&
	    ev->eth->linkmodes.duplex == 0 /* DUPLEX_HALF */ &&
	    !ps_ev_virtual(ev)) {
		PS_APPEND(f->evidence, _("; %s runs half duplex"),
			  ps_ev_ifname(ev));
		PS_SET(f->remedy,
		       _("full duplex on %s and its switch port (ethtool -s "
			 "%s duplex full, or autonegotiation on both sides)"),
		       ps_ev_ifname(ev), ps_ev_ifname(ev));
		return;
	}
	if (told) {
		PS_SET(f->remedy, "%s",
		       _("find the queue on the path (tc -s qdisc on each "
			 "hop, the switch's buffers): a shorter one, or one "
			 "that keeps the directions' packets apart"));
		return;
	}
	if (ev->pci && ev->pci->status == PS_ST_OK &&
	    ev->pci->link_status == PS_ST_OK && !ps_ev_virtual(ev)) {
		PS_APPEND(f->evidence, "%s",
			  _("; no queue, core or duplex reading explains it on "
			    "this host; the NIC's PCIe link carries both "
			    "directions"));
		PS_SET(f->remedy, "%s",
		       _("compare the PCIe link's width and speed with what "
			 "the NIC needs for both directions (lspci -vv), and "
			 "the far end's readings (pipescope -s there)"));
		return;
	}
	PS_APPEND(f->evidence, "%s",
		  _("; no queue, core or link reading of this host explains "
		    "it: what they share is beyond it"));
	PS_SET(f->remedy, "%s",
	       _("run pipescope -s on the far end (its cores and queues are "
		 "then read too), and look at the hops between the ends"));
}

static enum ps_check_state eval_bidir(const struct ps_evidence *ev,
				      struct ps_finding *f)
{
	const struct ps_step_result *bi = NULL, *fwd = NULL, *rev = NULL;
	char a[32], b[32], c[32], d[32];
	double alone, together;

	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];

		if (s->state == PS_STEP_DONE && s->bidir)
			bi = s;
	}
	if (!bi) {
		PS_SET(f->evidence, "%s", _("no test in both directions"));
		return PS_CHECK_NA;
	}
	for (int i = 0; i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];

		if (s->state != PS_STEP_DONE || s->bidir ||
		    s->streams != bi->streams)
			continue;
		if (s->reverse)
			rev = s;
		else
			fwd = s;
	}
	if (!fwd || !rev) {
		PS_SET(f->evidence, "%s",
		       _("no one-way tests with the same streams to compare"));
		return PS_CHECK_NA;
	}
	alone = fwd->bps + rev->bps;
	together = bi->bps + bi->bps_back;
	ps_fmt_bps(a, sizeof(a), fwd->bps);
	ps_fmt_bps(b, sizeof(b), rev->bps);
	ps_fmt_bps(c, sizeof(c), bi->bps);
	ps_fmt_bps(d, sizeof(d), bi->bps_back);
	ps_fact(f, "streams", bi->streams, "count");
	ps_fact(f, "out_alone", fwd->bps, "bit/s");
	ps_fact(f, "in_alone", rev->bps, "bit/s");
	ps_fact(f, "out_together", bi->bps, "bit/s");
	ps_fact(f, "in_together", bi->bps_back, "bit/s");
	PS_SET(f->evidence,
	       _("%d streams: one way at a time %s out and %s in; both at once "
		 "%s out and %s in (%.0f%% of the sum alone)"),
	       bi->streams, a, b, c, d, 100 * together / alone);
	if (together >= rules[R_BIDIR_TOGETHER].value * alone)
		return PS_CHECK_CLEAR;
	f->severity = PS_SEV_WARNING;
	ps_crossed(f, &rules[R_BIDIR_TOGETHER]);
	PS_SET(f->title,
	       _("Both directions at once share one limit: %.0f%% of what "
		 "they do alone"),
	       100 * together / alone);
	bidir_why(ev, f, bi, fwd, rev);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_bidir = {
	.id = "bidir_shared",
	.family = "path",
	.title = N_("both directions at once"),
	.weight = 17,
	.needs_test = true,
	.eval = eval_bidir,
};

/* ---- congestion control and qdisc ------------------------------------ */

/* the kernel release rel ("6.1.0-18-amd64") is before maj.min: 1, 0 when
 * not, -1 when it cannot be told */
static int kernel_before(const char *rel, int maj, int min)
{
	int a, b;

	if (!rel || sscanf(rel, "%d.%d", &a, &b) != 2 || a < 2 || a > 99 ||
	    b < 0 || b > 999)
		return -1;
	return a < maj || (a == maj && b < min);
}

/* a root qdisc the kernel puts there by itself, nobody's configuration */
static bool default_qdisc(const char *qd)
{
	static const char *const kinds[] = { "pfifo_fast", "mq",    "noqueue",
					     "fq_codel",   "pfifo", "noop" };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(qd, kinds[i]))
			return true;
	return false;
}

static enum ps_check_state eval_cc_qdisc(const struct ps_evidence *ev,
					 struct ps_finding *f)
{
	const char *cc = "", *qd = "", *dq = "";
	double line = ps_ev_line_bps(ev);
	struct ps_qdisc_shaper sh;
	int r;

	if (ev->res && ev->res->cc_local[0])
		cc = ev->res->cc_local;
	else if (ev->snap &&
		 ev->snap->sysctl.val[PS_SYSCTL_TCP_CC].status == PS_ST_OK)
		cc = ev->snap->sysctl.val[PS_SYSCTL_TCP_CC].text;
	if (ev->snap &&
	    ev->snap->sysctl.val[PS_SYSCTL_DEFAULT_QDISC].status == PS_ST_OK)
		dq = ev->snap->sysctl.val[PS_SYSCTL_DEFAULT_QDISC].text;
	if (ev->link && ev->link->status == PS_ST_OK)
		qd = ev->link->qdisc;
	if (!cc[0] && !qd[0]) {
		PS_SET(f->evidence, "%s",
		       _("neither the congestion control nor the qdisc is "
			 "known"));
		return PS_CHECK_NA;
	}
	PS_SET(f->evidence,
	       _("congestion control %s; qdisc on %s: %s; default_qdisc %s"),
	       cc[0] ? cc : "?", ifn_or(ev), qd[0] ? qd : "?",
	       dq[0] ? dq : "?");
	if (!strcmp(cc, "reno")) {
		f->severity = PS_SEV_WARNING;
		PS_SET(f->title, "%s",
		       _("Congestion control reno: slow to regrow after a "
			 "loss"));
		PS_SET(f->remedy, "%s",
		       _("sysctl -w net.ipv4.tcp_congestion_control=cubic (or "
			 "bbr: modprobe tcp_bbr, with the fq qdisc for "
			 "pacing)"));
		return PS_CHECK_FIRED;
	}
	r = shaper_read(ev, &sh);
	if (r > 0) {
		/* its rate is a ceiling of its own (check-shaper.c) */
		char rate[32];

		ps_fmt_bps(rate, sizeof(rate), sh.rate_bps);
		PS_APPEND(f->evidence, _("; %s %s sets %s (shaper_rate)"),
			  sh.q->kind,
			  sh.class ? sh.class->handle : sh.q->handle, rate);
	} else if (r < 0 && shaper(qd)) {
		f->id = "qdisc_shaper";
		f->severity = PS_SEV_INFO;
		PS_SET(f->title, _("A qdisc of a shaping kind (%s) sits on %s"),
		       qd, ifn_or(ev));
		PS_APPEND(f->evidence, "%s",
			  _(": its rate was not read (the qdiscs are not in "
			    "this snapshot); see the stream-count fork for "
			    "whether a limit binds"));
		PS_SET(f->remedy,
		       _("tc -s qdisc show dev %s; tc -s class show dev %s"),
		       ifn_or(ev), ifn_or(ev));
		return PS_CHECK_FIRED;
	}
	if (!strcmp(cc, "bbr") && qd[0] && strcmp(qd, "fq") &&
	    strcmp(dq, "fq")) {
		const char *kr = ev->snap ? ev->snap->hdr.kernel : "";
		int k = kernel_before(kr, 4, 13);

		/* TCP paces by itself since 4.13: nothing to fix there */
		if (k == 0) {
			PS_APPEND(f->evidence,
				  _("; bbr without fq: kernel %s paces TCP by "
				    "itself (since 4.13)"),
				  kr);
			return PS_CHECK_CLEAR;
		}
		f->severity = PS_SEV_INFO;
		PS_SET(f->title, "%s", _("bbr without the fq qdisc"));
		PS_APPEND(f->evidence,
			  k > 0 ? _("; kernel %s: before 4.13 bbr needs fq to "
				    "pace")
				: _("; kernel %s not known: before 4.13 bbr "
				    "needs fq to pace"),
			  kr[0] ? kr : "?");
		/* never a remedy that removes what the user configured:
		 * under a shaper (or any qdisc not a default one) fq goes
		 * beneath it, not in its place */
		if (r > 0)
			PS_SET(f->remedy,
			       _("put fq beneath the shaper, keeping it: tc "
				 "qdisc add dev %s parent %s fq (its leaf "
				 "class; tc -s class show dev %s)"),
			       ifn_or(ev),
			       sh.class ? sh.class->handle : sh.q->handle,
			       ifn_or(ev));
		else if (default_qdisc(qd))
			PS_SET(f->remedy,
			       _("tc qdisc replace dev %s root fq (or sysctl "
				 "-w net.core.default_qdisc=fq before the "
				 "interface comes up)"),
			       ifn_or(ev));
		else
			PS_SET(f->remedy,
			       _("%s on %s is a qdisc someone configured: "
				 "keep it, and put fq beneath it (tc qdisc add "
				 "dev %s parent HANDLE fq); tc -s qdisc show "
				 "dev %s"),
			       qd, ifn_or(ev), ifn_or(ev), ifn_or(ev));
		return PS_CHECK_FIRED;
	}
	if (line >= rules[R_FAST_LINE].value &&
	    (!strcmp(qd, "pfifo_fast") || !strcmp(qd, "noqueue"))) {
		f->severity = PS_SEV_INFO;
		ps_crossed(f, &rules[R_FAST_LINE]);
		PS_SET(f->title, _("No pacing qdisc on %s at %.0f Gbit/s"),
		       ifn_or(ev), line / 1e9);
		PS_APPEND(f->evidence, "%s",
			  _(": bursts from a fast sender can overrun a slower "
			    "receiver or switch port"));
		PS_SET(f->remedy,
		       _("sysctl -w net.core.default_qdisc=fq; tc qdisc "
			 "replace dev %s root fq"),
		       ifn_or(ev));
		return PS_CHECK_FIRED;
	}
	return PS_CHECK_CLEAR;
}

const struct ps_check_ops ps_check_cc_qdisc = {
	.id = "congestion_qdisc",
	.family = "path",
	.title = N_("congestion control and qdisc"),
	.weight = 25,
	.eval = eval_cc_qdisc,
};

/* ---- retransmissions ------------------------------------------------- */

/* the sending end's retransmit causes over the steps (its kernel's
 * counters: this end forward and in the self-test, the far end with -R) */
struct rtx_causes {
	bool have;
	int64_t timeouts, fast, probes, slow_start, spurious, dsack, reorder;
};

static void causes_add(struct rtx_causes *k, const struct ps_run *r,
		       const struct ps_step_result *s)
{
	const struct ps_netstat_counters *c = NULL;

	if (!s->reverse || r->loopback)
		c = s->have_netstat ? &s->netstat : NULL;
	else
		c = s->have_peer_netstat ? &s->peer_netstat : NULL;
	if (!c || s->bidir)
		return;
	k->have = true;
	k->timeouts += ps_grew(c->tcp_timeouts);
	k->fast += ps_grew(c->tcp_fast_retrans);
	k->probes += ps_grew(c->tcp_loss_probes);
	k->slow_start += ps_grew(c->tcp_slow_start_retrans);
	k->spurious += ps_grew(c->tcp_spurious_rtos);
	k->dsack += ps_grew(c->tcp_dsack_recv);
	k->reorder += ps_grew(c->tcp_sack_reorder);
}

/* loss repaired by retransmits: a warning from the rule's share on */
static enum ps_severity retrans_severity(struct ps_finding *f, double ratio)
{
	if (ratio < rules[R_RETRANS_WARNING].value)
		return PS_SEV_INFO;
	ps_crossed(f, &rules[R_RETRANS_WARNING]);
	return PS_SEV_WARNING;
}

static enum ps_check_state eval_retrans(const struct ps_evidence *ev,
					struct ps_finding *f)
{
	int64_t retrans = 0;
	double segs = 0;
	bool any = false, software, dropped = false;
	struct rtx_causes k = { 0 };
	char drops[400] = "";
	double ratio;

	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];

		if (s->state != PS_STEP_DONE || !s->have_tcpinfo)
			continue;
		any = true;
		retrans += s->retrans;
		segs += (double)s->bytes / (s->mss ? s->mss : 1448);
		causes_add(&k, ev->res, s);
		if (ps_step_drops_grew(s)) {
			dropped = true;
			if (!drops[0])
				ps_step_drops_text(s, drops, sizeof(drops));
		}
	}
	if (!any || segs <= 0) {
		PS_SET(f->evidence, "%s", _("no TCP_INFO from a test"));
		return PS_CHECK_NA;
	}
	ratio = retrans / segs;
	software = ps_ev_virtual(ev) || (ev->res && ev->res->loopback);
	ps_fact(f, "retransmits", (double)retrans, "count");
	ps_fact(f, "segments", segs, "count");
	ps_fact(f, "retransmit_share", ratio, "share");
	PS_SET(f->evidence,
	       _("%lld retransmissions in about %.0f segments (%.3f%%)"),
	       (long long)retrans, segs, 100 * ratio);
	if (k.have) {
		ps_fact(f, "tcp_timeouts", (double)k.timeouts, "count");
		ps_fact(f, "tcp_fast_retrans", (double)k.fast, "count");
		ps_fact(f, "tcp_loss_probes", (double)k.probes, "count");
		ps_fact(f, "tcp_spurious_rtos", (double)k.spurious, "count");
		ps_fact(f, "tcp_dsack_recv", (double)k.dsack, "count");
		ps_fact(f, "tcp_sack_reorder", (double)k.reorder, "count");
		PS_APPEND(f->evidence,
			  _("; the sender's kernel counted %lld timeouts, %lld "
			    "fast retransmits (%lld in slow start), %lld "
			    "tail-loss probes, %lld spurious timeouts, %lld "
			    "DSACKs and %lld reordering events"),
			  (long long)k.timeouts, (long long)k.fast,
			  (long long)k.slow_start, (long long)k.probes,
			  (long long)k.spurious, (long long)k.dsack,
			  (long long)k.reorder);
	}
	ps_fact(f, "drops_grew", dropped ? 1 : 0, "count");
	if (dropped)
		PS_APPEND(f->evidence, _("; drop counters that grew: %s"),
			  drops);
	if (ratio < rules[R_RETRANS_INFO].value)
		return PS_CHECK_CLEAR;
	ps_crossed(f, &rules[R_RETRANS_INFO]);
	if (dropped) {
		/* something dropped: the retransmits repair loss */
		f->severity = retrans_severity(f, ratio);
		PS_SET(f->title, _("Retransmissions (%.2f%%) repair drops: %s"),
		       100 * ratio, drops);
		PS_SET(f->remedy, "%s",
		       _("see the finding of the layer that dropped (socket "
			 "buffer, backlog, queue pruning); nstat -az "
			 "'*Drop*' '*Prune*' 'Udp*' on each end"));
		return PS_CHECK_FIRED;
	}
	/* nothing dropped, and the sender says its retransmits were
	 * undone (DSACK) or the segments only late (reordering) */
	if (software ||
	    (k.have && k.dsack + k.spurious + k.reorder > k.timeouts &&
	     k.dsack + k.spurious + k.reorder > 0)) {
		f->severity = PS_SEV_INFO;
		PS_SET(f->title,
		       _("Retransmissions (%.2f%%): reordering, not loss"),
		       100 * ratio);
		PS_APPEND(f->evidence, "%s",
			  software ? _("; no drop counter grew, and on "
				       "veth/loopback a sender that moves "
				       "between CPUs reorders packets: TCP "
				       "retransmits what was only late")
				   : _("; no drop counter grew, and the "
				       "receiver reported duplicates (DSACK) "
				       "and reordering: the segments were "
				       "late, not lost"));
		PS_SET(f->remedy, "%s",
		       software ? _("nothing to fix on the wire; pin the test "
				    "(-A) to see them go away")
				: _("a path that reorders (link aggregation, "
				    "multipath): sysctl -w "
				    "net.ipv4.tcp_reordering=10 tolerates "
				    "more"));
		return PS_CHECK_FIRED;
	}
	f->severity = retrans_severity(f, ratio);
	if (k.have && k.timeouts > k.fast)
		PS_SET(f->title,
		       _("Retransmissions: %.2f%% of segments, mostly after "
			 "timeouts (%lld)"),
		       100 * ratio, (long long)k.timeouts);
	else
		PS_SET(f->title, _("Retransmissions: %.2f%% of segments"),
		       100 * ratio);
	PS_SET(f->remedy,
	       _("look for drops: ip -s -s link show %s, ethtool -S %s | grep "
		 "-iE 'drop|miss|err', the switch port's counters"),
	       ifn_or(ev), ifn_or(ev));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_retrans = {
	.id = "retransmits",
	.family = "path",
	.title = N_("retransmissions"),
	.weight = 15,
	.needs_test = true,
	.eval = eval_retrans,
};
