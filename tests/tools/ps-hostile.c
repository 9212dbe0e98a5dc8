/*
 * ps-hostile.c: the hostile and broken iperf3 clients the reliability tests
 * throw at "pipescope -s" (tests/reliability-hostile.sh). Test tool only.
 *
 *   ps-hostile [-w SEC] [-b ADDR] HOST PORT STEP...   one connection, steps in
 * order: cookie        a valid random cookie (37 bytes) half          the first
 * 18 bytes of a cookie raw:TEXT      bytes, with \xNN escapes len:N         a
 * 4-byte big-endian length json:TEXT     a length and the text nest:N        a
 * length and N '[' (deeply nested JSON) sleep:SEC     say nothing for SEC
 * seconds eof           close the sending half (the server reads EOF) then it
 * waits (at most -w SEC, default 5) for the server to close and prints "reply:
 * <hex bytes> closed: yes|no after S s". ps-hostile -f N [-H SEC] HOST PORT a
 * flood: N connections as fast as possible, odd ones send half a cookie, all
 * held open SEC seconds (default 2); prints "flood: opened N failed F
 * closed-by-server C in S s". ps-hostile -u HOST PORT a UDP stream hello with
 * no test: prints "udp: reply|no reply".
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int dial(const char *host, const char *port, int type,
		const char *bind_addr)
{
	struct addrinfo hints = { .ai_socktype = type }, *res;
	int fd;

	if (getaddrinfo(host, port, &hints, &res))
		return -1;
	fd = socket(res->ai_family, res->ai_socktype, 0);
	if (fd >= 0 && bind_addr) {
		struct addrinfo *b;

		hints.ai_family = res->ai_family;
		if (getaddrinfo(bind_addr, "0", &hints, &b) == 0) {
			if (bind(fd, b->ai_addr, b->ai_addrlen))
				perror("bind");
			freeaddrinfo(b);
		}
	}
	if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen)) {
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd;
}

static void put(int fd, const void *buf, size_t len)
{
	if (send(fd, buf, len, MSG_NOSIGNAL) != (ssize_t)len)
		fprintf(stderr, "send: %s\n", strerror(errno));
}

static void put_len(int fd, uint32_t n)
{
	n = htonl(n);
	put(fd, &n, 4);
}

static void cookie(char c[37])
{
	static const char a[] = "abcdefghijklmnopqrstuvwxyz234567";

	for (int i = 0; i < 36; i++)
		c[i] = a[rand() % 32];
	c[36] = 0;
}

static size_t unescape(const char *s, char *out)
{
	size_t n = 0;

	while (*s) {
		if (s[0] == '\\' && s[1] == 'x' && s[2] && s[3]) {
			char h[3] = { s[2], s[3], 0 };

			out[n++] = (char)strtol(h, NULL, 16);
			s += 4;
		} else {
			out[n++] = *s++;
		}
	}
	return n;
}

static int one(const char *host, const char *port, const char *bind_addr,
	       double wait, int nsteps, char **steps)
{
	int fd = dial(host, port, SOCK_STREAM, bind_addr);
	unsigned char got[64];
	size_t ngot = 0;
	double t0, deadline;
	int closed = 0;

	if (fd < 0) {
		printf("connect: failed: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < nsteps; i++) {
		const char *s = steps[i];
		char c[37];

		if (!strcmp(s, "cookie")) {
			cookie(c);
			put(fd, c, 37);
		} else if (!strcmp(s, "half")) {
			cookie(c);
			put(fd, c, 18);
		} else if (!strncmp(s, "raw:", 4)) {
			char *b = malloc(strlen(s));
			size_t n = unescape(s + 4, b);

			put(fd, b, n);
			free(b);
		} else if (!strncmp(s, "len:", 4)) {
			put_len(fd, (uint32_t)strtoul(s + 4, NULL, 0));
		} else if (!strncmp(s, "json:", 5)) {
			put_len(fd, (uint32_t)strlen(s + 5));
			put(fd, s + 5, strlen(s + 5));
		} else if (!strncmp(s, "nest:", 5)) {
			size_t n = strtoul(s + 5, NULL, 0);
			char *b = malloc(n);

			memset(b, '[', n);
			put_len(fd, (uint32_t)n);
			put(fd, b, n);
			free(b);
		} else if (!strcmp(s, "eof")) {
			shutdown(fd, SHUT_WR);
		} else if (!strncmp(s, "sleep:", 6)) {
			struct timespec ts;
			double d = atof(s + 6);

			ts.tv_sec = (time_t)d;
			ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
		} else {
			fprintf(stderr, "unknown step %s\n", s);
			return 2;
		}
	}
	t0 = now();
	deadline = t0 + wait;
	while (now() < deadline) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		unsigned char b[4096];
		ssize_t n;

		if (poll(&p, 1, (int)((deadline - now()) * 1000) + 1) <= 0)
			break;
		n = recv(fd, b, sizeof(b), 0);
		if (n <= 0) {
			closed = 1;
			break;
		}
		for (ssize_t i = 0; i < n && ngot < sizeof(got); i++)
			got[ngot++] = b[i];
	}
	printf("reply:");
	for (size_t i = 0; i < ngot; i++)
		printf(" %02x", got[i]);
	printf(" closed: %s after %.1f s\n", closed ? "yes" : "no", now() - t0);
	close(fd);
	return 0;
}

static int flood(const char *host, const char *port, int n, double hold)
{
	int *fds = calloc((size_t)n, sizeof(int));
	int opened = 0, failed = 0, closed = 0;
	double t0 = now();
	struct rlimit rl;

	/* room for n sockets */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur < (rlim_t)n + 64) {
		rl.rlim_cur = rl.rlim_max < (rlim_t)n + 64 ? rl.rlim_max
							   : (rlim_t)n + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (int i = 0; i < n; i++) {
		fds[i] = dial(host, port, SOCK_STREAM, NULL);
		if (fds[i] < 0) {
			failed++;
			continue;
		}
		opened++;
		if (i % 2) {
			char c[37];

			cookie(c);
			put(fds[i], c, 18);
		}
	}
	while (now() < t0 + hold)
		usleep(50000);
	for (int i = 0; i < n; i++) {
		char b[16];

		if (fds[i] < 0)
			continue;
		if (recv(fds[i], b, sizeof(b), MSG_DONTWAIT) == 0)
			closed++;
		close(fds[i]);
	}
	printf("flood: opened %d failed %d closed-by-server %d in %.1f s\n",
	       opened, failed, closed, now() - t0);
	free(fds);
	return 0;
}

