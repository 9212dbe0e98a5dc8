/* report-check.c: what "pipescope check" prints: the answer (measured rate,
 * binding ceiling, the next one), the steps of the guided run, the ranked
 * findings with evidence and remedy, and what was ruled out; as text, as
 * markdown for a ticket, or as the JSON document of doc/check.md */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "answer.h"
#include "jsonutil.h"
#include "nls.h"
#include "sanitize.h"
#include "report-check.h"
#include "report-html.h"
#include "step.h"

const char *ps_check_report_mode(const struct ps_check_report *r)
{
	if (!r->ev->res)
		return "static";
	if (r->ev->res->loopback)
		return "loopback";
	return "remote";
}

static void step_title(const struct ps_step_result *s, char *buf, size_t len)
{
	if (s->bidir)
		snprintf(buf, len,
			 P_("both directions, %d stream each",
			    "both directions, %d streams each", s->streams),
			 s->streams);
	else if (s->reverse)
		snprintf(buf, len,
			 P_("reverse, %d stream", "reverse, %d streams",
			    s->streams),
			 s->streams);
	else
		snprintf(buf, len, P_("%d stream", "%d streams", s->streams),
			 s->streams);
}

void ps_check_step_title(const struct ps_step_result *s, char *buf, size_t len)
{
	step_title(s, buf, len);
}

static const char *const step_state_names[] = {
	[PS_STEP_PENDING] = "pending",
	[PS_STEP_DONE] = "done",
	[PS_STEP_SKIPPED] = "skipped",
	[PS_STEP_FAILED] = "failed",
	NULL,
};

static const char *step_state_name(enum ps_step_state st)
{
	return (unsigned)st <= PS_STEP_FAILED ? step_state_names[st]
					      : "pending";
}

static const char *state_name(enum ps_check_state st)
{
	return st == PS_CHECK_FIRED   ? "fired"
	       : st == PS_CHECK_CLEAR ? "clear"
				      : "not_checked";
}

/* the busiest core of a step: "cpu1 98%" */
static void step_core(const struct ps_step_result *s, char *buf, size_t len,
		      int *id, double *busy)
{
	int k = ps_step_test_core(s, NULL);

	*buf = 0;
	*id = -1;
	*busy = 0;
	if (k < 0)
		return;
	*id = s->cpu.cores[k].id;
	*busy = s->cpu.cores[k].busy_pct;
	snprintf(buf, len, "cpu%d %.0f%%", *id, *busy);
}

/* ---- JSON ------------------------------------------------------------ */

/* a step: its JSON (and loader) from tables (doc/check.md) */

#define S struct ps_step_result
#define Q struct ps_step_qdisc
#define K struct ps_cpu_core

/* a number to a thousandth, left out when not known (NaN) */
#define NUM(T, m, k)                                                           \
	{                                                                      \
		.key = (k), .type = PS_JT_DOUBLE,                              \
		.flags = PS_JF_ROUND | PS_JF_NA, .decimals = 3,                \
		.off = offsetof(T, m), .size = PS_JSIZE(T, m)                  \
	}
#define INT(T, m, k) PS_JFIELD(T, m, k, PS_JT_INT, 0, NULL, NULL)
#define UINT(T, m, k) PS_JFIELD(T, m, k, PS_JT_UINT, 0, NULL, NULL)
#define BOOL(T, m, k) PS_JFIELD(T, m, k, PS_JT_BOOL, 0, NULL, NULL)
#define STR(T, m, k, fl) PS_JFIELD(T, m, k, PS_JT_STRING, fl, NULL, NULL)

static bool q_shaper(const void *base)
{
	return ((const Q *)base)->shaper[0];
}

/* the root qdisc over a step, and its shaper */
static const struct ps_jfield step_qdisc_shaper[] = {
	STR(Q, shaper, "shaper", 0),
	STR(Q, handle, "handle", 0),
	NUM(Q, rate_bps, "rate_bps"),
	BOOL(Q, per_class, "per_class"),
	STR(Q, leaf, "leaf", PS_JF_NA),
	STR(Q, leaf_handle, "leaf_handle", PS_JF_NA),
	PS_JFIELD(Q, limit_bytes, "limit_bytes", PS_JT_INT, PS_JF_NA, NULL,
		  NULL),
	PS_JFIELD(Q, limit_packets, "limit_packets", PS_JT_INT, PS_JF_NA, NULL,
		  NULL),
	PS_JFIELD(Q, burst_bytes, "burst_bytes", PS_JT_INT, PS_JF_NA, NULL,
		  NULL),
	PS_JEND
};

static const struct ps_jfield step_qdisc_table[] = {
	STR(Q, kind, "kind", 0),
	{ .type = PS_JT_OBJECT,
	  .flags = PS_JF_INLINE,
	  .sub = step_qdisc_shaper,
	  .when = q_shaper },
	NUM(Q, seconds, "seconds"),
	UINT(Q, drops, "drops"),
	UINT(Q, overlimits, "overlimits"),
	UINT(Q, requeues, "requeues"),
	NUM(Q, sent_bps, "sent_bps"),
	NUM(Q, drop_rate, "drop_rate"),
	NUM(Q, overlimit_rate, "overlimit_rate"),
	NUM(Q, backlog_peak, "backlog_peak"),
	NUM(Q, backlog_mean, "backlog_mean"),
	PS_JEND
};

/* "drops_per_s": {"rx_missed": n, ...}, the classes the driver reports */
static void nic_drops_put(struct json_object *obj, const struct ps_jfield *f,
			  const void *base)
{
	const S *s = base;
	struct json_object *d = json_object_new_object();

	for (int dir = 0; dir < PS_NIC_NDIR; dir++)
		for (int k = 0; k < PS_NIC_NDROP; k++) {
			char key[40];

			snprintf(key, sizeof(key), "%s_%s",
				 ps_nic_dir_name(dir), ps_nic_drop_name(k));
			ps_json_put_known(d, key,
					  ps_jv_num(s->nic_drops[dir][k], 3));
		}
	json_object_object_add(obj, f->key, d);
}

