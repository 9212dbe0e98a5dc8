/* test-step.c: one step model: the accumulator that sums a test into a
 * guided step (src/check/step.c), the answer builder and its phrasing
 * (src/check/answer.c), and the workstation and the report giving the same
 * answer for the same test */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "answer.h"
#include "ceiling.h"
#include "check.h"
#include "report-check.h"
#include "step.h"
#include "ui-model.h"

/* ---- intervals as the engine reports them ---------------------------- */

struct feed {
	struct ps_stream_iv local[3], remote[1];
	struct ps_interval iv;
};

/* interval k (1 s) of a one-stream test: the sender, its receiver's row
 * (no TCP_INFO counted) and the far end's sending row */
static void interval(struct feed *f, int k, bool omitted)
{
	memset(f, 0, sizeof(*f));
	f->iv.start = k;
	f->iv.end = k + 1;
	f->iv.omitted = omitted;
	f->iv.nstreams = 2;
	f->iv.streams = f->local;
	f->iv.nremote = 1;
	f->iv.remote = f->remote;

	f->local[0].sender = true;
	f->local[0].has_tcpinfo = true;
	f->local[0].rtt_us = omitted ? 999999 : 10000 + 1000 * k;
	f->local[0].min_rtt_us = omitted ? 1 : 9900 - 100 * k;
	f->local[0].cwnd = 100000;
	f->local[0].snd_wnd = k == 1 ? 0 : 65536; /* not told once */
	f->local[0].rwnd_limited_us = 800000;
	f->local[0].retrans = omitted ? 1000 : 2;
	f->local[0].mss = 1448;
	f->local[0].pmtu = 1500;
	f->local[0].cpu = k % 2;
	f->local[0].rx_cpu = 1;
	f->local[0].bps = 60e6;
	f->local[0].bytes = 7500000;

	/* this end's receiving row: no sender, its TCP_INFO is not summed */
	f->local[1].has_tcpinfo = true;
	f->local[1].rtt_us = 1;
	f->local[1].cpu = 3;
	f->local[1].rx_cpu = -1;

	/* the far end's sender (a reverse or bidir stream) */
	f->remote[0].sender = true;
	f->remote[0].has_tcpinfo = true;
	f->remote[0].rtt_us = 15000;
	f->remote[0].cwnd = 100000;
	f->remote[0].sndbuf_limited_us = 3000000; /* more than the interval */
	f->remote[0].retrans = 1;

	f->iv.sum[0].bps = 60e6;
	f->iv.sum[0].bytes = 7500000;
	f->iv.have_sum[0] = true;
}

static void test_acc(void **state)
{
	struct ps_step_acc a;
	struct ps_step_result s;
	struct feed f;

	(void)state;
	ps_step_acc_reset(&a);
	for (int k = 0; k < 4; k++) {
		interval(&f, k, k == 0);
		ps_step_acc_add(&a, &f.iv);
	}
	/* the omitted interval added nothing; 3 intervals x 2 senders */
	assert_int_equal((int)a.n, 6);
	assert_int_equal(a.retrans, 3 * 2 + 3 * 1);
	assert_true(fabs(a.ivlen - 6) < 1e-9);
	/* the receiving row's CPU is where a thread ran; its rx_cpu -1 not */
	assert_int_equal(a.nthread, 3);
	assert_int_equal(a.thread_cpu[0], 1);
	assert_int_equal(a.thread_cpu[1], 3);
	assert_int_equal(a.thread_cpu[2], 0);
	assert_int_equal(a.nrx, 1);

	memset(&s, 0, sizeof(s));
	ps_step_acc_finish(&a, &s);
	assert_true(s.have_tcpinfo);
	/* (11 + 12 + 13 + 3 x 15 ms) / 6 */
	assert_true(fabs(s.rtt_us - 13500) < 1e-6);
	/* each direction's senders apart: this end's 11, 12, 13 ms, the
	 * far end's 15 ms */
	assert_true(fabs(s.rtt_dir_us[0] - 12000) < 1e-6);
	assert_true(fabs(s.rtt_dir_us[1] - 15000) < 1e-6);
	assert_true(fabs(s.min_rtt_us - 9600) < 1e-6);
	assert_true(fabs(s.cwnd_bytes - 100000) < 1e-6);
	/* the interval that did not tell its window is left out */
	assert_true(fabs(s.snd_wnd_bytes - 65536) < 1e-6);
	/* the window over each sample's own RTT, averaged (12 and 13 ms):
	 * the mean of the quotients, above the quotient of the means */
	assert_true(fabs(s.wnd_rate_bps -
			 (65536 * 8 / 0.012 + 65536 * 8 / 0.013) / 2) < 1e-3);
	assert_true(s.wnd_rate_bps > 65536 * 8 / 0.0125);
	/* 3 x 0.8 s of 6 sender-seconds; the far end's share is clamped */
	assert_true(fabs(s.rwnd_limited - 0.4) < 1e-9);
	assert_true(fabs(s.sndbuf_limited - 1) < 1e-9);
	assert_int_equal(s.mss, 1448);
	assert_int_equal(s.pmtu, 1500);
	assert_int_equal(s.nthread_cpu, 3);
	assert_int_equal(s.rx_cpu[0], 1);

	/* nothing with TCP_INFO: no averages */
	ps_step_acc_reset(&a);
	memset(&s, 0, sizeof(s));
	ps_step_acc_finish(&a, &s);
	assert_false(s.have_tcpinfo);
	assert_int_equal(s.nthread_cpu, 0);
}

