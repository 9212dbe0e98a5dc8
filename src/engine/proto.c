/* proto.c: the bytes pipescope and iperf3 exchange on the control connection */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "jsonutil.h"
#include "net.h"
#include "nls.h"
#include "proto.h"
#include "xmalloc.h"

void ps_make_cookie(char cookie[PS_COOKIE_SIZE])
{
	static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
	unsigned char rnd[PS_COOKIE_SIZE - 1];

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		for (size_t i = 0; i < sizeof(rnd); i++)
			rnd[i] = (unsigned char)random();
	}
	for (int i = 0; i < PS_COOKIE_SIZE - 1; i++)
		cookie[i] = alphabet[rnd[i] % 32];
	cookie[PS_COOKIE_SIZE - 1] = 0;
}

int ps_send_state(int fd, signed char state)
{
	return ps_write_full(fd, &state, 1);
}

int ps_recv_state(int fd, signed char *state, int timeout_ms)
{
	return ps_read_full(fd, state, 1, timeout_ms);
}

int ps_send_json(int fd, struct json_object *obj)
{
	const char *s =
		json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN);
	size_t len = strlen(s);
	uint32_t nlen = htonl((uint32_t)len);
	char *buf = xmalloc(len + 4);
	int rc;

	memcpy(buf, &nlen, 4);
	memcpy(buf + 4, s, len);
	rc = ps_write_full(fd, buf, len + 4);
	free(buf);
	return rc;
}

/*
 * The limits, from the largest real messages (measured with a 256-CPU
 * snapshot whose NIC has 256 queue interrupts, and -P 128 --bidir) and a
 * margin; a message at every limit at once keeps either end under 64 MiB.
 * EXT_PROBE: 1.5 MB, 158558 values, 1870 containers. Results: 43 KB,
 * 5388 values, 258 containers, plus --get-server-output's text (one
 * string, cut to PS_MAX_SERVER_OUTPUT). EXT_DATA: 44 KB, 5384 values,
 * 258 containers.
 */
const struct ps_json_limit ps_lim_results = {
	.bytes = PS_MAX_RESULTS_JSON,
	.values = PS_MAX_RESULTS_JSON / 128 + 256,
	.containers = PS_MAX_RESULTS_JSON / 2048 + 16,
};
const struct ps_json_limit ps_lim_ext_data = {
	.bytes = 512 * 1024,
	.values = 32768,
	.containers = 2048,
};
const struct ps_json_limit ps_lim_probe = {
	.bytes = 4 * 1024 * 1024,
	.values = 327680,
	.containers = 4096,
};
const struct ps_json_limit ps_lim_ack = {
	.bytes = PS_MAX_PARAMS_JSON,
	.values = 256,
	.containers = 16,
};

int ps_recv_state_stop(int fd, signed char *state, int timeout_ms,
		       atomic_bool *stop)
{
	return ps_read_full_stop(fd, state, 1, timeout_ms, stop);
}

/*
 * Count what json-c would build before it builds it: every '{' and '['
 * is a container, every ',' and ':' outside strings one more value (a
 * member or an element), which bounds the objects, keys and array slots.
 */
int ps_json_within(const char *s, size_t len, const struct ps_json_limit *lim,
		   struct ps_json_limit *used)
{
	uint32_t values = 0, containers = 0;
	bool in_str = false;

	for (size_t i = 0; i < len; i++) {
		char ch = s[i];

		if (in_str) {
			if (ch == '\\')
				i++;
			else if (ch == '"')
				in_str = false;
			continue;
		}
		if (ch == '"') {
			in_str = true;
		} else if (ch == '{' || ch == '[') {
			containers++;
			values++;
		} else if (ch == ',' || ch == ':') {
			values++;
		}
		if (values > lim->values || containers > lim->containers)
			return -E2BIG;
	}
	if (used) {
		used->bytes = (uint32_t)len;
		used->values = values;
		used->containers = containers;
	}
	return 0;
}

