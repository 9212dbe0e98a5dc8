/* rules.h: the thresholds of "pipescope check --rules": every number a
 * check compares a reading against, named in a const table beside the check
 * family that uses it (one table a file), all of them listed in one
 * registry that the command, doc/check.md and the tests read */
#ifndef PS_RULES_H
#define PS_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "check-list.h"
#include "options.h"

/* one threshold: {"udp_loss_bottleneck", 0.01, "share", N_("...")} */
struct ps_rule {
	const char *name; /* stable snake_case id, unique, never translated */
	double value;
	const char *unit; /* "share" (0..1), "%", "bit/s", "count", "1/s",
			     "ratio", "us", "bytes" */
	const char *why;  /* N_(): one sentence, what crossing it means */
};

/* the table of one check family (one file) */
struct ps_rule_family {
	const char *family; /* "drops": the file check-drops.c */
	const struct ps_rule *rules;
	size_t n;
};

/* defines ps_rules_FAM, the family FAM of the array TABLE */
#define PS_RULE_FAMILY(fam, table)                                             \
	const struct ps_rule_family ps_rules_##fam = {                         \
		#fam, (table), sizeof(table) / sizeof((table)[0])              \
	}

/* the families, one a file of src/check/, in the order they are listed
 * (check-list.h) */
#define PS_RULE_DECLARE(FAM) extern const struct ps_rule_family ps_rules_##FAM;
PS_RULE_FAMILIES(PS_RULE_DECLARE)
#undef PS_RULE_DECLARE
extern const struct ps_rule_family *const ps_rule_registry[];
extern const size_t ps_rule_nfamilies;

/* a rule by name, or NULL; its family in *family when not NULL */
const struct ps_rule *ps_rule_find(const char *name,
				   const struct ps_rule_family **family);

/* a rule's value as every listing writes it ("0.001", "1e+10") */
void ps_rule_fmt_value(char *buf, size_t len, double v);

/* "pipescope check --rules": every rule, as text (one a line, grouped by
 * family), JSON (an array of {family, name, value, unit, why}) or the
 * markdown table of doc/check.md; 0 or -errno */
int ps_rules_print(FILE *out, enum ps_report_format fmt);

#endif
