/* cli.c: "pipescope [probe|check] [options]": iperf3's letters and pipescope's
 * own */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>

#include "acl.h"
#include "auth.h"
#include "cli.h"
#include "nls.h"
#include "units.h"
#include "xmalloc.h"

enum {
	OPT_BIDIR = 256,
	OPT_DEBUG,
	OPT_JSON_STREAM,
	OPT_LOGFILE,
	OPT_FORCEFLUSH,
	OPT_RCV_TIMEOUT,
	OPT_SND_TIMEOUT,
	OPT_BIND_DEV,
	OPT_MAX_TESTS,
	OPT_SERVER_RATE,
	OPT_IDLE_TIMEOUT,
	OPT_SERVER_MAX_DURATION,
	OPT_SERVER_MAX_STREAMS,
	OPT_HANDSHAKE_TIMEOUT,
	OPT_ALLOW,
	OPT_USER,
	OPT_USERNAME,
	OPT_RSA_PUBKEY,
	OPT_RSA_PRIVKEY,
	OPT_AUTH_USERS,
	OPT_TIME_SKEW,
	OPT_NO_SHARE_PROBES,
	OPT_PKCS1,
	OPT_FQ_RATE,
	OPT_CPORT,
	OPT_SKIP_RX_COPY,
	OPT_EXTRA_DATA,
	OPT_GET_SERVER_OUTPUT,
	OPT_UDP64,
	OPT_GSRO,
	OPT_NO_GSRO,
	OPT_REPEATING_PAYLOAD,
	OPT_DONT_FRAGMENT,
	OPT_CONNECT_TIMEOUT,
	OPT_NO_TUI,
	OPT_NO_COLOR,
	OPT_SYSROOT,
	OPT_IFACE,
	OPT_FORMAT,
	OPT_SNAPSHOT,
	OPT_QUICK,
	OPT_PLOT,
	OPT_REPEAT,
	OPT_RULES,
	OPT_HELP,
	OPT_VERSION,
	OPT_TIMESTAMPS,
	OPT_JSON_STREAM_FULL,
	OPT_CNTL_KA,
	OPT_DSCP,
	OPT_PACING_TIMER,
	OPT_NO_FQ_PACING,
	OPT_NO_NUMA,
	OPT_HISTORY,
	OPT_DIAGNOSE,
	OPT_NO_HISTORY,
	OPT_LAST,
	OPT_EXPORT,
};

static const char short_opts[] =
	":p:f:i:I:F:A:B:VJDsc:ub:t:n:k:l:P:Rdw:C:M:NS:L:mZO:T:46h1v";

// clang-format off: one option a line, in columns
static const struct option long_opts[] = {
	{ "port", required_argument, NULL, 'p' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "interval", required_argument, NULL, 'i' },
	{ "pidfile", required_argument, NULL, 'I' },
	{ "file", required_argument, NULL, 'F' },
	{ "affinity", required_argument, NULL, 'A' },
	{ "bind", required_argument, NULL, 'B' },
	{ "bind-dev", required_argument, NULL, OPT_BIND_DEV },
	{ "verbose", no_argument, NULL, 'V' },
	{ "json", no_argument, NULL, 'J' },
	{ "json-stream", no_argument, NULL, OPT_JSON_STREAM },
	{ "logfile", required_argument, NULL, OPT_LOGFILE },
	{ "forceflush", no_argument, NULL, OPT_FORCEFLUSH },
	{ "rcv-timeout", required_argument, NULL, OPT_RCV_TIMEOUT },
	{ "snd-timeout", required_argument, NULL, OPT_SND_TIMEOUT },
	{ "debug", optional_argument, NULL, OPT_DEBUG },
	{ "timestamps", optional_argument, NULL, OPT_TIMESTAMPS },
	{ "json-stream-full-output", no_argument, NULL, OPT_JSON_STREAM_FULL },
	{ "cntl-ka", optional_argument, NULL, OPT_CNTL_KA },
	{ "mptcp", no_argument, NULL, 'm' },
	{ "server", no_argument, NULL, 's' },
	{ "daemon", no_argument, NULL, 'D' },
	{ "one-off", no_argument, NULL, '1' },
	{ "max-tests", required_argument, NULL, OPT_MAX_TESTS },
	{ "server-bitrate-limit", required_argument, NULL, OPT_SERVER_RATE },
	{ "idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT },
	{ "server-max-duration", required_argument, NULL,
	  OPT_SERVER_MAX_DURATION },
	{ "server-max-streams", required_argument, NULL,
	  OPT_SERVER_MAX_STREAMS },
	{ "handshake-timeout", required_argument, NULL, OPT_HANDSHAKE_TIMEOUT },
	{ "allow", required_argument, NULL, OPT_ALLOW },
	{ "user", required_argument, NULL, OPT_USER },
	{ "username", required_argument, NULL, OPT_USERNAME },
	{ "rsa-public-key-path", required_argument, NULL, OPT_RSA_PUBKEY },
	{ "rsa-private-key-path", required_argument, NULL, OPT_RSA_PRIVKEY },
	{ "authorized-users-path", required_argument, NULL, OPT_AUTH_USERS },
	{ "time-skew-threshold", required_argument, NULL, OPT_TIME_SKEW },
	{ "no-share-probes", no_argument, NULL, OPT_NO_SHARE_PROBES },
	{ "use-pkcs1-padding", no_argument, NULL, OPT_PKCS1 },
	{ "client", required_argument, NULL, 'c' },
	{ "udp", no_argument, NULL, 'u' },
	{ "bitrate", required_argument, NULL, 'b' },
	{ "bandwidth", required_argument, NULL, 'b' },
	{ "fq-rate", required_argument, NULL, OPT_FQ_RATE },
	{ "time", required_argument, NULL, 't' },
	{ "bytes", required_argument, NULL, 'n' },
	{ "blockcount", required_argument, NULL, 'k' },
	{ "length", required_argument, NULL, 'l' },
	{ "cport", required_argument, NULL, OPT_CPORT },
	{ "parallel", required_argument, NULL, 'P' },
	{ "reverse", no_argument, NULL, 'R' },
	{ "bidir", no_argument, NULL, OPT_BIDIR },
	{ "window", required_argument, NULL, 'w' },
	{ "congestion", required_argument, NULL, 'C' },
	{ "linux-congestion", required_argument, NULL, 'C' },
	{ "set-mss", required_argument, NULL, 'M' },
	{ "no-delay", no_argument, NULL, 'N' },
	{ "version4", no_argument, NULL, '4' },
	{ "version6", no_argument, NULL, '6' },
	{ "tos", required_argument, NULL, 'S' },
	{ "dscp", required_argument, NULL, OPT_DSCP },
	{ "flowlabel", required_argument, NULL, 'L' },
	{ "pacing-timer", required_argument, NULL, OPT_PACING_TIMER },
	{ "no-fq-socket-pacing", no_argument, NULL, OPT_NO_FQ_PACING },
	{ "no-numa", no_argument, NULL, OPT_NO_NUMA },
	{ "zerocopy", no_argument, NULL, 'Z' },
	{ "skip-rx-copy", no_argument, NULL, OPT_SKIP_RX_COPY },
	{ "omit", required_argument, NULL, 'O' },
	{ "title", required_argument, NULL, 'T' },
	{ "extra-data", required_argument, NULL, OPT_EXTRA_DATA },
	{ "get-server-output", no_argument, NULL, OPT_GET_SERVER_OUTPUT },
	{ "udp-counters-64bit", no_argument, NULL, OPT_UDP64 },
	{ "gsro", no_argument, NULL, OPT_GSRO },
	{ "no-gsro", no_argument, NULL, OPT_NO_GSRO },
	{ "repeating-payload", no_argument, NULL, OPT_REPEATING_PAYLOAD },
	{ "dont-fragment", no_argument, NULL, OPT_DONT_FRAGMENT },
	{ "connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT },
	{ "no-tui", no_argument, NULL, OPT_NO_TUI },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "sysroot", required_argument, NULL, OPT_SYSROOT },
	{ "iface", required_argument, NULL, OPT_IFACE },
	{ "snapshot", required_argument, NULL, OPT_SNAPSHOT },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "history", required_argument, NULL, OPT_HISTORY },
	{ "diagnose", required_argument, NULL, OPT_DIAGNOSE },
	{ "no-history", no_argument, NULL, OPT_NO_HISTORY },
	{ "last", required_argument, NULL, OPT_LAST },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "rules", no_argument, NULL, OPT_RULES },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};
