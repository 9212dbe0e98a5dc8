/* test-procs.c: the processes probe (probes/probe-procs.c): /proc/PID/stat
 * lines as the kernel writes them and as a hostile recording could, the
 * busiest processes between two samples, the snapshot's JSON both ways,
 * and a live sample of this machine that finds this very process busy */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "probe-procs.h"
#include "sysroot.h"

/* a real line (Debian 12, a busy loop in bash) */
static const char real[] =
	"4242 (bash) R 4100 4242 4100 34816 4242 4194304 150 0 0 0 "
	"1234 56 0 0 20 0 1 0 987654 9887744 893 18446744073709551615 "
	"1 1 0 0 0 0 65536 3686404 1266761467 0 0 0 17 1 0 0 0 0 0\n";

static void test_parse(void **state)
{
	struct ps_proc p;

	(void)state;
	assert_int_equal(ps_procs_parse_stat(real, &p), 0);
	assert_int_equal(p.pid, 4242);
	assert_string_equal(p.comm, "bash");
	assert_int_equal(p.ticks, 1234 + 56);
	assert_int_equal(p.start, 987654);
	/* a name with spaces and ')' in it: the last ')' ends it; a
	 * negative tpgid and nice are numbers too */
	assert_int_equal(ps_procs_parse_stat("7 (a) b (c)) S 1 7 7 0 -1 0 0 "
					     "0 0 0 5 6 0 0 20 -5 1 0 99 0",
					     &p),
			 0);
	assert_string_equal(p.comm, "a) b (c)");
	assert_int_equal(p.ticks, 11);
	assert_int_equal(p.start, 99);
	/* an escape in the name is shown escaped, never raw */
	assert_int_equal(ps_procs_parse_stat("8 (\x1b[2Jx) S 1 1 1 0 0 0 0 0 "
					     "0 0 1 1 0 0 20 0 1 0 5 0",
					     &p),
			 0);
	assert_null(strchr(p.comm, 0x1b));
	assert_non_null(strstr(p.comm, "\\x1b"));
	/* not a stat line */
	assert_int_equal(ps_procs_parse_stat("", &p), -EINVAL);
	assert_int_equal(ps_procs_parse_stat("12 bash R 1", &p), -EINVAL);
	assert_int_equal(ps_procs_parse_stat("-3 (x) R 1 2 3", &p), -EINVAL);
	assert_int_equal(ps_procs_parse_stat("9 (x) R 1 2", &p), -EINVAL);
	assert_int_equal(ps_procs_parse_stat(")9 (x", &p), -EINVAL);
	assert_int_equal(ps_procs_parse_stat("9 (x) R 1 2 3 4 5 6 7 8 9 10 "
					     "zz 12 13 14 15 16 17 18 19 20",
					     &p),
			 -EINVAL);
}