static const struct ps_jcodec nic_drops_codec = { .put = nic_drops_put };

/* the NIC's own counters over a step: per-queue packets/s (null for a
 * queue the driver does not count), drops/s by class, pause frames/s */
static const struct ps_jfield step_nic_table[] = {
	{ .key = "rx_queue_pps",
	  .type = PS_JT_ARRAY,
	  .flags = PS_JF_ROUND,
	  .decimals = 3,
	  .off = offsetof(S, nic_rxq_pps),
	  .size = PS_JSIZE(S, nic_rxq_pps),
	  .off2 = offsetof(S, nic_nrxq),
	  .size2 = PS_JSIZE(S, nic_nrxq),
	  .elem = PS_JT_DOUBLE,
	  .elem_size = sizeof(double),
	  .max = PS_STEP_MAX_QUEUES },
	{ .key = "tx_queue_pps",
	  .type = PS_JT_ARRAY,
	  .flags = PS_JF_ROUND,
	  .decimals = 3,
	  .off = offsetof(S, nic_txq_pps),
	  .size = PS_JSIZE(S, nic_txq_pps),
	  .off2 = offsetof(S, nic_ntxq),
	  .size2 = PS_JSIZE(S, nic_ntxq),
	  .elem = PS_JT_DOUBLE,
	  .elem_size = sizeof(double),
	  .max = PS_STEP_MAX_QUEUES },
	{ .key = "drops_per_s",
	  .type = PS_JT_CUSTOM,
	  .codec = &nic_drops_codec },
	NUM(S, nic_pause_rx, "pause_rx_per_s"),
	NUM(S, nic_pause_tx, "pause_tx_per_s"),
	PS_JEND
};

/* a core of this host over the step */
static const struct ps_jfield step_core_table[] = {
	INT(K, id, "cpu"),
	NUM(K, busy_pct, "busy"),
	NUM(K, pct[PS_CPU_SOFTIRQ], "softirq"),
	NUM(K, pct[PS_CPU_IRQ], "irq"),
	NUM(K, pct[PS_CPU_SYSTEM], "system"),
	NUM(K, pct[PS_CPU_USER], "user"),
	PS_JEND
};

/* "cores": the cores with percentages; "test_core", "test_core_busy":
 * the busiest of the test's (ps_step_test_core) */
static void step_cores_put(struct json_object *obj, const struct ps_jfield *f,
			   const void *base)
{
	const S *s = base;
	struct json_object *a = json_object_new_array();
	char core[32];
	double busy;
	int id;

	(void)f;
	for (int i = 0; i < s->cpu.ncores; i++)
		if (s->cpu.cores[i].pct_valid)
			json_object_array_add(
				a, ps_jtable_to_json(step_core_table,
						     &s->cpu.cores[i]));
	json_object_object_add(obj, "cores", a);
	step_core(s, core, sizeof(core), &id, &busy);
	if (id >= 0) {
		json_object_object_add(obj, "test_core", ps_jv_int(id));
		ps_json_put_known(obj, "test_core_busy", ps_jv_num(busy, 3));
	}
}

static const struct ps_jcodec step_cores_codec = { .put = step_cores_put };

static const struct ps_jfield step_cpu_table[] = {
	{ .key = "cores", .type = PS_JT_CUSTOM, .codec = &step_cores_codec },
	PS_JARRAY_IN(S, thread_cpu, nthread_cpu, "thread_cpus", PS_JT_INT, 0,
		     NULL),
	PS_JARRAY_IN(S, rx_cpu, nrx_cpu, "rx_cpus", PS_JT_INT, 0, NULL),
	PS_JEND
};

static const struct ps_jfield step_tcpinfo_table[] = {
	NUM(S, rtt_us, "rtt_us"),
	NUM(S, min_rtt_us, "min_rtt_us"),
	NUM(S, cwnd_bytes, "cwnd_bytes"),
	NUM(S, snd_wnd_bytes, "snd_wnd_bytes"),
	UINT(S, mss, "mss"),
	UINT(S, pmtu, "pmtu"),
	INT(S, retrans, "retransmits"),
	UINT(S, bytes, "bytes"),
	NUM(S, rwnd_limited, "rwnd_limited"),
	NUM(S, sndbuf_limited, "sndbuf_limited"),
	PS_JEND
};

static const struct ps_jfield step_irq_table[] = {
	INT(S, irq_lines, "queue_lines"),
	NUM(S, irq_rate, "rate"),
	INT(S, irq_busiest_cpu, "busiest_cpu"),
	NUM(S, irq_busiest_share, "busiest_share"),
	NUM(S, softnet_drop_rate, "softnet_drop_rate"),
	NUM(S, squeeze_rate, "squeeze_rate"),
	PS_JEND
};

static const struct ps_jfield step_peer_cpu_table[] = {
	INT(S, peer_core, "busiest_core"),   NUM(S, peer_busy, "busy_pct"),
	NUM(S, peer_softirq, "softirq_pct"), NUM(S, peer_others, "others_pct"),
	INT(S, peer_ncores, "cores"),	     PS_JEND
};

static const struct ps_jfield step_udp_table[] = { INT(S, udp_sent, "sent"),
						   INT(S, udp_lost, "lost"),
						   PS_JEND };

/* the kernel's counters' deltas (probe-netstat.h) at .off */
static void netstat_put(struct json_object *obj, const struct ps_jfield *f,
			const void *base)
{
	json_object_object_add(
		obj, f->key,
		ps_netstat_counters_json(
			PS_JAT_C(base, f->off, struct ps_netstat_counters)));
}

static const struct ps_jcodec netstat_codec = { .put = netstat_put };

static void spread_put(struct json_object *obj, const struct ps_jfield *f,
		       const void *base)
{
	ps_json_put_known(obj, f->key, ps_jv_num(ps_step_spread(base), 3));
}

static const struct ps_jcodec spread_codec = { .put = spread_put };

/* the busiest other processes of this end over the test (probe-procs.h's
 * own list of {pid, comm, cpu_pct}) */
