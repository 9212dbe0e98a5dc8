/* check.h: the findings of "pipescope check": each check is a pure function
 * of the evidence (snapshots of this host, the guided run's test results)
 * that gives one finding with a severity, the numbers, a remedy command and,
 * where it can be computed, the ceiling it imposes in bit/s */
#ifndef PS_CHECK_H
#define PS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe-cpu.h"
#include "probe-ethtool.h"
#include "probe-irq.h"
#include "probe-link.h"
#include "probe-netstat.h"
#include "probe-pci.h"
#include "probe-procs.h"
#include "check-list.h"
#include "rules.h"
#include "snapshot.h"
#include "units.h"

/* ---- what a guided run measured ------------------------------------- */

enum ps_step_state {
	PS_STEP_PENDING = 0,
	PS_STEP_DONE,
	PS_STEP_SKIPPED, /* by the user or because it could not help */
	PS_STEP_FAILED,	 /* the test failed; note says why */
};

#define PS_STEP_MAX_CPUS 16
#define PS_STEP_MAX_RATES 64 /* points of a step's rate over time */
#define PS_STEP_IRQ_LINES 16 /* a step's interrupt heatmap */
#define PS_STEP_IRQ_CPUS 32
#define PS_STEP_MAX_QUEUES 64 /* NIC queues whose rates a step keeps */

/* the interface's qdiscs over one step (probe-qdisc.h), on one end */
struct ps_step_qdisc {
	bool have;     /* two samples of the same root qdisc */
	char kind[16]; /* the root qdisc's kind */
	/* the shaper (ps_qdisc_shaper), if any: "" and 0 when none */
	char shaper[16]; /* "tbf", "htb" */
	char handle[12]; /* the tbf's handle, or the htb class's */
	double rate_bps; /* its configured rate (htb: the class ceil) */
	bool per_class;	 /* htb: a class's, not the whole link's */
	/* htb: the class's leaf qdisc when one is listed (someone put it
	 * there: the built-in default leaf is never listed); "" when none */
	char leaf[16], leaf_handle[12];
	int64_t limit_bytes; /* the shaper's queue; -1 unknown */
	int64_t limit_packets;
	int64_t burst_bytes;
	/* the root qdisc's counters over the step */
	double seconds;
	uint64_t drops, overlimits, requeues;
	double sent_bps, drop_rate, overlimit_rate; /* per second */
	/* its backlog over the samples of the step (bytes) */
	double backlog_peak, backlog_mean;
	int samples;
};
/* a shaper on a device of one end's path (probe-path.h) over one step */
#define PS_STEP_MAX_SHAPERS 8
struct ps_step_shaper {
	bool far;		/* the far end's path, else this end's */
	char dev[16];		/* the device (IF_NAMESIZE) */
	int role;		/* enum ps_path_role */
	char via[16];		/* the device it was reached from */
	int direction;		/* enum ps_path_dir: PS_PATH_INGRESS
				 * shapes what its end receives (an ifb
				 * behind an ingress redirect),
				 * PS_PATH_EGRESS what its end sends */
	char place[96];		/* ps_path_place: "bridge port vp1 of br0" */
	bool gone;		/* it went away during the step: q holds
				 * its figures up to then, never a stale
				 * reading after */
	struct ps_step_qdisc q; /* kind, shaper, handle, rate_bps,
				 * per_class, limits, drops, overlimits,
				 * backlog_peak ... over the step */
};
#define PS_STEP_MAX_RUNS 9  /* check --repeat N, at most */
#define PS_STEP_MAX_PROCS 5 /* other processes a step names */

/* one test of the guided run and the host while it ran */
struct ps_step_result {
	char id[16]; /* "single", "sweep", "reverse", "bidir" */
	enum ps_step_state state;
	char note[200]; /* why skipped / failed, "" otherwise */
	int streams;
	bool reverse, bidir;
	double seconds;	 /* measured time (after the omit period) */
	double bps;	 /* what the receivers counted, all streams */
	double bps_back; /* bidir: the other direction */
	double stream_min_bps, stream_max_bps;