int ps_json_parse_lim(const char *buf, size_t len,
		      const struct ps_json_limit *lim, struct json_object **obj)
{
	struct json_tokener *tok;
	int rc;

	*obj = NULL;
	if (len == 0 || len > lim->bytes || len > INT_MAX)
		return -EMSGSIZE;
	rc = ps_json_within(buf, len, lim, NULL);
	if (rc)
		return rc;
	tok = json_tokener_new_ex(32); /* nesting depth bound */
	if (!tok)
		return -ENOMEM;
	*obj = json_tokener_parse_ex(tok, buf, (int)len);
	if (json_tokener_get_error(tok) != json_tokener_success || !*obj ||
	    !json_object_is_type(*obj, json_type_object)) {
		json_object_put(*obj);
		*obj = NULL;
		rc = -EBADMSG;
	}
	json_tokener_free(tok);
	return rc;
}

/* a message's length, within the limit's bytes */
static int recv_len(int fd, const struct ps_json_limit *lim, int timeout_ms,
		    atomic_bool *stop, uint32_t *len)
{
	uint32_t nlen;
	int rc = ps_read_full_stop(fd, &nlen, 4, timeout_ms, stop);

	if (rc)
		return rc;
	*len = ntohl(nlen);
	if (*len == 0 || *len > lim->bytes)
		return -EMSGSIZE;
	return 0;
}

int ps_recv_json_lim(int fd, struct json_object **obj,
		     const struct ps_json_limit *lim, int timeout_ms,
		     atomic_bool *stop)
{
	uint32_t len;
	char *buf;
	int rc;

	*obj = NULL;
	rc = recv_len(fd, lim, timeout_ms, stop, &len);
	if (rc)
		return rc;
	buf = xmalloc(len + 1);
	rc = ps_read_full_stop(fd, buf, len, timeout_ms, stop);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[len] = 0;
	rc = ps_json_parse_lim(buf, len, lim, obj);
	free(buf);
	return rc;
}

int ps_recv_skip_lim(int fd, const struct ps_json_limit *lim, int timeout_ms,
		     atomic_bool *stop)
{
	char buf[16384];
	uint32_t len;
	int rc = recv_len(fd, lim, timeout_ms, stop, &len);

	while (len && !rc) {
		uint32_t n = len < sizeof(buf) ? len : (uint32_t)sizeof(buf);

		rc = ps_read_full_stop(fd, buf, n, timeout_ms, stop);
		len -= n;
	}
	return rc;
}

int ps_recv_json(int fd, struct json_object **obj, uint32_t max, int timeout_ms)
{
	/*
	 * In proportion: a value per 128 bytes, a container per 2 KiB (long
	 * strings cost little, many values much); PS_MAX_RESULTS_JSON gives
	 * ps_lim_results, PS_MAX_PARAMS_JSON 320 values (real: 40)
	 */
	struct ps_json_limit lim = {
		.bytes = max,
		.values = max / 128 + 256,
		.containers = max / 2048 + 16,
	};

	return ps_recv_json_lim(fd, obj, &lim, timeout_ms, NULL);
}

const char *ps_proto_strerror(int rc)
{
	switch (rc) {
	case -EMSGSIZE:
		return _("the message is larger than pipescope accepts");
	case -E2BIG:
		return _("the message holds more JSON values than pipescope "
			 "accepts");
	case -EBADMSG:
		return _("the message is not a JSON object");
	case -EPIPE:
		return _("the connection was closed");
	case -EINTR:
		return _("interrupted");
	}
	return strerror(-rc);
}

/* -1 written as 18446744073709551615: iperf3 before 3.14 did that */
static bool unsigned_minus_one(struct json_object *obj)
{
	return json_object_is_type(obj, json_type_int) &&
	       json_object_get_int64(obj) == INT64_MAX &&
	       json_object_get_uint64(obj) == UINT64_MAX;
}

int64_t ps_json_int(struct json_object *obj)
{
	if (!obj)
		return 0;
	if (json_object_is_type(obj, json_type_int)) {
		int64_t v = json_object_get_int64(obj);

		if (v == INT64_MAX && json_object_get_uint64(obj) == UINT64_MAX)
			return -1;
		return v;
	}
	if (json_object_is_type(obj, json_type_double)) {
		double d = json_object_get_double(obj);

		/* NaN, ±Infinity and 1e300 would not fit: clamp, don't overflow
		 */
		if (isnan(d))
			return 0;
		if (d >= 9.2e18)
			return INT64_MAX;
		if (d <= -9.2e18)
			return INT64_MIN;
		return (int64_t)d;
	}
	if (json_object_is_type(obj, json_type_boolean))
		return json_object_get_boolean(obj);
	return 0;
}

