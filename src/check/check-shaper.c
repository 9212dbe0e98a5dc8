/* check-shaper.c: a shaper's configured rate as a ceiling (shared for tbf,
 * per class for htb), its drops and overlimits during the tests as the
 * evidence, a queue too short for the rate, and a shaper on the far end's
 * egress seen in the reverse test */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "nls.h"
#include "probe-qdisc.h"

/* the thresholds of the shaper checks ("pipescope check --rules") */
enum { R_BINDS, R_MIN_DROPS };
static const struct ps_rule rules[] = {
	[R_BINDS] = {
		.name = "shaper_binds",
		.value = 0.85,
		.unit = "share",
		.why = N_("a rate at least this share of a shaper's is the "
			  "shaper binding; below it, its drops mean a queue "
			  "too short"),
	},
	[R_MIN_DROPS] = {
		.name = "shaper_min_drops",
		.value = 10,
		.unit = "count",
		.why = N_("a shaper dropping at least this many packets in a "
			  "test below its rate has a queue too short; fewer "
			  "are noise"),
	},
};
PS_RULE_FAMILY(shaper, rules);
#define BINDS (rules[R_BINDS].value)
#define MIN_DROPS (rules[R_MIN_DROPS].value)

static const char *ifn(const struct ps_snapshot *s)
{
	return s && s->hdr.iface.name[0] ? s->hdr.iface.name : "?";
}

/* "tbf 8001:" or "htb class 1:20" */
static void shaper_name(const struct ps_qdisc_shaper *sh, char *buf, size_t len)
{
	if (sh->class)
		snprintf(buf, len, _("htb class %s"), sh->class->handle);
	else
		snprintf(buf, len, "%s %s", sh->q->kind, sh->q->handle);
}

/* the queue of the shaper as text and facts: "limit 30 KB, burst 8 KB" */
static void queue_text(struct ps_finding *f, const struct ps_step_qdisc *q,
		       const struct ps_qdisc_shaper *sh)
{
	const struct ps_qdisc_entry *e = sh->class ? sh->class : sh->q;
	int64_t lb = q ? q->limit_bytes : e->limit_bytes;
	int64_t lp = q ? q->limit_packets : e->limit_packets;
	int64_t bb = q ? q->burst_bytes : e->burst_bytes;
	char a[32];

	if (lb > 0) {
		ps_fmt_bytes10(a, sizeof(a), (double)lb);
		PS_APPEND(f->evidence, _("; queue limit %s"), a);
		ps_fact(f, "limit_bytes", (double)lb, "bytes");
		if (sh->rate_bps > 0) {
			double ms = (double)lb * 8 / sh->rate_bps * 1e3;

			PS_APPEND(f->evidence, _(" (%.1f ms at the rate)"), ms);
			ps_fact(f, "queue_ms", ms, "ms");
		}
	} else if (lp > 0) {
		PS_APPEND(f->evidence, _("; queue limit %lld packets"),
			  (long long)lp);
		ps_fact(f, "limit_packets", (double)lp, "count");
	}
	if (bb > 0) {
		ps_fmt_bytes10(a, sizeof(a), (double)bb);
		PS_APPEND(f->evidence, _(", burst %s"), a);
		ps_fact(f, "burst_bytes", (double)bb, "bytes");
	}
}

/* the drops and overlimits of a step as evidence */
static void counters_text(struct ps_finding *f, const struct ps_step_qdisc *q,
			  const char *prefix)
{
	char a[32];

	if (!q || !q->have)
		return;
	PS_APPEND(f->evidence,
		  _("; %sduring the test the root qdisc dropped %llu packets "
		    "(%.0f/s), overlimits %llu (%.0f/s), requeues %llu"),
		  prefix, (unsigned long long)q->drops, q->drop_rate,
		  (unsigned long long)q->overlimits, q->overlimit_rate,
		  (unsigned long long)q->requeues);
	if (q->backlog_peak > 0) {
		ps_fmt_bytes10(a, sizeof(a), q->backlog_peak);
		PS_APPEND(f->evidence, _(", backlog up to %s"), a);
	}
	ps_fact(f, "qdisc_drops", (double)q->drops, "count");
	ps_fact(f, "qdisc_drop_rate", q->drop_rate, "1/s");
	ps_fact(f, "qdisc_overlimits", (double)q->overlimits, "count");
	ps_fact(f, "qdisc_overlimit_rate", q->overlimit_rate, "1/s");
	ps_fact(f, "qdisc_backlog_peak", q->backlog_peak, "bytes");
}

