/* test-rules.c: the thresholds of "pipescope check --rules" (rules.h): the
 * registry's tables are sound (unique names, finite values, a reason each),
 * their three listings agree, and the checks read their thresholds from
 * the tables: a check fires just past a rule's value and not just short of
 * it, and its finding names the rule it crossed */
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
#include <json-c/json.h>

#include "check.h"
#include "rules.h"

/* a rule's value, failing the test when the registry has no such rule */
static double rule(const char *name)
{
	const struct ps_rule *r = ps_rule_find(name, NULL);

	assert_non_null(r);
	return r->value;
}

static bool crossed(const struct ps_finding *f, const char *name)
{
	for (int i = 0; i < f->ncrossed; i++)
		if (!strcmp(f->crossed[i]->name, name))
			return true;
	return false;
}

static enum ps_check_state eval(const struct ps_check_ops *ops,
				const struct ps_evidence *ev,
				struct ps_finding *f)
{
	memset(f, 0, sizeof(*f));
	f->id = ops->id;
	return ops->eval(ev, f);
}

static size_t count_rules(void)
{
	size_t n = 0;

	for (size_t i = 0; i < ps_rule_nfamilies; i++)
		n += ps_rule_registry[i]->n;
	return n;
}

static void test_tables(void **state)
{
	(void)state;
	/* the issue counted about 45 inline thresholds and 16 named ones */
	assert_true(count_rules() >= 45);
	for (size_t i = 0; i < ps_rule_nfamilies; i++) {
		const struct ps_rule_family *fam = ps_rule_registry[i];

		assert_non_null(fam->family);
		assert_true(fam->n > 0);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(fam->family,
						ps_rule_registry[j]->family);
		for (size_t k = 0; k < fam->n; k++) {
			const struct ps_rule *r = &fam->rules[k];
			const struct ps_rule_family *found = NULL;

			assert_non_null(r->name);
			assert_true(strspn(r->name,
					   "abcdefghijklmnopqrstuvwxyz"
					   "0123456789_") == strlen(r->name));
			assert_true(isfinite(r->value));
			assert_non_null(r->unit);
			assert_true(r->unit[0] != 0);
			assert_non_null(r->why);
			assert_true(strlen(r->why) > 10);
			/* no duplicate: the name finds this very rule */
			assert_ptr_equal(ps_rule_find(r->name, &found), r);
			assert_ptr_equal(found, fam);
		}
	}
	assert_null(ps_rule_find("no_such_rule", NULL));
	/* the one rule of a saturated core is a table entry */
	assert_ptr_equal(PS_CHECK_RULE(CORE_SATURATED),
			 ps_rule_find("core_saturated", NULL));
	/* and check-nic.c's busy core is another rule, not that one */
	assert_true(rule("core_busy") < rule("core_saturated"));
}

/* the listing to a string */
static char *listing(enum ps_report_format fmt, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*rc = ps_rules_print(f, fmt);
	fclose(f);
	return buf;
}

static void test_listings(void **state)
{
	struct json_object *a;
	char *text, *json, *md, *p;
	size_t n = count_rules(), lines = 0, rows = 0;
	int rc;

	(void)state;
	json = listing(PS_FORMAT_JSON, &rc);
	assert_int_equal(rc, 0);
	a = json_tokener_parse(json);
	assert_non_null(a);
	assert_int_equal(json_object_array_length(a), n);
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i), *v;
		const struct ps_rule *r;

		assert_true(json_object_object_get_ex(o, "name", &v));
		r = ps_rule_find(json_object_get_string(v), NULL);
		assert_non_null(r);
		assert_true(json_object_object_get_ex(o, "value", &v));
		assert_true(fabs(json_object_get_double(v) - r->value) <=
			    1e-12 * fabs(r->value));
		assert_true(json_object_object_get_ex(o, "family", &v));
		assert_true(json_object_object_get_ex(o, "unit", &v));
		assert_true(json_object_object_get_ex(o, "why", &v));
	}
	json_object_put(a);
	free(json);

	text = listing(PS_FORMAT_TEXT, &rc);
	assert_int_equal(rc, 0);
	for (p = text; (p = strstr(p, "\n  ")); p++)
		lines++;
	assert_int_equal(lines, n);
	md = listing(PS_FORMAT_MARKDOWN, &rc);
	assert_int_equal(rc, 0);
	for (p = md; (p = strstr(p, " | `")); p++)
		rows++;
	assert_int_equal(rows, n);
	free(text);
	free(md);
	free(listing(PS_FORMAT_HTML, &rc));
	assert_int_equal(rc, -EINVAL);
}

/* a finished UDP step of the run */
static struct ps_step_result *udp_step(struct ps_run *r)
{
	struct ps_step_result *s = &r->steps[r->nsteps++];

	memset(s, 0, sizeof(*s));
	s->state = PS_STEP_DONE;
	s->streams = 1;
	s->seconds = 2;
	s->udp = true;
	return s;
}

/* udp_rate fires below udp_sender_short of the target, not at it */
static void test_udp_rate_edge(void **state)
{
	struct ps_run r = { 0 };
	struct ps_evidence ev = { .res = &r };
	struct ps_step_result *s = udp_step(&r);
	double v = rule("udp_sender_short");
	struct ps_finding f;

	(void)state;
	s->udp_target_bps = 1e9;
	s->udp_sent_bps = 1e9 * v * (1 + 1e-6);
	assert_int_equal(eval(&ps_check_udp_rate, &ev, &f), PS_CHECK_CLEAR);
	assert_int_equal(f.ncrossed, 0);
	s->udp_sent_bps = 1e9 * v * (1 - 1e-6);
	assert_int_equal(eval(&ps_check_udp_rate, &ev, &f), PS_CHECK_FIRED);
	assert_true(crossed(&f, "udp_sender_short"));
}

/* udp_loss: told from udp_loss_info on, a warning from udp_loss_serious
 * on; without the receiver's counters both are at the comparison */
static void test_udp_loss_edge(void **state)
{
	const int64_t sent = 10000000;
	struct ps_run r = { .peer = "192.0.2.1" };
	struct ps_evidence ev = { .res = &r };
	struct ps_step_result *s = udp_step(&r);
	double info = rule("udp_loss_info"), serious = rule("udp_loss_serious");
	struct ps_finding f;

	(void)state;
	s->udp_sent = sent;
	s->udp_lost = (int64_t)floor(info * (double)sent) - 1;
	assert_int_equal(eval(&ps_check_udp_loss, &ev, &f), PS_CHECK_CLEAR);
	s->udp_lost = (int64_t)ceil(info * (double)sent) + 1;
	assert_int_equal(eval(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_INFO);
	assert_true(crossed(&f, "udp_loss_info"));
	assert_false(crossed(&f, "udp_loss_serious"));
	s->udp_lost = (int64_t)floor(serious * (double)sent) - 1;
	assert_int_equal(eval(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_INFO);
	s->udp_lost = (int64_t)ceil(serious * (double)sent) + 1;
	assert_int_equal(eval(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_WARNING);
	assert_true(crossed(&f, "udp_loss_serious"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_listings),
		cmocka_unit_test(test_udp_rate_edge),
		cmocka_unit_test(test_udp_loss_edge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