static int udp(const char *host, const char *port)
{
	int fd = dial(host, port, SOCK_DGRAM, NULL);
	uint32_t hello = 0x36373839u, r;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (fd < 0)
		return 1;
	put(fd, &hello, 4);
	if (poll(&p, 1, 1500) > 0 && recv(fd, &r, 4, 0) == 4)
		printf("udp: reply\n");
	else
		printf("udp: no reply\n");
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	double wait = 5, hold = 2;
	const char *bind_addr = NULL;
	int n = 0, c, use_udp = 0;

	srand((unsigned)getpid() ^ (unsigned)time(NULL));
	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt(argc, argv, "w:f:H:ub:")) != -1) {
		switch (c) {
		case 'w':
			wait = atof(optarg);
			break;
		case 'f':
			n = atoi(optarg);
			break;
		case 'H':
			hold = atof(optarg);
			break;
		case 'u':
			use_udp = 1;
			break;
		case 'b':
			bind_addr = optarg;
			break;
		default:
			return 2;
		}
	}
	if (argc - optind < 2) {
		fprintf(stderr,
			"usage: ps-hostile [-w SEC] [-b ADDR] HOST PORT "
			"STEP... | -f N [-H SEC] HOST PORT | -u HOST PORT\n");
		return 2;
	}
	if (use_udp)
		return udp(argv[optind], argv[optind + 1]);
	if (n)
		return flood(argv[optind], argv[optind + 1], n, hold);
	return one(argv[optind], argv[optind + 1], bind_addr, wait,
		   argc - optind - 2, argv + optind + 2);
}
