/* ps-delayline.c: a delay line for the check scenarios (this kernel has no
 * netem): a TUN device whose reader writes every packet back after a fixed
 * delay. Fed by an ingress "mirred egress redirect" from a veth, the
 * packets come back into the stack on the TUN device as if received there.
 *
 *   ps-delayline IFNAME DELAY_MS [SLOTS]
 *
 * Creates IFNAME (IFF_TUN, no packet information), prints "ready" on
 * stdout, and runs until SIGTERM/SIGINT. A packet that finds the queue full
 * is dropped, like a tail-drop queue. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define SLOT_BYTES 2048

struct slot {
	int64_t due_ns;
	uint16_t len;
	unsigned char data[SLOT_BYTES];
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int tun_open(const char *name)
{
	struct ifreq ifr;
	int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned long long passed = 0, dropped = 0;
	size_t nslots = 4096, head = 0, count = 0;
	int64_t delay_ns;
	struct slot *q;
	int fd;

	if (argc < 3 || atof(argv[2]) < 0) {
		fprintf(stderr, "usage: %s IFNAME DELAY_MS [SLOTS]\n", argv[0]);
		return 2;
	}
	delay_ns = (int64_t)(atof(argv[2]) * 1e6);
	if (argc > 3 && atol(argv[3]) > 0)
		nslots = (size_t)atol(argv[3]);
	fd = tun_open(argv[1]);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[1],
			strerror(-fd));
		return 1;
	}
	q = calloc(nslots, sizeof(*q));
	if (!q) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return 1;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	printf("ready\n");
	fflush(stdout);

	while (!stop) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t t = now_ns();
		int timeout = -1;

		/* write back what is due, oldest first */
		while (count && q[head].due_ns <= t) {
			if (write(fd, q[head].data, q[head].len) < 0 &&
			    errno == EAGAIN)
				break;
			passed++;
			head = (head + 1) % nslots;
			count--;
		}
		if (count) {
			int64_t wait = q[head].due_ns - t;

			timeout = (int)(wait / 1000000);
			if (timeout < 1)
				timeout = 1; /* 1 ms resolution is enough */
			if (wait < 1000000)
				timeout = 0;
		}
		if (poll(&p, 1, timeout) < 0) {
			if (errno == EINTR)
				continue;
			perror("poll");
			break;
		}
		if (!(p.revents & POLLIN))
			continue;
		for (;;) {
			unsigned char buf[SLOT_BYTES];
			ssize_t n = read(fd, buf, sizeof(buf));
			struct slot *s;

			if (n <= 0)
				break;
			if (count == nslots) {
				dropped++;
				continue;
			}
			s = &q[(head + count) % nslots];
			memcpy(s->data, buf, (size_t)n);
			s->len = (uint16_t)n;
			s->due_ns = now_ns() + delay_ns;
			count++;
		}
	}
	fprintf(stderr, "%s: %llu packets delayed, %llu dropped\n", argv[0],
		passed, dropped);
	free(q);
	close(fd);
	return 0;
}
