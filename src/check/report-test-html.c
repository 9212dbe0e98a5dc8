/* report-test-html.c: the page of one test, from its -J document: what the
 * workstation's w writes beside the test's text and -J reports */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nls.h"
#include "report-html.h"
#include "report-test-html.h"
#include "svg.h"
#include "units.h"
#include "xmalloc.h"

/* the most intervals a chart draws (a day at one a second) */
#define MAX_POINTS 86400

/* doc's value at a path of keys (NULL-terminated), or NULL */
static struct json_object *at(struct json_object *o, ...)
{
	va_list ap;
	const char *k;

	va_start(ap, o);
	while (o && (k = va_arg(ap, const char *)))
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, k, &o))
			o = NULL;
	va_end(ap);
	return o;
}

static double num(struct json_object *o)
{
	double v;

	if (!o || !(json_object_is_type(o, json_type_double) ||
		    json_object_is_type(o, json_type_int)))
		return NAN;
	v = json_object_get_double(o);
	return isfinite(v) ? v : NAN;
}

static const char *str(struct json_object *o)
{
	return o && json_object_is_type(o, json_type_string)
		       ? json_object_get_string(o)
		       : NULL;
}

static bool flag(struct json_object *o)
{
	return o &&
	       (json_object_is_type(o, json_type_boolean) ||
		json_object_is_type(o, json_type_int)) &&
	       json_object_get_int64(o) != 0;
}

void ps_test_command(char *buf, size_t len, struct json_object *doc)
{
	struct json_object *ts = at(doc, "start", "test_start", NULL);
	const char *host = str(at(doc, "start", "connecting_to", "host", NULL));
	double port = num(at(doc, "start", "connecting_to", "port", NULL));
	double p = num(at(ts, "num_streams", NULL));
	double t = num(at(ts, "duration", NULL));
	double b = num(at(ts, "target_bitrate", NULL));
	const char *proto = str(at(ts, "protocol", NULL));
	size_t l;

	snprintf(buf, len, "pipescope -c %s", host ? host : "?");
	l = strlen(buf);
	if (isfinite(port) && port > 0 && port < 65536)
		l += snprintf(buf + l, l < len ? len - l : 0, " -p %.0f", port);
	if (proto && !strcmp(proto, "UDP") && l < len)
		l += snprintf(buf + l, len - l, " -u");
	if (isfinite(p) && p > 1 && p < 1e6 && l < len)
		l += snprintf(buf + l, len - l, " -P %.0f", p);
	if (isfinite(t) && t > 0 && t < 1e9 && l < len)
		l += snprintf(buf + l, len - l, " -t %.0f", t);
	if (isfinite(b) && b > 0 && b < 1e15 && l < len)
		l += snprintf(buf + l, len - l, " -b %g%s",
			      b >= 1e9	 ? b / 1e9
			      : b >= 1e6 ? b / 1e6
			      : b >= 1e3 ? b / 1e3
					 : b,
			      b >= 1e9	 ? "G"
			      : b >= 1e6 ? "M"
			      : b >= 1e3 ? "K"
					 : "");
	if (flag(at(ts, "bidir", NULL)) && l < len)
		snprintf(buf + l, len - l, " --bidir");
	else if (flag(at(ts, "reverse", NULL)) && l < len)
		snprintf(buf + l, len - l, " -R");
}

static void kv(FILE *out, const char *k, const char *v)
{
	fputs("<tr><th>", out);
	ps_html_text(out, k);
	fputs("</th><td>", out);
	ps_html_text(out, v && *v ? v : "?");
	fputs("</td></tr>\n", out);
}

