/* step.c: one test summed into one step of a guided run, for "pipescope
 * check" and the workstation's live findings alike (step.h) */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "step-qdisc.h"
#include "step.h"
#include "xmalloc.h"

void ps_step_acc_reset(struct ps_step_acc *a)
{
	memset(a, 0, sizeof(*a));
}

static void add_tcpinfo(struct ps_step_acc *a, const struct ps_stream_iv *v,
			double len, int dir)
{
	if (!v->has_tcpinfo || !v->sender)
		return;
	a->n++;
	a->rtt += v->rtt_us;
	a->rtt_dir[dir] += v->rtt_us;
	a->n_dir[dir]++;
	if (v->min_rtt_us && (!a->min_rtt || v->min_rtt_us < a->min_rtt))
		a->min_rtt = v->min_rtt_us;
	a->cwnd += (double)v->cwnd;
	if (v->snd_wnd) {
		a->wnd += (double)v->snd_wnd;
		a->nwnd++;
		if (v->rtt_us > 0) {
			a->wnd_rate +=
				(double)v->snd_wnd * 8 / (v->rtt_us / 1e6);
			a->nwnd_rate++;
		}
	}
	a->ivlen += len;
	a->rwnd_us += (double)v->rwnd_limited_us;
	a->sndbuf_us += (double)v->sndbuf_limited_us;
	a->retrans += v->retrans;
	if (v->mss)
		a->mss = v->mss;
	if (v->pmtu)
		a->pmtu = v->pmtu;
}

void ps_step_acc_add(struct ps_step_acc *a, const struct ps_interval *iv)
{
	double len = iv->end - iv->start;

	if (iv->omitted)
		return;
	for (int i = 0; i < iv->nstreams; i++) {
		const struct ps_stream_iv *v = &iv->streams[i];

		add_tcpinfo(a, v, len, 0);
		ps_cpu_list_add(a->thread_cpu, &a->nthread, v->cpu);
		ps_cpu_list_add(a->rx_cpu, &a->nrx, v->rx_cpu);
	}
	for (int i = 0; i < iv->nremote; i++)
		add_tcpinfo(a, &iv->remote[i], len, 1);
}

static double share(double us, double seconds)
{
	double v = us / 1e6 / seconds;

	return v > 1 ? 1 : v;
}

void ps_step_acc_finish(const struct ps_step_acc *a, struct ps_step_result *s)
{
	if (a->n > 0) {
		s->have_tcpinfo = true;
		s->rtt_us = a->rtt / a->n;
		for (int d = 0; d < 2; d++)
			s->rtt_dir_us[d] =
				a->n_dir[d] ? a->rtt_dir[d] / a->n_dir[d] : 0;
		s->min_rtt_us = a->min_rtt;
		s->cwnd_bytes = a->cwnd / a->n;
		s->snd_wnd_bytes = a->nwnd ? a->wnd / a->nwnd : 0;
		s->wnd_rate_bps = a->nwnd_rate ? a->wnd_rate / a->nwnd_rate : 0;
		if (a->ivlen > 0) {
			s->rwnd_limited = share(a->rwnd_us, a->ivlen);
			s->sndbuf_limited = share(a->sndbuf_us, a->ivlen);
		}
		s->retrans = a->retrans;
		s->mss = a->mss;
		s->pmtu = a->pmtu;
	}
	for (int i = 0; i < a->nthread; i++)
		ps_step_add_cpu(s, false, a->thread_cpu[i]);
	for (int i = 0; i < a->nrx; i++)
		ps_step_add_cpu(s, true, a->rx_cpu[i]);
}

void ps_step_set_irq(struct ps_step_result *s, const struct ps_irq_info *b)
{
	s->have_irq = true;
	s->irq_lines = b->queues_with_irqs;
	s->irq_rate = 0;
	for (int i = 0; i < b->nlines; i++)
		s->irq_rate += b->lines[i].total_rate;
	s->irq_busiest_cpu =
		b->busiest_cpu >= 0 ? b->cpus[b->busiest_cpu].cpu : -1;
	s->irq_busiest_share = b->busiest_share;
	s->softnet_drop_rate = b->dropped_rate_total;
	s->squeeze_rate = b->squeeze_rate_total;
	ps_step_irq_matrix(s, b);
}

