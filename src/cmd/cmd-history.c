/* cmd-history.c: "pipescope history [-c HOST] [--last N] [--format F]",
 * "pipescope history --export jsonl|openmetrics" and "pipescope compare [A
 * [B]]": the runs kept in the history (doc/history.md) */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd-history.h"
#include "compare-html.h"
#include "compare.h"
#include "exitcodes.h"
#include "history.h"
#include "jsonutil.h"
#include "log.h"
#include "metrics.h"
#include "nls.h"
#include "report-html.h"
#include "sanitize.h"
#include "units.h"
#include "xmalloc.h"

/* the history named by the options, opened to read; an exit code when not */
static int open_history(const struct ps_opts *o, struct ps_hist **h)
{
	char *path = ps_hist_path(o);
	char err[512];
	int rc;

	*h = NULL;
	if (!path) {
		ps_err("%s", o->no_history
				     ? _("--no-history: there is no history "
					 "to read")
				     : _("no history file: set HOME, "
					 "XDG_STATE_HOME or --history FILE"));
		return PS_EXIT_USAGE;
	}
	rc = ps_hist_open(path, PS_HIST_READ, h, err, sizeof(err));
	free(path);
	if (rc == -ENOENT) {
		/* nothing recorded yet is not a failure */
		fprintf(stderr, "pipescope: %s\n", err);
		return PS_EXIT_OK;
	}
	if (rc) {
		ps_err("%s", err);
		return PS_EXIT_FAIL;
	}
	return -1;
}

static const char *target_filter(const struct ps_opts *o)
{
	return o->ntargets ? o->targets[0].host : NULL;
}

static int flush_stdout(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		ps_err(_("cannot write the output: %s"), strerror(errno));
		return PS_EXIT_FAIL;
	}
	return PS_EXIT_OK;
}

/* ---- history ----------------------------------------------------------- */

static void print_rows(const struct ps_hist_rec *v, int n)
{
	printf(_("%-6s %-16s %-7s %-24s %-5s %-8s %3s %13s %6s %-7s  %s\n"),
	       _("id"), _("when"), _("kind"), _("target"), _("proto"), _("dir"),
	       _("P"), _("rate"), _("loss"), _("ended"), _("top finding"));
	for (int i = 0; i < n; i++) {
		char w[32], r[32], l[16];

		ps_hist_when(v[i].time_ns, false, w, sizeof(w));
		if (isfinite(v[i].bps))
			ps_fmt_bps(r, sizeof(r), v[i].bps);
		else
			snprintf(r, sizeof(r), "-");
		/* what arrived of a UDP run; TCP loses nothing it reports */
		ps_fmt_loss(l, sizeof(l), ps_hist_loss(&v[i]));
		printf("%-6lld %-16s %-7s %-24s %-5s %-8s %3d %13s %6s %-7s  "
		       "%s\n",
		       (long long)v[i].id, w, ps_safe(v[i].kind),
		       v[i].target[0] ? ps_safe(v[i].target) : "-",
		       v[i].proto[0] ? ps_safe(v[i].proto) : "-",
		       ps_safe(v[i].direction), v[i].streams, r, l,
		       ps_hist_ended_text(&v[i]),
		       v[i].top_finding[0] ? ps_safe(v[i].top_finding) : "-");
	}
}

/* a JSON text of the record as an object, or NULL */
static struct json_object *parsed(const char *text)
{
	return text ? json_tokener_parse(text) : NULL;
}

/* an end of a record; not known: no key */
static const struct ps_jfield end_table[] = {
	PS_JFIELD(struct ps_hist_end, host, "host", PS_JT_STRING, PS_JF_NA,
		  NULL, NULL),
	PS_JFIELD(struct ps_hist_end, boot_id, "boot_id", PS_JT_STRING,
		  PS_JF_NA, NULL, NULL),
	PS_JFIELD(struct ps_hist_end, kernel, "kernel", PS_JT_STRING, PS_JF_NA,
		  NULL, NULL),
	PS_JFIELD(struct ps_hist_end, version, "version", PS_JT_STRING,
		  PS_JF_NA, NULL, NULL),
	PS_JEND
};

/* -J's pipescope.peer_snapshot is kept once, as the far end's snapshot:
 * put back where -J had it */
static void peer_snapshot_back(struct json_object *doc,
			       const struct ps_hist_rec *r)
{
	struct json_object *x = parsed(r->extras), *v, *ext;
	bool moved =
		x &&
		json_object_object_get_ex(x, "peer_snapshot_in_result", &v) &&
		json_object_get_boolean(v);

	json_object_put(x);
	if (!moved || !r->snap[1] ||
	    !json_object_object_get_ex(doc, "pipescope", &ext) ||
	    !json_object_is_type(ext, json_type_object))
		return;
	ps_json_put_known(ext, "peer_snapshot", parsed(r->snap[1]));
}

/* one line on stderr when a record was read without some of its parts */
static void say_left_out(const struct ps_hist_rec *r)
{
	char what[256];

	if (!r->left_out)
		return;
	ps_hist_left_out_text(r, what, sizeof(what));
	ps_warn(_("run %lld: %s larger than a record may be, left out"),
		(long long)r->id, what);
}

/* one line of --export jsonl: -J's document (or {} for a check) with the
 * record's own keys under "pipescope_history" and an "@timestamp" */