static void add_true(struct json_object *o, const char *k, bool v)
{
	if (v)
		json_object_object_add(o, k, json_object_new_boolean(1));
}

/* iperf3 sends these flags as the number 1, and a 3.17+ server ignores
 * a boolean (its reader asks for a cJSON_Number) */
static void add_one(struct json_object *o, const char *k, bool v)
{
	if (v)
		ps_json_put_int64(o, k, 1);
}

struct json_object *ps_params_to_json(const struct ps_params *p)
{
	struct json_object *o = json_object_new_object();

	add_true(o, p->proto == PS_PROTO_UDP ? "udp" : "tcp", true);
	ps_json_put_int64(o, "omit", p->omit);
	if (p->server_affinity >= 0)
		ps_json_put_int64(o, "server_affinity", p->server_affinity);
	ps_json_put_int64(o, "time", (int64_t)p->duration);
	ps_json_put_int64(o, "num", (int64_t)p->bytes);
	ps_json_put_int64(o, "blockcount", (int64_t)p->blocks);
	if (p->mss)
		ps_json_put_int64(o, "MSS", p->mss);
	add_true(o, "nodelay", p->nodelay);
	ps_json_put_int64(o, "parallel", p->parallel);
	add_true(o, "reverse", p->reverse);
	add_true(o, "bidirectional", p->bidir);
	if (p->window)
		ps_json_put_int64(o, "window", (int64_t)p->window);
	if (p->len) /* 0: the default, which the reader picks */
		ps_json_put_int64(o, "len", p->len);
	if (p->rate)
		ps_json_put_int64(o, "bandwidth", (int64_t)p->rate);
	if (p->fq_rate)
		ps_json_put_int64(o, "fqrate", (int64_t)p->fq_rate);
	ps_json_put_int64(o, "pacing_timer", 1000);
	if (p->burst)
		ps_json_put_int64(o, "burst", p->burst);
	if (p->tos >= 0)
		ps_json_put_int64(o, "TOS", p->tos);
	if (p->proto == PS_PROTO_UDP) {
		/* as iperf3 3.21: always, 0 unless --gsro; a datagram size and
		 * a buffer of whole datagrams */
		uint32_t dg = p->iperf_gsro ? p->len : 0;

		ps_json_put_int64(o, "gso", p->iperf_gsro);
		ps_json_put_int64(o, "gso_dg_size", dg);
		ps_json_put_int64(o, "gso_bf_size",
				  dg ? PS_MAX_UDP_LEN / dg * dg
				     : PS_MAX_UDP_LEN);
		ps_json_put_int64(o, "gro", p->iperf_gsro);
		ps_json_put_int64(o, "gro_bf_size", PS_MAX_UDP_LEN);
	}
	ps_json_put_known(o, "title", ps_jv_str_known(p->title));
	ps_json_put_known(o, "extra_data", ps_jv_str_known(p->extra_data));
	ps_json_put_known(o, "congestion", ps_jv_str_known(p->congestion));
	add_one(o, "get_server_output", p->get_server_output);
	add_one(o, "udp_counters_64bit", p->udp64);
	add_one(o, "repeating_payload", p->repeating_payload);
	add_one(o, "zerocopy", p->zerocopy);
	add_one(o, "skip_rx_copy", p->skip_rx_copy);
	add_one(o, "dont_fragment", p->dont_fragment);
	json_object_object_add(o, "client_version",
			       json_object_new_string(p->client_version));
	if (p->authtoken[0])
		json_object_object_add(o, "authtoken",
				       json_object_new_string(p->authtoken));
	if (p->ps_ext) {
		struct json_object *x = json_object_new_object();

		ps_json_put_int64(x, "ext", PS_EXT_VERSION);
		add_true(x, "gsro", p->gsro);
		if (p->ps_len)
			ps_json_put_int64(x, "len", p->ps_len);
		add_true(x, "probes", p->peer_probes);
		if (p->boot_id[0])
			json_object_object_add(
				x, "boot_id",
				json_object_new_string(p->boot_id));
		json_object_object_add(o, "pipescope", x);
	}
	return o;
}

