/* test-snapshot.c: the snapshot file of "probe --json" / "check --snapshot":
 * to_json -> load -> to_json is identical, bad files give one clear error;
 * and the interface choice (routing table parser) */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "fixture.h"
#include "iface.h"
#include "jsonutil.h"
#include "probe.h"
#include "snapshot.h"
#include "sysroot.h"

/* one snapshot of a tree (NULL: live, two samples) as a heap snapshot */
static struct ps_snapshot *take(const char *name)
{
	struct ps_probe_env env = { 0 };
	struct ps_snapshot *a = ps_snapshot_new(), *b;
	struct ps_probe_set *set;

	ps_sysroot_set(name ? machine_or_skip(name) : NULL);
	ps_iface_choose(NULL, NULL, &env.iface);
	set = ps_probes_open(&env);
	ps_probes_sample(set, a, NULL);
	if (name) {
		ps_probes_close(set);
		return a;
	}
	usleep(100000);
	b = ps_snapshot_new();
	ps_probes_sample(set, b, a);
	ps_probes_close(set);
	ps_snapshot_put(a);
	return b;
}

static void round_trip(struct ps_snapshot *s)
{
	struct ps_snapshot back;
	char err[256], *t1, *t2;

	t1 = ps_snapshot_to_string(s);
	assert_int_equal(ps_snapshot_from_string(t1, strlen(t1), &back, err,
						 sizeof(err)),
			 0);
	t2 = ps_snapshot_to_string(&back);
	assert_string_equal(t1, t2);
	ps_snapshot_free(&back);
	free(t1);
	free(t2);
}

static void test_round_trip_trees(void **state)
{
	static const char *const trees[] = {
		"i40e-4cpu",   "ixgbe-12cpu-cpu0", "mlx5-4cpu",
		"virtio-2cpu", "softnet-squeeze",  "pcie-downgraded",
		"wide-256cpu",
	};

	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		struct ps_snapshot *s = take(trees[i]);

		assert_int_equal(s->hdr.source, PS_SNAP_SYSROOT);
		assert_false(s->hdr.rates);
		assert_true(s->hdr.rates_reason[0]);
		assert_int_equal(s->cpu.status, PS_ST_OK);
		round_trip(s);
		ps_snapshot_put(s);
	}
	ps_sysroot_set(NULL);
}

static void test_round_trip_live(void **state)
{
	struct ps_snapshot *s = take(NULL);

	assert_int_equal(s->hdr.source, PS_SNAP_LIVE);
	assert_true(s->hdr.rates);
	assert_true(s->hdr.interval_s > 0.05 && s->hdr.interval_s < 5);
	assert_int_equal(s->cpu.basis, PS_CPU_BASIS_INTERVAL);
	assert_true(s->hdr.kernel[0]);
	round_trip(s);
	ps_snapshot_put(s);
}

static void expect_bad(const char *text, size_t len, const char *words)
{
	struct ps_snapshot s;
	char err[256] = "";

	assert_int_equal(
		ps_snapshot_from_string(text, len, &s, err, sizeof(err)),
		-EINVAL);
	/* one line that says what is wrong */
	assert_null(strchr(err, '\n'));
	if (!strstr(err, words))
		fail_msg("error '%s' does not mention '%s'", err, words);
}

