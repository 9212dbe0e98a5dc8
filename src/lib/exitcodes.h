/* exitcodes.h: the exit statuses pipescope documents in its man page */
#ifndef PS_EXITCODES_H
#define PS_EXITCODES_H

enum ps_exit {
	PS_EXIT_OK = 0,	   /* done; for check: no bottleneck found */
	PS_EXIT_FAIL = 1,  /* a runtime failure: peer, socket, probe */
	PS_EXIT_USAGE = 2, /* bad command line; nothing was started */
	PS_EXIT_FOUND = 3, /* check: a bottleneck was found */
};

#endif
