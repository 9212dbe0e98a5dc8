/* probe-sysctl.c: the "TCP and socket settings" lines of "pipescope probe":
 * socket buffer limits, tcp_rmem/wmem, congestion control, default qdisc,
 * softirq budget and backlog, busy polling, read from /proc/sys */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "jsonutil.h"
#include "log.h"
#include "nls.h"
#include "probe-sysctl.h"
#include "probe.h"
#include "sysroot.h"
#include "xmalloc.h"

/* every setting: its id, name (the JSON key) and kind */
#define SYSCTLS(X)                                                             \
	X(RMEM_MAX, "net.core.rmem_max", INT)                                  \
	X(WMEM_MAX, "net.core.wmem_max", INT)                                  \
	X(RMEM_DEFAULT, "net.core.rmem_default", INT)                          \
	X(WMEM_DEFAULT, "net.core.wmem_default", INT)                          \
	X(TCP_RMEM, "net.ipv4.tcp_rmem", TRIPLE)                               \
	X(TCP_WMEM, "net.ipv4.tcp_wmem", TRIPLE)                               \
	X(TCP_CC, "net.ipv4.tcp_congestion_control", WORD)                     \
	X(TCP_CC_AVAILABLE, "net.ipv4.tcp_available_congestion_control",       \
	  WORDS)                                                               \
	X(DEFAULT_QDISC, "net.core.default_qdisc", WORD)                       \
	X(NETDEV_MAX_BACKLOG, "net.core.netdev_max_backlog", INT)              \
	X(NETDEV_BUDGET, "net.core.netdev_budget", INT)                        \
	X(NETDEV_BUDGET_USECS, "net.core.netdev_budget_usecs", INT)            \
	X(TCP_MTU_PROBING, "net.ipv4.tcp_mtu_probing", INT)                    \
	X(BUSY_POLL, "net.core.busy_poll", INT)                                \
	X(BUSY_READ, "net.core.busy_read", INT)                                \
	X(TCP_TIMESTAMPS, "net.ipv4.tcp_timestamps", INT)                      \
	X(TCP_SACK, "net.ipv4.tcp_sack", INT)                                  \
	X(TCP_WINDOW_SCALING, "net.ipv4.tcp_window_scaling", INT)              \
	X(TCP_ADV_WIN_SCALE, "net.ipv4.tcp_adv_win_scale", INT)                \
	X(RPS_SOCK_FLOW_ENTRIES, "net.core.rps_sock_flow_entries", INT)        \
	X(TCP_NOTSENT_LOWAT, "net.ipv4.tcp_notsent_lowat", INT)

#define NAME_KIND(id, name, kind) [PS_SYSCTL_##id] = { name, PS_SYSCTL_##kind },
static const struct {
	const char *name;
	enum ps_sysctl_kind kind;
} table[PS_SYSCTL_COUNT] = { SYSCTLS(NAME_KIND) };
#undef NAME_KIND

const char *ps_sysctl_name(enum ps_sysctl_id id)
{
	return (unsigned)id < PS_SYSCTL_COUNT ? table[id].name : "?";
}

enum ps_sysctl_kind ps_sysctl_kind(enum ps_sysctl_id id)
{
	return (unsigned)id < PS_SYSCTL_COUNT ? table[id].kind : PS_SYSCTL_INT;
}

long long ps_sysctl_get(const struct ps_sysctl_info *info, enum ps_sysctl_id id,
			long long dflt)
{
	const struct ps_sysctl_value *v;

	if ((unsigned)id >= PS_SYSCTL_COUNT)
		return dflt;
	v = &info->val[id];
	if (v->status != PS_ST_OK)
		return dflt;
	if (table[id].kind == PS_SYSCTL_INT)
		return v->v[0];
	if (table[id].kind == PS_SYSCTL_TRIPLE)
		return v->v[2];
	return dflt;
}

