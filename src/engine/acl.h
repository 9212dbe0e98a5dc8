/* acl.h: "pipescope -s --allow CIDR": which client networks a server serves */
#ifndef PS_ACL_H
#define PS_ACL_H

#include <stdbool.h>
#include <sys/socket.h>

#include "options.h"

/* "10.0.0.0/8", "192.0.2.7", "2001:db8::/32", "::1"; 0 or -EINVAL */
int ps_cidr_parse(const char *s, struct ps_cidr *c);
/* does the address fall in the network? IPv4-mapped IPv6 counts as IPv4 */
bool ps_cidr_match(const struct ps_cidr *c, const struct sockaddr *sa);
/* true when n is 0 (no list) or one of the networks holds the address */
bool ps_acl_allows(const struct ps_cidr *list, int n,
		   const struct sockaddr *sa);
/* the same host (address, not port), IPv4-mapped IPv6 = IPv4 */
bool ps_same_host(const struct sockaddr *a, const struct sockaddr *b);

#endif
