/* test-pci.c: the PCIe probe's parsers (sysfs and lspci link strings of
 * every pciutils era), its bandwidth arithmetic checked against the
 * kernel's own log lines, and its samples of the recorded machines */
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
#include <sys/stat.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "jsonutil.h"
#include "probe-pci.h"
#include "sysroot.h"
#include "xmalloc.h"
#include "fixture.h"

static bool have_machines(void)
{
	return have_machines_at("pcie-downgraded/sys");
}

static char *capture(const char *name)
{
	char *dir = machine("pcie-downgraded/captures"), *path, *text;

	xasprintf(&path, "%s/%s", dir, name);
	ps_sysroot_set(NULL);
	text = ps_read_file(path, NULL);
	assert_non_null(text);
	free(path);
	free(dir);
	return text;
}

/* the line of a capture that contains @key */
static char *line_with(const char *text, const char *key)
{
	const char *p = strstr(text, key), *s, *e;

	assert_non_null(p);
	s = p;
	while (s > text && s[-1] != '\n')
		s--;
	e = strchrnul(p, '\n');
	return strndup(s, e - s);
}

static void test_parse_speed(void **state)
{
	double g;

	assert_int_equal(ps_pci_parse_speed("8.0 GT/s PCIe", &g), 0);
	assert_true(g == 8.0);
	assert_int_equal(ps_pci_parse_speed("2.5 GT/s PCIe", &g), 0);
	assert_true(g == 2.5);
	assert_int_equal(ps_pci_parse_speed("16.0 GT/s PCIe\n", &g), 0);
	assert_true(g == 16.0);
	assert_int_equal(ps_pci_parse_speed("64.0 GT/s PCIe", &g), 0);
	assert_true(g == 64.0);
	assert_int_equal(ps_pci_parse_speed("5GT/s", &g), 0); /* lspci */
	assert_true(g == 5.0);
	assert_int_equal(ps_pci_parse_speed("2.5 GT/s", &g),
			 0); /* old kernels */
	assert_true(g == 2.5);
	/* must not parse */
	assert_int_equal(ps_pci_parse_speed("Unknown", &g), -EINVAL);
	assert_true(g == 0);
	assert_int_equal(ps_pci_parse_speed("unknown", &g), -EINVAL);
	assert_int_equal(ps_pci_parse_speed("", &g), -EINVAL);
	assert_int_equal(ps_pci_parse_speed("8.0 Gb/s", &g), -EINVAL);
	assert_int_equal(ps_pci_parse_speed("-8 GT/s", &g), -EINVAL);
	assert_int_equal(ps_pci_parse_speed("GT/s", &g), -EINVAL);
}

static void test_speed_codes(void **state)
{
	assert_true(ps_pci_speed_of_code(1) == 2.5);
	assert_true(ps_pci_speed_of_code(2) == 5);
	assert_true(ps_pci_speed_of_code(3) == 8);
	assert_true(ps_pci_speed_of_code(4) == 16);
	assert_true(ps_pci_speed_of_code(5) == 32);
	assert_true(ps_pci_speed_of_code(6) == 64);
	assert_true(ps_pci_speed_of_code(8) == 128);
	assert_true(ps_pci_speed_of_code(0) == 0);
	assert_true(ps_pci_speed_of_code(7) == 0);
	assert_true(ps_pci_speed_of_code(15) == 0);
}

static void test_lspci_ok_era(void **state)
{
	struct ps_pci_lnk l;
	char *text, *line;

	if (!have_machines())
		skip();
	/* pciutils 3.6-3.7: "(downgraded)" and "(ok)" */
	text = capture("lspci-vv-lnksta-downgraded-speed-x1-ok-pciutils36.txt");
	line = line_with(text, "LnkSta:");
	assert_int_equal(ps_pci_parse_lnk(line, &l), 0);
	assert_true(l.speed == 2.5);
	assert_int_equal(l.width, 1);
	assert_string_equal(l.speed_mark, "downgraded");
	assert_string_equal(l.width_mark, "ok");
	free(line);
	line = line_with(text, "LnkCap:");
	assert_int_equal(ps_pci_parse_lnk(line, &l), 0);
	assert_true(l.speed == 5);
	assert_int_equal(l.width, 1);
	assert_string_equal(l.speed_mark, "");
	assert_string_equal(l.width_mark, "");
	/* our verdict agrees with the lspci of that era */
	assert_string_equal(ps_pci_compare(2.5, 5, false), "downgraded");
	assert_string_equal(ps_pci_compare(1, 1, false), "");
	free(line);
	free(text);
}

