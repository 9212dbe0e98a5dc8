/* test-history.c: the run history's file (a record written and read back
 * whole, the list's order and filter, a newer schema refused) and
 * compare's model (settings named from the snapshots, counters ignored,
 * noise, findings that appeared and went away, the one line) and its
 * HTML page (a hostile record escaped; the bars, each stream's too) */
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
#include <json-c/json.h>

#include "compare-html.h"
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
	assert_non_null(strstr(line, "rx ring 256 entries → 4096 entries"));
	assert_non_null(strstr(line, "rate 6.10 Gbit/s → 9.40 Gbit/s"));
	ps_compare_free(&c);
}

static char *page(const struct ps_cmp *c, bool chart_only);

/* every kind of setting is named as a person would and shown with its
 * unit: a tbf by its kind, handle and device, rates in bit/s units, sizes
 * in bytes, counts, switches, CPU lists and masks (issue 25 item 13) */
static const char units_a[] =
	"{\"host\":{\"hostname\":\"h\"},"
	"\"link\":{\"mtu\":1500,\"txqlen\":1000,\"gso_max_size\":65536},"
	"\"ethtool\":{\"rings\":{\"rx\":{\"current\":1}},"
	"\"coalesce\":{\"rx_usecs\":50,\"adaptive_rx\":true},"
	"\"pause\":{\"rx\":true,\"rx_frames\":10}},"
	"\"irq\":{\"queues\":{\"rx\":[{\"name\":\"rx-0\",\"rps_cpus\":"
	"\"00000000,00000000\"}]}},"
	"\"pci\":{\"link\":{\"speed_gts\":8,\"width\":16},"
	"\"payload\":{\"max_payload\":256}},"
	"\"sysctl\":{\"values\":{"
	"\"net.core.rmem_max\":{\"value\":212992},"
	"\"net.ipv4.tcp_rmem\":{\"value\":[4096,131072,6291456]},"
	"\"net.ipv4.tcp_sack\":{\"value\":1},"
	"\"net.ipv4.tcp_mtu_probing\":{\"value\":0},"
	"\"net.core.netdev_budget_usecs\":{\"value\":2000},"
	"\"net.ipv4.tcp_congestion_control\":{\"value\":\"cubic\"}}},"
	"\"qdisc\":{\"ifname\":\"u3a0\",\"status\":\"ok\",\"qdiscs\":[{"
	"\"kind\":\"tbf\",\"handle\":\"8009:\",\"parent\":\"root\","
	"\"rate_bps\":600000000,\"burst_bytes\":65500,\"limit_bytes\":61440,"
	"\"bytes\":5,\"drops\":1}],"
	"\"classes\":[{\"kind\":\"htb\",\"handle\":\"1:10\",\"ceil_bps\":"
	"1000000000}]}}";
static const char units_b[] =
	"{\"host\":{\"hostname\":\"h\"},"
	"\"link\":{\"mtu\":9000,\"txqlen\":1,\"gso_max_size\":524288},"
	"\"ethtool\":{\"rings\":{\"rx\":{\"current\":4096}},"
	"\"coalesce\":{\"rx_usecs\":8,\"adaptive_rx\":false},"
	"\"pause\":{\"rx\":true,\"rx_frames\":99}},"
	"\"irq\":{\"queues\":{\"rx\":[{\"name\":\"rx-0\",\"rps_cpus\":"
	"\"00000001,0000000e\"}]}},"
	"\"pci\":{\"link\":{\"speed_gts\":16,\"width\":8},"
	"\"payload\":{\"max_payload\":512}},"
	"\"sysctl\":{\"values\":{"
	"\"net.core.rmem_max\":{\"value\":4194304},"
	"\"net.ipv4.tcp_rmem\":{\"value\":[4096,131072,33554432]},"
	"\"net.ipv4.tcp_sack\":{\"value\":0},"
	"\"net.ipv4.tcp_mtu_probing\":{\"value\":1},"
	"\"net.core.netdev_budget_usecs\":{\"value\":8000},"
	"\"net.ipv4.tcp_congestion_control\":{\"value\":\"bbr\"}}},"
	"\"qdisc\":{\"ifname\":\"u3a0\",\"status\":\"ok\",\"qdiscs\":[{"
	"\"kind\":\"tbf\",\"handle\":\"8009:\",\"parent\":\"root\","
	"\"rate_bps\":900000000,\"burst_bytes\":131072,\"limit_bytes\":"
	"61440,\"bytes\":99,\"drops\":7}],"
	"\"classes\":[{\"kind\":\"htb\",\"handle\":\"1:10\",\"ceil_bps\":"
	"2500000000}]}}";