	/* TCP_INFO of the sending ends, averaged over the intervals */
	bool have_tcpinfo;
	double rtt_us, min_rtt_us;
	/* the same of each direction's senders: [0] this end's, [1] the
	 * far end's (a pipescope server's); 0 not known */
	double rtt_dir_us[2];
	double cwnd_bytes, snd_wnd_bytes; /* per stream */
	unsigned mss, pmtu;
	int64_t retrans;		     /* all streams, the whole step */
	uint64_t bytes;			     /* all streams, sender's count */
	double rwnd_limited, sndbuf_limited; /* share of the time, 0..1 */

	/* CPU of both ends' processes (% as the summary reports) */
	double cpu_local, cpu_remote;
	/* this host's cores over the step (pct valid when have_cpu) */
	bool have_cpu;
	struct ps_cpu_info cpu;
	/* the NIC's interrupts and the kernel backlog over the step */
	bool have_irq;
	int irq_lines;				/* queue interrupt lines */
	double irq_rate;			/* interrupts/s, all lines */
	int irq_busiest_cpu;			/* -1 none */
	double irq_busiest_share;		/* 0..1 */
	double softnet_drop_rate, squeeze_rate; /* per second */
	/* where the test's threads and their softirqs ran */
	int thread_cpu[PS_STEP_MAX_CPUS];
	int nthread_cpu;
	int rx_cpu[PS_STEP_MAX_CPUS];
	int nrx_cpu;
	/* the far end's busiest core over the step, averaged over the
	 * intervals (a pipescope server that shares its probes) */
	bool have_peer_cpu;
	int peer_ncores;
	int peer_core; /* its id */
	double peer_busy, peer_softirq, peer_irq, peer_system, peer_user;
	double peer_others; /* mean busy % of its other cores */
	/* the rate over time: one point an interval not omitted (the
	 * direction s->bps counts), pairs merged when full (step.c); a
	 * bidir step's other direction (what this end received, as
	 * bps_back) in rate_back_bps */
	int nrate;
	float rate_t0[PS_STEP_MAX_RATES], rate_t1[PS_STEP_MAX_RATES];
	float rate_bps[PS_STEP_MAX_RATES], rate_back_bps[PS_STEP_MAX_RATES];
	/* interrupts/s of each queue line on each CPU over the step (the
	 * irq probe's rated sample), the first lines and CPUs that fit */
	int irqm_lines, irqm_cpus;
	char irqm_name[PS_STEP_IRQ_LINES][24]; /* "rx-0", "irq 42" */
	int irqm_cpu[PS_STEP_IRQ_CPUS];	       /* CPU ids of the columns */
	float irqm_rate[PS_STEP_IRQ_LINES][PS_STEP_IRQ_CPUS];
	/* the qdiscs of this end's interface over the step, and of the far
	 * end's (from the snapshots a pipescope server sent): qdisc.drops is
	 * what the root qdisc dropped during the test */
	struct ps_step_qdisc qdisc, peer_qdisc;
	/* every device of either end's path with a shaper (a tbf, an htb
	 * with a default class) in its root tree, this end's first */
	int nshapers;
	struct ps_step_shaper shapers[PS_STEP_MAX_SHAPERS];
	/* the kernel's counters over the step (probe-netstat.h): each
	 * member the delta, PS_NA when either reading lacked it. netstat is
	 * this end's namespace; peer_netstat the far end's (a pipescope
	 * server's first and last snapshot of the step) */
	bool have_netstat, have_peer_netstat;
	struct ps_netstat_counters netstat, peer_netstat;
	double peer_netstat_s; /* the time between those two snapshots */
	/* a UDP test: the datagrams the sender numbered and the receiver's
	 * count of those lost (all streams) */
	bool udp;
	int64_t udp_sent, udp_lost;
	/* and (the screen) what the senders were asked for (-b, all streams)
	 * and sent, and the packets the receivers counted (0: not known) */
	double udp_target_bps, udp_sent_bps;
	int64_t udp_packets;
	/* the NIC's own counters over the step (the driver's per-queue
	 * packets, drop classes, pause frames: ps_step_set_nic); the rates
	 * are per second, a class or queue not reported is NaN */
	bool have_nicstats;
	int nic_nrxq, nic_ntxq; /* queues counted (all of them) */
	double nic_rxq_pps[PS_STEP_MAX_QUEUES]; /* the first ones */
	double nic_txq_pps[PS_STEP_MAX_QUEUES];
	double nic_drops[PS_NIC_NDIR][PS_NIC_NDROP];
	double nic_pause_rx, nic_pause_tx; /* pause frames/s */
	/* the runs of the step (--repeat): bps is their median, the rest
	 * of the readings are the run nearest it; nruns 0: one test */
	int nruns;
	double run_bps[PS_STEP_MAX_RUNS];
	double bps_lo, bps_hi; /* the slowest and the fastest run */
	/* this end's busiest processes over the step besides the test's
	 * own (this process, a pipescope server of this host): name, pid,
	 * share of one core (probe-procs.h); nbusy 0: none or unknown */
	bool have_busy;
	int nbusy;
	struct ps_proc busy[PS_STEP_MAX_PROCS];
	/* the receiver's window over the RTT TCP saw, sample by sample
	 * (mean of snd_wnd × 8 / srtt, bit/s per stream; 0 unknown): what
	 * the window carried, where snd_wnd_bytes / rtt_us is biased low
	 * by the RTT's spikes */
	double wnd_rate_bps;
	/* this end's clock under the test: each core at least
	 * PS_FREQ_BUSY_PCT busy in a reading of the test (with cpufreq's
	 * current and maximum clock), its clock ÷ its maximum, averaged
	 * (freq_ratio) and the lowest (freq_ratio_min) over freq_samples
	 * such core readings; 0 samples: not known */
	int freq_samples;
	double freq_ratio, freq_ratio_min;
	long freq_max_khz; /* the highest maximum among them */
};
/* a core this busy in a reading counts for the clock under load */
#define PS_FREQ_BUSY_PCT 50.0

