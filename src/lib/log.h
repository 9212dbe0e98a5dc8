/* log.h: the one sink for user-visible messages */
#ifndef PS_LOG_H
#define PS_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

enum ps_level { PS_LOG_DEBUG, PS_LOG_INFO, PS_LOG_WARN, PS_LOG_ERR };

/*
 * Where messages go. By default "pipescope: <message>" on stderr; the TUI
 * installs a hook that puts them on its message line instead.
 */
typedef void (*ps_log_hook)(enum ps_level, const char *msg, void *arg);
void ps_log_set_hook(ps_log_hook hook, void *arg);
void ps_log_set_file(FILE *f); /* --logfile */
void ps_log_set_debug(bool on);
void ps_log_set_forceflush(bool on);

void ps_vlog(enum ps_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void ps_log(enum ps_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define ps_warn(...) ps_log(PS_LOG_WARN, __VA_ARGS__)
#define ps_err(...) ps_log(PS_LOG_ERR, __VA_ARGS__)
#define ps_debug(...) ps_log(PS_LOG_DEBUG, __VA_ARGS__)

/*
 * strerror for any thread: the text of errno value @err (either sign) in
 * one of a few per-thread buffers (strerror's one is shared: two threads
 * reporting at once may read each other's text). Valid until the fourth
 * next call in the same thread.
 */
const char *ps_strerror(int err);

/* print the message, restore what must be restored, exit 1 */
void ps_fatal(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* one line for a bad command line, exit 2 */
void ps_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* called by ps_fatal before exiting (the TUI puts the terminal back) */
void ps_log_set_atexit(void (*fn)(void));

#endif
