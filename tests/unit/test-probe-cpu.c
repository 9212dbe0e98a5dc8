/* test-probe-cpu.c: the CPU probe's /proc/stat parser, percentages, busiest
 * core, CPU lists, recorded trees and JSON round trip */
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
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "fixture.h"
#include "probe-cpu.h"
#include "sysroot.h"

static void test_parse_10_columns(void **state)
{
	struct ps_cpu_info info;

	assert_int_equal(ps_cpu_parse_stat("cpu  10 1 20 300 4 5 6 7 8 9\n"
					   "cpu0 5 1 10 150 2 3 3 4 4 5\n"
					   "cpu1 5 0 10 150 2 2 3 3 4 4\n"
					   "intr 1 2 3\nctxt 99\n",
					   &info),
			 0);
	assert_int_equal(info.status, PS_ST_OK);
	assert_int_equal(info.ncolumns, 10);
	assert_int_equal(info.ncores, 2);
	assert_int_equal(info.cores[1].id, 1);
	assert_true(info.all.ticks[PS_CPU_IDLE] == 300);
	assert_true(info.cores[0].ticks[PS_CPU_GUEST_NICE] == 5);
	assert_int_equal(info.cores[0].node, -1);
	ps_cpu_free(&info);
}

/* kernels before 2.6.0 had 4 columns, 2.6.11 had 8, 2.6.24 9 */
static void test_parse_old_kernels(void **state)
{
	struct ps_cpu_info info;

	assert_int_equal(
		ps_cpu_parse_stat("cpu 4 0 2 94\ncpu0 4 0 2 94\n", &info), 0);
	assert_int_equal(info.ncolumns, 4);
	assert_true(info.cores[0].ticks[PS_CPU_SYSTEM] == 2);
	assert_true(info.cores[0].ticks[PS_CPU_SOFTIRQ] == 0);
	ps_cpu_rates(NULL, &info, 0);
	assert_true(info.cores[0].pct_valid);
	assert_float_equal(info.cores[0].busy_pct, 6.0, 1e-9);
	ps_cpu_free(&info);

	assert_int_equal(ps_cpu_parse_stat("cpu0 1 2 3 4 5 6 7 8\n", &info), 0);
	assert_int_equal(info.ncolumns, 8);
	/* no "cpu" total line: it is the sum of the rows */
	assert_true(info.all.ticks[PS_CPU_STEAL] == 8);
	ps_cpu_free(&info);
}

/* offline CPUs have no row; the ids are kept, not renumbered */
static void test_parse_offline(void **state)
{
	struct ps_cpu_info a, b;

	assert_int_equal(ps_cpu_parse_stat("cpu 2 0 2 6\ncpu0 1 0 1 3\n"
					   "cpu3 1 0 1 3\n",
					   &a),
			 0);
	assert_int_equal(a.ncores, 2);
	assert_int_equal(a.cores[1].id, 3);
	/* cpu2 comes online between the samples: no delta for it yet */
	assert_int_equal(ps_cpu_parse_stat("cpu 4 0 4 12\ncpu0 2 0 1 5\n"
					   "cpu2 1 0 1 1\ncpu3 1 0 2 5\n",
					   &b),
			 0);
	ps_cpu_rates(&a, &b, 1.0);
	assert_int_equal(b.basis, PS_CPU_BASIS_INTERVAL);
	assert_true(b.cores[0].pct_valid);
	assert_false(b.cores[1].pct_valid);
	assert_true(b.cores[2].pct_valid);
	/* cpu0: +1 user of 3 ticks */
	assert_float_equal(b.cores[0].pct[PS_CPU_USER], 100.0 / 3, 1e-9);
	ps_cpu_free(&a);
	ps_cpu_free(&b);
}

static void expect_bad(const char *text)
{
	struct ps_cpu_info info;

	assert_int_equal(ps_cpu_parse_stat(text, &info), -EINVAL);
	assert_int_equal(info.status, PS_ST_ERROR);
	assert_true(info.reason[0] != 0);
	assert_null(info.cores);
	assert_int_equal(info.ncores, 0);
	ps_cpu_free(&info);
}