/* the forward step with the highest rate that read the qdiscs, or NULL */
static const struct ps_step_result *best_fwd(const struct ps_run *r)
{
	const struct ps_step_result *best = NULL;

	for (int i = 0; r && i < r->nsteps; i++) {
		const struct ps_step_result *s = &r->steps[i];

		if (s->state != PS_STEP_DONE || s->reverse || s->bidir ||
		    !ps_step_counts(r, s))
			continue;
		if (!best || s->bps > best->bps)
			best = s;
	}
	return best;
}

static bool read_ok(const struct ps_snapshot *s, struct ps_finding *f)
{
	if (!s || s->qdisc.status == PS_ST_OK)
		return s != NULL;
	PS_SET(f->evidence, _("the qdiscs of %s were not read: %s"), ifn(s),
	       s->qdisc.reason[0] ? s->qdisc.reason
				  : ps_status_text(s->qdisc.status));
	return false;
}

static void no_shaper(const struct ps_snapshot *s, struct ps_finding *f)
{
	const struct ps_qdisc_entry *root = ps_qdisc_root(&s->qdisc);

	PS_SET(f->evidence,
	       _("root qdisc of %s: %s; no tbf, and no htb with a default "
		 "class: nothing sets a rate"),
	       ifn(s), root ? root->kind : "?");
}

/* ---- the shaper's rate ------------------------------------------------ */

static enum ps_check_state eval_shaper(const struct ps_evidence *ev,
				       struct ps_finding *f)
{
	const struct ps_step_result *s = best_fwd(ev->res);
	struct ps_qdisc_shaper sh;
	char name[48], rate[32], got[32];
	double share = 0;

