/* jsonutil.h: the one serialisation layer of the probes: typed put/get of
 * JSON values, and field tables from which a probe group's JSON writer, its
 * loader and its text printer all come (as iproute2's print_*(PRINT_ANY)) */
#ifndef PS_JSONUTIL_H
#define PS_JSONUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "status.h"

/*
 * The conventions (doc/snapshot.md "Conventions" and "Not known"):
 *
 * - NOT REPORTED is "key absent", never null, in every document pipescope
 *   writes (snapshot, check report, history, compare, -J's pipescope
 *   object; iperf3's own keys keep iperf3's shape). A field that may be
 *   not reported holds PS_NA (integers, tri-state booleans, enums), ""
 *   (strings), NaN (doubles) or a count of 0 (arrays), and its table entry
 *   has PS_JF_NA (PS_JF_ROUND: not finite): the writer leaves the key out;
 *   outside tables, ps_json_put_known does. An array element not known is
 *   null (its position is its meaning). A field without PS_JF_NA is always
 *   written (e.g. PCIe's "0 = unknown" numbers). Loaders take null as
 *   missing.
 * - A part that can be empty says why with "status" (ps_status_name) and,
 *   when not empty, "reason"; a missing "status" loads as not_recorded, a
 *   missing group (object) as not_recorded "not in the saved snapshot".
 * - TYPE POLICY of every loader: an integer field accepts only a JSON
 *   integer that fits the field (an unsigned one only >= 0); a double
 *   accepts an integer or a double; a boolean only true/false; a string
 *   only a string; an enum only one of its names. A missing key or a value
 *   of another type is "not reported": the field keeps the value the
 *   caller initialised it with (PS_NA, 0, ""). Never a crash, never a
 *   partial string: strings are cut to their buffer.
 * - Keys are never translated; labels and units are N_() and printed
 *   translated.
 */

#define PS_NA (-1) /* an integer/enum/tri-state field that was not reported */

/* ---- typed values ---------------------------------------------------- */

/* a number printed with a fixed count of decimals, so that a loaded and
 * re-saved snapshot prints the same text */
struct json_object *ps_json_fixed(double v, int decimals);

/*
 * Values for json_object_object_add and json_object_array_add: the one set
 * of JSON helpers of every document (the snapshot, the check report, the
 * history, -J). NULL is "not known" (json-c writes null where it is added;
 * ps_json_put_known leaves the key out).
 */
#define PS_JV_EXACT (-1) /* ps_jv_num: not rounded */
/* v rounded to decimals places (0 to 9), or PS_JV_EXACT: as it is,
 * json-c's shortest round-trip form; NULL when v is not finite */
struct json_object *ps_jv_num(double v, int decimals);
struct json_object *ps_jv_int(int64_t v);
struct json_object *ps_jv_bool(bool v);
/* s, "" when NULL */
struct json_object *ps_jv_str(const char *s);
/* s, or NULL (not known) when s is NULL or "" */
struct json_object *ps_jv_str_known(const char *s);
/* a value written as this JSON text, which the caller made (a tree's own
 * text: never text from elsewhere unparsed); it reads as an empty object */
struct json_object *ps_jv_raw(const char *json);
/* obj[key] = v, or no key at all when v is NULL (not known) */
void ps_json_put_known(struct json_object *obj, const char *key,
		       struct json_object *v);
/* a document written when "not known" was null (a check report recorded
 * by pipescope 0.1): every member that is null left out, at any
 * depth (array elements stay: their position is their meaning); o may be
 * NULL */
void ps_json_drop_nulls(struct json_object *o);

/* writers: add obj[key] (an existing key is replaced) */
void ps_json_put_int64(struct json_object *obj, const char *key, int64_t v);
/* written as a JSON integer, clamped to INT64_MAX */
void ps_json_put_uint64(struct json_object *obj, const char *key, uint64_t v);
/* json-c's shortest round-trip form */
void ps_json_put_double(struct json_object *obj, const char *key, double v);
void ps_json_put_bool(struct json_object *obj, const char *key, bool v);
void ps_json_put_string(struct json_object *obj, const char *key,
			const char *s);
/* names[v] (names NULL-terminated); nothing when v is out of range */
void ps_json_put_enum(struct json_object *obj, const char *key, int v,
		      const char *const *names);

/* "status" (and "reason" when not empty) into obj */
void ps_json_add_status(struct json_object *obj, const char *key_prefix,
			enum ps_status st, const char *reason);