static void header(FILE *out, struct json_object *doc)
{
	char cmd[512], far[320];
	const char *host = str(at(doc, "start", "connecting_to", "host", NULL));
	double port = num(at(doc, "start", "connecting_to", "port", NULL));
	const char *peer = str(at(doc, "pipescope", "peer_version", NULL));

	ps_test_command(cmd, sizeof(cmd), doc);
	if (isfinite(port))
		snprintf(far, sizeof(far), "%s port %.0f", host ? host : "?",
			 port);
	else
		snprintf(far, sizeof(far), "%s", host ? host : "?");
	ps_html_section(out, "test", _("The test"));
	fputs("<table>\n", out);
	kv(out, _("when"), str(at(doc, "start", "timestamp", "time", NULL)));
	kv(out, _("this end"), str(at(doc, "start", "system_info", NULL)));
	kv(out, _("far end"), far);
	if (peer && *peer)
		kv(out, _("far end's software"), peer);
	kv(out, _("command"), cmd);
	kv(out, "pipescope", PACKAGE_VERSION);
	fputs("</table>\n", out);
	if (flag(at(doc, "pipescope", "stopped", NULL)))
		ps_html_p(out, "warn",
			  _("The test was stopped before its end: the figures "
			    "are of the part it ran."));
	else if (flag(at(doc, "pipescope", "partial", NULL)))
		ps_html_p(out, "warn",
			  _("The test ended early (a fault): the figures are "
			    "of the part it ran."));
	if (str(at(doc, "error", NULL)))
		ps_html_p(out, "warn", str(at(doc, "error", NULL)));
	ps_html_section_end(out);
}

static void td_num(FILE *out, double v, char kind)
{
	char b[48];

	if (!isfinite(v))
		snprintf(b, sizeof(b), "-");
	else if (kind == 'r')
		ps_fmt_bps(b, sizeof(b), v);
	else if (kind == 'B')
		ps_fmt_bytes(b, sizeof(b), v, 'A');
	else if (kind == '%')
		snprintf(b, sizeof(b), "%.2f%%", v);
	else if (kind == 'm')
		snprintf(b, sizeof(b), "%.3f ms", v);
	else
		snprintf(b, sizeof(b), "%.0f", v);
	fputs("<td class=\"num\">", out);
	ps_html_text(out, b);
	fputs("</td>", out);
}

/* one line of the sums: a direction's sent and received */
static void sum_row(FILE *out, const char *what, struct json_object *snd,
		    struct json_object *rcv)
{
	if (!snd && !rcv)
		return;
	fputs("<tr><th>", out);
	ps_html_text(out, what);
	fputs("</th>", out);
	td_num(out, num(at(snd, "bytes", NULL)), 'B');
	td_num(out, num(at(snd, "bits_per_second", NULL)), 'r');
	td_num(out, num(at(rcv, "bits_per_second", NULL)), 'r');
	td_num(out, num(at(snd, "retransmits", NULL)), 'n');
	td_num(out, num(at(snd, "seconds", NULL)), 'n');
	fputs("</tr>\n", out);
}

static void sums(FILE *out, struct json_object *doc)
{
	static const char *const h[] = { N_("direction"),   N_("bytes"),
					 N_("sent"),	    N_("received"),
					 N_("retransmits"), N_("seconds") };
	struct json_object *end = at(doc, "end", NULL);
	bool udp = at(end, "sum", NULL) &&
		   !at(end, "sum_sent_bidir_reverse", NULL) &&
		   at(end, "streams", NULL) &&
		   json_object_is_type(at(end, "streams", NULL),
				       json_type_array) &&
		   json_object_array_length(at(end, "streams", NULL)) > 0 &&
		   at(json_object_array_get_idx(at(end, "streams", NULL), 0),
		      "udp", NULL);
	bool reverse = flag(at(doc, "start", "test_start", "reverse", NULL));
	struct json_object *cpu = at(end, "cpu_utilization_percent", NULL);
	char b[160];

	ps_html_section(out, "sums", _("The sums"));
	fputs("<table>\n", out);
	ps_html_th_row(out, h, 6);
	sum_row(out, reverse ? _("the far end sends") : _("this end sends"),
		at(end, "sum_sent", NULL), at(end, "sum_received", NULL));
	sum_row(out, _("the far end sends"),
		at(end, "sum_sent_bidir_reverse", NULL),
		at(end, "sum_received_bidir_reverse", NULL));
	fputs("</table>\n", out);
	if (udp) {
		struct json_object *s = at(end, "sum", NULL);

		snprintf(b, sizeof(b),
			 _("UDP: %.0f of %.0f packets lost (%.2f%%), jitter "
			   "%.3f ms"),
			 num(at(s, "lost_packets", NULL)),
			 num(at(s, "packets", NULL)),
			 num(at(s, "lost_percent", NULL)),
			 num(at(s, "jitter_ms", NULL)));
		ps_html_p(out, NULL, b);
	}
	if (cpu) {
		snprintf(b, sizeof(b),
			 _("CPU: this end's process %.1f%%, the far end's "
			   "%.1f%% (of one core = 100%%)"),
			 num(at(cpu, "host_total", NULL)),
			 num(at(cpu, "remote_total", NULL)));
		ps_html_p(out, NULL, b);
	}
	ps_html_section_end(out);
}