static void test_peer(void **state)
{
	struct ps_step_peer p = { 0 };
	struct ps_snapshot snap = { 0 };
	struct ps_cpu_core cores[2] = { 0 };
	struct ps_step_result s = { 0 };

	(void)state;
	snap.cpu.status = PS_ST_OK;
	snap.cpu.ncores = 2;
	snap.cpu.cores = cores;
	cores[0].id = 4;
	cores[1].id = 7;
	for (int t = 1; t <= 2; t++) {
		cores[0].pct_valid = cores[1].pct_valid = true;
		cores[0].busy_pct = 20;
		cores[1].busy_pct = 90 + 2 * t;
		cores[1].pct[PS_CPU_SOFTIRQ] = 50;
		snap.hdr.time_ns = t;
		ps_step_peer_add(&p, &snap);
		/* the same snapshot again counts once */
		ps_step_peer_add(&p, &snap);
	}
	ps_step_peer_finish(&p, &s);
	assert_true(s.have_peer_cpu);
	assert_int_equal(s.peer_core, 7);
	assert_int_equal(s.peer_ncores, 2);
	assert_true(fabs(s.peer_busy - 93) < 1e-9);
	assert_true(fabs(s.peer_softirq - 50) < 1e-9);
	assert_true(fabs(s.peer_others - 20) < 1e-9);
	ps_step_peer_free(&p);
	assert_null(p.pct);
}

/* ---- the answer ------------------------------------------------------ */

static void model(struct ps_diagnosis *d, bool next)
{
	memset(d, 0, sizeof(*d));
	d->ceil.measured_bps = 3.5e9;
	d->ceil.single_bps = 1.2e9;
	ps_ceiling_add(&d->ceil, "pcie_link", "PCIe x1 at 5 GT/s, usable",
		       3.66e9, PS_SCOPE_SHARED, -1);
	if (next)
		ps_ceiling_add(&d->ceil, "line_rate", "line rate", 10e9,
			       PS_SCOPE_SHARED, -1);
	d->ceil.binding = 0;
	d->ceil.next = next ? 1 : -1;
	d->bottleneck = true;
}