/* the reverse; a missing status is PS_ST_NOT_RECORDED */
void ps_json_get_status(struct json_object *obj, const char *key_prefix,
			enum ps_status *st, char *reason, size_t len);

/* typed getters: 0 when the key is there with the right type (the policy
 * above), else -ENOENT (missing) or -EINVAL (wrong type or out of range);
 * *out untouched on error */
int ps_json_get_int64(struct json_object *obj, const char *key, int64_t *out);
int ps_json_get_uint64(struct json_object *obj, const char *key, uint64_t *out);
int ps_json_get_int(struct json_object *obj, const char *key, int *out);
int ps_json_get_double(struct json_object *obj, const char *key, double *out);
int ps_json_get_bool(struct json_object *obj, const char *key, bool *out);
int ps_json_get_string(struct json_object *obj, const char *key, char *buf,
		       size_t len);
/* the index of obj[key] in names (NULL-terminated) */
int ps_json_get_enum(struct json_object *obj, const char *key,
		     const char *const *names, int *out);
/* an object member, or NULL when absent or not of that type */
struct json_object *ps_json_get_obj(struct json_object *obj, const char *key,
				    json_type type);

/* ---- field tables ---------------------------------------------------- */

enum ps_jtype {
	PS_JT_END = 0, /* ends a table */
	PS_JT_INT,     /* signed integer of .size bytes (1, 2, 4, 8) */
	PS_JT_UINT,    /* unsigned integer of .size bytes (8: clamped) */
	PS_JT_DOUBLE,  /* double */
	PS_JT_BOOL,    /* bool */
	PS_JT_TRIBOOL, /* int: 1, 0 or PS_NA; JSON true/false */
	PS_JT_STRING,  /* char[.size] */
	PS_JT_ENUM,    /* int: .names[v] in JSON, .texts[v] in text */
	PS_JT_STATUS, /* enum ps_status at .off, reason char[.size2] at .off2 */
	PS_JT_OBJECT, /* a JSON object .key holding .sub, same base */
	PS_JT_ARRAY,  /* .elem elements; count (unsigned or int) at .off2 */
	PS_JT_CUSTOM, /* only .codec (put/get/print) knows the shape */
};

/* flags */
#define PS_JF_NA 0x01	  /* may be not reported: key left out then */
#define PS_JF_OK 0x02	  /* written and loaded only when status is ok */
#define PS_JF_FIXED 0x04  /* DOUBLE: printed with .decimals decimals */
#define PS_JF_SKIPNA 0x08 /* text: no line at all when not reported */
#define PS_JF_NOJSON 0x10 /* text only (another entry carries the key) */
#define PS_JF_NOTEXT 0x20 /* JSON only (another entry prints it) */
#define PS_JF_IFSET 0x40  /* OBJECT: only while the bool at .off2 is true */
/* loading: a missing key or a value of another type fails ps_jtable_load
 * (an ENUM: not a string; an unknown name keeps the field as it is) */
#define PS_JF_REQUIRED 0x80
/* INT, UINT: only a value > 0 is reported (written, loaded) */
#define PS_JF_POSITIVE 0x100
/* DOUBLE: rounded to .decimals places (ps_jv_num); not finite is not
 * reported, a key left out (an array element: null) */
#define PS_JF_ROUND 0x200
/* OBJECT: its entries go into the object of the table that holds it (no
 * key of its own); with .when, a group of entries under one condition */
#define PS_JF_INLINE 0x400

struct ps_jfield;

/* the hooks of an entry whose shape no type covers; each may be NULL
 * (then that side does what the entry's .type says) */
struct ps_jcodec {
	void (*put)(struct json_object *obj, const struct ps_jfield *f,
		    const void *base);
	/* obj may be NULL (the group is missing) */
	void (*get)(struct json_object *obj, const struct ps_jfield *f,
		    void *base);
	void (*print)(FILE *out, const struct ps_jfield *f, const void *base);
};

