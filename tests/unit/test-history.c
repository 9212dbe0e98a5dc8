/* test-history.c: the run history's file (a record written and read back
 * whole, the list's order and filter, a newer schema refused) and
 * compare's model (settings named from the snapshots, counters ignored,
 * noise, findings that appeared and went away, the one line) */
#include "config.h"

#include <errno.h>
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

#include "compare.h"
#include "history.h"
#include "xmalloc.h"

static const char snap_a[] =
	"{\"host\":{\"hostname\":\"h\",\"boot_id\":\"b1\"},"
	"\"link\":{\"mtu\":1500,\"counters\":{\"rx_bytes\":10}},"
	"\"ethtool\":{\"rings\":{\"status\":\"ok\",\"rx\":{\"current\":256,"
	"\"max\":4096}},\"features\":{\"offloads\":{\"tso\":{\"on\":true}}}},"
	"\"irq\":{\"lines\":[{\"name\":\"eth0-rx-0\",\"smp_affinity_list\":"
	"\"0\",\"total\":5}]},"
	"\"sysctl\":{\"values\":{\"net.core.rmem_max\":{\"status\":\"ok\","
	"\"value\":212992},\"net.ipv4.tcp_rmem\":{\"value\":[4096,131072,"
	"6291456]}}}}";
static const char snap_b[] =
	"{\"host\":{\"hostname\":\"h\",\"boot_id\":\"b2\"},"
	"\"link\":{\"mtu\":9000,\"counters\":{\"rx_bytes\":99}},"
	"\"ethtool\":{\"rings\":{\"status\":\"ok\",\"rx\":{\"current\":4096,"
	"\"max\":4096}},\"features\":{\"offloads\":{\"tso\":{\"on\":true}}}},"
	"\"irq\":{\"lines\":[{\"name\":\"eth0-rx-0\",\"smp_affinity_list\":"
	"\"1\",\"total\":7}]},"
	"\"sysctl\":{\"values\":{\"net.core.rmem_max\":{\"status\":\"ok\","
	"\"value\":212992},\"net.ipv4.tcp_rmem\":{\"value\":[4096,131072,"
	"16777216]}}}}";

static void rec(struct ps_hist_rec *r, double bps, double spread,
		const char *snap, const char *check)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->kind, sizeof(r->kind), "check");
	snprintf(r->target, sizeof(r->target), "10.0.0.2");
	snprintf(r->direction, sizeof(r->direction), "forward");
	snprintf(r->proto, sizeof(r->proto), "tcp");
	r->streams = 1;
	r->bps = bps;
	r->spread = spread;
	r->snap[0] = snap ? xstrdup(snap) : NULL;
	r->check = check ? xstrdup(check) : NULL;
}

static const struct ps_cmp_change *find(const struct ps_cmp_side *s,
					const char *what)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].what, what))
			return &s->v[i];
	return NULL;
}

static void test_compare_names_settings(void **state)
{
	struct ps_cmp c = { 0 };
	const struct ps_cmp_change *x;
	char line[512];

	rec(&c.run[0], 6.1e9, 0.01, snap_a,
	    "{\"findings\":[{\"id\":\"rx_ring_small\",\"title\":\"small\"}]}");
	rec(&c.run[1], 9.4e9, 0.02, snap_b,
	    "{\"findings\":[{\"id\":\"jumbo\",\"title\":\"big\"}]}");
	c.run[0].time_ns = 0;
	ps_compare_build(&c);
	/* the settings, by name; never the counters or unchanged ones */
	assert_int_equal(c.side[0].n, 4);
	x = find(&c.side[0], "rx ring");
	assert_non_null(x);
	assert_string_equal(x->before, "256");
	assert_string_equal(x->after, "4096");
	assert_non_null(find(&c.side[0], "MTU"));
	assert_non_null(find(&c.side[0], "IRQ eth0-rx-0 affinity"));
	x = find(&c.side[0], "net.ipv4.tcp_rmem");
	assert_non_null(x);
	assert_string_equal(x->after, "4096 131072 16777216");
	assert_null(find(&c.side[0], "offload tso"));
	assert_true(c.side[0].rebooted);
	assert_false(c.side[1].have);
	assert_true(fabs(c.change_pct - 54.098) < 0.01);
	assert_false(c.noise);
	assert_int_equal(c.nappeared, 1);
	assert_string_equal(c.appeared[0].id, "jumbo");
	assert_int_equal(c.ngone, 1);
	assert_string_equal(c.gone[0].id, "rx_ring_small");
	ps_compare_line(&c, 7200000000000LL, line, sizeof(line));
	assert_non_null(strstr(line, "since the last run to 10.0.0.2 (2 h "
				     "ago): "));
	assert_non_null(strstr(line, "rx ring 256 → 4096"));
	assert_non_null(strstr(line, "rate 6.10 Gbit/s → 9.40 Gbit/s"));
	ps_compare_free(&c);
}