/* the direction a diagnosis is about: out (this end sending, the forward
 * tests), in (the far end sending, -R) or both at once (--bidir) */
enum ps_dir { PS_DIR_OUT = 0, PS_DIR_IN, PS_DIR_BOTH, PS_DIR_N };

struct ps_run {
	/* the direction whose steps speak for "the measured rate" (the
	 * diagnosis of one direction sets it on its view of the run): out
	 * also falls back to the other directions when no forward test
	 * finished, as a run of -R alone is diagnosed */
	enum ps_dir dir;
	bool loopback;	    /* the in-process server on 127.0.0.1 */
	char peer[256];	    /* the -c host */
	char peer_kind[16]; /* "pipescope", "iperf3", "" unknown */
	char peer_version[48];
	char cc_local[16], cc_remote[16];
	/* the CPUs this process may run on (sched_getaffinity): 1 when it
	 * was pinned, as with taskset -c N; 0 unknown */
	int affinity_ncpus;
	int affinity_first; /* the lowest of them */
	int nsteps;
	struct ps_step_result steps[24];
	/* the far end's latest probe snapshot (a reference), or NULL */
	struct ps_snapshot *peer_snap;
	double asked_bps; /* -b of the check command, 0 none */
	int64_t start_ns; /* CLOCK_REALTIME when the run began, 0 unknown */
};

void ps_run_free(struct ps_run *r);
/* the direction of a step */
enum ps_dir ps_step_dir(const struct ps_step_result *s);
/* "out", "in", "both" (JSON) */
const char *ps_dir_name(enum ps_dir d);
/* whether a finished step of that direction is in the run */
bool ps_run_has_dir(const struct ps_run *r, enum ps_dir d);
/* a finished step of the run's direction (r->dir) */
bool ps_step_in_dir(const struct ps_run *r, const struct ps_step_result *s);
/* the first finished step with 1 stream of the run's direction, or NULL */
const struct ps_step_result *ps_run_single(const struct ps_run *r);
/* the finished steps of the run's direction (forward: not reverse, not
 * bidir), in order; count */