static void test_parse_garbage(void **state)
{
	expect_bad("");
	expect_bad(NULL);
	expect_bad("intr 1 2 3\nctxt 4\n");	      /* no cpu line */
	expect_bad("cpu0 1 2 3\n");		      /* 3 columns */
	expect_bad("cpu0 1 2 3 4 5 6 7 8 9 10 11\n"); /* 11 columns */
	expect_bad("cpu0 1 2 x 4\n");
	expect_bad("cpu0 1 2 -3 4\n");
	expect_bad("cpu0 1 2 3 4\ncpu1 1 2 3 4 5\n"); /* columns differ */
	expect_bad("cpu0 1 2 3 4\ncpu0 1 2 3 4\n");   /* the same cpu twice */
	expect_bad("cpux 1 2 3 4\n");
	expect_bad("cpu99999999999 1 2 3 4\n");
	expect_bad("cpu 1 2 3 4\ncpu 1 2 3 4\n");
	expect_bad("cpu0 1 2 3 99999999999999999999999\n");
}

/* every prefix of a real /proc/stat parses or is refused, never crashes */
static void test_parse_prefixes(void **state)
{
	char path[4200], *text;
	struct ps_cpu_info info;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/stat",
		 machine_or_skip("virtio-2cpu"));
	f = fopen(path, "r");
	assert_non_null(f);
	text = calloc(1, 65536);
	n = fread(text, 1, 65535, f);
	fclose(f);
	for (size_t i = n; i > 0; i--) {
		text[i] = 0;
		if (ps_cpu_parse_stat(text, &info) == 0)
			assert_true(info.ncores >= 0 && info.ncolumns >= 4);
		else
			assert_int_equal(info.status, PS_ST_ERROR);
		ps_cpu_free(&info);
	}
	free(text);
}

static void test_rates_and_busiest(void **state)
{
	struct ps_cpu_info a, b;
	char text[128];

	assert_int_equal(ps_cpu_parse_stat("cpu 0 0 0 0 0 0 0 0 0 0\n"
					   "cpu0 100 0 100 800 50 0 0 0 0 0\n"
					   "cpu1 100 0 100 800 0 0 0 0 0 0\n",
					   &a),
			 0);
	/* cpu1: 100 ticks: 4 user, 1 system, 4 idle, 20 irq, 71 softirq;
	 * cpu0's iowait goes backwards (the kernel allows it): clamped */
	assert_int_equal(ps_cpu_parse_stat("cpu 0 0 0 0 0 0 0 0 0 0\n"
					   "cpu0 150 0 110 840 40 0 0 0 0 0\n"
					   "cpu1 104 0 101 804 0 20 71 0 0 0\n",
					   &b),
			 0);
	ps_cpu_rates(&a, &b, 1.0);
	assert_true(b.cores[1].pct_valid);
	assert_float_equal(b.cores[1].busy_pct, 96.0, 1e-9);
	assert_float_equal(b.cores[1].pct[PS_CPU_SOFTIRQ], 71.0, 1e-9);
	assert_float_equal(b.cores[0].pct[PS_CPU_IOWAIT], 0.0, 1e-9);
	assert_float_equal(b.cores[0].busy_pct, 60.0, 1e-9);
	assert_int_equal(b.busiest, 1);
	assert_int_equal(b.busiest_main, PS_CPU_SOFTIRQ);
	ps_cpu_busiest_text(&b, text, sizeof(text));
	assert_string_equal(text, "cpu1 96% busy, 71% softirq");
	/* the total line did not move: its share is not known */
	assert_false(b.all.pct_valid);
	ps_cpu_free(&a);

	/* the same sample again: nothing moved, nothing is valid */
	assert_int_equal(ps_cpu_parse_stat("cpu 0 0 0 0 0 0 0 0 0 0\n"
					   "cpu0 150 0 110 840 40 0 0 0 0 0\n"
					   "cpu1 104 0 101 804 0 20 71 0 0 0\n",
					   &a),
			 0);
	ps_cpu_rates(&b, &a, 1.0);
	assert_false(a.cores[0].pct_valid);
	assert_int_equal(a.busiest, -1);
	ps_cpu_busiest_text(&a, text, sizeof(text));
	assert_string_equal(text, "");
	ps_cpu_free(&a);
	ps_cpu_free(&b);
}

/* guest time is inside user: it must not be counted twice */
static void test_guest_not_double_counted(void **state)
{
	struct ps_cpu_info a;

	assert_int_equal(ps_cpu_parse_stat("cpu0 50 0 0 50 0 0 0 0 40 0\n", &a),
			 0);
	ps_cpu_rates(NULL, &a, 0);
	assert_float_equal(a.cores[0].busy_pct, 50.0, 1e-9);
	assert_float_equal(a.cores[0].pct[PS_CPU_GUEST], 40.0, 1e-9);
	ps_cpu_free(&a);
}

