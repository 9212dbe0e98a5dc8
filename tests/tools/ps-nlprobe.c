/* ps-nlprobe.c: a test helper that prints what the ethtool and link probes
 * see for one interface, as {"ethtool": ..., "link": ...}, until the real
 * "pipescope probe" command lands.
 *
 *   ps-nlprobe [--text] [--record DIR] [--rates SECONDS] IFNAME
 *   ps-nlprobe --bench N IFNAME    time N samples of both, ms/sample
 *   ps-nlprobe --route PEER        interface and path MTU towards PEER
 *   ps-nlprobe --default-route     the default-route interface
 *   ps-nlprobe --roundtrip IFNAME  to_json -> from_json -> to_json equal
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "probe-ethtool.h"
#include "probe-link.h"
#include "probe-route.h"

static int usage(void)
{
	fprintf(stderr,
		"usage: ps-nlprobe [--text] [--record DIR] "
		"[--rates S] IFNAME | --bench N IFNAME | --route PEER | "
		"--default-route | --roundtrip IFNAME\n");
	return 2;
}

static int roundtrip(struct ps_link_probe *lp, const char *ifname)
{
	struct ps_ethtool_info e, e2;
	struct ps_link_info l, l2;
	struct json_object *j1, *j2, *k1, *k2;
	int ok;

	ps_ethtool_sample(ifname, &e);
	ps_link_sample_with(lp, ifname, &l);
	j1 = ps_ethtool_to_json(&e);
	k1 = ps_link_to_json(&l);
	if (ps_ethtool_from_json(j1, &e2) < 0 || ps_link_from_json(k1, &l2) < 0)
		return 1;
	j2 = ps_ethtool_to_json(&e2);
	k2 = ps_link_to_json(&l2);
	ok = json_object_equal(j1, j2) && json_object_equal(k1, k2);
	printf("%s\n", ok ? "equal" : "different");
	if (!ok) {
		printf("%s\n%s\n", json_object_to_json_string(j1),
		       json_object_to_json_string(j2));
		printf("%s\n%s\n", json_object_to_json_string(k1),
		       json_object_to_json_string(k2));
	}
	json_object_put(j1);
	json_object_put(j2);
	json_object_put(k1);
	json_object_put(k2);
	ps_ethtool_free(&e);
	ps_ethtool_free(&e2);
	ps_link_free(&l);
	ps_link_free(&l2);
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *record = NULL, *ifname;
	double rates = 0;
	bool text = false;
	long bench = 0;
	struct ps_ethtool_info e;
	struct ps_link_info l;
	struct ps_link_probe *lp;
	int i, ret;

	setlocale(LC_ALL, "");
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--text")) {
			text = true;
		} else if (!strcmp(argv[i], "--record") && i + 1 < argc) {
			record = argv[++i];
		} else if (!strcmp(argv[i], "--rates") && i + 1 < argc) {
			rates = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--bench") && i + 1 < argc) {
			bench = atol(argv[++i]);
		} else if (!strcmp(argv[i], "--route") && i + 1 < argc) {
			char name[IF_NAMESIZE];
			unsigned mtu = 0;

			ret = ps_route_iface_for(argv[++i], name, sizeof(name),
						 &mtu);
			if (ret < 0) {
				printf("{\"error\":\"%s\"}\n", strerror(-ret));
				return 1;
			}
			printf("{\"ifname\":\"%s\",\"pmtu\":%u}\n", name, mtu);
			return 0;
		} else if (!strcmp(argv[i], "--default-route")) {
			char name[IF_NAMESIZE], why[160];

			ret = ps_route_default_iface_reason(name, sizeof(name),
							    why, sizeof(why));
			printf("{\"ifname\":\"%s\",\"rc\":%d,\"reason\":\"%s\"}"
			       "\n",
			       name, ret, why);
			return 0;
		} else if (!strcmp(argv[i], "--roundtrip") && i + 1 < argc) {
			lp = ps_link_open();
			ret = roundtrip(lp, argv[i + 1]);
			ps_link_close(lp);
			return ret;
		} else {
			return usage();
		}
	}
	if (i != argc - 1)
		return usage();
	ifname = argv[i];
	lp = ps_link_open();

	if (bench > 0) {
		double t0 = ps_now();

		for (long k = 0; k < bench; k++) {
			ps_ethtool_sample(ifname, &e);
			ps_link_sample_with(lp, ifname, &l);
			ps_ethtool_free(&e);
			ps_link_free(&l);
		}
		printf("%.3f ms/sample (%ld samples of ethtool+link on %s)\n",
		       (ps_now() - t0) * 1000.0 / (double)bench, bench, ifname);
		ps_link_close(lp);
		return 0;
	}
	ps_ethtool_record(record);
	ps_link_record(record);
	ps_ethtool_sample(ifname, &e);
	ps_link_sample_with(lp, ifname, &l);
	if (rates > 0) {
		struct ps_link_info l2;

		usleep((useconds_t)(rates * 1e6));
		ps_link_sample_with(lp, ifname, &l2);
		ps_link_rates(&l, &l2, rates);
		ps_link_free(&l);
		l = l2;
	}
	if (text) {
		ps_ethtool_print(stdout, &e);
		ps_link_print(stdout, &l);
	} else {
		struct json_object *root = json_object_new_object();

		json_object_object_add(root, "ethtool", ps_ethtool_to_json(&e));
		json_object_object_add(root, "link", ps_link_to_json(&l));
		printf("%s\n",
		       json_object_to_json_string_ext(
			       root, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	}
	ps_ethtool_free(&e);
	ps_link_free(&l);
	ps_ethtool_shutdown();
	ps_link_record(NULL);
	ps_link_close(lp);
	return 0;
}
