/* test-shaper.c: the qdisc probe's parser on recorded "tc -s qdisc/class"
 * outputs (tests/fixtures/tc), its --sysroot form, JSON round trip and
 * hostile input; the step's qdisc deltas; the shaper checks */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "answer.h"
#include "ceiling.h"
#include "check.h"
#include "fixture.h"
#include "probe-qdisc.h"
#include "report-check.h"
#include "report-html.h"
#include "snapshot.h"
#include "step-qdisc.h"
#include "sysroot.h"
#include "xmalloc.h"

/* a recorded output of tests/fixtures/tc parsed for interface ifname */
static struct ps_qdisc_info *parse(const char *file, const char *ifname)
{
	struct ps_qdisc_info *q = xmalloc(sizeof(*q));
	char *text = slurp("../tc", file);

	ps_qdisc_init(q, ifname);
	assert_int_equal(ps_qdisc_parse_tc(text, q), 0);
	assert_int_equal(q->status, PS_ST_OK);
	free(text);
	return q;
}

static void test_handles(void **state)
{
	uint32_t h;
	char buf[16];

	(void)state;
	assert_int_equal(ps_qdisc_parse_handle("1:10", &h), 0);
	assert_int_equal(h, 0x10010);
	assert_int_equal(ps_qdisc_parse_handle("8001:", &h), 0);
	assert_int_equal(h, 0x80010000u);
	assert_int_equal(ps_qdisc_parse_handle(":4", &h), 0);
	assert_int_equal(h, 4);
	assert_int_equal(ps_qdisc_parse_handle("root", &h), 0);
	assert_int_equal(h, PS_QDISC_ROOT);
	assert_int_equal(ps_qdisc_parse_handle("12345:1", &h), -22);
	assert_int_equal(ps_qdisc_parse_handle("1:zz", &h), -22);
	assert_int_equal(ps_qdisc_parse_handle("10", &h), -22);
	ps_qdisc_handle_text(0x80010000u, false, buf, sizeof(buf));
	assert_string_equal(buf, "8001:");
	ps_qdisc_handle_text(0x10020, true, buf, sizeof(buf));
	assert_string_equal(buf, "1:20");
}

/* the tbf of this project's own scenario: rate, burst, limit, drops */
static void test_tbf(void **state)
{
	struct ps_qdisc_info *q = parse(
		"tc-s-qdisc-class_tbf-short-limit_veth_pipescope.txt", "qra");
	struct ps_qdisc_shaper sh;

	(void)state;
	assert_int_equal(q->n, 1);
	assert_string_equal(q->q[0].kind, "tbf");
	assert_string_equal(q->q[0].handle, "8049:");
	assert_string_equal(q->q[0].parent, "root");
	assert_true(q->q[0].rate_bps == 500000000);
	assert_true(q->q[0].burst_bytes == 65500);
	assert_true(q->q[0].limit_bytes == 60 * 1024);
	assert_true(q->q[0].bytes == 29524442);
	assert_true(q->q[0].packets == 19532);
	assert_true(q->q[0].drops == 8643);
	assert_true(q->q[0].overlimits == 9857);
	assert_int_equal(q->nclass, 1);
	assert_true(ps_qdisc_shaper(q, &sh));
	assert_ptr_equal(sh.q, &q->q[0]);
	assert_null(sh.class);
	assert_false(sh.per_class);
	assert_true(sh.rate_bps == 5e8);
	free(q);

	/* tc prints a tbf made with "latency" as lat: limit = lat * rate +
	 * burst (here 40960 bytes configured) */
	q = xmalloc(sizeof(*q));
	ps_qdisc_init(q, "");
	assert_int_equal(
		ps_qdisc_parse_tc("qdisc tbf 8042: root refcnt 3 rate 200Mbit "
				  "burst 32750b lat 328us \n Sent 0 bytes 0 "
				  "pkt (dropped 0, overlimits 0 requeues 0) \n",
				  q),
		0);
	assert_true(q->q[0].limit_bytes == 40950);
	free(q);
}

/* htb: the default class's ceil, the lowest one up the tree, is the cap */
static void test_htb(void **state)
{
	struct ps_qdisc_info *q = parse(
		"tc-s-qdisc-class_htb-default-pfifo_veth_pipescope.txt", "qra");
	struct ps_qdisc_shaper sh;
	struct ps_step_qdisc_acc a;
	struct ps_step_qdisc st;

	(void)state;
	assert_int_equal(q->n, 2);
	assert_int_equal(q->nclass, 3);
	assert_true(q->q[0].default_class == 0x20);
	assert_true(q->q[1].limit_packets == 50);
	assert_string_equal(q->q[1].parent, "1:20");
	assert_true(ps_qdisc_shaper(q, &sh));
	assert_true(sh.per_class);
	assert_non_null(sh.class);
	assert_string_equal(sh.class->handle, "1:20");
	assert_true(sh.rate_bps == 3e8);
	/* the class's leaf pfifo is its queue */
	ps_step_qdisc_reset(&a);
	ps_step_qdisc_add(&a, q, 1.0);
	ps_step_qdisc_add(&a, q, 2.0);
	ps_step_qdisc_finish(&a, &st);
	assert_true(st.have);
	assert_string_equal(st.shaper, "htb");
	assert_string_equal(st.handle, "1:20");
	assert_true(st.limit_packets == 50);
	assert_string_equal(st.leaf, "pfifo");
	assert_string_equal(st.leaf_handle, q->q[1].handle);
	assert_true(st.drops == 0);
	/* with the parent's ceil lower, that one caps */
	q->c[1].ceil_bps = 2e8;
	assert_true(ps_qdisc_shaper(q, &sh));
	assert_true(sh.rate_bps == 2e8);
	free(q);

	/* mininet: the default class 1:2457 does not exist, so unclassified
	 * traffic is not shaped: no shaper, no false ceiling */
	q = parse("tc-s-qdisc-class_htb-fq_codel_mininet.txt", "h1-eth0");
	assert_int_equal(q->n, 3);
	assert_int_equal(q->nclass, 6);
	assert_true(q->q[0].default_class == 0x2457);
	assert_true(q->q[0].drops == 2746);
	assert_true(q->q[0].overlimits == 21932);
	assert_true(q->q[0].bytes == 11366936666ull);
	assert_true(q->q[1].limit_packets == 10240);
	assert_true(q->c[0].rate_bps == 9000000000ll);
	assert_true(q->c[0].burst_bytes == 90000 * 1024);
	assert_string_equal(q->c[2].handle, "1:10");
	assert_true(q->c[2].drops == 662);
	assert_string_equal(q->c[4].kind, "fq_codel");
	assert_false(ps_qdisc_shaper(q, &sh));
	free(q);
}

