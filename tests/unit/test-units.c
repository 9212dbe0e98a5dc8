/* test-units.c: iperf3's size/rate suffixes and its printed units */
#include "config.h"

#include <errno.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
