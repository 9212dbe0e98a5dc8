/* test-proto.c: iperf3's parameter and result JSON, both ways, and hostile
 * input */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "net.h"
#include "proto.h"

static struct json_object *parse(const char *s)
{
	struct json_object *o = json_tokener_parse(s);

	assert_non_null(o);
	return o;
}

static void test_params_roundtrip(void **state)
{
	struct ps_params p = { 0 }, q;
	struct json_object *o;
	char err[256];

	p.proto = PS_PROTO_UDP;
	p.omit = 2;
	p.duration = 30;
	p.parallel = 8;
	p.bidir = true;
	p.window = 1 << 20;
	p.len = 1400;
	p.rate = 1000000000;
	p.mss = 1400;
	p.tos = 16;
	p.server_affinity = 3;
	p.udp64 = true;
	p.ps_ext = true;
	p.gsro = true;
	strcpy(p.congestion, "cubic");
	strcpy(p.client_version, "0.1.0");
	o = ps_params_to_json(&p);
	assert_int_equal(ps_params_from_json(o, &q, err, sizeof(err)), 0);
	json_object_put(o);
	assert_int_equal(q.proto, PS_PROTO_UDP);
	assert_int_equal(q.omit, 2);
	assert_true(q.duration == 30);
	assert_int_equal(q.parallel, 8);
	assert_true(q.bidir && !q.reverse && q.udp64 && q.ps_ext && q.gsro);
	assert_true(q.window == 1 << 20);
	assert_int_equal(q.len, 1400);
	assert_true(q.rate == 1000000000);
	assert_int_equal(q.mss, 1400);
	assert_int_equal(q.tos, 16);
	assert_int_equal(q.server_affinity, 3);
	assert_string_equal(q.congestion, "cubic");
}

/* the flags go out as iperf3 sends them (the number 1: a 3.17+ server
 * ignores a boolean), with -T, --extra-data and 3.21's gso/gro */
static void test_params_iperf3_types(void **state)
{
	static const char *const flags[] = {
		"get_server_output",
		"udp_counters_64bit",
		"repeating_payload",
		"zerocopy",
		"skip_rx_copy",
		"dont_fragment",
		"gso",
		"gro",
	};
	struct ps_params p = { 0 }, q;
	struct json_object *o, *v;
	char err[256];

	p.proto = PS_PROTO_UDP;
	p.parallel = 1;
	p.len = 1400;
	p.get_server_output = p.udp64 = p.repeating_payload = true;
	p.zerocopy = p.skip_rx_copy = p.dont_fragment = p.iperf_gsro = true;
	strcpy(p.title, "a title");
	strcpy(p.extra_data, "extra");
	o = ps_params_to_json(&p);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (!json_object_object_get_ex(o, flags[i], &v) ||
		    !json_object_is_type(v, json_type_int) ||
		    json_object_get_int(v) != 1)
			fail_msg("%s is not the number 1", flags[i]);
	}
	assert_true(json_object_object_get_ex(o, "gso_dg_size", &v));
	assert_int_equal(json_object_get_int(v), 1400);
	assert_true(json_object_object_get_ex(o, "gso_bf_size", &v));
	assert_int_equal(json_object_get_int(v), 65507 / 1400 * 1400);
	assert_int_equal(ps_params_from_json(o, &q, err, sizeof(err)), 0);
	json_object_put(o);
	assert_true(q.get_server_output && q.udp64 && q.repeating_payload &&
		    q.zerocopy && q.skip_rx_copy && q.dont_fragment &&
		    q.iperf_gsro);
	assert_string_equal(q.title, "a title");
	assert_string_equal(q.extra_data, "extra");
	/* an older pipescope client's booleans still read */
	o = parse("{\"tcp\":true,\"zerocopy\":true,\"skip_rx_copy\":true,"
		  "\"get_server_output\":true,\"udp_counters_64bit\":true,"
		  "\"repeating_payload\":true,\"dont_fragment\":true}");
	assert_int_equal(ps_params_from_json(o, &q, err, sizeof(err)), 0);
	json_object_put(o);
	assert_true(q.get_server_output && q.udp64 && q.repeating_payload &&
		    q.zerocopy && q.skip_rx_copy && q.dont_fragment);
	/* without --gsro a UDP test says 0, as iperf3 does; TCP says nothing */
	p.iperf_gsro = false;
	o = ps_params_to_json(&p);
	assert_true(json_object_object_get_ex(o, "gso", &v));
	assert_int_equal(json_object_get_int(v), 0);
	json_object_put(o);
	p.proto = PS_PROTO_TCP;
	o = ps_params_to_json(&p);
	assert_false(json_object_object_get_ex(o, "gso", &v));
	json_object_put(o);
}