// clang-format on

/* parse state: where the error goes and the option being parsed */
struct cli {
	char *err;
	size_t errlen;
	char optname[80];
	const char *client_only; /* first client-only option seen */
	const char *server_only; /* first server-only option seen */
	const char *check_only;	 /* first check-only option seen */
	int end_conditions;	 /* how many of -t -n -k */
};

static int fail(struct cli *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct cli *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static void set_optname(struct cli *c, int ch, int longindex)
{
	if (ch < 256 && ch != '?' && ch != ':' && longindex < 0)
		snprintf(c->optname, sizeof(c->optname), "-%c", ch);
	else if (longindex >= 0)
		snprintf(c->optname, sizeof(c->optname), "--%s",
			 long_opts[longindex].name);
	else
		snprintf(c->optname, sizeof(c->optname), "?");
}

static int parse_long(struct cli *c, const char *arg, long min, long max,
		      long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 0);
	if (end == arg || *end || isspace((unsigned char)*arg))
		return fail(c, _("option %s: '%s' is not a whole number"),
			    c->optname, arg);
	if (errno == ERANGE || v < min || v > max)
		return fail(c, _("option %s: %s is out of range (%ld to %ld)"),
			    c->optname, arg, min, max);
	*out = v;
	return 0;
}

static int parse_int(struct cli *c, const char *arg, int min, int max, int *out)
{
	long v;

	if (parse_long(c, arg, min, max, &v))
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_uint(struct cli *c, const char *arg, unsigned max,
		      unsigned *out)
{
	long v;

	if (parse_long(c, arg, 0, max, &v))
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int parse_seconds(struct cli *c, const char *arg, double min, double max,
			 double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || isspace((unsigned char)*arg) || v != v)
		return fail(c, _("option %s: '%s' is not a number of seconds"),
			    c->optname, arg);
	if (v < min || v > max)
		return fail(c, _("option %s: %s is out of range (%g to %g)"),
			    c->optname, arg, min, max);
	*out = v;
	return 0;
}

static int scaled_error(struct cli *c, const char *arg, int rc, char unit)
{
	if (rc == -ERANGE)
		return fail(c, _("option %s: %s is too large"), c->optname,
			    arg);
	if (unit)
		return fail(c,
			    _("option %s: unknown unit '%c' in '%s' (use K, M, "
			      "G or T)"),
			    c->optname, unit, arg);
	return fail(c, _("option %s: '%s' is not a number"), c->optname, arg);
}

static int parse_size(struct cli *c, const char *arg, uint64_t max,
		      uint64_t *out)
{
	char unit;
	int rc = ps_parse_size(arg, out, &unit);

	if (rc)
		return scaled_error(c, arg, rc, unit);
	if (*out > max)
		return fail(
			c, _("option %s: %s is too large (at most %llu bytes)"),
			c->optname, arg, (unsigned long long)max);
	return 0;
}

/* -b RATE[/BURST]: bits per second, 1000-based, as iperf3 */
static int parse_bitrate(struct cli *c, const char *arg, struct ps_opts *o)
{
	char buf[128], unit, *slash;
	int rc;

	if (strlen(arg) >= sizeof(buf))
		return fail(c, _("option %s: '%s' is not a number"), c->optname,
			    arg);
	strcpy(buf, arg);
	slash = strchr(buf, '/');
	if (slash) {
		long burst;

		*slash++ = 0;
		if (parse_long(c, slash, 1, 1000, &burst))
			return -1;
		o->burst = (unsigned)burst;
	}
	rc = ps_parse_rate(buf, &o->rate, &unit);
	if (rc)
		return scaled_error(c, buf, rc, unit);
	o->rate_set = true;
	return 0;
}

/* -A 2 | -A 2,3 (iperf3: local,server) | -A 0-3,6 (one CPU per stream) */
static int parse_affinity(struct cli *c, const char *arg, struct ps_opts *o)
{
	const char *p = arg;
	int n = 0, ranges = 0;

	while (*p) {
		char *end;
		long a, b;

		errno = 0;
		a = strtol(p, &end, 10);
		if (end == p || !isdigit((unsigned char)*p))
			return fail(c,
				    _("option %s: '%s' is not a CPU list (e.g. "
				      "2 or 0-3,6)"),
				    c->optname, arg);
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				return fail(c,
					    _("option %s: '%s' is not a CPU "
					      "list (e.g. 2 or 0-3,6)"),
					    c->optname, arg);
			ranges++;
		}
		if (a < 0 || b >= 4096 || errno)
			return fail(c,
				    _("option %s: CPU numbers must be 0 to "
				      "4095 in '%s'"),
				    c->optname, arg);
		for (long i = a; i <= b; i++) {
			if (n == PS_MAX_CPUS_LIST)
				return fail(c,
					    _("option %s: too many CPUs in "
					      "'%s' (at most %d)"),
					    c->optname, arg, PS_MAX_CPUS_LIST);
			o->cpus[n++] = (int)i;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return fail(c,
				    _("option %s: '%s' is not a CPU list (e.g. "
				      "2 or 0-3,6)"),
				    c->optname, arg);
		p = end;
	}
	if (n == 0)
		return fail(c,
			    _("option %s: '%s' is not a CPU list (e.g. 2 or "
			      "0-3,6)"),
			    c->optname, arg);
	/* iperf3's "-A n,m": n here, m on the server */
	o->server_cpu = -1;
	if (n == 2 && !ranges) {
		o->server_cpu = o->cpus[1];
		n = 1;
	}
	o->ncpus = n;
	return 0;
}

/*
 * --dscp: a DiffServ code point, 0 to 63 (decimal, octal or hex), or one of
 * the names iperf3 knows; the TOS byte is the code point shifted by two
 * (the names of the old TOS bits are that byte already)
 */
static int parse_dscp(struct cli *c, const char *arg, struct ps_opts *o)
{
	static const struct {
		const char *name;
		int tos;
	} names[] = {
		{ "af11", 0x28 },	 { "af12", 0x30 },
		{ "af13", 0x38 },	 { "af21", 0x48 },
		{ "af22", 0x50 },	 { "af23", 0x58 },
		{ "af31", 0x68 },	 { "af32", 0x70 },
		{ "af33", 0x78 },	 { "af41", 0x88 },
		{ "af42", 0x90 },	 { "af43", 0x98 },
		{ "cs0", 0x00 },	 { "cs1", 0x20 },
		{ "cs2", 0x40 },	 { "cs3", 0x60 },
		{ "cs4", 0x80 },	 { "cs5", 0xa0 },
		{ "cs6", 0xc0 },	 { "cs7", 0xe0 },
		{ "ef", 0xb8 },		 { "va", 0xb0 },
		{ "lowdelay", 0x10 },	 { "throughput", 0x08 },
		{ "reliability", 0x04 },
	};
	char *end;
	long v;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(arg, names[i].name)) {
			o->tos = names[i].tos;
			return 0;
		}
	errno = 0;
	v = strtol(arg, &end, 0);
	if (end == arg || *end || errno || v < 0 || v > 63)
		return fail(c,
			    _("option %s: '%s' is not a DSCP value (0 to 63, "
			      "or a name such as ef, af11 or cs1)"),
			    c->optname, arg);
	o->tos = (int)v << 2;
	return 0;
}

