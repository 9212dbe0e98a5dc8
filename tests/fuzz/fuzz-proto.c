/*
 * fuzz-proto.c: libFuzzer harnesses for iperf3's control protocol as
 * "pipescope -s" and "-c" read it from the network: FUZZ_PARAMS parses the
 * bytes as JSON (depth-bounded, as the server does) and checks them as
 * test parameters and as results; FUZZ_RECV_JSON feeds the bytes through a
 * socketpair to ps_recv_json (4-byte length framing). Built by "make fuzz".
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(struct json_object *obj)
{
	struct ps_params p;
	struct ps_results r;
	char err[256];

	if (ps_params_from_json(obj, &p, err, sizeof(err)) == 0) {
		/* what was accepted must go out and come back the same way */
		struct json_object *back = ps_params_to_json(&p);
		struct ps_params q;

		if (ps_params_from_json(back, &q, err, sizeof(err))) {
			fprintf(stderr, "accepted, written, refused: %s: %s\n",
				err, json_object_to_json_string(back));
			abort();
		}
		json_object_put(back);
	}
	if (ps_results_from_json(obj, &r, err, sizeof(err)) == 0) {
		struct json_object *back = ps_results_to_json(&r);

		json_object_put(back);
	}
	ps_results_clear(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#if defined(FUZZ_PARAMS)
	struct json_tokener *tok = json_tokener_new_ex(32);
	struct json_object *obj;

	if (size > 16 * 1024)
		size = 16 * 1024;
	obj = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	if (obj && json_object_is_type(obj, json_type_object))
		check(obj);
	json_object_put(obj);
	json_tokener_free(tok);
#elif defined(FUZZ_RECV_JSON)
	struct json_object *obj;
	int sv[2];

	/* more than a socket buffer would block the writer: keep it small */
	if (size > 32 * 1024)
		size = 32 * 1024;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 0;
	if (size && write(sv[0], data, size) < 0) {
		close(sv[0]);
		close(sv[1]);
		return 0;
	}
	close(sv[0]); /* then EOF, as a peer that hangs up */
	if (ps_recv_json(sv[1], &obj, PS_MAX_PARAMS_JSON, 50) == 0) {
		check(obj);
		json_object_put(obj);
	}
	close(sv[1]);
#else
#error "which parser? define FUZZ_PARAMS or FUZZ_RECV_JSON"
#endif
	return 0;
}