size_t ps_run_sweep(const struct ps_run *r, const struct ps_step_result **out,
		    size_t max);
/* the finished step of the run's direction with the highest rate (out: a
 * reverse one when no forward test finished), or NULL: "the measured
 * rate" */
const struct ps_step_result *ps_run_best(const struct ps_run *r);
/* what one flow got at best: the most per stream of the finished steps of
 * the run's direction (one stream's rate is noisy on a loaded host), 0 none */
double ps_run_flow_bps(const struct ps_run *r);
/* whether a step's readings speak for the measured rate (the steps of the
 * run's direction; out: reverse/bidir too when no forward test finished) */
bool ps_step_counts(const struct ps_run *r, const struct ps_step_result *s);
void ps_step_add_cpu(struct ps_step_result *s, bool rx, int cpu);
/* the noise of a step: half the range of its runs' rates (0: one run) */
double ps_step_spread(const struct ps_step_result *s);
/* two steps' rates differ by more than their spreads: a difference the
 * repeats say is real (always, when neither was repeated) */
bool ps_step_differs(const struct ps_step_result *a,
		     const struct ps_step_result *b);
/* add cpu (>= 0) to a list of PS_STEP_MAX_CPUS once, in the order seen */
void ps_cpu_list_add(int *v, int *n, int cpu);

/* ---- the evidence a check reads -------------------------------------- */

struct ps_evidence {
	const struct ps_snapshot *snap; /* header, cpu, sysctl */
	const struct ps_irq_info *irq;	/* NULL: not sampled */
	const struct ps_pci_info *pci;
	const struct ps_ethtool_info *eth;
	const struct ps_link_info *link;
	const struct ps_run *res; /* NULL: static checks only */
	/* the far end's snapshot (a pipescope server's), or NULL: its host
	 * and NIC checks are evaluated too */
	const struct ps_snapshot *peer;
};

/* the evidence of one snapshot (its members; res may be NULL) */
void ps_evidence_of(const struct ps_snapshot *snap, const struct ps_run *res,
		    struct ps_evidence *ev);

/* ---- findings -------------------------------------------------------- */

enum ps_severity {
	PS_SEV_INFO = 0,   /* worth knowing, limits nothing */
	PS_SEV_WARNING,	   /* a setting or sign that can cost throughput */
	PS_SEV_BOTTLENECK, /* the numbers say it limits the rate */
};

enum ps_scope {
	PS_SCOPE_NONE = 0,
	PS_SCOPE_FLOW,	 /* each flow on its own (window, one core) */
	PS_SCOPE_SHARED, /* all flows together (link, PCIe, shaper) */
};

/* one number of a finding's evidence, beside its translated sentence:
 * {key: "pcie_usable", value: 3.66e9, unit: "bit/s"}; keys are stable
 * snake_case, never translated (doc/check.md) */
struct ps_fact {
	const char *key;
	double value;
	const char *unit; /* "bit/s", "bytes", "us", "%", "GT/s", "lanes",
			     "count", "1/s", "share" (0..1) */
};

#define PS_MAX_FACTS 12
#define PS_MAX_CROSSED 4

struct ps_finding {
	const char *id; /* stable JSON id; the check's unless it says */
	enum ps_severity severity;
	enum ps_scope scope;
	double ceiling_bps;	/* 0 when none can be computed */
	char ceiling_what[128]; /* "PCIe x1 at 5 GT/s, usable" */
	/* the ceiling is only a measured rate (a plateau, what a saturated
	 * core carried), not a configured or computed limit */
	bool ceiling_measured;
	char title[200];
	char evidence[1024]; /* the numbers */
	char remedy[400];    /* a command, or what to do */
	/* about the far end (its setting, its counters, its tool), whatever
	 * end's readings told it: JSON "end": "far" */
	bool far;
	struct ps_fact facts[PS_MAX_FACTS]; /* the evidence's numbers */
	int nfacts;
	/* the thresholds (rules.h) whose crossing made it fire, and set its
	 * severity: JSON "thresholds" */
	const struct ps_rule *crossed[PS_MAX_CROSSED];
	int ncrossed;
};

