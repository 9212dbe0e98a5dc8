/* test-capture.c: --get-server-output's capture keeps a bounded tail of the
 * server's text and says how much it left out (a long test with many
 * streams would otherwise grow it without bound) */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "options.h"
#include "server-internal.h"

static void test_tail_kept(void **state)
{
	struct ps_opts o;
	struct ps_server srv = { .o = &o };
	struct srv_test *st = calloc(1, sizeof(*st));
	size_t written = 0, maxlen = 0, left;
	char *text;
	const char *nl;

	ps_opts_init(&o);
	st->srv = &srv;
	st->capkeep = 1000;
	srv_capture_open(st);
	assert_non_null(st->capf);
	for (int i = 0; i < 5000; i++) {
		written +=
			(size_t)fprintf(st->capf, "line %05d of the text\n", i);
		fflush(st->capf);
		if (st->caplen > maxlen)
			maxlen = st->caplen;
	}
	/* memory stays under twice what is kept */
	assert_true(maxlen <= 2 * st->capkeep);
	assert_true(st->capsize <= 2 * st->capkeep + 1);
	text = srv_capture_text(st);
	/* the tail, from a line's start, with the last line whole */
	assert_non_null(strstr(text, "line 04999 of the text\n"));
	assert_int_equal(
		sscanf(text, "[the first %zu bytes are left out]", &left), 1);
	nl = strchr(text, '\n');
	assert_non_null(nl);
	assert_memory_equal(nl + 1, "line ", 5);
	/* what was left out and what is here add up to what was written */
	assert_int_equal(left + strlen(nl + 1), written);
	free(text);
	ps_report_destroy(&st->cap);
	fclose(st->capf);
	free(st->capbuf);
	free(st);
}

static void test_short_text_whole(void **state)
{
	struct ps_opts o;
	struct ps_server srv = { .o = &o };
	struct srv_test *st = calloc(1, sizeof(*st));
	char *text;

	ps_opts_init(&o);
	st->srv = &srv;
	srv_capture_open(st);
	fputs("one\ntwo\n", st->capf);
	fflush(st->capf);
	text = srv_capture_text(st);
	assert_string_equal(text, "one\ntwo\n");
	free(text);
	ps_report_destroy(&st->cap);
	fclose(st->capf);
	free(st->capbuf);
	free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tail_kept),
		cmocka_unit_test(test_short_text_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