void ps_step_set_nic(struct ps_step_result *s, const struct ps_nic_rates *r)
{
	if (!r->rated)
		return;
	s->have_nicstats = true;
	s->nic_nrxq = (int)r->nq[PS_NIC_RX];
	s->nic_ntxq = (int)r->nq[PS_NIC_TX];
	for (int q = 0; q < PS_STEP_MAX_QUEUES; q++) {
		s->nic_rxq_pps[q] = q < s->nic_nrxq && r->pps[PS_NIC_RX][q] >= 0
					    ? r->pps[PS_NIC_RX][q]
					    : NAN;
		s->nic_txq_pps[q] = q < s->nic_ntxq && r->pps[PS_NIC_TX][q] >= 0
					    ? r->pps[PS_NIC_TX][q]
					    : NAN;
	}
	memcpy(s->nic_drops, r->drops, sizeof(s->nic_drops));
	s->nic_pause_rx = r->pause[PS_NIC_RX];
	s->nic_pause_tx = r->pause[PS_NIC_TX];
}

double ps_step_nic_drops(const struct ps_step_result *s)
{
	double sum = NAN;

	for (int k = 0; s->have_nicstats && k < PS_NIC_NDROP; k++)
		if (isfinite(s->nic_drops[PS_NIC_RX][k]))
			sum = (isnan(sum) ? 0 : sum) +
			      s->nic_drops[PS_NIC_RX][k];
	return sum;
}

void ps_step_set_netstat(struct ps_step_result *s,
			 const struct ps_netstat_info *a,
			 const struct ps_netstat_info *b)
{
	if (a->status != PS_ST_OK || b->status != PS_ST_OK)
		return;
	ps_netstat_diff(&a->c, &b->c, &s->netstat);
	s->have_netstat = true;
}

/* ---- the far end ------------------------------------------------------ */

void ps_step_peer_add(struct ps_step_peer *p, const struct ps_snapshot *snap)
{
	const struct ps_cpu_info *cpu;

	if (!snap || snap->hdr.time_ns == p->time)
		return;
	p->time = snap->hdr.time_ns;
	ps_step_peer_netstat(p, snap, false);
	cpu = &snap->cpu;
	if (cpu->status != PS_ST_OK || cpu->ncores <= 0 ||
	    !cpu->cores[0].pct_valid)
		return;
	if (!p->pct) {
		p->ncores = cpu->ncores;
		p->pct = xcalloc((size_t)cpu->ncores, sizeof(*p->pct));
		p->ids = xcalloc((size_t)cpu->ncores, sizeof(int));
		for (int i = 0; i < cpu->ncores; i++)
			p->ids[i] = cpu->cores[i].id;
	}
	if (cpu->ncores != p->ncores)
		return; /* a core went offline mid-step: keep the first set */
	for (int i = 0; i < cpu->ncores; i++) {
		for (int f = 0; f < PS_CPU_NFIELDS; f++)
			p->pct[i][f] += cpu->cores[i].pct[f];
		p->pct[i][PS_CPU_NFIELDS] += cpu->cores[i].busy_pct;
	}
	p->n++;
}

void ps_step_peer_netstat(struct ps_step_peer *p,
			  const struct ps_snapshot *snap, bool base)
{
	const struct ps_netstat_info *ns = snap ? &snap->netstat : NULL;

	if (!ns || ns->status != PS_ST_OK)
		return;
	if (base || !p->have_ns0) {
		p->ns0 = ns->c;
		p->ns0_time = snap->hdr.time_ns;
		p->have_ns0 = true;
		p->have_ns1 = false;
		if (base)
			return;
	}
	if (snap->hdr.time_ns < p->ns1_time)
		return; /* an older reading than the one kept */
	p->ns1 = ns->c;
	p->ns1_time = snap->hdr.time_ns;
	p->have_ns1 = true;
}

void ps_step_peer_finish(const struct ps_step_peer *p, struct ps_step_result *s)
{
	int best = 0;
	double all = 0, span;

	/* its counters' delta, from two different readings its clock puts
	 * no further apart than the step allows; a counter that grew faster
	 * than any host counts is not known */
	span = (double)(p->ns1_time - p->ns0_time) / 1e9;
	if (p->have_ns0 && p->have_ns1 && p->ns1_time > p->ns0_time &&
	    span <= PS_PEER_SPAN_MAX(s->seconds)) {
		ps_netstat_diff(&p->ns0, &p->ns1, &s->peer_netstat);
		ps_netstat_bound(
			&s->peer_netstat,
			(int64_t)(PS_MAX_PPS * PS_PEER_SPAN_MAX(s->seconds)));
		s->peer_netstat_s = span;
		s->have_peer_netstat = true;
	}
	if (!p->n)
		return;
	for (int i = 0; i < p->ncores; i++) {
		all += p->pct[i][PS_CPU_NFIELDS];
		if (p->pct[i][PS_CPU_NFIELDS] > p->pct[best][PS_CPU_NFIELDS])
			best = i;
	}
	s->have_peer_cpu = true;
	s->peer_ncores = p->ncores;
	s->peer_core = p->ids[best];
	s->peer_busy = p->pct[best][PS_CPU_NFIELDS] / p->n;
	s->peer_softirq = p->pct[best][PS_CPU_SOFTIRQ] / p->n;
	s->peer_irq = p->pct[best][PS_CPU_IRQ] / p->n;
	s->peer_system = p->pct[best][PS_CPU_SYSTEM] / p->n;
	s->peer_user =
		(p->pct[best][PS_CPU_USER] + p->pct[best][PS_CPU_NICE]) / p->n;
	s->peer_others = p->ncores > 1 ? (all - p->pct[best][PS_CPU_NFIELDS]) /
						 p->n / (p->ncores - 1)
				       : 0;
}