/* fq, mq, pfifo, hfsc/bfifo, multiq: counters, limits, children */
static void test_other_kinds(void **state)
{
	struct ps_qdisc_info *q;

	(void)state;
	/* a mail client wrapped the counters; two devices in one text */
	q = parse("tc-s-qdisc_fq-root_cloudflare-5.4-bug.txt", "ext0");
	assert_int_equal(q->n, 1);
	assert_string_equal(q->q[0].kind, "fq");
	assert_true(q->q[0].limit_packets == 10000);
	assert_true(q->q[0].drops == 201276670);
	assert_true(q->q[0].requeues == 103);
	assert_true(q->q[0].backlog_bytes == 779376);
	assert_true(q->q[0].backlog_packets == 10000);
	free(q);
	q = parse("tc-s-qdisc_fq-root_cloudflare-5.4-bug.txt", "int0");
	assert_int_equal(q->n, 1);
	assert_string_equal(q->q[0].handle, "8003:");
	assert_true(q->q[0].requeues == 2817);
	free(q);

	q = parse("tc-s-qdisc_mq-fq_codel_ena-ens5_requeues.txt", "ens5");
	assert_int_equal(q->n, 5);
	assert_string_equal(q->q[0].kind, "mq");
	assert_ptr_equal(ps_qdisc_root(q), &q->q[0]);
	assert_string_equal(q->q[1].parent, ":4");
	assert_true(q->q[1].limit_packets == 10240);
	assert_true(q->q[0].requeues == 16);
	assert_true(q->q[2].bytes == 90944606);
	free(q);

	q = parse("tc-s-qdisc_pfifo_e1000e_netdev2021.txt", "eno1");
	assert_string_equal(q->q[0].kind, "pfifo");
	assert_true(q->q[0].limit_packets == 1000);
	assert_true(q->q[0].drops == 247);
	assert_true(q->q[0].requeues == 4254);
	free(q);

	q = parse("tc-s-qdisc_hfsc-fq_codel_openwrt-ifb.txt", "ifb-eth1");
	assert_int_equal(q->n, 6);
	assert_true(q->q[0].drops == 5063);
	assert_true(q->q[0].overlimits == 2261121);
	assert_string_equal(q->q[3].kind, "bfifo");
	assert_true(q->q[3].limit_bytes == 52125);
	free(q);

	q = parse("tc-s-qdisc_multiq_ixgbe_netdev2021.txt", "enp1s0f0");
	assert_int_equal(q->nclass, 8);
	assert_true(q->c[5].drops == 54);
	assert_true(q->q[0].bytes == 1760376270449ull);
	free(q);
}

/* untrusted text: kinds cleaned, counts and numbers bounded, no crash */
static void mangled(const char *p, size_t n, void *arg)
{
	struct ps_qdisc_info *q = arg;
	char *s = xmalloc(n + 1);

	memcpy(s, p, n);
	s[n] = 0;
	ps_qdisc_init(q, "");
	ps_qdisc_parse_tc(s, q);
	assert_true(q->n <= PS_QDISC_MAX && q->nclass <= PS_QDISC_MAX);
	free(s);
}

static void test_hostile(void **state)
{
	struct ps_qdisc_info *q = xmalloc(sizeof(*q));
	char *big = xmalloc(100 * 64), *text;
	unsigned seed = 13;

	(void)state;
	ps_qdisc_init(q, "");
	assert_int_equal(
		ps_qdisc_parse_tc("qdisc \x1b[31mEVIL\x1b[0mkindthatislong 1: "
				  "root rate 99999999999999999999Tbit limit "
				  "-5\n Sent 999999999999999999999999 bytes\n",
				  q),
		0);
	assert_null(strchr(q->q[0].kind, '\x1b'));
	assert_true(strlen(q->q[0].kind) < sizeof(q->q[0].kind));
	assert_true(q->q[0].rate_bps > 0 && q->q[0].rate_bps <= (1ll << 50));
	assert_true(q->q[0].limit_bytes == -1);
	assert_true(q->q[0].bytes <= (1ull << 62));
	/* more qdiscs than kept */
	big[0] = 0;
	for (int i = 0; i < 40; i++)
		sprintf(big + strlen(big), "qdisc pfifo %x: parent 1:%x\n",
			i + 1, i + 1);
	ps_qdisc_init(q, "");
	assert_int_equal(ps_qdisc_parse_tc(big, q), 0);
	assert_int_equal(q->n, PS_QDISC_MAX);
	assert_true(q->truncated);
	/* nothing that is a qdisc */
	ps_qdisc_init(q, "");
	assert_int_equal(ps_qdisc_parse_tc("garbage\n\n", q), -22);
	assert_int_equal(q->status, PS_ST_ERROR);
	text = slurp("../tc", "tc-s-qdisc-class_htb-fq_codel_mininet.txt");
	feed_mangled(text, strlen(text), 97, 200, &seed, mangled, q);
	free(text);
	free(big);
	free(q);
}