static void test_compare_units(void **state)
{
	static const struct {
		const char *what, *before, *after;
	} want[] = {
		{ "MTU", "1500 bytes", "9000 bytes" },
		{ "txqueuelen", "1000 packets", "1 packet" },
		{ "GSO max size", "64 KiB", "512 KiB" },
		{ "rx ring", "1 entry", "4096 entries" },
		{ "coalescing rx-usecs", "50 µs", "8 µs" },
		{ "adaptive rx coalescing", "on", "off" },
		{ "rx queue rx-0 RPS CPUs", "no CPU", "CPUs 1-3,32" },
		{ "PCIe link speed", "8 GT/s", "16 GT/s" },
		{ "PCIe link width", "x16", "x8" },
		{ "PCIe max payload", "256 B", "512 B" },
		{ "net.core.rmem_max", "208 KiB", "4 MiB" },
		{ "net.ipv4.tcp_rmem", "4 KiB / 128 KiB / 6 MiB",
		  "4 KiB / 128 KiB / 32 MiB" },
		{ "net.ipv4.tcp_sack", "on", "off" },
		{ "net.ipv4.tcp_mtu_probing", "off", "on after a black hole" },
		{ "net.core.netdev_budget_usecs", "2000 µs", "8000 µs" },
		{ "net.ipv4.tcp_congestion_control", "cubic", "bbr" },
		{ "tbf 8009: on u3a0: rate", "600 Mbit/s", "900 Mbit/s" },
		{ "tbf 8009: on u3a0: burst", "65500 B", "128 KiB" },
		{ "htb class 1:10 on u3a0: ceil", "1 Gbit/s", "2.5 Gbit/s" },
	};
	struct ps_cmp c = { 0 };
	char line[1024], *text = NULL, *html;
	size_t tl = 0;
	FILE *f;

	(void)state;
	rec(&c.run[0], 6e8, 0.01, units_a, NULL);
	rec(&c.run[1], 9e8, 0.01, units_b, NULL);
	ps_compare_build(&c);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct ps_cmp_change *x = find(&c.side[0], want[i].what);

		if (!x)
			fail_msg("no change named \"%s\"", want[i].what);
		assert_string_equal(x->before_text, want[i].before);
		assert_string_equal(x->after_text, want[i].after);
	}
	/* exactly those: no counter (the pause frames, the qdisc's bytes
	 * and drops), nothing unchanged (the tbf's limit) */
	assert_int_equal(c.side[0].n, sizeof(want) / sizeof(want[0]));
	assert_null(find(&c.side[0], "tbf 8009: on u3a0: limit"));
	/* the raw value stays the JSON's */
	assert_string_equal(find(&c.side[0], "tbf 8009: on u3a0: rate")->after,
			    "900000000");
	/* and every renderer says it so: the line, the text, the page */
	ps_compare_line(&c, 0, line, sizeof(line));
	assert_non_null(strstr(line, "coalescing rx-usecs 50 µs → 8 µs, "));
	f = open_memstream(&text, &tl);
	ps_compare_print(f, &c);
	fclose(f);
	assert_non_null(strstr(text, "tbf 8009: on u3a0: rate"));
	assert_non_null(strstr(text, "600 Mbit/s → 900 Mbit/s\n"));
	assert_null(strstr(text, "qdiscs."));
	assert_null(strstr(text, "600000000"));
	free(text);
	html = page(&c, false);
	assert_non_null(strstr(html, "<td class=\"what\">tbf 8009: on u3a0: "
				     "rate</td><td class=\"before\">600 Mbit/s"
				     "</td><td class=\"after\">900 Mbit/s"
				     "</td>"));
	free(html);
	ps_compare_free(&c);

	/* the tbf alone changed: the line names it */
	memset(&c, 0, sizeof(c));
	{
		char *b = xstrdup(units_a), *at = strstr(b, "600000000");

		memcpy(at, "900", 3);
		rec(&c.run[0], 6e8, 0.01, units_a, NULL);
		rec(&c.run[1], 9e8, 0.01, b, NULL);
		free(b);
	}
	ps_compare_build(&c);
	ps_compare_line(&c, 0, line, sizeof(line));
	assert_non_null(strstr(line, ": tbf 8009: on u3a0: rate 600 Mbit/s → "
				     "900 Mbit/s, rate "));
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