static void streams(FILE *out, struct json_object *doc)
{
	static const char *const h[] = { N_("stream"),	    N_("role"),
					 N_("bytes"),	    N_("rate"),
					 N_("retransmits"), N_("mean RTT") };
	struct json_object *v = at(doc, "end", "streams", NULL);
	size_t n;

	if (!v || !json_object_is_type(v, json_type_array))
		return;
	n = json_object_array_length(v);
	ps_html_section(out, "streams", _("Each stream"));
	fputs("<table>\n", out);
	ps_html_th_row(out, h, 6);
	for (size_t i = 0; i < n && i < 4096; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		struct json_object *s = at(e, "udp", NULL);
		bool snd;

		if (!s)
			s = at(e, "sender", NULL);
		if (!s)
			continue;
		snd = flag(at(s, "sender", NULL));
		fputs("<tr>", out);
		td_num(out, num(at(s, "socket", NULL)), 'n');
		fputs("<td>", out);
		ps_html_text(out, snd ? _("this end sends")
				      : _("the far end sends"));
		fputs("</td>", out);
		td_num(out, num(at(s, "bytes", NULL)), 'B');
		td_num(out, num(at(s, "bits_per_second", NULL)), 'r');
		td_num(out, num(at(s, "retransmits", NULL)), 'n');
		td_num(out, num(at(s, "mean_rtt", NULL)) / 1000, 'm');
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	ps_html_section_end(out);
}

/* the rate over time: a line for each direction */
static void chart(FILE *out, struct json_object *doc)
{
	static const char *const keys[2] = { "sum", "sum_bidir_reverse" };
	struct json_object *iv = at(doc, "intervals", NULL);
	struct ps_svg_series s[2];
	const char *names[2];
	double *xy;
	size_t n;
	struct ps_svg_line_chart c = {
		.id = "chart-rate",
		.title = _("The rate over time"),
		.xlabel = _("seconds into the test"),
		.ylabel = _("rate"),
		.xunit = PS_SVG_PLAIN,
		.yunit = PS_SVG_BPS,
		.series = s,
		.xzero = true,
	};

	if (!iv || !json_object_is_type(iv, json_type_array))
		return;
	n = json_object_array_length(iv);
	if (n > MAX_POINTS)
		n = MAX_POINTS;
	if (!n)
		return;
	xy = xcalloc(4 * n, sizeof(double));
	for (int k = 0; k < 2; k++) {
		double *x = xy + (size_t)k * 2 * n, *y = x + n;
		int m = 0;
		bool snd = false;

		for (size_t i = 0; i < n; i++) {
			struct json_object *e =
				at(json_object_array_get_idx(iv, i), keys[k],
				   NULL);

			if (!e)
				continue;
			snd = flag(at(e, "sender", NULL));
			x[m] = num(at(e, "end", NULL));
			y[m] = num(at(e, "bits_per_second", NULL));
			m++;
		}
		if (!m)
			continue;
		names[c.nseries] =
			snd ? _("this end sends") : _("the far end sends");
		s[c.nseries] = (struct ps_svg_series){
			.name = names[c.nseries], .x = x, .y = y, .n = m
		};
		c.nseries++;
	}
	if (c.nseries) {
		ps_html_section(out, "rate", _("The rate over time"));
		fputs("<figure>\n", out);
		ps_svg_line_chart(out, &c, false);
		fputs("</figure>\n", out);
		ps_html_section_end(out);
	}
	free(xy);
}

void ps_test_report_html(FILE *out, struct json_object *doc)
{
	const char *host = str(at(doc, "start", "connecting_to", "host", NULL));
	char title[320];

	snprintf(title, sizeof(title), _("pipescope test to %s"),
		 host ? host : "?");
	ps_html_begin(out, title);
	header(out, doc);
	sums(out, doc);
	chart(out, doc);
	streams(out, doc);
	ps_html_end(out);
}