static void add(struct ps_procs_info *i, int pid, uint64_t start,
		uint64_t ticks, const char *comm)
{
	struct ps_proc *p;

	i->all = realloc(i->all, (size_t)(i->nall + 1) * sizeof(*i->all));
	p = &i->all[i->nall++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->start = start;
	p->ticks = ticks;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
}

static void test_busiest(void **state)
{
	struct ps_procs_info a = { .status = PS_ST_OK, .hz = 100 };
	struct ps_procs_info b = { .status = PS_ST_OK, .hz = 100 };
	struct ps_proc top[3];
	int self = 30, n;

	(void)state;
	add(&a, 10, 1, 100, "idle");
	add(&a, 20, 1, 100, "stress");
	add(&a, 30, 1, 100, "pipescope");
	add(&a, 40, 1, 100, "old");
	add(&b, 10, 1, 100, "idle");
	add(&b, 20, 1, 300, "stress"); /* 200 ticks in 2 s: 100% */
	add(&b, 30, 1, 500, "pipescope");
	add(&b, 40, 9, 150, "reused"); /* another process, same pid */
	add(&b, 50, 1, 120, "new");    /* not in a: unknown */
	n = ps_procs_busiest(&a, &b, 2.0, &self, 1, top, 3);
	assert_int_equal(n, 1);
	assert_int_equal(top[0].pid, 20);
	assert_string_equal(top[0].comm, "stress");
	assert_true(fabs(top[0].pct - 100) < 1e-9);
	/* without the skip list, the test's own process leads */
	n = ps_procs_busiest(&a, &b, 2.0, NULL, 0, top, 3);
	assert_int_equal(n, 2);
	assert_int_equal(top[0].pid, 30);
	assert_int_equal(top[1].pid, 20);
	/* whatever out held before is not a process: the last free slot
	 * is filled, not compared with */
	for (int i = 0; i < 3; i++)
		top[i].pct = 1e9;
	n = ps_procs_busiest(&a, &b, 2.0, NULL, 0, top, 2);
	assert_int_equal(n, 2);
	assert_int_equal(top[0].pid, 30);
	assert_int_equal(top[1].pid, 20);
	for (int i = 0; i < 3; i++)
		top[i].pct = 1e9;
	/* only the max busiest kept */
	n = ps_procs_busiest(&a, &b, 2.0, NULL, 0, top, 1);
	assert_int_equal(n, 1);
	assert_int_equal(top[0].pid, 30);
	assert_int_equal(ps_procs_busiest(&a, &b, 0, NULL, 0, top, 3), 0);
	ps_procs_rates(&a, &b, 2.0);
	assert_true(b.rated);
	assert_int_equal(b.ntop, 2);
	ps_procs_free(&a);
	ps_procs_free(&b);
}

static void test_json(void **state)
{
	struct ps_procs_info a = { .status = PS_ST_OK, .hz = 100, .self = 3 };
	struct ps_procs_info b;
	struct json_object *j;
	const char *bad =
		"{\"status\":\"ok\",\"busiest\":["
		"{\"pid\":5,\"comm\":\"\\u001b[31mred\",\"cpu_pct\":50},"
		"{\"pid\":-1,\"comm\":\"neg\",\"cpu_pct\":50},"
		"{\"pid\":6,\"comm\":\"inf\",\"cpu_pct\":1e300},"
		"{\"pid\":7,\"comm\":\"x\",\"cpu_pct\":-4}]}";

	(void)state;
	a.rated = true;
	a.interval_s = 1;
	a.ntop = 1;
	a.top[0].pid = 9;
	a.top[0].pct = 42.5;
	snprintf(a.top[0].comm, sizeof(a.top[0].comm), "iperf3");
	j = ps_procs_to_json(&a);
	assert_int_equal(ps_procs_from_json(j, &b), 0);
	json_object_put(j);
	assert_int_equal(b.status, PS_ST_OK);
	assert_int_equal(b.ntop, 1);
	assert_int_equal(b.top[0].pid, 9);
	assert_string_equal(b.top[0].comm, "iperf3");
	assert_true(fabs(b.top[0].pct - 42.5) < 0.05);
	assert_null(b.all); /* every process stays in memory only */
	/* the far end's: bounded, the name escaped */
	j = json_tokener_parse(bad);
	assert_non_null(j);
	assert_int_equal(ps_procs_from_json(j, &b), 0);
	json_object_put(j);
	assert_int_equal(b.ntop, 1);
	assert_int_equal(b.top[0].pid, 5);
	assert_null(strchr(b.top[0].comm, 0x1b));
}

/* this process spins: a live sample finds it among the busiest */
static void test_live(void **state)
{
	struct ps_procs_info a, b;
	int64_t t0;
	bool found = false;

	(void)state;
	assert_int_equal(ps_procs_sample("", &a), 0);
	assert_int_equal(a.self, (int)getpid());
	t0 = ps_mono_ns();
	while (ps_mono_ns() - t0 < 300000000LL)
		;
	assert_int_equal(ps_procs_sample("", &b), 0);
	ps_procs_rates(&a, &b, (double)(ps_mono_ns() - t0) / 1e9);
	for (int i = 0; i < b.ntop; i++)
		if (b.top[i].pid == (int)getpid() && b.top[i].pct > 20)
			found = true;
	assert_true(found);
	ps_procs_free(&a);
	ps_procs_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_busiest),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