/* type-checked getters: a wrong type is an error, absent is the default */
static int get_num(struct json_object *o, const char *k, int64_t min,
		   int64_t max, int64_t *out, char *err, size_t errlen)
{
	struct json_object *v;
	int64_t n;

	if (!json_object_object_get_ex(o, k, &v))
		return 0;
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double)) {
		snprintf(err, errlen, _("parameter '%s' is not a number"), k);
		return -EINVAL;
	}
	n = ps_json_int(v);
	if (n < min || n > max) {
		snprintf(err, errlen, _("parameter '%s' is out of range: %lld"),
			 k, (long long)n);
		return -EINVAL;
	}
	*out = n;
	return 0;
}

static bool get_bool(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v))
		return false;
	if (json_object_is_type(v, json_type_boolean))
		return json_object_get_boolean(v);
	if (json_object_is_type(v, json_type_int))
		return json_object_get_int64(v) != 0;
	return false;
}

static void get_str(struct json_object *o, const char *k, char *buf, size_t len)
{
	struct json_object *v;

	buf[0] = 0;
	if (json_object_object_get_ex(o, k, &v) &&
	    json_object_is_type(v, json_type_string))
		snprintf(buf, len, "%s", json_object_get_string(v));
}

int ps_params_from_json(struct json_object *o, struct ps_params *p, char *err,
			size_t errlen)
{
	int64_t v;
	struct json_object *x;

	memset(p, 0, sizeof(*p));
	p->tos = -1;
	p->server_affinity = -1;
	p->parallel = 1;
	if (get_bool(o, "udp"))
		p->proto = PS_PROTO_UDP;
	else if (get_bool(o, "sctp")) {
		snprintf(err, errlen, _("SCTP is not supported"));
		return -EINVAL;
	}
#define NUM(key, min, max, field)                                              \
	do {                                                                   \
		v = (int64_t)p->field;                                         \
		if (get_num(o, key, min, max, &v, err, errlen))                \
			return -EINVAL;                                        \
		p->field = v;                                                  \
	} while (0)
	NUM("omit", 0, PS_MAX_OMIT, omit);
	NUM("time", 0, PS_MAX_DURATION, duration);
	NUM("num", 0, INT64_MAX, bytes);
	NUM("blockcount", 0, INT64_MAX, blocks);
	NUM("parallel", 1, PS_MAX_STREAMS, parallel);
	NUM("window", 0, PS_MAX_WINDOW, window);
	NUM("len", 1, PS_MAX_TCP_LEN, len); /* absent: the default */
	NUM("bandwidth", 0, INT64_MAX, rate);
	NUM("fqrate", 0, INT64_MAX, fq_rate);
	NUM("burst", 0, 1000, burst);
	NUM("MSS", 0, PS_MAX_MSS, mss);
	NUM("TOS", -1, 255, tos);
	NUM("server_affinity", -1, 4095, server_affinity);
#undef NUM
	p->reverse = get_bool(o, "reverse");
	p->bidir = get_bool(o, "bidirectional");
	p->nodelay = get_bool(o, "nodelay");
	p->get_server_output = get_bool(o, "get_server_output");
	p->udp64 = get_bool(o, "udp_counters_64bit");
	p->zerocopy = get_bool(o, "zerocopy");
	p->skip_rx_copy = get_bool(o, "skip_rx_copy");
	p->repeating_payload = get_bool(o, "repeating_payload");
	p->dont_fragment = get_bool(o, "dont_fragment");
	p->iperf_gsro = get_bool(o, "gso") || get_bool(o, "gro");
	get_str(o, "title", p->title, sizeof(p->title));
	get_str(o, "extra_data", p->extra_data, sizeof(p->extra_data));
	get_str(o, "congestion", p->congestion, sizeof(p->congestion));
	get_str(o, "client_version", p->client_version,
		sizeof(p->client_version));
	get_str(o, "authtoken", p->authtoken, sizeof(p->authtoken));
	if (p->reverse && p->bidir) {
		snprintf(err, errlen, _("reverse and bidirectional together"));
		return -EINVAL;
	}
	if (p->proto == PS_PROTO_UDP && p->len > PS_MAX_UDP_LEN) {
		snprintf(err, errlen, _("UDP length %u is too large"), p->len);
		return -EINVAL;
	}
	/* a datagram carries a 16-byte header (time, 64-bit counter) */
	if (p->proto == PS_PROTO_UDP && p->len && p->len < PS_MIN_UDP_LEN) {
		snprintf(err, errlen,
			 _("UDP length %u is too small (at least %d)"), p->len,
			 PS_MIN_UDP_LEN);
		return -EINVAL;
	}
	if (json_object_object_get_ex(o, "pipescope", &x) &&
	    json_object_is_type(x, json_type_object)) {
		struct json_object *ver, *v2;

		p->ps_ext = true;
		p->ps_ext_version = json_object_object_get_ex(x, "ext", &ver)
					    ? json_object_get_int(ver)
					    : 1;
		p->gsro = get_bool(x, "gsro");
		v = 0;
		if (get_num(x, "len", 1, PS_MAX_TCP_LEN, &v, err, errlen))
			return -EINVAL;
		if (v && p->proto == PS_PROTO_TCP)
			p->len = (uint32_t)v;
		p->peer_probes =
			p->ps_ext_version >= 2 && get_bool(x, "probes");
		/* only ever compared with this kernel's: bounded, checked */
		if (json_object_object_get_ex(x, "boot_id", &v2) &&
		    json_object_is_type(v2, json_type_string) &&
		    json_object_get_string_len(v2) == PS_BOOT_ID_LEN &&
		    ps_boot_id_valid(json_object_get_string(v2)))
			snprintf(p->boot_id, sizeof(p->boot_id), "%s",
				 json_object_get_string(v2));
	}
	return 0;
}