static void test_json(void **state)
{
	struct ps_qdisc_info *q =
		parse("tc-s-qdisc-class_htb-fq_codel_mininet.txt", "h1-eth0");
	struct ps_qdisc_info *b = xmalloc(sizeof(*b));
	struct ps_qdisc_info *prev = xmalloc(sizeof(*prev));
	struct json_object *o, *arr, *e;

	(void)state;
	*prev = *q;
	prev->q[0].bytes -= 125000000;
	prev->q[0].drops -= 100;
	ps_qdisc_rates(prev, q, 2.0);
	assert_true(q->rates.valid);
	assert_true(fabs(q->rates.tx_bps - 5e8) < 1);
	assert_true(fabs(q->rates.drops_ps - 50) < 1e-9);
	o = ps_qdisc_to_json(q);
	assert_int_equal(ps_qdisc_from_json(o, b), 0);
	assert_int_equal(b->n, q->n);
	assert_int_equal(b->nclass, q->nclass);
	assert_int_equal(b->status, PS_ST_OK);
	assert_string_equal(b->q[1].kind, "fq_codel");
	assert_true(b->q[1].hid == q->q[1].hid && b->q[1].pid == q->q[1].pid);
	assert_true(b->q[1].limit_packets == 10240);
	assert_true(b->q[0].default_class == 0x2457);
	assert_true(b->c[0].ceil_bps == 9000000000ll);
	assert_true(b->q[0].rate_bps == -1); /* not reported: key absent */
	assert_true(b->rates.valid && fabs(b->rates.drops_ps - 50) < 1e-9);
	/* what a far end sends is cleaned again */
	arr = json_object_object_get(o, "qdiscs");
	e = json_object_array_get_idx(arr, 0);
	json_object_object_add(e, "kind",
			       json_object_new_string("t\x1b]0;x\x07"
						      "bf"));
	json_object_object_add(e, "handle", json_object_new_string("\x1b[2J"));
	json_object_object_add(e, "rate_bps",
			       json_object_new_int64(-5000000000ll));
	json_object_object_add(e, "limit_bytes",
			       json_object_new_int64(INT64_MAX));
	assert_int_equal(ps_qdisc_from_json(o, b), 0);
	assert_null(strchr(b->q[0].kind, '\x1b'));
	assert_null(strchr(b->q[0].handle, '\x1b'));
	assert_true(b->q[0].rate_bps == -1);
	assert_true(b->q[0].limit_bytes == 1ll << 50);
	json_object_put(o);
	free(q);
	free(b);
	free(prev);
}

/* --sysroot: DIR/tc/IF.txt, not_recorded without it */
static void test_sysroot(void **state)
{
	char dir[] = "/tmp/ps-qdisc-XXXXXX", path[128];
	struct ps_qdisc_info *q = xmalloc(sizeof(*q));
	char *text = slurp("../tc", "tc-s-qdisc_pfifo_e1000e_netdev2021.txt");
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/tc", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/tc/eno1.txt", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	ps_sysroot_set(dir);
	assert_int_equal(ps_qdisc_sample("eno1", q), 0);
	assert_int_equal(q->status, PS_ST_OK);
	assert_true(q->q[0].drops == 247);
	assert_int_equal(ps_qdisc_sample("eth9", q), 0);
	assert_int_equal(q->status, PS_ST_NOT_RECORDED);
	assert_int_equal(ps_qdisc_sample("../x", q), 0);
	assert_int_equal(q->status, PS_ST_ABSENT);
	ps_sysroot_set(NULL);
	unlink(path);
	snprintf(path, sizeof(path), "%s/tc", dir);
	rmdir(path);
	rmdir(dir);
	free(text);
	free(q);
}

/* the step's deltas over samples; a qdisc replaced mid-step adds nothing */
static void test_step_deltas(void **state)
{
	struct ps_qdisc_info *q = parse(
		"tc-s-qdisc-class_tbf-short-limit_veth_pipescope.txt", "qra");
	struct ps_step_qdisc_acc a;
	struct ps_step_qdisc st;

	(void)state;
	ps_step_qdisc_reset(&a);
	ps_step_qdisc_add(&a, q, 10.0);
	ps_step_qdisc_finish(&a, &st);
	assert_false(st.have); /* one sample */
	q->q[0].drops += 400;
	q->q[0].overlimits += 1000;
	q->q[0].bytes += 50000000;
	q->q[0].backlog_bytes = 30000;
	ps_step_qdisc_add(&a, q, 11.0);
	q->q[0].drops += 600;
	q->q[0].bytes += 50000000;
	q->q[0].backlog_bytes = 10000;
	ps_step_qdisc_add(&a, q, 12.0);
	/* another root qdisc: ignored */
	q->q[0].hid = 0x10000;
	q->q[0].drops += 99999;
	ps_step_qdisc_add(&a, q, 13.0);
	ps_step_qdisc_finish(&a, &st);
	assert_true(st.have);
	assert_int_equal(st.samples, 3);
	assert_true(st.drops == 1000);
	assert_true(st.overlimits == 1000);
	assert_true(fabs(st.seconds - 2) < 1e-9);
	assert_true(fabs(st.drop_rate - 500) < 1e-9);
	assert_true(fabs(st.sent_bps - 4e8) < 1);
	assert_true(st.backlog_peak == 30000);
	assert_true(fabs(st.backlog_mean - 40000.0 / 3) < 1e-6);
	assert_string_equal(st.shaper, "tbf");
	assert_true(st.rate_bps == 5e8);
	assert_true(st.limit_bytes == 60 * 1024);
	/* as a far end's, by this end's 2 s step: plausible */
	assert_true(ps_step_qdisc_bound(&st, 2));
	assert_true(st.have);
	/* a far end that claims what no link carries, or a backlog past the
	 * kernel's 32 bits, or readings an hour apart: not known */
	for (int k = 0; k < 4; k++) {
		struct ps_step_qdisc bad;

		ps_step_qdisc_finish(&a, &bad);
		if (k == 0)
			bad.sent_bps = 2e13;
		else if (k == 1)
			bad.drop_rate = 5e10;
		else if (k == 2)
			bad.backlog_peak = 5e9;
		else
			bad.seconds = 3600;
		assert_false(ps_step_qdisc_bound(&bad, 2));
		assert_false(bad.have);
	}
	free(q);
}

/* ---- the checks ------------------------------------------------------- */

static struct ps_step_result *step(struct ps_run *r, int streams, double bps,
				   bool reverse)
{
	struct ps_step_result *s = &r->steps[r->nsteps++];

	memset(s, 0, sizeof(*s));
	snprintf(s->id, sizeof(s->id), "%s", reverse ? "reverse" : "sweep");
	s->state = PS_STEP_DONE;
	s->streams = streams;
	s->reverse = reverse;
	s->bps = bps;
	s->seconds = 2;
	return s;
}

