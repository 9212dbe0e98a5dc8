/* test-clock.c: the ground's clock (its units agree, a sleep lasts) and
 * threads (started with every signal blocked) */
#include "config.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>

#include <cmocka.h>

#include "clock.h"
#include "thread.h"

static volatile sig_atomic_t ticks;

static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

static void test_units_agree(void **state)
{
	double s = ps_now();
	int64_t ns = ps_mono_ns();
	double wall = ps_wallclock();

	assert_true(ns / 1e9 - s >= 0 && ns / 1e9 - s < 0.5);
	assert_true(ps_clock_ns(CLOCK_MONOTONIC) >= ns);
	assert_true(ps_clock_ns(CLOCK_REALTIME) / 1e9 - wall >= 0 &&
		    ps_clock_ns(CLOCK_REALTIME) / 1e9 - wall < 0.5);
}

/* a signal every 5 ms does not cut a 60 ms sleep short */
static void test_sleep_through_signals(void **state)
{
	struct itimerval it = { { 0, 5000 }, { 0, 5000 } }, off;
	struct sigaction sa;
	double t0;

	memset(&sa, 0, sizeof(sa));
	memset(&off, 0, sizeof(off));
	sa.sa_handler = on_alarm;
	assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	t0 = ps_now();
	ps_sleep(0.06);
	setitimer(ITIMER_REAL, &off, NULL);
	assert_true(ps_now() - t0 >= 0.06);
	assert_true(ticks > 0);
	t0 = ps_now();
	ps_sleep(0);
	assert_true(ps_now() - t0 < 0.05);
}

static void *mask_of(void *arg)
{
	pthread_sigmask(SIG_SETMASK, NULL, arg);
	return NULL;
}

/* the new thread blocks every signal; the caller's mask is as it was */
static void test_thread_masks_signals(void **state)
{
	sigset_t none, before, after, in;
	pthread_t th;

	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, &before);
	assert_int_equal(ps_thread_start(&th, mask_of, &in), 0);
	pthread_join(th, NULL);
	pthread_sigmask(SIG_SETMASK, NULL, &after);
	assert_true(sigismember(&in, SIGINT));
	assert_true(sigismember(&in, SIGTERM));
	assert_true(sigismember(&in, SIGHUP));
	assert_true(sigismember(&in, SIGWINCH));
	assert_false(sigismember(&after, SIGINT));
	assert_false(sigismember(&after, SIGTERM));
	pthread_sigmask(SIG_SETMASK, &before, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units_agree),
		cmocka_unit_test(test_sleep_through_signals),
		cmocka_unit_test(test_thread_masks_signals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
