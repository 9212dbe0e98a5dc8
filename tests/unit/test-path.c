/* test-path.c: the path probe's pure parsers on recorded netlink dumps
 * (tests/fixtures/netlink/path) and recorded "tc filter" text, its JSON
 * from an untrusted far end, its direction and place texts, and the
 * step's per-device shaper sums (a device gone mid-step) */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "check.h"
#include "fixture.h"
#include "probe-path.h"
#include "report-check.h"
#include "step-qdisc.h"
#include "xmalloc.h"

static const unsigned char peer_mac[6] = { 0xfe, 0xa4, 0xe5, 0x1d, 0x8e, 0xd6 };

static void test_filters(void **state)
{
	struct ps_path_redirect r[4];
	size_t len;
	char *buf = netlink_fixture("path", "filter-ingress", &len);

	(void)state;
	assert_int_equal(ps_path_parse_filters(buf, len, r, 4), 1);
	assert_int_equal(r[0].ifindex, 3); /* ifb0 */
	assert_false(r[0].mirror);
	/* every prefix is parsed without reading past it */
	for (size_t n = 0; n < len; n += 7)
		assert_true(ps_path_parse_filters(buf, n, r, 4) <= 1);
	assert_int_equal(ps_path_parse_filters(buf, len, r, 0), 0);
	free(buf);
}

static void test_filter_text(void **state)
{
	char names[4][IF_NAMESIZE];
	char *text = fixture_text(
		"tc/tc-s-filter-ingress_u32-mirred-ifb_veth_pipescope.txt");

	(void)state;
	assert_int_equal(ps_path_parse_filter_text(text, names, 4), 1);
	assert_string_equal(names[0], "ifb0");
	free(text);
	assert_int_equal(
		ps_path_parse_filter_text("mirred (Egress Redirect to device "
					  "\x1b[31mevil/../x) stolen\n",
					  names, 4),
		1);
	assert_null(strchr(names[0], '\x1b'));
	assert_null(strchr(names[0], '/'));
	assert_int_equal(
		ps_path_parse_filter_text(
			"mirred (Ingress Redirect to device x)\n", names, 4),
		0);
}

static void test_neigh_fdb(void **state)
{
	unsigned char mac[6], addr[4] = { 10, 66, 0, 2 },
			      other[4] = { 10, 66, 0, 9 };
	size_t nlen, flen;
	char *n = netlink_fixture("path", "neigh", &nlen);
	char *f = netlink_fixture("path", "fdb", &flen);

	(void)state;
	assert_int_equal(ps_path_parse_neigh(n, nlen, 2, addr, 4, mac), 0);
	assert_memory_equal(mac, peer_mac, 6);
	assert_int_equal(ps_path_parse_neigh(n, nlen, 2, other, 4, mac),
			 -ENOENT);
	assert_int_equal(ps_path_parse_neigh(n, nlen, 9, addr, 4, mac),
			 -ENOENT);
	assert_int_equal(ps_path_parse_fdb(f, flen, 2, peer_mac), 5);
	assert_int_equal(ps_path_parse_fdb(f, flen, 4, peer_mac), -ENOENT);
	for (size_t k = 0; k < flen; k += 5)
		(void)ps_path_parse_fdb(f, k, 2, peer_mac);
	free(n);
	free(f);
}

/* a path: v0 (routed) whose ingress redirects to ifb0 with a tbf */
static void make_path(struct ps_path_info *p, uint64_t drops, bool ifb)
{
	struct ps_path_dev *d;
	struct ps_qdisc_entry *e;

	ps_path_init(p, "v0");
	p->status = PS_ST_OK;
	p->n = ifb ? 2 : 1;
	p->dev = xcalloc(2, sizeof(*p->dev));
	d = &p->dev[0];
	snprintf(d->name, sizeof(d->name), "v0");
	d->role = PS_PATH_ROUTED;
	d->status = PS_ST_OK;
	snprintf(d->redirect_to, sizeof(d->redirect_to), "ifb0");
	ps_qdisc_init(&d->qdisc, "v0");
	d = &p->dev[1];
	snprintf(d->name, sizeof(d->name), "ifb0");
	snprintf(d->via, sizeof(d->via), "v0");
	d->role = PS_PATH_IFB;
	d->status = PS_ST_OK;
	ps_qdisc_init(&d->qdisc, "ifb0");
	d->qdisc.status = PS_ST_OK;
	d->qdisc.n = 1;
	e = &d->qdisc.q[0];
	snprintf(e->kind, sizeof(e->kind), "tbf");
	e->hid = 0x80010000;
	e->pid = PS_QDISC_ROOT;
	e->rate_bps = 300000000;
	e->burst_bytes = 32768;
	e->limit_bytes = 1 << 20;
	e->drops = drops;
	e->overlimits = drops * 10;
	e->backlog_bytes = drops * 100;
	e->ceil_bps = e->limit_packets = e->default_class = PS_NA;
}