struct ps_jfield {
	const char *key; /* JSON key (never translated), NULL: text only */
	enum ps_jtype type;
	unsigned flags;	     /* PS_JF_* */
	size_t off;	     /* offsetof(base struct, field) */
	size_t size;	     /* sizeof the field */
	const char *label;   /* N_("rx-usecs:"); NULL: not in the text */
	const char *unit;    /* N_("us") after the value; NULL: none */
	const char *na_text; /* N_() when not reported; NULL: "n/a" */
	int width;	     /* text: the label's column; 0: 20 */
	int decimals;	     /* PS_JF_FIXED, PS_JF_ROUND */
	/* PS_JT_ENUM: JSON names by value (NULL-terminated); PS_JT_ENUM,
	 * PS_JT_BOOL, PS_JT_TRIBOOL: N_() texts by value (NULL: the names,
	 * or "off"/"on") */
	const char *const *names;
	const char *const *texts;
	size_t off2, size2; /* STATUS: reason; ARRAY: its count */
	/* ARRAY: element type and size; .max elements inline at .off, or 0:
	 * a heap pointer at .off (the loader allocates it, at most
	 * PS_JSON_ARRAY_MAX elements; the probe's free releases it) */
	enum ps_jtype elem;
	size_t elem_size;
	/* ARRAY: as above; INT, UINT: when not 0, a loaded value >= max is
	 * not reported (the field keeps its value) */
	unsigned max;
	const struct ps_jfield *sub; /* OBJECT; ARRAY of PS_JT_OBJECT */
	const struct ps_jcodec *codec;
	const void *data; /* the codec's own (e.g. a second offset) */
	/* NULL, or: the entry is written, loaded and printed only while
	 * when(base) is true (base: the table's struct, as loaded so far) */
	bool (*when)(const void *base);
	/* PS_JF_REQUIRED, or an OBJECT holding such entries: N_() message
	 * of ps_jtable_load's caller when it fails */
	const char *bad;
	/* NULL, or the loader of a value whose shape no type covers, used
	 * instead of .codec->get: 0, or -EINVAL (malformed) / -ENOENT
	 * (missing), which fails a PS_JF_REQUIRED entry */
	int (*load)(struct json_object *obj, const struct ps_jfield *f,
		    void *base);
};

#define PS_JSON_ARRAY_MAX 65536

#define PS_JSIZE(T, m) sizeof(((T *)0)->m)

/* clang-format off */
/* one scalar field: PS_JFIELD(struct ps_x, member, "key", PS_JT_INT,
 * PS_JF_NA, N_("label:"), N_("unit")) */
#define PS_JFIELD(T, m, k, ty, fl, lbl, un)                                 \
	{ .key = (k), .type = (ty), .flags = (fl), .off = offsetof(T, m),     \
	  .size = PS_JSIZE(T, m), .label = (lbl), .unit = (un) }
/* "status" and "reason" of the table */
#define PS_JSTATUS(T, st, reason, fl)                                       \
	{ .key = "status", .type = PS_JT_STATUS, .flags = (fl),               \
	  .off = offsetof(T, st), .size = PS_JSIZE(T, st),                    \
	  .off2 = offsetof(T, reason), .size2 = PS_JSIZE(T, reason) }
/* an enum written as one of names[] */
#define PS_JENUM(T, m, k, fl, nm, tx, lbl)                                  \
	{ .key = (k), .type = PS_JT_ENUM, .flags = (fl),                      \
	  .off = offsetof(T, m), .size = PS_JSIZE(T, m), .names = (nm),       \
	  .texts = (tx), .label = (lbl) }
/* a JSON object of its own holding the fields of table sb for the
 * struct T.m (a member struct) */
#define PS_JSUB(T, m, k, fl, sb, lbl)                                       \
	{ .key = (k), .type = PS_JT_OBJECT, .flags = (fl),                    \
	  .off = offsetof(T, m), .size = PS_JSIZE(T, m), .sub = (sb),         \
	  .label = (lbl) }
/* a JSON object of its own holding the fields of table sb */
#define PS_JOBJECT(k, fl, sb, lbl)                                          \
	{ .key = (k), .type = PS_JT_OBJECT, .flags = (fl), .sub = (sb),       \
	  .label = (lbl) }
/* an object of its own that is there only while T.v is true (and
 * loading one sets T.v): e.g. rates, known after two samples; JSON only */
#define PS_JOBJECT_IF(T, v, k, sb)                                          \
	{ .key = (k), .type = PS_JT_OBJECT,                                   \
	  .flags = PS_JF_IFSET | PS_JF_NOTEXT, .sub = (sb),                   \
	  .off2 = offsetof(T, v), .size2 = PS_JSIZE(T, v) }
