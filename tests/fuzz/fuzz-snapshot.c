/*
 * fuzz-snapshot.c: a libFuzzer harness for the probe snapshot a pipescope
 * server sends its client (EXT_PROBE) and "check --snapshot FILE" reads:
 * ps_snapshot_from_string, then what consumes a far end's snapshot: the
 * checks with it as the peer (the far-end CPU, MTU and host checks), the
 * check report in text, markdown and JSON, the snapshot's own JSON and
 * text. What was accepted must be written and read back. Built by "make
 * fuzz" (configure --enable-fuzzing CC=clang).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report-check.h"
#include "snapshot.h"
#include "step.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	return null;
}

/* a guided run's one finished step, as the far-end checks read it */
static void one_step(struct ps_run *r, const struct ps_snapshot *far)
{
	struct ps_step_result *s = &r->steps[r->nsteps++];

	snprintf(s->id, sizeof(s->id), "single");
	s->state = PS_STEP_DONE;
	s->streams = 1;
	s->bps = 9.4e9;
	s->seconds = 2;
	s->bytes = (uint64_t)(s->bps / 8 * 2);
	s->have_tcpinfo = true;
	s->rtt_us = 100;
	s->mss = 1448;
	s->pmtu = 1500;
	s->cwnd_bytes = 1e6;
	s->have_peer_cpu = far->cpu.ncores > 0;
	s->peer_ncores = far->cpu.ncores;
	s->peer_core = 0;
	s->peer_busy = 97;
	s->peer_softirq = 60;
	s->irq_busiest_cpu = -1;
	/* the HTML report's heatmap, from the loaded interrupts */
	{
		struct ps_evidence pev;

		ps_evidence_of(far, NULL, &pev);
		if (pev.irq)
			ps_step_irq_matrix(s, pev.irq);
	}
}

static void consume(const struct ps_snapshot *near, struct ps_snapshot *far)
{
	static const enum ps_report_format fmts[] = {
		PS_FORMAT_TEXT,
		PS_FORMAT_MARKDOWN,
		PS_FORMAT_JSON,
		PS_FORMAT_HTML,
	};
	struct ps_run run;
	struct ps_evidence ev;
	struct ps_diagnosis *d = calloc(1, sizeof(*d));
	struct ps_check_report r = { .snapshot_file = NULL };

	memset(&run, 0, sizeof(run));
	snprintf(run.peer, sizeof(run.peer), "192.0.2.1");
	snprintf(run.peer_kind, sizeof(run.peer_kind), "pipescope");
	run.peer_snap = far;
	one_step(&run, far);
	ps_evidence_of(near, &run, &ev);
	ev.peer = far;
	ps_diagnose(&ev, d);
	r.ev = &ev;
	r.d = d;
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		ps_check_report_print(sink(), fmts[i], &r);
	free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact copy: a read past the message is a report, not luck */
	char *text = malloc(size ? size : 1);
	struct ps_snapshot far, near, back;
	char err[256];
	char *again;

	memcpy(text, data, size);
	if (ps_snapshot_from_string(text, size, &far, err, sizeof(err))) {
		free(text);
		return 0;
	}
	/* this host: the same readings from another boot, so that the far
	 * end's checks run (the same boot id is one machine) */
	if (ps_snapshot_from_string(text, size, &near, err, sizeof(err))) {
		fprintf(stderr, "accepted once, refused the second time: %s\n",
			err);
		abort();
	}
	snprintf(near.hdr.boot_id, sizeof(near.hdr.boot_id), "fuzz-near");
	consume(&near, &far);
	ps_snapshot_print(sink(), &far, false);
	ps_snapshot_print(sink(), &far, true);
	/* what was accepted goes out and comes back */
	again = ps_snapshot_to_string(&far);
	if (ps_snapshot_from_string(again, strlen(again), &back, err,
				    sizeof(err))) {
		fprintf(stderr, "accepted, written, refused: %s\n", err);
		abort();
	}
	ps_snapshot_free(&back);
	free(again);
	ps_snapshot_free(&near);
	ps_snapshot_free(&far);
	free(text);
	return 0;
}
