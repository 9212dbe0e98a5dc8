/* test-metrics.c: history --export openmetrics's formatter: label values
 * sanitised, bounded and escaped, a value not known (NaN, Infinity, a
 * negative rate, a loss beyond what was sent) left out rather than
 * printed, a family without a value left out whole, "# EOF" last; what a
 * test and a check record give; the newest run per target and direction
 * from a real history file, two names a hostile file makes alike one
 * target */
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

#include "history.h"
#include "metrics.h"
#include "xmalloc.h"

/* what ps_om_write writes of m, xmalloc'ed */
static char *written(const struct ps_om *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ps_om_write(f, m);
	fclose(f);
	return buf;
}

/* every byte printable ASCII, a UTF-8 byte or '\n' */
static void assert_no_controls(const char *s)
{
	for (; *s; s++)
		assert_true(*s == '\n' ||
			    ((unsigned char)*s >= 0x20 && *s != 0x7f));
}

static void test_number(void **state)
{
	char b[40];

	(void)state;
	ps_om_number(b, sizeof(b), NAN);
	assert_string_equal(b, "");
	ps_om_number(b, sizeof(b), INFINITY);
	assert_string_equal(b, "");
	ps_om_number(b, sizeof(b), -INFINITY);
	assert_string_equal(b, "");
	ps_om_number(b, sizeof(b), 3);
	assert_string_equal(b, "3");
	ps_om_number(b, sizeof(b), 0.25);
	assert_string_equal(b, "0.25");
	ps_om_number(b, sizeof(b), 1796656448.514);
	assert_string_equal(b, "1796656448.514");
	/* what does not fit 15 digits reads back as the same double */
	ps_om_number(b, sizeof(b), 25135970408.180725 / 8);
	assert_true(strtod(b, NULL) == 25135970408.180725 / 8);
}

static void test_label(void **state)
{
	char b[PS_OM_LABEL_MAX], longs[1000];

	(void)state;
	ps_om_label(b, sizeof(b), "a\nb\tc\x1b[31m\x7f");
	assert_null(strchr(b, '\n'));
	assert_null(strchr(b, '\x1b'));
	assert_no_controls(b);
	/* a byte that is not UTF-8 is no label byte */
	ps_om_label(b, sizeof(b), "x\xff\xc3y");
	assert_string_equal(b, "x??y");
	memset(longs, 'h', sizeof(longs) - 1);
	longs[sizeof(longs) - 1] = 0;
	ps_om_label(b, sizeof(b), longs);
	assert_int_equal(strlen(b), PS_OM_LABEL_MAX - 1);
}

static void dir(struct ps_om_dir *d, const char *target, const char *proto,
		const char *direction, double bps)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->target, sizeof(d->target), "%s", target);
	snprintf(d->proto, sizeof(d->proto), "%s", proto);
	snprintf(d->dir, sizeof(d->dir), "%s", direction);
	d->id = 7;
	d->time_ns = 1796656448514491294LL;
	d->bps = bps;
	d->retransmits = d->loss = NAN;
}

static void test_write(void **state)
{
	struct ps_om_dir d[2];
	struct ps_om_check c = { .bottleneck = -1, .ceiling_bps = NAN };
	struct ps_om m = { .dir = d, .ndir = 2, .check = &c, .ncheck = 1 };
	char *t;

	(void)state;
	/* a raw '\n', '"' and '\\' reach the writer only from a caller
	 * that skipped ps_om_label; they are escaped all the same */
	dir(&d[0], "h\"q\\b\nx", "tcp", "out", 8e9);
	d[0].retransmits = 12;
	dir(&d[1], "u", "udp", "in", NAN);
	snprintf(c.target, sizeof(c.target), "s");
	c.id = 9;
	c.time_ns = 2000000000;
	snprintf(c.top, sizeof(c.top), "rps_off");
	snprintf(c.severity, sizeof(c.severity), "warning");
	snprintf(c.title, sizeof(c.title), "say \"hi\" \\ there");
	t = written(&m);
	assert_no_controls(t);
	assert_non_null(
		strstr(t, "pipescope_throughput_bytes_per_second{target="
			  "\"h\\\"q\\\\b\\nx\","
			  "protocol=\"tcp\",direction=\"out\"} 1000000000\n"));
	assert_non_null(strstr(t,
			       "# TYPE pipescope_throughput_bytes_per_second "
			       "gauge\n"));
	assert_non_null(
		strstr(t, "# HELP pipescope_throughput_bytes_per_second "));
	assert_non_null(strstr(t, "pipescope_tcp_retransmitted_segments{target="
				  "\"h\\\"q\\\\b\\nx\",protocol=\"tcp\","
				  "direction=\"out\"} 12\n"));
	/* the UDP direction has no rate: no sample, and no "nan" anywhere */
	assert_null(strstr(t, "target=\"u\",protocol=\"udp\",direction=\"in\"} "
			      "nan"));
	assert_null(strcasestr(t, "} nan"));
	assert_null(strcasestr(t, "} inf"));
	assert_null(strcasestr(t, "} -inf"));
	assert_null(strcasestr(t, "} +inf"));
	assert_null(strstr(t, "} \n"));
	assert_null(strstr(
		t, "pipescope_throughput_bytes_per_second{target=\"u\""));
	/* but its run's time and id are known */
	assert_non_null(strstr(t,
			       "pipescope_run_timestamp_seconds{target=\"u\","
			       "protocol=\"udp\",direction=\"in\"} "
			       "1796656448.514\n"));
	/* no loss known at all: the family is left out, help and type too */
	assert_null(strstr(t, "pipescope_udp_loss_ratio"));
	/* no ceiling, no bottleneck known: left out */
	assert_null(strstr(t, "pipescope_binding_ceiling"));
	assert_null(strstr(t, "pipescope_check_bottleneck"));
	assert_non_null(strstr(t, "pipescope_top_finding_info{target=\"s\","
				  "finding=\"rps_off\",severity=\"warning\","
				  "title=\"say \\\"hi\\\" \\\\ there\"} 1\n"));
	assert_non_null(strstr(t, "pipescope_check_timestamp_seconds{target="
				  "\"s\"} 2\n"));
	/* the end */
	assert_true(strlen(t) > 6);
	assert_string_equal(t + strlen(t) - 6, "# EOF\n");
	free(t);

	/* nothing: only the end */
	m = (struct ps_om){ 0 };
	t = written(&m);
	assert_string_equal(t, "# EOF\n");
	free(t);
}

