/* ui-text.h: the short numbers and phrases the workstation screen prints
 * (rates, sizes, times, the PCIe link line), as pure functions */
#ifndef PS_UI_TEXT_H
#define PS_UI_TEXT_H

#include <stdbool.h>
#include <stddef.h>

struct ps_pci_info;

/* -f's unit for the rates below: k m g t (bits), K M G T (bytes), or
 * 'a' / 0 for the screen's own choice */
void ui_text_set_format(char f);
/* "38.2 Gbit/s", "940 Mbit/s", "0 bit/s" (or in -f's unit) */
void ui_fmt_bps(char *buf, size_t len, double bps);
/* "38.2G", "940M", "12k", "0" (graph axis, cells) */
void ui_fmt_bps_short(char *buf, size_t len, double bps);
/* "1.2M", "64K", "900" (bytes, 1024-based) */
void ui_fmt_bytes_short(char *buf, size_t len, double bytes);
/* "45us", "1.2ms", "1.50s" */
void ui_fmt_usec(char *buf, size_t len, double us);
/* "2.5GT/s", "8GT/s" */
void ui_fmt_gts(char *buf, size_t len, double gts);
/*
 * The PCIe line of the NIC panel: "x8 8GT/s of x8 8GT/s", and when the
 * link trained below its capability "x1 5GT/s of x8 8GT/s — degraded"
 * ("--" without UTF-8); a narrower link upstream is added. When the link
 * was not read, the status and reason (translated).
 */
void ui_fmt_pcie(const struct ps_pci_info *pci, bool utf8, char *buf,
		 size_t len);
/* display width of a UTF-8 (or locale) string in columns */
int ui_text_width(const char *s);
/* in place, for a locale without UTF-8: the few signs the checks' texts
 * use in ASCII (x for the multiplication sign, -> >= <= ... -- - u),
 * never longer, rather than one '?' per byte */
void ui_text_ascii(char *s);
/* truncate s in place to at most cols columns (whole characters) */
void ui_text_clip(char *s, int cols);

#endif