/* --cntl-ka[=IDLE/INTERVAL/COUNT]: each part optional, as iperf3 */
static int parse_cntl_ka(struct cli *c, const char *arg, struct ps_opts *o)
{
	int *part[3] = { &o->cntl_ka_idle, &o->cntl_ka_interval,
			 &o->cntl_ka_count };
	/* the kernel's bounds of TCP_KEEPIDLE, TCP_KEEPINTVL, TCP_KEEPCNT */
	static const int max[3] = { 32767, 32767, 127 };
	const char *p = arg;

	o->cntl_ka = true;
	o->cntl_ka_idle = o->cntl_ka_interval = o->cntl_ka_count = 0;
	for (int i = 0; p && *p && i < 3; i++) {
		const char *slash = strchr(p, '/');
		char buf[16];
		size_t n = slash ? (size_t)(slash - p) : strlen(p);

		if (n >= sizeof(buf))
			goto bad;
		memcpy(buf, p, n);
		buf[n] = 0;
		if (n && parse_int(c, buf, 1, max[i], part[i]))
			goto bad;
		p = slash ? slash + 1 : NULL;
	}
	if (p && *p)
		goto bad;
	/* iperf3: the retries must fit in the idle time */
	if (o->cntl_ka_idle &&
	    o->cntl_ka_idle <= (long)o->cntl_ka_interval * o->cntl_ka_count)
		return fail(c,
			    _("option %s: the idle time %d must be longer than "
			      "interval x count (%d x %d)"),
			    c->optname, o->cntl_ka_idle, o->cntl_ka_interval,
			    o->cntl_ka_count);
	return 0;
bad:
	return fail(c,
		    _("option %s: '%s' is not IDLE/INTERVAL/COUNT (seconds, "
		      "seconds, probes; each may be left out)"),
		    c->optname, arg);
}

/* HOST, HOST%DEV, HOST:PORT, [V6]:PORT, [V6]%DEV:PORT */
static int parse_target(struct cli *c, const char *arg, struct ps_opts *o)
{
	struct ps_target *t;
	char *s, *host, *port = NULL, *pct;

	if (o->ntargets == PS_MAX_TARGETS)
		return fail(c, _("option %s: at most %d targets"), c->optname,
			    PS_MAX_TARGETS);
	if (!*arg)
		return fail(c, _("option %s: the host name is empty"),
			    c->optname);
	s = xstrdup(arg);
	host = s;
	if (*s == '[') {
		char *close = strchr(s, ']');

		if (!close) {
			free(s);
			return fail(c, _("option %s: '%s' has no closing ']'"),
				    c->optname, arg);
		}
		*close = 0;
		host = s + 1;
		if (close[1] == ':')
			port = close + 2;
		else if (close[1]) {
			free(s);
			return fail(c,
				    _("option %s: unexpected text after ']' in "
				      "'%s'"),
				    c->optname, arg);
		}
	} else {
		char *colon = strchr(s, ':');

		/* one colon is host:port; more is a bare IPv6 address */
		if (colon && !strchr(colon + 1, ':')) {
			*colon = 0;
			port = colon + 1;
		}
	}
	t = &o->targets[o->ntargets];
	memset(t, 0, sizeof(*t));
	if (port) {
		char saved[64];

		snprintf(saved, sizeof(saved), "%s", c->optname);
		snprintf(c->optname, sizeof(c->optname), "%s (port)", saved);
		if (parse_int(c, port, 1, 65535, &t->port)) {
			free(s);
			return -1;
		}
	}
	pct = strchr(host, '%');
	if (pct) {
		*pct = 0;
		t->dev = xstrdup(pct + 1);
	}
	if (!*host) {
		free(t->dev);
		t->dev = NULL;
		free(s);
		return fail(c, _("option %s: the host name is empty"),
			    c->optname);
	}
	t->host = xstrdup(host);
	o->ntargets++;
	free(s);
	return 0;
}

static void replace_str(char **dst, const char *src)
{
	free(*dst);
	*dst = xstrdup(src);
}

void ps_opts_free(struct ps_opts *o)
{
	for (int i = 0; i < o->ntargets; i++) {
		free(o->targets[i].host);
		free(o->targets[i].dev);
	}
	free(o->pidfile);
	free(o->file);
	free(o->bind);
	free(o->bind_dev);
	free(o->logfile);
	free(o->timestamps);
	free(o->congestion);
	free(o->title);
	free(o->extra_data);
	free(o->sysroot);
	free(o->iface);
	free(o->snapshot);
	free(o->plot_dir);
	free(o->diagnose);
	free(o->history_file);
	free(o->user);
	free(o->username);
	free(o->rsa_pubkey);
	free(o->rsa_privkey);
	free(o->authorized_users);
	free(o->cmdline);
	memset(o, 0, sizeof(*o));
}

char *ps_cli_cmdline(int argc, char *const *argv)
{
	size_t cap = 1;
	char *out, *p;

	for (int i = 0; i < argc; i++)
		cap += 4 * strlen(argv[i]) + 3;
	p = out = xmalloc(cap);
	*p = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *slash = strrchr(a, '/');

		/* the program by its name, not where it was installed */
		if (!i && slash && slash[1])
			a = slash + 1;
		if (i)
			*p++ = ' ';
		if (*a &&
		    strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
			      "qrstuvwxyz0123456789_./:=,@%+-") == strlen(a)) {
			p = stpcpy(p, a);
			continue;
		}
		/* 'it'\''s' */
		*p++ = '\'';
		for (; *a; a++) {
			if (*a == '\'')
				p = stpcpy(p, "'\\''");
			else
				*p++ = *a;
		}
		*p++ = '\'';
		*p = 0;
	}
	return out;
}

static void seen(const char **slot, struct cli *c)
{
	if (!*slot)
		*slot = xstrdup(c->optname);
}

