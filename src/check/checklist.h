/* checklist.h: the guided run of "pipescope check": inventory of this
 * host, one stream after an omit period, the stream sweep (2, 4, 8, ...
 * until the sum stops growing), reverse, both directions; each step with
 * progress and a one-line reason, each skippable */
#ifndef PS_CHECKLIST_H
#define PS_CHECKLIST_H

#include <stdatomic.h>
#include <stdbool.h>

#include "check.h"
#include "options.h"

/* this host's readings: one snapshot with every probe's member (CPU,
 * sysctl, link, ethtool, PCIe, IRQs) */
struct ps_host {
	struct ps_snapshot *snap; /* a reference, or NULL */
};

/*
 * Sample this host (or the tree of ps_sysroot_set) for the chosen
 * interface; live, two samples @interval_s apart so rates exist. 0, or
 * -errno.
 */
int ps_host_sample(struct ps_host *h, const struct ps_iface_choice *iface,
		   double interval_s);
/* a saved "pipescope probe --json" (check --snapshot FILE): 0 or -errno */
int ps_host_load(struct ps_host *h, const char *file);
/* the evidence the checks read, pointing into h (res may be NULL) */
void ps_host_evidence(const struct ps_host *h, const struct ps_run *res,
		      struct ps_evidence *ev);
void ps_host_free(struct ps_host *h);

/* the interface the guided run reads: --iface, lo for the self-test and
 * loopback peers, else the route to the peer (check and the workstation's
 * g alike) */
void ps_check_iface_choose(const struct ps_opts *opts,
			   struct ps_iface_choice *iface);
/* the inventory step's one line: "interface lo (option), MTU 65536, 2
 * cores" */
void ps_check_inventory_line(const struct ps_host *host,
			     const struct ps_iface_choice *iface, char *line,
			     size_t len);

struct ps_diagnosis;
struct ps_interval;
struct ps_session;

/* the steps, in order */
enum ps_cl_step {
	PS_CL_INVENTORY,
	PS_CL_SINGLE,
	PS_CL_SWEEP,
	PS_CL_REVERSE,
	PS_CL_BIDIR,
	PS_CL_EVALUATE,
	PS_CL_NSTEPS
};

/* what the caller sees while it runs (all optional) */
struct ps_checklist_ui {
	/* a step begins: n of total, its title and why it is done */
	void (*begin)(void *arg, int n, int total, const char *title,
		      const char *reason);
	/* a step ends; res is the test's result (NULL for inventory) */
	void (*end)(void *arg, const struct ps_step_result *res,
		    const char *summary);
	/* each interval of the running test, as the engine reports it (the
	 * workstation feeds its graph and sum with it) */
	void (*interval)(void *arg, const struct ps_interval *iv);
	/* the running test's session after each interval and after its end
	 * (the engine's thread; the workstation's live findings read it) */
	void (*session)(void *arg, const struct ps_session *s);
	void *arg;
};

struct ps_checklist_cfg {
	const struct ps_opts *opts;   /* -c, -p, -t, --quick, ... */
	const struct ps_opts *client; /* the options a test runs with */
	bool loopback;		      /* client points at the self-test */
	double step_seconds;	      /* length of one test */
	int omit;		      /* seconds left out of each test */
	int max_streams;	      /* the sweep's end */
	bool reverse, bidir;	      /* run these steps */
	char iface[16];		      /* the NIC read around each test */
	/* check -u: one UDP test instead of the TCP steps (the caller sets
	 * it: the workstation's guided run stays TCP) */
	bool udp;
	int repeat; /* runs of each step (--repeat N; default 2) */
	/* this end's readings around and during each test: NULL samples
	 * this host's probes for iface; else a new snapshot with a
	 * reference, or NULL (a test's recorded readings) */
	struct ps_snapshot *(*read)(void *arg);
	void *read_arg;
	/* set (Ctrl-C, a key) to skip the running step; cleared after */
	atomic_bool *skip;
	/* set (a key) to end the whole run: the running step is skipped and
	 * no other begins; NULL: only two quick skips end it */
	atomic_bool *abort;
	struct ps_checklist_ui ui;
};

/* the defaults for opts (quick or not) */
void ps_checklist_defaults(struct ps_checklist_cfg *cfg,
			   const struct ps_opts *opts);
/* "Why" lines of the steps, translated */
const char *ps_checklist_title(enum ps_cl_step s);
const char *ps_checklist_reason(enum ps_cl_step s);

/*
 * Run the tests of the guided run into res (the inventory is the caller's:
 * ps_host_sample). Returns 0 when at least one test ran, else -EIO (every
 * test failed; the steps say why).
 */
int ps_checklist_run(const struct ps_checklist_cfg *cfg, struct ps_run *res);
/* what a run knows before its first test: the self-test or not, the -b
 * asked for, the CPUs this process may use (ps_checklist_run does it) */
void ps_checklist_run_init(const struct ps_checklist_cfg *cfg,
			   struct ps_run *res);

/*
 * One test's collector: the reporter the engine feeds, which feeds the
 * test's session (session.h) and takes this end's readings at its start,
 * after each interval and after its end (cfg->read, or the probes).
 * ps_checklist_test runs one; a test drives one with recorded events.
 */
struct ps_cl_collect;
struct ps_reporter;

struct ps_cl_collect *ps_cl_collect_new(const struct ps_checklist_cfg *cfg,
					struct ps_run *res);
void ps_cl_collect_reporter(struct ps_cl_collect *c, struct ps_reporter *rep);
/* the step so far (out->id kept; its cpu freed first) and the far end's
 * latest snapshot into res; true once the test ended */
bool ps_cl_collect_step(struct ps_cl_collect *c, struct ps_step_result *out);
const struct ps_session *ps_cl_collect_session(const struct ps_cl_collect *c);
void ps_cl_collect_free(struct ps_cl_collect *c);

/*
 * The whole guided run, the frame "pipescope check" and the workstation's
 * g share: the inventory (this host's probes, two samples a second apart),
 * the tests (ps_checklist_run; none once cfg->abort is set), and the
 * evaluation (every check on what ran, into g->diag). Progress goes to
 * cfg->ui (begin/end of the inventory and evaluation steps too); what is
 * done with the diagnosis (the report, the history) is the caller's.
 * g->rc is ps_checklist_run's (-EIO: no test ran).
 */
struct ps_guided {
	struct ps_host host;
	struct ps_run *res;	   /* heap */
	struct ps_diagnosis *diag; /* heap */
	struct ps_evidence ev;	   /* what diag was made from */
	int rc;
};

/* a run to peer (the -c host) not begun yet: its run and diagnosis */
void ps_guided_init(struct ps_guided *g, const char *peer);
void ps_guided_run(const struct ps_checklist_cfg *cfg,
		   const struct ps_iface_choice *iface, struct ps_guided *g);
void ps_guided_free(struct ps_guided *g);

/* one test with the given streams and direction into out */
int ps_checklist_test(const struct ps_checklist_cfg *cfg, struct ps_run *res,
		      struct ps_step_result *out, int streams, bool reverse,
		      bool bidir);

#endif