/* what iperf3 3.12 sends; unknown keys are ignored */
static void test_params_iperf3(void **state)
{
	struct ps_params q;
	char err[256];
	struct json_object *o =
		parse("{\"tcp\":true,\"omit\":0,\"time\":10,\"num\":0,"
		      "\"blockcount\":0,"
		      "\"parallel\":4,\"reverse\":true,\"len\":131072,\"pacing_"
		      "timer\":1000,"
		      "\"client_version\":\"3.12\",\"future_key\":[1,2]}");

	assert_int_equal(ps_params_from_json(o, &q, err, sizeof(err)), 0);
	json_object_put(o);
	assert_int_equal(q.proto, PS_PROTO_TCP);
	assert_int_equal(q.parallel, 4);
	assert_true(q.reverse);
	assert_false(q.ps_ext);
	assert_string_equal(q.client_version, "3.12");
}

static void test_params_hostile(void **state)
{
	static const char *const bad[] = {
		"{\"tcp\":true,\"parallel\":1000000000}",
		"{\"tcp\":true,\"parallel\":0}",
		"{\"tcp\":true,\"time\":-1}",
		"{\"tcp\":true,\"time\":\"ten\"}",
		"{\"tcp\":true,\"len\":99999999}",
		"{\"udp\":true,\"len\":70000}",
		"{\"tcp\":true,\"window\":[1]}",
		"{\"tcp\":true,\"reverse\":true,\"bidirectional\":true}",
		"{\"sctp\":true}",
	};
	struct ps_params q;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct json_object *o = parse(bad[i]);

		err[0] = 0;
		if (ps_params_from_json(o, &q, err, sizeof(err)) != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
		assert_true(err[0] != 0);
		json_object_put(o);
	}
}

/*
 * The client's boot id goes in its parameters and comes back whole; one
 * that is not 36 of [0-9a-f-] is dropped. Only this kernel's own id is the
 * same kernel.
 */
static void test_boot_id(void **state)
{
	static const char *const bad[] = {
		"{\"tcp\":true,\"pipescope\":{\"ext\":2,\"boot_id\":7}}",
		"{\"tcp\":true,\"pipescope\":{\"ext\":2,\"boot_id\":"
		"\"0123456789abcdef0123456789abcdef012\"}}",
		"{\"tcp\":true,\"pipescope\":{\"ext\":2,\"boot_id\":"
		"\"0123456789abcdef0123456789abcdef012\\u001b\"}}",
		"{\"tcp\":true,\"pipescope\":{\"ext\":2,\"boot_id\":"
		"\"0123456789ABCDEF0123456789abcdef0123\"}}",
	};
	struct ps_params p, q;
	struct json_object *o;
	char me[PS_BOOT_ID_LEN + 2], other[PS_BOOT_ID_LEN + 2], err[256];

	assert_int_equal(ps_boot_id(me, sizeof(me)), 0);
	assert_int_equal(strlen(me), PS_BOOT_ID_LEN);
	assert_true(ps_same_kernel(me));
	memcpy(other, me, sizeof(me));
	other[0] = other[0] == 'a' ? 'b' : 'a';
	assert_false(ps_same_kernel(other));
	assert_false(ps_same_kernel(""));
	assert_false(ps_same_kernel(NULL));
	/* this kernel's id with a byte more is not it */
	memcpy(other, me, sizeof(me));
	other[PS_BOOT_ID_LEN] = '\x1b';
	other[PS_BOOT_ID_LEN + 1] = 0;
	assert_false(ps_same_kernel(other));
	/* too small a buffer: refused, never cut */
	assert_int_equal(ps_boot_id(other, 10), -1);
	assert_string_equal(other, "");

	memset(&p, 0, sizeof(p));
	p.proto = PS_PROTO_TCP;
	p.parallel = 1;
	p.ps_ext = true;
	p.ps_ext_version = PS_EXT_VERSION;
	snprintf(p.boot_id, sizeof(p.boot_id), "%s", me);
	o = ps_params_to_json(&p);
	assert_int_equal(ps_params_from_json(o, &q, err, sizeof(err)), 0);
	assert_string_equal(q.boot_id, me);
	json_object_put(o);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = parse(bad[i]);
		assert_int_equal(ps_params_from_json(o, &q, err, sizeof(err)),
				 0);
		if (q.boot_id[0])
			fail_msg("kept the boot id of %s", bad[i]);
		json_object_put(o);
	}
}