static void test_load_errors(void **state)
{
	struct ps_snapshot *s = take("mlx5-4cpu"), back;
	struct json_object *o;
	char *good = ps_snapshot_to_string(s), err[256];
	const char *bad;
	size_t n = strlen(good);

	ps_sysroot_set(NULL);
	expect_bad(good, n / 2, "truncated");
	expect_bad(good, n - 3, "truncated");
	expect_bad("", 0, "truncated");
	expect_bad("this is not json", 16, "not valid JSON");
	expect_bad("[1, 2]", 6, "not a JSON object");
	expect_bad("{}", 2, "no snapshot_version");
	bad = "{\"snapshot_version\": 99}";
	expect_bad(bad, strlen(bad), "version 99");
	bad = "{\"snapshot_version\": 1}";
	expect_bad(bad, strlen(bad), "header");

	/* extra text after the document */
	{
		char *extra = malloc(n + 8);

		memcpy(extra, good, n);
		memcpy(extra + n, "\n{}\n", 5);
		expect_bad(extra, n + 4, "extra text");
		free(extra);
	}

	/* a malformed section names the section */
	o = ps_snapshot_to_json(s);
	json_object_object_add(json_object_object_get(o, "cpu"), "cores",
			       json_object_new_string("many"));
	bad = json_object_to_json_string(o);
	expect_bad(bad, strlen(bad), "cpu section");
	json_object_put(o);

	/* each part of the header names itself (the header's table) */
	{
		static const struct {
			const char *part, *key, *words;
		} cut[] = {
			{ NULL, "timestamp_ns", "header" },
			{ "host", "root", "host section" },
			{ "source", "mode", "source section" },
			{ "rates", "available", "rates section" },
			{ "iface", "name", "iface section" },
		};

		for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
			struct json_object *p;

			o = ps_snapshot_to_json(s);
			p = cut[i].part ? json_object_object_get(o, cut[i].part)
					: o;
			assert_true(
				json_object_object_get_ex(p, cut[i].key, NULL));
			/* of another type is as bad as missing */
			json_object_object_add(p, cut[i].key,
					       json_object_new_array());
			bad = json_object_to_json_string(o);
			expect_bad(bad, strlen(bad), cut[i].words);
			json_object_object_del(p, cut[i].key);
			bad = json_object_to_json_string(o);
			expect_bad(bad, strlen(bad), cut[i].words);
			json_object_put(o);
		}
	}
	/* with rates, their interval is required */
	o = ps_snapshot_to_json(s);
	assert_false(s->hdr.rates);
	json_object_object_add(json_object_object_get(o, "rates"), "available",
			       json_object_new_boolean(true));
	bad = json_object_to_json_string(o);
	expect_bad(bad, strlen(bad), "rates section");
	json_object_put(o);
	/* what the header may lack or not know */
	o = ps_snapshot_to_json(s);
	json_object_object_add(json_object_object_get(o, "source"), "mode",
			       json_object_new_string("replay"));
	json_object_object_del(json_object_object_get(o, "host"), "boot_id");
	json_object_object_add(json_object_object_get(o, "host"), "affinity",
			       json_object_new_string("0-3; rm"));
	json_object_object_add(json_object_object_get(o, "iface"), "pmtu",
			       json_object_new_int64(1 << 20));
	bad = json_object_to_json_string(o);
	assert_int_equal(ps_snapshot_from_string(bad, strlen(bad), &back, err,
						 sizeof(err)),
			 0);
	assert_int_equal(back.hdr.source, PS_SNAP_LIVE);
	assert_string_equal(back.hdr.boot_id, "");
	assert_string_equal(back.hdr.affinity, "");
	assert_int_equal(back.hdr.iface.pmtu, 0);
	assert_string_equal(back.hdr.iface.name, s->hdr.iface.name);
	ps_snapshot_free(&back);
	json_object_put(o);

	/* NaN or Infinity anywhere: it could not be written back as JSON */
	o = ps_snapshot_to_json(s);
	json_object_object_add(json_object_object_get(o, "rates"), "interval_s",
			       json_object_new_double(NAN));
	bad = json_object_to_json_string(o);
	expect_bad(bad, strlen(bad), "not finite");
	json_object_put(o);

	/* a section that is missing is "not recorded", not an error */
	o = ps_snapshot_to_json(s);
	json_object_object_del(o, "sysctl");
	json_object_object_del(o, "ethtool");
	bad = json_object_to_json_string(o);
	assert_int_equal(ps_snapshot_from_string(bad, strlen(bad), &back, err,
						 sizeof(err)),
			 0);
	assert_int_equal(back.sysctl.status, PS_ST_NOT_RECORDED);
	/* and its groups do not pretend to be read */
	assert_int_equal(back.sysctl.val[PS_SYSCTL_RMEM_MAX].status,
			 PS_ST_NOT_RECORDED);
	assert_int_equal(back.cpu.status, PS_ST_OK);
	assert_int_equal(back.cpu.ncores, 4);
	assert_int_equal(back.ethtool.status, PS_ST_NOT_RECORDED);
	assert_int_not_equal(back.ethtool.features.status, PS_ST_OK);
	assert_int_not_equal(back.ethtool.linkstate.status, PS_ST_OK);
	ps_snapshot_free(&back);
	json_object_put(o);
	free(good);
	ps_snapshot_put(s);
}

