/* step-qdisc.c: the qdisc counters of one test summed into its step */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "step-qdisc.h"

void ps_step_qdisc_reset(struct ps_step_qdisc_acc *a)
{
	memset(a, 0, sizeof(*a));
}

/* the shaper's queue: the tbf's own limit, or the leaf qdisc of the htb
 * class */
static void shaper_conf(const struct ps_qdisc_info *q, struct ps_step_qdisc *c)
{
	struct ps_qdisc_shaper sh;
	const struct ps_qdisc_entry *e;

	c->limit_bytes = c->limit_packets = c->burst_bytes = -1;
	if (!ps_qdisc_shaper(q, &sh))
		return;
	e = sh.class ? sh.class : sh.q;
	snprintf(c->shaper, sizeof(c->shaper), "%s", sh.q->kind);
	snprintf(c->handle, sizeof(c->handle), "%s", e->handle);
	c->rate_bps = sh.rate_bps;
	c->per_class = sh.per_class;
	c->burst_bytes = e->burst_bytes;
	c->limit_bytes = e->limit_bytes;
	c->limit_packets = e->limit_packets;
	for (unsigned k = 0; sh.class && k < q->n; k++)
		if (q->q[k].pid == sh.class->hid) {
			c->limit_bytes = q->q[k].limit_bytes;
			c->limit_packets = q->q[k].limit_packets;
			snprintf(c->leaf, sizeof(c->leaf), "%s", q->q[k].kind);
			snprintf(c->leaf_handle, sizeof(c->leaf_handle), "%s",
				 q->q[k].handle);
		}
}

void ps_step_qdisc_add(struct ps_step_qdisc_acc *a,
		       const struct ps_qdisc_info *q, double t)
{
	const struct ps_qdisc_entry *r = ps_qdisc_root(q);
	double b;

	if (!r || (a->n && t <= a->t1)) /* the same snapshot again */
		return;
	if (a->n && (r->hid != a->first.hid || strcmp(r->kind, a->first.kind)))
		return;
	if (!a->n) {
		a->first = *r;
		a->t0 = t;
	}
	a->last = *r;
	a->t1 = t;
	a->n++;
	b = (double)r->backlog_bytes;
	a->backlog_sum += b;
	if (b > a->backlog_peak)
		a->backlog_peak = b;
	memset(&a->conf, 0, sizeof(a->conf));
	snprintf(a->conf.kind, sizeof(a->conf.kind), "%s", r->kind);
	shaper_conf(q, &a->conf);
}

static uint64_t grew(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0; /* a reset counts nothing */
}

void ps_step_qdisc_finish(const struct ps_step_qdisc_acc *a,
			  struct ps_step_qdisc *out)
{
	double dt = a->t1 - a->t0;

	memset(out, 0, sizeof(*out));
	out->limit_bytes = out->limit_packets = out->burst_bytes = -1;
	if (a->n < 2 || dt <= 0)
		return;
	*out = a->conf;
	out->have = true;
	out->seconds = dt;
	out->samples = a->n;
	out->drops = grew(a->first.drops, a->last.drops);
	out->overlimits = grew(a->first.overlimits, a->last.overlimits);
	out->requeues = grew(a->first.requeues, a->last.requeues);
	out->sent_bps = 8.0 * (double)grew(a->first.bytes, a->last.bytes) / dt;
	out->drop_rate = (double)out->drops / dt;
	out->overlimit_rate = (double)out->overlimits / dt;
	out->backlog_peak = a->backlog_peak;
	out->backlog_mean = a->backlog_sum / a->n;
}

bool ps_step_qdisc_bound(struct ps_step_qdisc *q, double seconds)
{
	if (!q->have)
		return true;
	if (q->seconds <= PS_PEER_SPAN_MAX(seconds) &&
	    q->sent_bps <= PS_MAX_BPS && q->drop_rate <= PS_MAX_PPS &&
	    q->overlimit_rate <= PS_MAX_PPS &&
	    (double)q->requeues <= PS_MAX_PPS * q->seconds &&
	    q->backlog_peak <= (double)UINT32_MAX)
		return true;
	q->have = false;
	return false;
}

/* ---- the shapers of a path ---------------------------------------------- */

void ps_step_path_reset(struct ps_step_path_acc *a)
{
	memset(a, 0, sizeof(*a));
}

void ps_step_path_add(struct ps_step_path_acc *a, const struct ps_path_info *p,
		      double t)
{
	if (!p || p->status != PS_ST_OK)
		return; /* not read this time: nothing said about any */
	for (int k = 0; k < a->n; k++) {
		const struct ps_path_dev *d = ps_path_find(p, a->d[k].dev);

		if (!d || d->status != PS_ST_OK || d->qdisc.status != PS_ST_OK)
			a->d[k].gone = true;
	}
	for (unsigned i = 0; i < p->n; i++) {
		const struct ps_path_dev *d = &p->dev[i];
		struct ps_qdisc_shaper sh;
		int k;

		if (d->status != PS_ST_OK)
			continue;
		for (k = 0; k < a->n; k++)
			if (!strcmp(a->d[k].dev, d->name))
				break;
		if (k == a->n) {
			if (a->n >= PS_STEP_PATH_DEVS ||
			    !ps_qdisc_shaper(&d->qdisc, &sh))
				continue;
			memset(&a->d[k], 0, sizeof(a->d[k]));
			snprintf(a->d[k].dev, sizeof(a->d[k].dev), "%s",
				 d->name);
			snprintf(a->d[k].via, sizeof(a->d[k].via), "%s",
				 d->via);
			a->d[k].role = (int)d->role;
			a->d[k].direction = (int)ps_path_direction(p, i);
			ps_path_place(p, i, a->d[k].place,
				      sizeof(a->d[k].place));
			a->n++;
		}
		if (!a->d[k].gone)
			ps_step_qdisc_add(&a->d[k].acc, &d->qdisc, t);
	}
}

void ps_step_path_finish(const struct ps_step_path_acc *a, bool far,
			 struct ps_step_result *st)
{
	for (int k = 0; k < a->n && st->nshapers < PS_STEP_MAX_SHAPERS; k++) {
		struct ps_step_shaper *o = &st->shapers[st->nshapers];

		memset(o, 0, sizeof(*o));
		ps_step_qdisc_finish(&a->d[k].acc, &o->q);
		if (far)
			ps_step_qdisc_bound(&o->q, st->seconds);
		if (!o->q.have && !a->d[k].gone)
			continue;
		o->far = far;
		snprintf(o->dev, sizeof(o->dev), "%s", a->d[k].dev);
		snprintf(o->via, sizeof(o->via), "%s", a->d[k].via);
		snprintf(o->place, sizeof(o->place), "%s", a->d[k].place);
		o->role = a->d[k].role;
		o->direction = a->d[k].direction;
		o->gone = a->d[k].gone;
		st->nshapers++;
	}
}
