/* test-probe-set.c: each opened probe set owns its probes' state: two sets
 * (the sampler's and a server's request, say) each have their own rtnetlink
 * socket (one, which the set's link and qdisc probes share), and closing
 * one neither shuts the other's socket nor stops it
 * sampling. The sockets are counted in /proc/self/fd and /proc/net/netlink,
 * on lo (rtnetlink works unprivileged). */
#include "config.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "probe.h"
#include "sampler.h"
#include "snapshot.h"
#include "sysroot.h"

#define NL_ROUTE 0    /* NETLINK_ROUTE: the link probe's */
#define NL_GENERIC 16 /* NETLINK_GENERIC: the ethtool probe's */

static bool our_socket(unsigned long ino)
{
	char path[300], link[64], want[40];
	struct dirent *de;
	bool found = false;
	DIR *d = opendir("/proc/self/fd");

	assert_non_null(d);
	snprintf(want, sizeof(want), "socket:[%lu]", ino);
	while (!found && (de = readdir(d))) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		found = !strcmp(link, want);
	}
	closedir(d);
	return found;
}

/* this process's netlink sockets of one protocol */
static int count_netlink(int proto)
{
	char line[256];
	int n = 0;
	FILE *f = fopen("/proc/self/net/netlink", "r");

	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f)); /* the header */
	while (fgets(line, sizeof(line), f)) {
		unsigned long ino;
		int eth;

		if (sscanf(line, "%*s %d %*s %*s %*s %*s %*s %*s %*s %lu", &eth,
			   &ino) == 2 &&
		    eth == proto && our_socket(ino))
			n++;
	}
	fclose(f);
	return n;
}

static struct ps_snapshot *sample(struct ps_probe_set *set,
				  const struct ps_snapshot *prev)
{
	struct ps_snapshot *s = ps_snapshot_new();

	assert_int_equal(ps_probes_sample(set, s, prev), 0);
	assert_int_equal(s->link.status, PS_ST_OK);
	assert_string_equal(s->link.ifname, "lo");
	/* the qdisc probe read lo's (noqueue) on the same socket */
	assert_int_equal(s->qdisc.status, PS_ST_OK);
	return s;
}

/* the rtnetlink sockets a probe set keeps open once it sampled: one, the
 * set's (probes/rtnl.h), which its link and qdisc probes share for the
 * set's lifetime */
#define SET_RT 1

static void test_close_one_set_sample_the_other(void **state)
{
	struct ps_probe_env env = { 0 };
	struct ps_snapshot *sa, *sb, *sb2;
	struct ps_probe_set *a, *b;
	int rt0, ge0, ge;

	ps_sysroot_set(NULL);
	ps_iface_choose("lo", NULL, &env.iface);
	assert_int_equal(env.iface.status, PS_ST_OK);
	rt0 = count_netlink(NL_ROUTE);
	ge0 = count_netlink(NL_GENERIC);

	a = ps_probes_open(&env);
	b = ps_probes_open(&env);
	sa = sample(a, NULL);
	sb = sample(b, NULL);
	/* the rtnetlink sockets are per set, not one for the process */
	assert_int_equal(count_netlink(NL_ROUTE), rt0 + 2 * SET_RT);
	ge = count_netlink(NL_GENERIC);

	ps_probes_close(a);
	/* a's sockets are gone, b's are still open ... */
	assert_int_equal(count_netlink(NL_ROUTE), rt0 + SET_RT);
	/* ... and so is the ethtool probe's, which b still uses */
	assert_int_equal(count_netlink(NL_GENERIC), ge);

	/* b samples on its own sockets (no new one) and has rates */
	sb2 = sample(b, sb);
	assert_true(sb2->link.rates.valid);
	assert_int_equal(count_netlink(NL_ROUTE), rt0 + SET_RT);

	ps_probes_close(b);
	/* the last set closed: nothing left open */
	assert_int_equal(count_netlink(NL_ROUTE), rt0);
	assert_int_equal(count_netlink(NL_GENERIC), ge0);
	ps_snapshot_put(sa);
	ps_snapshot_put(sb);
	ps_snapshot_put(sb2);
}

/* the sampler's set keeps sampling while another set opens and closes */
static void test_sampler_and_a_second_set(void **state)
{
	struct ps_sampler_config cfg = { .interval_s = 0.01 };
	struct ps_snapshot *latest;
	struct ps_sampler *s;
	uint64_t seq;
	int rt0;

	ps_sysroot_set(NULL);
	ps_iface_choose("lo", NULL, &cfg.env.iface);
	rt0 = count_netlink(NL_ROUTE);
	assert_int_equal(ps_sampler_start(&cfg, &s), 0);
	assert_int_equal(ps_sampler_wait(s, 0, 5000), 0);
	for (int i = 0; i < 10; i++) {
		struct ps_probe_set *set = ps_probes_open(&cfg.env);
		struct ps_snapshot *snap = sample(set, NULL);

		ps_probes_close(set);
		ps_snapshot_put(snap);
		/* the sampler's own sockets stay, and no sample leaves
		 * one behind or opens one beside them */
		assert_int_equal(count_netlink(NL_ROUTE), rt0 + SET_RT);
	}
	seq = ps_sampler_seq(s);
	assert_int_equal(ps_sampler_wait(s, seq, 5000), 0);
	latest = ps_sampler_latest(s);
	assert_non_null(latest);
	assert_int_equal(latest->link.status, PS_ST_OK);
	assert_true(latest->link.rates.valid);
	ps_snapshot_put(latest);
	ps_sampler_stop(s);
	assert_int_equal(count_netlink(NL_ROUTE), rt0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_close_one_set_sample_the_other),
		cmocka_unit_test(test_sampler_and_a_second_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