static int bad(struct ps_sysctl_value *out, const char *text)
{
	char shown[40];
	size_t n = 0;

	/* show the start of what was there, printable characters only */
	for (; text && text[n] && text[n] != '\n' && n < sizeof(shown) - 1; n++)
		shown[n] = isprint((unsigned char)text[n]) ? text[n] : '?';
	shown[n] = 0;
	out->status = PS_ST_ERROR;
	snprintf(out->reason, sizeof(out->reason),
		 _("unexpected content: '%s'"), shown);
	return -EINVAL;
}

int ps_sysctl_parse_value(enum ps_sysctl_id id, const char *text,
			  struct ps_sysctl_value *out)
{
	const char *p = text;
	int want, n = 0;

	memset(out, 0, sizeof(*out));
	if ((unsigned)id >= PS_SYSCTL_COUNT || !text)
		return bad(out, text);
	switch (table[id].kind) {
	case PS_SYSCTL_INT:
	case PS_SYSCTL_TRIPLE:
		want = table[id].kind == PS_SYSCTL_INT ? 1 : 3;
		for (;;) {
			char *end;

			while (*p == ' ' || *p == '\t')
				p++;
			if (!*p || *p == '\n')
				break;
			if (n == want)
				return bad(out, text);
			if (!isdigit((unsigned char)*p) && *p != '-')
				return bad(out, text);
			errno = 0;
			out->v[n] = strtoll(p, &end, 10);
			if (errno || end == p ||
			    (*end && !isspace((unsigned char)*end)))
				return bad(out, text);
			n++;
			p = end;
		}
		if (n != want)
			return bad(out, text);
		break;
	case PS_SYSCTL_WORD:
	case PS_SYSCTL_WORDS: {
		size_t len = 0;

		for (;;) {
			while (*p == ' ' || *p == '\t')
				p++;
			if (!*p || *p == '\n')
				break;
			if (n && table[id].kind == PS_SYSCTL_WORD)
				return bad(out, text);
			if (n) {
				if (len + 1 >= sizeof(out->text))
					return bad(out, text);
				out->text[len++] = ' ';
			}
			for (; *p && !isspace((unsigned char)*p); p++) {
				if (!isgraph((unsigned char)*p) ||
				    len + 1 >= sizeof(out->text))
					return bad(out, text);
				out->text[len++] = *p;
			}
			n++;
		}
		out->text[len] = 0;
		/* the available list may be empty; a single word may not */
		if (!n && table[id].kind == PS_SYSCTL_WORD)
			return bad(out, text);
		break;
	}
	}
	out->status = PS_ST_OK;
	return 0;
}

int ps_sysctl_sample(const char *ifname, struct ps_sysctl_info *out)
{
	int nok = 0, nrec = 0;

	memset(out, 0, sizeof(*out));
	for (int id = 0; id < PS_SYSCTL_COUNT; id++) {
		struct ps_sysctl_value *v = &out->val[id];
		char rel[128], *text, *s;
		int e;

		snprintf(rel, sizeof(rel), "/proc/sys/%s", table[id].name);
		for (s = rel + strlen("/proc/sys/"); *s; s++)
			if (*s == '.')
				*s = '/';
		text = ps_read_file(rel, NULL);
		if (text) {
			ps_sysctl_parse_value((enum ps_sysctl_id)id, text, v);
			free(text);
			nok += v->status == PS_ST_OK;
			continue;
		}
		e = errno;
		memset(v, 0, sizeof(*v));
		if (e == ENOENT && !ps_sysroot_is_live()) {
			v->status = PS_ST_NOT_RECORDED;
			snprintf(v->reason, sizeof(v->reason), "%s",
				 _("not in the recorded tree"));
			nrec++;
		} else if (e == ENOENT) {
			v->status = PS_ST_UNSUPPORTED;
			snprintf(v->reason, sizeof(v->reason), "%s",
				 _("this kernel has no such setting"));
		} else if (e == EACCES || e == EPERM) {
			v->status = PS_ST_NEEDS_ROOT;
			snprintf(v->reason, sizeof(v->reason), "%s",
				 _("readable only by root"));
		} else {
			v->status = PS_ST_ERROR;
			snprintf(v->reason, sizeof(v->reason),
				 _("cannot read it: %s"), ps_strerror(e));
		}
	}
	if (nok) {
		out->status = PS_ST_OK;
		return 0;
	}
	out->status =
		nrec == PS_SYSCTL_COUNT ? PS_ST_NOT_RECORDED : PS_ST_ERROR;
	snprintf(
		out->reason, sizeof(out->reason), "%s",
		nrec == PS_SYSCTL_COUNT
			? _("no /proc/sys/net files in the recorded tree")
			: _("no network setting could be read from /proc/sys"));
	return out->status == PS_ST_ERROR ? -EIO : 0;
}

