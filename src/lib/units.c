/* units.c: "-b 10G", "-w 4M", and "9.41 Gbits/sec" the way iperf3 does them */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
	case 't': case 'T':
		mult *= base;
		/* fall through */
	case 'g': case 'G':
		mult *= base;
		/* fall through */
	case 'm': case 'M':
		mult *= base;
		/* fall through */
	case 'k': case 'K':
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

static const char *const bit_units[] = { "bits/sec", "Kbits/sec",
	"Mbits/sec", "Gbits/sec", "Tbits/sec" };
static const char *const byte_units[] = { "Bytes", "KBytes", "MBytes",
	"GBytes", "TBytes" };

static int unit_index(char fmt, double v, double base)
{
	switch (fmt) {
	case 'k': case 'K': return 1;
	case 'm': case 'M': return 2;
	case 'g': case 'G': return 3;
	case 't': case 'T': return 4;
	default: {
		int i = 0;

		while (i < 4 && v >= base * 0.9995 * 1)
			v /= base, i++;
		return i;
	}
	}
}

static void fmt_value(char *buf, size_t len, double v, int idx,
		      double base, const char *unit)
{
	for (int i = 0; i < idx; i++)
		v /= base;
	if (v < 9.995)
		snprintf(buf, len, "%4.2f %s", v, unit);
	else if (v < 99.95)
		snprintf(buf, len, "%4.1f %s", v, unit);
	else
		snprintf(buf, len, "%4.0f %s", v, unit);
}

void ps_fmt_rate(char *buf, size_t len, double bits_per_sec, char fmt)
{
	/* upper-case letters ask for bytes per second, 1024-based */
	if (fmt == 'K' || fmt == 'M' || fmt == 'G' || fmt == 'T' ||
	    fmt == 'A') {
		char tmp[32];
		double bytes = bits_per_sec / 8;
		int idx = unit_index(fmt, bytes, 1024);

		fmt_value(tmp, sizeof(tmp), bytes, idx, 1024, byte_units[idx]);
		snprintf(buf, len, "%s/sec", tmp);
		return;
	}
	int idx = unit_index(fmt, bits_per_sec, 1000);

	fmt_value(buf, len, bits_per_sec, idx, 1000, bit_units[idx]);
}

void ps_fmt_bytes(char *buf, size_t len, double bytes, char fmt)
{
	int idx = unit_index(fmt == 'a' ? 'A' : fmt, bytes, 1024);

	fmt_value(buf, len, bytes, idx, 1024, byte_units[idx]);
}