static void step_qdisc(struct ps_step_qdisc *q, double rate, uint64_t drops,
		       int64_t limit)
{
	memset(q, 0, sizeof(*q));
	q->have = true;
	snprintf(q->kind, sizeof(q->kind), "tbf");
	snprintf(q->shaper, sizeof(q->shaper), "tbf");
	snprintf(q->handle, sizeof(q->handle), "8049:");
	q->rate_bps = rate;
	q->limit_bytes = limit;
	q->limit_packets = -1;
	q->burst_bytes = 65500;
	q->seconds = 2;
	q->drops = drops;
	q->drop_rate = drops / 2.0;
	q->overlimits = 3 * drops;
}

static struct ps_snapshot *snap_of(const char *file, const char *ifname)
{
	struct ps_snapshot *s = xcalloc(1, sizeof(*s));
	struct ps_qdisc_info *q = parse(file, ifname);

	s->qdisc = *q;
	snprintf(s->hdr.iface.name, sizeof(s->hdr.iface.name), "%s", ifname);
	snprintf(s->hdr.hostname, sizeof(s->hdr.hostname), "far");
	free(q);
	return s;
}

/* the fired outcome of a finding id in a diagnosis, or NULL */
static const struct ps_outcome *outcome_of(const struct ps_diagnosis *d,
					   const char *id)
{
	for (size_t i = 0; i < d->nrank; i++)
		if (!strcmp(ps_diagnosis_ranked(d, i)->f.id, id))
			return ps_diagnosis_ranked(d, i);
	return NULL;
}

/* a fired outcome, ranked or folded */
static const struct ps_outcome *fired_of(const struct ps_diagnosis *d,
					 const char *id)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->out[i].state == PS_CHECK_FIRED &&
		    !strcmp(d->out[i].f.id, id))
			return &d->out[i];
	return NULL;
}

static enum ps_check_state run(const struct ps_check_ops *ops,
			       const struct ps_evidence *ev,
			       struct ps_finding *f)
{
	memset(f, 0, sizeof(*f));
	f->id = ops->id;
	return ops->eval(ev, f);
}