static void busy_put(struct json_object *obj, const struct ps_jfield *f,
		     const void *base)
{
	const S *s = base;

	json_object_object_add(obj, f->key,
			       ps_procs_list_json(s->busy, s->nbusy));
}

static const struct ps_jcodec busy_codec = { .put = busy_put };

static bool step_busy(const void *base)
{
	return ((const S *)base)->have_busy;
}

static bool step_bidir(const void *base)
{
	return ((const S *)base)->bidir;
}

static bool step_runs(const void *base)
{
	return ((const S *)base)->nruns > 1;
}

static bool step_netstat(const void *base)
{
	return ((const S *)base)->have_netstat;
}

static bool step_peer_netstat(const void *base)
{
	return ((const S *)base)->have_peer_netstat;
}

static bool step_done(const void *base)
{
	return ((const S *)base)->state == PS_STEP_DONE;
}

/* an object of its own while the bool T.v is true */
#define OBJ_IF(T, v, k, sb)                                                    \
	{                                                                      \
		.key = (k), .type = PS_JT_OBJECT, .flags = PS_JF_IFSET,        \
		.sub = (sb), .off2 = offsetof(T, v), .size2 = PS_JSIZE(T, v)   \
	}

/* a qdisc over the step (struct ps_step_qdisc T.m) while T.m.have */
#define QDISC(m, k)                                                            \
	{                                                                      \
		.key = (k), .type = PS_JT_OBJECT, .flags = PS_JF_IFSET,        \
		.sub = step_qdisc_table, .off = offsetof(S, m),                \
		.size = PS_JSIZE(S, m), .off2 = offsetof(S, m.have),           \
		.size2 = PS_JSIZE(S, m.have)                                   \
	}

/* only a step whose paths had a shaper */
static bool step_shapers(const void *base)
{
	return ((const S *)base)->nshapers > 0;
}

static const char *const shaper_dirs[] = { "egress", "ingress", NULL };

/* a shaper of a path device over the step (struct ps_step_shaper) */
#define SH struct ps_step_shaper
static const struct ps_jfield step_shaper_table[] = {
	PS_JFIELD(SH, far, "far_end", PS_JT_BOOL, 0, NULL, NULL),
	PS_JFIELD(SH, dev, "device", PS_JT_STRING, 0, NULL, NULL),
	PS_JENUM(SH, role, "role", 0, ps_path_role_names, NULL, NULL),
	PS_JFIELD(SH, via, "via", PS_JT_STRING, PS_JF_NA, NULL, NULL),
	PS_JENUM(SH, direction, "direction", 0, shaper_dirs, NULL, NULL),
	PS_JFIELD(SH, place, "place", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(SH, gone, "gone", PS_JT_BOOL, 0, NULL, NULL),
	PS_JSUB(SH, q, "qdisc", 0, step_qdisc_table, NULL),
	PS_JEND
};
#undef SH

/* only a step whose busy cores' clocks were read */
static bool step_freq(const void *base)
{
	return ((const S *)base)->freq_samples > 0;
}

static const struct ps_jfield step_freq_table[] = {
	PS_JFIELD(S, freq_samples, "samples", PS_JT_INT, 0, NULL, NULL),
	{ .key = "ratio_mean",
	  .type = PS_JT_DOUBLE,
	  .flags = PS_JF_ROUND,
	  .decimals = 3,
	  .off = offsetof(S, freq_ratio),
	  .size = PS_JSIZE(S, freq_ratio) },
	{ .key = "ratio_min",
	  .type = PS_JT_DOUBLE,
	  .flags = PS_JF_ROUND,
	  .decimals = 3,
	  .off = offsetof(S, freq_ratio_min),
	  .size = PS_JSIZE(S, freq_ratio_min) },
	PS_JFIELD(S, freq_max_khz, "max_khz", PS_JT_INT, PS_JF_POSITIVE, NULL,
		  NULL),
	PS_JEND
};

/* what a test that ran measured */
static const struct ps_jfield step_done_table[] = {
	NUM(S, seconds, "seconds"),
	NUM(S, bps, "bps"),
	{ .key = "bps_back",
	  .type = PS_JT_DOUBLE,
	  .flags = PS_JF_ROUND | PS_JF_NA,
	  .decimals = 3,
	  .off = offsetof(S, bps_back),
	  .size = PS_JSIZE(S, bps_back),
	  .when = step_bidir },
	NUM(S, stream_min_bps, "stream_min_bps"),
	NUM(S, stream_max_bps, "stream_max_bps"),
	{ .key = "runs_bps",
	  .type = PS_JT_ARRAY,
	  .flags = PS_JF_ROUND,
	  .decimals = 3,
	  .off = offsetof(S, run_bps),
	  .size = PS_JSIZE(S, run_bps),
	  .off2 = offsetof(S, nruns),
	  .size2 = PS_JSIZE(S, nruns),
	  .elem = PS_JT_DOUBLE,
	  .elem_size = sizeof(double),
	  .max = PS_STEP_MAX_RUNS,
	  .when = step_runs },
	{ .key = "spread_bps",
	  .type = PS_JT_CUSTOM,
	  .codec = &spread_codec,
	  .when = step_runs },
	NUM(S, cpu_local, "cpu_local_pct"),
	NUM(S, cpu_remote, "cpu_remote_pct"),
	OBJ_IF(S, have_tcpinfo, "tcp_info", step_tcpinfo_table),
	OBJ_IF(S, have_irq, "irq", step_irq_table),
	OBJ_IF(S, have_nicstats, "nic", step_nic_table),
	OBJ_IF(S, have_cpu, "cpu", step_cpu_table),
	OBJ_IF(S, have_peer_cpu, "far_end_cpu", step_peer_cpu_table),
	QDISC(qdisc, "qdisc"),
	QDISC(peer_qdisc, "far_end_qdisc"),
	{ .key = "path_shapers",
	  .type = PS_JT_ARRAY,
	  .off = offsetof(S, shapers),
	  .size = PS_JSIZE(S, shapers),
	  .off2 = offsetof(S, nshapers),
	  .size2 = PS_JSIZE(S, nshapers),
	  .elem = PS_JT_OBJECT,
	  .elem_size = sizeof(struct ps_step_shaper),
	  .max = PS_STEP_MAX_SHAPERS,
	  .sub = step_shaper_table,
	  .when = step_shapers },
	OBJ_IF(S, udp, "udp", step_udp_table),
	{ .key = "busy_clock",
	  .type = PS_JT_OBJECT,
	  .sub = step_freq_table,
	  .when = step_freq },
	{ .key = "netstat",
	  .type = PS_JT_CUSTOM,
	  .codec = &netstat_codec,
	  .off = offsetof(S, netstat),
	  .when = step_netstat },
	{ .key = "far_end_netstat",
	  .type = PS_JT_CUSTOM,
	  .codec = &netstat_codec,
	  .off = offsetof(S, peer_netstat),
	  .when = step_peer_netstat },
	{ .key = "busy_processes",
	  .type = PS_JT_CUSTOM,
	  .codec = &busy_codec,
	  .when = step_busy },
	PS_JEND
};

/* steps[] of the JSON report (doc/check.md), and its loader (the tests'
 * round trip; runs_bps, spread_bps, cpu.cores, nic.drops_per_s and the
 * netstat deltas are written only) */
const struct ps_jfield ps_step_table[] = {
	STR(S, id, "id", 0),
	PS_JENUM(S, state, "state", 0, step_state_names, NULL, NULL),
	STR(S, note, "note", PS_JF_NA),
	INT(S, streams, "streams"),
	BOOL(S, reverse, "reverse"),
	BOOL(S, bidir, "bidir"),
	{ .type = PS_JT_OBJECT,
	  .flags = PS_JF_INLINE,
	  .sub = step_done_table,
	  .when = step_done },
	PS_JEND
};

#undef S
#undef Q
#undef K
#undef NUM
#undef INT
#undef UINT
#undef BOOL
#undef STR
#undef OBJ_IF
#undef QDISC

static struct json_object *
answer_ceiling_json(const struct ps_answer_ceiling *c)
{
	struct json_object *o;

	if (!c->id)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_string(c->id));
	json_object_object_add(o, "what", json_object_new_string(c->what));
	ps_json_put_known(o, "bps", ps_jv_num(c->bps, 3));
	json_object_object_add(o, "scope",
			       json_object_new_string(ps_scope_name(c->scope)));
	return o;
}