static void test_lspci_unknown_speed(void **state)
{
	struct ps_pci_lnk l;
	char *text, *line;

	if (!have_machines())
		skip();
	/* old pciutils and a 16 GT/s link: "Speed unknown" */
	text = capture("lspci-lnk-speed-unknown-cx5-socket-direct.txt");
	line = line_with(text, "LnkSta:");
	assert_int_equal(ps_pci_parse_lnk(line, &l), 0);
	assert_true(l.speed == 0);
	assert_int_equal(l.width, 8);
	free(line);
	line = line_with(text, "LnkCap:");
	assert_int_equal(ps_pci_parse_lnk(line, &l), 0);
	assert_true(l.speed == 0);
	assert_int_equal(l.width, 8);
	free(line);
	free(text);
}

static void test_lspci_current_era(void **state)
{
	/* pciutils >= 3.8: no "(ok)", "(downgraded)" on either field (the
	 * REFERENCE lists such a capture; its file is not in the fixtures,
	 * so the line is written here in that format) */
	struct ps_pci_lnk l;

	assert_int_equal(ps_pci_parse_lnk("\t\tLnkSta:\tSpeed 5GT/s "
					  "(downgraded), Width x2 (downgraded)",
					  &l),
			 0);
	assert_true(l.speed == 5);
	assert_int_equal(l.width, 2);
	assert_string_equal(l.speed_mark, "downgraded");
	assert_string_equal(l.width_mark, "downgraded");
	assert_int_equal(
		ps_pci_parse_lnk("LnkSta:\tSpeed 8GT/s, Width x16", &l), 0);
	assert_string_equal(l.speed_mark, "");
	assert_int_equal(
		ps_pci_parse_lnk("LnkSta: Speed 16GT/s (overdriven), Width x4",
				 &l),
		0);
	assert_string_equal(l.speed_mark, "overdriven");
	/* must not parse */
	assert_int_equal(ps_pci_parse_lnk("LnkSta: Width x4", &l), -EINVAL);
	assert_int_equal(ps_pci_parse_lnk("LnkSta: Speed 8GT/s, Width x0", &l),
			 -EINVAL);
	assert_int_equal(ps_pci_parse_lnk("LnkSta: Speed fast, Width x4", &l),
			 -EINVAL);
	assert_int_equal(ps_pci_parse_lnk("", &l), -EINVAL);
}

static void test_compare(void **state)
{
	assert_string_equal(ps_pci_compare(5, 8, false), "downgraded");
	assert_string_equal(ps_pci_compare(1, 8, false), "downgraded");
	assert_string_equal(ps_pci_compare(8, 8, false), "");
	assert_string_equal(ps_pci_compare(8, 5, false), "overdriven");
	/* root and downstream ports get no verdict */
	assert_string_equal(ps_pci_compare(5, 8, true), "");
	/* unknown values give none either */
	assert_string_equal(ps_pci_compare(0, 8, false), "");
	assert_string_equal(ps_pci_compare(8, 0, false), "");
}

static void near(double got, double want, double rel)
{
	if (fabs(got - want) > fabs(want) * rel)
		fail_msg("%.6g is not within %.3g%% of %.6g", got, rel * 100,
			 want);
}

/* each kernel line "X Gb/s available ... limited by S GT/s PCIe xW link
 * at BDF (capable of Y Gb/s with S2 GT/s PCIe xW2 link)" */
static void test_bandwidth_vs_kernel(void **state)
{
	char *text, *p;
	int lines = 0;

	if (!have_machines())
		skip();
	text = capture("dmesg-pcie-bandwidth-limited.txt");
	for (p = text; (p = strstr(p, "Gb/s available")); p++) {
		const char *s = p - 1; /* the blank before "Gb/s" */
		double avail, gts, cap, gts2;
		int w, w2;
		char at[32];

		while (s > text && s[-1] != ' ')
			s--;
		assert_int_equal(
			sscanf(s,
			       "%lf Gb/s available PCIe bandwidth, limited by "
			       "%lf GT/s PCIe x%d link at %31s (capable of %lf "
			       "Gb/s with %lf GT/s PCIe x%d link)",
			       &avail, &gts, &w, at, &cap, &gts2, &w2),
			7);
		/* the kernel truncates Mb/s per lane: 0.1% */
		near(ps_pci_encoded_bps(gts, w) / 1e9, avail, 1e-3);
		near(ps_pci_encoded_bps(gts2, w2) / 1e9, cap, 1e-3);
		lines++;
	}
	assert_int_equal(lines, 4);
	free(text);
}

