/* test-jsonutil.c: the serialisation layer of the probes: its type policy,
 * its one "not reported" convention, and a field table written, loaded and
 * written again (write -> load -> equal), plus its text */
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

#include <cmocka.h>

#include "jsonutil.h"
#include "nls.h"

static struct json_object *parse(const char *text)
{
	struct json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	return o;
}

static void test_type_policy(void **state)
{
	struct json_object *o =
		parse("{\"i\":5,\"d\":2.5,\"b\":true,\"s\":\"x\",\"neg\":-3,"
		      "\"big\":4294967296,\"e\":\"half\",\"n\":null}");
	static const char *const names[] = { "full", "half", NULL };
	int64_t i = 7;
	uint64_t u = 7;
	double d = 0;
	bool b = false;
	char s[8] = "keep";
	int k = 9;

	(void)state;
	/* integers accept only integers */
	assert_int_equal(ps_json_get_int64(o, "i", &i), 0);
	assert_int_equal(i, 5);
	assert_int_equal(ps_json_get_int64(o, "d", &i), -EINVAL);
	assert_int_equal(ps_json_get_int64(o, "s", &i), -EINVAL);
	assert_int_equal(ps_json_get_int64(o, "n", &i), -ENOENT);
	assert_int_equal(ps_json_get_int64(o, "missing", &i), -ENOENT);
	assert_int_equal(i, 5); /* untouched on error */
	/* unsigned: no negative */
	assert_int_equal(ps_json_get_uint64(o, "neg", &u), -EINVAL);
	assert_int_equal(u, 7);
	/* an int that does not fit an int */
	assert_int_equal(ps_json_get_int(o, "big", &k), -EINVAL);
	assert_int_equal(k, 9);
	/* doubles accept ints and doubles */
	assert_int_equal(ps_json_get_double(o, "i", &d), 0);
	assert_true(d == 5.0);
	assert_int_equal(ps_json_get_double(o, "d", &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(ps_json_get_double(o, "b", &d), -EINVAL);
	/* booleans only booleans, strings only strings */
	assert_int_equal(ps_json_get_bool(o, "i", &b), -EINVAL);
	assert_int_equal(ps_json_get_bool(o, "b", &b), 0);
	assert_true(b);
	assert_int_equal(ps_json_get_string(o, "i", s, sizeof(s)), -EINVAL);
	assert_string_equal(s, "keep");
	assert_int_equal(ps_json_get_enum(o, "e", names, &k), 0);
	assert_int_equal(k, 1);
	assert_int_equal(ps_json_get_enum(o, "s", names, &k), -EINVAL);
	/* not an object at all */
	assert_int_equal(ps_json_get_int64(NULL, "i", &i), -ENOENT);
	json_object_put(o);
}

static void test_plain_arrays(void **state)
{
	struct json_object *o = json_object_new_object();
	uint64_t u[3] = { 1, UINT64_MAX, 3 }, back[4] = { 9, 9, 9, 9 };
	double d[2] = { 0.5, 2 }, dback[2];
	char names[2][8] = { "a", "bc" }, nback[2][8];
	int ints[2] = { 7, 7 };

	(void)state;
	ps_json_put_array(o, "u", PS_JT_UINT, sizeof(u[0]), u, 3);
	ps_json_put_array(o, "d", PS_JT_DOUBLE, sizeof(d[0]), d, 2);
	ps_json_put_array(o, "s", PS_JT_STRING, sizeof(names[0]), names, 2);
	assert_string_equal(json_object_to_json_string(o),
			    "{ \"u\": [ 1, 9223372036854775807, 3 ], "
			    "\"d\": [ 0.5, 2.0 ], \"s\": [ \"a\", \"bc\" ] }");
	assert_int_equal(
		ps_json_get_array(o, "u", PS_JT_UINT, sizeof(back[0]), back, 4),
		3);
	assert_true(back[1] == INT64_MAX && back[2] == 3 && back[3] == 9);
	assert_int_equal(ps_json_get_array(o, "d", PS_JT_DOUBLE,
					   sizeof(dback[0]), dback, 2),
			 2);
	assert_true(dback[0] == 0.5 && dback[1] == 2);
	assert_int_equal(ps_json_get_array(o, "s", PS_JT_STRING,
					   sizeof(nback[0]), nback, 1),
			 1);
	assert_string_equal(nback[0], "a");
	/* doubles are no integers: those elements keep their value */
	assert_int_equal(
		ps_json_get_array(o, "d", PS_JT_INT, sizeof(ints[0]), ints, 2),
		2);
	assert_int_equal(ints[0], 7);
	assert_int_equal(
		ps_json_get_array(o, "x", PS_JT_INT, sizeof(int), ints, 2),
		-ENOENT);
	ps_json_put_int64(o, "i", 1);
	assert_int_equal(
		ps_json_get_array(o, "i", PS_JT_INT, sizeof(int), ints, 2),
		-EINVAL);
	json_object_put(o);
}

/* the value helpers every document is written with */
static const char *plain(struct json_object *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s",
		 v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN)
		   : "NULL");
	json_object_put(v);
	return buf;
}