static void test_answer(void **state)
{
	struct ps_answer_line l[PS_ANSWER_MAX_LINES];
	struct ps_diagnosis *d = calloc(1, sizeof(*d));
	struct ps_answer a;
	int n;

	(void)state;
	model(d, true);
	ps_answer_of(d, &a);
	assert_true(fabs(a.measured_bps - 3.5e9) < 1);
	assert_string_equal(a.binding.id, "pcie_link");
	assert_true(fabs(a.binding.bps - 3.66e9) < 1);
	assert_int_equal(a.binding.scope, PS_SCOPE_SHARED);
	assert_string_equal(a.next.id, "line_rate");
	assert_int_equal(a.verdict, PS_VERDICT_BOTTLENECK);
	assert_string_equal(ps_verdict_name(a.verdict), "bottleneck");

	n = ps_answer_phrase(&a, PS_ANSWER_TEXT, l);
	assert_int_equal(n, 5);
	assert_string_equal(l[0].text, "Answer\n");
	assert_string_equal(l[1].text, "  Measured:          3.50 Gbit/s at "
				       "best, 1.20 Gbit/s with one stream\n");
	assert_string_equal(l[2].text, "  Binding ceiling:   3.66 Gbit/s, PCIe "
				       "x1 at 5 GT/s, usable (shared)\n");
	assert_string_equal(l[3].text,
			    "  Next after fixing: 10.00 Gbit/s, line rate\n");
	assert_string_equal(l[4].text, "  A bottleneck was found.\n\n");

	n = ps_answer_phrase(&a, PS_ANSWER_MARKDOWN, l);
	assert_int_equal(n, 5);
	assert_string_equal(l[0].text, "### Answer\n\n");
	assert_string_equal(l[2].text, "- **Binding ceiling:** 3.66 Gbit/s, "
				       "PCIe x1 at 5 GT/s, usable (shared)\n");
	assert_string_equal(l[4].text, "- **A bottleneck was found.**\n\n");

	n = ps_answer_phrase(&a, PS_ANSWER_SCREEN, l);
	assert_int_equal(n, 5);
	assert_int_equal(l[2].part, PS_ANSWER_BINDING);
	assert_string_equal(l[2].text, "Binding ceiling: 3.66 Gbit/s, PCIe x1 "
				       "at 5 GT/s, usable (shared)");
	assert_string_equal(l[3].text,
			    "Next after fixing it: 10.00 Gbit/s, line rate");

	/* no next ceiling: the reports say so, the screen leaves it out */
	model(d, false);
	ps_answer_of(d, &a);
	assert_null(a.next.id);
	n = ps_answer_phrase(&a, PS_ANSWER_TEXT, l);
	assert_int_equal(n, 5);
	assert_non_null(strstr(l[3].text, "not known"));
	assert_int_equal(ps_answer_phrase(&a, PS_ANSWER_SCREEN, l), 4);

	/* nothing measured, nothing found: not an all clear */
	memset(d, 0, sizeof(*d));
	d->ceil.binding = d->ceil.next = -1;
	d->static_only = true;
	ps_answer_of(d, &a);
	assert_null(a.binding.id);
	assert_int_equal(a.verdict, PS_VERDICT_STATIC);
	n = ps_answer_phrase(&a, PS_ANSWER_SCREEN, l);
	assert_int_equal(n, 3);
	assert_string_equal(l[1].text, "Binding ceiling: none computed");
	assert_non_null(strstr(l[2].text, "not an all clear"));
	d->static_only = false;
	d->link_full = true;
	ps_answer_of(d, &a);
	assert_int_equal(a.verdict, PS_VERDICT_LINK_FULL);
	free(d);
}

/* ---- the workstation and the report: one answer ---------------------- */

/* the one-stream test through the workstation's model, and its step as
 * the live findings read it (its session, session.c) */
static void tui_step(struct ps_step_result *st)
{
	struct ui_model *m = calloc(1, sizeof(*m));
	struct ps_test_info info = { .parallel = 1, .nstreams = 1 };
	struct ps_reporter rep;
	struct feed f;

	assert_int_equal(ui_model_init(m), 0);
	ui_model_reporter(m, &rep);
	rep.start(rep.arg, &info);
	for (int k = 0; k < 4; k++) {
		interval(&f, k, k == 0);
		rep.interval(rep.arg, &f.iv);
	}
	assert_true(ui_model_step(m, st));
	ui_model_destroy(m);
	free(m);
}

/* the same test as check's checklist.c sums it: the accumulator over the
 * intervals, the rate from the receivers' count */
static void check_step(struct ps_step_result *st)
{
	struct ps_step_acc a;
	struct feed f;

	memset(st, 0, sizeof(*st));
	snprintf(st->id, sizeof(st->id), "single");
	st->state = PS_STEP_DONE;
	st->streams = 1;
	st->seconds = 3;
	st->bps = 3 * 7500000 * 8 / 3.0;
	ps_step_acc_reset(&a);
	for (int k = 0; k < 4; k++) {
		interval(&f, k, k == 0);
		ps_step_acc_add(&a, &f.iv);
	}
	ps_step_acc_finish(&a, st);
}

