/* probe-cost.c: what the probes cost ("pipescope probe" and the sampler
 * thread behind the live panels): CPU of a full sample at 1 Hz, the time
 * of one full sample, and memory over many samples. A measurement for the
 * notes, not a test.
 *
 *   probe-cost rate [N]        N samples (60) through the sampler thread
 *                              at 1 Hz: CPU time / wall time (% of a core)
 *   probe-cost mem [N] [DIR]   N samples (10000) back to back, as the
 *                              sampler takes them: RSS before and after
 *   probe-cost time [N] [DIR]  mean wall time of one full sample
 *   probe-cost path [N] IF     the path probe alone on IF, N samples (60)
 *                              at 1 Hz: CPU / wall (% of a core), devices
 * DIR is a recorded tree (--sysroot); default the live machine.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "clock.h"
#include "probe-path.h"
#include "probe.h"
#include "sampler.h"
#include "sysroot.h"

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static long rss_kib(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static int rate(long n)
{
	struct ps_sampler_config cfg = { .interval_s = 1.0 };
	struct ps_sampler *s;
	double t0, c0, t1, c1;

	ps_iface_choose(NULL, NULL, &cfg.env.iface);
	t0 = ps_now();
	c0 = cpu_s();
	if (ps_sampler_start(&cfg, &s))
		return 1;
	ps_sampler_wait(s, (uint64_t)n - 1, (int)(n + 10) * 1000);
	ps_sampler_stop(s);
	t1 = ps_now();
	c1 = cpu_s();
	printf("rate: %ld samples at 1 Hz over %.1f s: CPU %.3f s = %.3f%% of "
	       "one core (iface %s)\n",
	       n, t1 - t0, c1 - c0, 100.0 * (c1 - c0) / (t1 - t0),
	       cfg.env.iface.name[0] ? cfg.env.iface.name : "none");
	return 0;
}

/* the path probe alone at 1 Hz: what walking IF's path costs */
static int path_rate(long n, const char *ifname)
{
	struct ps_path_probe *pp = ps_path_open_on(NULL);
	struct ps_path_info info;
	double t0 = ps_now(), c0 = cpu_s(), busy = 0;
	unsigned devs = 0;

	for (long i = 0; i < n; i++) {
		double a = ps_now();

		ps_path_sample_peer(pp, ifname, NULL, &info);
		devs = info.n;
		ps_path_free(&info);
		busy += ps_now() - a;
		if (i + 1 < n)
			ps_sleep(1.0 - (ps_now() - a) > 0 ? 1.0 - (ps_now() - a)
							  : 0);
	}
	printf("path: %ld samples at 1 Hz over %.1f s of %s (%u devices): "
	       "CPU %.3f s = %.3f%% of one core, %.3f ms wall per sample\n",
	       n, ps_now() - t0, ifname, devs, cpu_s() - c0,
	       100.0 * (cpu_s() - c0) / (ps_now() - t0), 1000.0 * busy / n);
	ps_path_close(pp);
	return 0;
}

/* the sampler's own loop, without the sleeps */
static int loop(long n, bool report_mem)
{
	struct ps_probe_env env = { 0 };
	struct ps_snapshot *prev = NULL;
	struct ps_probe_set *set;
	long rss0 = 0, rss100 = 0;
	double t0, c0;

	ps_iface_choose(NULL, NULL, &env.iface);
	set = ps_probes_open(&env);
	rss0 = rss_kib();
	t0 = ps_now();
	c0 = cpu_s();
	for (long i = 0; i < n; i++) {
		struct ps_snapshot *snap = ps_snapshot_new();

		ps_probes_sample(set, snap, prev);
		ps_snapshot_put(prev);
		prev = snap;
		if (i == 99)
			rss100 = rss_kib();
	}
	printf("%s: %ld samples (%s): %.3f ms wall, %.3f ms CPU per sample\n",
	       report_mem ? "mem" : "time", n,
	       ps_sysroot_is_live() ? "live" : ps_sysroot_get(),
	       1000.0 * (ps_now() - t0) / n, 1000.0 * (cpu_s() - c0) / n);
	if (report_mem)
		printf("mem: RSS %ld KiB at start, %ld KiB after 100 samples, "
		       "%ld KiB after %ld\n",
		       rss0, rss100, rss_kib(), n);
	ps_snapshot_put(prev);
	ps_probes_close(set);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "time";
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (!strcmp(mode, "path") && argc > 3)
		return path_rate(n > 0 ? n : 60, argv[3]);
	if (argc > 3)
		ps_sysroot_set(argv[3]);
	if (!strcmp(mode, "rate"))
		return rate(n > 0 ? n : 60);
	if (!strcmp(mode, "mem"))
		return loop(n > 0 ? n : 10000, true);
	if (!strcmp(mode, "time"))
		return loop(n > 0 ? n : 100, false);
	fprintf(stderr, "usage: probe-cost rate|mem|time [N] [SYSROOT], "
			"probe-cost path [N] IF\n");
	return 2;
}
