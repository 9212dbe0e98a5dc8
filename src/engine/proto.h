/* proto.h: iperf3's control protocol: cookie, state bytes, length-prefixed JSON
 */
#ifndef PS_PROTO_H
#define PS_PROTO_H

#include <json-c/json.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "options.h"

#define PS_COOKIE_SIZE 37 /* 36 characters and a NUL, all sent */
#define PS_MAX_PARAMS_JSON (8 * 1024)
/* what a results message may be (bytes): -P 128 --bidir is 43 KB, the
 * rest is --get-server-output's text (see ps_lim_results) */
#define PS_MAX_RESULTS_JSON (4 * 1024 * 1024)
/* --get-server-output's text in the results: its last 3 MiB (a 3 s test at
 * -P 128 --bidir writes 200 KB, -P 1 10 KB a minute) */
#define PS_MAX_SERVER_OUTPUT (3 * 1024 * 1024)
#define PS_UDP_CONNECT_MSG 0x36373839u
#define PS_UDP_CONNECT_REPLY 0x39383736u
#define PS_UDP_CONNECT_REPLY_LEGACY 987654321u
/* 1: EXT_ACK, EXT_DATA; 2: EXT_PROBE (the server's probe snapshots) */
#define PS_EXT_VERSION 2

enum ps_state {
	PS_TEST_START = 1,
	PS_TEST_RUNNING = 2,
	PS_TEST_END = 4,
	PS_PARAM_EXCHANGE = 9,
	PS_CREATE_STREAMS = 10,
	PS_SERVER_TERMINATE = 11,
	PS_CLIENT_TERMINATE = 12,
	PS_EXCHANGE_RESULTS = 13,
	PS_DISPLAY_RESULTS = 14,
	PS_IPERF_DONE = 16,
	PS_ACCESS_DENIED = -1,
	PS_SERVER_ERROR = -2,
	/* pipescope's own, only ever sent to a peer that announced them */
	PS_EXT_ACK = 100,   /* server: JSON {"version":…} follows */
	PS_EXT_DATA = 101,  /* either end: JSON interval data follows */
	PS_EXT_PROBE = 102, /* server: a probe snapshot (doc/snapshot.md) */
};

/* iperf3's i_errno values a server sends after SERVER_ERROR (and errno) */
enum {
	PS_IETOTALRATE = 27,   /* the total rate is above the server's limit */
	PS_IEMAXDURATION = 37, /* longer than the server's maximum (3.17+) */
	PS_IENEWTEST = 100,    /* "unable to create a new test": see errno */
};

/* what the client asks for; the server's view of a test */
struct ps_params {
	enum ps_proto proto;
	int omit;
	double duration;
	uint64_t bytes;
	uint64_t blocks;
	int parallel;
	bool reverse;
	bool bidir;
	uint64_t window;
	uint32_t len;
	uint64_t rate; /* bit/s */
	unsigned burst;
	uint64_t fq_rate;
	int mss;
	bool nodelay;
	char congestion[16];
	int tos;
	bool get_server_output;
	bool udp64;
	bool zerocopy;
	bool skip_rx_copy;
	bool repeating_payload;
	bool dont_fragment;
	/* the block a pipescope server is to use where len is iperf3's
	 * (-R, --bidir without -l): 0 = len */
	uint32_t ps_len;
	bool gsro;	       /* segmentation offload between pipescope ends */
	bool iperf_gsro;       /* iperf3 3.21's "gso"/"gro" (its --gsro) */
	char title[256];       /* -T */
	char extra_data[1024]; /* --extra-data */
	int server_affinity;   /* -1 = none */
	char client_version[48];
	bool ps_ext;	    /* the client is pipescope and speaks extensions */
	int ps_ext_version; /* the PS_EXT_VERSION it announced */
	bool peer_probes;   /* it asks for the server's probe snapshots */
	char boot_id[40];   /* its kernel's boot id ("" not told) */
	char authtoken[2049]; /* iperf3's RSA-encrypted credentials, base64 */
};

struct ps_stream_result {
	int id;
	uint64_t bytes;
	int64_t retransmits; /* -1 = unknown */
	double jitter;	     /* seconds */
	int64_t errors;
	int64_t packets;
	int64_t omitted_errors;
	int64_t omitted_packets;
	double start_time;
	double end_time;
};