/* 3.12 prints -1 as 2^64-1 in results */
static void test_results_unsigned_minus_one(void **state)
{
	struct ps_results r;
	char err[256];
	struct json_object *o =
		parse("{\"cpu_util_total\":48.0,\"cpu_util_user\":1.5,\"cpu_"
		      "util_system\":46.5,"
		      "\"sender_has_retransmits\":18446744073709551615,"
		      "\"congestion_used\":\"bbr\","
		      "\"streams\":[{\"id\":1,\"bytes\":4278189656,"
		      "\"retransmits\":18446744073709551615,"
		      "\"jitter\":0,\"errors\":0,\"packets\":0,\"start_time\":"
		      "0,\"end_time\":2.0}]}");

	assert_int_equal(ps_results_from_json(o, &r, err, sizeof(err)), 0);
	json_object_put(o);
	assert_int_equal(r.sender_has_retransmits, -1);
	assert_int_equal(r.nstreams, 1);
	assert_true(r.streams[0].retransmits == -1);
	assert_true(r.streams[0].bytes == 4278189656ULL);
	assert_string_equal(r.congestion_used, "bbr");
	assert_true(r.cpu_total == 48.0);
	/* which dates the peer: iperf3 3.13 or older */
	assert_true(r.unsigned_minus_one);
	ps_results_clear(&r);

	/* 3.14 and later write a signed -1: not dated */
	o = parse("{\"cpu_util_total\":48.0,\"cpu_util_user\":1.5,\"cpu_util_"
		  "system\":46.5,"
		  "\"sender_has_retransmits\":-1,\"streams\":[{\"id\":1,"
		  "\"bytes\":4,"
		  "\"retransmits\":-1,\"jitter\":0,\"errors\":0,\"packets\":0}]"
		  "}");
	assert_int_equal(ps_results_from_json(o, &r, err, sizeof(err)), 0);
	json_object_put(o);
	assert_int_equal(r.sender_has_retransmits, -1);
	assert_false(r.unsigned_minus_one);
	ps_results_clear(&r);
}

static void test_results_roundtrip(void **state)
{
	struct ps_results r = { 0 }, q;
	struct json_object *o;
	char err[256];

	r.cpu_total = 12.5;
	r.sender_has_retransmits = 1;
	r.nstreams = 2;
	r.streams[0].id = 1;
	r.streams[0].bytes = 1ULL << 40;
	r.streams[0].retransmits = 7;
	r.streams[1].id = 3;
	r.streams[1].errors = 5;
	r.streams[1].packets = 1000;
	r.streams[1].jitter = 0.001;
	o = ps_results_to_json(&r);
	assert_int_equal(ps_results_from_json(o, &q, err, sizeof(err)), 0);
	json_object_put(o);
	assert_int_equal(q.nstreams, 2);
	assert_true(q.streams[0].bytes == 1ULL << 40);
	assert_true(q.streams[0].retransmits == 7);
	assert_int_equal(q.streams[1].id, 3);
	/* on the wire a receiver's packets are iperf3's: its highest
	 * number, the 5 lost included (1000 arrived) */
	assert_true(q.streams[1].errors == 5 && q.streams[1].packets == 1005);
	assert_true(q.streams[1].jitter == 0.001);
	ps_results_clear(&q);

	o = parse("{\"cpu_util_total\":1}");
	assert_int_equal(ps_results_from_json(o, &q, err, sizeof(err)),
			 -EINVAL);
	json_object_put(o);
}

/* the framing on a real socket pair: lengths 0, huge, truncated, not JSON */
static void test_framing(void **state)
{
	int sv[2];
	struct json_object *o, *got;
	unsigned char zero[4] = { 0, 0, 0, 0 };
	unsigned char huge[4] = { 0x7f, 0xff, 0xff, 0xff };
	unsigned char short_len[4] = { 0, 0, 0, 10 };
	const char notjson[] = "\0\0\0\5hello";
	const char deep[] = "\0\0\0\100[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
			    "[[[[[[[[[[[[[[[[[[[[[[[[";
	char cookie[PS_COOKIE_SIZE];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	o = parse("{\"a\":1}");
	assert_int_equal(ps_send_json(sv[0], o), 0);
	assert_int_equal(ps_recv_json(sv[1], &got, 1024, 1000), 0);
	assert_int_equal(json_object_get_int(json_object_object_get(got, "a")),
			 1);
	json_object_put(got);
	json_object_put(o);

	assert_int_equal(write(sv[0], zero, 4), 4);
	assert_int_equal(ps_recv_json(sv[1], &got, 1024, 1000), -EMSGSIZE);
	assert_int_equal(write(sv[0], huge, 4), 4);
	assert_int_equal(ps_recv_json(sv[1], &got, PS_MAX_PARAMS_JSON, 1000),
			 -EMSGSIZE);
	assert_int_equal(write(sv[0], notjson, 9), 9);
	assert_int_equal(ps_recv_json(sv[1], &got, 1024, 1000), -EBADMSG);
	/* 64 arrays in 64 bytes: over the containers 1024 bytes may hold */
	assert_int_equal(write(sv[0], deep, sizeof(deep) - 1),
			 (ssize_t)sizeof(deep) - 1);
	assert_int_equal(ps_recv_json(sv[1], &got, 1024, 1000), -E2BIG);
	/* within that budget, over the nesting depth */
	assert_int_equal(write(sv[0], deep, sizeof(deep) - 1),
			 (ssize_t)sizeof(deep) - 1);
	assert_int_equal(
		ps_recv_json_lim(sv[1], &got, &ps_lim_probe, 1000, NULL),
		-EBADMSG);
	/* a length promising more than ever comes: a timeout, not a hang */
	assert_int_equal(write(sv[0], short_len, 4), 4);
	assert_int_equal(write(sv[0], "{\"a\"", 4), 4);
	assert_int_equal(ps_recv_json(sv[1], &got, 1024, 200), -ETIMEDOUT);
	close(sv[0]);
	assert_int_equal(ps_recv_json(sv[1], &got, 1024, 200), -EPIPE);
	close(sv[1]);

	ps_make_cookie(cookie);
	assert_int_equal(strlen(cookie), PS_COOKIE_SIZE - 1);
	assert_true(strspn(cookie, "abcdefghijklmnopqrstuvwxyz234567") ==
		    PS_COOKIE_SIZE - 1);
}

