/* test-probe-sysctl.c: the sysctl probe's value parser, the recorded trees,
 * missing files, the live /proc/sys and the JSON round trip */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "fixture.h"
#include "probe-sysctl.h"
#include "sysroot.h"

static void test_parse_kinds(void **state)
{
	struct ps_sysctl_value v;

	assert_int_equal(
		ps_sysctl_parse_value(PS_SYSCTL_RMEM_MAX, "4194304\n", &v), 0);
	assert_int_equal(v.status, PS_ST_OK);
	assert_true(v.v[0] == 4194304);
	/* /proc/sys separates the triple with tabs */
	assert_int_equal(ps_sysctl_parse_value(PS_SYSCTL_TCP_RMEM,
					       "4096\t131072\t33554432\n", &v),
			 0);
	assert_true(v.v[0] == 4096 && v.v[1] == 131072 && v.v[2] == 33554432);
	assert_int_equal(ps_sysctl_parse_value(PS_SYSCTL_TCP_CC, "bbr\n", &v),
			 0);
	assert_string_equal(v.text, "bbr");
	assert_int_equal(ps_sysctl_parse_value(PS_SYSCTL_TCP_CC_AVAILABLE,
					       "reno  cubic\tbbr\n", &v),
			 0);
	assert_string_equal(v.text, "reno cubic bbr");
	/* a kernel with every congestion module unloaded lists nothing */
	assert_int_equal(
		ps_sysctl_parse_value(PS_SYSCTL_TCP_CC_AVAILABLE, "\n", &v), 0);
	assert_string_equal(v.text, "");
	assert_int_equal(
		ps_sysctl_parse_value(PS_SYSCTL_TCP_ADV_WIN_SCALE, "-2\n", &v),
		0);
	assert_true(v.v[0] == -2);
}

static void expect_bad(enum ps_sysctl_id id, const char *text)
{
	struct ps_sysctl_value v;

	assert_int_equal(ps_sysctl_parse_value(id, text, &v), -EINVAL);
	assert_int_equal(v.status, PS_ST_ERROR);
	assert_non_null(strstr(v.reason, "unexpected"));
}

static void test_parse_garbage(void **state)
{
	char big[400];

	expect_bad(PS_SYSCTL_RMEM_MAX, "");
	expect_bad(PS_SYSCTL_RMEM_MAX, NULL);
	expect_bad(PS_SYSCTL_RMEM_MAX, "abc\n");
	expect_bad(PS_SYSCTL_RMEM_MAX, "1 2\n");
	expect_bad(PS_SYSCTL_RMEM_MAX, "12k\n");
	expect_bad(PS_SYSCTL_RMEM_MAX, "99999999999999999999999\n");
	expect_bad(PS_SYSCTL_TCP_RMEM, "4096 131072\n");
	expect_bad(PS_SYSCTL_TCP_RMEM, "4096 131072 1 2\n");
	expect_bad(PS_SYSCTL_TCP_CC, "\n");
	expect_bad(PS_SYSCTL_TCP_CC, "cubic reno\n");
	expect_bad(PS_SYSCTL_TCP_CC, "cu\001bic\n");
	expect_bad(PS_SYSCTL_COUNT, "1\n");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	expect_bad(PS_SYSCTL_TCP_CC_AVAILABLE, big);
}

static void test_recorded_trees(void **state)
{
	struct ps_sysctl_info info;

	/* mlx5-4cpu is recorded with tuned buffers and bbr + fq */
	ps_sysroot_set(machine_or_skip("mlx5-4cpu"));
	assert_int_equal(ps_sysctl_sample(NULL, &info), 0);
	assert_int_equal(info.status, PS_ST_OK);
	for (int id = 0; id < PS_SYSCTL_COUNT; id++)
		assert_int_equal(info.val[id].status, PS_ST_OK);
	assert_true(ps_sysctl_get(&info, PS_SYSCTL_RMEM_MAX, -1) == 268435456);
	assert_true(ps_sysctl_get(&info, PS_SYSCTL_TCP_RMEM, -1) == 134217728);
	assert_string_equal(info.val[PS_SYSCTL_TCP_CC].text, "bbr");
	assert_string_equal(info.val[PS_SYSCTL_DEFAULT_QDISC].text, "fq");

	/* the old kernel of ixgbe-12cpu-cpu0 has no busy polling */
	ps_sysroot_set(machine_or_skip("ixgbe-12cpu-cpu0"));
	assert_int_equal(ps_sysctl_sample(NULL, &info), 0);
	assert_int_equal(info.status, PS_ST_OK);
	assert_int_equal(info.val[PS_SYSCTL_BUSY_POLL].status,
			 PS_ST_NOT_RECORDED);
	assert_true(info.val[PS_SYSCTL_BUSY_POLL].reason[0]);
	assert_true(ps_sysctl_get(&info, PS_SYSCTL_BUSY_POLL, -7) == -7);
	assert_int_equal(info.val[PS_SYSCTL_NETDEV_BUDGET].status, PS_ST_OK);

	/* nothing recorded at all */
	ps_sysroot_set("/nonexistent-pipescope-tree");
	assert_int_equal(ps_sysctl_sample(NULL, &info), 0);
	assert_int_equal(info.status, PS_ST_NOT_RECORDED);
	assert_true(info.reason[0]);
	ps_sysroot_set(NULL);
}

