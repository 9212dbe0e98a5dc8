/* clock.c: the one clock of the program: monotonic and wall time */
#include "config.h"

#include <errno.h>

#include "clock.h"

int64_t ps_clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t ps_mono_ns(void)
{
	return ps_clock_ns(CLOCK_MONOTONIC);
}

static double seconds(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

double ps_now(void)
{
	return seconds(CLOCK_MONOTONIC);
}

double ps_wallclock(void)
{
	return seconds(CLOCK_REALTIME);
}

void ps_sleep(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}