/* add a fact to f (a key already there is replaced; ignored when full or
 * the value is not finite) */
void ps_fact(struct ps_finding *f, const char *key, double value,
	     const char *unit);
/* the value of a fact, or NAN */
double ps_fact_get(const struct ps_finding *f, const char *key);
/* f fired (or took its severity) because a reading crossed rule r: said
 * once, ignored when full */
void ps_crossed(struct ps_finding *f, const struct ps_rule *r);

enum ps_check_state {
	PS_CHECK_NA = -1,   /* cannot tell: the evidence is missing */
	PS_CHECK_CLEAR = 0, /* looked, ruled out (evidence says why) */
	PS_CHECK_FIRED = 1, /* a finding */
};

struct ps_check_ops {
	const char *id;	    /* stable: "pcie_link" */
	const char *family; /* "host", "cpu", "nic", "path", "tool" */
	const char *title;  /* N_("PCIe link"): what it looks at */
	/* among findings of one severity, higher ranks first: root causes
	 * (a setting) above effects (a busy core) above classifications */
	int weight;
	bool needs_test; /* only meaningful with test results */
	/* makes each packet cost more CPU: when it is a bottleneck it
	 * explains as much as the saturated core it causes */
	bool cpu_cause;
	/* caps each flow on its own (a window): when it is a bottleneck it
	 * explains as much as the per-flow limit the sweep found */
	bool flow_cause;
	/* classifies what the tests saw (the stream-count fork's plateau
	 * or per-flow limit): an effect, folded into any bottleneck whose
	 * ceiling explains it, measured or not (ceiling.c) */
	bool effect;
	/* reads only counters of the whole kernel (softnet_stat, the
	 * irqbalance process), not of an interface or a namespace: a far
	 * end on the same kernel (another namespace) is not checked again */
	bool host_wide;
	/* fill f (id, severity, texts); for NA and CLEAR f->evidence says
	 * what was seen; pure: reads only the evidence */
	enum ps_check_state (*eval)(const struct ps_evidence *ev,
				    struct ps_finding *f);
};

extern const struct ps_check_ops *const ps_check_registry[];
extern const size_t ps_check_count;
const struct ps_check_ops *ps_check_find(const char *id);

/* every check's ops, each in its family's file (check-list.h) */
#define PS_CHECK_DECLARE(NAME) extern const struct ps_check_ops ps_check_##NAME;
PS_CHECK_LIST(PS_CHECK_DECLARE)
#undef PS_CHECK_DECLARE

const char *ps_severity_name(enum ps_severity s); /* JSON: "warning" */
const char *ps_severity_text(enum ps_severity s); /* translated */
const char *ps_scope_name(enum ps_scope s);	  /* "flow", "shared" */

/* ---- helpers the checks share (check.c) ------------------------------ */

/* the test's share of all cores during a step, in %: its processes (the
 * far end's too on this machine) and its packets' softirq and interrupt
 * time; what is left of the busy time is other work (check-cpu.c) */
double ps_step_test_share(const struct ps_evidence *ev,
			  const struct ps_step_result *s);

/* the fastest step of the direction judged whose cores were all saturated
 * while other work took a share of them that makes it the cause, or NULL
 * (check-tenants.c, rules cpu_other_work_*): host_busy says so first, the
 * CPU checks defer to it */
const struct ps_step_result *ps_run_other_work(const struct ps_evidence *ev);

/* ps_fmt_bps ("3.52 Gbit/s") and ps_fmt_bytes10 ("12.5 MB") are in units.h */
/* append to a fixed buffer, never past its end */
void ps_appendf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define PS_APPEND(arr, ...) ps_appendf((arr), sizeof(arr), __VA_ARGS__)
#define PS_SET(arr, ...)                                                       \
	(((arr)[0] = 0), ps_appendf((arr), sizeof(arr), __VA_ARGS__))
/* a kernel counter's growth over a step, 0 when unknown, negative or past
 * PS_GREW_MAX (no host counts that many: a far end's numbers are
 * untrusted), so that no such number is told and sums over steps and
 * counters cannot overflow */