/* the live values agree with what /proc/sys says, read here another way */
static void test_live(void **state)
{
	struct ps_sysctl_info info;
	long long want;
	FILE *f;

	ps_sysroot_set(NULL);
	assert_int_equal(ps_sysctl_sample(NULL, &info), 0);
	assert_int_equal(info.status, PS_ST_OK);
	f = fopen("/proc/sys/net/core/netdev_max_backlog", "r");
	if (!f)
		skip();
	assert_int_equal(fscanf(f, "%lld", &want), 1);
	fclose(f);
	assert_true(ps_sysctl_get(&info, PS_SYSCTL_NETDEV_MAX_BACKLOG, -1) ==
		    want);
}

static void test_json_round_trip(void **state)
{
	static const char *const trees[] = { "ixgbe-12cpu-cpu0", "mlx5-4cpu",
					     "virtio-2cpu" };

	for (size_t t = 0; t < sizeof(trees) / sizeof(trees[0]); t++) {
		struct ps_sysctl_info a, b;
		struct json_object *ja, *jb, *vals, *e;
		char *sa;

		ps_sysroot_set(machine_or_skip(trees[t]));
		assert_int_equal(ps_sysctl_sample(NULL, &a), 0);
		ja = ps_sysctl_to_json(&a);
		sa = strdup(json_object_to_json_string(ja));
		assert_int_equal(ps_sysctl_from_json(ja, &b), 0);
		assert_memory_equal(&a, &b, sizeof(a));
		jb = ps_sysctl_to_json(&b);
		assert_string_equal(sa, json_object_to_json_string(jb));
		json_object_put(jb);

		/* a wrong type is refused */
		vals = json_object_object_get(ja, "values");
		e = json_object_object_get(vals, "net.ipv4.tcp_rmem");
		json_object_object_add(e, "value", json_object_new_int(3));
		assert_int_equal(ps_sysctl_from_json(ja, &b), -EINVAL);
		assert_int_equal(b.status, PS_ST_ERROR);
		/* a setting the writer did not know is "not recorded" */
		json_object_object_del(vals, "net.ipv4.tcp_rmem");
		assert_int_equal(ps_sysctl_from_json(ja, &b), 0);
		assert_int_equal(b.val[PS_SYSCTL_TCP_RMEM].status,
				 PS_ST_NOT_RECORDED);
		/* each kind's own rules: one word, words without blanks,
		 * three integers */
		e = json_object_object_get(vals,
					   "net.ipv4.tcp_congestion_control");
		if (json_object_object_get_ex(e, "value", NULL)) {
			json_object_object_add(e, "value",
					       json_object_new_string("a b"));
			assert_int_equal(ps_sysctl_from_json(ja, &b), -EINVAL);
			json_object_object_add(e, "value",
					       json_object_new_string("bbr"));
			assert_int_equal(ps_sysctl_from_json(ja, &b), 0);
			assert_string_equal(b.val[PS_SYSCTL_TCP_CC].text,
					    "bbr");
		}
		e = json_object_object_get(
			vals, "net.ipv4.tcp_available_congestion_control");
		if (json_object_object_get_ex(e, "value", NULL)) {
			struct json_object *w = json_object_new_array();

			json_object_array_add(w, json_object_new_string("x"));
			json_object_array_add(w, json_object_new_string(""));
			json_object_object_add(e, "value", w);
			assert_int_equal(ps_sysctl_from_json(ja, &b), -EINVAL);
			json_object_array_del_idx(w, 1, 1);
			assert_int_equal(ps_sysctl_from_json(ja, &b), 0);
			assert_string_equal(
				b.val[PS_SYSCTL_TCP_CC_AVAILABLE].text, "x");
		}
		e = json_object_object_get(vals, "net.ipv4.tcp_wmem");
		if (json_object_object_get_ex(e, "value", NULL)) {
			struct json_object *w = json_object_new_array();

			json_object_array_add(w, json_object_new_int(1));
			json_object_array_add(w, json_object_new_int(2));
			json_object_object_add(e, "value", w);
			assert_int_equal(ps_sysctl_from_json(ja, &b), -EINVAL);
			json_object_array_add(w, json_object_new_int(3));
			assert_int_equal(ps_sysctl_from_json(ja, &b), 0);
			assert_true(b.val[PS_SYSCTL_TCP_WMEM].v[2] == 3);
		}
		/* a setting that was read needs its value */
		e = json_object_object_get(vals, "net.core.rmem_max");
		assert_string_equal(
			json_object_get_string(
				json_object_object_get(e, "status")),
			"ok");
		json_object_object_del(e, "value");
		assert_int_equal(ps_sysctl_from_json(ja, &b), -EINVAL);
		json_object_put(ja);
		free(sa);
	}
	ps_sysroot_set(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_kinds),
		cmocka_unit_test(test_parse_garbage),
		cmocka_unit_test(test_recorded_trees),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_json_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