/*
 * Prefixes of a good document (every 5th length, and each of the last 64),
 * and the document with every 7th byte replaced, either load or are
 * refused with a message; never a crash (run under --enable-asan to have
 * the memory checked too; fuzz-snapshot tries the rest). Each parse reads
 * the whole prefix: every length would be quadratic, 100 s under ASan.
 */
static void test_load_prefixes_and_flips(void **state)
{
	struct ps_snapshot *s = take("virtio-2cpu"), back;
	char *good = ps_snapshot_to_string(s), err[256], *copy;
	size_t n = strlen(good), loaded = 0;

	ps_sysroot_set(NULL);
	for (size_t i = 0; i < n; i += i + 64 < n ? 5 : 1) {
		err[0] = 0;
		if (!ps_snapshot_from_string(good, i, &back, err,
					     sizeof(err))) {
			ps_snapshot_free(&back);
			loaded++;
		} else {
			assert_true(err[0]);
		}
	}
	/* only whitespace may be missing at the end of a loadable prefix */
	assert_true(loaded <= 1);
	copy = malloc(n + 1);
	for (size_t i = 0; i < n; i += 7) {
		static const char subst[] = "x\"{}[],:0-9 ";

		memcpy(copy, good, n + 1);
		copy[i] = subst[i % (sizeof(subst) - 1)];
		err[0] = 0;
		if (!ps_snapshot_from_string(copy, n, &back, err, sizeof(err)))
			ps_snapshot_free(&back);
		else
			assert_true(err[0]);
	}
	free(copy);
	free(good);
	ps_snapshot_put(s);
}

static void test_load_file(void **state)
{
	struct ps_snapshot *s = take("i40e-4cpu"), back;
	char path[] = "/tmp/ps-snap-XXXXXX", *text;
	FILE *f;
	int fd;

	ps_sysroot_set(NULL);
	text = ps_snapshot_to_string(s);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	assert_int_equal(ps_snapshot_load(path, &back), 0);
	assert_string_equal(back.hdr.hostname, "i40e-host");
	assert_int_equal(back.cpu.ncores, 4);
	assert_int_equal(back.ethtool.status, PS_ST_NOT_RECORDED);
	assert_int_not_equal(back.ethtool.features.status, PS_ST_OK);
	assert_int_not_equal(back.ethtool.linkstate.status, PS_ST_OK);
	ps_snapshot_free(&back);

	/* the same file cut short */
	assert_int_equal(truncate(path, (off_t)strlen(text) / 3), 0);
	assert_int_equal(ps_snapshot_load(path, &back), -EINVAL);
	unlink(path);
	assert_int_equal(ps_snapshot_load(path, &back), -ENOENT);
	free(text);
	ps_snapshot_put(s);
}

/* a copy of the VM's table (host-order hex), plus a second default route */
static const char routes[] =
	"Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask"
	"\t\tMTU\tWindow\tIRTT\n"
	"eth1\t00000000\t0101000A\t0003\t0\t0\t200\t00000000\t0\t0\t0\n"
	"eth0\t00000000\t010200C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
	"eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
	"eth2\t0000000A\t00000000\t0001\t0\t0\t0\t000000FF\t0\t0\t0\n"
	"eth3\t0005000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
	"down0\t0006000A\t00000000\t0000\t0\t0\t0\t00FFFFFF\t0\t0\t0\n";

/* every registered probe is complete, named once, and has its JSON key */
static void test_registry(void **state)
{
	struct ps_snapshot *s = take("i40e-4cpu");
	struct json_object *o = ps_snapshot_to_json(s);

	ps_sysroot_set(NULL);
	assert_true(ps_probe_count >= 6);
	for (size_t i = 0; i < ps_probe_count; i++) {
		const struct ps_probe_ops *ops = ps_probe_registry[i];

		assert_non_null(ops->name);
		assert_non_null(ops->title);
		assert_non_null(ops->sample);
		assert_non_null(ops->to_json);
		assert_non_null(ops->from_json);
		assert_non_null(ops->print);
		assert_non_null(ops->free);
		assert_non_null(ops->mark);
		assert_ptr_equal(ps_probe_find(ops->name), ops);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(ops->name,
						ps_probe_registry[j]->name);
		assert_non_null(
			ps_json_get_obj(o, ops->name, json_type_object));
	}
	assert_null(ps_probe_find("nosuch"));
	json_object_put(o);
	ps_snapshot_put(s);
}

