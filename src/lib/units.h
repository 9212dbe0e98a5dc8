/* units.h: sizes and rates with iperf3's suffixes, parsed and printed */
#ifndef PS_UNITS_H
#define PS_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * iperf3's rules: a size (-n, -k, -l, -w) takes K/M/G/T in either case as
 * powers of 1024; a rate (-b) takes the same letters as powers of 1000 and
 * counts bits. Fractions are allowed ("1.5G"). Return 0, or -EINVAL for a
 * malformed number or unknown unit (*bad_unit is set when it was the unit),
 * or -ERANGE when it does not fit in 64 bits.
 */
int ps_parse_size(const char *s, uint64_t *out, char *bad_unit);
int ps_parse_rate(const char *s, uint64_t *out, char *bad_unit);

/*
 * One way to print a scaled number, in styles. A style says what lies
 * between two units (base), what the first unit is worth, when to go up a
 * unit (at base * up: 0.9995 goes up where the number would round to
 * "1000", 1 goes up only at base), the units' names, the separator, a
 * minimum width, which numbers print as a plain "0<sep><unit[0]>", and how
 * many decimals: digits[i] for unit i (the last entry serves the units
 * above it), two decimals below .two, one below .one, else none.
 */
struct ps_digits {
	double two, one;
};

enum ps_scale_zero {
	PS_ZERO_AS_IS,	/* every number is scaled and printed */
	PS_ZERO_NONPOS, /* 0, negative and NaN print as "0" */
	PS_ZERO_BAD,	/* and infinity too */
};

struct ps_scale {
	double base, first, up;
	int n;
	const char *const *unit;
	const char *sep;
	int width;
	enum ps_scale_zero zero;
	int ndigits;
	const struct ps_digits *digits;
};

/* the styles: iperf3's columns, the check report, the probe brief, the
 * workstation screen (long and short), RTTs, and the sweep's shared unit;
 * units.c defines each as a SCALE(name, ...) row of its table */
extern const struct ps_scale ps_scale_iperf_bits, ps_scale_iperf_bytes,
	ps_scale_iperf_byterate, ps_scale_report_bps, ps_scale_report_bytes,
	ps_scale_brief_bps, ps_scale_screen_bps, ps_scale_screen_bps_short,
	ps_scale_screen_bytes_short, ps_scale_screen_usec, ps_scale_report_usec,
	ps_scale_sweep_bps, ps_scale_setting_bps, ps_scale_setting_bytes;

/* the unit v is printed in (0 to n - 1), and in *div what that unit is worth */
int ps_scale_pick(const struct ps_scale *st, double v, double *div);

/* v in the style, in unit `unit`, or the one ps_scale_pick chooses if < 0 */
void ps_fmt_scaled(char *buf, size_t len, double v, const struct ps_scale *st,
		   int unit);

/*
 * Print like iperf3: fmt is one of k m g t (bits, 1000-based), K M G T
 * (bytes, 1024-based), or a / A for adaptive bits / bytes.
 */
void ps_fmt_rate(char *buf, size_t len, double bits_per_sec, char fmt);
void ps_fmt_bytes(char *buf, size_t len, double bytes, char fmt);

/* the check report's rates and decimal sizes ("9.41 Gbit/s", "4.19 MB") */
void ps_fmt_bps(char *buf, size_t len, double bps);
void ps_fmt_bytes10(char *buf, size_t len, double bytes);
/* "%.*f" of v without the trailing zeros: "600", "1.5", "2.01" */
void ps_fmt_trimmed(char *buf, size_t len, int prec, double v);
/* a setting's value exactly as it was set: in the largest unit it fills
 * that needs at most two decimals, without trailing zeros ("600 Mbit/s",
 * "1.5 Gbit/s"; with ps_scale_setting_bytes "208 KiB", "1500 B") */
void ps_fmt_setting(char *buf, size_t len, double v, const struct ps_scale *st);
/* a share lost (0-1) as a percentage: "0%", "0.04%", "2.4%", "31%",
 * "<0.01%"; "-" when not known */
void ps_fmt_loss(char *buf, size_t len, double share);
/* the check report's RTTs, from microseconds: "87 µs", "10.40 ms" */
void ps_fmt_usec(char *buf, size_t len, double usec);

#endif