struct ps_results {
	double cpu_total, cpu_user, cpu_system;
	int sender_has_retransmits;
	char congestion_used[16];
	int nstreams;
	struct ps_stream_result streams[2 * PS_MAX_STREAMS];
	char *server_output_text; /* malloc'ed or NULL */
	/* a -J server's document instead (iperf3's server_output_json) */
	struct json_object *server_output_json;
	struct json_object *ps_ext; /* pipescope's extras, or NULL */
	/* it wrote -1 as 18446744073709551615: iperf3 3.13 or older */
	bool unsigned_minus_one;
};

void ps_make_cookie(char cookie[PS_COOKIE_SIZE]);

int ps_send_state(int fd, signed char state);
/* read one state byte; 0 or -errno (-EPIPE: the peer closed) */
int ps_recv_state(int fd, signed char *state, int timeout_ms);
/* a 4-byte big-endian length and that many bytes of JSON */
int ps_send_json(int fd, struct json_object *obj);
int ps_recv_json(int fd, struct json_object **obj, uint32_t max,
		 int timeout_ms);

/*
 * How big a message may be, and how big a tree json-c may build from it
 * (about 270 times the text for "[{},{},...]"): values counts every
 * container, member and element, containers every object and array.
 */
struct ps_json_limit {
	uint32_t bytes;
	uint32_t values;
	uint32_t containers;
};
/* the results (either end), EXT_DATA, EXT_PROBE and EXT_ACK messages */
extern const struct ps_json_limit ps_lim_results, ps_lim_ext_data, ps_lim_probe,
	ps_lim_ack;
/*
 * ps_recv_json with a limit, giving up with -EINTR as soon as *stop is set
 * (stop may be NULL): -EMSGSIZE over lim->bytes, -E2BIG over its values or
 * containers, -EBADMSG not a JSON object, -ETIMEDOUT, -EPIPE
 */
int ps_recv_json_lim(int fd, struct json_object **obj,
		     const struct ps_json_limit *lim, int timeout_ms,
		     atomic_bool *stop);
/*
 * 0 when the JSON text s (len bytes) holds no more values and containers
 * than lim says (its bytes are not looked at), and then what it holds in
 * *used (may be NULL); -E2BIG when it holds more. Counted without
 * building anything.
 */
int ps_json_within(const char *s, size_t len, const struct ps_json_limit *lim,
		   struct ps_json_limit *used);
/* a message read and dropped unparsed (within lim->bytes), as
 * ps_recv_json_lim: 0, -EMSGSIZE, -ETIMEDOUT, -EPIPE, -EINTR */
int ps_recv_skip_lim(int fd, const struct ps_json_limit *lim, int timeout_ms,
		     atomic_bool *stop);
/*
 * The same limits on a text already in memory (len bytes, not counting a
 * terminating NUL it must have): 0 and *obj a JSON object, or -EMSGSIZE,
 * -E2BIG, -EBADMSG as ps_recv_json_lim
 */
int ps_json_parse_lim(const char *buf, size_t len,
		      const struct ps_json_limit *lim,
		      struct json_object **obj);
/* ps_recv_state, giving up with -EINTR as soon as *stop is set */
int ps_recv_state_stop(int fd, signed char *state, int timeout_ms,
		       atomic_bool *stop);
/* what a ps_recv_* error means, for a message to the user */
const char *ps_proto_strerror(int rc);

struct json_object *ps_params_to_json(const struct ps_params *p);
/* 0, or -EINVAL with a reason in err (wrong types, absurd values) */
int ps_params_from_json(struct json_object *obj, struct ps_params *p, char *err,
			size_t errlen);

struct json_object *ps_results_to_json(const struct ps_results *r);
int ps_results_from_json(struct json_object *obj, struct ps_results *r,
			 char *err, size_t errlen);
void ps_results_clear(struct ps_results *r);

/* a JSON integer as iperf3 3.12 may send it: 2^64-1 means -1 */
int64_t ps_json_int(struct json_object *obj);

const char *ps_state_name(int state);

#endif
