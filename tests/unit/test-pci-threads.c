/* test-pci-threads.c: the PCIe probe sampled by two threads at once, as the
 * sampler and the history recorder's thread do (issue 24 item 12): each
 * sample names the recorded NIC as one thread alone does, and under TSan
 * nothing is shared without a lock (probe-pci.c's name cache was) */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "probe-pci.h"
#include "sysroot.h"
#include "xmalloc.h"
#include "fixture.h"

#define THREADS 2
#define ROUNDS 50

static struct ps_pci_info want;
static pthread_barrier_t start;

/* what a thread's samples said: its first, and how many differed from it
 * or failed */
struct worker {
	struct ps_pci_info first;
	int wrong;
};

static bool same(const struct ps_pci_info *a, const struct ps_pci_info *b)
{
	return !strcmp(a->vendor, b->vendor) && !strcmp(a->device, b->device) &&
	       !strcmp(a->bdf, b->bdf) && a->sta_width == b->sta_width &&
	       a->sta_speed == b->sta_speed;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct ps_pci_info *got = xmalloc(sizeof(*got));

	/* both start at once, on an empty name cache: one fills it while
	 * the other looks in it */
	pthread_barrier_wait(&start);
	for (int r = 0; r < ROUNDS; r++) {
		int rc = ps_pci_sample("eth0", got);

		if (!r)
			w->first = *got;
		if (rc || !same(got, &w->first))
			w->wrong++;
		ps_pci_free(got);
	}
	free(got);
	return NULL;
}

static void test_two_samplers(void **state)
{
	pthread_t th[THREADS];
	struct worker w[THREADS] = { 0 };

	ps_sysroot_set(machine_or_skip("i40e-4cpu"));
	assert_int_equal(pthread_barrier_init(&start, NULL, THREADS), 0);
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	/* and the same as one thread alone says */
	assert_int_equal(ps_pci_sample("eth0", &want), 0);
	ps_sysroot_set(NULL);
	assert_string_equal(want.bdf, "0000:01:00.0");
	for (int i = 0; i < THREADS; i++) {
		if (w[i].wrong || !same(&w[i].first, &want))
			fail_msg("thread %d: %d of %d samples differ (\"%s\" "
				 "\"%s\", alone \"%s\" \"%s\")",
				 i, w[i].wrong, ROUNDS, w[i].first.vendor,
				 w[i].first.device, want.vendor, want.device);
	}
	ps_pci_free(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_samplers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