static void test_encoding_and_usable(void **state)
{
	const char *name;
	char how[320];
	double u;

	assert_true(ps_pci_encoding(2.5, &name) == 0.8);
	assert_string_equal(name, "8b/10b");
	assert_true(ps_pci_encoding(5, &name) == 0.8);
	assert_true(ps_pci_encoding(8, &name) == 128.0 / 130.0);
	assert_string_equal(name, "128b/130b");
	assert_true(ps_pci_encoding(32, &name) == 128.0 / 130.0);
	assert_true(ps_pci_encoding(64, &name) == 242.0 / 256.0);
	assert_string_equal(name, "242B/256B FLIT");
	assert_true(ps_pci_encoding(0, &name) == 0);

	/* x1 5 GT/s, MPS 256: 4 Gbit/s encoded, 256/280 of it usable */
	u = ps_pci_usable_bps(5, 1, 256, how, sizeof(how));
	near(u, 4e9 * 256 / 280, 1e-9);
	assert_non_null(strstr(how, "8b/10b"));
	assert_non_null(strstr(how, "4.000 Gbit/s"));
	assert_non_null(strstr(how, "3.657 Gbit/s usable"));
	/* MPS unknown: 128 assumed, and said */
	u = ps_pci_usable_bps(5, 1, 0, how, sizeof(how));
	near(u, 4e9 * 128 / 152, 1e-9);
	assert_non_null(strstr(how, "128 bytes assumed"));
	/* the REFERENCE's worked examples stay in their ranges */
	u = ps_pci_usable_bps(8, 8, 256, NULL, 0) / 1e9;
	assert_true(u > 52 && u < 58);
	u = ps_pci_usable_bps(16, 16, 256, NULL, 0) / 1e9;
	assert_true(u > 210 && u < 240);
	near(ps_pci_encoded_bps(64, 16), 64e9 * 16 * 242 / 256, 1e-12);
	/* unknown width or speed */
	assert_true(ps_pci_usable_bps(8, 0, 256, how, sizeof(how)) == 0);
	assert_true(ps_pci_usable_bps(0, 8, 256, NULL, 0) == 0);
}

/* ---- the probe on recorded machines --------------------------------- */

static void sample(const char *tree, const char *ifname,
		   struct ps_pci_info *info)
{
	char *dir = machine(tree);

	ps_sysroot_set(dir);
	assert_int_equal(ps_pci_sample(ifname, info), 0);
	ps_sysroot_set(NULL);
	free(dir);
}

static void test_find_function(void **state)
{
	char bdf[16], path[256], child[32], *dir;

	if (!have_machines())
		skip();
	dir = machine("virtio-2cpu");
	ps_sysroot_set(dir);
	assert_int_equal(ps_pci_find_function("eth0", bdf, sizeof(bdf), path,
					      sizeof(path), child,
					      sizeof(child)),
			 0);
	assert_string_equal(bdf, "0000:00:03.0");
	assert_string_equal(path, "/sys/devices/pci0000:00/0000:00:03.0");
	assert_string_equal(child, "virtio2");
	assert_int_equal(ps_pci_find_function("lo", bdf, sizeof(bdf), path,
					      sizeof(path), child,
					      sizeof(child)),
			 -ENODEV);
	assert_int_equal(ps_pci_find_function("eth7", bdf, sizeof(bdf), path,
					      sizeof(path), child,
					      sizeof(child)),
			 -ENOENT);
	assert_int_equal(ps_pci_find_function("../x", bdf, sizeof(bdf), path,
					      sizeof(path), child,
					      sizeof(child)),
			 -ENOENT);
	free(dir);
	dir = machine("ixgbe-12cpu-cpu0");
	ps_sysroot_set(dir);
	assert_int_equal(ps_pci_find_function("eth0", bdf, sizeof(bdf), path,
					      sizeof(path), child,
					      sizeof(child)),
			 0);
	assert_string_equal(bdf, "0000:04:00.0");
	assert_string_equal(child, "");
	ps_sysroot_set(NULL);
	free(dir);
}