/* send text framed, read it back with a limit: ps_recv_json_lim's code */
static int framed(const char *text, const struct ps_json_limit *lim)
{
	uint32_t n = htonl((uint32_t)strlen(text));
	struct json_object *got = NULL;
	int sv[2], rc;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], &n, 4), 4);
	assert_int_equal(write(sv[0], text, strlen(text)),
			 (ssize_t)strlen(text));
	rc = ps_recv_json_lim(sv[1], &got, lim, 1000, NULL);
	json_object_put(got);
	close(sv[0]);
	close(sv[1]);
	return rc;
}

/* the parsed size is bounded before json-c builds the tree */
static void test_json_budget(void **state)
{
	const struct ps_json_limit lim = { .bytes = 1024,
					   .values = 5,
					   .containers = 2 };
	atomic_bool stop = true;
	struct json_object *got;
	int sv[2];

	(void)state;
	/* '{', ':', '[' and two ',': five values, two containers */
	assert_int_equal(framed("{\"a\":[1,2,3]}", &lim), 0);
	assert_int_equal(framed("{\"a\":[1,2,3,4]}", &lim), -E2BIG);
	assert_int_equal(framed("{\"a\":[[],1]}", &lim), -E2BIG);
	/* commas, colons and brackets in strings (escaped quotes too) are text
	 */
	assert_int_equal(framed("{\"a\":\"[,:{\\\",,,,]\"}", &lim), 0);
	/* the message kinds' limits: a probe snapshot may hold more than
	 * results */
	assert_true(ps_lim_probe.values > ps_lim_results.values);
	assert_true(ps_lim_results.bytes == PS_MAX_RESULTS_JSON);
	/* a stop flag already set: no read at all */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(ps_recv_json_lim(sv[1], &got, &lim, 0, &stop), -EINTR);
	close(sv[0]);
	close(sv[1]);
}

/* --get-server-output: a long text is cut to its tail, so that the
 * results fit what a client accepts */
static void test_server_output_cut(void **state)
{
	struct ps_results r;
	struct json_object *o, *v;
	size_t n = PS_MAX_SERVER_OUTPUT + 1024 * 1024;
	const char *txt;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.server_output_text = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		r.server_output_text[i] = i % 64 == 63 ? '\n' : 'x';
	memcpy(r.server_output_text + n - 8, "summary\n", 8);
	r.server_output_text[n] = 0;
	o = ps_results_to_json(&r);
	assert_true(strlen(json_object_to_json_string_ext(
			    o, JSON_C_TO_STRING_PLAIN)) <= PS_MAX_RESULTS_JSON);
	assert_true(json_object_object_get_ex(o, "server_output_text", &v));
	txt = json_object_get_string(v);
	assert_true(strncmp(txt, "[the first ", 11) == 0);
	assert_true(strlen(txt) <= PS_MAX_SERVER_OUTPUT + 64);
	assert_string_equal(txt + strlen(txt) - 8, "summary\n");
	json_object_put(o);
	ps_results_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_roundtrip),
		cmocka_unit_test(test_params_iperf3),
		cmocka_unit_test(test_params_iperf3_types),
		cmocka_unit_test(test_params_hostile),
		cmocka_unit_test(test_boot_id),
		cmocka_unit_test(test_results_unsigned_minus_one),
		cmocka_unit_test(test_results_roundtrip),
		cmocka_unit_test(test_framing),
		cmocka_unit_test(test_json_budget),
		cmocka_unit_test(test_server_output_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