struct ids {
	int n;
	int id[32];
};

static void add_id(int id, void *arg)
{
	struct ids *ids = arg;

	if (ids->n < 32)
		ids->id[ids->n++] = id;
}

static void test_cpu_list(void **state)
{
	struct ids ids = { 0 };

	assert_int_equal(ps_cpu_parse_list("0-3,8,10-11\n", add_id, &ids), 0);
	assert_int_equal(ids.n, 7);
	assert_int_equal(ids.id[4], 8);
	assert_int_equal(ids.id[6], 11);
	ids.n = 0;
	assert_int_equal(ps_cpu_parse_list("", add_id, &ids), 0);
	assert_int_equal(ids.n, 0);
	assert_int_equal(ps_cpu_parse_list("3-1", add_id, &ids), -EINVAL);
	assert_int_equal(ps_cpu_parse_list("a", add_id, &ids), -EINVAL);
	assert_int_equal(ps_cpu_parse_list("1-", add_id, &ids), -EINVAL);
	assert_int_equal(ps_cpu_parse_list("1;2", add_id, &ids), -EINVAL);
	assert_int_equal(ps_cpu_parse_list("0-99999999", add_id, &ids),
			 -EINVAL);
}

/* the hex masks of affinity_hint and rps_cpus as lists */
static void test_cpu_mask(void **state)
{
	char out[64], tiny[4];

	(void)state;
	assert_int_equal(ps_cpu_mask_to_list("0000000c\n", out, sizeof(out)),
			 2);
	assert_string_equal(out, "2-3");
	assert_int_equal(ps_cpu_mask_to_list("00000001,00000000,80000005", out,
					     sizeof(out)),
			 4);
	assert_string_equal(out, "0,2,31,64");
	assert_int_equal(ps_cpu_mask_to_list("ff", out, sizeof(out)), 8);
	assert_string_equal(out, "0-7");
	assert_int_equal(ps_cpu_mask_to_list("00000000", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(ps_cpu_mask_to_list("0x3", out, sizeof(out)), -EINVAL);
	assert_int_equal(ps_cpu_mask_to_list("", out, sizeof(out)), -EINVAL);
	assert_int_equal(ps_cpu_mask_to_list("5555", tiny, sizeof(tiny)),
			 -ENOSPC);
	assert_string_equal(tiny, "");
	assert_int_equal(ps_cpu_list_count("0-3,8"), 5);
	assert_int_equal(ps_cpu_list_count("x"), -1);
}

static void test_recorded_trees(void **state)
{
	struct ps_cpu_info info;
	char text[128];

	ps_sysroot_set(machine_or_skip("ixgbe-12cpu-cpu0"));
	assert_int_equal(ps_cpu_sample(NULL, &info), 0);
	assert_int_equal(info.ncores, 12);
	assert_int_equal(info.ncolumns, 9);
	ps_cpu_rates(NULL, &info, 0);
	assert_int_equal(info.basis, PS_CPU_BASIS_SINCE_BOOT);
	ps_cpu_busiest_text(&info, text, sizeof(text));
	/* the tree is made so that CPU0 drowns in softirq */
	assert_int_equal(info.cores[info.busiest].id, 0);
	assert_int_equal(info.busiest_main, PS_CPU_SOFTIRQ);
	assert_non_null(strstr(text, "softirq"));
	assert_int_equal(info.numa_status, PS_ST_NOT_RECORDED);
	ps_cpu_free(&info);

	ps_sysroot_set(machine_or_skip("wide-256cpu"));
	assert_int_equal(ps_cpu_sample(NULL, &info), 0);
	assert_int_equal(info.ncores, 256);
	assert_int_equal(info.cores[255].id, 255);
	ps_cpu_free(&info);

	/* a tree without proc/stat: a stated reason, not a crash */
	ps_sysroot_set("/nonexistent-pipescope-tree");
	assert_int_equal(ps_cpu_sample(NULL, &info), -ENOENT);
	assert_int_equal(info.status, PS_ST_NOT_RECORDED);
	assert_non_null(strstr(info.reason, "/proc/stat"));
	ps_cpu_free(&info);
	ps_sysroot_set(NULL);
}

static void put(const char *dir, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p $(dirname %s)", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* NUMA nodes, cpufreq and offline CPUs, from a tree made here */
static void test_numa_freq_offline(void **state)
{
	char dir[] = "/tmp/ps-cpu-XXXXXX", cmd[300];
	struct ps_cpu_info info;

	assert_non_null(mkdtemp(dir));
	put(dir, "proc/stat",
	    "cpu  3 0 3 9\ncpu0 1 0 1 3\ncpu1 1 0 1 3\n"
	    "cpu3 1 0 1 3\n");
	put(dir, "sys/devices/system/cpu/present", "0-3\n");
	put(dir, "sys/devices/system/node/node0/cpulist", "0-1\n");
	put(dir, "sys/devices/system/node/node1/cpulist", "2-3\n");
	put(dir, "sys/devices/system/node/possible", "0-1\n");
	put(dir, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	    "performance\n");
	put(dir, "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq",
	    "2400000\n");
	put(dir, "sys/devices/system/cpu/cpu3/cpufreq/scaling_governor",
	    "powersave\n");
	ps_sysroot_set(dir);
	assert_int_equal(ps_cpu_sample(NULL, &info), 0);
	assert_int_equal(info.ncores, 3);
	assert_int_equal(info.noffline, 1);
	assert_int_equal(info.offline[0], 2);
	assert_int_equal(info.numa_status, PS_ST_OK);
	assert_int_equal(info.nnodes, 2);
	assert_int_equal(info.cores[0].node, 0);
	assert_int_equal(info.cores[1].node, 0);
	assert_int_equal(info.cores[2].node, 1);
	assert_int_equal(info.freq_status, PS_ST_OK);
	assert_string_equal(info.cores[0].governor, "performance");
	assert_int_equal(info.cores[0].cur_khz, 2400000);
	assert_string_equal(info.cores[1].governor, "");
	assert_int_equal(info.cores[1].cur_khz, -1);
	assert_string_equal(info.cores[2].governor, "powersave");
	ps_cpu_free(&info);

	/* no node directory: the cpuN/nodeM links of older sysfs */
	snprintf(cmd, sizeof(cmd),
		 "rm -rf %s/sys/devices/system/node && "
		 "mkdir -p %s/sys/devices/system/cpu/cpu3/node1 "
		 "%s/sys/devices/system/cpu/cpu1/node0",
		 dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(ps_cpu_sample(NULL, &info), 0);
	assert_int_equal(info.numa_status, PS_ST_OK);
	assert_int_equal(info.cores[0].node, -1);
	assert_int_equal(info.cores[1].node, 0);
	assert_int_equal(info.cores[2].node, 1);
	assert_int_equal(info.nnodes, 2);
	ps_cpu_free(&info);
	ps_sysroot_set(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_live(void **state)
{
	struct ps_cpu_info a, b;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	ps_sysroot_set(NULL);
	assert_int_equal(ps_cpu_sample(NULL, &a), 0);
	assert_int_equal(a.ncores, online);
	usleep(200000);
	assert_int_equal(ps_cpu_sample(NULL, &b), 0);
	ps_cpu_rates(&a, &b, 0.2);
	for (int i = 0; i < b.ncores; i++)
		if (b.cores[i].pct_valid)
			assert_true(b.cores[i].busy_pct >= 0 &&
				    b.cores[i].busy_pct <= 100.0 + 1e-9);
	ps_cpu_free(&a);
	ps_cpu_free(&b);
}

static void test_json_round_trip(void **state)
{
	struct ps_cpu_info a, b, c;
	struct json_object *ja, *jb;
	char *sa;

	ps_sysroot_set(machine_or_skip("wide-256cpu"));
	assert_int_equal(ps_cpu_sample(NULL, &a), 0);
	ps_sysroot_set(NULL);
	ps_cpu_rates(NULL, &a, 0);
	ja = ps_cpu_to_json(&a);
	sa = strdup(json_object_to_json_string(ja));
	assert_int_equal(ps_cpu_from_json(ja, &b), 0);
	jb = ps_cpu_to_json(&b);
	assert_string_equal(sa, json_object_to_json_string(jb));
	assert_int_equal(b.ncores, 256);
	assert_int_equal(b.cores[b.busiest].id, 17);
	/* a deep copy prints the same */
	ps_cpu_copy(&c, &b);
	ps_cpu_free(&b);
	json_object_put(jb);
	jb = ps_cpu_to_json(&c);
	assert_string_equal(sa, json_object_to_json_string(jb));
	json_object_put(jb);
	ps_cpu_free(&c);

	/* a malformed section is refused, not half-loaded */
	json_object_object_add(ja, "columns", json_object_new_string("ten"));
	assert_int_equal(ps_cpu_from_json(ja, &b), -EINVAL);
	assert_int_equal(b.status, PS_ST_ERROR);
	assert_null(b.cores);
	json_object_put(ja);
	free(sa);
	ps_cpu_free(&a);
}

/* the cpu table's loader: what it refuses, what it takes as not known */
static struct json_object *small_cpu(void)
{
	return json_tokener_parse(
		"{\"status\": \"ok\", \"columns\": 4, \"basis\": "
		"\"since_boot\","
		" \"all\": {\"ticks\": {\"user\": 1, \"nice\": 2, "
		"\"system\": 3, \"idle\": 4}},"
		" \"cores\": [{\"cpu\": 3, \"node\": 1, \"ticks\": "
		"{\"user\": 1, \"nice\": 0, \"system\": 1, \"idle\": 8},"
		" \"pct\": {\"user\": 10, \"nice\": 0, \"system\": 10, "
		"\"idle\": 80, \"busy\": 20.0}, \"cur_khz\": 0}],"
		" \"offline\": [], \"busiest\": {\"cpu\": 3, \"busy_pct\": "
		"20.0,"
		" \"main\": \"user\", \"main_pct\": 10.0}}");
}

static void expect_cpu_bad(const char *part, const char *key,
			   struct json_object *v)
{
	struct json_object *o = small_cpu(), *p = o;
	struct ps_cpu_info b;

	if (part && !strcmp(part, "core"))
		p = json_object_array_get_idx(
			json_object_object_get(o, "cores"), 0);
	else if (part)
		p = json_object_object_get(o, part);
	if (v)
		json_object_object_add(p, key, v);
	else
		json_object_object_del(p, key);
	if (ps_cpu_from_json(o, &b) != -EINVAL)
		fail_msg("%s.%s: not refused", part ? part : "cpu", key);
	assert_int_equal(b.status, PS_ST_ERROR);
	json_object_put(o);
}

static void test_json_table(void **state)
{
	struct json_object *o = small_cpu();
	struct ps_cpu_info b;

	(void)state;
	assert_non_null(o);
	assert_int_equal(ps_cpu_from_json(o, &b), 0);
	assert_int_equal(b.ncores, 1);
	assert_int_equal(b.cores[0].id, 3);
	assert_int_equal(b.cores[0].node, 1);
	assert_true(b.cores[0].pct_valid);
	assert_true(b.cores[0].cur_khz == -1); /* 0: not reported */
	assert_int_equal(b.busiest, 0);
	assert_int_equal(b.basis, PS_CPU_BASIS_SINCE_BOOT);
	assert_true(b.all.ticks[PS_CPU_IDLE] == 4);
	/* numa and cpufreq not in the file: not recorded */
	assert_int_equal(b.numa_status, PS_ST_NOT_RECORDED);
	assert_int_equal(b.freq_status, PS_ST_NOT_RECORDED);
	ps_cpu_free(&b);
	json_object_put(o);

	expect_cpu_bad(NULL, "columns", json_object_new_int(11));
	expect_cpu_bad(NULL, "basis", NULL);
	expect_cpu_bad(NULL, "all", NULL);
	expect_cpu_bad(NULL, "cores", json_object_new_object());
	expect_cpu_bad(NULL, "offline", json_tokener_parse("[\"1\"]"));
	expect_cpu_bad("all", "ticks", json_tokener_parse("{\"user\": 1}"));
	expect_cpu_bad("core", "cpu", json_object_new_int(65536));
	expect_cpu_bad("core", "cpu", NULL);
	expect_cpu_bad("core", "pct", json_tokener_parse("{\"user\": 1}"));
	expect_cpu_bad("busiest", "main", json_object_new_string("lunch"));
	expect_cpu_bad("busiest", "cpu", json_object_new_int(4));

	/* without status: not recorded, nothing else read */
	o = small_cpu();
	json_object_object_del(o, "status");
	json_object_object_del(o, "cores");
	assert_int_equal(ps_cpu_from_json(o, &b), 0);
	assert_int_equal(b.status, PS_ST_NOT_RECORDED);
	assert_int_equal(b.ncores, 0);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_10_columns),
		cmocka_unit_test(test_cpu_mask),
		cmocka_unit_test(test_parse_old_kernels),
		cmocka_unit_test(test_parse_offline),
		cmocka_unit_test(test_parse_garbage),
		cmocka_unit_test(test_parse_prefixes),
		cmocka_unit_test(test_rates_and_busiest),
		cmocka_unit_test(test_guest_not_double_counted),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_recorded_trees),
		cmocka_unit_test(test_numa_freq_offline),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