/* answer.directions[]: each direction the run measured, its own answer */
static struct json_object *directions_json(const struct ps_answer *a)
{
	struct json_object *arr = json_object_new_array();

	for (int i = 0; i < a->ndirs; i++) {
		const struct ps_answer_dir *x = &a->dirs[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(
			o, "direction",
			json_object_new_string(ps_dir_name(x->dir)));
		ps_json_put_known(o, "measured_bps",
				  ps_jv_num(x->measured_bps, 3));
		if (x->dir == PS_DIR_BOTH)
			ps_json_put_known(o, "back_bps",
					  ps_jv_num(x->back_bps, 3));
		json_object_object_add(o, "slower",
				       json_object_new_boolean(x->slower));
		ps_json_put_known(o, "binding",
				  answer_ceiling_json(&x->binding));
		if (x->dir != PS_DIR_BOTH)
			json_object_object_add(
				o, "verdict",
				json_object_new_string(
					ps_verdict_name(x->verdict)));
		ps_json_put_known(o, "top", ps_jv_str_known(x->top));
		if (x->top)
			json_object_object_add(
				o, "top_end",
				json_object_new_string(x->top_far ? "far"
								  : "local"));
		ps_json_put_known(o, "top_title",
				  ps_jv_str_known(x->top_title));
		ps_json_put_known(o, "top_remedy",
				  ps_jv_str_known(x->top_remedy));
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *ceiling_json(const struct ps_ceiling_model *m, int i)
{
	struct ps_answer_ceiling c = { .id = m->c[i].id,
				       .bps = m->c[i].bps,
				       .scope = m->c[i].scope };

	snprintf(c.what, sizeof(c.what), "%s", m->c[i].what);
	return answer_ceiling_json(&c);
}

/* the evidence's numbers: [{"key", "value", "unit"}] */
static struct json_object *facts_json(const struct ps_finding *f)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < f->nfacts; i++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "key",
				       json_object_new_string(f->facts[i].key));
		/* a share to a millionth: 0.0096 lost is not 1% (the
		 * verdicts compare the unrounded number with 0.01) */
		ps_json_put_known(
			o, "value",
			ps_jv_num(f->facts[i].value,
				  f->facts[i].unit && !strcmp(f->facts[i].unit,
							      "share")
					  ? 6
					  : 3));
		json_object_object_add(
			o, "unit", json_object_new_string(f->facts[i].unit));
		json_object_array_add(a, o);
	}
	return a;
}

/* the thresholds whose crossing made it fire: [{"name", "value", "unit"}]
 * (the rules of "check --rules") */
static struct json_object *thresholds_json(const struct ps_finding *f)
{
	struct json_object *a = json_object_new_array();
	char v[40];

	for (int i = 0; i < f->ncrossed; i++) {
		const struct ps_rule *r = f->crossed[i];
		struct json_object *o = json_object_new_object();

		ps_rule_fmt_value(v, sizeof(v), r->value);
		json_object_object_add(o, "name",
				       json_object_new_string(r->name));
		json_object_object_add(o, "value",
				       json_object_new_double_s(r->value, v));
		json_object_object_add(o, "unit",
				       json_object_new_string(r->unit));
		json_object_array_add(a, o);
	}
	return a;
}

/* the findings folded into o (one finding per cause): [{"id","title"}] */
static struct json_object *folded_json(const struct ps_diagnosis *d,
				       const struct ps_outcome *o)
{
	struct json_object *a = NULL;

	for (size_t i = 0; i < d->n; i++) {
		struct json_object *x;

		if (!d->out[i].folded_into ||
		    &d->out[d->out[i].folded_into - 1] != o)
			continue;
		if (!a)
			a = json_object_new_array();
		x = json_object_new_object();
		json_object_object_add(x, "id",
				       json_object_new_string(d->out[i].f.id));
		json_object_object_add(
			x, "title", json_object_new_string(d->out[i].f.title));
		json_object_array_add(a, x);
	}
	return a;
}