/* history --format json's object: its keys in order; not known: none */
static void test_rec_json(void **state)
{
	struct ps_hist_rec r;
	struct json_object *j;

	(void)state;
	rec(&r, 9.5e9, 0.25, NULL, NULL);
	r.id = 7;
	r.port = 5201;
	snprintf(r.top_finding, sizeof(r.top_finding), "mtu_small");
	snprintf(r.end[0].host, sizeof(r.end[0].host), "a");
	j = ps_hist_rec_json(&r);
	assert_string_equal(
		json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN),
		"{\"id\":7,\"time_ns\":0,\"kind\":\"check\",\"target\":"
		"\"10.0.0.2\",\"port\":5201,\"protocol\":\"tcp\","
		"\"direction\":\"forward\",\"streams\":1,"
		"\"bits_per_second\":9500000000.0,\"spread\":0.25,"
		"\"top_finding\":\"mtu_small\",\"host\":\"a\"}");
	json_object_put(j);
	r.bps = NAN;
	r.spread = INFINITY;
	r.target[0] = r.top_finding[0] = r.end[0].host[0] = 0;
	j = ps_hist_rec_json(&r);
	assert_string_equal(
		json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN),
		"{\"id\":7,\"time_ns\":0,\"kind\":\"check\",\"port\":5201,"
		"\"protocol\":\"tcp\",\"direction\":\"forward\","
		"\"streams\":1}");
	json_object_put(j);
	/* a UDP run's loss, beside its rate; a TCP run has none */
	snprintf(r.proto, sizeof(r.proto), "udp");
	r.bps = 1.95e9;
	r.loss = 0.024;
	j = ps_hist_rec_json(&r);
	assert_non_null(strstr(
		json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN),
		"\"bits_per_second\":1950000000.0,\"loss\":0.024}"));
	json_object_put(j);
	{
		char buf[64];

		ps_hist_rate_text(&r, buf, sizeof(buf));
		assert_string_equal(buf, "1.95 Gbit/s, 2.4% lost");
		r.loss = NAN;
		ps_hist_rate_text(&r, buf, sizeof(buf));
		assert_string_equal(buf, "1.95 Gbit/s");
		snprintf(r.proto, sizeof(r.proto), "tcp");
		r.loss = 0.5;
		ps_hist_rate_text(&r, buf, sizeof(buf));
		assert_string_equal(buf, "1.95 Gbit/s");
	}
	ps_hist_rec_free(&r);
}

/* records of the time "not known" was null read as those where it is a
 * key left out (doc/history.md) */
