/* test-acl.c: "--allow CIDR" parsing and matching, and ps_json_int clamping */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "acl.h"
#include "proto.h"

static struct sockaddr_storage v4(const char *a)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *s = (struct sockaddr_in *)&ss;

	memset(&ss, 0, sizeof(ss));
	s->sin_family = AF_INET;
	assert_int_equal(inet_pton(AF_INET, a, &s->sin_addr), 1);
	return ss;
}

static struct sockaddr_storage v6(const char *a)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 *s = (struct sockaddr_in6 *)&ss;

	memset(&ss, 0, sizeof(ss));
	s->sin6_family = AF_INET6;
	assert_int_equal(inet_pton(AF_INET6, a, &s->sin6_addr), 1);
	return ss;
}

#define SA(x) ((const struct sockaddr *)&(x))

static void test_parse(void **state)
{
	struct ps_cidr c;

	assert_int_equal(ps_cidr_parse("10.1.2.3/8", &c), 0);
	assert_int_equal(c.family, AF_INET);
	assert_int_equal(c.prefix, 8);
	assert_int_equal(c.addr[0], 10);
	assert_int_equal(c.addr[1], 0); /* host bits cleared */
	assert_int_equal(ps_cidr_parse("192.0.2.7", &c), 0);
	assert_int_equal(c.prefix, 32);
	assert_int_equal(ps_cidr_parse("2001:db8::/32", &c), 0);
	assert_int_equal(c.family, AF_INET6);
	assert_int_equal(c.prefix, 32);
	assert_int_equal(ps_cidr_parse("0.0.0.0/0", &c), 0);
	/* what is not a network */
	assert_int_equal(ps_cidr_parse("", &c), -EINVAL);
	assert_int_equal(ps_cidr_parse("/8", &c), -EINVAL);
	assert_int_equal(ps_cidr_parse("10.0.0.0/", &c), -EINVAL);
	assert_int_equal(ps_cidr_parse("10.0.0.0/33", &c), -EINVAL);
	assert_int_equal(ps_cidr_parse("10.0.0.0/-1", &c), -EINVAL);
	assert_int_equal(ps_cidr_parse("10.0.0.0/8x", &c), -EINVAL);
	assert_int_equal(ps_cidr_parse("::/129", &c), -EINVAL);
	assert_int_equal(ps_cidr_parse("example.org/8", &c), -EINVAL);
	assert_int_equal(ps_cidr_parse("10.0.0.256", &c), -EINVAL);
}

static void test_match(void **state)
{
	struct ps_cidr c;
	struct sockaddr_storage a = v4("10.200.3.4"), b = v4("11.0.0.1");
	struct sockaddr_storage m = v6("::ffff:10.9.9.9"),
				x = v6("2001:db8:1::5");
	struct sockaddr_storage y = v6("2001:db9::1");

	assert_int_equal(ps_cidr_parse("10.0.0.0/8", &c), 0);
	assert_true(ps_cidr_match(&c, SA(a)));
	assert_false(ps_cidr_match(&c, SA(b)));
	assert_true(ps_cidr_match(&c, SA(m))); /* v4-mapped on a v6 socket */
	assert_false(ps_cidr_match(&c, SA(x)));
	assert_int_equal(ps_cidr_parse("10.200.3.0/25", &c), 0);
	assert_true(ps_cidr_match(&c, SA(a)));
	assert_int_equal(ps_cidr_parse("10.200.3.128/25", &c), 0);
	assert_false(ps_cidr_match(&c, SA(a)));
	assert_int_equal(ps_cidr_parse("2001:db8::/32", &c), 0);
	assert_true(ps_cidr_match(&c, SA(x)));
	assert_false(ps_cidr_match(&c, SA(y)));
	assert_false(ps_cidr_match(&c, SA(a)));
	assert_int_equal(ps_cidr_parse("0.0.0.0/0", &c), 0);
	assert_true(ps_cidr_match(&c, SA(b)));
}

static void test_list(void **state)
{
	struct ps_cidr l[2];
	struct sockaddr_storage a = v4("127.0.0.2"), b = v4("127.0.0.1");

	assert_true(ps_acl_allows(l, 0, SA(a))); /* no list: everyone */
	assert_int_equal(ps_cidr_parse("127.0.0.2", &l[0]), 0);
	assert_int_equal(ps_cidr_parse("192.168.0.0/16", &l[1]), 0);
	assert_true(ps_acl_allows(l, 2, SA(a)));
	assert_false(ps_acl_allows(l, 2, SA(b)));
}

static void test_same_host(void **state)
{
	struct sockaddr_storage a = v4("127.0.0.1"), m = v6("::ffff:127.0.0.1");
	struct sockaddr_storage b = v4("127.0.0.2"), x = v6("::1");

	assert_true(ps_same_host(SA(a), SA(m)));
	assert_true(ps_same_host(SA(m), SA(a)));
	assert_false(ps_same_host(SA(a), SA(b)));
	assert_false(ps_same_host(SA(a), SA(x)));
	assert_true(ps_same_host(SA(x), SA(x)));
}

/* absurd numbers from the wire: clamped, never an undefined cast */
static void test_json_int_clamp(void **state)
{
	struct json_object *o;

	o = json_object_new_double(1e300);
	assert_true(ps_json_int(o) == INT64_MAX);
	json_object_put(o);
	o = json_object_new_double(-1e300);
	assert_true(ps_json_int(o) == INT64_MIN);
	json_object_put(o);
	o = json_object_new_double(NAN);
	assert_true(ps_json_int(o) == 0);
	json_object_put(o);
	o = json_object_new_double(INFINITY);
	assert_true(ps_json_int(o) == INT64_MAX);
	json_object_put(o);
	o = json_object_new_double(1e9);
	assert_true(ps_json_int(o) == 1000000000);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_same_host),
		cmocka_unit_test(test_json_int_clamp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