static struct json_object *finding_json(const struct ps_diagnosis *d,
					const struct ps_outcome *o, int rank)
{
	struct json_object *j = json_object_new_object();
	const struct ps_finding *f = &o->f;

	if (rank > 0)
		json_object_object_add(j, "rank", json_object_new_int(rank));
	json_object_object_add(j, "id", json_object_new_string(f->id));
	json_object_object_add(j, "check", json_object_new_string(o->ops->id));
	json_object_object_add(j, "end",
			       json_object_new_string(o->far_end || o->f.far
							      ? "far"
							      : "local"));
	json_object_object_add(j, "family",
			       json_object_new_string(o->ops->family));
	json_object_object_add(
		j, "severity",
		json_object_new_string(ps_severity_name(f->severity)));
	json_object_object_add(j, "title", json_object_new_string(f->title));
	json_object_object_add(j, "evidence",
			       json_object_new_string(f->evidence));
	json_object_object_add(j, "remedy", json_object_new_string(f->remedy));
	ps_json_put_known(j, "ceiling_bps",
			  f->ceiling_bps > 0 ? ps_jv_num(f->ceiling_bps, 3)
					     : NULL);
	json_object_object_add(j, "scope",
			       json_object_new_string(ps_scope_name(f->scope)));
	ps_json_put_known(j, "explains", ps_jv_num(o->explains, 3));
	json_object_object_add(j, "facts", facts_json(f));
	json_object_object_add(j, "thresholds", thresholds_json(f));
	ps_json_put_known(j, "folded", folded_json(d, o));
	return j;
}

static struct json_object *settings_json(const struct ps_evidence *ev)
{
	struct json_object *o = json_object_new_object();
	static const enum ps_sysctl_id ids[] = {
		PS_SYSCTL_RMEM_MAX,	   PS_SYSCTL_WMEM_MAX,
		PS_SYSCTL_TCP_RMEM,	   PS_SYSCTL_TCP_WMEM,
		PS_SYSCTL_TCP_CC,	   PS_SYSCTL_DEFAULT_QDISC,
		PS_SYSCTL_TCP_MTU_PROBING, PS_SYSCTL_NETDEV_MAX_BACKLOG,
		PS_SYSCTL_NETDEV_BUDGET,
	};

	if (ev->snap && ev->snap->sysctl.status == PS_ST_OK) {
		struct json_object *s = json_object_new_object();

		for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
			const struct ps_sysctl_value *v =
				&ev->snap->sysctl.val[ids[i]];
			char buf[300];

			if (v->status != PS_ST_OK)
				continue;
			switch (ps_sysctl_kind(ids[i])) {
			case PS_SYSCTL_TRIPLE:
				snprintf(buf, sizeof(buf), "%lld %lld %lld",
					 v->v[0], v->v[1], v->v[2]);
				break;
			case PS_SYSCTL_INT:
				snprintf(buf, sizeof(buf), "%lld", v->v[0]);
				break;
			default:
				snprintf(buf, sizeof(buf), "%s", v->text);
				break;
			}
			json_object_object_add(s, ps_sysctl_name(ids[i]),
					       json_object_new_string(buf));
		}
		json_object_object_add(o, "sysctl", s);
	}
	if (ev->link && ev->link->status == PS_ST_OK) {
		json_object_object_add(o, "mtu",
				       json_object_new_int64(ev->link->mtu));
		ps_json_put_known(o, "qdisc", ps_jv_str_known(ev->link->qdisc));
		ps_json_put_known(o, "kind", ps_jv_str_known(ev->link->kind));
	}
	if (ev->eth && ev->eth->drvinfo.status == PS_ST_OK)
		ps_json_put_known(o, "driver",
				  ps_jv_str_known(ev->eth->drvinfo.driver));
	if (ps_ev_line_bps(ev) > 0)
		ps_json_put_known(o, "line_bps",
				  ps_jv_num(ps_ev_line_bps(ev), 3));
	if (ev->pci && ev->pci->status == PS_ST_OK &&
	    ev->pci->link_status == PS_ST_OK)
		ps_json_put_known(o, "pcie_usable_bps",
				  ps_jv_num(ev->pci->usable_bps, 3));
	return o;
}

struct json_object *ps_check_settings_json(const struct ps_evidence *ev)
{
	return settings_json(ev);
}

/* who an end is, from its snapshot's header (host.* and far_end.*) */
#define H struct ps_snapshot_header
static const struct ps_jfield end_id_table[] = {
	PS_JFIELD(H, hostname, "hostname", PS_JT_STRING, PS_JF_NA, NULL, NULL),
	PS_JFIELD(H, kernel, "kernel", PS_JT_STRING, PS_JF_NA, NULL, NULL),
	PS_JFIELD(H, iface.name, "iface", PS_JT_STRING, PS_JF_NA, NULL, NULL),
	PS_JFIELD(H, iface.nic, "nic", PS_JT_STRING, PS_JF_NA, NULL, NULL),
	PS_JEND
};
#undef H

/* "far_end": what a pipescope server told of itself, or NULL */
static struct json_object *far_end_json(const struct ps_evidence *ev)
{
	struct json_object *o;
	struct ps_evidence pev;
	const struct ps_snapshot *p = ev->peer;

	if (!p)
		return NULL;
	ps_evidence_of(ev->peer, NULL, &pev);
	o = json_object_new_object();
	ps_jtable_put(o, end_id_table, &p->hdr);
	json_object_object_add(
		o, "same_host",
		json_object_new_boolean(ps_ev_peer_same_host(ev)));
	if (p->cpu.status == PS_ST_OK)
		json_object_object_add(o, "cores",
				       json_object_new_int(p->cpu.ncores));
	json_object_object_add(o, "settings", settings_json(&pev));
	return o;
}