static int parse_one(struct cli *c, int ch, struct ps_opts *o, bool *server,
		     const char *arg)
{
	uint64_t v64;
	long v;

	switch (ch) {
	case 'p':
		return parse_int(c, arg, 1, 65535, &o->port);
	case 'f':
		if (strlen(arg) != 1 || !strchr("kmgtaKMGTA", arg[0]))
			return fail(c,
				    _("option %s: '%s' is not a format (one of "
				      "k m g t a K M G T A)"),
				    c->optname, arg);
		o->format = arg[0];
		return 0;
	case 'i':
		if (parse_seconds(c, arg, 0, 60, &o->interval))
			return -1;
		if (o->interval > 0 && o->interval < 0.1)
			return fail(c,
				    _("option %s: %s is out of range (0, or %g "
				      "to %g)"),
				    c->optname, arg, 0.1, 60.0);
		return 0;
	case 'I':
		replace_str(&o->pidfile, arg);
		return 0;
	case 'F':
		replace_str(&o->file, arg);
		return 0;
	case 'A':
		return parse_affinity(c, arg, o);
	case 'B': {
		const char *pct = strchr(arg, '%');

		free(o->bind);
		o->bind = pct ? strndup(arg, pct - arg) : xstrdup(arg);
		if (pct)
			replace_str(&o->bind_dev, pct + 1);
		if (!o->bind || !*o->bind)
			return fail(c, _("option %s: the address is empty"),
				    c->optname);
		return 0;
	}
	case OPT_BIND_DEV:
		replace_str(&o->bind_dev, arg);
		return 0;
	case 'V':
		o->verbose = true;
		return 0;
	case 'J':
		o->json = true;
		return 0;
	case OPT_JSON_STREAM:
		o->json_stream = true;
		return 0;
	case OPT_LOGFILE:
		replace_str(&o->logfile, arg);
		return 0;
	case OPT_FORCEFLUSH:
		o->forceflush = true;
		return 0;
	case OPT_RCV_TIMEOUT:
		return parse_uint(c, arg, 3600 * 1000, &o->rcv_timeout_ms);
	case OPT_SND_TIMEOUT:
		return parse_uint(c, arg, 3600 * 1000, &o->snd_timeout_ms);
	case OPT_DEBUG:
		o->debug = true;
		o->debug_level = 4;
		return arg ? parse_int(c, arg, 1, 4, &o->debug_level) : 0;
	case OPT_TIMESTAMPS:
		if (arg && strlen(arg) > 200)
			return fail(c, _("option %s: the format is too long"),
				    c->optname);
		replace_str(&o->timestamps, arg ? arg : PS_TIMESTAMP_FORMAT);
		return 0;
	case OPT_JSON_STREAM_FULL:
		o->json_stream_full = true;
		return 0;
	case OPT_CNTL_KA:
		return parse_cntl_ka(c, arg, o);
	case 'm':
		o->mptcp = true;
		return 0;
	case 's':
		*server = true;
		return 0;
	case 'D':
		o->daemon = true;
		seen(&c->server_only, c);
		return 0;
	case '1':
		o->one_off = true;
		seen(&c->server_only, c);
		return 0;
	case OPT_MAX_TESTS:
		seen(&c->server_only, c);
		return parse_int(c, arg, 1, 64, &o->max_tests);
	case OPT_SERVER_RATE: {
		char unit;
		int rc = ps_parse_rate(arg, &o->server_rate_limit, &unit);

		seen(&c->server_only, c);
		return rc ? scaled_error(c, arg, rc, unit) : 0;
	}
	case OPT_IDLE_TIMEOUT:
		seen(&c->server_only, c);
		return parse_uint(c, arg, 86400, &o->idle_timeout);
	case OPT_SERVER_MAX_DURATION:
		seen(&c->server_only, c);
		return parse_uint(c, arg, PS_MAX_DURATION,
				  &o->server_max_duration);
	case OPT_SERVER_MAX_STREAMS:
		seen(&c->server_only, c);
		return parse_int(c, arg, 1, 2 * PS_MAX_STREAMS,
				 &o->server_max_streams);
	case OPT_HANDSHAKE_TIMEOUT:
		seen(&c->server_only, c);
		if (parse_long(c, arg, 1, 3600, &v))
			return -1;
		o->handshake_timeout = (unsigned)v;
		return 0;
	case OPT_ALLOW:
		seen(&c->server_only, c);
		if (o->nallow == PS_MAX_ALLOW)
			return fail(c, _("option %s: at most %d networks"),
				    c->optname, PS_MAX_ALLOW);
		if (ps_cidr_parse(arg, &o->allow[o->nallow]))
			return fail(c,
				    _("option %s: '%s' is not a network "
				      "(ADDRESS or ADDRESS/PREFIX)"),
				    c->optname, arg);
		o->nallow++;
		return 0;
	case OPT_USER:
		seen(&c->server_only, c);
		replace_str(&o->user, arg);
		return 0;
	case OPT_USERNAME:
		seen(&c->client_only, c);
		replace_str(&o->username, arg);
		return 0;
	case OPT_RSA_PUBKEY:
		seen(&c->client_only, c);
		if (ps_auth_key_ok(arg, false))
			return fail(c,
				    _("option %s: cannot read an RSA public "
				      "key (PEM) from %s"),
				    c->optname, arg);
		replace_str(&o->rsa_pubkey, arg);
		return 0;
	case OPT_RSA_PRIVKEY:
		seen(&c->server_only, c);
		if (ps_auth_key_ok(arg, true))
			return fail(c,
				    _("option %s: cannot read an RSA private "
				      "key (PEM) from %s"),
				    c->optname, arg);
		replace_str(&o->rsa_privkey, arg);
		return 0;
	case OPT_AUTH_USERS:
		seen(&c->server_only, c);
		replace_str(&o->authorized_users, arg);
		return 0;
	case OPT_TIME_SKEW:
		seen(&c->server_only, c);
		return parse_int(c, arg, 1, 86400, &o->time_skew);
	case OPT_NO_SHARE_PROBES:
		seen(&c->server_only, c);
		o->no_share_probes = true;
		return 0;
	case OPT_PKCS1:
		o->pkcs1 = true;
		return 0;
	case 'c':
		return parse_target(c, arg, o);
	case 'u':
		o->proto = PS_PROTO_UDP;
		seen(&c->client_only, c);
		return 0;
	case 'b':
		seen(&c->client_only, c);
		return parse_bitrate(c, arg, o);
	case OPT_FQ_RATE: {
		char unit;
		int rc = ps_parse_rate(arg, &o->fq_rate, &unit);

		seen(&c->client_only, c);
		return rc ? scaled_error(c, arg, rc, unit) : 0;
	}
	case 't':
		seen(&c->client_only, c);
		c->end_conditions |= 1;
		return parse_seconds(c, arg, 0, PS_MAX_DURATION, &o->duration);
	case 'n':
		seen(&c->client_only, c);
		c->end_conditions |= 2;
		if (parse_size(c, arg, UINT64_MAX, &o->bytes))
			return -1;
		if (!o->bytes)
			return fail(
				c,
				_("option %s: the byte count must be above 0"),
				c->optname);
		return 0;
	case 'k':
		seen(&c->client_only, c);
		c->end_conditions |= 4;
		if (parse_size(c, arg, UINT64_MAX, &o->blocks))
			return -1;
		if (!o->blocks)
			return fail(
				c,
				_("option %s: the block count must be above 0"),
				c->optname);
		return 0;
	case 'l':
		seen(&c->client_only, c);
		if (parse_size(c, arg, PS_MAX_TCP_LEN, &v64))
			return -1;
		if (!v64)
			return fail(c,
				    _("option %s: the length must be above 0"),
				    c->optname);
		o->len = (uint32_t)v64;
		return 0;
	case OPT_CPORT:
		seen(&c->client_only, c);
		return parse_int(c, arg, 1, 65535, &o->cport);
	case 'P':
		seen(&c->client_only, c);
		return parse_int(c, arg, 1, PS_MAX_STREAMS, &o->parallel);
	case 'R':
		seen(&c->client_only, c);
		o->reverse = true;
		return 0;
	case 'd':
		if (o->iperf3_mode) { /* iperf3's -d is --debug */
			o->debug = true;
			o->debug_level = 4;
			return 0;
		}
		/* fall through */
	case OPT_BIDIR:
		seen(&c->client_only, c);
		o->bidir = true;
		return 0;
	case 'w':
		if (parse_size(c, arg, PS_MAX_WINDOW, &o->window))
			return -1;
		if (!o->window)
			return fail(c,
				    _("option %s: the window must be above 0"),
				    c->optname);
		return 0;
	case 'C':
		seen(&c->client_only, c);
		if (!*arg || strlen(arg) > 15)
			return fail(c,
				    _("option %s: '%s' is not a congestion "
				      "control name"),
				    c->optname, arg);
		replace_str(&o->congestion, arg);
		return 0;
	case 'M':
		seen(&c->client_only, c);
		return parse_int(c, arg, 88, PS_MAX_MSS, &o->mss);
	case 'N':
		seen(&c->client_only, c);
		o->nodelay = true;
		return 0;
	case '4':
		o->family = 4;
		return 0;
	case '6':
		o->family = 6;
		return 0;
	case 'S':
		seen(&c->client_only, c);
		if (parse_long(c, arg, 0, 255, &v))
			return -1;
		o->tos = (int)v;
		return 0;
	case OPT_DSCP:
		seen(&c->client_only, c);
		return parse_dscp(c, arg, o);
	case 'L':
		seen(&c->client_only, c);
		return parse_int(c, arg, 1, 0xfffff, &o->flowlabel);
	case OPT_PACING_TIMER:
		seen(&c->client_only, c);
		o->deprecated |= PS_DEPRECATED_PACING_TIMER;
		return parse_size(c, arg, UINT32_MAX, &v64);
	case OPT_NO_NUMA:
		o->no_numa = true;
		return 0;
	case OPT_NO_FQ_PACING:
		seen(&c->client_only, c);
		o->deprecated |= PS_DEPRECATED_NO_FQ_PACING;
		o->fq_rate = 0;
		return 0;
	case 'Z':
		seen(&c->client_only, c);
		o->zerocopy = true;
		return 0;
	case OPT_SKIP_RX_COPY:
		o->skip_rx_copy = true;
		return 0;
	case 'O':
		seen(&c->client_only, c);
		return parse_int(c, arg, 0, PS_MAX_OMIT, &o->omit);
	case 'T':
		seen(&c->client_only, c);
		replace_str(&o->title, arg);
		return 0;
	case OPT_EXTRA_DATA:
		seen(&c->client_only, c);
		replace_str(&o->extra_data, arg);
		return 0;
	case OPT_GET_SERVER_OUTPUT:
		seen(&c->client_only, c);
		o->get_server_output = true;
		return 0;
	case OPT_UDP64:
		seen(&c->client_only, c);
		o->udp_counters_64bit = true;
		return 0;
	case OPT_GSRO:
		seen(&c->client_only, c);
		o->gsro = true;
		return 0;
	case OPT_NO_GSRO:
		seen(&c->client_only, c);
		o->no_gsro = true;
		return 0;
	case OPT_REPEATING_PAYLOAD:
		seen(&c->client_only, c);
		o->repeating_payload = true;
		return 0;
	case OPT_DONT_FRAGMENT:
		seen(&c->client_only, c);
		o->dont_fragment = true;
		return 0;
	case OPT_CONNECT_TIMEOUT:
		seen(&c->client_only, c);
		return parse_uint(c, arg, 3600 * 1000, &o->connect_timeout_ms);
	case OPT_NO_TUI:
		o->no_tui = true;
		return 0;
	case OPT_NO_COLOR:
		o->no_color = true;
		return 0;
	case OPT_SYSROOT:
		if (!*arg)
			return fail(c,
				    _("option %s: the directory name is empty"),
				    c->optname);
		replace_str(&o->sysroot, arg);
		return 0;
	case OPT_IFACE:
		if (!*arg || strlen(arg) >= 16 || strchr(arg, '/'))
			return fail(
				c,
				_("option %s: '%s' is not an interface name"),
				c->optname, arg);
		replace_str(&o->iface, arg);
		return 0;
	case OPT_FORMAT:
		/* --format m: iperf3's long -f; text/markdown/json: check's */
		if (strlen(arg) == 1 && strchr("kmgtaKMGTA", arg[0])) {
			o->format = arg[0];
			return 0;
		}
		/* history and compare take text and json too */
		if (o->mode != PS_MODE_HISTORY && o->mode != PS_MODE_COMPARE)
			seen(&c->check_only, c);
		if (!strcmp(arg, "text"))
			o->report_format = PS_FORMAT_TEXT;
		else if (!strcmp(arg, "markdown") || !strcmp(arg, "md"))
			o->report_format = PS_FORMAT_MARKDOWN;
		else if (!strcmp(arg, "json"))
			o->report_format = PS_FORMAT_JSON;
		else if (!strcmp(arg, "html"))
			o->report_format = PS_FORMAT_HTML;
		else
			return fail(c,
				    _("option %s: '%s' is not a report format "
				      "(text, markdown, json or html)"),
				    c->optname, arg);
		return 0;
	case OPT_SNAPSHOT:
		seen(&c->check_only, c);
		replace_str(&o->snapshot, arg);
		return 0;
	case OPT_PLOT:
		/* check's charts, and compare's (DIR/compare.svg) */
		if (o->mode != PS_MODE_COMPARE)
			seen(&c->check_only, c);
		if (!*arg)
			return fail(c, _("option %s: the directory is empty"),
				    c->optname);
		replace_str(&o->plot_dir, arg);
		return 0;
	case OPT_QUICK:
		/* check, and the workstation's guided run (key g) */
		o->quick = true;
		return 0;
	case OPT_HISTORY:
		if (!*arg)
			return fail(c, _("option %s needs a file name"),
				    c->optname);
		replace_str(&o->history_file, arg);
		return 0;
	case OPT_NO_HISTORY:
		o->no_history = true;
		return 0;
	case OPT_DIAGNOSE:
		seen(&c->client_only, c);
		if (!*arg)
			return fail(c, _("option %s needs a file name"),
				    c->optname);
		replace_str(&o->diagnose, arg);
		return 0;
	case OPT_LAST:
		if (o->mode != PS_MODE_HISTORY)
			return fail(c,
				    _("option %s is only valid with "
				      "'pipescope history'"),
				    c->optname);
		return parse_int(c, arg, 1, 1000000, &o->history_last);
	case OPT_EXPORT:
		if (o->mode != PS_MODE_HISTORY)
			return fail(c,
				    _("option %s is only valid with "
				      "'pipescope history'"),
				    c->optname);
		if (!strcmp(arg, "jsonl"))
			o->history_export = PS_EXPORT_JSONL;
		else if (!strcmp(arg, "openmetrics"))
			o->history_export = PS_EXPORT_OPENMETRICS;
		else
			return fail(c,
				    _("option %s: '%s' is not an export format "
				      "(jsonl or openmetrics)"),
				    c->optname, arg);
		return 0;
	case OPT_REPEAT:
		seen(&c->check_only, c);
		return parse_int(c, arg, 2, 9, &o->repeat);
	case OPT_RULES:
		seen(&c->check_only, c);
		o->list_rules = true;
		return 0;
	}
	return fail(c, _("option %s is not handled"), c->optname);
}