#define PS_GREW_MAX ((int64_t)1 << 48)
/* what no host's links carry in a second (8 x 800 Gbit/s of minimum
 * frames is 9.5e9 packets): a far end's counter that grew faster by our
 * clock, or a rate past it, is not known, never a finding's number */
#define PS_MAX_PPS 1e10
#define PS_MAX_BPS 1e13
/* the most seconds a far end's two readings of a step may span, by this
 * end's measure of the step: it reads once a second, and one reading may
 * come before the step and one after it */
#define PS_PEER_SPAN_MAX(seconds) (2 * (seconds) + 3)
int64_t ps_grew(int64_t d);

/* the interface the evidence is about, "" when none */
const char *ps_ev_ifname(const struct ps_evidence *ev);
/* the NIC the NIC probes read: the interface itself, or the physical NIC
 * under a vlan, bond or bridge */
const char *ps_ev_nicname(const struct ps_evidence *ev);
/* a software device (veth, lo, bridge, tun...) or a virtual NIC driver */
bool ps_ev_virtual(const struct ps_evidence *ev);
/* the line rate in bit/s of a physical NIC, 0 unknown or virtual */
double ps_ev_line_bps(const struct ps_evidence *ev);
/* this end's setting (an INT's value, a TRIPLE's max), -1 when not read */
long long ps_ev_sysctl(const struct ps_evidence *ev, enum ps_sysctl_id id);
/* the busy % of the step's least busy core (101 when none was read) and in
 * *n how many cores were read */
double ps_step_least_busy(const struct ps_step_result *s, int *n);
/* busiest core of a step among the ones the test used: index into
 * s->cpu.cores or -1; others_avg gets the mean busy % of the other cores */
int ps_step_test_core(const struct ps_step_result *s, double *others_avg);
/* the thresholds several families share (check.c, family "check"): a core
 * this busy is saturated (the one rule of the CPU and NIC checks and the
 * workstation); a test below this rate moved nothing; a ceiling this far
 * below the rate is contradicted (the ceiling model and the window check);
 * the sum of more streams this many times one stream's is a per-flow limit
 * (the stream-count fork, the window's target, an old iperf3 peer) */
enum ps_check_rule {
	PS_RULE_CORE_SATURATED,
	PS_RULE_NOTHING_MOVED,
	PS_RULE_CONTRADICTED,
	PS_RULE_FLOW_GROWTH,
	PS_NCHECK_RULES
};
extern const struct ps_rule ps_check_rules[PS_NCHECK_RULES];
#define PS_CHECK_RULE(id) (&ps_check_rules[PS_RULE_##id])
/* the busiest core of a sample is saturated, by the rule of the check
 * cpu_core_saturated (check-cpu.c): what the workstation says of a core
 * while no test runs */
bool ps_cpu_saturated(const struct ps_cpu_info *cpu);
/* the number of online cores, 0 unknown */
int ps_ev_ncores(const struct ps_evidence *ev);
/*
 * Whether any drop counter grew over the step, on either end: the
 * kernel's (UDP buffer/errors, IP discards, TCP backlog/prune/ofo/rcvq
 * drops, check-drops.c). The qdisc's and the NIC's drops belong here too:
 * add them to this one function (their fields of the step), so "reordering,
 * not loss" is said only when nothing anywhere dropped.
 */
bool ps_step_drops_grew(const struct ps_step_result *s);
/* the drop counters that grew, as text ("far end: UdpRcvbufErrors +12"),
 * "" when none */
void ps_step_drops_text(const struct ps_step_result *s, char *buf, size_t len);
/* the far end's placement on this machine's cores (a pipescope server in
 * another network namespace: the CPUs it may run on, where RPS steers its
 * receive work) appended to f's evidence; true when it was told */
bool ps_ev_far_placement(const struct ps_evidence *ev, struct ps_finding *f);
/* the far end's part of a remedy when ps_ev_far_placement told something */
void ps_far_placement_remedy(struct ps_finding *f);

#endif