static void export_one(const struct ps_hist_rec *r, void *arg)
{
	struct json_object *doc = parsed(r->result), *x, *snaps, *check;
	time_t t = (time_t)(r->time_ns / 1000000000);
	char ts[40];
	struct tm tm;

	(void)arg;
	say_left_out(r);
	if (!doc || !json_object_is_type(doc, json_type_object)) {
		json_object_put(doc);
		doc = json_object_new_object();
	}
	gmtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(ts + strlen(ts), sizeof(ts) - strlen(ts), ".%03dZ",
		 (int)(r->time_ns / 1000000 % 1000));
	json_object_object_add(doc, "@timestamp", json_object_new_string(ts));
	peer_snapshot_back(doc, r);
	x = ps_hist_rec_json(r);
	json_object_object_add(x, "local",
			       ps_jtable_to_json(end_table, &r->end[0]));
	json_object_object_add(x, "remote",
			       ps_jtable_to_json(end_table, &r->end[1]));
	ps_json_put_known(x, "params", parsed(r->params));
	ps_json_put_known(x, "extras", parsed(r->extras));
	/* a check recorded before "not known" was a key left out had null
	 * there: read both as the same document */
	check = parsed(r->check);
	ps_json_drop_nulls(check);
	ps_json_put_known(x, "check", check);
	snaps = json_object_new_object();
	ps_json_put_known(snaps, "local", parsed(r->snap[0]));
	ps_json_put_known(snaps, "remote", parsed(r->snap[1]));
	json_object_object_add(x, "snapshots", snaps);
	json_object_object_add(doc, "pipescope_history", x);
	puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
}

int ps_cmd_history(const struct ps_opts *o)
{
	struct ps_hist *h;
	struct ps_hist_rec *rows;
	char err[512];
	int n, rc = open_history(o, &h);

	/* no history yet: no metrics, but a whole exposition all the same */
	if (rc == PS_EXIT_OK && o->history_export == PS_EXPORT_OPENMETRICS) {
		struct ps_om none = { 0 };

		ps_om_write(stdout, &none);
		return flush_stdout();
	}
	if (rc >= 0)
		return rc;
	if (o->history_export == PS_EXPORT_OPENMETRICS) {
		struct ps_om m;

		rc = ps_om_collect(h, target_filter(o), &m, err, sizeof(err));
		ps_hist_close(h);
		if (rc) {
			ps_err("%s", err);
			return PS_EXIT_FAIL;
		}
		ps_om_write(stdout, &m);
		ps_om_free(&m);
		return flush_stdout();
	}
	if (o->history_export) {
		rc = ps_hist_each(h, export_one, NULL, err, sizeof(err));
		ps_hist_close(h);
		if (rc) {
			ps_err("%s", err);
			return PS_EXIT_FAIL;
		}
		return flush_stdout();
	}
	n = ps_hist_list(h, target_filter(o), o->history_last, &rows, err,
			 sizeof(err));
	ps_hist_close(h);
	if (n < 0) {
		ps_err("%s", err);
		return PS_EXIT_FAIL;
	}
	if (o->report_format == PS_FORMAT_JSON) {
		struct json_object *a = json_object_new_array();

		for (int i = 0; i < n; i++)
			json_object_array_add(a, ps_hist_rec_json(&rows[i]));
		puts(json_object_to_json_string_ext(
			a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
		json_object_put(a);
	} else {
		print_rows(rows, n);
	}
	free(rows);
	return flush_stdout();
}

/* ---- compare ----------------------------------------------------------- */

int ps_cmd_compare(const struct ps_opts *o)
{
	struct ps_hist *h;
	struct ps_cmp c;
	int64_t a = 0, b = 0;
	char err[512];
	int rc;

	/* a bad --plot DIR is said before anything is read */
	if (o->plot_dir && ps_plot_dir_ready(o->plot_dir))
		return PS_EXIT_FAIL;
	rc = open_history(o, &h);
	if (rc >= 0)
		return rc == PS_EXIT_OK ? PS_EXIT_FAIL : rc;
	rc = 0;
	err[0] = 0;
	if (o->ncompare == 2) {
		a = o->compare_id[0];
		b = o->compare_id[1];
	} else if (o->ncompare == 1) {
		/* compare A: A against the newest run to its target */
		struct ps_hist_rec r, *rows;

		a = o->compare_id[0];
		rc = ps_hist_get(h, a, &r, err, sizeof(err));
		if (!rc) {
			rc = ps_hist_list(h, r.target, 1, &rows, err,
					  sizeof(err));
			if (rc == 1)
				b = rows[0].id;
			rc = rc < 0 ? rc : 0;
			if (rc >= 0)
				free(rows);
			ps_hist_rec_free(&r);
		}
	} else {
		rc = ps_compare_pick(h, target_filter(o), &a, &b, err,
				     sizeof(err));
	}
	if (!rc)
		rc = ps_compare_runs(h, a, b, &c, err, sizeof(err));
	ps_hist_close(h);
	if (rc) {
		ps_err("%s", err);
		return PS_EXIT_FAIL;
	}
	say_left_out(&c.run[0]);
	say_left_out(&c.run[1]);
	if (o->plot_dir && ps_compare_plot(o->plot_dir, &c))
		rc = PS_EXIT_FAIL;
	if (o->report_format == PS_FORMAT_HTML) {
		ps_compare_html(stdout, &c);
	} else if (o->report_format == PS_FORMAT_JSON) {
		struct json_object *j = ps_compare_json(&c);

		puts(json_object_to_json_string_ext(
			j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
		json_object_put(j);
	} else {
		ps_compare_print(stdout, &c);
	}
	ps_compare_free(&c);
	if (flush_stdout() != PS_EXIT_OK)
		return PS_EXIT_FAIL;
	return rc ? rc : PS_EXIT_OK;
}
