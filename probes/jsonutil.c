/* jsonutil.c: typed JSON values and the field tables that give a probe
 * group its JSON, its loader and its text from one description */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonutil.h"
#include "nls.h"
#include "xmalloc.h"

struct json_object *ps_json_fixed(double v, int decimals)
{
	char buf[64];

	if (v != v)
		v = 0;
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (!strcmp(buf, "-0.0") || !strcmp(buf, "-0") || !strcmp(buf, "-0.00"))
		snprintf(buf, sizeof(buf), "%.*f", decimals, 0.0);
	return json_object_new_double_s(v, buf);
}

/* ---- writers ---------------------------------------------------------- */

struct json_object *ps_jv_num(double v, int decimals)
{
	static const double scale[] = { 1,   1e1, 1e2, 1e3, 1e4,
					1e5, 1e6, 1e7, 1e8, 1e9 };

	if (!isfinite(v))
		return NULL;
	if (decimals >= 0 && decimals <= 9)
		v = round(v * scale[decimals]) / scale[decimals];
	return json_object_new_double(v);
}

struct json_object *ps_jv_int(int64_t v)
{
	return json_object_new_int64(v);
}

struct json_object *ps_jv_bool(bool v)
{
	return json_object_new_boolean(v);
}

struct json_object *ps_jv_str(const char *s)
{
	return json_object_new_string(s ? s : "");
}