/* what no single option can check: combinations and the subcommand */
static int validate(struct cli *c, struct ps_opts *o, bool server)
{
	const char *sub = o->mode == PS_MODE_PROBE     ? "probe"
			  : o->mode == PS_MODE_HISTORY ? "history"
			  : o->mode == PS_MODE_COMPARE ? "compare"
						       : "check";
	bool past = o->mode == PS_MODE_HISTORY || o->mode == PS_MODE_COMPARE;

	if (server && o->ntargets)
		return fail(c, _("-c and -s cannot be used together"));
	if (o->mode == PS_MODE_PROBE && (server || o->ntargets))
		return fail(c, _("'probe' takes no -c or -s; it only reads "
				 "this host"));
	if ((o->mode == PS_MODE_CHECK || past) && server)
		return fail(c, _("'%s' cannot be used with -s"), sub);
	if (o->mode == PS_MODE_HISTORY &&
	    (o->report_format == PS_FORMAT_MARKDOWN ||
	     o->report_format == PS_FORMAT_HTML))
		return fail(c, _("'%s' writes text or json"), sub);
	if (o->mode == PS_MODE_COMPARE &&
	    o->report_format == PS_FORMAT_MARKDOWN)
		return fail(c, _("'compare' writes text, json or html"));
	if (past && o->ntargets > 1)
		return fail(c, _("'%s' takes one -c HOST"), sub);
	if ((o->mode == PS_MODE_PROBE || past) && c->client_only)
		return fail(c, _("option %s is for tests, not for '%s'"),
			    c->client_only, sub);
	if (c->check_only && o->mode != PS_MODE_CHECK)
		return fail(c,
			    _("option %s is only valid with 'pipescope check'"),
			    c->check_only);
	/* the listing runs nothing: it takes a format and no target */
	if (o->list_rules &&
	    (o->ntargets || o->snapshot || o->sysroot || o->iface || o->quick ||
	     o->repeat || o->plot_dir || c->client_only))
		return fail(c,
			    _("--rules lists the checks' thresholds and runs "
			      "nothing: it takes only --format"));
	if (o->list_rules && o->report_format == PS_FORMAT_HTML)
		return fail(c, _("--rules writes text, markdown or json"));
	if (o->quick && (server || o->mode == PS_MODE_PROBE))
		return fail(c, _("option --quick is for 'pipescope check' and "
				 "the workstation's guided run"));
	if (o->snapshot && o->ntargets)
		return fail(c, _("--snapshot and -c cannot be used together: a "
				 "snapshot is checked offline"));
	if (server)
		o->mode = PS_MODE_SERVER;
	else if (o->ntargets && o->mode == PS_MODE_SELFTEST)
		o->mode = PS_MODE_CLIENT;
	if (o->mode == PS_MODE_SERVER && c->client_only)
		return fail(c, _("option %s is only valid for a client (-c)"),
			    c->client_only);
	if (o->mode != PS_MODE_SERVER && c->server_only)
		return fail(c, _("option %s is only valid for a server (-s)"),
			    c->server_only);
	if (o->diagnose && o->mode == PS_MODE_CHECK)
		return fail(c, _("--diagnose judges one test; 'check' writes "
				 "its own report (--format json)"));
	if (o->diagnose && o->ntargets > 1)
		return fail(c, _("--diagnose judges one test: one -c HOST"));
	if (c->end_conditions & (c->end_conditions - 1))
		return fail(c, _("only one of -t, -n and -k can end a test"));
	if (o->reverse && o->bidir)
		return fail(c, _("-R and --bidir cannot be used together"));
	/* the data streams take --cport, --cport + 1, ... */
	if (o->cport && o->cport + o->parallel * (o->bidir ? 2 : 1) - 1 > 65535)
		return fail(
			c,
			_("--cport %d: %d streams would need ports past 65535"),
			o->cport, o->parallel * (o->bidir ? 2 : 1));
	if (o->file && o->skip_rx_copy)
		return fail(c, _("-F and --skip-rx-copy cannot be used "
				 "together: what is received is not copied, so "
				 "it cannot be written to the file"));
	if (o->proto == PS_PROTO_UDP) {
		if (o->len > PS_MAX_UDP_LEN)
			return fail(c,
				    _("option -l: %u is too large for UDP (at "
				      "most %d bytes)"),
				    o->len, PS_MAX_UDP_LEN);
		if (o->len && o->len < PS_MIN_UDP_LEN)
			return fail(c,
				    _("option -l: %u is too small for UDP (at "
				      "least %d bytes)"),
				    o->len, PS_MIN_UDP_LEN);
		if (o->skip_rx_copy)
			return fail(c, _("--skip-rx-copy works with TCP only"));
		if (!o->rate_set)
			o->rate = PS_DEFAULT_UDP_RATE;
	} else if (o->gsro) {
		return fail(c, _("--gsro works with UDP only (-u)"));
	}
	if (!o->username != !o->rsa_pubkey)
		return fail(
			c,
			_("--username and --rsa-public-key-path go together"));
	if (!o->rsa_privkey != !o->authorized_users)
		return fail(c, _("--rsa-private-key-path and "
				 "--authorized-users-path go together"));
	if (o->gsro && o->no_gsro)
		return fail(c,
			    _("--gsro and --no-gsro cannot be used together"));
	if (o->ncpus > 1 && o->mode == PS_MODE_SERVER)
		return fail(c, _("option -A: a server takes one CPU"));
	return 0;
}