struct json_object *ps_check_report_json(const struct ps_check_report *r)
{
	const struct ps_diagnosis *d = r->d;
	const struct ps_evidence *ev = r->ev;
	const struct ps_run *res = ev->res;
	struct json_object *root = json_object_new_object(), *o, *a;
	struct ps_answer ans;

	ps_answer_of(d, &ans);
	json_object_object_add(root, "schema",
			       json_object_new_string("pipescope-check"));
	json_object_object_add(root, "schema_version",
			       json_object_new_int(PS_CHECK_SCHEMA_VERSION));
	json_object_object_add(root, "pipescope_version",
			       json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(root, "mode",
			       json_object_new_string(ps_check_report_mode(r)));
	json_object_object_add(root, "static_only",
			       json_object_new_boolean(d->static_only));
	ps_json_put_known(root, "snapshot_file",
			  ps_jv_str_known(r->snapshot_file));

	o = json_object_new_object();
	if (ev->snap) {
		ps_jtable_put(o, end_id_table, &ev->snap->hdr);
		json_object_object_add(
			o, "iface_source",
			json_object_new_string(ps_iface_source_name(
				ev->snap->hdr.iface.source)));
	}
	json_object_object_add(o, "settings", settings_json(ev));
	json_object_object_add(root, "host", o);
	ps_json_put_known(root, "far_end", far_end_json(ev));

	if (res) {
		o = json_object_new_object();
		ps_json_put_known(o, "host",
				  ps_jv_str_known(res->loopback ? "127.0.0.1"
								: res->peer));
		ps_json_put_known(o, "kind", ps_jv_str_known(res->peer_kind));
		ps_json_put_known(o, "version",
				  ps_jv_str_known(res->peer_version));
		ps_json_put_known(o, "congestion_local",
				  ps_jv_str_known(res->cc_local));
		ps_json_put_known(o, "congestion_remote",
				  ps_jv_str_known(res->cc_remote));
		json_object_object_add(root, "peer", o);
	}

	o = json_object_new_object();
	json_object_object_add(o, "bottleneck",
			       json_object_new_boolean(d->bottleneck));
	json_object_object_add(o, "explained",
			       json_object_new_boolean(d->explained));
	json_object_object_add(o, "link_full",
			       json_object_new_boolean(d->link_full));
	ps_json_put_known(o, "measured_bps",
			  ans.measured_bps > 0 ? ps_jv_num(ans.measured_bps, 3)
					       : NULL);
	ps_json_put_known(o, "single_stream_bps",
			  ans.single_bps > 0 ? ps_jv_num(ans.single_bps, 3)
					     : NULL);
	ps_json_put_known(o, "binding", answer_ceiling_json(&ans.binding));
	ps_json_put_known(o, "next", answer_ceiling_json(&ans.next));
	ps_json_put_known(o, "top", ps_jv_str_known(ans.top));
	if (d->ceil.flow_bps > 0)
		ps_json_put_known(o, "flow_bps",
				  ps_jv_num(d->ceil.flow_bps, 3));
	if (ans.reverse_bps > 0)
		ps_json_put_known(o, "reverse_bps",
				  ps_jv_num(ans.reverse_bps, 3));
	if (ps_answer_confidence(&ans)) {
		ps_json_put_known(o, "confidence",
				  ps_jv_str_known(ps_answer_confidence(&ans)));
		json_object_object_add(o, "runs",
				       json_object_new_int(ans.runs));
		ps_json_put_known(o, "spread", ps_jv_num(ans.spread, 3));
	}
	json_object_object_add(o, "directions", directions_json(&ans));
	json_object_object_add(root, "answer", o);

	a = json_object_new_array();
	for (int i = 0; i < d->ceil.n; i++)
		json_object_array_add(a, ceiling_json(&d->ceil, i));
	json_object_object_add(root, "ceilings", a);

	json_object_object_add(
		root, "steps",
		ps_jtable_array(ps_step_table, res ? res->steps : NULL,
				sizeof(*res->steps), res ? res->nsteps : 0));

	a = json_object_new_array();
	for (size_t i = 0; i < d->nrank; i++)
		json_object_array_add(
			a,
			finding_json(d, ps_diagnosis_ranked(d, i), (int)i + 1));
	json_object_object_add(root, "findings", a);

	a = json_object_new_array();
	for (size_t i = 0; i < d->n; i++) {
		if (d->out[i].state == PS_CHECK_FIRED)
			continue;
		o = json_object_new_object();
		json_object_object_add(
			o, "check", json_object_new_string(d->out[i].ops->id));
		json_object_object_add(
			o, "state",
			json_object_new_string(state_name(d->out[i].state)));
		json_object_object_add(
			o, "evidence",
			json_object_new_string(d->out[i].f.evidence));
		json_object_object_add(o, "facts", facts_json(&d->out[i].f));
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "checked", a);
	return root;
}

/* ---- text and markdown ----------------------------------------------- */

/* an untrusted string, made safe for the report's format */
static const char *safe(bool md, const char *s)
{
	return md ? ps_md_safe(s) : ps_safe(s);
}

static void print_header(FILE *out, const struct ps_check_report *r, bool md)
{
	const struct ps_evidence *ev = r->ev;
	const struct ps_run *res = ev->res;
	const struct ps_snapshot *s = ev->snap;

	if (md)
		fprintf(out, "## %s\n\n", _("pipescope check"));
	else
		fprintf(out, "%s\n", _("pipescope check"));
	if (s)
		fprintf(out,
			md ? _("- **Host:** %s, kernel %s, interface %s (%s)\n")
			   : _("Host:       %s, kernel %s, interface %s "
			       "(%s)\n"),
			s->hdr.hostname[0] ? safe(md, s->hdr.hostname) : "?",
			s->hdr.kernel[0] ? safe(md, s->hdr.kernel) : "?",
			s->hdr.iface.name[0] ? safe(md, s->hdr.iface.name)
					     : "?",
			ps_iface_source_name(s->hdr.iface.source));
	fprintf(out, md ? "- **pipescope:** %s\n" : "pipescope:  %s\n",
		PACKAGE_VERSION);
	if (res && r->d->static_only) {
		fprintf(out, "%s",
			md ? _("- **Mode:** no test finished (see the tests "
			       "below): only the static checks could run\n")
			   : _("Mode:       no test finished (see the tests "
			       "below): only the static checks could run\n"));
	}
	if (!res) {
		fprintf(out,
			md ? _("- **Mode:** static checks only (%s): no test "
			       "was run, so nothing was measured\n")
			   : _("Mode:       static checks only (%s): no test "
			       "was run, so nothing was measured\n"),
			r->snapshot_file ? safe(md, r->snapshot_file)
					 : _("this host"));
	} else if (res->loopback) {
		fprintf(out, md ? _("- **Mode:** loopback test against an "
				    "in-process server: it measures this host, "
				    "not the link\n")
				: _("Mode:       loopback test against an "
				    "in-process server: it measures this host, "
				    "not the link\n"));
	} else {
		fprintf(out,
			md ? _("- **Peer:** %s, %s %s\n")
			   : _("Peer:       %s, %s %s\n"),
			safe(md, res->peer),
			res->peer_kind[0] ? safe(md, res->peer_kind) : "?",
			safe(md, res->peer_version));
	}
	if (res && (res->cc_local[0] || res->cc_remote[0]))
		fprintf(out,
			md ? _("- **Congestion control:** %s here, %s there\n")
			   : _("Congestion: %s here, %s there\n"),
			res->cc_local[0] ? safe(md, res->cc_local) : "?",
			res->cc_remote[0] ? safe(md, res->cc_remote) : "?");
	if (ev->peer) {
		const struct ps_snapshot *p = ev->peer;

		fprintf(out,
			md ? _("- **Far end:** %s, kernel %s, interface %s; "
			       "its probes were read during the tests%s\n")
			   : _("Far end:    %s, kernel %s, interface %s; its "
			       "probes were read during the tests%s\n"),
			p->hdr.hostname[0] ? safe(md, p->hdr.hostname) : "?",
			p->hdr.kernel[0] ? safe(md, p->hdr.kernel) : "?",
			p->hdr.iface.name[0] ? safe(md, p->hdr.iface.name)
					     : "?",
			ps_ev_peer_same_host(ev)
				? _(" (the same machine: another network "
				    "namespace)")
				: "");
	} else if (res && !res->loopback && res->peer_kind[0]) {
		fprintf(out,
			md ? _("- **Far end:** its host probes were not "
			       "received (%s); only its TCP_INFO and CPU %% "
			       "are in the tests\n")
			   : _("Far end:    its host probes were not received "
			       "(%s); only its TCP_INFO and CPU %% are in the "
			       "tests\n"),
			strcmp(res->peer_kind, "pipescope")
				? _("an iperf3 server does not send them")
				: _("the server runs with --no-share-probes, "
				    "or "
				    "is older"));
	}
	fputc('\n', out);
}

static void print_steps(FILE *out, const struct ps_check_report *r, bool md)
{
	const struct ps_run *res = r->ev->res;

	if (!res || !res->nsteps)
		return;
	if (md) {
		fprintf(out, "### %s\n\n", _("Tests"));
		fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
			_("test"), _("state"), _("rate"), _("RTT ms"),
			_("retrans"), _("rwnd-limited"), _("sndbuf-limited"),
			_("busiest core"));
		fputs("|---|---|---:|---:|---:|---:|---:|---|\n", out);
	} else {
		fprintf(out, "%s\n", _("Tests"));
	}
	for (int i = 0; i < res->nsteps; i++) {
		const struct ps_step_result *s = &res->steps[i];
		char t[64], rate[32] = "", core[32];
		double busy;
		int id;

		step_title(s, t, sizeof(t));
		if (s->state == PS_STEP_DONE) {
			ps_fmt_bps(rate, sizeof(rate), s->bps);
			if (s->bidir) {
				char back[32];

				ps_fmt_bps(back, sizeof(back), s->bps_back);
				PS_APPEND(rate, " + %s", back);
			}
		}
		step_core(s, core, sizeof(core), &id, &busy);
		if (md) {
			if (s->state != PS_STEP_DONE) {
				fprintf(out, "| %s | %s: %s | | | | | | |\n", t,
					step_state_name(s->state),
					ps_md_safe(s->note));
				continue;
			}
			fprintf(out, "| %s | %s | %s |", t,
				step_state_name(s->state), rate);
			if (s->have_tcpinfo)
				fprintf(out, " %.2f | %lld | %.0f%% | %.0f%% |",
					s->rtt_us / 1e3, (long long)s->retrans,
					100 * s->rwnd_limited,
					100 * s->sndbuf_limited);
			else
				fputs(" | | | |", out);
			fprintf(out, " %s |\n", core);
			continue;
		}
		if (s->state != PS_STEP_DONE) {
			fprintf(out, "  %-28s %s: %s\n", t,
				s->state == PS_STEP_SKIPPED  ? _("skipped")
				: s->state == PS_STEP_FAILED ? _("failed")
							     : _("not run"),
				ps_safe(s->note));
			continue;
		}
		fprintf(out, "  %-28s %14s", t, rate);
		if (s->have_tcpinfo) {
			char u[32];

			ps_fmt_usec(u, sizeof(u), s->rtt_us);
			fprintf(out,
				_("  RTT %s, %lld retrans, rwnd-limited "
				  "%.0f%%, "
				  "sndbuf-limited %.0f%%"),
				u, (long long)s->retrans, 100 * s->rwnd_limited,
				100 * s->sndbuf_limited);
		}
		if (core[0])
			fprintf(out, _(", busiest core %s"), core);
		if (s->have_peer_cpu)
			fprintf(out, _(", far end's cpu%d %.0f%%"),
				s->peer_core, s->peer_busy);
		if (s->have_irq && s->irq_rate > 0)
			fprintf(out,
				_(", %.0f NIC interrupts/s (cpu%d %.0f%%)"),
				s->irq_rate, s->irq_busiest_cpu,
				100 * s->irq_busiest_share);
		if (s->udp && s->udp_sent > 0)
			fprintf(out, _(", %lld of %lld datagrams lost"),
				(long long)s->udp_lost, (long long)s->udp_sent);
		{
			char drops[300];

			ps_step_drops_text(s, drops, sizeof(drops));
			if (drops[0])
				fprintf(out, _("; drops: %s"), drops);
		}
		if (s->have_nicstats && s->nic_pause_rx > 0)
			fprintf(out, _(", %.1f pause frames/s received"),
				s->nic_pause_rx);
		fputc('\n', out);
	}
	fputc('\n', out);
}

