/* test-ui-guided.c: the bookkeeping of the workstation's guided run (key
 * g): the steps' states as "pipescope check" reports begin and end, the
 * sweep's tests under their step and its "1: 23.4, 2: 41.0 Gbit/s" line,
 * skips, a run ended early, progress, wrapping and the report's name */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ui-guided.h"

/* the plan of a --quick run: no "both directions" step */
static void plan_quick(struct ui_guided *g)
{
	ui_guided_init(g);
	ui_guided_plan(g, 1, "Inventory", "read every probe");
	ui_guided_plan(g, 2, "One stream", "the rate of one flow");
	ui_guided_plan(g, 3, "Stream sweep", "more streams");
	ui_guided_plan(g, 4, "Reverse", "the other direction");
	ui_guided_plan(g, 6, "Evaluate", "every check");
}

/* the quick plan, its inventory done and its one-stream test begun */
static void plan_quick_single(struct ui_guided *g)
{
	plan_quick(g);
	ui_guided_begin(g, 1, NULL, NULL, 0, 0);
	ui_guided_end(g, UI_G_DONE, 0, 0, "lo", 1);
	ui_guided_begin(g, 2, NULL, NULL, 1, 2);
}

static void test_plan_pending(void **state)
{
	struct ui_guided g;

	(void)state;
	plan_quick(&g);
	assert_int_equal(g.nrows, 5);
	assert_int_equal(ui_guided_count(&g, UI_G_PENDING), 5);
	assert_int_equal(ui_guided_running(&g), -1);
	assert_string_equal(g.rows[2].title, "Stream sweep");
	assert_int_equal(g.rows[4].step, 6);
}

/* the order of callbacks ps_checklist_run makes, with the sweep's tests */
static void test_full_run(void **state)
{
	struct ui_guided g;

	(void)state;
	plan_quick(&g);
	ui_guided_begin(&g, 1, "Inventory", "read every probe", 0, 0);
	assert_int_equal(ui_guided_running(&g), 0);
	assert_int_equal(g.rows[0].state, UI_G_RUNNING);
	ui_guided_end(&g, UI_G_DONE, 0, 0, "interface lo", 1);
	assert_int_equal(g.rows[0].state, UI_G_DONE);
	assert_string_equal(g.rows[0].summary, "interface lo");
	assert_int_equal(ui_guided_running(&g), -1);

	ui_guided_begin(&g, 2, "One stream", "the rate", 1, 2);
	assert_int_equal(ui_guided_running(&g), 1);
	ui_guided_end(&g, UI_G_DONE, 1, 23.4e9, "23.4 Gbit/s", 3);

	/* the sweep: its own begin, then one per test */
	ui_guided_begin(&g, 3, "Stream sweep", "more streams", 3, 2);
	assert_int_equal(ui_guided_running(&g), 2);
	ui_guided_begin(&g, 3, "2 streams", "does the sum grow?", 3, 2);
	assert_int_equal(g.nrows, 6);
	assert_true(g.rows[2].group);
	assert_int_equal(g.rows[2].state, UI_G_RUNNING);
	assert_int_equal(g.rows[3].depth, 1);
	assert_string_equal(g.rows[3].title, "2 streams");
	assert_int_equal(ui_guided_running(&g), 3);
	ui_guided_end(&g, UI_G_DONE, 2, 41.0e9, "41.0 Gbit/s", 5);
	assert_int_equal(g.rows[3].state, UI_G_DONE);
	/* the group goes on */
	assert_int_equal(g.rows[2].state, UI_G_RUNNING);
	ui_guided_begin(&g, 3, "4 streams", "does the sum grow?", 5, 2);
	assert_int_equal(g.nrows, 7);
	assert_string_equal(g.rows[4].title, "4 streams");
	/* the reverse step stays after the sweep's tests */
	assert_string_equal(g.rows[5].title, "Reverse");
	ui_guided_end(&g, UI_G_DONE, 4, 44.1e9, "44.1 Gbit/s", 7);

	/* the next step closes the sweep with its rates */
	ui_guided_begin(&g, 4, "Reverse", "the other direction", 7, 2);
	assert_int_equal(g.rows[2].state, UI_G_DONE);
	assert_string_equal(g.rows[2].summary,
			    "1: 23.4, 2: 41.0, 4: 44.1 Gbit/s");
	assert_int_equal(ui_guided_running(&g), 5);
	ui_guided_end(&g, UI_G_DONE, 1, 20e9, "20.0 Gbit/s", 9);
	ui_guided_begin(&g, 6, "Evaluate", "every check", 9, 0);
	ui_guided_end(&g, UI_G_DONE, 0, 0, "3 findings", 9.1);
	ui_guided_finish(&g, "not run", 9.2);
	assert_int_equal(ui_guided_count(&g, UI_G_DONE), 6);
	assert_int_equal(ui_guided_count(&g, UI_G_SKIPPED), 0);
	assert_int_equal(ui_guided_count(&g, UI_G_PENDING), 0);
}

/* s during the sweep's first test: that test and the sweep are skipped,
 * the next step runs */