void ps_sysctl_free(struct ps_sysctl_info *info)
{
	(void)info; /* nothing allocated */
}

/* ---- JSON: one object per setting, its "value" by kind ---- */

#define SV struct ps_sysctl_value

/* TRIPLE: [min, default, max] */
static void triple_put(struct json_object *obj, const struct ps_jfield *f,
		       const void *base)
{
	ps_json_put_array(obj, f->key, PS_JT_INT, sizeof(long long),
			  ((const SV *)base)->v, 3);
}

static int triple_load(struct json_object *obj, const struct ps_jfield *f,
		       void *base)
{
	struct json_object *a = ps_json_get_obj(obj, f->key, json_type_array);
	long long v[3];

	if (!a || json_object_array_length(a) != 3)
		return -EINVAL;
	for (size_t i = 0; i < 3; i++)
		if (!json_object_is_type(json_object_array_get_idx(a, i),
					 json_type_int))
			return -EINVAL;
	ps_json_get_array(obj, f->key, PS_JT_INT, sizeof(long long), v, 3);
	memcpy(((SV *)base)->v, v, sizeof(v));
	return 0;
}

/* WORD: one word */
static int word_load(struct json_object *obj, const struct ps_jfield *f,
		     void *base)
{
	SV *v = base;

	if (ps_json_get_string(obj, f->key, v->text, sizeof(v->text)) ||
	    strchr(v->text, ' ')) {
		v->text[0] = 0;
		return -EINVAL;
	}
	return 0;
}

/* WORDS: ["reno", "cubic"] for the text "reno cubic" */
static void words_put(struct json_object *obj, const struct ps_jfield *f,
		      const void *base)
{
	const SV *v = base;
	char buf[sizeof(v->text)], *save = NULL, *w;
	struct json_object *a = json_object_new_array();

	snprintf(buf, sizeof(buf), "%s", v->text);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		json_object_array_add(a, ps_jv_str(w));
	json_object_object_add(obj, f->key, a);
}

static int words_load(struct json_object *obj, const struct ps_jfield *f,
		      void *base)
{
	struct json_object *a = ps_json_get_obj(obj, f->key, json_type_array);
	SV *v = base;
	size_t len = 0;

	if (!a)
		return -EINVAL;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *n = json_object_array_get_idx(a, i);
		const char *w;
		size_t wl;

		if (!json_object_is_type(n, json_type_string))
			return -EINVAL;
		w = json_object_get_string(n);
		wl = strlen(w);
		if (!wl || strchr(w, ' ') || len + wl + 2 > sizeof(v->text))
			return -EINVAL;
		if (len)
			v->text[len++] = ' ';
		memcpy(v->text + len, w, wl + 1);
		len += wl;
	}
	return 0;
}

static const struct ps_jcodec triple_codec = { .put = triple_put };
static const struct ps_jcodec words_codec = { .put = words_put };

/* "value" is there, and required, when the setting was read */
/* clang-format off */
#define VALUE(ty, m, cod, ld)                                               \
	{ .key = "value", .type = (ty), .flags = PS_JF_OK | PS_JF_REQUIRED,   \
	  .off = offsetof(SV, m), .size = PS_JSIZE(SV, m), .codec = (cod),    \
	  .load = (ld) }
