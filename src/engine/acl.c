/* acl.c: "pipescope -s --allow CIDR": which client networks a server serves */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "acl.h"

int ps_cidr_parse(const char *s, struct ps_cidr *c)
{
	char buf[INET6_ADDRSTRLEN + 8];
	const char *slash = strchr(s, '/');
	size_t alen = slash ? (size_t)(slash - s) : strlen(s);
	int max;

	memset(c, 0, sizeof(*c));
	if (alen == 0 || alen >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, alen);
	buf[alen] = 0;
	if (inet_pton(AF_INET, buf, c->addr) == 1) {
		c->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, buf, c->addr) == 1) {
		c->family = AF_INET6;
		max = 128;
	} else {
		return -EINVAL;
	}
	c->prefix = max;
	if (slash) {
		char *end;
		long v;

		if (!slash[1] || slash[1] == '-' || slash[1] == '+')
			return -EINVAL;
		v = strtol(slash + 1, &end, 10);
		if (*end || v < 0 || v > max)
			return -EINVAL;
		c->prefix = (int)v;
	}
	/* 10.1.2.3/8 means 10.0.0.0/8: clear the host bits */
	for (int bit = c->prefix; bit < max; bit++)
		c->addr[bit / 8] &= (uint8_t) ~(0x80u >> (bit % 8));
	return 0;
}

/* the address bytes of a socket address, IPv4-mapped IPv6 as IPv4 */
static const uint8_t *host_bytes(const struct sockaddr *sa, int *family)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0,    0,
					    0, 0, 0, 0, 0xff, 0xff };

	if (sa->sa_family == AF_INET) {
		*family = AF_INET;
		return (const uint8_t *)&((const struct sockaddr_in *)sa)
			->sin_addr;
	}
	if (sa->sa_family == AF_INET6) {
		const uint8_t *a =
			(const uint8_t *)&((const struct sockaddr_in6 *)sa)
				->sin6_addr;

		if (!memcmp(a, mapped, sizeof(mapped))) {
			*family = AF_INET;
			return a + 12;
		}
		*family = AF_INET6;
		return a;
	}
	*family = AF_UNSPEC;
	return NULL;
}

bool ps_cidr_match(const struct ps_cidr *c, const struct sockaddr *sa)
{
	int family;
	const uint8_t *a = host_bytes(sa, &family);
	int full, rest;

	if (!a || family != c->family)
		return false;
	full = c->prefix / 8;
	rest = c->prefix % 8;
	if (memcmp(a, c->addr, (size_t)full))
		return false;
	if (rest) {
		uint8_t mask = (uint8_t)(0xff00u >> rest);

		if ((a[full] & mask) != (c->addr[full] & mask))
			return false;
	}
	return true;
}

bool ps_acl_allows(const struct ps_cidr *list, int n, const struct sockaddr *sa)
{
	if (n <= 0)
		return true;
	for (int i = 0; i < n; i++)
		if (ps_cidr_match(&list[i], sa))
			return true;
	return false;
}

bool ps_same_host(const struct sockaddr *a, const struct sockaddr *b)
{
	int fa, fb;
	const uint8_t *x = host_bytes(a, &fa), *y = host_bytes(b, &fb);

	if (!x || !y || fa != fb)
		return false;
	return !memcmp(x, y, fa == AF_INET ? 4 : 16);
}
