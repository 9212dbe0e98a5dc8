/* report-check.h: the report of "pipescope check" as text, markdown (for a
 * ticket) and JSON (doc/check.md), all rendered from one model */
#ifndef PS_REPORT_CHECK_H
#define PS_REPORT_CHECK_H

#include <stdio.h>

#include "ceiling.h"
#include "check.h"
#include "jsonutil.h"
#include "options.h"

#define PS_CHECK_SCHEMA_VERSION 1

struct ps_check_report {
	const char *snapshot_file; /* check --snapshot FILE, else NULL */
	const struct ps_evidence *ev;
	const struct ps_diagnosis *d;
	/* --plot DIR: the charts are there and the markdown links them */
	const char *plot_dir;
	/* the command line (ps_cli_cmdline) and the history's "since the
	 * last run to HOST ..." line, for the HTML page; NULL: none */
	const char *cmdline, *since;
};

/* "static", "loopback" or "remote" */
const char *ps_check_report_mode(const struct ps_check_report *r);

/* "4 streams", "reverse, 1 stream" (translated) */
void ps_check_step_title(const struct ps_step_result *s, char *buf, size_t len);

/* one end's settings as the JSON's host.settings ({"sysctl": {..}, "mtu",
 * "qdisc", "driver", "line_bps"...}); the caller puts it */
struct json_object *ps_check_settings_json(const struct ps_evidence *ev);

struct json_object *ps_check_report_json(const struct ps_check_report *r);
/* one of the report's steps[] (struct ps_step_result): its JSON writer and
 * loader (jsonutil.h) */
extern const struct ps_jfield ps_step_table[];
void ps_check_report_print(FILE *out, enum ps_report_format fmt,
			   const struct ps_check_report *r);

#endif