void ps_step_peer_free(struct ps_step_peer *p)
{
	free(p->pct);
	free(p->ids);
	memset(p, 0, sizeof(*p));
}

/* ---- for the pictures: the rate over time, the interrupt heatmap ------ */

/* two points v[0] and v[1], a and b seconds long, as one: time-weighted */
static float merged(const float *v, double a, double b)
{
	return a + b > 0 ? (float)((v[0] * a + v[1] * b) / (a + b)) : v[0];
}

void ps_step_add_rate(struct ps_step_result *s, const struct ps_interval *iv)
{
	double bps = 0, back = 0;
	int n;

	if (iv->omitted || !(iv->end > iv->start) || !isfinite(iv->start) ||
	    !isfinite(iv->end))
		return;
	for (int i = 0; i < iv->nstreams; i++) {
		const struct ps_stream_iv *v = &iv->streams[i];

		/* the direction the step's rate counts: what this end sent,
		 * what it received in a reverse test */
		if (!isfinite(v->bps))
			continue;
		if ((s->reverse && !s->bidir) != v->sender)
			bps += v->bps;
		else if (s->bidir)
			back += v->bps;
	}
	if (s->nrate == PS_STEP_MAX_RATES) {
		/* full: every two points become one, time-weighted */
		n = 0;
		for (int i = 0; i + 1 < PS_STEP_MAX_RATES; i += 2, n++) {
			double a = s->rate_t1[i] - s->rate_t0[i];
			double b = s->rate_t1[i + 1] - s->rate_t0[i + 1];

			s->rate_bps[n] = merged(s->rate_bps + i, a, b);
			s->rate_back_bps[n] =
				merged(s->rate_back_bps + i, a, b);
			s->rate_t0[n] = s->rate_t0[i];
			s->rate_t1[n] = s->rate_t1[i + 1];
		}
		s->nrate = n;
	}
	n = s->nrate++;
	s->rate_t0[n] = (float)iv->start;
	s->rate_t1[n] = (float)iv->end;
	s->rate_bps[n] = (float)(bps < FLT_MAX ? bps : FLT_MAX);
	s->rate_back_bps[n] = (float)(back < FLT_MAX ? back : FLT_MAX);
}

static bool cpu_takes_queue_irqs(const struct ps_irq_info *b, int cpu)
{
	for (int i = 0; i < b->nlines; i++)
		if (b->lines[i].kind[0] && b->lines[i].rate &&
		    b->lines[i].rate[cpu] > 0)
			return true;
	return false;
}

void ps_step_irq_matrix(struct ps_step_result *s, const struct ps_irq_info *b)
{
	s->irqm_lines = s->irqm_cpus = 0;
	if (!b->rated || b->ncpu <= 0)
		return;
	/* the columns: every CPU when they fit, else the ones that took
	 * queue interrupts */
	for (int c = 0; c < b->ncpu && s->irqm_cpus < PS_STEP_IRQ_CPUS; c++)
		if (b->ncpu <= PS_STEP_IRQ_CPUS || cpu_takes_queue_irqs(b, c))
			s->irqm_cpu[s->irqm_cpus++] = c;
	for (int i = 0; i < b->nlines && s->irqm_lines < PS_STEP_IRQ_LINES;
	     i++) {
		const struct ps_irq_line *l = &b->lines[i];
		int r = s->irqm_lines;

		if (!l->kind[0] || !l->rate)
			continue;
		if (l->queue >= 0)
			snprintf(s->irqm_name[r], sizeof(s->irqm_name[r]),
				 "%s-%d", l->kind, l->queue);
		else
			snprintf(s->irqm_name[r], sizeof(s->irqm_name[r]),
				 "irq %d", l->irq);
		for (int c = 0; c < s->irqm_cpus; c++) {
			double v = l->rate[s->irqm_cpu[c]];

			s->irqm_rate[r][c] =
				isfinite(v) && v > 0 ? (float)v : 0;
		}
		s->irqm_lines++;
	}
}