static void test_compare_noise(void **state)
{
	struct ps_cmp c = { 0 };

	rec(&c.run[0], 9.0e9, 0.05, snap_a, NULL);
	rec(&c.run[1], 9.3e9, 0.01, snap_a, NULL);
	ps_compare_build(&c);
	assert_true(c.noise); /* +3.3% within a 5% spread */
	assert_int_equal(c.side[0].n, 0);
	ps_compare_free(&c);
}

static void test_file_roundtrip(void **state)
{
	char path[] = "/tmp/ps-hist-unit.XXXXXX", db[64], err[512];
	struct ps_hist *h;
	struct ps_hist_rec r, back, *rows;
	int64_t id[3];
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	snprintf(db, sizeof(db), "%s/sub/h.db", path);
	assert_int_equal(ps_hist_open(db, PS_HIST_READ, &h, err, sizeof(err)),
			 -ENOENT);
	assert_int_equal(ps_hist_open(db, PS_HIST_WRITE, &h, err, sizeof(err)),
			 0);
	for (int i = 0; i < 3; i++) {
		rec(&r, 1e9 * (i + 1), NAN, snap_a, NULL);
		r.time_ns = 1000 + i;
		if (i == 1)
			snprintf(r.target, sizeof(r.target), "other");
		r.snap[1] = xstrdup(snap_b);
		r.result = xstrdup("{\"end\":{}}");
		assert_int_equal(ps_hist_write(h, &r, &id[i], err, sizeof(err)),
				 0);
		ps_hist_rec_free(&r);
	}
	assert_int_equal(ps_hist_get(h, id[2], &back, err, sizeof(err)), 0);
	assert_string_equal(back.snap[0], snap_a);
	assert_string_equal(back.snap[1], snap_b);
	assert_string_equal(back.result, "{\"end\":{}}");
	assert_true(isnan(back.spread));
	assert_true(back.bps == 3e9);
	ps_hist_rec_free(&back);
	assert_int_equal(ps_hist_get(h, 99, &back, err, sizeof(err)), -ENOENT);
	/* the newest two to 10.0.0.2, oldest first */
	assert_int_equal(
		ps_hist_list(h, "10.0.0.2", 2, &rows, err, sizeof(err)), 2);
	assert_true(rows[0].id == id[0] && rows[1].id == id[2]);
	free(rows);
	ps_hist_close(h);
	/* a file of a newer schema is refused, not rewritten */
	{
		char cmd[256];

		snprintf(cmd, sizeof(cmd),
			 "sqlite3 %s 'PRAGMA user_version = 99' 2>/dev/null",
			 db);
		if (system(cmd) == 0) {
			assert_int_equal(ps_hist_open(db, PS_HIST_WRITE, &h,
						      err, sizeof(err)),
					 -EPROTO);
			assert_non_null(strstr(err, "newer pipescope"));
		}
		snprintf(cmd, sizeof(cmd), "rm -rf %s", path);
		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_names_settings),
		cmocka_unit_test(test_compare_noise),
		cmocka_unit_test(test_file_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