	if (!read_ok(ev->snap, f)) {
		if (!ev->snap)
			PS_SET(f->evidence, "%s", _("no snapshot"));
		return PS_CHECK_NA;
	}
	if (!ps_qdisc_shaper(&ev->snap->qdisc, &sh)) {
		no_shaper(ev->snap, f);
		return PS_CHECK_CLEAR;
	}
	shaper_name(&sh, name, sizeof(name));
	ps_fmt_bps(rate, sizeof(rate), sh.rate_bps);
	if (ev->res && ev->res->dir == PS_DIR_IN) {
		/* an egress shaper of this end caps what it sends only */
		PS_SET(f->evidence,
		       _("%s on %s (%s) shapes what this end sends, not the "
			 "direction judged here (the far end sending)"),
		       name, ifn(ev->snap), rate);
		return PS_CHECK_CLEAR;
	}
	f->scope = PS_SCOPE_SHARED;
	f->ceiling_bps = sh.rate_bps;
	if (sh.per_class)
		PS_SET(f->ceiling_what, _("ceil of %s on %s (the default)"),
		       name, ifn(ev->snap));
	else
		PS_SET(f->ceiling_what, _("rate of %s on %s"), name,
		       ifn(ev->snap));
	ps_fact(f, "shaper_rate", sh.rate_bps, "bit/s");
	if (sh.per_class)
		PS_SET(f->evidence,
		       _("%s, the default class of the htb on %s, may send at "
			 "most %s (its ceil, or a lower one above it): every "
			 "flow that no filter sends elsewhere shares it"),
		       name, ifn(ev->snap), rate);
	else
		PS_SET(f->evidence,
		       _("%s on %s sends at most %s: one rate shared by every "
			 "flow (tbf has no classes)"),
		       name, ifn(ev->snap), rate);
	queue_text(f, s && s->qdisc.have ? &s->qdisc : NULL, &sh);
	if (s) {
		ps_fmt_bps(got, sizeof(got), s->bps);
		share = s->bps / sh.rate_bps;
		ps_fact(f, "measured_rate", s->bps, "bit/s");
		ps_fact(f, "share_of_rate", share, "share");
		PS_APPEND(f->evidence,
			  _("; %d stream(s) measured %s (%.0f%% of the rate)"),
			  s->streams, got, 100 * share);
		counters_text(f, &s->qdisc, "");
	}
	if (!s) {
		f->severity = PS_SEV_WARNING;
		PS_SET(f->title, _("%s on %s shapes the traffic to %s"), name,
		       ifn(ev->snap), rate);
	} else if (share >= BINDS) {
		f->severity = PS_SEV_BOTTLENECK;
		ps_crossed(f, &rules[R_BINDS]);
		PS_SET(f->title,
		       _("%s on %s caps the rate at %s (measured %s)"), name,
		       ifn(ev->snap), rate, got);
	} else {
		f->severity = PS_SEV_INFO;
		PS_SET(f->title,
		       _("%s on %s sets %s, above the measured %s: it does not "
			 "bind"),
		       name, ifn(ev->snap), rate, got);
	}
	if (sh.per_class)
		PS_SET(f->remedy,
		       _("raise the class's rate and ceil: tc class change dev "
			 "%s classid %s htb rate RATE ceil RATE (tc -s class "
			 "show dev %s)"),
		       ifn(ev->snap), sh.class->handle, ifn(ev->snap));
	else
		PS_SET(f->remedy,
		       _("raise its rate: tc qdisc change dev %s handle %s tbf "
			 "rate RATE burst BYTES limit BYTES, or remove it: tc "
			 "qdisc del dev %s %s"),
		       ifn(ev->snap), sh.q->handle, ifn(ev->snap),
		       sh.q->pid == PS_QDISC_ROOT ? "root" : sh.q->handle);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_shaper = {
	.id = "shaper_rate",
	.family = "path",
	.title = N_("a shaper's configured rate (tbf, htb)"),
	.weight = 85,
	.eval = eval_shaper,
};

/* ---- a queue too short for the rate ----------------------------------- */

/* the step whose shaper dropped most while the sum stayed below its rate */
static const struct ps_step_result *short_queue_step(const struct ps_run *r,
						     bool far, bool *any)
{
	const struct ps_step_result *worst = NULL;

	for (int i = 0; r && i < r->nsteps; i++) {
		const struct ps_step_result *s = &r->steps[i];
		const struct ps_step_qdisc *q =
			far ? &s->peer_qdisc : &s->qdisc;

		if (s->state != PS_STEP_DONE || !q->have || s->bidir ||
		    s->reverse != far)
			continue;
		*any = true;
		if (q->rate_bps <= 0 || (double)q->drops < MIN_DROPS ||
		    s->bps >= BINDS * q->rate_bps)
			continue;
		if (!worst || q->drops > (far ? worst->peer_qdisc.drops
					      : worst->qdisc.drops))
			worst = s;
	}
	return worst;
}

static enum ps_check_state eval_queue(const struct ps_evidence *ev,
				      struct ps_finding *f)
{
	bool any = false;
	const struct ps_step_result *s = short_queue_step(ev->res, false, &any);
	struct ps_qdisc_shaper sh = { 0 };
	struct ps_qdisc_entry e;
	const struct ps_step_qdisc *q;
	char name[48], rate[32], got[32], lim[64] = "";
	int64_t want;