static double num_of(struct json_object *v)
{
	double d;

	assert_non_null(v);
	d = json_object_get_double(v);
	json_object_put(v);
	return d;
}

static void test_values(void **state)
{
	struct json_object *o = json_object_new_object();
	char b[64];

	(void)state;
	/* rounding is a parameter: a thousandth, a millionth, none */
	assert_true(num_of(ps_jv_num(0.0096, 3)) == 0.01);
	assert_true(num_of(ps_jv_num(0.0096, 6)) == 0.0096);
	assert_true(num_of(ps_jv_num(0.0000004, 6)) == 0);
	assert_string_equal(plain(ps_jv_num(2.5, 0), b, sizeof(b)), "3.0");
	assert_true(num_of(ps_jv_num(1.0 / 3, PS_JV_EXACT)) == 1.0 / 3);
	/* not finite: not known, whatever the rounding */
	assert_null(ps_jv_num(NAN, 3));
	assert_null(ps_jv_num(INFINITY, PS_JV_EXACT));
	assert_null(ps_jv_num(-INFINITY, 6));
	assert_string_equal(plain(ps_jv_int(-5), b, sizeof(b)), "-5");
	assert_string_equal(plain(ps_jv_bool(true), b, sizeof(b)), "true");
	assert_string_equal(plain(ps_jv_str(NULL), b, sizeof(b)), "\"\"");
	assert_string_equal(plain(ps_jv_str("a"), b, sizeof(b)), "\"a\"");
	assert_null(ps_jv_str_known(""));
	assert_null(ps_jv_str_known(NULL));
	assert_string_equal(plain(ps_jv_str_known("x"), b, sizeof(b)), "\"x\"");
	/* not known is no key */
	ps_json_put_known(o, "a", ps_jv_num(NAN, 3));
	ps_json_put_known(o, "b", ps_jv_int(1));
	assert_string_equal(
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
		"{\"b\":1}");
	json_object_put(o);

	/* a document of the time null was "not known": read as one without */
	o = parse("{\"a\": null, \"b\": {\"c\": null, \"d\": [1, null, "
		  "{\"e\": null, \"f\": 2}]}, \"g\": 0}");
	ps_json_drop_nulls(o);
	assert_string_equal(
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
		"{\"b\":{\"d\":[1,null,{\"f\":2}]},\"g\":0}");
	json_object_put(o);
	ps_json_drop_nulls(NULL);
	/* more nulls than one pass removes */
	o = json_object_new_object();
	for (int i = 0; i < 200; i++) {
		snprintf(b, sizeof(b), "k%d", i);
		json_object_object_add(o, b, i % 2 ? NULL : ps_jv_int(i));
	}
	ps_json_drop_nulls(o);
	assert_int_equal(json_object_object_length(o), 100);
	json_object_put(o);
}

/* a probe group, described once */
struct hop {
	char name[8];
	double gts;
	int width;
};

struct grp {
	enum ps_status status;
	char reason[32];
	int64_t speed; /* PS_NA: not reported */
	uint64_t bytes;
	int small;  /* an int field */
	int up;	    /* tri-state */
	int duplex; /* enum */
	bool flag;
	double ratio;
	double pct;
	char name[6];  /* short on purpose: strings are cut */
	char hint[16]; /* "" = not reported */
	unsigned n_idx;
	uint32_t *idx; /* heap array */
	int nhops;
	struct hop hops[2]; /* inline array of objects, capacity 2 */
};

static const char *const duplex_names[] = { "half", "full", NULL };
static const char *const duplex_texts[] = { N_("half"), N_("full"), NULL };