struct json_object *ps_jv_str_known(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

static int raw_print(struct json_object *o, struct printbuf *pb, int level,
		     int flags)
{
	const char *t = json_object_get_userdata(o);

	(void)level;
	(void)flags;
	return printbuf_memappend(pb, t, (int)strlen(t));
}

static void raw_free(struct json_object *o, void *text)
{
	(void)o;
	free(text);
}

struct json_object *ps_jv_raw(const char *json)
{
	struct json_object *o = json_object_new_object();

	json_object_set_serializer(o, raw_print, xstrdup(json ? json : "null"),
				   raw_free);
	return o;
}

void ps_json_put_known(struct json_object *obj, const char *key,
		       struct json_object *v)
{
	if (v)
		json_object_object_add(obj, key, v);
}

void ps_json_put_int64(struct json_object *obj, const char *key, int64_t v)
{
	json_object_object_add(obj, key, json_object_new_int64(v));
}

void ps_json_put_uint64(struct json_object *obj, const char *key, uint64_t v)
{
	ps_json_put_int64(obj, key, v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

void ps_json_put_double(struct json_object *obj, const char *key, double v)
{
	json_object_object_add(obj, key, json_object_new_double(v));
}

void ps_json_put_bool(struct json_object *obj, const char *key, bool v)
{
	json_object_object_add(obj, key, json_object_new_boolean(v));
}

void ps_json_put_string(struct json_object *obj, const char *key, const char *s)
{
	json_object_object_add(obj, key, json_object_new_string(s ? s : ""));
}

static const char *enum_name(int v, const char *const *names)
{
	for (int k = 0; names && names[k]; k++)
		if (k == v)
			return names[k];
	return NULL;
}

void ps_json_put_enum(struct json_object *obj, const char *key, int v,
		      const char *const *names)
{
	const char *n = enum_name(v, names);

	if (n)
		ps_json_put_string(obj, key, n);
}

static void key_of(char *buf, size_t len, const char *prefix, const char *key)
{
	if (prefix && *prefix)
		snprintf(buf, len, "%s_%s", prefix, key);
	else
		snprintf(buf, len, "%s", key);
}

void ps_json_add_status(struct json_object *obj, const char *key_prefix,
			enum ps_status st, const char *reason)
{
	char key[64];

	key_of(key, sizeof(key), key_prefix, "status");
	ps_json_put_string(obj, key, ps_status_name(st));
	if (reason && *reason) {
		key_of(key, sizeof(key), key_prefix, "reason");
		ps_json_put_string(obj, key, reason);
	}
}

void ps_json_get_status(struct json_object *obj, const char *key_prefix,
			enum ps_status *st, char *reason, size_t len)
{
	char key[64], name[32];

	key_of(key, sizeof(key), key_prefix, "status");
	if (ps_json_get_string(obj, key, name, sizeof(name)))
		*st = PS_ST_NOT_RECORDED;
	else
		*st = ps_status_parse(name);
	key_of(key, sizeof(key), key_prefix, "reason");
	if (reason && len && ps_json_get_string(obj, key, reason, len))
		reason[0] = 0;
}

static void drop_nulls(struct json_object *o, int depth)
{
	if (depth > 64)
		return;
	if (json_object_is_type(o, json_type_object)) {
		struct json_object_iter it;
		const char *gone[64];
		size_t n;

		do {
			n = 0;
			json_object_object_foreachC(o, it)
			{
				if (!it.val && n < 64)
					gone[n++] = it.key;
				else
					drop_nulls(it.val, depth + 1);
			}
			for (size_t i = 0; i < n; i++)
				json_object_object_del(o, gone[i]);
		} while (n == 64);
	} else if (json_object_is_type(o, json_type_array)) {
		size_t n = json_object_array_length(o);

		for (size_t i = 0; i < n; i++)
			drop_nulls(json_object_array_get_idx(o, i), depth + 1);
	}
}

void ps_json_drop_nulls(struct json_object *o)
{
	drop_nulls(o, 0);
}

/* ---- getters: one type policy (jsonutil.h) ----------------------------- */

static int member(struct json_object *obj, const char *key,
		  struct json_object **v)
{
	if (!obj || !json_object_is_type(obj, json_type_object) ||
	    !json_object_object_get_ex(obj, key, v) || !*v)
		return -ENOENT;
	return 0;
}

static int val_int64(struct json_object *v, int64_t *out)
{
	if (!json_object_is_type(v, json_type_int))
		return -EINVAL;
	*out = json_object_get_int64(v);
	return 0;
}

static int val_uint64(struct json_object *v, uint64_t *out)
{
	if (!json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return -EINVAL;
	*out = json_object_get_uint64(v);
	return 0;
}

static int val_double(struct json_object *v, double *out)
{
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return -EINVAL;
	*out = json_object_get_double(v);
	return 0;
}

static int val_bool(struct json_object *v, bool *out)
{
	if (!json_object_is_type(v, json_type_boolean))
		return -EINVAL;
	*out = json_object_get_boolean(v);
	return 0;
}

static int val_string(struct json_object *v, char *buf, size_t len)
{
	if (!json_object_is_type(v, json_type_string))
		return -EINVAL;
	if (len)
		snprintf(buf, len, "%s", json_object_get_string(v));
	return 0;
}

static int val_enum(struct json_object *v, const char *const *names, int *out)
{
	const char *s;

	if (!json_object_is_type(v, json_type_string))
		return -EINVAL;
	s = json_object_get_string(v);
	for (int k = 0; names && names[k]; k++)
		if (!strcmp(s, names[k])) {
			*out = k;
			return 0;
		}
	return -EINVAL;
}

int ps_json_get_int64(struct json_object *obj, const char *key, int64_t *out)
{
	struct json_object *v;

	return member(obj, key, &v) ? -ENOENT : val_int64(v, out);
}

int ps_json_get_uint64(struct json_object *obj, const char *key, uint64_t *out)
{
	struct json_object *v;

	return member(obj, key, &v) ? -ENOENT : val_uint64(v, out);
}

int ps_json_get_int(struct json_object *obj, const char *key, int *out)
{
	int64_t v;
	int rc = ps_json_get_int64(obj, key, &v);

	if (rc)
		return rc;
	if (v < INT32_MIN || v > INT32_MAX)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

int ps_json_get_double(struct json_object *obj, const char *key, double *out)
{
	struct json_object *v;

	return member(obj, key, &v) ? -ENOENT : val_double(v, out);
}

int ps_json_get_bool(struct json_object *obj, const char *key, bool *out)
{
	struct json_object *v;

	return member(obj, key, &v) ? -ENOENT : val_bool(v, out);
}

int ps_json_get_string(struct json_object *obj, const char *key, char *buf,
		       size_t len)
{
	struct json_object *v;

	return member(obj, key, &v) ? -ENOENT : val_string(v, buf, len);
}

int ps_json_get_enum(struct json_object *obj, const char *key,
		     const char *const *names, int *out)
{
	struct json_object *v;

	return member(obj, key, &v) ? -ENOENT : val_enum(v, names, out);
}

struct json_object *ps_json_get_obj(struct json_object *obj, const char *key,
				    json_type type)
{
	struct json_object *v;

	if (member(obj, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

/* ---- integers of any width ---------------------------------------------- */

static int64_t rd_int(const void *p, size_t size)
{
	switch (size) {
	case 1:
		return *(const int8_t *)p;
	case 2:
		return *(const int16_t *)p;
	case 4:
		return *(const int32_t *)p;
	default:
		return *(const int64_t *)p;
	}
}

static uint64_t rd_uint(const void *p, size_t size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		return *(const uint16_t *)p;
	case 4:
		return *(const uint32_t *)p;
	default:
		return *(const uint64_t *)p;
	}
}

/* the low size bytes of v into the integer at p */
static void store(void *p, size_t size, uint64_t v)
{
	switch (size) {
	case 1:
		*(uint8_t *)p = (uint8_t)v;
		break;
	case 2:
		*(uint16_t *)p = (uint16_t)v;
		break;
	case 4:
		*(uint32_t *)p = (uint32_t)v;
		break;
	default:
		*(uint64_t *)p = v;
		break;
	}
}

/* store v if it fits a signed (or unsigned) integer of size bytes */
static int wr_int(void *p, size_t size, int64_t v)
{
	int64_t lo = size >= 8 ? INT64_MIN : -((int64_t)1 << (size * 8 - 1));
	int64_t hi = size >= 8 ? INT64_MAX : ((int64_t)1 << (size * 8 - 1)) - 1;

	if (v < lo || v > hi)
		return -ERANGE;
	store(p, size, (uint64_t)v);
	return 0;
}

static int wr_uint(void *p, size_t size, uint64_t v)
{
	if (size < 8 && v >> (size * 8))
		return -ERANGE;
	store(p, size, v);
	return 0;
}

static uint64_t all_ones(size_t size)
{
	return size >= 8 ? UINT64_MAX : ((uint64_t)1 << (size * 8)) - 1;
}

/* ---- tables: one value -------------------------------------------------- */

static bool not_reported(const struct ps_jfield *f, enum ps_jtype type,
			 size_t size, const void *p)
{
	switch (type) {
	case PS_JT_INT:
		return rd_int(p, size) == PS_NA;
	case PS_JT_UINT:
		return rd_uint(p, size) == all_ones(size);
	case PS_JT_DOUBLE:
		return isnan(*(const double *)p);
	case PS_JT_TRIBOOL:
		return *(const int *)p != 0 && *(const int *)p != 1;
	case PS_JT_STRING:
		return !*(const char *)p;
	case PS_JT_ENUM:
		return !enum_name(*(const int *)p, f->names);
	default:
		return false;
	}
}

/* PS_JF_POSITIVE: a value > 0 */
static bool positive(enum ps_jtype type, size_t size, const void *p)
{
	if (type == PS_JT_INT)
		return rd_int(p, size) > 0;
	if (type == PS_JT_UINT)
		return rd_uint(p, size) > 0;
	return true;
}

/* the entry is there for the struct at base (its .when) */
static bool present(const struct ps_jfield *f, const void *base)
{
	return !f->when || f->when(base);
}

static size_t count_of(const struct ps_jfield *f, const void *base)
{
	const char *p = (const char *)base + f->off2;
	/* a count is an int or unsigned (read as int: a negative is 0) or a
	 * size_t */
	int64_t n = f->size2 >= 8 ? (int64_t)(rd_uint(p, 8) & INT64_MAX)
				  : rd_int(p, f->size2);

	if (n < 0)
		return 0;
	if (f->max && (uint64_t)n > f->max)
		return f->max;
	return (size_t)n;
}

static const void *elems_of(const struct ps_jfield *f, const void *base)
{
	if (f->max)
		return (const char *)base + f->off;
	return *PS_JAT_C(base, f->off, void *const);
}

static struct json_object *value_of(const struct ps_jfield *f,
				    enum ps_jtype type, size_t size,
				    unsigned flags, const void *p);

static struct json_object *array_of(const struct ps_jfield *f, const void *base)
{
	struct json_object *a = json_object_new_array();
	size_t n = count_of(f, base);
	const char *v = elems_of(f, base);

	for (size_t k = 0; v && k < n; k++) {
		struct json_object *e =
			value_of(f, f->elem, f->elem_size,
				 f->flags & (PS_JF_FIXED | PS_JF_ROUND),
				 v + k * f->elem_size);

		json_object_array_add(a, e ? e : json_object_new_null());
	}
	return a;
}

/* the JSON of the value at p, or NULL when it is not to be written */
static struct json_object *value_of(const struct ps_jfield *f,
				    enum ps_jtype type, size_t size,
				    unsigned flags, const void *p)
{
	if ((flags & PS_JF_NA) && not_reported(f, type, size, p))
		return NULL;
	if ((flags & PS_JF_POSITIVE) && !positive(type, size, p))
		return NULL;
	switch (type) {
	case PS_JT_INT:
		return json_object_new_int64(rd_int(p, size));
	case PS_JT_UINT: {
		uint64_t v = rd_uint(p, size);

		return json_object_new_int64(v > INT64_MAX ? INT64_MAX
							   : (int64_t)v);
	}
	case PS_JT_DOUBLE:
		if (flags & PS_JF_ROUND)
			return ps_jv_num(*(const double *)p, f->decimals);
		return flags & PS_JF_FIXED
			       ? ps_json_fixed(*(const double *)p, f->decimals)
			       : json_object_new_double(*(const double *)p);
	case PS_JT_BOOL:
		return json_object_new_boolean(*(const bool *)p);
	case PS_JT_TRIBOOL:
		if (not_reported(f, type, size, p))
			return NULL;
		return json_object_new_boolean(*(const int *)p);
	case PS_JT_STRING:
		return json_object_new_string(p);
	case PS_JT_ENUM: {
		const char *n = enum_name(*(const int *)p, f->names);

		return n ? json_object_new_string(n) : NULL;
	}
	case PS_JT_OBJECT:
		return ps_jtable_to_json(f->sub, p);
	default:
		return NULL;
	}
}

static const struct ps_jfield *status_entry(const struct ps_jfield *t)
{
	for (; t && t->type != PS_JT_END; t++)
		if (t->type == PS_JT_STATUS)
			return t;
	return NULL;
}

enum ps_status ps_jtable_status(const struct ps_jfield *t, const void *base)
{
	const struct ps_jfield *s = status_entry(t);

	return s ? *PS_JAT_C(base, s->off, enum ps_status) : PS_ST_OK;
}

static void put_status(struct json_object *obj, const struct ps_jfield *f,
		       const void *base)
{
	enum ps_status st = *PS_JAT_C(base, f->off, enum ps_status);
	const char *reason = PS_JAT_C(base, f->off2, char);

	if (f->flags & PS_JF_NA) {
		ps_json_add_status(obj, NULL, st, reason);
		return;
	}
	ps_json_put_string(obj, "status", ps_status_name(st));
	ps_json_put_string(obj, "reason", reason);
}

void ps_jtable_put(struct json_object *obj, const struct ps_jfield *t,
		   const void *base)
{
	ps_jtable_put_n(obj, t, SIZE_MAX, base);
}

void ps_jtable_put_n(struct json_object *obj, const struct ps_jfield *t,
		     size_t n, const void *base)
{
	enum ps_status st = ps_jtable_status(t, base);

	for (const struct ps_jfield *f = t; f->type != PS_JT_END && n;
	     f++, n--) {
		struct json_object *v = NULL;

		if ((f->flags & PS_JF_INLINE) && present(f, base)) {
			ps_jtable_put(obj, f->sub, (const char *)base + f->off);
			continue;
		}
		if (!f->key || (f->flags & PS_JF_NOJSON) ||
		    ((f->flags & PS_JF_OK) && st != PS_ST_OK) ||
		    !present(f, base))
			continue;
		if (f->codec && f->codec->put) {
			f->codec->put(obj, f, base);
			continue;
		}
		switch (f->type) {
		case PS_JT_STATUS:
			put_status(obj, f, base);
			continue;
		case PS_JT_OBJECT:
			if ((f->flags & PS_JF_IFSET) &&
			    !*PS_JAT_C(base, f->off2, bool))
				continue;
			v = ps_jtable_to_json(f->sub,
					      (const char *)base + f->off);
			break;
		case PS_JT_ARRAY:
			if ((f->flags & PS_JF_NA) && !count_of(f, base))
				continue;
			v = array_of(f, base);
			break;
		default:
			v = value_of(f, f->type, f->size, f->flags,
				     (const char *)base + f->off);
			break;
		}
		if (v)
			json_object_object_add(obj, f->key, v);
	}
}

struct json_object *ps_jtable_to_json(const struct ps_jfield *t,
				      const void *base)
{
	struct json_object *o = json_object_new_object();

	ps_jtable_put(o, t, base);
	return o;
}

struct json_object *ps_jtable_array(const struct ps_jfield *t, const void *v,
				    size_t size, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; v && i < n; i++)
		json_object_array_add(
			a, ps_jtable_to_json(t, (const char *)v + i * size));
	return a;
}

/* ---- tables: loading ------------------------------------------------------
 */

/*
 * Load the JSON value v into the field at p; untouched when v does not fit.
 * 0, or -EINVAL when v is of another type or out of range (an ENUM: not a
 * string; an unknown name is no error); an OBJECT: -EINVAL when a required
 * entry inside failed.
 */
static int load_value(const struct ps_jfield *f, enum ps_jtype type,
		      size_t size, unsigned flags, struct json_object *v,
		      void *p)
{
	int64_t i;
	uint64_t u;
	double d;
	bool b;
	int e;

	switch (type) {
	case PS_JT_INT:
		if (val_int64(v, &i))
			return -EINVAL;
		if (((flags & PS_JF_POSITIVE) && i <= 0) ||
		    (f->max && f->type != PS_JT_ARRAY && i >= (int64_t)f->max))
			return 0;
		return wr_int(p, size, i) ? -EINVAL : 0;
	case PS_JT_UINT:
		if (val_uint64(v, &u))
			return -EINVAL;
		if (((flags & PS_JF_POSITIVE) && !u) ||
		    (f->max && f->type != PS_JT_ARRAY && u >= f->max))
			return 0;
		return wr_uint(p, size, u) ? -EINVAL : 0;
	case PS_JT_DOUBLE:
		if (val_double(v, &d))
			return -EINVAL;
		*(double *)p = d;
		return 0;
	case PS_JT_BOOL:
		if (val_bool(v, &b))
			return -EINVAL;
		*(bool *)p = b;
		return 0;
	case PS_JT_TRIBOOL:
		if (val_bool(v, &b))
			return -EINVAL;
		*(int *)p = b;
		return 0;
	case PS_JT_STRING:
		return val_string(v, p, size);
	case PS_JT_ENUM:
		if (!json_object_is_type(v, json_type_string))
			return -EINVAL;
		if (!val_enum(v, f->names, &e))
			*(int *)p = e;
		return 0;
	case PS_JT_OBJECT:
		return ps_jtable_load(json_object_is_type(v, json_type_object)
					      ? v
					      : NULL,
				      f->sub, p)
			       ? -EINVAL
			       : 0;
	default:
		return 0;
	}
}

static void load_array(const struct ps_jfield *f, struct json_object *a,
		       void *base)
{
	size_t n = json_object_array_length(a);
	size_t cap = f->max ? f->max : PS_JSON_ARRAY_MAX;
	char *v;

	if (n > cap)
		n = cap;
	if (f->max) {
		v = (char *)base + f->off;
	} else {
		free(*PS_JAT(base, f->off, void *));
		v = n ? xcalloc(n, f->elem_size) : NULL;
		*PS_JAT(base, f->off, void *) = v;
	}
	for (size_t k = 0; k < n; k++)
		load_value(f, f->elem, f->elem_size, 0,
			   json_object_array_get_idx(a, k),
			   v + k * f->elem_size);
	if (f->size2 >= 8)
		wr_uint((char *)base + f->off2, f->size2, n);
	else
		wr_int((char *)base + f->off2, f->size2, (int64_t)n);
}

/* the first entry of t that a missing object fails (an entry read only
 * when the table's status is ok does not, once that is not_recorded) */
static const struct ps_jfield *first_required(const struct ps_jfield *t,
					      const void *base)
{
	bool ok = ps_jtable_status(t, base) == PS_ST_OK;

	for (; t->type != PS_JT_END; t++)
		if ((t->flags & PS_JF_REQUIRED) &&
		    (ok || !(t->flags & PS_JF_OK)))
			return t;
	return NULL;
}

const struct ps_jfield *ps_jtable_load(struct json_object *obj,
				       const struct ps_jfield *t, void *base)
{
	return ps_jtable_load_n(obj, t, SIZE_MAX, base);
}

const struct ps_jfield *ps_jtable_load_n(struct json_object *obj,
					 const struct ps_jfield *t, size_t n,
					 void *base)
{
	const struct ps_jfield *bad = NULL;

	if (!obj || !json_object_is_type(obj, json_type_object)) {
		const struct ps_jfield *s = status_entry(t);

		if (s) {
			*PS_JAT(base, s->off, enum ps_status) =
				PS_ST_NOT_RECORDED;
			snprintf(PS_JAT(base, s->off2, char), s->size2, "%s",
				 _("not in the saved snapshot"));
		}
		return first_required(t, base);
	}
	for (const struct ps_jfield *f = t; f->type != PS_JT_END && n;
	     f++, n--) {
		struct json_object *v;
		int rc = 0;

		if ((f->flags & PS_JF_INLINE) && present(f, base)) {
			if (ps_jtable_load(obj, f->sub,
					   (char *)base + f->off) &&
			    !bad)
				bad = f;
			continue;
		}
		if (!f->key || (f->flags & PS_JF_NOJSON) ||
		    ((f->flags & PS_JF_OK) &&
		     ps_jtable_status(t, base) != PS_ST_OK) ||
		    !present(f, base))
			continue;
		if (f->load) {
			rc = f->load(obj, f, base);
			if (rc && !bad && (f->flags & PS_JF_REQUIRED))
				bad = f;
			continue;
		}
		if (f->codec && f->codec->get) {
			f->codec->get(obj, f, base);
			continue;
		}
		switch (f->type) {
		case PS_JT_STATUS:
			ps_json_get_status(
				obj, NULL, PS_JAT(base, f->off, enum ps_status),
				PS_JAT(base, f->off2, char), f->size2);
			break;
		case PS_JT_OBJECT:
			v = ps_json_get_obj(obj, f->key, json_type_object);
			if (f->flags & PS_JF_IFSET) {
				if (!v)
					break;
				*PS_JAT(base, f->off2, bool) = true;
			}
			if (ps_jtable_load(v, f->sub, (char *)base + f->off))
				rc = -EINVAL;
			break;
		case PS_JT_ARRAY:
			v = ps_json_get_obj(obj, f->key, json_type_array);
			if (v)
				load_array(f, v, base);
			else
				rc = -ENOENT;
			break;
		default:
			if (member(obj, f->key, &v))
				rc = -ENOENT;
			else
				rc = load_value(f, f->type, f->size, f->flags,
						v, (char *)base + f->off);
			break;
		}
		if (rc && !bad &&
		    ((f->flags & PS_JF_REQUIRED) ||
		     (f->type == PS_JT_OBJECT && rc == -EINVAL)))
			bad = f;
	}
	return bad;
}

void ps_jtable_get(struct json_object *obj, const struct ps_jfield *t,
		   void *base)
{
	ps_jtable_load(obj, t, base);
}

void ps_json_put_array(struct json_object *obj, const char *key,
		       enum ps_jtype et, size_t elem_size, const void *v,
		       size_t n)
{
	const struct ps_jfield f = { .key = key,
				     .elem = et,
				     .elem_size = elem_size };
	struct json_object *a = json_object_new_array();

	for (size_t k = 0; v && k < n; k++) {
		struct json_object *e = value_of(
			&f, et, elem_size, 0, (const char *)v + k * elem_size);

		json_object_array_add(a, e ? e : json_object_new_null());
	}
	json_object_object_add(obj, key, a);
}

int ps_json_get_array(struct json_object *obj, const char *key,
		      enum ps_jtype et, size_t elem_size, void *v, size_t max)
{
	const struct ps_jfield f = { .key = key };
	struct json_object *a;
	size_t n;

	if (member(obj, key, &a))
		return -ENOENT;
	if (!json_object_is_type(a, json_type_array))
		return -EINVAL;
	n = json_object_array_length(a);
	if (n > max)
		n = max;
	for (size_t k = 0; k < n; k++)
		load_value(&f, et, elem_size, 0,
			   json_object_array_get_idx(a, k),
			   (char *)v + k * elem_size);
	return (int)n;
}

/* ---- tables: text ---------------------------------------------------------
 */

bool ps_text_group(FILE *out, const char *title, enum ps_status st,
		   const char *reason)
{
	fprintf(out, "%s:", title);
	if (st == PS_ST_OK) {
		fputc('\n', out);
		return true;
	}
	fprintf(out, " %s", ps_status_text(st));
	if (reason && *reason)
		fprintf(out, " (%s)", reason);
	fputc('\n', out);
	return false;
}

static const char *bool_text(const struct ps_jfield *f, int v)
{
	if (f->texts)
		return _(f->texts[v ? 1 : 0]);
	return v ? _("on") : _("off");
}

static void value_text(FILE *out, const struct ps_jfield *f, enum ps_jtype type,
		       size_t size, const void *p)
{
	switch (type) {
	case PS_JT_INT:
		fprintf(out, "%" PRId64, rd_int(p, size));
		break;
	case PS_JT_UINT:
		fprintf(out, "%" PRIu64, rd_uint(p, size));
		break;
	case PS_JT_DOUBLE:
		if (f->flags & (PS_JF_FIXED | PS_JF_ROUND))
			fprintf(out, "%.*f", f->decimals, *(const double *)p);
		else
			fprintf(out, "%g", *(const double *)p);
		break;
	case PS_JT_BOOL:
		fputs(bool_text(f, *(const bool *)p), out);
		break;
	case PS_JT_TRIBOOL:
		fputs(bool_text(f, *(const int *)p), out);
		break;
	case PS_JT_STRING:
		fputs(p, out);
		break;
	case PS_JT_ENUM: {
		int v = *(const int *)p;

		fputs(f->texts ? _(f->texts[v]) : enum_name(v, f->names), out);
		break;
	}
	default:
		break;
	}
}

static void array_text(FILE *out, const struct ps_jfield *f, const void *base)
{
	size_t n = count_of(f, base);
	const char *v = elems_of(f, base);

	fprintf(out, "  %-*s", f->width ? f->width : 20, _(f->label));
	if (!n || !v)
		fprintf(out, " %s", f->na_text ? _(f->na_text) : _("none"));
	for (size_t k = 0; v && k < n; k++) {
		fputc(' ', out);
		value_text(out, f, f->elem, f->elem_size, v + k * f->elem_size);
	}
	fputc('\n', out);
}

void ps_jfield_print(FILE *out, const struct ps_jfield *f, const void *base)
{
	const void *p = (const char *)base + f->off;
	bool na;

	if (!present(f, base))
		return;
	if (f->codec && f->codec->print) {
		f->codec->print(out, f, base);
		return;
	}
	if (!f->label)
		return;
	if (f->type == PS_JT_ARRAY) {
		array_text(out, f, base);
		return;
	}
	na = not_reported(f, f->type, f->size, p) &&
	     (f->type == PS_JT_TRIBOOL || f->type == PS_JT_ENUM ||
	      (f->flags & PS_JF_NA));
	if (na && (f->flags & PS_JF_SKIPNA))
		return;
	fprintf(out, "  %-*s ", f->width ? f->width : 20, _(f->label));
	if (na)
		fputs(f->na_text ? _(f->na_text) : _("n/a"), out);
	else
		value_text(out, f, f->type, f->size, p);
	if (!na && f->unit)
		fprintf(out, " %s", _(f->unit));
	fputc('\n', out);
}

void ps_jtable_print(FILE *out, const struct ps_jfield *t, const void *base)
{
	for (const struct ps_jfield *f = t; f->type != PS_JT_END; f++) {
		const char *sub = (const char *)base + f->off;

		if ((f->flags & PS_JF_NOTEXT) || !present(f, base))
			continue;
		if (f->type == PS_JT_OBJECT && f->label) {
			const struct ps_jfield *s = status_entry(f->sub);

			if (ps_text_group(out, _(f->label),
					  ps_jtable_status(f->sub, sub),
					  s ? PS_JAT_C(sub, s->off2, char)
					    : NULL))
				ps_jtable_print(out, f->sub, sub);
			continue;
		}
		if (f->type == PS_JT_OBJECT)
			ps_jtable_print(out, f->sub, sub);
		else if (f->type != PS_JT_STATUS)
			ps_jfield_print(out, f, base);
	}
}