static void test_sample_downgraded(void **state)
{
	struct ps_pci_info i;

	if (!have_machines())
		skip();
	sample("pcie-downgraded", "enp5s0f0", &i);
	assert_int_equal(i.status, PS_ST_OK);
	assert_string_equal(i.bdf, "0000:05:00.0");
	assert_int_equal(i.vendor_id, 0x8086);
	assert_int_equal(i.device_id, 0x1572);
	assert_non_null(strstr(i.vendor, "Intel")); /* from pci.ids */
	assert_string_equal(i.driver, "i40e");
	assert_int_equal(i.link_status, PS_ST_OK);
	assert_string_equal(i.link_source, "config");
	assert_string_equal(i.dev_type, "endpoint");
	assert_true(i.cap_speed == 8 && i.cap_width == 8);
	assert_true(i.sta_speed == 5 && i.sta_width == 1);
	assert_string_equal(i.speed_mark, "downgraded");
	assert_string_equal(i.width_mark, "downgraded");
	assert_true(i.downgraded);
	assert_int_equal(i.payload_status, PS_ST_OK);
	assert_int_equal(i.mps, 256);
	assert_int_equal(i.mps_cap, 2048);
	assert_int_equal(i.mrrs, 512);
	assert_int_equal(i.nhops, 2);
	assert_string_equal(i.hops[1].type, "root_port");
	/* the kernel names the root port, the topmost of equal links */
	assert_string_equal(i.limit_bdf, "0000:00:1c.1");
	assert_false(i.limited_upstream);
	near(i.encoded_bps, 4e9, 1e-9);
	near(i.usable_bps, 4e9 * 256 / 280, 1e-9);
	near(i.capable_bps, 63.015e9, 1e-3);
	assert_non_null(strstr(i.usable_how, "max payload 256"));
	ps_pci_free(&i);
}

static void test_sample_upstream_limit(void **state)
{
	struct ps_pci_info i;

	if (!have_machines())
		skip();
	sample("ixgbe-12cpu-cpu0", "eth0", &i);
	assert_int_equal(i.link_status, PS_ST_OK);
	/* lspci on the NIC shows nothing wrong ... */
	assert_false(i.downgraded);
	assert_string_equal(i.speed_mark, "");
	assert_string_equal(i.width_mark, "");
	/* ... but the switch's upstream link trained at x4 */
	assert_int_equal(i.nhops, 4);
	assert_string_equal(i.hops[2].type, "upstream_port");
	assert_int_equal(i.hops[2].sta_width, 4);
	assert_true(i.limited_upstream);
	assert_string_equal(i.limit_bdf, "0000:00:03.0");
	assert_int_equal(i.limit_width, 4);
	near(i.encoded_bps, 16e9, 1e-9);
	ps_pci_free(&i);
}

static void test_sample_sysfs_only(void **state)
{
	struct ps_pci_info i;

	if (!have_machines())
		skip();
	/* a recording made without root: 64 bytes of config space */
	sample("i40e-4cpu", "eth0", &i);
	assert_int_equal(i.link_status, PS_ST_OK);
	assert_string_equal(i.link_source, "sysfs");
	assert_true(i.sta_speed == 8 && i.sta_width == 8);
	assert_false(i.downgraded);
	assert_int_equal(i.payload_status, PS_ST_NOT_RECORDED);
	assert_non_null(strstr(i.payload_reason, "64 bytes"));
	assert_int_equal(i.mps, 0);
	assert_non_null(strstr(i.usable_how, "128 bytes assumed"));
	assert_int_equal(i.numa_node, 0);
	assert_string_equal(i.local_cpulist, "0-3");
	ps_pci_free(&i);
}

static void test_sample_no_pcie(void **state)
{
	struct ps_pci_info i;

	if (!have_machines())
		skip();
	sample("virtio-2cpu", "eth0", &i);
	assert_int_equal(i.status, PS_ST_OK);
	assert_string_equal(i.child, "virtio2");
	assert_int_equal(i.link_status, PS_ST_ABSENT);
	assert_non_null(strstr(i.link_reason, "no PCIe capability"));
	assert_int_equal(i.payload_status, PS_ST_ABSENT);
	assert_true(i.usable_bps == 0);
	ps_pci_free(&i);

	sample("virtio-2cpu", "lo", &i);
	assert_int_equal(i.status, PS_ST_ABSENT);
	assert_non_null(strstr(i.reason, "virtual interface"));
	assert_int_equal(i.link_status, PS_ST_ABSENT);
	ps_pci_free(&i);

	sample("virtio-2cpu", "eth5", &i);
	assert_int_equal(i.status, PS_ST_ERROR);
	assert_non_null(strstr(i.reason, "eth5"));
	ps_pci_free(&i);
}

