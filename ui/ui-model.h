/* ui-model.h: what the workstation knows about the running test (filled by
 * the engine's reporter callbacks on the engine's thread, copied whole by
 * the UI thread for each frame) and the worker thread that runs tests */
#ifndef PS_UI_MODEL_H
#define PS_UI_MODEL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "options.h"
#include "report-capture.h"
#include "snapshot.h"
#include "session.h"
#include "step.h"

#define UI_MAX_ROWS (2 * PS_MAX_STREAMS)
#define UI_HIST 1024 /* sum samples kept for the graph */
#define UI_SPARK 32  /* per-stream samples kept for the sparklines */

enum ui_test_state {
	UI_TEST_IDLE,	    /* nothing run yet */
	UI_TEST_CONNECTING, /* started, no start callback yet */
	UI_TEST_RUNNING,
	UI_TEST_STOPPING, /* stop asked, the engine is winding down */
	UI_TEST_DONE,	  /* ended normally */
	UI_TEST_FAILED,	  /* ended with an error */
};

/* one copy of everything a frame shows about the test */
struct ui_test_view {
	enum ui_test_state state;
	uint64_t gen;  /* bumped on every change */
	uint64_t runs; /* tests started so far */

	/* what the running (or last) test is */
	char target[300];   /* "127.0.0.1:5201" */
	char peer_kind[16]; /* "pipescope", "iperf3", "" */
	char peer_version[48];
	enum ps_proto proto;
	bool reverse, bidir;
	int parallel;
	double duration;    /* 0: until stopped */
	int64_t started_ns; /* CLOCK_MONOTONIC of the start */
	double elapsed;	    /* end of the latest interval */

	/* the latest interval */
	int nstreams;
	struct ps_stream_iv streams[UI_MAX_ROWS];
	int nremote;
	struct ps_stream_iv remote[UI_MAX_ROWS];
	bool have_sum[2]; /* [0] sent, [1] received */
	double sum_bps[2];
	double now_bps;	    /* both directions */
	double bytes_total; /* since the test started, not omitted */
	double time_total;

	/* the end */
	bool have_end;
	double end_bps[2]; /* sum_sent, sum_received */
	double end_duration;
	double cpu_local, cpu_remote;
	/* the end's figures of the far end's side came (its results); a
	 * stopped or failed test has only this end's */
	bool end_known;
	bool end_partial; /* ended by s or a fault: numbers up to then */
	bool stopped;	  /* s (or a restart) ended it */
	/* a guided run's test, as its step ended: the step's rate (the
	 * median of its runs), its measured seconds and its runs; the
	 * intervals fed are those of every run */
	bool have_step;
	double step_bps, step_seconds;
	int step_runs;
	/* the streams rows are the test's averages (after the end) */
	bool rows_avg;
	/* the -b target of each stream, bit/s (0: none) */
	double target_bps;
	/* UDP: what the receivers counted (the server's results for the
	 * streams this end sends, live from a pipescope server's data);
	 * rx_packets 0: not known */
	int64_t rx_lost, rx_packets;
	double rx_jitter_ms;
	bool rx_live; /* from the far end's live data, not the results */
	/* the parts of rx_lost/rx_packets while the test runs: this end's
	 * intervals summed, and a pipescope server's totals (its latest) */
	int64_t rx_lost_here, rx_packets_here, rx_lost_far, rx_packets_far;
	/* UDP: each of this end's streams' packets and loss so far (the
	 * rows say the test's counts, as the far end's and the header do;
	 * the rate beside them is the interval's) */
	uint64_t udp_packets[UI_MAX_ROWS];
	int64_t udp_lost[UI_MAX_ROWS];
	/* what the far end said it received in its latest report (a
	 * pipescope server's live data), bit/s; -1 none: the last known */
	double far_rx_bps;

	/* each stream's rate over its latest intervals (by its index in
	 * streams[]), spark[i][k % UI_SPARK] for k < nspark */
	float spark[UI_MAX_ROWS][UI_SPARK];
	uint32_t nspark;

	/* the sum over time (across tests; a new test leaves a gap) */
	uint64_t nhist;	      /* samples ever added */
	uint64_t hist_start;  /* the first sample of this test */
	double hist[UI_HIST]; /* hist[i % UI_HIST] */

