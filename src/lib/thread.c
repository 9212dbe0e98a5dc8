/* thread.c: threads started with every signal blocked (thread.h) */
#include "config.h"

#include <signal.h>

#include "thread.h"

int ps_thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int rc;

	/* the new thread inherits the mask in force at pthread_create */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(th, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}
