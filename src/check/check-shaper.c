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
enum { R_BINDS, R_MIN_DROPS, R_CARRIED };
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
	[R_CARRIED] = {
		.name = "shaper_carried_min",
		.value = 0.3,
		.unit = "share",
		.why = N_("a shaper whose device sent less than this share of "
			  "a test's bytes is off that traffic's path (a bridge "
			  "port toward another host, another class)"),
	},
};
PS_RULE_FAMILY(shaper, rules);
#define BINDS (rules[R_BINDS].value)
#define MIN_DROPS (rules[R_MIN_DROPS].value)
#define OFF_PATH (rules[R_CARRIED].value)

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

/* the drops and overlimits of a step on device dev as evidence */
static void counters_text(struct ps_finding *f, const struct ps_step_qdisc *q,
			  const char *dev)
{
	char a[32];

	if (!q || !q->have)
		return;
	PS_APPEND(f->evidence,
		  _("; during the test the root qdisc of %s dropped %llu "
		    "packets (%.0f/s), overlimits %llu (%.0f/s), requeues "
		    "%llu"),
		  dev, (unsigned long long)q->drops, q->drop_rate,
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

/* ---- the shapers of one end's path -------------------------------------- */

/* a shaper on a device of one end's path and the direction of the test it
 * caps */
struct end_shaper {
	struct ps_qdisc_shaper sh;
	char dev[IF_NAMESIZE];
	char place[96];	  /* "ingress of veth1, redirected to ifb0" */
	bool ingress;	  /* it shapes what its end receives (an ifb) */
	bool routed;	  /* the routed interface (step: qdisc, peer_qdisc) */
	bool guessed;	  /* a bridge port that may not be the peer's */
	enum ps_dir caps; /* out: what this end sends; in: what it receives */
};

/* the direction of the test a shaper caps: this end's egress and the far
 * end's ingress cap what this end sends */
static enum ps_dir caps_of(bool far, bool ingress)
{
	return far != ingress ? PS_DIR_IN : PS_DIR_OUT;
}

/* every shaper of the path of snapshot s (far: the far end's), or of its
 * routed interface alone when the path was not read; count */
static int end_shapers(const struct ps_snapshot *s, bool far,
		       struct end_shaper *out, int max)
{
	const struct ps_path_info *p = &s->path;
	int n = 0;

	if (p->status == PS_ST_OK && p->n > 0 && p->dev) {
		for (unsigned i = 0; i < p->n && n < max; i++) {
			const struct ps_path_dev *d = &p->dev[i];
			/* the routed interface: the qdisc probe's reading */
			const struct ps_qdisc_info *q =
				i == 0 && s->qdisc.status == PS_ST_OK
					? &s->qdisc
					: &d->qdisc;
			struct end_shaper *e = &out[n];

			if (d->status != PS_ST_OK || q->status != PS_ST_OK ||
			    !ps_qdisc_shaper(q, &e->sh) ||
			    !(e->sh.rate_bps > 0))
				continue;
			ps_path_clean_name(e->dev, d->name);
			ps_path_place(p, i, e->place, sizeof(e->place));
			e->ingress = ps_path_direction(p, i) == PS_PATH_INGRESS;
			e->routed = i == 0;
			e->guessed =
				p->ports_guessed && d->role == PS_PATH_PORT;
			e->caps = caps_of(far, e->ingress);
			n++;
		}
		return n;
	}
	if (max > 0 && s->qdisc.status == PS_ST_OK &&
	    ps_qdisc_shaper(&s->qdisc, &out[0].sh) && out[0].sh.rate_bps > 0) {
		snprintf(out[0].dev, sizeof(out[0].dev), "%s", ifn(s));
		snprintf(out[0].place, sizeof(out[0].place), "%s", ifn(s));
		out[0].ingress = false;
		out[0].routed = true;
		out[0].guessed = false;
		out[0].caps = caps_of(far, false);
		n = 1;
	}
	return n;
}

/* what the step counted on that shaper's device (NULL: not read), and
 * whether the device went away during the step */
static const struct ps_step_qdisc *step_counters(const struct ps_step_result *s,
						 bool far,
						 const struct end_shaper *e,
						 bool *gone)
{
	const struct ps_step_qdisc *q;

	*gone = false;
	if (!s)
		return NULL;
	for (int k = 0; k < s->nshapers && k < PS_STEP_MAX_SHAPERS; k++)
		if (s->shapers[k].far == far &&
		    !strcmp(s->shapers[k].dev, e->dev)) {
			*gone = s->shapers[k].gone;
			return s->shapers[k].q.have ? &s->shapers[k].q : NULL;
		}
	if (!e->routed)
		return NULL;
	q = far ? &s->peer_qdisc : &s->qdisc;
	return q->have ? q : NULL;
}

/* the finished one-way step of direction d with the highest rate, or NULL */
static const struct ps_step_result *best_of_dir(const struct ps_run *r,
						enum ps_dir d)
{
	const struct ps_step_result *best = NULL;

	for (int i = 0; r && i < r->nsteps; i++) {
		const struct ps_step_result *s = &r->steps[i];

		if (s->state == PS_STEP_DONE && ps_step_dir(s) == d &&
		    (!best || s->bps > best->bps))
			best = s;
	}
	return best;
}

/* the share of the step's rate the shaper's device carried (its root
 * qdisc's bytes over the step), or NAN when not counted */
static double carried(const struct ps_step_result *s,
		      const struct ps_step_qdisc *q)
{
	if (!s || !q || q->samples < 2 || !(q->seconds > 0) || !(s->bps > 0))
		return NAN;
	return q->sent_bps / s->bps;
}

/* a shaper the step's traffic cannot have crossed: the step measured more
 * than its rate, or its device carried little of the step's bytes */
static bool off_path(const struct ps_step_result *s, bool far,
		     const struct end_shaper *e)
{
	bool gone;
	const struct ps_step_qdisc *q = step_counters(s, far, e, &gone);
	double c = carried(s, q);

	if (s && s->bps > (2 - BINDS) * e->sh.rate_bps)
		return true;
	return isfinite(c) && c < OFF_PATH;
}

/* the shaper of one end's path that bounds direction d: the lowest rate of
 * those capping d that the step's traffic crossed (else the lowest of
 * those capping d, off its path); NULL none caps d */
static const struct end_shaper *pick(const struct end_shaper *v, int n,
				     enum ps_dir d,
				     const struct ps_step_result *s, bool far,
				     bool *on_path)
{
	const struct end_shaper *best = NULL, *any = NULL;

	for (int i = 0; i < n; i++) {
		if (v[i].caps != d)
			continue;
		if (!any || v[i].sh.rate_bps < any->sh.rate_bps)
			any = &v[i];
		if (!off_path(s, far, &v[i]) &&
		    (!best || v[i].sh.rate_bps < best->sh.rate_bps))
			best = &v[i];
	}
	*on_path = best != NULL;
	return best ? best : any;
}

/* "the forward direction (this end sending)" */
static const char *dir_text(enum ps_dir d)
{
	return d == PS_DIR_IN ? _("the reverse direction (the far end sending)")
			      : _("the forward direction (this end sending)");
}

static bool read_ok(const struct ps_snapshot *s, struct ps_finding *f)
{
	if (!s)
		return false;
	if (s->qdisc.status == PS_ST_OK ||
	    (s->path.status == PS_ST_OK && s->path.n > 0))
		return true;
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
	if (s->path.status == PS_ST_OK && s->path.n > 1)
		PS_APPEND(f->evidence,
			  _("; nor on the %u other device(s) of its path"),
			  s->path.n - 1);
}

/* a remedy's command, for the far end's operator when it is about the far
 * end */
static void set_remedy(struct ps_finding *f, bool far, const char *who,
		       const char *cmd)
{
	if (far)
		PS_SET(f->remedy, _("on the far end (%s): %s"), who, cmd);
	else
		PS_SET(f->remedy, "%s", cmd);
}

/* the remedy: raise the rate where it is set (never remove what the user
 * configured), on the far end for its operator */
static void shaper_remedy(struct ps_finding *f, const struct end_shaper *e,
			  bool far, const char *who)
{
	char cmd[300];

	if (e->sh.per_class)
		snprintf(cmd, sizeof(cmd),
			 _("raise the class's rate and ceil: tc class change "
			   "dev %s classid %s htb rate RATE ceil RATE (tc -s "
			   "class show dev %s)"),
			 e->dev, e->sh.class->handle, e->dev);
	else
		snprintf(cmd, sizeof(cmd),
			 _("raise its rate: tc qdisc change dev %s handle %s "
			   "tbf rate RATE burst BYTES limit BYTES (tc -s qdisc "
			   "show dev %s)"),
			 e->dev, e->sh.q->handle, e->dev);
	set_remedy(f, far, who, cmd);
}

/* shaper_rate (this end's path) and far_shaper (the far end's): the
 * lowest shaper of that end's path on the direction judged, as the ceiling
 * of that direction; one that caps the other direction only as a warning
 * about that one */
static enum ps_check_state eval_end(const struct ps_evidence *ev,
				    struct ps_finding *f, bool far)
{
	const struct ps_snapshot *sn = far ? ev->peer : ev->snap;
	const char *who =
		far && sn && sn->hdr.hostname[0] ? sn->hdr.hostname : "?";
	struct end_shaper v[PS_PATH_MAX];
	const struct end_shaper *e;
	const struct ps_step_result *s = ev->res ? ps_run_best(ev->res) : NULL;
	enum ps_dir dj = s	   ? ps_step_dir(s)
			 : ev->res ? ev->res->dir
				   : PS_DIR_OUT;
	bool on_path, other = false, gone;
	const struct ps_step_qdisc *q;
	char name[48], rate[32], got[32], wt[160];
	double share = 0, c;
	int n;

	f->far = far;
	if (!sn) {
		PS_SET(f->evidence, "%s",
		       far ? _("no snapshot of the far end (it is not a "
			       "pipescope server)")
			   : _("no snapshot"));
		return PS_CHECK_NA;
	}
	if (!read_ok(sn, f))
		return PS_CHECK_NA;
	n = end_shapers(sn, far, v, PS_PATH_MAX);
	if (n == 0) {
		no_shaper(sn, f);
		if (far)
			PS_APPEND(f->evidence, "%s", _(" (the far end)"));
		return PS_CHECK_CLEAR;
	}
	if (dj == PS_DIR_BOTH)
		dj = PS_DIR_OUT;
	e = pick(v, n, dj, s, far, &on_path);
	if (!e) {
		/* it caps the other direction: said about that one, as its
		 * best test saw it, never as this direction's ceiling */
		other = true;
		dj = dj == PS_DIR_IN ? PS_DIR_OUT : PS_DIR_IN;
		s = best_of_dir(ev->res, dj);
		e = pick(v, n, dj, s, far, &on_path);
	}
	shaper_name(&e->sh, name, sizeof(name));
	ps_fmt_bps(rate, sizeof(rate), e->sh.rate_bps);
	/* where, opening the title */
	if (far)
		snprintf(wt, sizeof(wt), _("The far end's %s (%s, %s)"), name,
			 who, e->place);
	else
		snprintf(wt, sizeof(wt), _("%s on %s"), name, e->place);
	ps_fact(f, "shaper_rate", e->sh.rate_bps, "bit/s");
	f->scope = PS_SCOPE_SHARED;
	if (e->sh.per_class)
		PS_SET(f->evidence,
		       _("%s, the default class of the htb on %s, may send at "
			 "most %s (its ceil, or a lower one above it): every "
			 "flow that no filter sends elsewhere shares it"),
		       name, e->place, rate);
	else
		PS_SET(f->evidence,
		       _("%s on %s sends at most %s: one rate shared by every "
			 "flow (tbf has no classes)"),
		       name, e->place, rate);
	PS_APPEND(f->evidence, _("; it caps %s"), dir_text(dj));
	if (far)
		PS_APPEND(f->evidence, _(" (on the far end, %s)"), who);
	if (e->guessed)
		PS_APPEND(f->evidence, "%s",
			  _(" (the bridge port toward the peer could not be "
			    "told: this is one of its ports that are up)"));
	q = step_counters(s, far, e, &gone);
	queue_text(f, q, &e->sh);
	if (s) {
		ps_fmt_bps(got, sizeof(got), s->bps);
		share = s->bps / e->sh.rate_bps;
		ps_fact(f, "measured_rate", s->bps, "bit/s");
		ps_fact(f, "share_of_rate", share, "share");
		PS_APPEND(f->evidence,
			  _("; %d stream(s) measured %s (%.0f%% of the rate)"),
			  s->streams, got, 100 * share);
		counters_text(f, q, e->dev);
		c = carried(s, q);
		if (isfinite(c))
			ps_fact(f, "carried_share", c, "share");
		if (gone)
			PS_APPEND(f->evidence,
				  _("; %s went away during the test: its "
				    "figures up to then"),
				  e->dev);
	}
	shaper_remedy(f, e, far, who);
	if (!s) {
		/* no test of that direction: what it will cap */
		f->severity = other || far ? PS_SEV_INFO : PS_SEV_WARNING;
		PS_SET(f->title, _("%s shapes %s to %s"), wt, dir_text(dj),
		       rate);
	} else if (!on_path) {
		f->severity = PS_SEV_INFO;
		PS_SET(f->title,
		       _("%s sets %s, but %s measured %s: this traffic does "
			 "not cross it (another class, or a device off the "
			 "path)"),
		       wt, rate, dir_text(dj), got);
	} else if (share >= BINDS) {
		ps_crossed(f, &rules[R_BINDS]);
		f->severity = other ? PS_SEV_WARNING : PS_SEV_BOTTLENECK;
		PS_SET(f->title, _("%s caps %s at %s (measured %s)"), wt,
		       dir_text(dj), rate, got);
	} else {
		f->severity = PS_SEV_INFO;
		PS_SET(f->title,
		       _("%s sets %s, above %s's %s: it does not bind"), wt,
		       rate, dir_text(dj), got);
	}
	/* the ceiling of the direction judged, when its traffic crossed it
	 * (without a test: what it will cap) */
	if (!other && on_path)
		f->ceiling_bps = e->sh.rate_bps;
	if (far)
		PS_SET(f->ceiling_what, _("rate of %s on the far end's %s"),
		       name, e->place);
	else if (e->sh.per_class)
		PS_SET(f->ceiling_what, _("ceil of %s on %s (the default)"),
		       name, e->place);
	else
		PS_SET(f->ceiling_what, _("rate of %s on %s"), name, e->place);
	return PS_CHECK_FIRED;
}

static enum ps_check_state eval_shaper(const struct ps_evidence *ev,
				       struct ps_finding *f)
{
	return eval_end(ev, f, false);
}

const struct ps_check_ops ps_check_shaper = {
	.id = "shaper_rate",
	.family = "path",
	.title = N_("a shaper on this end's path (tbf, htb; egress or "
		    "ingress through an ifb)"),
	.weight = 85,
	.eval = eval_shaper,
};

/* ---- a queue too short for the rate ----------------------------------- */

/* a shaper's counters over a step, on either end's path */
struct step_q {
	const struct ps_step_result *s;
	const struct ps_step_qdisc *q;
	bool far;
	char dev[IF_NAMESIZE];
	char place[96];
};

/* the shapers of step s that cap its own direction (the routed interface's
 * root qdisc when that end's path listed none): at most max into out */
static int step_shapers(const struct ps_evidence *ev,
			const struct ps_step_result *s, struct step_q *out,
			int max)
{
	enum ps_dir d = ps_step_dir(s);
	bool listed[2] = { false, false };
	int n = 0;

	for (int k = 0; k < s->nshapers && k < PS_STEP_MAX_SHAPERS; k++) {
		const struct ps_step_shaper *x = &s->shapers[k];

		listed[x->far] = true;
		if (n >= max || !x->q.have ||
		    caps_of(x->far, x->direction == PS_PATH_INGRESS) != d)
			continue;
		out[n] = (struct step_q){ .s = s, .q = &x->q, .far = x->far };
		ps_path_clean_name(out[n].dev, x->dev);
		snprintf(out[n].place, sizeof(out[n].place), "%s", x->place);
		n++;
	}
	for (int far = 0; far < 2; far++) {
		const struct ps_step_qdisc *q =
			far ? &s->peer_qdisc : &s->qdisc;
		const struct ps_snapshot *sn = far ? ev->peer : ev->snap;

		if (listed[far] || n >= max || !q->have ||
		    caps_of(far, false) != d)
			continue;
		out[n] = (struct step_q){ .s = s, .q = q, .far = far };
		snprintf(out[n].dev, sizeof(out[n].dev), "%s", ifn(sn));
		snprintf(out[n].place, sizeof(out[n].place), "%s", ifn(sn));
		n++;
	}
	return n;
}

static enum ps_check_state eval_queue(const struct ps_evidence *ev,
				      struct ps_finding *f)
{
	bool any = false;
	struct step_q v[PS_STEP_MAX_SHAPERS + 2], w = { 0 };
	const struct ps_snapshot *sn;
	const struct ps_step_result *s;
	const struct ps_step_qdisc *q;
	struct ps_qdisc_shaper sh = { 0 };
	struct ps_qdisc_entry e;
	char name[48], rate[32], got[32], lim[64] = "", cmd[400];
	const char *who;
	int64_t want;

	/* the step and shaper that dropped most while the sum stayed below
	 * its rate, among the steps of the direction judged */
	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *x = &ev->res->steps[i];
		int n;

		if (x->bidir || !ps_step_counts(ev->res, x))
			continue;
		n = step_shapers(ev, x, v, (int)(sizeof(v) / sizeof(v[0])));
		for (int k = 0; k < n; k++) {
			any = true;
			if (v[k].q->rate_bps <= 0 ||
			    (double)v[k].q->drops < MIN_DROPS ||
			    x->bps >= BINDS * v[k].q->rate_bps)
				continue;
			if (!w.q || v[k].q->drops > w.q->drops)
				w = v[k];
		}
	}
	if (!any) {
		PS_SET(f->evidence, "%s",
		       _("no test of the direction judged read a shaper's "
			 "counters on its path"));
		return PS_CHECK_NA;
	}
	if (!w.q) {
		PS_SET(f->evidence, "%s",
		       _("no shaper dropped packets while the rate stayed "
			 "below its own"));
		return PS_CHECK_CLEAR;
	}
	s = w.s;
	q = w.q;
	f->far = w.far;
	sn = w.far ? ev->peer : ev->snap;
	who = sn && sn->hdr.hostname[0] ? sn->hdr.hostname : "?";
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
	       w.place);
	if (w.far)
		PS_SET(f->title,
		       _("The queue of the far end's %s (%s, %s) is too short "
			 "for its rate: %llu drops at %s, below its %s"),
		       name, who, w.place, (unsigned long long)q->drops, got,
		       rate);
	else
		PS_SET(f->title,
		       _("The queue of %s on %s is too short for its rate: "
			 "%llu drops at %s, below its %s"),
		       name, w.place, (unsigned long long)q->drops, got, rate);
	PS_SET(f->evidence,
	       _("%d stream(s) reached %s (%.0f%% of the configured %s) while "
		 "the shaper dropped: each drop makes TCP back off before the "
		 "rate is reached"),
	       s->streams, got, 100 * s->bps / q->rate_bps, rate);
	queue_text(f, q, &sh);
	counters_text(f, q, w.dev);
	ps_fact(f, "measured_rate", s->bps, "bit/s");
	ps_fact(f, "shaper_rate", q->rate_bps, "bit/s");
	/* room for 20 ms at the rate, at least four times what it has */
	want = (int64_t)(q->rate_bps / 8 * 0.020);
	if (q->limit_bytes > 0 && want < 4 * q->limit_bytes)
		want = 4 * q->limit_bytes;
	if (want < 65536)
		want = 65536;
	/* never a remedy that removes what the user configured: a leaf
	 * qdisc someone put under the class is changed in place, not
	 * replaced; without one, "add" replaces only the class's built-in
	 * default queue (and refuses where a configured one sits) */
	if (q->per_class && q->leaf[0] &&
	    (!strcmp(q->leaf, "pfifo") || !strcmp(q->leaf, "bfifo")))
		snprintf(cmd, sizeof(cmd),
			 _("lengthen the class's own %s, keeping it: tc qdisc "
			   "change dev %s handle %s %s limit %lld, or more "
			   "burst: tc class change dev %s classid %s htb ... "
			   "burst BYTES"),
			 q->leaf, w.dev, q->leaf_handle, q->leaf,
			 (long long)(!strcmp(q->leaf, "bfifo")
					     ? want
					     : (want / 1500 > 100 ? want / 1500
								  : 100)),
			 w.dev, q->handle);
	else if (q->per_class && q->leaf[0])
		snprintf(cmd, sizeof(cmd),
			 _("the class's %s %s is configured: keep it and "
			   "raise its own limit (tc qdisc change dev %s handle "
			   "%s %s limit ...), or give the class more burst: tc "
			   "class change dev %s classid %s htb ... burst "
			   "BYTES"),
			 q->leaf, q->leaf_handle, w.dev, q->leaf_handle,
			 q->leaf, w.dev, q->handle);
	else if (q->per_class)
		snprintf(cmd, sizeof(cmd),
			 _("give the class a longer queue: tc qdisc add dev %s "
			   "parent %s pfifo limit %lld (packets; it takes the "
			   "place of the class's built-in default queue), or "
			   "more burst: tc class change dev %s classid %s htb "
			   "... burst BYTES"),
			 w.dev, q->handle,
			 (long long)(want / 1500 > 100 ? want / 1500 : 100),
			 w.dev, q->handle);
	else {
		snprintf(lim, sizeof(lim), "%lld", (long long)want);
		snprintf(cmd, sizeof(cmd),
			 _("lengthen its queue: tc qdisc change dev %s handle "
			   "%s tbf rate %.0fbit burst %lld limit %s (about 20 "
			   "ms at the rate)"),
			 w.dev, q->handle, q->rate_bps,
			 (long long)(q->burst_bytes > 0 ? q->burst_bytes
							: 65536),
			 lim);
	}
	set_remedy(f, w.far, who, cmd);
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

static enum ps_check_state eval_far(const struct ps_evidence *ev,
				    struct ps_finding *f)
{
	return eval_end(ev, f, true);
}

const struct ps_check_ops ps_check_far_shaper = {
	.id = "far_shaper",
	.family = "path",
	.title = N_("a shaper on the far end's path (a pipescope server's)"),
	.weight = 84,
	.needs_test = true,
	.eval = eval_far,
};
