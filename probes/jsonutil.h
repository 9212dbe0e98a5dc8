/* jsonutil.h: small json-c helpers the snapshot's JSON is written with */
#ifndef PS_JSONUTIL_H
#define PS_JSONUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "status.h"

/* a number printed with a fixed count of decimals, so that a loaded and
 * re-saved snapshot prints the same text */
struct json_object *ps_json_fixed(double v, int decimals);

/* "status" (and "reason" when not empty) into obj */
void ps_json_add_status(struct json_object *obj, const char *key_prefix,
			enum ps_status st, const char *reason);
/* the reverse; a missing status is PS_ST_NOT_RECORDED */
void ps_json_get_status(struct json_object *obj, const char *key_prefix,
			enum ps_status *st, char *reason, size_t len);

/* typed getters: 0 when the key is there with the right type, else -ENOENT
 * (missing) or -EINVAL (wrong type); *out untouched on error */
int ps_json_get_int64(struct json_object *obj, const char *key, int64_t *out);
int ps_json_get_int(struct json_object *obj, const char *key, int *out);
int ps_json_get_double(struct json_object *obj, const char *key, double *out);
int ps_json_get_bool(struct json_object *obj, const char *key, bool *out);
int ps_json_get_string(struct json_object *obj, const char *key, char *buf,
		       size_t len);
/* an object member, or NULL when absent or not of that type */
struct json_object *ps_json_get_obj(struct json_object *obj, const char *key,
				    json_type type);

#endif