static const struct ps_jfield hop_table[] = {
	PS_JFIELD(struct hop, name, "name", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(struct hop, gts, "gts", PS_JT_DOUBLE, 0, NULL, NULL),
	PS_JFIELD(struct hop, width, "width", PS_JT_INT, 0, NULL, NULL), PS_JEND
};

static const struct ps_jfield inner_table[] = {
	PS_JFIELD(struct grp, small, "small", PS_JT_INT, 0, N_("small:"), NULL),
	PS_JEND
};

static const struct ps_jfield grp_table[] = {
	PS_JSTATUS(struct grp, status, reason, PS_JF_NA),
	PS_JFIELD(struct grp, speed, "speed_bps", PS_JT_INT, PS_JF_NA,
		  N_("speed:"), N_("bit/s")),
	PS_JFIELD(struct grp, bytes, "bytes", PS_JT_UINT, 0, N_("bytes:"),
		  NULL),
	PS_JFIELD(struct grp, up, "up", PS_JT_TRIBOOL, PS_JF_NA, N_("up:"),
		  NULL),
	PS_JENUM(struct grp, duplex, "duplex", PS_JF_NA, duplex_names,
		 duplex_texts, N_("duplex:")),
	PS_JFIELD(struct grp, flag, "flag", PS_JT_BOOL, PS_JF_OK, NULL, NULL),
	PS_JFIELD(struct grp, ratio, "ratio", PS_JT_DOUBLE, 0, NULL, NULL),
	{ .key = "pct",
	  .type = PS_JT_DOUBLE,
	  .flags = PS_JF_FIXED,
	  .off = offsetof(struct grp, pct),
	  .size = sizeof(double),
	  .decimals = 1,
	  .label = N_("pct:") },
	PS_JFIELD(struct grp, name, "name", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(struct grp, hint, "hint", PS_JT_STRING, PS_JF_NA, N_("hint:"),
		  NULL),
	PS_JARRAY_PTR(struct grp, idx, n_idx, "idx", PS_JT_UINT, PS_JF_NA,
		      NULL),
	PS_JARRAY_IN(struct grp, hops, nhops, "hops", PS_JT_OBJECT, 0,
		     hop_table),
	PS_JOBJECT("inner", 0, inner_table, NULL),
	PS_JEND
};

static void grp_init(struct grp *g)
{
	memset(g, 0, sizeof(*g));
	g->status = PS_ST_ERROR;
	g->speed = PS_NA;
	g->up = PS_NA;
	g->duplex = PS_NA;
}

static char *json_text(const struct grp *g)
{
	struct json_object *o = ps_jtable_to_json(grp_table, g);
	char *s = strdup(json_object_to_json_string(o));

	json_object_put(o);
	return s;
}

static void test_not_reported(void **state)
{
	struct grp g;
	char *s;

	(void)state;
	grp_init(&g);
	g.status = PS_ST_UNSUPPORTED;
	s = json_text(&g);
	/* key absent, never null; reason only when there is one; the PS_JF_OK
	 * entry only when ok; an empty PS_JF_NA array absent */
	assert_null(strstr(s, "null"));
	assert_null(strstr(s, "speed_bps"));
	assert_null(strstr(s, "\"up\""));
	assert_null(strstr(s, "duplex"));
	assert_null(strstr(s, "reason"));
	assert_null(strstr(s, "hint"));
	assert_null(strstr(s, "\"idx\""));
	assert_null(strstr(s, "flag"));
	assert_non_null(strstr(s, "\"status\": \"unsupported\""));
	/* without PS_JF_NA: always written */
	assert_non_null(strstr(s, "\"bytes\": 0"));
	assert_non_null(strstr(s, "\"hops\": [ ]"));
	free(s);
}

static void test_round_trip(void **state)
{
	struct grp a, b;
	struct json_object *o;
	char *s1, *s2;
	uint32_t idx[3] = { 0, 1, 7 };

	(void)state;
	grp_init(&a);
	a.status = PS_ST_OK;
	a.speed = 25000000000LL;
	a.bytes = UINT64_MAX; /* clamped to INT64_MAX */
	a.small = -5;
	a.up = 1;
	a.duplex = 1;
	a.flag = true;
	a.ratio = 0.1;
	a.pct = 12.34;
	snprintf(a.name, sizeof(a.name), "eth0");
	snprintf(a.hint, sizeof(a.hint), "x");
	a.n_idx = 3;
	a.idx = idx;
	a.nhops = 2;
	snprintf(a.hops[0].name, sizeof(a.hops[0].name), "a");
	a.hops[0].gts = 8;
	a.hops[0].width = 4;
	snprintf(a.hops[1].name, sizeof(a.hops[1].name), "b");
	a.hops[1].gts = 2.5;
	a.hops[1].width = 1;

	s1 = json_text(&a);
	assert_non_null(strstr(s1, "\"pct\": 12.3,"));
	assert_non_null(strstr(s1, "\"duplex\": \"full\""));
	o = parse(s1);
	grp_init(&b);
	ps_jtable_get(o, grp_table, &b);
	json_object_put(o);
	assert_int_equal(b.status, PS_ST_OK);
	assert_true(b.speed == a.speed);
	assert_true(b.bytes == INT64_MAX);
	assert_int_equal(b.up, 1);
	assert_int_equal(b.duplex, 1);
	assert_true(b.flag);
	assert_true(b.ratio == 0.1);
	assert_int_equal(b.n_idx, 3);
	assert_int_equal(b.idx[2], 7);
	assert_int_equal(b.nhops, 2);
	assert_string_equal(b.hops[1].name, "b");
	b.bytes = UINT64_MAX;
	s2 = json_text(&b);
	assert_string_equal(s1, s2);
	free(b.idx);
	free(s1);
	free(s2);
}

static void test_hostile(void **state)
{
	struct grp g;
	struct json_object *o;

	(void)state;
	/* wrong types everywhere: all "not reported", nothing crashes;
	 * arrays are cut at the inline capacity, strings at their buffer */
	o = parse("{\"status\":\"ok\",\"speed_bps\":1e9,\"bytes\":-1,"
		  "\"up\":1,\"duplex\":\"both\",\"ratio\":\"1\","
		  "\"name\":\"abcdefghij\",\"idx\":[1,\"x\",-2,3],"
		  "\"hops\":[{\"name\":3},{},{},{}],\"inner\":[1],"
		  "\"small\":5}");
	grp_init(&g);
	ps_jtable_get(o, grp_table, &g);
	json_object_put(o);
	assert_int_equal(g.status, PS_ST_OK);
	assert_true(g.speed == PS_NA);
	assert_true(g.bytes == 0);
	assert_int_equal(g.up, PS_NA);
	assert_int_equal(g.duplex, PS_NA);
	assert_true(g.ratio == 0);
	assert_string_equal(g.name, "abcde");
	assert_int_equal(g.n_idx, 4);
	assert_int_equal(g.idx[0], 1);
	assert_int_equal(g.idx[1], 0);
	assert_int_equal(g.idx[2], 0);
	assert_int_equal(g.idx[3], 3);
	assert_int_equal(g.nhops, 2);
	assert_string_equal(g.hops[0].name, "");
	assert_int_equal(g.small, 0); /* "inner" is no object */
	free(g.idx);

	/* a PS_JF_OK entry is loaded only when the status is ok, as it is
	 * written */
	o = parse("{\"status\":\"error\",\"flag\":true,\"bytes\":2}");
	grp_init(&g);
	ps_jtable_get(o, grp_table, &g);
	json_object_put(o);
	assert_int_equal(g.status, PS_ST_ERROR);
	assert_false(g.flag);
	assert_true(g.bytes == 2);

	/* a missing group is not recorded, and says so */
	grp_init(&g);
	ps_jtable_get(NULL, grp_table, &g);
	assert_int_equal(g.status, PS_ST_NOT_RECORDED);
	assert_string_equal(g.reason, "not in the saved snapshot");
	/* a group without a status */
	o = parse("{}");
	grp_init(&g);
	ps_jtable_get(o, grp_table, &g);
	json_object_put(o);
	assert_int_equal(g.status, PS_ST_NOT_RECORDED);
}

static void test_text(void **state)
{
	static const struct ps_jfield top[] = {
		PS_JOBJECT("g", 0, grp_table, N_("Group")), PS_JEND
	};
	struct grp g;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	grp_init(&g);
	g.status = PS_ST_OK;
	g.bytes = 3;
	g.pct = 1.25;
	f = open_memstream(&buf, &len);
	ps_jtable_print(f, top, &g);
	fclose(f);
	assert_string_equal(buf, "Group:\n"
				 "  speed:               n/a\n"
				 "  bytes:               3\n"
				 "  up:                  n/a\n"
				 "  duplex:              n/a\n"
				 "  pct:                 1.2\n"
				 "  hint:                n/a\n"
				 "  small:               0\n");
	free(buf);

	g.speed = 10;
	g.up = 0;
	g.duplex = 0;
	f = open_memstream(&buf, &len);
	ps_jtable_print(f, grp_table, &g);
	fclose(f);
	assert_non_null(strstr(buf, "  speed:               10 bit/s\n"));
	assert_non_null(strstr(buf, "  up:                  off\n"));
	assert_non_null(strstr(buf, "  duplex:              half\n"));
	free(buf);

	g.status = PS_ST_NEEDS_ROOT;
	snprintf(g.reason, sizeof(g.reason), "EPERM");
	f = open_memstream(&buf, &len);
	ps_jtable_print(f, top, &g);
	fclose(f);
	assert_string_equal(buf, "Group: needs root (EPERM)\n");
	free(buf);
}

/* required entries, conditional entries, a member struct, bounds */
struct pair {
	int a;
	unsigned mtu; /* 0 unknown, < 9000 */
};

struct outer {
	bool on;
	double when_on;
	char name[8];
	struct pair p;
};

static bool outer_on(const void *base)
{
	return ((const struct outer *)base)->on;
}

static const struct ps_jfield pair_table[] = {
	PS_JFIELD(struct pair, a, "a", PS_JT_INT, PS_JF_REQUIRED, NULL, NULL),
	{ .key = "mtu",
	  .type = PS_JT_UINT,
	  .flags = PS_JF_POSITIVE,
	  .off = offsetof(struct pair, mtu),
	  .size = sizeof(unsigned),
	  .max = 9000 },
	PS_JEND
};

static const struct ps_jfield outer_table[] = {
	PS_JFIELD(struct outer, on, "on", PS_JT_BOOL, PS_JF_REQUIRED, NULL,
		  NULL),
	{ .key = "when_on",
	  .type = PS_JT_DOUBLE,
	  .flags = PS_JF_REQUIRED,
	  .off = offsetof(struct outer, when_on),
	  .size = sizeof(double),
	  .when = outer_on },
	PS_JFIELD(struct outer, name, "name", PS_JT_STRING, PS_JF_NA, NULL,
		  NULL),
	PS_JSUB(struct outer, p, "p", 0, pair_table, NULL),
	PS_JEND
};

static const struct ps_jfield *load_outer(const char *text, struct outer *o)
{
	struct json_object *j = parse(text);
	const struct ps_jfield *bad;

	memset(o, 0, sizeof(*o));
	bad = ps_jtable_load(j, outer_table, o);
	json_object_put(j);
	return bad;
}

static void test_load(void **state)
{
	struct outer o = { .on = true, .when_on = 2.5, .p = { 7, 1500 } };
	struct json_object *j = ps_jtable_to_json(outer_table, &o);

	(void)state;
	/* the member struct at its offset; "" name absent */
	assert_string_equal(
		json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN),
		"{\"on\":true,\"when_on\":2.5,\"p\":{\"a\":7,\"mtu\":1500}}");
	json_object_put(j);
	o.on = false;
	o.p.mtu = 0;
	j = ps_jtable_to_json(outer_table, &o);
	/* .when false: not written; PS_JF_POSITIVE 0: not written */
	assert_string_equal(
		json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN),
		"{\"on\":false,\"p\":{\"a\":7}}");
	json_object_put(j);

	assert_null(load_outer("{\"on\": true, \"when_on\": 1, "
			       "\"p\": {\"a\": 3, \"mtu\": 9001}}",
			       &o));
	assert_true(o.on);
	assert_true(o.when_on == 1);
	assert_int_equal(o.p.a, 3);
	assert_int_equal(o.p.mtu, 0); /* out of bounds: not reported */
	assert_null(load_outer("{\"on\": false, \"p\": {\"a\": 3, "
			       "\"mtu\": 0}}",
			       &o));
	assert_int_equal(o.p.mtu, 0);
	/* the first required entry that failed, or the object holding it */
	assert_ptr_equal(load_outer("{\"p\": {\"a\": 3}}", &o),
			 &outer_table[0]);
	assert_ptr_equal(load_outer("{\"on\": \"yes\", \"p\": {\"a\": 3}}", &o),
			 &outer_table[0]);
	assert_ptr_equal(load_outer("{\"on\": true, \"p\": {\"a\": 3}}", &o),
			 &outer_table[1]);
	assert_ptr_equal(load_outer("{\"on\": false, \"p\": {\"a\": 3.5}}", &o),
			 &outer_table[3]);
	assert_ptr_equal(load_outer("{\"on\": false}", &o), &outer_table[3]);
	assert_ptr_equal(load_outer("[]", &o), &outer_table[0]);
	/* null is not a value: as missing */
	assert_ptr_equal(load_outer("{\"on\": null, \"p\": {\"a\": 3}}", &o),
			 &outer_table[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_type_policy),
		cmocka_unit_test(test_plain_arrays),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_not_reported),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
