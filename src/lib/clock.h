/* clock.h: the one clock of the program: monotonic and wall time */
#ifndef PS_CLOCK_H
#define PS_CLOCK_H

#include <stdint.h>
#include <time.h>

double ps_now(void);		    /* CLOCK_MONOTONIC seconds */
double ps_wallclock(void);	    /* CLOCK_REALTIME seconds */
int64_t ps_clock_ns(clockid_t clk); /* any clock, in nanoseconds */
int64_t ps_mono_ns(void);	    /* CLOCK_MONOTONIC nanoseconds */
void ps_sleep(double s);	    /* s seconds, a signal or not */

#endif
