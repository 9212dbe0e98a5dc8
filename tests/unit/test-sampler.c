/* test-sampler.c: the probe thread behind the live panels: readers in a
 * loop while it samples never see a half-written snapshot; wait, kick,
 * history and stop (join without cancel) behave. Run it once built with
 * --enable-tsan to have the races checked too. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "clock.h"
#include "sampler.h"
#include "sysroot.h"

struct reader {
	struct ps_sampler *s;
	atomic_bool *stop;
	long reads;
	long distinct;
	const char *bad;
};

/* what a whole snapshot looks like; a half-written one breaks one of these */
static const char *check(const struct ps_snapshot *s, uint64_t *last_seq,
			 int64_t *last_time)
{
	struct json_object *o;

	if (atomic_load(&s->refs) < 1)
		return "a published snapshot without a reference";
	if (s->hdr.seq == 0 || s->hdr.seq < *last_seq)
		return "sequence number went backwards";
	if (s->hdr.seq > *last_seq && s->hdr.time_ns <= *last_time)
		return "a newer snapshot with an older time";
	if (s->hdr.version != PS_SNAPSHOT_VERSION || !s->hdr.kernel[0])
		return "header not filled";
	if (s->cpu.status != PS_ST_OK || s->cpu.ncores < 1 || !s->cpu.cores)
		return "cpu section not filled";
	if (s->hdr.seq > 1 &&
	    (!s->hdr.rates || s->cpu.basis != PS_CPU_BASIS_INTERVAL))
		return "second and later snapshots must have rates";
	for (int i = 0; i < s->cpu.ncores; i++)
		if (s->cpu.cores[i].pct_valid &&
		    (s->cpu.cores[i].busy_pct < 0 ||
		     s->cpu.cores[i].busy_pct > 100.0001))
			return "a percentage out of range";
	if (s->sysctl.status != PS_ST_OK)
		return "sysctl section not filled";
	/* walks every field: TSan sees any unsynchronised write */
	o = ps_snapshot_to_json(s);
	json_object_put(o);
	*last_seq = s->hdr.seq;
	*last_time = s->hdr.time_ns;
	return NULL;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	uint64_t last_seq = 0, seen = 0;
	int64_t last_time = 0;

	while (!atomic_load(r->stop) && !r->bad) {
		struct ps_snapshot *s = ps_sampler_latest(r->s);

		if (!s)
			continue;
		r->bad = check(s, &last_seq, &last_time);
		if (s->hdr.seq != seen) {
			seen = s->hdr.seq;
			r->distinct++;
		}
		r->reads++;
		ps_snapshot_put(s);
	}
	return NULL;
}

static void test_readers_while_sampling(void **state)
{
	struct ps_sampler_config cfg = { .interval_s = 0.01 };
	struct reader r[3];
	pthread_t th[3];
	atomic_bool stop = false;
	struct ps_sampler *s;

	ps_sysroot_set(NULL);
	ps_iface_choose("lo", NULL, &cfg.env.iface);
	assert_int_equal(ps_sampler_start(&cfg, &s), 0);
	for (int i = 0; i < 3; i++) {
		r[i] = (struct reader){ .s = s, .stop = &stop };
		assert_int_equal(
			pthread_create(&th[i], NULL, reader_main, &r[i]), 0);
	}
	/* let it publish a good number of snapshots */
	assert_int_equal(ps_sampler_wait(s, 30, 10000), 0);
	atomic_store(&stop, true);
	for (int i = 0; i < 3; i++) {
		pthread_join(th[i], NULL);
		if (r[i].bad)
			fail_msg("reader %d: %s", i, r[i].bad);
		assert_true(r[i].reads > 0);
		assert_true(r[i].distinct > 1);
	}
	assert_true(ps_sampler_seq(s) >= 30);
	ps_sampler_stop(s);
}

static void test_wait_kick_history_stop(void **state)
{
	struct ps_sampler_config cfg = { .interval_s = 30, .history = 3 };
	struct ps_snapshot *h[8];
	struct ps_sampler *s;
	double t0;
	size_t n;

	ps_sysroot_set(NULL);
	ps_iface_choose("lo", NULL, &cfg.env.iface);
	assert_int_equal(ps_sampler_start(&cfg, &s), 0);
	/* the first sample comes at once */
	assert_int_equal(ps_sampler_wait(s, 0, 5000), 0);
	/* the next one not before 30 s ... */
	assert_int_equal(ps_sampler_wait(s, 1, 100), -ETIMEDOUT);
	/* ... unless kicked */
	for (uint64_t k = 1; k <= 5; k++) {
		ps_sampler_kick(s);
		assert_int_equal(ps_sampler_wait(s, k, 5000), 0);
	}
	assert_int_equal(ps_sampler_seq(s), 6);
	n = ps_sampler_history(s, h, 8);
	assert_int_equal(n, 4); /* latest + 3 */
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(h[i]->hdr.seq, 6 - i);
		assert_string_equal(h[i]->hdr.iface.name, "lo");
		/* kicked at once, each still waited 0.1 s after the one
		 * before: CPU rates over a span with ticks in it */
		assert_true(h[i]->cpu.interval_s > 0.09);
	}
	/* stop: wakes the 30 s sleep and joins at once */
	t0 = ps_now();
	ps_sampler_stop(s);
	assert_true(ps_now() - t0 < 2.0);
	/* the references we hold outlive the sampler */
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(h[i]->cpu.status, PS_ST_OK);
		ps_snapshot_put(h[i]);
	}
}

static atomic_int notified;

static void on_publish(void *arg)
{
	atomic_fetch_add((atomic_int *)arg, 1);
}

static void test_notify(void **state)
{
	struct ps_sampler_config cfg = { .interval_s = 0.01,
					 .notify = on_publish,
					 .notify_arg = &notified };
	struct ps_sampler *s;
	uint64_t seq;

	ps_sysroot_set(NULL);
	assert_int_equal(ps_sampler_start(&cfg, &s), 0);
	assert_int_equal(ps_sampler_wait(s, 3, 5000), 0);
	ps_sampler_stop(s);
	seq = (uint64_t)atomic_load(&notified);
	assert_true(seq >= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readers_while_sampling),
		cmocka_unit_test(test_wait_kick_history_stop),
		cmocka_unit_test(test_notify),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