struct json_object *ps_results_to_json(const struct ps_results *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *arr = json_object_new_array();

	json_object_object_add(o, "cpu_util_total",
			       json_object_new_double(r->cpu_total));
	json_object_object_add(o, "cpu_util_user",
			       json_object_new_double(r->cpu_user));
	json_object_object_add(o, "cpu_util_system",
			       json_object_new_double(r->cpu_system));
	ps_json_put_int64(o, "sender_has_retransmits",
			  r->sender_has_retransmits);
	if (r->congestion_used[0])
		json_object_object_add(
			o, "congestion_used",
			json_object_new_string(r->congestion_used));
	for (int i = 0; i < r->nstreams; i++) {
		const struct ps_stream_result *s = &r->streams[i];
		struct json_object *j = json_object_new_object();

		ps_json_put_int64(j, "id", s->id);
		ps_json_put_int64(j, "bytes", (int64_t)s->bytes);
		ps_json_put_int64(j, "retransmits", s->retransmits);
		json_object_object_add(j, "jitter",
				       json_object_new_double(s->jitter));
		ps_json_put_int64(j, "errors", s->errors);
		ps_json_put_int64(j, "omitted_errors", s->omitted_errors);
		/* iperf3's count: a receiver's highest number, the lost
		 * ones included (this end counts what arrived) */
		ps_json_put_int64(j, "packets",
				  s->packets + (s->errors > 0 ? s->errors : 0));
		ps_json_put_int64(j, "omitted_packets", s->omitted_packets);
		json_object_object_add(j, "start_time",
				       json_object_new_double(s->start_time));
		json_object_object_add(j, "end_time",
				       json_object_new_double(s->end_time));
		json_object_array_add(arr, j);
	}
	json_object_object_add(o, "streams", arr);
	if (r->server_output_text) {
		const char *txt = r->server_output_text;
		size_t n = strlen(txt);
		char *cut = NULL;

		/* the tail (the summary is there), so the message stays
		 * within what a reader accepts, from a line's start */
		if (n > PS_MAX_SERVER_OUTPUT) {
			const char *tail = txt + n - PS_MAX_SERVER_OUTPUT;
			const char *nl = strchr(tail, '\n');

			if (nl)
				tail = nl + 1;
			xasprintf(&cut,
				  _("[the first %zu bytes are left out]\n%s"),
				  (size_t)(tail - txt), tail);
			txt = cut;
		}
		json_object_object_add(o, "server_output_text",
				       json_object_new_string(txt));
		free(cut);
	}
	if (r->server_output_json)
		json_object_object_add(o, "server_output_json",
				       json_object_get(r->server_output_json));
	if (r->ps_ext)
		json_object_object_add(o, "pipescope",
				       json_object_get(r->ps_ext));
	return o;
}

static double get_double(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v))
		return 0;
	return json_object_get_double(v);
}