static void test_null_is_absent(void **state)
{
	static const char old_snap[] =
		"{\"host\":{\"hostname\":\"h\",\"boot_id\":null},"
		"\"link\":{\"mtu\":1500,\"qdisc\":null}}";
	static const char new_snap[] = "{\"host\":{\"hostname\":\"h\"},"
				       "\"link\":{\"mtu\":1500}}";
	static const char mtu_snap[] =
		"{\"host\":{\"hostname\":\"h\"},"
		"\"link\":{\"mtu\":9000,\"qdisc\":\"fq\"}}";
	struct ps_cmp c = { 0 };
	struct json_object *j, *ch, *e;

	(void)state;
	rec(&c.run[0], 1e9, NAN, old_snap,
	    "{\"peer\":null,\"answer\":{\"top\":null},\"findings\":[{\"id\":"
	    "\"x\",\"title\":\"t\",\"ceiling_bps\":null}]}");
	rec(&c.run[1], 1e9, NAN, new_snap,
	    "{\"answer\":{},\"findings\":[{\"id\":\"x\",\"title\":\"t\"}]}");
	ps_compare_build(&c);
	assert_true(c.side[0].have);
	assert_int_equal(c.side[0].n, 0);
	assert_int_equal(c.nappeared, 0);
	assert_int_equal(c.ngone, 0);
	/* not known in the JSON: no key (spread NaN, top_finding "") */
	j = ps_compare_json(&c);
	assert_null(strstr(json_object_to_json_string(j), "null"));
	json_object_put(j);
	ps_compare_free(&c);

	/* a setting that one run has not: before or after left out */
	memset(&c, 0, sizeof(c));
	rec(&c.run[0], 1e9, 0.01, old_snap, NULL);
	rec(&c.run[1], 1e9, 0.01, mtu_snap, NULL);
	ps_compare_build(&c);
	j = ps_compare_json(&c);
	ch = json_object_object_get(
		json_object_object_get(json_object_object_get(j, "ends"),
				       "local"),
		"changes");
	assert_non_null(ch);
	for (size_t i = 0; i < json_object_array_length(ch); i++) {
		e = json_object_array_get_idx(ch, i);
		if (!strcmp(json_object_get_string(
				    json_object_object_get(e, "key")),
			    "link.qdisc")) {
			assert_false(
				json_object_object_get_ex(e, "before", NULL));
			assert_string_equal(
				json_object_get_string(
					json_object_object_get(e, "after")),
				"fq");
		}
	}
	assert_null(strstr(json_object_to_json_string(j), "null"));
	json_object_put(j);
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

/* a -J document of `intervals` intervals of `streams` streams, each of
 * `keys` numbers */
static char *big_result(int intervals, int streams, int keys)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fputs("{\"start\":{},\"intervals\":[", f);
	for (int i = 0; i < intervals; i++) {
		fprintf(f, "%s{\"streams\":[", i ? "," : "");
		for (int s = 0; s < streams; s++) {
			fprintf(f, "%s{", s ? "," : "");
			for (int k = 0; k < keys; k++)
				fprintf(f, "%s\"k%d\":%d", k ? "," : "", k, i);
			fputc('}', f);
		}
		fprintf(f, "],\"sum\":{\"bytes\":%d}}", i);
	}
	fputs("],\"end\":{\"sum\":{\"bytes\":7}},\"pipescope\":{}}", f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* n zeros in an array under "a" */
static char *zeros(int n)
{
	char *s = xmalloc((size_t)n * 2 + 16);
	size_t at = (size_t)sprintf(s, "{\"a\":[");

	for (int i = 0; i < n; i++)
		at += (size_t)sprintf(s + at, "%s0", i ? "," : "");
	strcpy(s + at, "]}");
	return s;
}

/* a record larger than one may be read back is made to fit when written:
 * the intervals' streams, then the intervals, then the far end's snapshot
 * give way, and what is kept reads back whole */
static void test_record_bounds(void **state)
{
	char path[] = "/tmp/ps-hist-unit.XXXXXX", db[64], err[512];
	struct ps_hist *h;
	struct ps_hist_rec r, back;
	struct json_object *o, *v;
	int64_t id[3];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	snprintf(db, sizeof(db), "%s/h.db", path);
	/* a handle per record, as a test writes its one record: the write
	 * budget is a handle's */
	for (int i = 0; i < 3; i++) {
		assert_int_equal(
			ps_hist_open(db, PS_HIST_WRITE, &h, err, sizeof(err)),
			0);
		rec(&r, 1e9, NAN, snap_a, NULL);
		if (i == 0) /* 400 x 128 streams x 8 keys: 410000 values */
			r.result = big_result(400, 128, 8);
		else if (i == 1) /* 450000 intervals' sums alone */
			r.result = big_result(150000, 0, 0);
		if (i == 2) { /* two snapshots of 250000 values each */
			free(r.snap[0]);
			r.snap[0] = zeros(250000);
			r.snap[1] = zeros(250000);
		}
		assert_int_equal(ps_hist_write(h, &r, &id[i], err, sizeof(err)),
				 0);
		ps_hist_rec_free(&r);
		ps_hist_close(h);
	}
	assert_int_equal(ps_hist_open(db, PS_HIST_READ, &h, err, sizeof(err)),
			 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(ps_hist_get(h, id[i], &back, err, sizeof(err)),
				 0);
		assert_int_equal(back.left_out, 0);
		if (i < 2) {
			o = json_tokener_parse(back.result);
			assert_non_null(o);
			assert_true(
				json_object_object_get_ex(o, "pipescope", &v));
			assert_true(json_object_object_get_ex(
				v, "history_trimmed", &v));
			assert_string_equal(json_object_get_string(v),
					    i ? "intervals" : "streams");
			/* the summary is kept */
			assert_true(json_object_object_get_ex(o, "end", &v));
			assert_int_equal(
				json_object_object_get_ex(o, "intervals", &v),
				i == 0);
			json_object_put(o);
			assert_string_equal(back.snap[0], snap_a);
		} else {
			assert_non_null(back.snap[0]);
			assert_null(back.snap[1]);
		}
		ps_hist_rec_free(&back);
	}
	ps_hist_close(h);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", path);
		assert_int_equal(system(cmd), 0);
	}
}

/* the page and its chart into memory */
static char *page(const struct ps_cmp *c, bool chart_only)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (chart_only)
		ps_compare_chart_svg(f, c, true);
	else
		ps_compare_html(f, c);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

#define EVIL "<script>alert(\"x\")</script>'&\x1b[31m\x07\n"

static void test_compare_html_hostile(void **state)
{
	static const char snap_evil[] =
		"{\"host\":{\"hostname\":\"<script>h\\\"'\\u001b\"},"
		"\"sysctl\":{\"values\":{\"net.<script>x\":{\"value\":"
		"\"</td><script>\\u0007\"}}}}";
	struct ps_cmp c = { 0 };
	char *html, *svg;

	rec(&c.run[0], 1e9, NAN, snap_a,
	    "{\"findings\":[{\"id\":\"<b>\",\"title\":\"" EVIL "\"}]}");
	rec(&c.run[1], 2e9, NAN, snap_evil,
	    "{\"findings\":[{\"id\":\"x\\\"><img src=y onerror=z>\","
	    "\"title\":\"<script>\\u001b\"}]}");
	/* the far end's -J document, its streams' rates broken */
	c.run[1].result = xstrdup("{\"end\":{\"streams\":[{\"receiver\":"
				  "{\"bits_per_second\":\"<script>\"}},7]}}");
	c.run[0].result = xstrdup("{\"end\":{\"streams\":[{\"receiver\":"
				  "{\"bits_per_second\":1e400}},{}]}}");
	snprintf(c.run[1].target, sizeof(c.run[1].target), "%s", EVIL);
	snprintf(c.run[1].kind, sizeof(c.run[1].kind), "<i>\"'");
	snprintf(c.run[1].direction, sizeof(c.run[1].direction), "</td>");
	snprintf(c.run[1].end[0].host, sizeof(c.run[1].end[0].host), "%s",
		 EVIL);
	snprintf(c.run[1].end[1].host, sizeof(c.run[1].end[1].host),
		 "\"><svg onload=x>");
	ps_compare_build(&c);
	assert_true(c.side[0].n > 0);
	html = page(&c, false);
	/* nothing from the record reached the page as markup or a byte a
	 * terminal or browser would act on */
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<img"));
	assert_null(strstr(html, "<b>"));
	assert_null(strstr(html, "<i>"));
	assert_null(strstr(html, "onerror=z>"));
	assert_null(strchr(html, '\x1b'));
	assert_null(strchr(html, '\x07'));
	assert_int_equal(count(html, "<svg"), 1);
	assert_int_equal(count(html, "</svg>"), 1);
	assert_int_equal(count(html, "<td"), count(html, "</td>"));
	assert_int_equal(count(html, "<tr"), count(html, "</tr>"));
	/* but said, escaped */
	assert_non_null(strstr(html, "&lt;script&gt;alert(&quot;x&quot;)"
				     "&lt;/script&gt;&#39;&amp;"));
	assert_non_null(strstr(html, "<td class=\"what\">net.&lt;script&gt;x"
				     "</td>"));
	assert_non_null(strstr(html, "&quot;&gt;&lt;svg onload=x&gt;"));
	assert_non_null(strstr(html, "<li class=\"appeared\"><code>x&quot;"
				     "&gt;&lt;img src=y onerror=z&gt;</code>"));
	/* the broken stream rates are no bars: the sums only */
	assert_int_equal(count(html, "<rect class=\"bar\""), 2);
	assert_null(strstr(html, ">inf"));
	assert_null(strstr(html, ">nan"));
	assert_null(strstr(html, "\"inf"));
	assert_null(strstr(html, "\"nan"));
	free(html);
	svg = page(&c, true);
	assert_true(!strncmp(svg, "<?xml", 5));
	assert_non_null(strstr(svg, "xmlns=\"http://www.w3.org/2000/svg\""));
	assert_null(strstr(svg, "<script"));
	free(svg);
	ps_compare_free(&c);
}

static void test_compare_html_streams(void **state)
{
	struct ps_cmp c = { 0 };
	char *html;

	rec(&c.run[0], 3e9, 0.02, snap_a, NULL);
	rec(&c.run[1], 3.52e9, 0.01, snap_b, NULL);
	c.run[0].result =
		xstrdup("{\"end\":{\"streams\":[{\"receiver\":{\"bits_per_"
			"second\":1e9}},{\"receiver\":{\"bits_per_second\":"
			"2e9}}]}}");
	c.run[1].result =
		xstrdup("{\"end\":{\"streams\":[{\"receiver\":{\"bits_per_"
			"second\":1.5e9}},{\"udp\":{\"bits_per_second\":"
			"2.02e9}}]}}");
	ps_compare_build(&c);
	html = page(&c, false);
	/* the sums and two streams, a bar a run each */
	assert_int_equal(count(html, "<rect class=\"bar\""), 6);
	assert_int_equal(count(html, "class=\"group-label\""), 3);
	assert_non_null(strstr(html, ">+17.3%</text>"));
	assert_non_null(strstr(html, ">+50.0%</text>"));
	assert_non_null(strstr(html, ">noise (+1.0%)</text>"));
	assert_non_null(strstr(html, "<p class=\"change\">rate change: "
				     "+17.3%</p>"));
	assert_non_null(strstr(html, "<td class=\"what\">rx ring</td>"
				     "<td class=\"before\">256 entries</td>"
				     "<td class=\"after\">4096 entries</td>"));
	free(html);
	/* within the spread the sums' change is called noise too */
	ps_compare_free(&c);
	memset(&c, 0, sizeof(c));
	rec(&c.run[0], 3e9, 0.02, snap_a, NULL);
	rec(&c.run[1], 3.03e9, 0.01, snap_a, NULL);
	ps_compare_build(&c);
	html = page(&c, false);
	assert_non_null(strstr(html, "<p class=\"change noise\">"));
	assert_non_null(strstr(html, ">noise (+1.0%)</text>"));
	assert_non_null(strstr(html, "no setting changed"));
	assert_int_equal(count(html, "<rect class=\"bar\""), 2);
	free(html);
	ps_compare_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_names_settings),
		cmocka_unit_test(test_compare_units),
		cmocka_unit_test(test_compare_noise),
		cmocka_unit_test(test_null_is_absent),
		cmocka_unit_test(test_rec_json),
		cmocka_unit_test(test_compare_html_hostile),
		cmocka_unit_test(test_compare_html_streams),
		cmocka_unit_test(test_file_roundtrip),
		cmocka_unit_test(test_record_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