static void print_findings(FILE *out, const struct ps_check_report *r, bool md)
{
	const struct ps_diagnosis *d = r->d;
	char c[32];

	fprintf(out, md ? "### %s\n\n" : "%s\n",
		_("Findings, most explaining first"));
	for (size_t i = 0; i < d->nrank; i++) {
		const struct ps_outcome *o = ps_diagnosis_ranked(d, i);
		const struct ps_finding *f = &o->f;

		if (md) {
			fprintf(out, "%zu. **[%s] %s** (`%s`)\n", i + 1,
				ps_severity_text(f->severity),
				ps_md_safe(f->title), f->id);
			fprintf(out, "   - %s: %s\n", _("evidence"),
				ps_md_safe(f->evidence));
			if (f->remedy[0])
				fprintf(out, "   - %s: %s\n", _("remedy"),
					ps_md_code(f->remedy));
			if (f->ceiling_bps > 0) {
				ps_fmt_bps(c, sizeof(c), f->ceiling_bps);
				fprintf(out, "   - %s: %s (%s)\n", _("ceiling"),
					c,
					f->scope == PS_SCOPE_FLOW
						? _("per flow")
						: _("shared"));
			}
			continue;
		}
		fprintf(out, "%2zu. [%s] %s  (%s)\n", i + 1,
			ps_severity_text(f->severity), ps_safe(f->title),
			f->id);
		fprintf(out, "    %s %s\n", _("evidence:"),
			ps_safe(f->evidence));
		if (f->remedy[0])
			fprintf(out, "    %s %s\n", _("remedy:  "),
				ps_safe(f->remedy));
		if (f->ceiling_bps > 0) {
			ps_fmt_bps(c, sizeof(c), f->ceiling_bps);
			fprintf(out, "    %s %s (%s)\n", _("ceiling: "), c,
				f->scope == PS_SCOPE_FLOW ? _("per flow")
							  : _("shared"));
		}
	}
	if (!d->nrank)
		fprintf(out, "  %s\n", _("none"));
	fputc('\n', out);
}

