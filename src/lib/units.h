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
 * Print like iperf3: fmt is one of k m g t (bits, 1000-based), K M G T
 * (bytes, 1024-based), or a / A for adaptive bits / bytes.
 */
void ps_fmt_rate(char *buf, size_t len, double bits_per_sec, char fmt);
void ps_fmt_bytes(char *buf, size_t len, double bytes, char fmt);

#endif