static void test_skip(void **state)
{
	struct ui_guided g;

	(void)state;
	plan_quick_single(&g);
	ui_guided_end(&g, UI_G_DONE, 1, 5e9, "5 Gbit/s", 3);
	ui_guided_begin(&g, 3, NULL, NULL, 3, 2);
	ui_guided_begin(&g, 3, "2 streams", NULL, 3, 2);
	ui_guided_end(&g, UI_G_SKIPPED, 2, 0, "skipped by the user", 3.5);
	ui_guided_begin(&g, 4, NULL, NULL, 3.6, 2);
	assert_int_equal(g.rows[3].state, UI_G_SKIPPED);
	assert_int_equal(g.rows[2].state, UI_G_SKIPPED);
	assert_string_equal(g.rows[2].summary, "skipped by the user");
	/* the planned title stays when begin brings none */
	assert_string_equal(g.rows[4].title, "Reverse");
	assert_int_equal(ui_guided_running(&g), 4);
	assert_int_equal(ui_guided_count(&g, UI_G_SKIPPED), 1);
}

/* x (or a failed first test): what ran stays, the rest says why */
static void test_finish_early(void **state)
{
	struct ui_guided g;

	(void)state;
	plan_quick_single(&g);
	ui_guided_end(&g, UI_G_FAILED, 1, 0, "connection refused", 1.1);
	ui_guided_finish(&g, "the first test failed", 1.2);
	assert_int_equal(g.rows[1].state, UI_G_FAILED);
	assert_string_equal(g.rows[1].summary, "connection refused");
	for (int i = 2; i < g.nrows; i++) {
		assert_int_equal(g.rows[i].state, UI_G_SKIPPED);
		assert_string_equal(g.rows[i].summary, "the first test failed");
	}
	/* a sweep cut short: its finished test still counts */
	plan_quick(&g);
	ui_guided_begin(&g, 3, NULL, NULL, 0, 2);
	ui_guided_begin(&g, 3, "2 streams", NULL, 0, 2);
	ui_guided_end(&g, UI_G_DONE, 2, 800e6, "800 Mbit/s", 2);
	ui_guided_begin(&g, 3, "4 streams", NULL, 2, 2);
	ui_guided_finish(&g, "ended by the user (x)", 2.5);
	assert_int_equal(g.rows[2].state, UI_G_DONE);
	assert_string_equal(g.rows[2].summary, "2: 800.0 Mbit/s");
	assert_int_equal(g.rows[4].state, UI_G_SKIPPED);
	assert_string_equal(g.rows[4].summary, "ended by the user (x)");
	assert_int_equal(ui_guided_running(&g), -1);
}

static void test_progress(void **state)
{
	struct ui_guided g;
	char bar[32];

	(void)state;
	plan_quick(&g);
	assert_true(ui_guided_progress(&g.rows[1], 5) == 0);
	ui_guided_begin(&g, 2, NULL, NULL, 10, 4);
	assert_true(ui_guided_progress(&g.rows[1], 11) == 0.25);
	assert_true(ui_guided_progress(&g.rows[1], 9) == 0);
	assert_true(ui_guided_progress(&g.rows[1], 20) == 1);
	ui_guided_end(&g, UI_G_DONE, 1, 1e9, "", 12);
	assert_true(ui_guided_progress(&g.rows[1], 12) == 1);
	ui_guided_bar(0.5, 12, bar, sizeof(bar));
	assert_string_equal(bar, "[#####.....]");
	ui_guided_bar(0, 5, bar, sizeof(bar));
	assert_string_equal(bar, "[...]");
	ui_guided_bar(2, 5, bar, sizeof(bar));
	assert_string_equal(bar, "[###]");
	ui_guided_bar(0.5, 40, bar, 8);
	assert_int_equal(strlen(bar), 7);
}

static void test_sweep_text(void **state)
{
	int s[] = { 1, 2, 4 };
	double b[] = { 23.4e9, 41.0e9, 44.1e9 };
	double m[] = { 290e6, 580e6, 1150e6 };
	char buf[64];

	(void)state;
	ui_guided_sweep_text(s, b, 3, buf, sizeof(buf));
	assert_string_equal(buf, "1: 23.4, 2: 41.0, 4: 44.1 Gbit/s");
	ui_guided_sweep_text(s, m, 3, buf, sizeof(buf));
	assert_string_equal(buf, "1: 0.3, 2: 0.6, 4: 1.1 Gbit/s");
	ui_guided_sweep_text(s, m, 2, buf, sizeof(buf));
	assert_string_equal(buf, "1: 290.0, 2: 580.0 Mbit/s");
	ui_guided_sweep_text(s, b, 0, buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* never past the end */
	ui_guided_sweep_text(s, b, 3, buf, 10);
	assert_true(strlen(buf) < 10);
}

static void test_wrap_and_name(void **state)
{
	char name[64];

	(void)state;
	assert_int_equal(ui_wrap_cut("short", 10), 5);
	/* cut at the last space that fits */
	assert_int_equal(ui_wrap_cut("one two three", 9), 7);
	/* a word longer than the line is cut inside */
	assert_int_equal(ui_wrap_cut("abcdefghijkl", 5), 5);
	assert_int_equal(ui_wrap_cut("abc", 0), 1);
	ui_guided_report_name(2026, 11, 29, 23, 5, 1, name, sizeof(name));
	assert_string_equal(name, "pipescope-report-20261129-230501.md");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_pending),
		cmocka_unit_test(test_full_run),
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_finish_early),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_sweep_text),
		cmocka_unit_test(test_wrap_and_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