/*
 * A probe is listed once, in PS_PROBE_LIST: the registry holds its ops
 * (defined in its own file) in that order, and its mark op writes its own
 * member of the snapshot, no other (a new one is "not recorded")
 */
#define LISTED_NAME(NAME) #NAME,
#define LISTED_OPS(NAME) &ps_##NAME##_ops,
#define LISTED_STATUS(NAME) st[k++] = s->NAME.status;
static void member_status(const struct ps_snapshot *s, enum ps_status *st)
{
	size_t k = 0;

	PS_PROBE_LIST(LISTED_STATUS)
}

static void test_probe_list(void **state)
{
	static const char *const names[] = { PS_PROBE_LIST(LISTED_NAME) };
	static const struct ps_probe_ops *const ops[] = { PS_PROBE_LIST(
		LISTED_OPS) };
	const size_t n = sizeof(names) / sizeof(names[0]);
	struct ps_snapshot *s = ps_snapshot_new();

	assert_int_equal(ps_probe_count, n);
	for (size_t i = 0; i < n; i++) {
		assert_ptr_equal(ps_probe_registry[i], ops[i]);
		assert_string_equal(ops[i]->name, names[i]);
	}
	for (size_t i = 0; i < n; i++) {
		enum ps_status st[n];

		ops[i]->mark(s, PS_ST_NEEDS_ROOT, "marked");
		member_status(s, st);
		for (size_t j = 0; j < n; j++)
			assert_int_equal(st[j], j <= i ? PS_ST_NEEDS_ROOT
						       : PS_ST_NOT_RECORDED);
	}
	assert_string_equal(s->cpu.reason, "marked");
	ps_snapshot_put(s);
}

static void test_route_parser(void **state)
{
	static const struct {
		const char *dst;
		int rc;
		const char *ifname;
	} lookups[] = {
		{ "192.0.2.7", 0, "eth0" },
		{ "10.0.5.9", 0, "eth3" }, /* /24 beats /8 */
		{ "10.0.7.9", 0, "eth2" },
		/* a route that is not up is not used */
		{ "10.0.6.1", 0, "eth2" },
		{ "not-an-ip", -EINVAL, NULL },
	};
	char ifn[16];

	assert_int_equal(ps_route_parse_default(routes, ifn, sizeof(ifn)), 0);
	assert_string_equal(ifn, "eth0"); /* the lowest metric */
	for (size_t i = 0; i < sizeof(lookups) / sizeof(lookups[0]); i++) {
		assert_int_equal(ps_route_parse_lookup(routes, lookups[i].dst,
						       ifn, sizeof(ifn)),
				 lookups[i].rc);
		if (!lookups[i].rc)
			assert_string_equal(ifn, lookups[i].ifname);
	}
	assert_int_equal(ps_route_parse_default("Iface\tDestination\tGateway\n",
						ifn, sizeof(ifn)),
			 -ENOENT);
	assert_int_equal(ps_route_parse_default("garbage\n", ifn, sizeof(ifn)),
			 -EINVAL);
	assert_int_equal(ps_route_parse_default("Iface\tDestination\nx y\n",
						ifn, sizeof(ifn)),
			 -EINVAL);
	assert_int_equal(ps_route_parse_default("", ifn, sizeof(ifn)), -EINVAL);
}

/* this VM's table, with a second default route of higher metric */
static const char routes6[] =
	"fd000000000000000000000000000000 40 00000000000000000000000000000000 "
	"00 00000000000000000000000000000000 00000100 00000001 00000000 "
	"00000001     eth0\n"
	"00000000000000000000000000000000 00 00000000000000000000000000000000 "
	"00 fd000000000000000000000000000001 00000800 00000002 00000000 "
	"00000003     eth1\n"
	"00000000000000000000000000000000 00 00000000000000000000000000000000 "
	"00 fd000000000000000000000000000001 00000400 00000002 00000000 "
	"00000003     eth0\n"
	"00000000000000000000000000000001 80 00000000000000000000000000000000 "
	"00 00000000000000000000000000000000 00000000 00000002 00000000 "
	"80200001       lo\n"
	"00000000000000000000000000000000 00 00000000000000000000000000000000 "
	"00 00000000000000000000000000000000 ffffffff 00000001 00000000 "
	"00200200       lo\n";

