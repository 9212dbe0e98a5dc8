/* thread.h: threads of the program, started with every signal blocked */
#ifndef PS_THREAD_H
#define PS_THREAD_H

#include <pthread.h>

/*
 * pthread_create with every signal blocked in the new thread (signals are
 * the main loop's: a signalfd, or the default action), the caller's mask
 * unchanged. 0, or pthread_create's error number.
 */
int ps_thread_start(pthread_t *th, void *(*fn)(void *), void *arg);

#endif