static void test_rec(struct ps_hist_rec *r, const char *proto,
		     const char *direction, const char *result)
{
	memset(r, 0, sizeof(*r));
	r->id = 3;
	r->time_ns = 1000000000;
	snprintf(r->kind, sizeof(r->kind), "test");
	snprintf(r->target, sizeof(r->target), "t");
	snprintf(r->proto, sizeof(r->proto), "%s", proto);
	snprintf(r->direction, sizeof(r->direction), "%s", direction);
	r->bps = NAN;
	r->result = result ? xstrdup(result) : NULL;
}

static void test_from_test(void **state)
{
	struct ps_hist_rec r;
	struct ps_om_dir d[2];

	(void)state;
	test_rec(&r, "tcp", "bidir",
		 "{\"end\":{\"sum_sent\":{\"retransmits\":6},"
		 "\"sum_received\":{\"bits_per_second\":2e9},"
		 "\"sum_sent_bidir_reverse\":{\"retransmits\":5},"
		 "\"sum_received_bidir_reverse\":{\"bits_per_second\":1e9}}}");
	assert_int_equal(ps_om_from_test(&r, "t", d), 2);
	assert_string_equal(d[0].dir, "out");
	assert_true(d[0].bps == 2e9 && d[0].retransmits == 6);
	assert_string_equal(d[1].dir, "in");
	assert_true(d[1].bps == 1e9 && d[1].retransmits == 5);
	assert_true(isnan(d[0].loss));
	ps_hist_rec_free(&r);

	/* a hostile document: NaN, Infinity, a negative count, a loss past
	 * what was sent; none of it a value */
	test_rec(&r, "udp", "reverse",
		 "{\"end\":{\"sum_received\":{\"bits_per_second\":NaN,"
		 "\"lost_packets\":9,\"packets\":3},"
		 "\"sum_sent\":{\"retransmits\":-Infinity}}}");
	assert_int_equal(ps_om_from_test(&r, "t", d), 1);
	assert_string_equal(d[0].dir, "in");
	assert_true(isnan(d[0].bps));
	assert_true(isnan(d[0].loss));
	assert_true(isnan(d[0].retransmits));
	ps_hist_rec_free(&r);

	/* UDP: the receiver's count; the record's own rate when the
	 * document has none */
	test_rec(&r, "udp", "forward",
		 "{\"end\":{\"sum_received\":{\"lost_packets\":1,"
		 "\"packets\":4}}}");
	r.bps = 5e6;
	assert_int_equal(ps_om_from_test(&r, "t", d), 1);
	assert_true(d[0].bps == 5e6);
	assert_true(d[0].loss == 0.25);
	assert_true(isnan(d[0].retransmits));
	ps_hist_rec_free(&r);

	/* no document, no direction known */
	test_rec(&r, "tcp", "none", "[1]");
	assert_int_equal(ps_om_from_test(&r, "t", d), 0);
	ps_hist_rec_free(&r);
	test_rec(&r, "sctp", "forward", NULL);
	assert_int_equal(ps_om_from_test(&r, "t", d), 0);
	ps_hist_rec_free(&r);
}