	if (!any || (ev->res && ev->res->dir == PS_DIR_IN)) {
		PS_SET(f->evidence, "%s",
		       any ? _("this end's qdiscs shape what it sends, not the "
			       "direction judged here")
			   : _("no test read this end's qdiscs"));
		return PS_CHECK_NA;
	}
	if (!s) {
		PS_SET(f->evidence, "%s",
		       _("no shaper dropped packets while the rate stayed "
			 "below its own"));
		return PS_CHECK_CLEAR;
	}
	q = &s->qdisc;
	/* the shaper as the step saw it (the snapshot may be older) */
	memset(&e, 0, sizeof(e));
	snprintf(e.kind, sizeof(e.kind), "%s", q->shaper);
	snprintf(e.handle, sizeof(e.handle), "%s", q->handle);
	sh.q = &e;
	sh.rate_bps = q->rate_bps;
	sh.per_class = q->per_class;
	if (q->per_class)
		snprintf(name, sizeof(name), _("htb class %s"), q->handle);
	else
		snprintf(name, sizeof(name), "%s %s", q->shaper, q->handle);
	ps_fmt_bps(rate, sizeof(rate), q->rate_bps);
	ps_fmt_bps(got, sizeof(got), s->bps);
	f->severity = PS_SEV_BOTTLENECK;
	ps_crossed(f, &rules[R_MIN_DROPS]);
	f->scope = PS_SCOPE_SHARED;
	f->ceiling_bps = s->bps;
	f->ceiling_measured = true;
	PS_SET(f->ceiling_what, _("the short queue of %s on %s"), name,
	       ifn(ev->snap));
	PS_SET(f->title,
	       _("The queue of %s on %s is too short for its rate: %llu drops "
		 "at %s, below its %s"),
	       name, ifn(ev->snap), (unsigned long long)q->drops, got, rate);
	PS_SET(f->evidence,
	       _("%d stream(s) reached %s (%.0f%% of the configured %s) while "
		 "the shaper dropped: each drop makes TCP back off before the "
		 "rate is reached"),
	       s->streams, got, 100 * s->bps / q->rate_bps, rate);
	queue_text(f, q, &sh);
	counters_text(f, q, "");
	ps_fact(f, "measured_rate", s->bps, "bit/s");
	ps_fact(f, "shaper_rate", q->rate_bps, "bit/s");
	/* room for 20 ms at the rate, at least four times what it has */
	want = (int64_t)(q->rate_bps / 8 * 0.020);
	if (q->limit_bytes > 0 && want < 4 * q->limit_bytes)
		want = 4 * q->limit_bytes;
	if (want < 65536)
		want = 65536;
	if (q->per_class)
		PS_SET(f->remedy,
		       _("give the class a longer queue: tc qdisc replace dev "
			 "%s parent %s pfifo limit %lld (packets), or more "
			 "burst: tc class change dev %s classid %s htb ... "
			 "burst BYTES"),
		       ifn(ev->snap), q->handle,
		       (long long)(want / 1500 > 100 ? want / 1500 : 100),
		       ifn(ev->snap), q->handle);
	else {
		snprintf(lim, sizeof(lim), "%lld", (long long)want);
		PS_SET(f->remedy,
		       _("lengthen its queue: tc qdisc change dev %s handle %s "
			 "tbf rate %.0fbit burst %lld limit %s (about 20 ms at "
			 "the rate)"),
		       ifn(ev->snap), q->handle, q->rate_bps,
		       (long long)(q->burst_bytes > 0 ? q->burst_bytes : 65536),
		       lim);
	}
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_short_queue = {
	.id = "shaper_queue_short",
	.family = "path",
	.title = N_("a shaper's queue too short for its rate"),
	.weight = 90,
	.needs_test = true,
	.eval = eval_queue,
};

/* ---- the far end's shaper --------------------------------------------- */

/* the reverse step with the highest rate, or NULL */
static const struct ps_step_result *best_rev(const struct ps_run *r)
{
	const struct ps_step_result *best = NULL;

	for (int i = 0; r && i < r->nsteps; i++) {
		const struct ps_step_result *s = &r->steps[i];

		if (s->state == PS_STEP_DONE && s->reverse && !s->bidir &&
		    (!best || s->bps > best->bps))
			best = s;
	}
	return best;
}

static enum ps_check_state eval_far(const struct ps_evidence *ev,
				    struct ps_finding *f)
{
	const struct ps_snapshot *p = ev->peer;
	const struct ps_step_result *s = best_rev(ev->res);
	const char *who = p && p->hdr.hostname[0] ? p->hdr.hostname : "?";
	struct ps_qdisc_shaper sh;
	char name[48], rate[32], got[32];
	double share;