int ps_results_from_json(struct json_object *o, struct ps_results *r, char *err,
			 size_t errlen)
{
	struct json_object *arr, *v;
	size_t n;

	memset(r, 0, sizeof(*r));
	if (!json_object_object_get_ex(o, "streams", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		snprintf(err, errlen, _("results without a stream list"));
		return -EINVAL;
	}
	r->cpu_total = get_double(o, "cpu_util_total");
	r->cpu_user = get_double(o, "cpu_util_user");
	r->cpu_system = get_double(o, "cpu_util_system");
	r->sender_has_retransmits =
		json_object_object_get_ex(o, "sender_has_retransmits", &v)
			? (int)ps_json_int(v)
			: -1;
	r->unsigned_minus_one |= v && unsigned_minus_one(v);
	get_str(o, "congestion_used", r->congestion_used,
		sizeof(r->congestion_used));
	n = json_object_array_length(arr);
	if (n > 2 * PS_MAX_STREAMS) {
		snprintf(err, errlen, _("results for %zu streams"), n);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *j = json_object_array_get_idx(arr, i);
		struct ps_stream_result *s = &r->streams[r->nstreams];

		if (!json_object_is_type(j, json_type_object))
			continue;
		s->id = json_object_object_get_ex(j, "id", &v)
				? (int)ps_json_int(v)
				: 0;
		s->bytes = json_object_object_get_ex(j, "bytes", &v)
				   ? (uint64_t)ps_json_int(v)
				   : 0;
		s->retransmits = json_object_object_get_ex(j, "retransmits", &v)
					 ? ps_json_int(v)
					 : -1;
		r->unsigned_minus_one |=
			s->retransmits == -1 && v && unsigned_minus_one(v);
		s->jitter = get_double(j, "jitter");
		s->errors = json_object_object_get_ex(j, "errors", &v)
				    ? ps_json_int(v)
				    : 0;
		s->packets = json_object_object_get_ex(j, "packets", &v)
				     ? ps_json_int(v)
				     : 0;
		s->omitted_errors =
			json_object_object_get_ex(j, "omitted_errors", &v)
				? ps_json_int(v)
				: 0;
		s->omitted_packets =
			json_object_object_get_ex(j, "omitted_packets", &v)
				? ps_json_int(v)
				: 0;
		s->start_time = get_double(j, "start_time");
		s->end_time = get_double(j, "end_time");
		r->nstreams++;
	}
	if (json_object_object_get_ex(o, "server_output_text", &v) &&
	    json_object_is_type(v, json_type_string))
		r->server_output_text = xstrdup(json_object_get_string(v));
	if (json_object_object_get_ex(o, "server_output_json", &v) &&
	    json_object_is_type(v, json_type_object))
		r->server_output_json = json_object_get(v);
	if (json_object_object_get_ex(o, "pipescope", &v) &&
	    json_object_is_type(v, json_type_object))
		r->ps_ext = json_object_get(v);
	return 0;
}

void ps_results_clear(struct ps_results *r)
{
	free(r->server_output_text);
	json_object_put(r->server_output_json);
	json_object_put(r->ps_ext);
	memset(r, 0, sizeof(*r));
}

const char *ps_state_name(int state)
{
	switch (state) {
	case PS_TEST_START:
		return "TEST_START";
	case PS_TEST_RUNNING:
		return "TEST_RUNNING";
	case PS_TEST_END:
		return "TEST_END";
	case PS_PARAM_EXCHANGE:
		return "PARAM_EXCHANGE";
	case PS_CREATE_STREAMS:
		return "CREATE_STREAMS";
	case PS_SERVER_TERMINATE:
		return "SERVER_TERMINATE";
	case PS_CLIENT_TERMINATE:
		return "CLIENT_TERMINATE";
	case PS_EXCHANGE_RESULTS:
		return "EXCHANGE_RESULTS";
	case PS_DISPLAY_RESULTS:
		return "DISPLAY_RESULTS";
	case PS_IPERF_DONE:
		return "IPERF_DONE";
	case PS_ACCESS_DENIED:
		return "ACCESS_DENIED";
	case PS_SERVER_ERROR:
		return "SERVER_ERROR";
	case PS_EXT_ACK:
		return "EXT_ACK";
	case PS_EXT_DATA:
		return "EXT_DATA";
	case PS_EXT_PROBE:
		return "EXT_PROBE";
	}
	return "UNKNOWN";
}