static void test_route6_parser(void **state)
{
	char ifn[16];

	assert_int_equal(ps_route6_parse_default(routes6, ifn, sizeof(ifn)), 0);
	assert_string_equal(ifn, "eth0");
	/* only the kernel's unreachable default: no default route */
	assert_int_equal(
		ps_route6_parse_default(
			strstr(routes6,
			       "00000000000000000000000000000000 00 "
			       "00000000000000000000000000000000 00 "
			       "00000000000000000000000000000000 ffffffff"),
			ifn, sizeof(ifn)),
		-ENOENT);
	assert_int_equal(ps_route6_parse_default("", ifn, sizeof(ifn)),
			 -ENOENT);
	assert_int_equal(ps_route6_parse_default("zz 00\n", ifn, sizeof(ifn)),
			 -EINVAL);
}

static void test_iface_choice(void **state)
{
	struct ps_iface_choice c;

	ps_sysroot_set(NULL);
	ps_iface_choose("lo", NULL, &c);
	assert_string_equal(c.name, "lo");
	assert_int_equal(c.source, PS_IFACE_OPTION);
	assert_int_equal(c.status, PS_ST_OK);
	ps_iface_choose("nosuch0", NULL, &c);
	assert_int_equal(c.status, PS_ST_ABSENT);
	assert_non_null(strstr(c.reason, "nosuch0"));
	/* live, the kernel answers: 127.0.0.1 goes out through lo */
	ps_iface_choose(NULL, "127.0.0.1", &c);
	assert_string_equal(c.name, "lo");
	assert_int_equal(c.source, PS_IFACE_ROUTE_PEER);
	assert_int_equal(c.status, PS_ST_OK);
	assert_true(c.pmtu >= 1280);
	/* a recorded tree: the route is read from its proc/net/route */
	ps_sysroot_set(machine_or_skip("mlx5-4cpu"));
	ps_iface_choose(NULL, NULL, &c);
	assert_string_equal(c.name, "ens1f0");
	assert_int_equal(c.source, PS_IFACE_DEFAULT_ROUTE);
	ps_iface_choose(NULL, "172.31.9.9", &c);
	assert_string_equal(c.name, "ens1f0");
	assert_int_equal(c.source, PS_IFACE_ROUTE_PEER);
	assert_string_equal(c.peer, "172.31.9.9");
	/* a peer given by name: the default route */
	ps_iface_choose(NULL, "peer.example", &c);
	assert_int_equal(c.source, PS_IFACE_DEFAULT_ROUTE);
	ps_sysroot_set("/nonexistent-pipescope-tree");
	ps_iface_choose(NULL, NULL, &c);
	assert_string_equal(c.name, "");
	assert_int_equal(c.status, PS_ST_NOT_RECORDED);
	assert_true(c.reason[0]);
	ps_sysroot_set(NULL);
}

/* a tree whose routing table has no default route */
static void test_iface_no_default_route(void **state)
{
	char dir[] = "/tmp/ps-tree-XXXXXX", cmd[300];
	struct ps_iface_choice c;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/net", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/proc/net/route", dir);
	f = fopen(cmd, "w");
	assert_non_null(f);
	/* only 192.0.2.0/24 on eth0 */
	fputs("Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric"
	      "\tMask\t\tMTU\tWindow\tIRTT\n"
	      "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n",
	      f);
	fclose(f);
	ps_sysroot_set(dir);
	ps_iface_choose(NULL, NULL, &c);
	assert_string_equal(c.name, "");
	assert_int_equal(c.status, PS_ST_ABSENT);
	assert_non_null(strstr(c.reason, "no default route"));
	/* with a loopback interface recorded, that one is watched */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/class/net/lo", dir);
	assert_int_equal(system(cmd), 0);
	ps_iface_choose(NULL, NULL, &c);
	assert_string_equal(c.name, "lo");
	assert_int_equal(c.source, PS_IFACE_LOOPBACK);
	assert_int_equal(c.status, PS_ST_OK);
	ps_sysroot_set(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_trees),
		cmocka_unit_test(test_round_trip_live),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_load_prefixes_and_flips),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_probe_list),
		cmocka_unit_test(test_route_parser),
		cmocka_unit_test(test_route6_parser),
		cmocka_unit_test(test_iface_choice),
		cmocka_unit_test(test_iface_no_default_route),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
