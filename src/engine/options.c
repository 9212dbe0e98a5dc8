/* options.c: the defaults of the options every command starts from (the
 * command line's parser and the self-test's server alike) */
#include "config.h"

#include <string.h>

#include "auth.h"
#include "options.h"

void ps_opts_init(struct ps_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = PS_MODE_SELFTEST;
	o->port = PS_DEFAULT_PORT;
	o->format = 'a';
	o->interval = 1.0;
	o->server_cpu = -1;
	o->max_tests = 1;
	o->duration = 10;
	o->parallel = 1;
	o->tos = -1;
	o->rcv_timeout_ms = 120000;
	o->handshake_timeout = PS_DEFAULT_HANDSHAKE;
	o->time_skew = PS_AUTH_SKEW;
	o->report_format = PS_FORMAT_TEXT;
}
