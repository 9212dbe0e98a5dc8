/* report-capture.c: a test's text and -J reports kept in memory beside its
 * own output (report-capture.h) */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "report-capture.h"
#include "sanitize.h"
#include "xmalloc.h"

/* one renderer into a memory buffer */
struct sink {
	struct ps_reporter r;
	FILE *mem;
	char *buf;
	size_t len;
	bool live;
};

struct crep {
	struct ps_reporter inner;
	const struct ps_opts *o;
	struct ps_capture *c;
	struct sink s[2]; /* [0] text, [1] -J */
	bool started;
};

static void sink_open(struct sink *k, const struct ps_opts *o, bool json)
{
	memset(k, 0, sizeof(*k));
	k->mem = open_memstream(&k->buf, &k->len);
	if (!k->mem)
		return;
	if (json)
		ps_report_json_init(&k->r, o, k->mem, false);
	else
		ps_report_text_init(&k->r, o, k->mem);
	k->live = true;
}

/* the renderer's text, whole (xmalloc'ed), or NULL */
static char *sink_close(struct sink *k)
{
	char *t = NULL;

	if (!k->live)
		return NULL;
	ps_report_destroy(&k->r);
	if (!fclose(k->mem) && k->buf)
		t = k->buf;
	else
		free(k->buf);
	k->buf = NULL;
	k->live = false;
	return t;
}

static void drop(struct crep *x)
{
	for (int i = 0; i < 2; i++)
		free(sink_close(&x->s[i]));
	x->started = false;
}

static void c_start(void *arg, const struct ps_test_info *in)
{
	struct crep *x = arg;

	if (x->inner.start)
		x->inner.start(x->inner.arg, in);
	/* a retried start begins again */
	drop(x);
	for (int i = 0; i < 2; i++) {
		sink_open(&x->s[i], x->o, i == 1);
		if (x->s[i].live && x->s[i].r.start)
			x->s[i].r.start(x->s[i].r.arg, in);
	}
	x->started = true;
}

static void c_interval(void *arg, const struct ps_interval *iv)
{
	struct crep *x = arg;

	if (x->inner.interval)
		x->inner.interval(x->inner.arg, iv);
	for (int i = 0; i < 2; i++)
		if (x->s[i].live && x->s[i].r.interval)
			x->s[i].r.interval(x->s[i].r.arg, iv);
}

static void c_end(void *arg, const struct ps_test_info *in,
		  const struct ps_summary *sum)
{
	struct crep *x = arg;

	if (x->inner.end)
		x->inner.end(x->inner.arg, in, sum);
	for (int i = 0; i < 2; i++)
		if (x->s[i].live && x->s[i].r.end)
			x->s[i].r.end(x->s[i].r.arg, in, sum);
}

static void c_error(void *arg, const char *msg)
{
	struct crep *x = arg;

	if (x->inner.error)
		x->inner.error(x->inner.arg, msg);
	/* the text renderer says an error on stderr, which is the screen's
	 * terminal here: into the kept text instead, as it would read */
	if (x->s[0].live)
		fprintf(x->s[0].mem, "pipescope: %s\n", ps_safe(msg));
	if (x->s[1].live && x->s[1].r.error)
		x->s[1].r.error(x->s[1].r.arg, msg);
}

static void c_message(void *arg, const char *msg)
{
	struct crep *x = arg;

	if (x->inner.message)
		x->inner.message(x->inner.arg, msg);
}

static void c_destroy(void *arg)
{
	struct crep *x = arg;
	char *text = NULL, *json = NULL;

	ps_report_destroy(&x->inner);
	if (x->started) {
		text = sink_close(&x->s[0]);
		json = sink_close(&x->s[1]);
	}
	drop(x);
	if (text && json) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		pthread_mutex_lock(&x->c->lock);
		free(x->c->text);
		free(x->c->json);
		x->c->text = text;
		x->c->json = json;
		x->c->time_ns = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
		x->c->gen++;
		pthread_mutex_unlock(&x->c->lock);
	} else {
		free(text);
		free(json);
	}
	free(x);
}

void ps_capture_wrap(struct ps_reporter *rep, const struct ps_opts *o,
		     struct ps_capture *c)
{
	struct crep *x = xcalloc(1, sizeof(*x));

	x->inner = *rep;
	x->o = o;
	x->c = c;
	*rep = (struct ps_reporter){ .start = c_start,
				     .interval = c_interval,
				     .end = c_end,
				     .error = c_error,
				     .message = c_message,
				     .destroy = c_destroy,
				     .arg = x };
}

void ps_capture_init(struct ps_capture *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
}

void ps_capture_free(struct ps_capture *c)
{
	free(c->text);
	free(c->json);
	c->text = c->json = NULL;
	pthread_mutex_destroy(&c->lock);
}

int ps_capture_get(struct ps_capture *c, char **text, char **json,
		   int64_t *time_ns)
{
	int rc = -ENOENT;

	*text = *json = NULL;
	pthread_mutex_lock(&c->lock);
	if (c->text && c->json) {
		*text = xstrdup(c->text);
		*json = xstrdup(c->json);
		if (time_ns)
			*time_ns = c->time_ns;
		rc = 0;
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}