enum ps_cli_result ps_cli_parse(int argc, char **argv, struct ps_opts *o,
				char *err, size_t errlen)
{
	struct cli c = { .err = err, .errlen = errlen };
	enum ps_cli_result ret = PS_CLI_RUN;
	bool server = false;
	int ch, longindex, first = 1;

	if (errlen)
		err[0] = 0;
	free(o->cmdline);
	o->cmdline = ps_cli_cmdline(argc, argv);
	o->iperf3_mode = ps_cli_iperf3_name(argc > 0 ? argv[0] : NULL);
	if (o->iperf3_mode) {
		/* iperf3 has no subcommands and no screen */
		o->no_tui = true;
	} else if (argc > 1 && !strcmp(argv[1], "probe")) {
		o->mode = PS_MODE_PROBE;
		first = 2;
	} else if (argc > 1 && !strcmp(argv[1], "check")) {
		o->mode = PS_MODE_CHECK;
		first = 2;
	} else if (argc > 1 && !strcmp(argv[1], "history")) {
		o->mode = PS_MODE_HISTORY;
		first = 2;
	} else if (argc > 1 && !strcmp(argv[1], "compare")) {
		o->mode = PS_MODE_COMPARE;
		first = 2;
	}
	/* getopt sees argv from the subcommand on; optind = 0 re-arms it */
	argc -= first - 1;
	argv += first - 1;
	optind = 0;
	opterr = 0;
	for (;;) {
		longindex = -1;
		ch = getopt_long(argc, argv, short_opts, long_opts, &longindex);
		if (ch == -1)
			break;
		if (ch == '?') {
			if (optopt && optopt < 256)
				fail(&c, _("unknown option -%c (see --help)"),
				     optopt);
			else
				fail(&c, _("unknown option %s (see --help)"),
				     argv[optind - 1]);
			ret = PS_CLI_ERROR;
			break;
		}
		if (ch == ':') {
			if (optopt && optopt < 256 &&
			    !strchr(argv[optind - 1] + 1, '-'))
				fail(&c, _("option -%c needs a value"), optopt);
			else
				fail(&c, _("option %s needs a value"),
				     argv[optind - 1]);
			ret = PS_CLI_ERROR;
			break;
		}
		if (ch == 'h' || ch == OPT_HELP) {
			ret = PS_CLI_HELP;
			break;
		}
		if (ch == 'v' || ch == OPT_VERSION) {
			ret = PS_CLI_VERSION;
			break;
		}
		set_optname(&c, ch, longindex);
		if (parse_one(&c, ch, o, &server, optarg)) {
			ret = PS_CLI_ERROR;
			break;
		}
	}
	/* compare A B: the run ids */
	while (ret == PS_CLI_RUN && o->mode == PS_MODE_COMPARE &&
	       optind < argc && o->ncompare < 2) {
		char *end;
		long long id;

		errno = 0;
		id = strtoll(argv[optind], &end, 10);
		if (end == argv[optind] || *end || errno || id < 1) {
			fail(&c,
			     _("'%s' is not a run id (see 'pipescope "
			       "history')"),
			     argv[optind]);
			ret = PS_CLI_ERROR;
			break;
		}
		o->compare_id[o->ncompare++] = id;
		optind++;
	}
	if (ret == PS_CLI_RUN && optind < argc) {
		if (!strcmp(argv[optind], "probe") ||
		    !strcmp(argv[optind], "check"))
			fail(&c, _("'%s' must come first, before any option"),
			     argv[optind]);
		else
			fail(&c, _("unexpected argument '%s' (see --help)"),
			     argv[optind]);
		ret = PS_CLI_ERROR;
	}
	if (ret == PS_CLI_RUN && o->iperf3_mode && !server && !o->ntargets) {
		fail(&c, _("as iperf3: it must either be a client (-c) or a "
			   "server (-s)"));
		ret = PS_CLI_ERROR;
	}
	if (ret == PS_CLI_RUN && validate(&c, o, server))
		ret = PS_CLI_ERROR;
	free((char *)c.client_only);
	free((char *)c.server_only);
	free((char *)c.check_only);
	return ret;
}