#define VALUE_TABLE(kind, ty, m, cod, ld)                                   \
	static const struct ps_jfield kind##_table[] = {                      \
		PS_JSTATUS(SV, status, reason, PS_JF_NA),                     \
		VALUE(ty, m, cod, ld), PS_JEND                                \
	};
/* clang-format on */
VALUE_TABLE(INT, PS_JT_INT, v[0], NULL, NULL)
VALUE_TABLE(TRIPLE, PS_JT_CUSTOM, v, &triple_codec, triple_load)
VALUE_TABLE(WORD, PS_JT_STRING, text, NULL, word_load)
VALUE_TABLE(WORDS, PS_JT_CUSTOM, text, &words_codec, words_load)

/* "values": {"net.core.rmem_max": {...}, ...} */
#define VALUE_ENTRY(id, name, kind)                                            \
	{ .key = (name),                                                       \
	  .type = PS_JT_OBJECT,                                                \
	  .sub = kind##_table,                                                 \
	  .off = offsetof(struct ps_sysctl_info, val[PS_SYSCTL_##id]),         \
	  .size = sizeof(SV) },
static const struct ps_jfield values_table[] = { SYSCTLS(VALUE_ENTRY) PS_JEND };

static const struct ps_jfield sysctl_table[] = {
	PS_JSTATUS(struct ps_sysctl_info, status, reason, PS_JF_NA),
	PS_JOBJECT("values", 0, values_table, NULL), PS_JEND
};

#undef VALUE_ENTRY
#undef VALUE_TABLE
#undef VALUE
#undef SV

struct json_object *ps_sysctl_to_json(const struct ps_sysctl_info *info)
{
	return ps_jtable_to_json(sysctl_table, info);
}

int ps_sysctl_from_json(struct json_object *obj, struct ps_sysctl_info *out)
{
	memset(out, 0, sizeof(*out));
	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	/* an older snapshot without a setting (or without "values") */
	for (int id = 0; id < PS_SYSCTL_COUNT; id++)
		out->val[id].status = PS_ST_NOT_RECORDED;
	if (!ps_jtable_load(obj, sysctl_table, out))
		return 0;
	memset(out, 0, sizeof(*out));
	out->status = PS_ST_ERROR;
	snprintf(out->reason, sizeof(out->reason), "%s",
		 _("the snapshot's sysctl section is malformed"));
	return -EINVAL;
}

/* ---- text ---- */

/* "4194304 (4 MiB)" style: the number as set, and a readable size */
static void fmt_bytes(char *buf, size_t len, long long v)
{
	if (v >= 1024LL * 1024 && v % (1024LL * 1024) == 0)
		snprintf(buf, len, "%lld MiB", v / (1024 * 1024));
	else if (v >= 1024LL * 1024)
		snprintf(buf, len, "%.1f MiB", (double)v / (1024 * 1024));
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(buf, len, "%lld KiB", v / 1024);
	else
		snprintf(buf, len, "%lld", v);
}

static void fmt_value(char *buf, size_t len, const struct ps_sysctl_info *info,
		      enum ps_sysctl_id id, int bytes)
{
	const struct ps_sysctl_value *v = &info->val[id];
	char a[32], b[32], c[32];

	if (v->status != PS_ST_OK) {
		snprintf(buf, len, "-"); /* the reason follows below */
		return;
	}
	switch (table[id].kind) {
	case PS_SYSCTL_INT:
		if (bytes)
			fmt_bytes(buf, len, v->v[0]);
		else
			snprintf(buf, len, "%lld", v->v[0]);
		return;
	case PS_SYSCTL_TRIPLE:
		fmt_bytes(a, sizeof(a), v->v[0]);
		fmt_bytes(b, sizeof(b), v->v[1]);
		fmt_bytes(c, sizeof(c), v->v[2]);
		snprintf(buf, len, "%s %s %s", a, b, c);
		return;
	default:
		snprintf(buf, len, "%s", *v->text ? v->text : "-");
		return;
	}
}

/* "name value" for the text, the name without its "net.core." */
static void item(FILE *out, const struct ps_sysctl_info *info,
		 enum ps_sysctl_id id, bool bytes, const char *sep)
{
	const char *name = strrchr(table[id].name, '.') + 1;
	char val[300];

	fmt_value(val, sizeof(val), info, id, bytes);
	fprintf(out, "%s%s %s", sep, name, val);
}

void ps_sysctl_print(FILE *out, const struct ps_sysctl_info *info)
{
	const struct ps_sysctl_value *av =
		&info->val[PS_SYSCTL_TCP_CC_AVAILABLE];
	bool any_missing = false;

	if (info->status != PS_ST_OK) {
		fprintf(out, "  %s: %s\n", ps_status_text(info->status),
			info->reason);
		return;
	}
	fputc(' ', out);
	item(out, info, PS_SYSCTL_RMEM_MAX, true, " ");
	item(out, info, PS_SYSCTL_WMEM_MAX, true, "  ");
	item(out, info, PS_SYSCTL_RMEM_DEFAULT, true, "  ");
	item(out, info, PS_SYSCTL_WMEM_DEFAULT, true, "  ");
	fputs("\n ", out);
	item(out, info, PS_SYSCTL_TCP_RMEM, true, " ");
	item(out, info, PS_SYSCTL_TCP_WMEM, true, "  ");
	fputs("\n ", out);
	item(out, info, PS_SYSCTL_TCP_CC, false, " ");
	if (av->status == PS_ST_OK)
		fprintf(out, " (%s: %s)", _("available"), av->text);
	item(out, info, PS_SYSCTL_DEFAULT_QDISC, false, "  ");
	fputs("\n ", out);
	item(out, info, PS_SYSCTL_NETDEV_MAX_BACKLOG, false, " ");
	item(out, info, PS_SYSCTL_NETDEV_BUDGET, false, "  ");
	item(out, info, PS_SYSCTL_NETDEV_BUDGET_USECS, false, "  ");
	fputs("\n ", out);
	item(out, info, PS_SYSCTL_BUSY_POLL, false, " ");
	item(out, info, PS_SYSCTL_BUSY_READ, false, "  ");
	item(out, info, PS_SYSCTL_TCP_MTU_PROBING, false, "  ");
	item(out, info, PS_SYSCTL_TCP_ADV_WIN_SCALE, false, "  ");
	fputs("\n ", out);
	item(out, info, PS_SYSCTL_TCP_TIMESTAMPS, false, " ");
	item(out, info, PS_SYSCTL_TCP_SACK, false, "  ");
	item(out, info, PS_SYSCTL_TCP_WINDOW_SCALING, false, "  ");
	fputs("\n ", out);
	item(out, info, PS_SYSCTL_RPS_SOCK_FLOW_ENTRIES, false, " ");
	item(out, info, PS_SYSCTL_TCP_NOTSENT_LOWAT, false, "  ");
	fputc('\n', out);
	for (int id = 0; id < PS_SYSCTL_COUNT; id++)
		if (info->val[id].status != PS_ST_OK)
			any_missing = true;
	if (!any_missing)
		return;
	for (int id = 0; id < PS_SYSCTL_COUNT; id++)
		if (info->val[id].status != PS_ST_OK)
			fprintf(out, "  %s: %s\n", table[id].name,
				info->val[id].reason);
}

/* the probe "pipescope probe" runs (probe.h), in PS_PROBE_LIST */
PS_PROBE_GLUE(sysctl)

/* clang-format would pack a list that starts with a macro */
/* clang-format off */
const struct ps_probe_ops ps_sysctl_ops = {
	PS_PROBE_OPS(sysctl),
	.title = N_("TCP and socket settings"),
};
/* clang-format on */