	char error[256];   /* the engine's last error */
	char message[256]; /* its last message ("Connecting...") */
	uint64_t message_gen;
	int message_level; /* 0 info, 1 warning, 2 error */
};

struct ui_model {
	pthread_mutex_t lock;
	int wake_fd;	       /* eventfd the UI polls */
	struct ui_test_view v; /* under lock */
	/* under lock: a pipescope server's latest probe snapshot (its
	 * cores, NIC), a reference; NULL with an iperf3 peer */
	struct ps_snapshot *peer_snap;
	/* under lock: the worker's test as the checks read it (its
	 * reporter feeds it, ui_model_local this end's readings) */
	struct ps_session sess;
	/* under lock: a test someone else runs (the guided run), as its
	 * own session last made it: its step and the bases of its counters
	 * (references); ext_valid while it is the test shown */
	bool ext_valid;
	struct ps_step_result ext_step;
	struct ps_snapshot *ext_base, *ext_peer_base;
	/* the last test the worker ran, as its text and -J reports (w
	 * writes them; its own lock) */
	struct ps_capture cap;

	/* the worker */
	pthread_t th;
	bool th_live;	      /* created, not joined */
	atomic_bool finished; /* the worker returned */
	atomic_bool stop;     /* ask the engine to stop */
	struct ps_opts co;    /* what the worker runs */
	bool retry;
	int rc;
};

int ui_model_init(struct ui_model *m);
void ui_model_destroy(struct ui_model *m);
/* wake the UI thread (any thread; never blocks) */
void ui_model_wake(struct ui_model *m);
/* drain the wake-up fd (UI thread) */
void ui_model_drain(struct ui_model *m);
/* a copy of the view, taken under the lock */
void ui_model_copy(struct ui_model *m, struct ui_test_view *out);
/* the far end's latest snapshot with a reference (ps_snapshot_put), or
 * NULL */
struct ps_snapshot *ui_model_peer(struct ui_model *m);

/* start a test with co on a new worker thread; -EBUSY while one runs;
 * retry: a restart, tried again while the server is still busy */
int ui_model_start(struct ui_model *m, const struct ps_opts *co, bool retry);
/* ask the running test to stop (does not wait) */
void ui_model_stop(struct ui_model *m);
/* join the worker if it has returned; true when no worker is left */
bool ui_model_reap(struct ui_model *m);
/* stop and wait (at exit) */
void ui_model_finish(struct ui_model *m);
bool ui_model_busy(struct ui_model *m);

/* a line for the message line (any thread): 0 info, 1 warning, 2 error */
void ui_model_say(struct ui_model *m, int level, const char *msg);

/*
 * A test someone else runs (the guided run) shown as the workstation's
 * own: begin resets the view (TCP, duration seconds), each interval feeds
 * the streams, graph and sum (streams and direction read from it), end
 * says how it went and who the peer was (kept for the next begin). Any thread;
 * the worker must not run meanwhile.
 */
void ui_model_feed_begin(struct ui_model *m, const struct ps_opts *co,
			 double duration);
void ui_model_feed_interval(struct ui_model *m, const struct ps_interval *iv);
void ui_model_feed_end(struct ui_model *m, const struct ps_step_result *s,
		       const char *peer_kind, const char *peer_version);

/* the guided run's test as its session stands (after each interval and
 * at the end; the engine's thread): the step the checks read from now on,
 * and its counters' bases */
void ui_model_feed_session(struct ui_model *m, const struct ps_session *s);

/* a reading of this end (the UI thread, each new snapshot) for the
 * worker's running test */
void ui_model_local(struct ui_model *m, struct ps_snapshot *snap);
/* the shown test as one step of a guided run (ps_step_result_free it);
 * false when no test has data yet */
bool ui_model_step(struct ui_model *m, struct ps_step_result *out);
/* the readings the shown test's counters count from, this end's and the
 * far end's, with references (ps_snapshot_put each), or NULL */
void ui_model_bases(struct ui_model *m, struct ps_snapshot **here,
		    struct ps_snapshot **far);

/* the engine's callbacks (exposed for the unit tests) */
void ui_model_reporter(struct ui_model *m, struct ps_reporter *rep);

#endif