static void test_from_check(void **state)
{
	struct ps_hist_rec r;
	struct ps_om_check c;
	struct ps_om_dir d[2];

	(void)state;
	test_rec(&r, "tcp", "forward", NULL);
	snprintf(r.kind, sizeof(r.kind), "check");
	r.check = xstrdup(
		"{\"answer\":{\"bottleneck\":true,\"top\":\"pcie_link\","
		"\"binding\":{\"id\":\"pcie_link\",\"bps\":3657142857.143},"
		"\"directions\":[{\"direction\":\"out\",\"measured_bps\":3e9},"
		"{\"direction\":\"out\",\"measured_bps\":1},"
		"{\"direction\":\"both\",\"measured_bps\":4e9},"
		"{\"direction\":\"in\",\"measured_bps\":2e9}]},"
		"\"findings\":[{\"id\":\"x\",\"severity\":\"info\"},"
		"{\"id\":\"pcie_link\",\"severity\":\"bottleneck\","
		"\"title\":\"PCIe\\n\\u001b[2Jdown\"}]}");
	assert_int_equal(ps_om_from_check(&r, "t", &c, d), 2);
	assert_int_equal(c.bottleneck, 1);
	assert_string_equal(c.top, "pcie_link");
	assert_string_equal(c.severity, "bottleneck");
	assert_null(strchr(c.title, '\n'));
	assert_null(strchr(c.title, '\x1b'));
	assert_string_equal(c.ceiling, "pcie_link");
	assert_true(c.ceiling_bps == 3657142857.143);
	assert_string_equal(d[0].dir, "out");
	assert_true(d[0].bps == 3e9);
	assert_string_equal(d[1].dir, "in");
	assert_true(d[1].bps == 2e9);
	ps_hist_rec_free(&r);

	/* a check without a report: nothing known, nothing made up */
	test_rec(&r, "tcp", "none", NULL);
	snprintf(r.kind, sizeof(r.kind), "static");
	assert_int_equal(ps_om_from_check(&r, "t", &c, d), 0);
	assert_int_equal(c.bottleneck, -1);
	assert_string_equal(c.top, "");
	assert_true(isnan(c.ceiling_bps));
	ps_hist_rec_free(&r);
}

static void put(struct ps_hist *h, const char *target, const char *direction,
		int64_t t, double bps)
{
	struct ps_hist_rec r;
	char err[512], doc[256];
	int64_t id;

	test_rec(&r, "tcp", direction, NULL);
	snprintf(r.target, sizeof(r.target), "%s", target);
	r.time_ns = t;
	snprintf(doc, sizeof(doc),
		 "{\"end\":{\"sum_received\":{\"bits_per_second\":%.0f}}}",
		 bps);
	r.result = xstrdup(doc);
	assert_int_equal(ps_hist_write(h, &r, &id, err, sizeof(err)), 0);
	ps_hist_rec_free(&r);
}

static void test_collect(void **state)
{
	char path[] = "/tmp/ps-om-unit.XXXXXX", db[64], err[512];
	struct ps_hist *h;
	struct ps_om m;
	char *t;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	snprintf(db, sizeof(db), "%s/h.db", path);
	assert_int_equal(ps_hist_open(db, PS_HIST_WRITE, &h, err, sizeof(err)),
			 0);
	put(h, "a", "forward", 1000, 8e9);
	put(h, "a", "reverse", 2000, 16e9);
	/* newer: its forward rate replaces the first one's, the reverse
	 * stays */
	put(h, "a", "forward", 3000, 24e9);
	/* "h" and a control byte, and the text a sanitised one reads as:
	 * one label, the newer run */
	put(h, "h\x01", "forward", 4000, 8e6);
	put(h, "h\\x01", "forward", 5000, 16e6);
	ps_hist_close(h);

	assert_int_equal(ps_hist_open(db, PS_HIST_READ, &h, err, sizeof(err)),
			 0);
	assert_int_equal(ps_om_collect(h, NULL, &m, err, sizeof(err)), 0);
	assert_int_equal(m.ndir, 3);
	assert_int_equal(m.ncheck, 0);
	t = written(&m);
	assert_non_null(strstr(t, "{target=\"a\",protocol=\"tcp\","
				  "direction=\"out\"} 3000000000\n"));
	assert_non_null(strstr(t, "{target=\"a\",protocol=\"tcp\","
				  "direction=\"in\"} 2000000000\n"));
	assert_non_null(strstr(t, "{target=\"h\\\\x01\",protocol=\"tcp\","
				  "direction=\"out\"} 2000000\n"));
	assert_no_controls(t);
	free(t);
	ps_om_free(&m);
	/* -c HOST: that target's runs only */
	assert_int_equal(ps_om_collect(h, "a", &m, err, sizeof(err)), 0);
	assert_int_equal(m.ndir, 2);
	ps_om_free(&m);
	ps_hist_close(h);
	unlink(db);
	snprintf(db, sizeof(db), "%s/h.db-wal", path);
	unlink(db);
	snprintf(db, sizeof(db), "%s/h.db-shm", path);
	unlink(db);
	rmdir(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_number),
		cmocka_unit_test(test_label),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_from_test),
		cmocka_unit_test(test_from_check),
		cmocka_unit_test(test_collect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
