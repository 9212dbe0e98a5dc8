/* units.c: "-b 10G", "-w 4M", and "9.41 Gbits/sec" the way iperf3 does them */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

static int parse_scaled(const char *s, uint64_t *out, char *bad_unit,
			double base)
{
	double v, mult = 1;
	char *end;

	if (bad_unit)
		*bad_unit = 0;
	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s) && *s != '.')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(v))
		return errno == ERANGE ? -ERANGE : -EINVAL;
	switch (*end) {
	case 0:
		break;
	case 't':
	case 'T':
		mult *= base;
		/* fall through */
	case 'g':
	case 'G':
		mult *= base;
		/* fall through */
	case 'm':
	case 'M':
		mult *= base;
		/* fall through */
	case 'k':
	case 'K':
		mult *= base;
		end++;
		break;
	default:
		if (bad_unit)
			*bad_unit = *end;
		return -EINVAL;
	}
	if (*end) {
		if (bad_unit)
			*bad_unit = *end;
		return -EINVAL;
	}
	v *= mult;
	if (v >= 18446744073709551616.0)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

int ps_parse_size(const char *s, uint64_t *out, char *bad_unit)
{
	return parse_scaled(s, out, bad_unit, 1024.0);
}

int ps_parse_rate(const char *s, uint64_t *out, char *bad_unit)
{
	return parse_scaled(s, out, bad_unit, 1000.0);
}

/* the units and styles side by side */
/* clang-format off */
static const char *const bit_units[] = { "bits/sec", "Kbits/sec",
	"Mbits/sec", "Gbits/sec", "Tbits/sec" };
static const char *const byte_units[] = { "Bytes", "KBytes", "MBytes",
	"GBytes", "TBytes" };
static const char *const byterate[] = { "Bytes/sec", "KBytes/sec",
	"MBytes/sec", "GBytes/sec", "TBytes/sec" };
static const char *const bitps[] = { "bit/s", "kbit/s", "Mbit/s",
	"Gbit/s", "Tbit/s" };
static const char *const bitps4[] = { "bit/s", "kbit/s", "Mbit/s",
	"Gbit/s" };
static const char *const mg_bitps[] = { "Mbit/s", "Gbit/s" };
static const char *const si[] = { "", "k", "M", "G", "T" };
static const char *const bin[] = { "", "K", "M", "G", "T" };
static const char *const bytes10[] = { "B", "KB", "MB", "GB" };
static const char *const iec[] = { "B", "KiB", "MiB", "GiB", "TiB" };
static const char *const rtt[] = { "us", "ms", "s" };
static const char *const rtt_report[] = { "µs", "ms", "s" };

/* decimals: none, one, two, or three significant digits ("9.41", "94.1",
 * "941") */
#define D0 { -INFINITY, -INFINITY }
#define D1 { -INFINITY, INFINITY }
#define D2 { INFINITY, INFINITY }
#define SIG3 { 9.995, 99.95 }

static const struct ps_digits sig3[] = { SIG3 };
static const struct ps_digits isig3[] = { D0, SIG3 };
static const struct ps_digits one[] = { D1 };
static const struct ps_digits two[] = { D2 };
static const struct ps_digits rbps[] = { D0, D1, D1, D2 };
static const struct ps_digits rbytes[] = { D0, D0, D2 };
/* an RTT: "87us", "1.25ms", "12.5ms", "1.02s" */
static const struct ps_digits usec[] = { D0, { 10, INFINITY }, D2 };
/* the reports' RTT: "87 µs", "10.40 ms", "1.25 s" */
static const struct ps_digits rusec[] = { D0, D2, D2 };

#define N(a) (int)(sizeof(a) / sizeof(a[0]))
#define SCALE(name, base, first, up, units, sep, width, zero, digits)	\
	const struct ps_scale ps_scale_##name = { base, first, up,	\
		N(units), units, sep, width, PS_ZERO_##zero, N(digits), digits }

/* name, base, what the first unit is worth, up, units, separator, width,
 * what prints as 0, decimals */
/* iperf3's columns: "%4.2f", always three significant digits */
SCALE(iperf_bits,         1000, 1,   0.9995, bit_units,  " ", 4, AS_IS, sig3);
SCALE(iperf_bytes,        1024, 1,   0.9995, byte_units, " ", 4, AS_IS, sig3);
SCALE(iperf_byterate,     1024, 1,   0.9995, byterate,   " ", 4, AS_IS, sig3);
/* the check report: up to Gbit/s or GB, up a unit only at 1000 */
SCALE(report_bps,         1000, 1,   1,      bitps4,     " ", 0, AS_IS, rbps);
SCALE(report_bytes,       1000, 1,   1,      bytes10,    " ", 0, AS_IS, rbytes);
/* the probe brief: Mbit/s or Gbit/s */
SCALE(brief_bps,          1000, 1e6, 1,      mg_bitps,   " ", 0, AS_IS, two);
/* the workstation: whole numbers in the first unit, "0" for nothing;
 * long ("9.41 Gbit/s") and short ("9.41G") */