/* an array inline (T.m[N]) or behind a pointer (T.m *), count in T.n */
#define PS_JARRAY_IN(T, m, n, k, et, fl, sb)                                \
	{ .key = (k), .type = PS_JT_ARRAY, .flags = (fl),                     \
	  .off = offsetof(T, m), .size = PS_JSIZE(T, m),                      \
	  .off2 = offsetof(T, n), .size2 = PS_JSIZE(T, n), .elem = (et),      \
	  .elem_size = sizeof(*((T *)0)->m),                                  \
	  .max = sizeof(((T *)0)->m) / sizeof(*((T *)0)->m), .sub = (sb) }
#define PS_JARRAY_PTR(T, m, n, k, et, fl, sb)                               \
	{ .key = (k), .type = PS_JT_ARRAY, .flags = (fl),                     \
	  .off = offsetof(T, m), .size = PS_JSIZE(T, m),                      \
	  .off2 = offsetof(T, n), .size2 = PS_JSIZE(T, n), .elem = (et),      \
	  .elem_size = sizeof(*((T *)0)->m), .sub = (sb) }
#define PS_JEND { .type = PS_JT_END }
/* clang-format on */

/*
 * A plain array of n scalars (et: PS_JT_INT, PS_JT_UINT, PS_JT_DOUBLE,
 * PS_JT_BOOL, PS_JT_STRING) of elem_size bytes each at v, as obj[key].
 * The getter reads at most max elements into v, an element of another type
 * keeping its value (the type policy), and returns the count read, or
 * -ENOENT / -EINVAL (not an array).
 */
void ps_json_put_array(struct json_object *obj, const char *key,
		       enum ps_jtype et, size_t elem_size, const void *v,
		       size_t n);
int ps_json_get_array(struct json_object *obj, const char *key,
		      enum ps_jtype et, size_t elem_size, void *v, size_t max);

/* write every entry of t for the struct at base into obj */
void ps_jtable_put(struct json_object *obj, const struct ps_jfield *t,
		   const void *base);
/* a new array of n structs of size bytes each at v, each by table t */
struct json_object *ps_jtable_array(const struct ps_jfield *t, const void *v,
				    size_t size, size_t n);
/* only the first n entries of t (e.g. the columns a file has) */
void ps_jtable_put_n(struct json_object *obj, const struct ps_jfield *t,
		     size_t n, const void *base);
/* a new object holding ps_jtable_put's entries */
struct json_object *ps_jtable_to_json(const struct ps_jfield *t,
				      const void *base);
/*
 * Load every entry of t from obj into the struct at base, which the caller
 * has initialised to "not reported" (the type policy above). obj NULL or
 * not an object: the table's status is not_recorded ("not in the saved
 * snapshot") and nothing else changes.
 */
void ps_jtable_get(struct json_object *obj, const struct ps_jfield *t,
		   void *base);
/*
 * ps_jtable_get that also says whether every PS_JF_REQUIRED entry was
 * there with its type: NULL, or the first entry of t that failed (the
 * OBJECT entry when the failure is inside it; its .bad says what). obj
 * NULL or not an object fails at the first required entry (not at one
 * read only when the status is ok: that is not_recorded then).
 * ps_jtable_load_n: only the first n entries of t.
 */
const struct ps_jfield *ps_jtable_load(struct json_object *obj,
				       const struct ps_jfield *t, void *base);
const struct ps_jfield *ps_jtable_load_n(struct json_object *obj,
					 const struct ps_jfield *t, size_t n,
					 void *base);

/*
 * Text: one line per entry with a label, "  %-20s value[ unit]", value
 * "n/a" (or .na_text) when not reported; an OBJECT entry with a label is a
 * group (ps_text_group) followed by its own lines, one without a label
 * prints its lines in place.
 */
void ps_jtable_print(FILE *out, const struct ps_jfield *t, const void *base);
/* one line of a table: label and value, as ps_jtable_print writes it */
void ps_jfield_print(FILE *out, const struct ps_jfield *f, const void *base);
/* "title:" then, when st is not ok, " <status> (<reason>)"; true when ok */
bool ps_text_group(FILE *out, const char *title, enum ps_status st,
		   const char *reason);
/* the status of table t at base (its PS_JT_STATUS entry), or PS_ST_OK */
enum ps_status ps_jtable_status(const struct ps_jfield *t, const void *base);

/* a field of a table entry (its address at base + off) */
#define PS_JAT(base, off, type) ((type *)((char *)(base) + (off)))
#define PS_JAT_C(base, off, type) ((const type *)((const char *)(base) + (off)))

#endif
