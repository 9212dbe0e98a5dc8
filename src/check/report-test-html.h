/* report-test-html.h: the page of one test (the workstation's w for a
 * plain test): when, where, the command, the sums, each stream and the
 * rate over time, from the test's -J document; self-contained as every
 * page of pipescope (report-html.h) */
#ifndef PS_REPORT_TEST_HTML_H
#define PS_REPORT_TEST_HTML_H

#include <stdio.h>

struct json_object;

/* the page of doc (a -J document; any key may be missing or of the wrong
 * type: it is left out, never guessed) */
void ps_test_report_html(FILE *out, struct json_object *doc);

/* the command that runs the test again, from the document's start
 * ("pipescope -c 10.0.0.2 -p 5201 -P 4 -t 10 -R"); buf untrusted text */
void ps_test_command(char *buf, size_t len, struct json_object *doc);

#endif
