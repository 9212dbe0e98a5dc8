/* log.c: "pipescope: <message>" on stderr, or wherever the TUI wants it;
 * every line is sanitised whole, so a peer's string in any message (a user
 * name, a congestion control, an error text) cannot forge lines or send
 * escape sequences to the terminal or the log file */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "log.h"
#include "nls.h"
#include "sanitize.h"

static ps_log_hook log_hook;
static void *log_hook_arg;
static FILE *log_file;
static bool log_debug;
static bool log_flush;
static void (*log_atexit)(void);
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

/* strerror_r is the GNU one (a pointer, maybe not into buf) with
 * _GNU_SOURCE on glibc, the POSIX one (0 or an error) elsewhere */
static const char *strerror_gnu(const char *r, const char *buf)
{
	(void)buf;
	return r;
}

static const char *strerror_posix(int r, const char *buf)
{
	return r ? NULL : buf;
}

#define STRERROR_PICK(r, buf)                                                  \
	_Generic((r), char * : strerror_gnu, int : strerror_posix)(r, buf)

const char *ps_strerror(int err)
{
	static _Thread_local char slot[4][128];
	static _Thread_local unsigned next;
	char *buf = slot[next++ % 4];
	const char *r;

	if (err < 0)
		err = -err;
	r = STRERROR_PICK(strerror_r(err, buf, sizeof(slot[0])), buf);
	if (!r || !*r) {
		snprintf(buf, sizeof(slot[0]), _("Unknown error %d"), err);
		r = buf;
	}
	return r;
}

void ps_log_set_hook(ps_log_hook hook, void *arg)
{
	pthread_mutex_lock(&log_lock);
	log_hook = hook;
	log_hook_arg = arg;
	pthread_mutex_unlock(&log_lock);
}

void ps_log_set_file(FILE *f)
{
	log_file = f;
}
void ps_log_set_debug(bool on)
{
	log_debug = on;
}
void ps_log_set_forceflush(bool on)
{
	log_flush = on;
}
void ps_log_set_atexit(void (*fn)(void))
{
	log_atexit = fn;
}

void ps_vlog(enum ps_level level, const char *fmt, va_list ap)
{
	char raw[1024], msg[2048];
	FILE *out;

	if (level == PS_LOG_DEBUG && !log_debug)
		return;
	vsnprintf(raw, sizeof(raw), fmt, ap);
	ps_sanitize(msg, sizeof(msg), raw, 0);

	pthread_mutex_lock(&log_lock);
	if (log_hook) {
		log_hook(level, msg, log_hook_arg);
	} else {
		out = log_file ? log_file : stderr;
		fprintf(out, "pipescope: %s\n", msg);
		if (log_flush || out != stderr)
			fflush(out);
	}
	pthread_mutex_unlock(&log_lock);
}

void ps_log(enum ps_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ps_vlog(level, fmt, ap);
	va_end(ap);
}

void ps_fatal(const char *fmt, ...)
{
	va_list ap;

	if (log_atexit)
		log_atexit();
	log_hook = NULL;
	va_start(ap, fmt);
	ps_vlog(PS_LOG_ERR, fmt, ap);
	va_end(ap);
	exit(PS_EXIT_FAIL);
}

void ps_usage_error(const char *fmt, ...)
{
	va_list ap;

	log_hook = NULL;
	va_start(ap, fmt);
	ps_vlog(PS_LOG_ERR, fmt, ap);
	va_end(ap);
	exit(PS_EXIT_USAGE);
}