static void diagnose(const struct ps_step_result *st, struct ps_run *r,
		     struct ps_snapshot *snap, struct ps_diagnosis *d)
{
	struct ps_evidence ev;

	memset(r, 0, sizeof(*r));
	r->nsteps = 1;
	r->steps[0] = *st;
	memset(snap, 0, sizeof(*snap));
	snap->sysctl.status = PS_ST_OK;
	snap->sysctl.val[PS_SYSCTL_TCP_RMEM].status = PS_ST_OK;
	snap->sysctl.val[PS_SYSCTL_TCP_RMEM].v[2] = 131072;
	snap->sysctl.val[PS_SYSCTL_TCP_WMEM].status = PS_ST_OK;
	snap->sysctl.val[PS_SYSCTL_TCP_WMEM].v[2] = 131072;
	ps_evidence_of(snap, r, &ev);
	ps_diagnose(&ev, d);
}

static void test_same_answer(void **state)
{
	struct ps_step_result a, b;
	struct ps_run *ra = calloc(1, sizeof(*ra)),
		      *rb = calloc(1, sizeof(*rb));
	struct ps_snapshot sa, sb;
	struct ps_diagnosis *da = calloc(1, sizeof(*da));
	struct ps_diagnosis *db = calloc(1, sizeof(*db));
	struct ps_answer_line la[PS_ANSWER_MAX_LINES], lb[PS_ANSWER_MAX_LINES];
	struct ps_answer aa, ab;
	struct ps_evidence ev;
	struct ps_check_report rep = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	int na, nb;

	(void)state;
	tui_step(&a);
	check_step(&b);
	/* the same sums, whichever end summed them */
	assert_true(fabs(a.bps - b.bps) < 1e-6);
	assert_true(fabs(a.rtt_us - b.rtt_us) < 1e-9);
	assert_true(fabs(a.snd_wnd_bytes - b.snd_wnd_bytes) < 1e-9);
	assert_true(fabs(a.rwnd_limited - b.rwnd_limited) < 1e-12);
	assert_int_equal(a.retrans, b.retrans);
	assert_int_equal(a.nthread_cpu, b.nthread_cpu);

	diagnose(&a, ra, &sa, da);
	diagnose(&b, rb, &sb, db);
	ps_answer_of(da, &aa);
	ps_answer_of(db, &ab);
	/* 64 KiB over 12 ms, receive-window limited: the window binds */
	assert_non_null(aa.binding.id);
	assert_string_equal(aa.binding.id, "window_rtt");
	assert_string_equal(ab.binding.id, aa.binding.id);
	assert_string_equal(ab.binding.what, aa.binding.what);
	assert_true(fabs(ab.binding.bps - aa.binding.bps) < 1e-6);
	assert_int_equal(ab.verdict, aa.verdict);

	/* the screen's lines are the report's, phrased for the screen */
	na = ps_answer_phrase(&aa, PS_ANSWER_SCREEN, la);
	nb = ps_answer_phrase(&ab, PS_ANSWER_SCREEN, lb);
	assert_int_equal(na, nb);
	for (int i = 0; i < na; i++)
		assert_string_equal(la[i].text, lb[i].text);

	/* and the text report prints that binding ceiling */
	ps_evidence_of(&sb, rb, &ev);
	rep.ev = &ev;
	rep.d = db;
	out = open_memstream(&text, &len);
	ps_check_report_print(out, PS_FORMAT_TEXT, &rep);
	fclose(out);
	for (int i = 0; i < na; i++)
		if (la[i].part == PS_ANSWER_BINDING)
			assert_non_null(strstr(
				text,
				la[i].text + strlen("Binding ceiling: ")));
	free(text);
	free(da);
	free(db);
	free(ra);
	free(rb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acc),
		cmocka_unit_test(test_peer),
		cmocka_unit_test(test_answer),
		cmocka_unit_test(test_same_answer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