static void print_rest(FILE *out, const struct ps_check_report *r, bool md)
{
	const struct ps_diagnosis *d = r->d;

	for (int pass = 0; pass < 2; pass++) {
		enum ps_check_state want = pass ? PS_CHECK_NA : PS_CHECK_CLEAR;
		const char *h = pass ? _("Not checked") : _("Ruled out");
		bool any = false;

		for (size_t i = 0; i < d->n; i++) {
			if (d->out[i].state != want)
				continue;
			if (!any)
				fprintf(out, md ? "### %s\n\n" : "%s\n", h);
			any = true;
			fprintf(out, md ? "- %s: %s\n" : "  - %s: %s\n",
				_(d->out[i].ops->title),
				safe(md, d->out[i].f.evidence));
		}
		if (any)
			fputc('\n', out);
	}
}

/* one end's settings, as the JSON's host.settings / far_end.settings */
static void print_settings_of(FILE *out, const struct ps_evidence *ev,
			      const char *heading, bool md)
{
	struct json_object *s = settings_json(ev), *sys;
	bool any = false;

	fprintf(out, md ? "### %s\n\n" : "%s\n", heading);
	json_object_object_foreach(s, key, val)
	{
		size_t kl = strlen(key);
		char v[48];

		if (!strcmp(key, "sysctl") || !val)
			continue;
		/* rates in human units here, raw in the JSON */
		if (kl > 4 && !strcmp(key + kl - 4, "_bps"))
			ps_fmt_bps(v, sizeof(v), json_object_get_double(val));
		else
			ps_sanitize(v, sizeof(v), json_object_get_string(val),
				    md ? PS_SAN_MARKDOWN : 0);
		fprintf(out, md ? "- %s: %s\n" : "  %-24s %s\n", key, v);
		any = true;
	}
	if (json_object_object_get_ex(s, "sysctl", &sys)) {
		json_object_object_foreach(sys, k2, v2)
		{
			fprintf(out, md ? "- %s: %s\n" : "  %-24s %s\n", k2,
				safe(md, json_object_get_string(v2)));
			any = true;
		}
	}
	if (!any)
		fprintf(out, "  %s\n", _("none recorded"));
	fputc('\n', out);
	json_object_put(s);
}

static void print_settings(FILE *out, const struct ps_check_report *r, bool md)
{
	print_settings_of(out, r->ev, _("Settings of this end"), md);
	if (r->ev->peer) {
		struct ps_evidence pev;

		ps_evidence_of(r->ev->peer, NULL, &pev);
		print_settings_of(out, &pev, _("Settings of the far end"), md);
	}
}

void ps_check_report_print(FILE *out, enum ps_report_format fmt,
			   const struct ps_check_report *r)
{
	bool md = fmt == PS_FORMAT_MARKDOWN;

	if (fmt == PS_FORMAT_HTML) {
		ps_check_report_html(out, r);
		return;
	}
	if (fmt == PS_FORMAT_JSON) {
		struct json_object *j = ps_check_report_json(r);

		fputs(json_object_to_json_string_ext(
			      j, JSON_C_TO_STRING_PRETTY |
					 JSON_C_TO_STRING_NOSLASHESCAPE),
		      out);
		fputc('\n', out);
		json_object_put(j);
		return;
	}
	print_header(out, r, md);
	{
		struct ps_answer a;

		ps_answer_of(r->d, &a);
		ps_answer_print(out, &a, md);
	}
	print_steps(out, r, md);
	if (md)
		ps_check_report_md_charts(out, r);
	print_findings(out, r, md);
	print_rest(out, r, md);
	print_settings(out, r, md);
}
