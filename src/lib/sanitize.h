/* sanitize.h: the one way a string from the far end or a recorded tree
 * (--sysroot, a snapshot file) becomes text for a terminal, a log or a
 * report: every byte a terminal would act on is made visible */
#ifndef PS_SANITIZE_H
#define PS_SANITIZE_H

#include <stddef.h>

/*
 * The rules: printable ASCII and valid UTF-8 of printable characters are
 * kept as they are. A C0 control (ESC included, so no escape sequence
 * survives) or DEL becomes "\xNN"; a C1 control (U+0080..U+009F) or a
 * character that reorders or breaks lines (U+2028, U+2029, U+202A..U+202E,
 * U+2066..U+2069) becomes "\uNNNN"; a byte that is not part of valid UTF-8
 * (overlong, surrogate, past U+10FFFF, cut short) becomes '?'. The result
 * never has more than cap - 1 bytes and is cut only between characters.
 * In a single-byte locale other than ASCII (ISO 8859-1...) the bytes
 * 0xa0..0xff are its characters and 0x80..0x9f its C1 controls ("\xNN");
 * in every other locale (UTF-8, C) the UTF-8 rules above hold.
 */
enum {
	PS_SAN_MULTILINE = 1 << 0, /* keep '\n' and '\t' (server output) */
	PS_SAN_SPACES = 1 << 1,	   /* '\n', '\r' and '\t' become ' ' */
	/* for markdown text: a backslash before \ ` * [ ] < > |, before an
	 * '_' not between two letters or digits and before a leading '#',
	 * so no link, HTML, code span, emphasis, table cell or heading */
	PS_SAN_MARKDOWN = 1 << 2,
};

/* write the safe form of s (NULL is "") into dst; returns dst */
char *ps_sanitize(char *dst, size_t cap, const char *s, unsigned flags);

/*
 * The same into one of PS_SAFE_SLOTS thread-local buffers of PS_SAFE_MAX
 * bytes, for printf arguments: at most PS_SAFE_SLOTS calls per statement.
 * 1024 holds a check's evidence (1023 bytes); every thread pays the 8 KiB.
 */
#define PS_SAFE_MAX 1024
#define PS_SAFE_SLOTS 8
const char *ps_safe(const char *s);
/* the same with PS_SAN_MARKDOWN, for untrusted text in markdown */
const char *ps_md_safe(const char *s);
/* the safe form of s as a whole markdown code span: `s`, or with a
 * longer run of backticks around it when s has some */
const char *ps_md_code(const char *s);

/* the same in a new xmalloc'ed string of at most max - 1 bytes */
char *ps_sanitize_dup(const char *s, size_t max, unsigned flags);

#endif
