/* test-parse-threads.c: the text parsers of the probes are reentrant (issue
 * 24 item 11): two threads parse the recorded tc, /proc/interrupts,
 * /proc/stat and filter texts at once, 400 times each, and every result is
 * the single-threaded one (probe-qdisc.c's strtok gave 35-40 wrong parses
 * in 400 and a heap-use-after-free under ASan) */
#include "config.h"

#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>
#include <net/if.h>

#include "irq-parse.h"
#include "probe-cpu.h"
#include "probe-path.h"
#include "probe-qdisc.h"
#include "xmalloc.h"
#include "fixture.h"

#define THREADS 2
#define ROUNDS 400

/* one parser over one recorded text: what it made, as comparable bytes */
struct job {
	const char *name;
	char *text;
	char *(*render)(const char *text, size_t *len);
	char *want; /* the single-threaded result */
	size_t want_len;
};

static char *render_qdisc(const char *text, size_t *len)
{
	struct ps_qdisc_info *q = xmalloc(sizeof(*q));

	/* the struct has no pointers: its bytes are the result (the parser
	 * clears it whole first, padding included) */
	memset(q, 0, sizeof(*q));
	ps_qdisc_parse_tc(text, q);
	*len = sizeof(*q);
	return (char *)q;
}

static char *render_irq(const char *text, size_t *len)
{
	struct ps_irq_table t;
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (ps_irq_parse_interrupts(text, &t)) {
		fprintf(f, "error");
	} else {
		fprintf(f, "%d %d %d\n", t.ncol, t.max_cpu, t.nrows);
		for (int i = 0; i < t.nrows; i++) {
			const struct ps_irq_row *r = &t.rows[i];

			fprintf(f, "%d|%s|%s|%s|%s|", r->irq, r->label, r->chip,
				r->hwirq, r->actions);
			for (int c = 0; c < r->ncount; c++)
				fprintf(f, "%llu ",
					(unsigned long long)r->count[c]);
			fputc('\n', f);
		}
		ps_irq_table_free(&t);
	}
	fclose(f);
	*len = n;
	return s;
}

static char *render_cpu(const char *text, size_t *len)
{
	struct ps_cpu_info info;
	struct json_object *o;
	char *s;

	ps_cpu_parse_stat(text, &info);
	o = ps_cpu_to_json(&info);
	s = xstrdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	ps_cpu_free(&info);
	*len = strlen(s);
	return s;
}

static char *render_filters(const char *text, size_t *len)
{
	char names[8][IF_NAMESIZE];
	char *s = xcalloc(1, sizeof(names) + sizeof(int));
	int n;

	memset(names, 0, sizeof(names));
	n = ps_path_parse_filter_text(text, names, 8);
	memcpy(s, &n, sizeof(n));
	memcpy(s + sizeof(n), names, sizeof(names));
	*len = sizeof(names) + sizeof(int);
	return s;
}

static struct job *jobs;
static int njobs;

static void add_job(const char *name, char *text,
		    char *(*render)(const char *, size_t *))
{
	struct job *j;

	jobs = xrealloc(jobs, (njobs + 1) * sizeof(*jobs));
	j = &jobs[njobs++];
	j->name = name;
	j->text = text;
	j->render = render;
	j->want = render(text, &j->want_len);
}

/* every recorded tc text, then all of them at once 5 times over (a long
 * parse: the two threads' overlap), two /proc/interrupts and a /proc/stat */
static int setup(void **state)
{
	char dir[4096], *all = NULL;
	size_t alen = 0;
	struct dirent *de;
	FILE *f = open_memstream(&all, &alen);
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/tc", PS_TOP_SRCDIR);
	d = opendir(dir);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char rel[600];

		if (!strstr(de->d_name, ".txt"))
			continue;
		snprintf(rel, sizeof(rel), "tc/%s", de->d_name);
		add_job(xstrdup(de->d_name), fixture_text(rel),
			strstr(de->d_name, "filter") ? render_filters
						     : render_qdisc);
		for (int k = 0; k < 5; k++)
			fputs(jobs[njobs - 1].text, f);
	}
	closedir(d);
	fclose(f);
	add_job("all tc texts", all, render_qdisc);
	if (have_machines_at("wide-256cpu/proc")) {
		add_job("wide-256cpu interrupts",
			slurp("wide-256cpu", "proc/interrupts"), render_irq);
		add_job("i40e-4cpu interrupts",
			slurp("i40e-4cpu", "proc/interrupts"), render_irq);
		add_job("wide-256cpu stat", slurp("wide-256cpu", "proc/stat"),
			render_cpu);
	}
	return njobs ? 0 : -1;
}

struct worker {
	int wrong;
	const char *first_wrong;
};

static pthread_barrier_t start;

/* each job in turn, both threads at once on it (the barrier lines them up
 * so that their parses of the same text overlap) */
static void *work(void *arg)
{
	struct worker *w = arg;

	for (int k = 0; k < njobs; k++) {
		struct job *j = &jobs[k];

		pthread_barrier_wait(&start);
		for (int r = 0; r < ROUNDS; r++) {
			size_t len;
			char *got = j->render(j->text, &len);

			if (len != j->want_len || memcmp(got, j->want, len)) {
				if (!w->wrong++)
					w->first_wrong = j->name;
			}
			free(got);
		}
	}
	return NULL;
}

static void test_two_threads(void **state)
{
	pthread_t th[THREADS];
	struct worker w[THREADS];

	assert_int_equal(pthread_barrier_init(&start, NULL, THREADS), 0);
	for (int i = 0; i < THREADS; i++) {
		w[i] = (struct worker){ 0 };
		assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	for (int i = 0; i < THREADS; i++) {
		if (w[i].wrong)
			fail_msg("thread %d: %d wrong parses in %d (first: %s)",
				 i, w[i].wrong, ROUNDS * njobs,
				 w[i].first_wrong);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_two_threads, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