bool ps_cli_iperf3_name(const char *argv0)
{
	const char *base;

	if (!argv0)
		return false;
	base = strrchr(argv0, '/');
	return !strcmp(base ? base + 1 : argv0, "iperf3");
}

/*
 * As "iperf3 --version" prints it: "iperf 3.21 (pipescope 0.1.0)". Scripts
 * (perfSONAR among them) take the second word for iperf3's version; 3.21 is
 * the iperf3 whose protocol, options and JSON pipescope follows, and at
 * 3.17 or later they expect the logins' OAEP padding, pipescope's default.
 * Not translated: it is iperf3's text, for the programs that read it.
 */
void ps_cli_version_iperf3(FILE *out)
{
	struct utsname u;

	fprintf(out, "iperf %s (pipescope %s)\n", PS_IPERF3_VERSION,
		PACKAGE_VERSION);
	if (!uname(&u))
		fprintf(out, "%s %s %s %s %s\n", u.sysname, u.nodename,
			u.release, u.version, u.machine);
	fprintf(out, "Optional features available: CPU affinity setting, "
		     "IPv6 flow label, TCP congestion algorithm setting, "
		     "sendfile / zerocopy, socket pacing, authentication, bind "
		     "to device, support IPv4 don't fragment, POSIX threads, "
		     "GSO/GRO support\n");
}

void ps_cli_version(FILE *out)
{
	fprintf(out, "pipescope %s\n", PACKAGE_VERSION);
	fprintf(out, _("Speaks iperf3's protocol (3.x peers, client and "
		       "server).\n"));
}

static void help_usage(FILE *out)
{
	fputs(_("Usage: pipescope [options]              workstation; loopback "
		"self-test\n"
		"       pipescope -c HOST [options]      workstation testing "
		"against HOST\n"
		"       pipescope -s [options]           server for pipescope "
		"and iperf3 clients\n"
		"       pipescope probe [--iface IF] [--json] [--sysroot DIR]\n"
		"       pipescope check [-c HOST] [--iface IF] [--format "
		"text|markdown|json|html]\n"
		"       pipescope check --snapshot FILE\n"
		"       pipescope check --rules [--format "
		"text|markdown|json]\n"),
	      out);
	fputs(_("       pipescope history [-c HOST] [--last N] [--format "
		"text|json]\n"
		"       pipescope history --export jsonl|openmetrics\n"
		"       pipescope compare [A [B]] [-c HOST] [--format "
		"text|json|html]\n"
		"\n"),
	      out);
}

static void help_common(FILE *out)
{
	fputs(_("Common options:\n"
		"  -p, --port N              server port (default 5201)\n"
		"  -f, --format [kmgtaKMGTA] units for rates: bits (lower "
		"case) or bytes\n"
		"  -i, --interval SEC        seconds between reports (0 turns "
		"them off)\n"
		"  -I, --pidfile FILE        write the process id to FILE\n"
		"  -F, --file NAME           send (client) or receive into a "
		"file\n"
		"  -A, --affinity LIST       CPUs: N; N,M (here, server); "
		"0-3,6 (one per stream)\n"
		"      --no-numa             data threads not kept to the "
		"NIC's NUMA node\n"
		"  -B, --bind ADDR[%DEV]     bind to this address (and "
		"device)\n"
		"      --bind-dev DEV        bind to this network device\n"
		"  -V, --verbose             more detail (iperf3's -V lines)\n"
		"  -J, --json                iperf3's JSON document on stdout\n"
		"      --json-stream         one JSON object per line, as the "
		"test runs\n"
		"      --json-stream-full-output   and the whole -J document "
		"at the end\n"
		"      --timestamps[=FMT]    prefix each text line with the "
		"time (strftime)\n"
		"      --logfile FILE        send output to FILE\n"
		"      --forceflush          flush output at every report\n"
		"      --rcv-timeout MS      give up after MS without data "
		"(default 120000)\n"
		"      --snd-timeout MS      TCP_USER_TIMEOUT on the data "
		"streams\n"
		"      --debug[=N]           debugging messages on stderr "
		"(as iperf3: -d)\n"
		"      --cntl-ka[=I/N/C]     TCP keepalive on the control "
		"connection\n"
		"  -m, --mptcp               MPTCP instead of TCP\n"
		"  -4, --version4            IPv4 only\n"
		"  -6, --version6            IPv6 only\n"
		"\n"),
	      out);
}

static void help_server(FILE *out)
{
	fputs(_("Server options:\n"
		"  -s, --server              run as a server\n"
		"  -D, --daemon              run in the background\n"
		"  -1, --one-off             serve one test, then exit\n"
		"      --max-tests N         tests served at once (default 1, "
		"as iperf3)\n"
		"      --server-bitrate-limit RATE   refuse tests above RATE "
		"bit/s\n"
		"      --idle-timeout SEC    restart after SEC idle seconds\n"
		"      --server-max-duration SEC     longest test served\n"
		"      --server-max-streams N        most data streams in one "
		"test\n"
		"      --handshake-timeout SEC       time a new connection has "
		"to send\n"
		"                            its cookie and parameters "
		"(default 10)\n"
		"      --allow CIDR          serve only these client networks "
		"(repeatable)\n"
		"      --user NAME           drop root privileges after "
		"binding\n"
		"      --rsa-private-key-path FILE   decrypt clients' "
		"credentials\n"
		"      --authorized-users-path FILE  "
		"\"user,sha256({user}password)\" lines\n"
		"      --time-skew-threshold SEC     credentials' clock "
		"tolerance (10)\n"
		"      --no-share-probes     do not send this host's probe "
		"readings\n"
		"                            (CPU, NIC, IRQs) to pipescope "
		"clients\n"
		"\n"),
	      out);
}