	/* about the far end, whatever it finds there */
	f->far = true;
	if (!p) {
		PS_SET(f->evidence, "%s",
		       _("no snapshot of the far end (it is not a pipescope "
			 "server)"));
		return PS_CHECK_NA;
	}
	if (!read_ok(p, f))
		return PS_CHECK_NA;
	if (!ps_qdisc_shaper(&p->qdisc, &sh)) {
		no_shaper(p, f);
		PS_APPEND(f->evidence, "%s", _(" (the far end)"));
		return PS_CHECK_CLEAR;
	}
	shaper_name(&sh, name, sizeof(name));
	ps_fmt_bps(rate, sizeof(rate), sh.rate_bps);
	ps_fact(f, "shaper_rate", sh.rate_bps, "bit/s");
	f->scope = PS_SCOPE_SHARED;
	PS_SET(f->evidence,
	       _("the far end (%s) shapes its egress with %s on %s at %s: it "
		 "caps what it sends, the reverse direction"),
	       who, name, ifn(p), rate);
	queue_text(f, s && s->peer_qdisc.have ? &s->peer_qdisc : NULL, &sh);
	if (!s) {
		f->severity = PS_SEV_INFO;
		PS_SET(f->title,
		       _("The far end (%s) shapes its egress: %s on %s at %s"),
		       who, name, ifn(p), rate);
	} else {
		share = s->bps / sh.rate_bps;
		ps_fmt_bps(got, sizeof(got), s->bps);
		ps_fact(f, "measured_rate", s->bps, "bit/s");
		ps_fact(f, "share_of_rate", share, "share");
		PS_APPEND(f->evidence,
			  _("; the reverse test measured %s (%.0f%% of the "
			    "rate)"),
			  got, 100 * share);
		counters_text(f, &s->peer_qdisc, _("on the far end "));
		if (share >= BINDS) {
			ps_crossed(f, &rules[R_BINDS]);
			f->severity = ps_step_counts(ev->res, s)
					      ? PS_SEV_BOTTLENECK
					      : PS_SEV_WARNING;
			PS_SET(f->title,
			       _("The far end's %s (%s, %s) caps the reverse "
				 "direction at %s (measured %s)"),
			       name, who, ifn(p), rate, got);
		} else if (s->peer_qdisc.have &&
			   (double)s->peer_qdisc.drops >= MIN_DROPS) {
			f->severity = PS_SEV_WARNING;
			ps_crossed(f, &rules[R_MIN_DROPS]);
			PS_SET(f->title,
			       _("The far end's %s (%s, %s) dropped %llu "
				 "packets in the reverse test at %s, below its "
				 "%s: its queue is too short"),
			       name, who, ifn(p),
			       (unsigned long long)s->peer_qdisc.drops, got,
			       rate);
		} else {
			f->severity = PS_SEV_INFO;
			PS_SET(f->title,
			       _("The far end's %s (%s, %s) sets %s, above the "
				 "reverse test's %s"),
			       name, who, ifn(p), rate, got);
		}
		/* it is the measured rate's ceiling only when the reverse
		 * test is what was measured */
		if (ps_step_counts(ev->res, s))
			f->ceiling_bps = sh.rate_bps;
	}
	PS_SET(f->ceiling_what, _("rate of %s on the far end's %s"), name,
	       ifn(p));
	PS_SET(f->remedy,
	       _("on the far end (%s): tc -s qdisc show dev %s; raise the "
		 "rate of %s or remove it (tc qdisc del dev %s root)"),
	       who, ifn(p), name, ifn(p));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_far_shaper = {
	.id = "far_shaper",
	.family = "path",
	.title = N_("a shaper on the far end's egress"),
	.weight = 84,
	.needs_test = true,
	.eval = eval_far,
};
