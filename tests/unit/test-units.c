/* test-units.c: iperf3's size/rate suffixes and its printed units */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "units.h"

static void test_parse(void **state)
{
	uint64_t v;
	char unit;

	assert_int_equal(ps_parse_size("0", &v, &unit), 0);
	assert_true(v == 0);
	assert_int_equal(ps_parse_size("128K", &v, &unit), 0);
	assert_true(v == 131072);
	assert_int_equal(ps_parse_rate("128K", &v, &unit), 0);
	assert_true(v == 128000);
	assert_int_equal(ps_parse_rate(".5G", &v, &unit), 0);
	assert_true(v == 500000000);
	assert_int_equal(ps_parse_size("16E", &v, &unit), -EINVAL);
	assert_int_equal(unit, 'E');
	assert_int_equal(ps_parse_size("1KK", &v, &unit), -EINVAL);
	assert_int_equal(unit, 'K');
	assert_int_equal(ps_parse_size("-1", &v, &unit), -EINVAL);
	assert_int_equal(ps_parse_size("", &v, &unit), -EINVAL);
	assert_int_equal(ps_parse_size("K", &v, &unit), -EINVAL);
	assert_int_equal(ps_parse_size("20000000T", &v, &unit), -ERANGE);
	assert_int_equal(ps_parse_size("1e400", &v, &unit), -ERANGE);
}

static void test_format(void **state)
{
	char buf[64];

	ps_fmt_rate(buf, sizeof(buf), 9.41e9, 'a');
	assert_string_equal(buf, "9.41 Gbits/sec");
	ps_fmt_rate(buf, sizeof(buf), 941e6, 'a');
	assert_string_equal(buf, " 941 Mbits/sec");
	ps_fmt_rate(buf, sizeof(buf), 23.3e9, 'm');
	assert_string_equal(buf, "23300 Mbits/sec");
	ps_fmt_rate(buf, sizeof(buf), 0, 'a');
	assert_string_equal(buf, "0.00 bits/sec");
	ps_fmt_rate(buf, sizeof(buf), 8.0 * 1024 * 1024, 'M');
	assert_string_equal(buf, "1.00 MBytes/sec");
	ps_fmt_bytes(buf, sizeof(buf), 1.1 * 1024 * 1024 * 1024, 'a');
	assert_string_equal(buf, "1.10 GBytes");
	ps_fmt_bytes(buf, sizeof(buf), 512, 'a');
	assert_string_equal(buf, " 512 Bytes");
	ps_fmt_bytes(buf, sizeof(buf), 64.0 * 1024, 'k');
	assert_string_equal(buf, "64.0 KBytes");
}