static void help_client(FILE *out)
{
	fputs(_("Client options:\n"
		"  -c, --client HOST[:PORT]  test against HOST (repeat for "
		"several targets)\n"
		"  -u, --udp                 UDP instead of TCP (check: one "
		"UDP test)\n"
		"  -b, --bitrate RATE[/N]    target bit/s (K M G T are powers "
		"of 1000);\n"
		"                            0 = unlimited; UDP default "
		"1048576\n"
		"      --fq-rate RATE        pace with SO_MAX_PACING_RATE\n"
		"  -t, --time SEC            test length (default 10)\n"
		"  -n, --bytes SIZE          bytes to send instead of a time "
		"(K M G T = 1024)\n"
		"  -k, --blockcount N        blocks to send instead of a time\n"
		"  -l, --length SIZE         block size (TCP 1M, 128K with -k "
		"or -b, or an\n"
		"                            iperf3 server sending; UDP the "
		"control\n"
		"                            connection's MSS)\n"
		"      --cport PORT          client port for the data streams\n"
		"  -P, --parallel N          streams, 1 to 128, one thread "
		"each\n"
		"  -R, --reverse             the server sends\n"
		"  -d, --bidir               both directions at once (iperf3's "
		"debug: --debug)\n"
		"  -w, --window SIZE         socket buffer size\n"
		"  -C, --congestion ALGO     TCP congestion control\n"
		"  -M, --set-mss N           TCP maximum segment size\n"
		"  -N, --no-delay            TCP_NODELAY\n"
		"  -S, --tos N               IP type of service\n"
		"      --dscp VALUE          DiffServ code point: 0-63 or "
		"ef, af11, cs1...\n"
		"  -L, --flowlabel N         IPv6 flow label\n"
		"      --pacing-timer N      accepted for iperf3's command "
		"lines, ignored\n"
		"      --no-fq-socket-pacing deprecated: --fq-rate 0\n"
		"  -Z, --zerocopy            send without copying (sendfile)\n"
		"      --skip-rx-copy        discard received data in the "
		"kernel (MSG_TRUNC)\n"
		"  -O, --omit SEC            leave the first SEC seconds out\n"
		"  -T, --title TEXT          prefix every output line\n"
		"      --extra-data TEXT     carried into the JSON output\n"
		"      --username NAME       log in (password: "
		"$IPERF3_PASSWORD or asked)\n"
		"      --rsa-public-key-path FILE    encrypt the credentials "
		"with this key\n"
		"      --use-pkcs1-padding   RSA padding of iperf3 before 3.17 "
		"(both ends)\n"
		"      --get-server-output   show the server's report too\n"

		"      --udp-counters-64bit  64-bit UDP packet counters\n"
		"      --gsro                UDP segmentation offload "
		"(UDP_SEGMENT/UDP_GRO)\n"
		"      --no-gsro             never use it, even with a "
		"pipescope server\n"
		"      --repeating-payload   fill blocks with a repeating "
		"pattern\n"
		"      --dont-fragment       set IPv4 don't-fragment (UDP)\n"
		"      --connect-timeout MS  give up connecting after MS\n"
		"\n"),
	      out);
}

/* a test judged for a scheduler: not check's (it judges its own) */
static void help_diagnose(FILE *out)
{
	fputs(_("One test judged by the checks (for a scheduler: pScheduler):\n"
		"      --diagnose FILE       after the test, the checks on it "
		"into FILE\n"
		"                            (check's JSON report; kept in the "
		"history)\n"
		"\n"),
	      out);
}

static void help_check_pictures(FILE *out)
{
	/* its own string: the translations of the others stay whole */
	fputs(_("Check's reports with pictures:\n"
		"      --format html         (check) one HTML page: when, the "
		"command line,\n"
		"                            both hosts, the answer, the line "
		"since the last\n"
		"                            run, the charts (inline SVG), the "
		"tests, the\n"
		"                            findings\n"
		"      --plot DIR            (check) the charts as "
		"DIR/sweep.svg, "
		"rate.svg,\n"
		"                            cpu.svg, irq.svg; the markdown "
		"report links them\n"
		"\n"),
	      out);
}

static void help_compare_pictures(FILE *out)
{
	/* its own string too: the translated blocks stay whole */
	fputs(_("Compare's page with pictures:\n"
		"      --format html         (compare) one HTML page: the "
		"rates side by side,\n"
		"                            what changed on each end (with "
		"units), the\n"
		"                            findings\n"
		"      --plot DIR            (compare) the rate chart as "
		"DIR/compare.svg\n"
		"\n"),
	      out);
}

static void help_history(FILE *out)
{
	fputs(_("The run history (every test and check; doc/history.md):\n"
		"      --history FILE        its file (default "
		"$PIPESCOPE_HISTORY or\n"
		"                            "
		"$XDG_STATE_HOME/pipescope/history.db)\n"
		"      --no-history          do not record this run\n"
		"      --last N              (history) the newest N runs\n"
		"      --export jsonl        (history) every record, one JSON "
		"document a line\n"
		"      --export openmetrics  (history) the newest run per "
		"target as metrics\n"
		"                            for Prometheus (node_exporter's "
		"textfile)\n"
		"\n"),
	      out);
}

static void help_own(FILE *out)
{
	fputs(_("pipescope's own options:\n"
		"      --no-tui              plain text (as iperf3) even on a "
		"terminal\n"
		"      --no-color            no colours on the screen (also "
		"NO_COLOR=1)\n"
		"      --iface IF            the network interface to watch\n"
		"      --sysroot DIR         read /proc and /sys from a "
		"recorded tree\n"
		"      --json                (probe) the snapshot as JSON\n"
		"      --format FMT          (check) text, markdown, json or "
		"html\n"
		"      --snapshot FILE       (check) evaluate a saved 'probe "
		"--json'\n"
		"      --quick               (check) the short form of the "
		"checklist\n"
		"      --repeat N            (check) run each test N times "
		"(2-9, default 2)\n"
		"      --rules               (check) list the thresholds of "
		"the checks\n"
		"  -h, --help                this help\n"
		"  -v, --version             the version\n"
		"\n"
		"Started as \"iperf3\" (a symlink), pipescope takes iperf3's "
		"command line\n"
		"(-d is --debug) and prints iperf3's text and version line.\n"
		"\n"
		"Exit status: 0 done, 1 failure, 2 bad command line,\n"
		"3 (check) a bottleneck was found.\n"),
	      out);
}

void ps_cli_help(FILE *out)
{
	help_usage(out);
	help_common(out);
	help_server(out);
	help_client(out);
	help_diagnose(out);
	help_check_pictures(out);
	help_compare_pictures(out);
	help_history(out);
	help_own(out);
}

/* the help of one sub-command: its usage lines and its blocks */
void ps_cli_help_mode(FILE *out, enum ps_mode mode)
{
	switch (mode) {
	case PS_MODE_CHECK:
		fputs(_("Usage: pipescope check [-c HOST] [--iface IF] "
			"[--format "
			"text|markdown|json|html]\n"
			"       pipescope check --snapshot FILE\n"
			"       pipescope check --rules [--format "
			"text|markdown|json]\n"
			"\n"
			"The guided checklist: one stream, more streams, "
			"reverse and both\n"
			"directions against HOST (the loopback self-test "
			"without -c), then\n"
			"the findings, the ceilings and the answer. Its tests "
			"take the client\n"
			"options (-u, -t, -P, -b, ...): pipescope --help lists "
			"them all.\n"
			"\n"),
		      out);
		help_check_pictures(out);
		help_history(out);
		help_own(out);
		return;
	case PS_MODE_COMPARE:
		fputs(_("Usage: pipescope compare [A [B]] [-c HOST] [--format "
			"text|json|html]\n"
			"\n"
			"Two runs of the history side by side (the newest two "
			"without A and B,\n"
			"of HOST with -c): the rates, what changed on each "
			"end, the findings.\n"
			"\n"),
		      out);
		help_compare_pictures(out);
		help_history(out);
		return;
	case PS_MODE_HISTORY:
		fputs(_("Usage: pipescope history [-c HOST] [--last N] "
			"[--format "
			"text|json]\n"
			"       pipescope history --export "
			"jsonl|openmetrics\n"
			"\n"),
		      out);
		help_history(out);
		return;
	case PS_MODE_PROBE:
		fputs(_("Usage: pipescope probe [--iface IF] [--json] "
			"[--sysroot DIR]\n"
			"\n"
			"One snapshot of every probe (CPU, IRQs, NIC, PCIe, "
			"qdiscs, sysctls,\n"
			"counters, processes), then exit.\n"
			"\n"),
		      out);
		help_own(out);
		return;
	default:
		break;
	}
	ps_cli_help(out);
}
