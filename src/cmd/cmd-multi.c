/* cmd-multi.c: "-c A -c B": several targets in one test, summed and shown per
 * target */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-multi.h"
#include "selftest.h"
#include "engine.h"
#include "exitcodes.h"
#include "log.h"
#include "nls.h"
#include "record.h"
#include "units.h"
#include "xmalloc.h"

struct target_run {
	struct ps_opts o;	  /* a shallow copy aimed at one target */
	struct ps_reporter inner; /* text or JSON into buf */
	struct ps_reporter rep;	  /* inner, plus the sums kept here */
	FILE *mem;
	char *buf;
	size_t len;
	pthread_t thread;
	int rc;
	bool ended;
	uint64_t sent, received;
	double seconds;
};

static void m_start(void *arg, const struct ps_test_info *in)
{
	struct target_run *r = arg;

	if (r->inner.start)
		r->inner.start(r->inner.arg, in);
}

static void m_interval(void *arg, const struct ps_interval *iv)
{
	struct target_run *r = arg;

	if (r->inner.interval)
		r->inner.interval(r->inner.arg, iv);
}

static void m_end(void *arg, const struct ps_test_info *in,
		  const struct ps_summary *sum)
{
	struct target_run *r = arg;

	for (int i = 0; i < sum->nstreams; i++) {
		uint64_t s, rcv;

		ps_summary_stream_bytes(sum, i, &s, &rcv);
		r->sent += s;
		r->received += rcv;
	}
	r->seconds = sum->duration;
	r->ended = true;
	if (r->inner.end)
		r->inner.end(r->inner.arg, in, sum);
}

static void m_error(void *arg, const char *msg)
{
	struct target_run *r = arg;

	if (r->inner.error)
		r->inner.error(r->inner.arg, msg);
}

static void m_message(void *arg, const char *msg)
{
	struct target_run *r = arg;

	if (r->inner.message)
		r->inner.message(r->inner.arg, msg);
}

static void *run_target(void *arg)
{
	struct target_run *r = arg;

	r->rc = ps_client_run(&r->o, &r->rep, &ps_stop_requested);
	return NULL;
}

static struct json_object *sum_json(uint64_t bytes, double secs, bool sender)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "start", json_object_new_double(0));
	json_object_object_add(o, "end", json_object_new_double(secs));
	json_object_object_add(o, "seconds", json_object_new_double(secs));
	json_object_object_add(o, "bytes",
			       json_object_new_int64((int64_t)bytes));
	json_object_object_add(
		o, "bits_per_second",
		json_object_new_double(secs > 0 ? bytes * 8.0 / secs : 0));
	json_object_object_add(o, "sender", json_object_new_boolean(sender));
	return o;
}

int ps_cmd_multi(const struct ps_opts *o)
{
	int n = o->ntargets, rc = PS_EXIT_OK;
	struct target_run *runs = xcalloc((size_t)n, sizeof(*runs));
	uint64_t sent = 0, received = 0;
	double secs = 0;
	bool json = o->json || o->json_stream;

	ps_install_signals();
	for (int i = 0; i < n; i++) {
		struct target_run *r = &runs[i];

		r->o = *o;
		r->o.ntargets = 1;
		r->o.targets[0] = o->targets[i];
		r->o.json_stream = false;
		r->o.peer_probes = o->peer_probes || ps_hist_enabled(o);
		r->mem = open_memstream(&r->buf, &r->len);
		if (!r->mem)
			ps_fatal(_("out of memory (allocating %zu bytes)"),
				 (size_t)0);
		if (json)
			ps_report_json_init(&r->inner, &r->o, r->mem, false);
		else
			ps_report_text_init(&r->inner, &r->o, r->mem);
		r->rep = (struct ps_reporter){ .start = m_start,
					       .interval = m_interval,
					       .end = m_end,
					       .error = m_error,
					       .message = m_message,
					       .arg = r };
		/* each target's test is a run of its own in the history */
		ps_hist_wrap_reporter(&r->rep, &r->o, "test");
		if (pthread_create(&r->thread, NULL, run_target, r))
			ps_fatal(_("cannot start a thread for target %s"),
				 o->targets[i].host);
	}
	for (int i = 0; i < n; i++) {
		struct target_run *r = &runs[i];

		pthread_join(r->thread, NULL);
		ps_report_destroy(&r->rep); /* the history's, if any */
		ps_report_destroy(&r->inner);
		fclose(r->mem);
		if (r->rc != PS_EXIT_OK)
			rc = r->rc;
		sent += r->sent;
		received += r->received;
		if (r->seconds > secs)
			secs = r->seconds;
	}
	if (json) {
		struct json_object *doc = json_object_new_object();
		struct json_object *end = json_object_new_object();
		struct json_object *arr = json_object_new_array();
		struct json_object *ext = json_object_new_object();

		for (int i = 0; i < n; i++) {
			struct json_object *t = json_tokener_parse(
				runs[i].buf ? runs[i].buf : "");

			json_object_array_add(arr,
					      t ? t : json_object_new_object());
		}
		json_object_object_add(end, "sum_sent",
				       sum_json(sent, secs, true));
		json_object_object_add(end, "sum_received",
				       sum_json(received, secs, false));
		json_object_object_add(doc, "end", end);
		json_object_object_add(ext, "version",
				       json_object_new_string(PACKAGE_VERSION));
		json_object_object_add(ext, "targets", arr);
		json_object_object_add(doc, "pipescope", ext);
		printf("%s\n", json_object_to_json_string_ext(
				       doc, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_SPACED));
		json_object_put(doc);
	} else {
		char rate[32], xfer[32];

		for (int i = 0; i < n; i++) {
			printf(_("=== target %d: %s ===\n"), i + 1,
			       o->targets[i].host);
			fputs(runs[i].buf ? runs[i].buf : "", stdout);
		}
		ps_fmt_bytes(xfer, sizeof(xfer), (double)received,
			     o->format == 'a' ? 'A' : o->format);
		ps_fmt_rate(rate, sizeof(rate),
			    secs > 0 ? received * 8.0 / secs : 0, o->format);
		printf(_("[TOTAL] %d targets, %.2f s: %s received, %s\n"), n,
		       secs, xfer, rate);
	}
	fflush(stdout);
	for (int i = 0; i < n; i++)
		free(runs[i].buf);
	free(runs);
	return rc;
}
