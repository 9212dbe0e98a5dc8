/* jsonutil.c: the number format and "status"/"reason" pairs of the snapshot */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "jsonutil.h"

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
	json_object_object_add(obj, key,
			       json_object_new_string(ps_status_name(st)));
	if (reason && *reason) {
		key_of(key, sizeof(key), key_prefix, "reason");
		json_object_object_add(obj, key, json_object_new_string(reason));
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

static int member(struct json_object *obj, const char *key,
		  struct json_object **v)
{
	if (!obj || !json_object_is_type(obj, json_type_object) ||
	    !json_object_object_get_ex(obj, key, v) || !*v)
		return -ENOENT;
	return 0;
}

int ps_json_get_int64(struct json_object *obj, const char *key, int64_t *out)
{
	struct json_object *v;

	if (member(obj, key, &v))
		return -ENOENT;
	if (!json_object_is_type(v, json_type_int))
		return -EINVAL;
	*out = json_object_get_int64(v);
	return 0;
}

int ps_json_get_int(struct json_object *obj, const char *key, int *out)
{
	int64_t v;
	int rc = ps_json_get_int64(obj, key, &v);

	if (rc)
		return rc;
	if (v < -2147483647 - 1 || v > 2147483647)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

int ps_json_get_double(struct json_object *obj, const char *key, double *out)
{
	struct json_object *v;

	if (member(obj, key, &v))
		return -ENOENT;
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return -EINVAL;
	*out = json_object_get_double(v);
	return 0;
}

int ps_json_get_bool(struct json_object *obj, const char *key, bool *out)
{
	struct json_object *v;

	if (member(obj, key, &v))
		return -ENOENT;
	if (!json_object_is_type(v, json_type_boolean))
		return -EINVAL;
	*out = json_object_get_boolean(v);
	return 0;
}

int ps_json_get_string(struct json_object *obj, const char *key, char *buf,
		       size_t len)
{
	struct json_object *v;

	if (member(obj, key, &v))
		return -ENOENT;
	if (!json_object_is_type(v, json_type_string))
		return -EINVAL;
	snprintf(buf, len, "%s", json_object_get_string(v));
	return 0;
}

struct json_object *ps_json_get_obj(struct json_object *obj, const char *key,
				    json_type type)
{
	struct json_object *v;

	if (member(obj, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}