SCALE(screen_bps,         1000, 1,   0.9995, bitps,      " ", 0, BAD,   isig3);
SCALE(screen_bps_short,   1000, 1,   0.9995, si,         "",  0, BAD,   isig3);
SCALE(screen_bytes_short, 1024, 1,   0.9995, bin,        "",  0, BAD,   isig3);
SCALE(screen_usec,        1000, 1,   1,      rtt,        "",  0, NONPOS, usec);
/* the check report's RTTs: below a millisecond in µs */
SCALE(report_usec,        1000, 1,   1,      rtt_report, " ", 0, AS_IS, rusec);
/* the guided sweep's "1: 23.4, 2: 41.0 Gbit/s": one unit for the list */
SCALE(sweep_bps,          1000, 1,   1,      bitps,      " ", 0, AS_IS, one);
/* a setting (compare's changes): exact, in the largest unit below it */
SCALE(setting_bps,        1000, 1,   1,      bitps,      " ", 0, AS_IS, two);
SCALE(setting_bytes,      1024, 1,   1,      iec,        " ", 0, AS_IS, two);
/* clang-format on */

int ps_scale_pick(const struct ps_scale *st, double v, double *div)
{
	double d = st->first;
	int i = 0;

	while (i < st->n - 1 && v >= d * st->base * st->up) {
		d *= st->base;
		i++;
	}
	if (div)
		*div = d;
	return i;
}

void ps_fmt_scaled(char *buf, size_t len, double v, const struct ps_scale *st,
		   int unit)
{
	const struct ps_digits *dg;
	double d = st->first;
	int prec;

	if ((st->zero != PS_ZERO_AS_IS && !(v > 0)) ||
	    (st->zero == PS_ZERO_BAD && !isfinite(v))) {
		snprintf(buf, len, "0%s%s", st->sep, st->unit[0]);
		return;
	}
	if (unit < 0)
		unit = ps_scale_pick(st, v, &d);
	else
		for (int i = 0; i < unit && i < st->n - 1; i++)
			d *= st->base;
	if (unit > st->n - 1)
		unit = st->n - 1;
	v /= d;
	dg = &st->digits[unit < st->ndigits ? unit : st->ndigits - 1];
	prec = v < dg->two ? 2 : v < dg->one ? 1 : 0;
	snprintf(buf, len, "%*.*f%s%s", st->width, prec, v, st->sep,
		 st->unit[unit]);
}

/* iperf3's -f letter: the unit it asks for, or -1 for adaptive */
static int fmt_unit(char fmt)
{
	switch (fmt) {
	case 'k':
	case 'K':
		return 1;
	case 'm':
	case 'M':
		return 2;
	case 'g':
	case 'G':
		return 3;
	case 't':
	case 'T':
		return 4;
	default:
		return -1;
	}
}

void ps_fmt_rate(char *buf, size_t len, double bits_per_sec, char fmt)
{
	/* upper-case letters ask for bytes per second, 1024-based */
	if (fmt == 'K' || fmt == 'M' || fmt == 'G' || fmt == 'T' || fmt == 'A')
		ps_fmt_scaled(buf, len, bits_per_sec / 8,
			      &ps_scale_iperf_byterate, fmt_unit(fmt));
	else
		ps_fmt_scaled(buf, len, bits_per_sec, &ps_scale_iperf_bits,
			      fmt_unit(fmt));
}

void ps_fmt_bytes(char *buf, size_t len, double bytes, char fmt)
{
	ps_fmt_scaled(buf, len, bytes, &ps_scale_iperf_bytes, fmt_unit(fmt));
}

void ps_fmt_bps(char *buf, size_t len, double bps)
{
	ps_fmt_scaled(buf, len, bps, &ps_scale_report_bps, -1);
}

void ps_fmt_usec(char *buf, size_t len, double us)
{
	ps_fmt_scaled(buf, len, us, &ps_scale_report_usec, -1);
}

void ps_fmt_bytes10(char *buf, size_t len, double bytes)
{
	ps_fmt_scaled(buf, len, bytes, &ps_scale_report_bytes, -1);
}

void ps_fmt_trimmed(char *buf, size_t len, int prec, double v)
{
	char *end;

	snprintf(buf, len, "%.*f", prec, v);
	if (!strchr(buf, '.'))
		return;
	end = buf + strlen(buf);
	while (end > buf && end[-1] == '0')
		*--end = 0;
	if (end > buf && end[-1] == '.')
		*--end = 0;
}

void ps_fmt_loss(char *buf, size_t len, double share)
{
	double pct = share * 100;
	char num[32];

	if (!(share >= 0 && share <= 1)) {
		snprintf(buf, len, "-");
		return;
	}
	if (pct > 0 && pct < 0.01) {
		snprintf(buf, len, "<0.01%%");
		return;
	}
	ps_fmt_trimmed(num, sizeof(num), pct < 1 ? 2 : pct < 10 ? 1 : 0, pct);
	snprintf(buf, len, "%s%%", num);
}

void ps_fmt_setting(char *buf, size_t len, double v, const struct ps_scale *st)
{
	double div;
	int unit = ps_scale_pick(st, fabs(v), &div);
	char num[64];

	/* a whole number goes down a unit while it would be rounded in it:
	 * 1500 bytes stay "1500 B", not "1.46 KiB" (the units are whole
	 * numbers too, so the test is exact below 2^53 / 100) */
	if (v == floor(v) && fabs(v) < 9e13)
		for (; unit > 0 && fmod(fabs(v) * 100, div) != 0; unit--)
			div /= st->base;
	ps_fmt_trimmed(num, sizeof(num), unit ? 2 : 3, v / div);
	snprintf(buf, len, "%s%s%s", num, st->sep, st->unit[unit]);
}
