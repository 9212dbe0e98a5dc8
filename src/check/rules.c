/* rules.c: "pipescope check --rules": the registry of the checks' threshold
 * tables and their listing as text, JSON and the markdown of doc/check.md */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "nls.h"
#include "rules.h"

/* the families of check-list.h, in its order */
#define PS_RULE_REGISTER(FAM) &ps_rules_##FAM,
const struct ps_rule_family *const ps_rule_registry[] = { PS_RULE_FAMILIES(
	PS_RULE_REGISTER) };
#undef PS_RULE_REGISTER
const size_t ps_rule_nfamilies =
	sizeof(ps_rule_registry) / sizeof(ps_rule_registry[0]);

const struct ps_rule *ps_rule_find(const char *name,
				   const struct ps_rule_family **family)
{
	for (size_t i = 0; i < ps_rule_nfamilies; i++) {
		const struct ps_rule_family *fam = ps_rule_registry[i];

		for (size_t k = 0; k < fam->n; k++)
			if (!strcmp(fam->rules[k].name, name)) {
				if (family)
					*family = fam;
				return &fam->rules[k];
			}
	}
	return NULL;
}

void ps_rule_fmt_value(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.15g", v);
}

static int print_json(FILE *out)
{
	struct json_object *a = json_object_new_array();
	char v[40];
	int rc = 0;

	for (size_t i = 0; i < ps_rule_nfamilies; i++) {
		const struct ps_rule_family *fam = ps_rule_registry[i];

		for (size_t k = 0; k < fam->n; k++) {
			const struct ps_rule *r = &fam->rules[k];
			struct json_object *o = json_object_new_object();

			ps_rule_fmt_value(v, sizeof(v), r->value);
			json_object_object_add(
				o, "family",
				json_object_new_string(fam->family));
			json_object_object_add(o, "name",
					       json_object_new_string(r->name));
			json_object_object_add(
				o, "value",
				json_object_new_double_s(r->value, v));
			json_object_object_add(o, "unit",
					       json_object_new_string(r->unit));
			json_object_object_add(
				o, "why", json_object_new_string(_(r->why)));
			json_object_array_add(a, o);
		}
	}
	if (fputs(json_object_to_json_string_ext(
			  a, JSON_C_TO_STRING_PRETTY |
				     JSON_C_TO_STRING_NOSLASHESCAPE),
		  out) < 0 ||
	    fputc('\n', out) == EOF)
		rc = -EIO;
	json_object_put(a);
	return rc;
}

/* text: a heading a family, then "  name  value unit  why"; markdown: the
 * table of doc/check.md's block between its markers */
static int print_lines(FILE *out, bool md)
{
	char v[40];

	if (md)
		fprintf(out,
			"| %s | %s | %s | %s | %s |\n|---|---|---|---|---|\n",
			_("family"), _("rule"), _("value"), _("unit"),
			_("what crossing it means"));
	for (size_t i = 0; i < ps_rule_nfamilies; i++) {
		const struct ps_rule_family *fam = ps_rule_registry[i];

		if (!md)
			fprintf(out, "%s%s:\n", i ? "\n" : "", fam->family);
		for (size_t k = 0; k < fam->n; k++) {
			const struct ps_rule *r = &fam->rules[k];

			ps_rule_fmt_value(v, sizeof(v), r->value);
			if (md)
				fprintf(out, "| %s | `%s` | %s | %s | %s |\n",
					fam->family, r->name, v, r->unit,
					_(r->why));
			else
				fprintf(out, "  %-28s %12s %-6s %s\n", r->name,
					v, r->unit, _(r->why));
		}
	}
	return ferror(out) ? -EIO : 0;
}

int ps_rules_print(FILE *out, enum ps_report_format fmt)
{
	switch (fmt) {
	case PS_FORMAT_JSON:
		return print_json(out);
	case PS_FORMAT_MARKDOWN:
		return print_lines(out, true);
	case PS_FORMAT_TEXT:
		return print_lines(out, false);
	default:
		return -EINVAL;
	}
}