static void test_place(void **state)
{
	struct ps_path_info p;
	char buf[96];

	(void)state;
	make_path(&p, 0, true);
	assert_int_equal(ps_path_direction(&p, 0), PS_PATH_EGRESS);
	assert_int_equal(ps_path_direction(&p, 1), PS_PATH_INGRESS);
	ps_path_place(&p, 1, buf, sizeof(buf));
	assert_string_equal(buf, "ingress of v0, redirected to ifb0");
	ps_path_place(&p, 0, buf, sizeof(buf));
	assert_string_equal(buf, "v0");
	p.dev[1].role = PS_PATH_PORT;
	snprintf(p.dev[1].via, sizeof(p.dev[1].via), "br0");
	ps_path_place(&p, 1, buf, sizeof(buf));
	assert_string_equal(buf, "bridge port ifb0 of br0");
	ps_path_free(&p);
}

static void test_step(void **state)
{
	struct ps_step_path_acc a;
	struct ps_path_info p;
	struct ps_step_result st;

	(void)state;
	ps_step_path_reset(&a);
	for (int k = 0; k < 3; k++) {
		make_path(&p, (uint64_t)(5 + 10 * k * k), true);
		ps_step_path_add(&a, &p, 100.0 + k);
		ps_path_free(&p);
	}
	memset(&st, 0, sizeof(st));
	ps_step_path_finish(&a, true, &st);
	assert_int_equal(st.nshapers, 1);
	assert_true(st.shapers[0].far);
	assert_false(st.shapers[0].gone);
	assert_string_equal(st.shapers[0].dev, "ifb0");
	assert_string_equal(st.shapers[0].via, "v0");
	assert_int_equal(st.shapers[0].role, PS_PATH_IFB);
	assert_int_equal(st.shapers[0].direction, PS_PATH_INGRESS);
	assert_true(st.shapers[0].q.have);
	assert_string_equal(st.shapers[0].q.shaper, "tbf");
	assert_int_equal((int)st.shapers[0].q.rate_bps, 300000000);
	assert_int_equal(st.shapers[0].q.drops, 40); /* 45 - 5 */
	assert_int_equal(st.shapers[0].q.overlimits, 400);
	assert_int_equal((int)st.shapers[0].q.backlog_peak, 4500);
	/* the step's JSON (the check report) carries it */
	st.state = PS_STEP_DONE;
	{
		struct json_object *o = ps_jtable_to_json(ps_step_table, &st);
		struct json_object *sh = json_object_array_get_idx(
			json_object_object_get(o, "path_shapers"), 0);

		assert_non_null(sh);
		assert_string_equal(
			json_object_get_string(
				json_object_object_get(sh, "direction")),
			"ingress");
		assert_string_equal(
			json_object_get_string(
				json_object_object_get(sh, "place")),
			"ingress of v0, redirected to ifb0");
		json_object_put(o);
	}

	/* the ifb goes away: gone, and a later reading (counters reset)
	 * of a device of that name adds nothing */
	make_path(&p, 0, false);
	ps_step_path_add(&a, &p, 103.0);
	ps_path_free(&p);
	make_path(&p, 1, true);
	ps_step_path_add(&a, &p, 104.0);
	ps_path_free(&p);
	memset(&st, 0, sizeof(st));
	ps_step_path_finish(&a, false, &st);
	assert_int_equal(st.nshapers, 1);
	assert_true(st.shapers[0].gone);
	assert_false(st.shapers[0].far);
	assert_int_equal(st.shapers[0].q.drops, 40);
}

static void test_json(void **state)
{
	struct ps_path_info p, q;
	struct json_object *o, *devs;
	char *text;

	(void)state;
	make_path(&p, 7, true);
	o = ps_path_to_json(&p);
	assert_int_equal(ps_path_from_json(o, &q), 0);
	assert_int_equal(q.n, 2);
	assert_string_equal(q.dev[1].name, "ifb0");
	assert_int_equal(q.dev[1].role, PS_PATH_IFB);
	assert_int_equal(q.dev[1].qdisc.q[0].drops, 7);
	ps_path_free(&q);
	/* a hostile far end: names, roles, too many devices */
	devs = json_object_object_get(o, "devices");
	json_object_object_add(json_object_array_get_idx(devs, 0), "name",
			       json_object_new_string("\x1b[2Jrm -rf /;x"));
	json_object_object_add(json_object_array_get_idx(devs, 0), "role",
			       json_object_new_string("boss"));
	for (int k = 0; k < 100; k++)
		json_object_array_add(devs, json_object_new_object());
	assert_int_equal(ps_path_from_json(o, &q), 0);
	assert_int_equal(q.n, PS_PATH_MAX);
	assert_true(q.truncated);
	assert_null(strchr(q.dev[0].name, '\x1b'));
	assert_null(strchr(q.dev[0].name, '/'));
	assert_true(strlen(q.dev[0].name) < IF_NAMESIZE);
	text = xstrdup(json_object_to_json_string(o));
	ps_path_free(&q);
	free(text);
	json_object_put(o);
	ps_path_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_filter_text),
		cmocka_unit_test(test_neigh_fdb),
		cmocka_unit_test(test_place),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