/* the styles of the one formatter: each where its rule is not another's */
static void test_styles(void **state)
{
	static const struct {
		const struct ps_scale *st;
		double v;
		int unit;
		const char *want;
	} t[] = {
		/* going up a unit at base * 0.9995 (iperf3, screen) or at base
		 */
		{ &ps_scale_screen_bps, 999.96e6, -1, "1.00 Gbit/s" },
		{ &ps_scale_iperf_bits, 999.96e6, -1, "1.00 Gbits/sec" },
		{ &ps_scale_report_bps, 999.96e6, -1, "1000.0 Mbit/s" },
		{ &ps_scale_report_bps, 2.5e12, -1, "2500.00 Gbit/s" },
		{ &ps_scale_screen_bps, 2.5e12, -1, "2.50 Tbit/s" },
		/* decimals: per unit, or three significant digits */
		{ &ps_scale_report_bps, -1, -1, "-1 bit/s" },
		{ &ps_scale_report_bps, 1500, -1, "1.5 kbit/s" },
		{ &ps_scale_report_bytes, 1500, -1, "2 KB" },
		{ &ps_scale_report_bytes, 4.19e6, -1, "4.19 MB" },
		{ &ps_scale_screen_bytes_short, 900, -1, "900" },
		{ &ps_scale_screen_bytes_short, 1.62 * 1024 * 1024, -1,
		  "1.62M" },
		{ &ps_scale_iperf_bytes, 5, -1, "5.00 Bytes" },
		/* the first unit need not be worth 1 */
		{ &ps_scale_brief_bps, 5e5, -1, "0.50 Mbit/s" },
		{ &ps_scale_brief_bps, 25e9, -1, "25.00 Gbit/s" },
		/* RTTs: whole us, 2 decimals of ms below 10, then 1; 2 of s */
		{ &ps_scale_screen_usec, 87.4, -1, "87us" },
		{ &ps_scale_screen_usec, 9996, -1, "10.00ms" },
		{ &ps_scale_screen_usec, 10000, -1, "10.0ms" },
		{ &ps_scale_screen_usec, 1.5e6, -1, "1.50s" },
		/* what prints as a plain 0 */
		{ &ps_scale_screen_usec, -3, -1, "0us" },
		{ &ps_scale_screen_bps, INFINITY, -1, "0 bit/s" },
		{ &ps_scale_screen_bps_short, -5, -1, "0" },
		{ &ps_scale_iperf_bits, -5, -1, "-5.00 bits/sec" },
		/* a unit asked for, and one past the last unit */
		{ &ps_scale_iperf_bits, 9.41e9, 2, "9410 Mbits/sec" },
		{ &ps_scale_report_bytes, 5e12, 9, "5000.00 GB" },
	};
	double div;
	char buf[64];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ps_fmt_scaled(buf, sizeof(buf), t[i].v, t[i].st, t[i].unit);
		assert_string_equal(buf, t[i].want);
	}
	/* the unit a list shares */
	assert_int_equal(ps_scale_pick(&ps_scale_sweep_bps, 41e9, &div), 3);
	assert_true(div == 1e9);
	assert_int_equal(ps_scale_pick(&ps_scale_sweep_bps, 999, &div), 0);
	assert_true(div == 1);
}

/* a setting as it was set: exact, in the largest unit that keeps it so */
/* a UDP run's loss as a list and compare show it */
static void test_loss(void **state)
{
	static const struct {
		double share;
		const char *want;
	} t[] = {
		{ 0, "0%" },	   { 0.0004, "0.04%" }, { 0.00001, "<0.01%" },
		{ 0.024, "2.4%" }, { 0.0999, "10%" },	{ 0.3149, "31%" },
		{ 1, "100%" },	   { 0.005, "0.5%" },	{ -0.1, "-" },
		{ 1.5, "-" },	   { NAN, "-" },	{ INFINITY, "-" },
	};
	char buf[16];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ps_fmt_loss(buf, sizeof(buf), t[i].share);
		assert_string_equal(buf, t[i].want);
	}
}

static void test_setting(void **state)
{
	static const struct {
		const struct ps_scale *st;
		double v;
		const char *want;
	} t[] = {
		{ &ps_scale_setting_bps, 600e6, "600 Mbit/s" },
		{ &ps_scale_setting_bps, 900e6, "900 Mbit/s" },
		{ &ps_scale_setting_bps, 1.5e9, "1.5 Gbit/s" },
		{ &ps_scale_setting_bps, 25e9, "25 Gbit/s" },
		{ &ps_scale_setting_bps, 999e3, "999 kbit/s" },
		{ &ps_scale_setting_bps, 123456789, "123456789 bit/s" },
		{ &ps_scale_setting_bps, 0, "0 bit/s" },
		{ &ps_scale_setting_bytes, 212992, "208 KiB" },
		{ &ps_scale_setting_bytes, 4194304, "4 MiB" },
		{ &ps_scale_setting_bytes, 65536, "64 KiB" },
		{ &ps_scale_setting_bytes, 1500, "1500 B" },
		{ &ps_scale_setting_bytes, 87380, "87380 B" },
		{ &ps_scale_setting_bytes, 1536, "1.5 KiB" },
		{ &ps_scale_setting_bytes, 0.5, "0.5 B" },
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ps_fmt_setting(buf, sizeof(buf), t[i].v, t[i].st);
		assert_string_equal(buf, t[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),  cmocka_unit_test(test_format),
		cmocka_unit_test(test_styles), cmocka_unit_test(test_setting),
		cmocka_unit_test(test_loss),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