static void test_checks(void **state)
{
	struct ps_snapshot *s = snap_of(
		"tc-s-qdisc-class_tbf-short-limit_veth_pipescope.txt", "qra");
	struct ps_run *r = xcalloc(1, sizeof(*r));
	struct ps_evidence ev = { .snap = s, .res = r };
	struct ps_diagnosis *d = xcalloc(1, sizeof(*d));
	struct ps_finding f;

	(void)state;
	/* static: the configured rate is a ceiling */
	assert_int_equal(run(&ps_check_shaper, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_WARNING);
	assert_int_equal(f.scope, PS_SCOPE_SHARED);
	assert_true(f.ceiling_bps == 5e8);
	assert_true(ps_fact_get(&f, "shaper_rate") == 5e8);
	assert_non_null(strstr(f.evidence, "no classes"));
	assert_int_equal(run(&ps_check_short_queue, &ev, &f), PS_CHECK_NA);

	/* a short queue: drops with the sum far below the rate */
	step_qdisc(&step(r, 1, 99e6, false)->qdisc, 5e8, 8643, 61440);
	step_qdisc(&step(r, 4, 364e6, false)->qdisc, 5e8, 48267, 61440);
	assert_int_equal(run(&ps_check_short_queue, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_BOTTLENECK);
	assert_true(ps_fact_get(&f, "qdisc_drops") == 48267);
	assert_true(ps_fact_get(&f, "shaper_rate") == 5e8);
	assert_true(ps_fact_get(&f, "limit_bytes") == 61440);
	assert_non_null(strstr(f.title, "48267 drops"));
	assert_non_null(strstr(f.remedy, "tc qdisc change dev qra"));
	assert_non_null(strstr(f.remedy, "limit"));
	assert_int_equal(run(&ps_check_shaper, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_INFO);
	assert_true(f.ceiling_bps == 5e8);
	/* the diagnosis: the short queue binds, the rate comes next */
	ps_diagnose(&ev, d);
	assert_string_equal(ps_diagnosis_ranked(d, 0)->f.id,
			    "shaper_queue_short");
	assert_true(d->ceil.next >= 0);
	assert_true(d->ceil.c[d->ceil.next].bps == 5e8);

	/* an htb class's short queue: the remedy never replaces a leaf
	 * qdisc someone configured under the class */
	for (int k = 0; k < r->nsteps; k++) {
		struct ps_step_qdisc *q = &r->steps[k].qdisc;

		snprintf(q->shaper, sizeof(q->shaper), "htb");
		snprintf(q->handle, sizeof(q->handle), "1:10");
		q->per_class = true;
	}
	assert_int_equal(run(&ps_check_short_queue, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.remedy, "tc qdisc add dev qra parent 1:10 "
					 "pfifo limit"));
	assert_null(strstr(f.remedy, "replace"));
	for (int k = 0; k < r->nsteps; k++) {
		snprintf(r->steps[k].qdisc.leaf, sizeof(r->steps[k].qdisc.leaf),
			 "fq_codel");
		snprintf(r->steps[k].qdisc.leaf_handle,
			 sizeof(r->steps[k].qdisc.leaf_handle), "20:");
	}
	assert_int_equal(run(&ps_check_short_queue, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.remedy, "fq_codel 20: is configured: keep"));
	assert_non_null(strstr(f.remedy,
			       "tc qdisc change dev qra handle 20: fq_codel"));
	assert_null(strstr(f.remedy, "pfifo"));
	assert_null(strstr(f.remedy, "replace"));
	assert_null(strstr(f.remedy, "qdisc add"));
	for (int k = 0; k < r->nsteps; k++)
		snprintf(r->steps[k].qdisc.leaf, sizeof(r->steps[k].qdisc.leaf),
			 "bfifo");
	assert_int_equal(run(&ps_check_short_queue, &ev, &f), PS_CHECK_FIRED);
	/* bfifo's limit is in bytes: 20 ms at 500 Mbit/s, or 4 x 61440 */
	assert_non_null(strstr(f.remedy, "tc qdisc change dev qra handle 20: "
					 "bfifo limit 1250000"));

	/* a roomy queue: the rate binds, a few drops are the shaper's work */
	r->nsteps = 0;
	step_qdisc(&step(r, 1, 478e6, false)->qdisc, 5e8, 300, 1 << 20);
	step_qdisc(&step(r, 4, 480e6, false)->qdisc, 5e8, 700, 1 << 20);
	assert_int_equal(run(&ps_check_short_queue, &ev, &f), PS_CHECK_CLEAR);
	assert_int_equal(run(&ps_check_shaper, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_BOTTLENECK);
	assert_true(fabs(ps_fact_get(&f, "share_of_rate") - 0.96) < 1e-9);
	assert_true(ps_fact_get(&f, "qdisc_drops") == 700);
	ps_diagnose(&ev, d);
	assert_string_equal(ps_diagnosis_ranked(d, 0)->f.id, "shaper_rate");
	/* its configured rate binds, not the fork's plateau (the measured
	 * rate itself), which it explains */
	assert_true(d->ceil.binding >= 0);
	assert_string_equal(d->ceil.c[d->ceil.binding].id, "shaper_rate");
	assert_true(d->ceil.c[d->ceil.binding].bps == 5e8);
	/* one finding per cause: the plateau the shaper explains is folded
	 * into it, quoted in its evidence, and not ranked beside it */
	assert_null(outcome_of(d, "shared_limit"));
	assert_non_null(fired_of(d, "shared_limit"));
	assert_ptr_equal(&d->out[fired_of(d, "shared_limit")->folded_into - 1],
			 outcome_of(d, "shaper_rate"));
	assert_non_null(strstr(outcome_of(d, "shaper_rate")->f.evidence,
			       "shared_limit"));
	assert_true(outcome_of(d, "shaper_rate")->explains >=
		    fired_of(d, "shared_limit")->explains);

	/* no shaper: pfifo */
	free(s);
	s = snap_of("tc-s-qdisc_pfifo_e1000e_netdev2021.txt", "eno1");
	ev.snap = s;
	assert_int_equal(run(&ps_check_shaper, &ev, &f), PS_CHECK_CLEAR);
	assert_non_null(strstr(f.evidence, "pfifo"));
	s->qdisc.status = PS_ST_NOT_RECORDED;
	assert_int_equal(run(&ps_check_shaper, &ev, &f), PS_CHECK_NA);
	free(s);
	free(d);
	free(r);
}

/* the far end's tbf, seen in the reverse test */
static void test_far(void **state)
{
	struct ps_snapshot *p = snap_of(
		"tc-s-qdisc-class_tbf-short-limit_veth_pipescope.txt", "pqb1");
	struct ps_snapshot *me =
		snap_of("tc-s-qdisc_pfifo_e1000e_netdev2021.txt", "eno1");
	struct ps_run *r = xcalloc(1, sizeof(*r));
	struct ps_evidence ev = { .snap = me, .res = r, .peer = NULL };
	struct ps_finding f;
	struct ps_step_result *rv;

	(void)state;
	step(r, 1, 4.4e9, false);
	step(r, 4, 6.8e9, false);
	rv = step(r, 4, 481e6, true);
	step_qdisc(&rv->peer_qdisc, 5e8, 0, 1 << 20);
	assert_int_equal(run(&ps_check_far_shaper, &ev, &f), PS_CHECK_NA);
	ev.peer = p;
	assert_int_equal(run(&ps_check_far_shaper, &ev, &f), PS_CHECK_FIRED);
	assert_true(f.far); /* the far end's shaper: its end */
	assert_int_equal(f.severity, PS_SEV_WARNING);
	assert_non_null(strstr(f.title, "far end"));
	assert_non_null(strstr(f.title, "tbf 8049:"));
	assert_non_null(strstr(f.title, "pqb1"));
	assert_non_null(strstr(f.title, "reverse"));
	/* the forward tests are the measured rate: no ceiling of it */
	assert_true(f.ceiling_bps == 0);
	assert_true(ps_fact_get(&f, "shaper_rate") == 5e8);
	/* this end's shaper checks see none here */
	assert_int_equal(run(&ps_check_shaper, &ev, &f), PS_CHECK_CLEAR);
	/* the reverse direction judged: its ceiling */
	r->dir = PS_DIR_IN;
	assert_int_equal(run(&ps_check_far_shaper, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_BOTTLENECK);
	assert_true(f.ceiling_bps == 5e8);
	/* a short queue on the far end: the short-queue check says it,
	 * about the far end, with the remedy for its operator */
	rv->bps = 90e6;
	step_qdisc(&rv->peer_qdisc, 5e8, 5000, 61440);
	assert_int_equal(run(&ps_check_short_queue, &ev, &f), PS_CHECK_FIRED);
	assert_true(f.far);
	assert_non_null(strstr(f.title, "too short"));
	assert_non_null(strstr(f.title, "far end"));
	assert_non_null(strstr(f.remedy, "on the far end (far)"));
	assert_non_null(strstr(f.remedy, "dev pqb1"));
	/* and the far end's shaper itself: no longer what binds */
	assert_int_equal(run(&ps_check_far_shaper, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_INFO);
	r->dir = PS_DIR_OUT;
	/* no shaper on the far end */
	free(p);
	p = snap_of("tc-s-qdisc_mq-fq_codel_ena-ens5_requeues.txt", "ens5");
	ev.peer = p;
	assert_int_equal(run(&ps_check_far_shaper, &ev, &f), PS_CHECK_CLEAR);
	free(p);
	free(me);
	free(r);
}

/* the recorded bridge-ifb snapshot (tests/fixtures/golden): br0 routed,
 * its ports vp1 (an htb, class 1:10 at 200 Mbit/s) and vp2, whose ingress
 * redirects to ifb0 (a tbf at 300 Mbit/s); the port toward the peer not
 * told (no peer address): both ports listed */
static struct ps_snapshot *bridge_snap(void)
{
	struct ps_snapshot *s = ps_snapshot_new();
	char *text = fixture_text("golden/bridge-ifb.json");
	char err[256] = "";

	assert_int_equal(ps_snapshot_from_string(text, strlen(text), s, err,
						 sizeof(err)),
			 0);
	free(text);
	assert_int_equal(s->path.status, PS_ST_OK);
	assert_int_equal(s->path.n, 4);
	return s;
}

/* a step's counters on a device of one end's path */
static struct ps_step_shaper *step_shaper(struct ps_step_result *st, bool far,
					  const char *dev, int direction,
					  double rate, double sent_bps)
{
	struct ps_step_shaper *x = &st->shapers[st->nshapers++];

	memset(x, 0, sizeof(*x));
	x->far = far;
	snprintf(x->dev, sizeof(x->dev), "%s", dev);
	x->direction = direction;
	snprintf(x->place, sizeof(x->place), "%s", dev);
	step_qdisc(&x->q, rate, 0, 1 << 20);
	x->q.samples = 3;
	x->q.sent_bps = sent_bps;
	return x;
}

static struct ps_finding f; /* the last finding of expect_binds */

/* ops fires a bottleneck of that end whose ceiling is bps, its title
 * naming dir and its ceiling the ifb */
static void expect_binds(const struct ps_check_ops *ops,
			 const struct ps_evidence *ev, bool far, double bps,
			 const char *dir)
{
	assert_int_equal(run(ops, ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.far, far);
	assert_int_equal(f.severity, PS_SEV_BOTTLENECK);
	assert_true(f.ceiling_bps == bps);
	assert_non_null(strstr(f.title, dir));
	assert_non_null(strstr(f.ceiling_what, "ifb0"));
}

/* shapers anywhere on either end's path: an ingress redirect to an ifb
 * and a bridge port, each the ceiling of the direction it shapes, named
 * with its devices; one off the test's path is said to be so */
static void test_path_shapers(void **state)
{
	struct ps_snapshot *p = bridge_snap(),
			   *me = snap_of(
				   "tc-s-qdisc_pfifo_e1000e_netdev2021.txt",
				   "eno1");
	struct ps_run *r = xcalloc(1, sizeof(*r));
	struct ps_evidence ev = { .snap = me, .res = r, .peer = p };
	struct ps_diagnosis *d = xcalloc(1, sizeof(*d));
	struct ps_step_result *st;

	(void)state;
	/* the far end's ingress (vp2 -> ifb0, 300 Mbit/s) caps what this end
	 * sends: the forward direction binds on it */
	st = step(r, 1, 270e6, false);
	step_shaper(st, true, "ifb0", PS_PATH_INGRESS, 3e8, 268e6);
	st = step(r, 4, 281e6, false);
	step_shaper(st, true, "ifb0", PS_PATH_INGRESS, 3e8, 280e6);
	expect_binds(&ps_check_far_shaper, &ev, true, 3e8, "forward direction");
	assert_non_null(strstr(f.title, "ingress of vp2, redirected to ifb0"));
	assert_non_null(strstr(f.remedy, "on the far end (bridge-ifb)"));
	assert_non_null(strstr(f.remedy, "tc qdisc change dev ifb0"));
	assert_null(strstr(f.remedy, " del "));
	assert_true(fabs(ps_fact_get(&f, "carried_share") - 280.0 / 281) <
		    1e-9);
	/* this end has no shaper anywhere */
	assert_int_equal(run(&ps_check_shaper, &ev, &f), PS_CHECK_CLEAR);
	ps_diagnose(&ev, d);
	assert_string_equal(ps_diagnosis_ranked(d, 0)->f.id, "far_shaper");
	assert_true(d->ceil.binding >= 0);
	assert_string_equal(d->ceil.c[d->ceil.binding].id, "far_shaper");
	assert_true(d->ceil.c[d->ceil.binding].bps == 3e8);
	/* the plateau it causes is folded into it, not ranked beside it */
	assert_null(outcome_of(d, "shared_limit"));

	/* the bridge port's htb (200 Mbit/s) caps what the far end sends:
	 * the reverse direction's answer binds on it */
	st = step(r, 4, 192e6, true);
	step_shaper(st, true, "vp1", PS_PATH_EGRESS, 2e8, 191e6);
	ps_diagnose(&ev, d);
	assert_true(d->dirs[PS_DIR_IN].have);
	assert_string_equal(d->dirs[PS_DIR_IN].binding.id, "far_shaper");
	assert_true(d->dirs[PS_DIR_IN].binding.bps == 2e8);
	assert_string_equal(d->dirs[PS_DIR_IN].top.id, "far_shaper");
	assert_non_null(
		strstr(d->dirs[PS_DIR_IN].top.title, "bridge port vp1 of br0"));
	assert_non_null(
		strstr(d->dirs[PS_DIR_IN].top.evidence, "could not be told"));
	assert_non_null(strstr(d->dirs[PS_DIR_IN].top.remedy,
			       "tc class change dev vp1 classid 1:10"));
	/* the forward answer is still the ifb's */
	assert_string_equal(d->ceil.c[d->ceil.binding].id, "far_shaper");
	assert_true(d->ceil.c[d->ceil.binding].bps == 3e8);

	/* the reverse test ran far above the port's rate: that port is not
	 * on the path (the other port is toward the peer) */
	r->dir = PS_DIR_IN;
	st->bps = 1.9e9;
	assert_int_equal(run(&ps_check_far_shaper, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_INFO);
	assert_true(f.ceiling_bps == 0);
	assert_non_null(strstr(f.title, "does not cross it"));
	/* below its rate, but its device carried little of the bytes */
	st->bps = 150e6;
	st->shapers[0].q.sent_bps = 4e6;
	assert_int_equal(run(&ps_check_far_shaper, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_INFO);
	assert_true(f.ceiling_bps == 0);
	assert_non_null(strstr(f.title, "does not cross it"));

	/* the same tree as this end: its ifb caps what it receives */
	ev.snap = p;
	ev.peer = NULL;
	st->bps = 285e6;
	st->shapers[0] = (struct ps_step_shaper){ 0 };
	st->nshapers = 0;
	step_shaper(st, false, "ifb0", PS_PATH_INGRESS, 3e8, 284e6);
	expect_binds(&ps_check_shaper, &ev, false, 3e8, "reverse direction");
	/* its queue too short: drops well below the rate, on the ifb */
	st->bps = 90e6;
	st->shapers[0].q.drops = 4000;
	assert_int_equal(run(&ps_check_short_queue, &ev, &f), PS_CHECK_FIRED);
	assert_false(f.far);
	assert_non_null(strstr(f.remedy, "tc qdisc change dev ifb0"));
	/* the forward direction: that ifb shapes the other one; the forward
	 * steps' own shaper (the far end's ifb) dropped nothing */
	r->dir = PS_DIR_OUT;
	assert_int_equal(run(&ps_check_short_queue, &ev, &f), PS_CHECK_CLEAR);
	ps_snapshot_free(p);
	free(p);
	free(me);
	free(d);
	free(r);
}

/* an answer per direction: the far end's egress shaper binds the reverse
 * direction's answer, with its ceiling; the forward answer is what it is
 * without a reverse test */
static void test_directions(void **state)
{
	struct ps_snapshot *p = snap_of(
		"tc-s-qdisc-class_tbf-short-limit_veth_pipescope.txt", "pqb1");
	struct ps_snapshot *me =
		snap_of("tc-s-qdisc_pfifo_e1000e_netdev2021.txt", "eno1");
	struct ps_run *r = xcalloc(1, sizeof(*r));
	struct ps_evidence ev = { .snap = me, .res = r, .peer = p };
	struct ps_diagnosis *d = xcalloc(1, sizeof(*d)),
			    *fwd = xcalloc(1, sizeof(*fwd));
	const struct ps_dir_answer *in, *out;
	struct ps_check_report rep = { .ev = &ev, .d = d };
	struct json_object *j, *a, *dirs, *x, *v;
	struct ps_answer ans;

	(void)state;
	step(r, 1, 4.4e9, false);
	step(r, 4, 6.8e9, false);
	/* the forward answer alone */
	ps_diagnose(&ev, fwd);
	assert_false(fwd->dirs[PS_DIR_IN].have);
	step_qdisc(&step(r, 4, 462e6, true)->peer_qdisc, 5e8, 0, 1 << 20);
	ps_diagnose(&ev, d);
	assert_int_equal(d->dir, PS_DIR_OUT);
	out = &d->dirs[PS_DIR_OUT];
	in = &d->dirs[PS_DIR_IN];
	assert_true(out->have && in->have);
	assert_false(d->dirs[PS_DIR_BOTH].have);
	/* the reverse direction: its rate, its binding shaper, its top */
	assert_true(in->measured_bps == 462e6);
	assert_true(in->slower);
	assert_false(out->slower);
	assert_non_null(in->binding.id);
	assert_string_equal(in->binding.id, "far_shaper");
	assert_true(in->binding.bps == 5e8);
	assert_true(fabs(in->binding.bps / in->measured_bps - 1) < 0.15);
	assert_non_null(in->top_ops);
	assert_string_equal(in->top.id, "far_shaper");
	assert_int_equal(in->top.severity, PS_SEV_BOTTLENECK);
	assert_true(in->top.far);
	/* the forward answer is unchanged by the reverse test */
	assert_true(out->measured_bps == fwd->dirs[PS_DIR_OUT].measured_bps);
	assert_true(d->ceil.measured_bps == fwd->ceil.measured_bps);
	assert_true((d->ceil.binding < 0) == (fwd->ceil.binding < 0));
	if (d->ceil.binding >= 0)
		assert_string_equal(d->ceil.c[d->ceil.binding].id,
				    fwd->ceil.c[fwd->ceil.binding].id);
	assert_string_equal(ps_diagnosis_ranked(d, 0)->f.id,
			    ps_diagnosis_ranked(fwd, 0)->f.id);
	/* every renderer: the answer's lines, and answer.directions[] */
	ps_answer_of(d, &ans);
	assert_int_equal(ans.ndirs, 2);
	{
		struct ps_answer_line l[PS_ANSWER_MAX_LINES];
		int n = ps_answer_phrase(&ans, PS_ANSWER_TEXT, l), k = 0;

		for (int i = 0; i < n; i++)
			if (l[i].part == PS_ANSWER_DIRECTION) {
				k++;
				if (strstr(l[i].text, "far end sending")) {
					assert_non_null(
						strstr(l[i].text, "slower"));
					assert_non_null(strstr(l[i].text,
							       "500.0 Mbit/s"));
					assert_non_null(
						strstr(l[i].text, "tbf 8049:"));
				}
			}
		assert_int_equal(k, 2);
	}
	j = ps_check_report_json(&rep);
	assert_true(json_object_object_get_ex(j, "answer", &a));
	assert_true(json_object_object_get_ex(a, "directions", &dirs));
	assert_int_equal(json_object_array_length(dirs), 2);
	x = json_object_array_get_idx(dirs, 1);
	assert_true(json_object_object_get_ex(x, "direction", &v));
	assert_string_equal(json_object_get_string(v), "in");
	assert_true(json_object_object_get_ex(x, "top", &v));
	assert_string_equal(json_object_get_string(v), "far_shaper");
	assert_true(json_object_object_get_ex(x, "top_end", &v));
	assert_string_equal(json_object_get_string(v), "far");
	assert_true(json_object_object_get_ex(x, "binding", &v));
	assert_true(json_object_object_get_ex(v, "bps", &v));
	assert_true(json_object_get_double(v) == 5e8);
	json_object_put(j);
	/* the markdown report and the HTML page carry the same lines */
	for (int k = 0; k < 2; k++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *mf = open_memstream(&buf, &len);

		if (k)
			ps_check_report_html(mf, &rep);
		else
			ps_check_report_print(mf, PS_FORMAT_MARKDOWN, &rep);
		fclose(mf);
		assert_non_null(strstr(buf, k ? "the far end sending: "
					      : "- **the far end sending:** "));
		assert_non_null(strstr(buf, "the slower direction"));
		free(buf);
	}

	/* a run of the reverse direction alone is diagnosed as such */
	r->nsteps = 0;
	step_qdisc(&step(r, 4, 462e6, true)->peer_qdisc, 5e8, 0, 1 << 20);
	ps_diagnose(&ev, d);
	assert_int_equal(d->dir, PS_DIR_IN);
	assert_string_equal(ps_diagnosis_ranked(d, 0)->f.id, "far_shaper");
	assert_false(d->dirs[PS_DIR_OUT].have);
	free(d);
	free(fwd);
	free(p);
	free(me);
	free(r);
}

/* congestion_qdisc no longer calls a qdisc a shaper by its name */
static void test_cc_qdisc(void **state)
{
	struct ps_snapshot *s =
		snap_of("tc-s-qdisc-class_htb-fq_codel_mininet.txt", "h1-eth0");
	struct ps_link_info *l = xcalloc(1, sizeof(*l));
	struct ps_evidence ev = { .snap = s, .link = l };
	struct ps_finding f;

	(void)state;
	l->status = PS_ST_OK;
	snprintf(l->qdisc, sizeof(l->qdisc), "htb");
	/* an htb that shapes nothing (its default class is missing) */
	assert_int_equal(run(&ps_check_cc_qdisc, &ev, &f), PS_CHECK_CLEAR);
	/* a tbf that does: its rate is shaper_rate's, not a second finding */
	free(s);
	s = snap_of("tc-s-qdisc-class_tbf-short-limit_veth_pipescope.txt",
		    "qra");
	ev.snap = s;
	snprintf(l->qdisc, sizeof(l->qdisc), "tbf");
	assert_int_equal(run(&ps_check_cc_qdisc, &ev, &f), PS_CHECK_CLEAR);
	assert_non_null(strstr(f.evidence, "500.0 Mbit/s"));
	/* bbr without fq: nothing to fix where TCP paces by itself (4.13
	 * on), and never a remedy that replaces the user's shaper */
	s->sysctl.status = PS_ST_OK;
	s->sysctl.val[PS_SYSCTL_TCP_CC].status = PS_ST_OK;
	snprintf(s->sysctl.val[PS_SYSCTL_TCP_CC].text,
		 sizeof(s->sysctl.val[PS_SYSCTL_TCP_CC].text), "bbr");
	snprintf(s->hdr.kernel, sizeof(s->hdr.kernel), "6.18.0-1-amd64");
	assert_int_equal(run(&ps_check_cc_qdisc, &ev, &f), PS_CHECK_CLEAR);
	assert_non_null(strstr(f.evidence, "paces TCP by itself"));
	snprintf(s->hdr.kernel, sizeof(s->hdr.kernel), "4.9.0-8-amd64");
	assert_int_equal(run(&ps_check_cc_qdisc, &ev, &f), PS_CHECK_FIRED);
	assert_string_equal(f.title, "bbr without the fq qdisc");
	assert_null(strstr(f.remedy, "replace"));
	assert_null(strstr(f.remedy, "del"));
	assert_non_null(strstr(f.remedy, "beneath the shaper"));
	/* the kernel's own qdisc may be replaced */
	snprintf(l->qdisc, sizeof(l->qdisc), "pfifo_fast");
	s->qdisc.status = PS_ST_NOT_RECORDED;
	assert_int_equal(run(&ps_check_cc_qdisc, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.remedy, "tc qdisc replace dev qra root fq"));
	/* a qdisc someone configured stays */
	snprintf(l->qdisc, sizeof(l->qdisc), "sfq");
	assert_int_equal(run(&ps_check_cc_qdisc, &ev, &f), PS_CHECK_FIRED);
	assert_null(strstr(f.remedy, "replace"));
	assert_non_null(strstr(f.remedy, "keep it"));
	s->sysctl.val[PS_SYSCTL_TCP_CC].status = PS_ST_ERROR;
	s->qdisc.status = PS_ST_OK;
	snprintf(l->qdisc, sizeof(l->qdisc), "tbf");

	/* without the qdisc probe (an older snapshot): the kind's name only,
	 * said as such */
	s->qdisc.status = PS_ST_NOT_RECORDED;
	assert_int_equal(run(&ps_check_cc_qdisc, &ev, &f), PS_CHECK_FIRED);
	assert_string_equal(f.id, "qdisc_shaper");
	assert_non_null(strstr(f.evidence, "not read"));
	free(s);
	free(l);
}

/* the stream-count fork says nothing false of a tbf */
static void test_fork_tbf(void **state)
{
	struct ps_snapshot *s = snap_of(
		"tc-s-qdisc-class_tbf-short-limit_veth_pipescope.txt", "qra");
	struct ps_link_info *l = xcalloc(1, sizeof(*l));
	struct ps_run *r = xcalloc(1, sizeof(*r));
	struct ps_evidence ev = { .snap = s, .link = l, .res = r };
	struct ps_finding f;

	(void)state;
	l->status = PS_ST_OK;
	snprintf(l->qdisc, sizeof(l->qdisc), "tbf");
	step(r, 1, 99e6, false);
	step(r, 4, 364e6, false);
	assert_int_equal(run(&ps_check_fork, &ev, &f), PS_CHECK_FIRED);
	assert_string_equal(f.id, "per_flow_limit");
	assert_null(strstr(f.evidence, "per-flow classes"));
	assert_non_null(strstr(f.evidence, "no classes"));
	free(s);
	/* htb classes capped near the one-stream rate are named */
	s = snap_of("tc-s-qdisc-class_htb-default-pfifo_veth_pipescope.txt",
		    "qra");
	ev.snap = s;
	snprintf(l->qdisc, sizeof(l->qdisc), "htb");
	r->steps[0].bps = 290e6;
	r->steps[1].bps = 1.1e9;
	assert_int_equal(run(&ps_check_fork, &ev, &f), PS_CHECK_FIRED);
	assert_string_equal(f.id, "per_flow_limit");
	assert_non_null(
		strstr(f.evidence, "1 class(es) capped at 300.0 Mbit/s"));
	free(s);
	free(l);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handles),
		cmocka_unit_test(test_tbf),
		cmocka_unit_test(test_htb),
		cmocka_unit_test(test_other_kinds),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_sysroot),
		cmocka_unit_test(test_step_deltas),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_far),
		cmocka_unit_test(test_directions),
		cmocka_unit_test(test_path_shapers),
		cmocka_unit_test(test_cc_qdisc),
		cmocka_unit_test(test_fork_tbf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