static void roundtrip(const char *tree, const char *ifname)
{
	struct ps_pci_info a, b;
	struct json_object *o1, *o2, *parsed;
	char *s1;

	sample(tree, ifname, &a);
	o1 = ps_pci_to_json(&a);
	s1 = xstrdup(json_object_to_json_string(o1));
	parsed = json_tokener_parse(s1);
	assert_non_null(parsed);
	assert_int_equal(ps_pci_from_json(parsed, &b), 0);
	o2 = ps_pci_to_json(&b);
	assert_string_equal(s1, json_object_to_json_string(o2));
	assert_int_equal(memcmp(&a, &b, sizeof(a)), 0);
	json_object_put(o1);
	json_object_put(o2);
	json_object_put(parsed);
	free(s1);
}

static void test_json_roundtrip(void **state)
{
	struct ps_pci_info x;

	if (!have_machines())
		skip();
	roundtrip("pcie-downgraded", "enp5s0f0");
	roundtrip("ixgbe-12cpu-cpu0", "eth0");
	roundtrip("i40e-4cpu", "eth0");
	roundtrip("mlx5-4cpu", "ens1f0");
	roundtrip("virtio-2cpu", "eth0");
	roundtrip("virtio-2cpu", "lo");
	assert_int_equal(ps_pci_from_json(NULL, &x), -EINVAL);
}

/* the numbers beside usable_how (doc/snapshot.md pci.link.usable_basis) */
static void test_usable_basis(void **state)
{
	struct ps_pci_info i;
	struct ps_pcie_bw bw;
	struct json_object *o, *link;

	(void)state;
	assert_int_equal(ps_pcie_bw(8, 4, 0, &bw), 0);
	assert_string_equal(bw.encoding, "128b/130b");
	assert_true(bw.payload_assumed && bw.payload_bytes == 128);
	assert_int_equal(bw.tlp_overhead_bytes, 24);
	near(bw.encoded_bps, 8e9 * 4 * 128 / 130, 1e-12);
	near(bw.usable_bps, bw.encoded_bps * 128 / 152, 1e-12);
	assert_true(bw.usable_bps == ps_pci_usable_bps(8, 4, 0, NULL, 0));
	assert_int_equal(ps_pcie_bw(8, 0, 256, &bw), -EINVAL);
	assert_true(bw.usable_bps == 0 && bw.encoded_bps == 0);

	if (!have_machines())
		skip();
	sample("pcie-downgraded", "enp5s0f0", &i);
	assert_int_equal(i.usable_basis.status, PS_ST_OK);
	assert_true(i.usable_basis.bw.speed_gts == 5);
	assert_int_equal(i.usable_basis.bw.lanes, 1);
	assert_string_equal(i.usable_basis.bw.encoding, "8b/10b");
	assert_int_equal(i.usable_basis.bw.payload_bytes, 256);
	assert_false(i.usable_basis.bw.payload_assumed);
	assert_true(i.usable_basis.bw.usable_bps == i.usable_bps);
	o = ps_pci_to_json(&i);
	link = ps_json_get_obj(o, "link", json_type_object);
	assert_non_null(
		ps_json_get_obj(link, "usable_basis", json_type_object));
	json_object_put(o);
	ps_pci_free(&i);

	/* no PCIe link: no basis in the snapshot */
	sample("virtio-2cpu", "eth0", &i);
	assert_int_equal(i.usable_basis.status, PS_ST_ABSENT);
	o = ps_pci_to_json(&i);
	link = ps_json_get_obj(o, "link", json_type_object);
	assert_non_null(link);
	assert_null(ps_json_get_obj(link, "usable_basis", json_type_object));
	json_object_put(o);
	ps_pci_free(&i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_speed),
		cmocka_unit_test(test_speed_codes),
		cmocka_unit_test(test_lspci_ok_era),
		cmocka_unit_test(test_lspci_unknown_speed),
		cmocka_unit_test(test_lspci_current_era),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_bandwidth_vs_kernel),
		cmocka_unit_test(test_encoding_and_usable),
		cmocka_unit_test(test_find_function),
		cmocka_unit_test(test_sample_downgraded),
		cmocka_unit_test(test_sample_upstream_limit),
		cmocka_unit_test(test_sample_sysfs_only),
		cmocka_unit_test(test_sample_no_pcie),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_usable_basis),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
