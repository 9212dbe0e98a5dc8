/* engine.h: the throughput engine: tests, streams and what they report */
#ifndef PS_ENGINE_H
#define PS_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/resource.h>

#include "options.h"
#include "place.h"
#include "proto.h"

struct ps_snapshot;
struct json_object;

/* one stream's numbers over one interval (or the whole test) */
struct ps_stream_iv {
	int id;		   /* iperf3 stream id: 1, 3, 4, 5, … */
	int fd;		   /* shown as [ID] as iperf3 does */
	int target;	   /* index of the -c target */
	bool sender;	   /* this end sends on it */
	double start, end; /* seconds since the test started */
	uint64_t bytes;
	double bps;
	bool omitted;
	/* TCP_INFO, on the sending end (has_tcpinfo) */
	bool has_tcpinfo;
	int64_t retrans;  /* in this interval */
	uint64_t cwnd;	  /* bytes */
	uint64_t snd_wnd; /* bytes, 0 when the kernel lacks it; the test's
			   * largest in a summary */
	int64_t reorder;  /* reordering events in this interval (test) */
	uint32_t rtt_us, rttvar_us, min_rtt_us, pmtu, mss;
	uint64_t delivery_bps, pacing_bps;
	uint64_t busy_us, rwnd_limited_us,
		sndbuf_limited_us; /* this interval */
	bool app_limited;
	/* UDP */
	uint64_t packets;
	int64_t lost;
	uint64_t ooo;
	double jitter_ms;
	/* a pipescope server's live data on a stream it receives (UDP):
	 * packets (its highest number, the lost included) and lost since the
	 * test began, not the interval's */
	bool udp_totals;
	/* where it ran */
	int cpu;    /* the stream thread's CPU (sched_getcpu) */
	int rx_cpu; /* SO_INCOMING_CPU: where its softirq ran */
	/* a TCP receiver's batch (SO_RCVLOWAT bytes), or 0: every segment */
	int rx_batch;
};

struct ps_interval {
	double start, end;
	bool omitted;
	int nstreams;
	struct ps_stream_iv *streams;
	/* sums: [0] what this end sent, [1] what it received */
	struct ps_stream_iv sum[2];
	bool have_sum[2];
	/* the far end's TCP_INFO (pipescope peers, reverse/bidir) */
	int nremote;
	struct ps_stream_iv *remote;
	/* the far end's latest probe snapshot (a pipescope server asked for
	 * it), or NULL; valid during the callback: ps_snapshot_get to keep */
	const struct ps_snapshot *peer_snap;
	/* its first of the test: a pipescope server takes it before the
	 * streams start, so its counters' base */
	const struct ps_snapshot *peer_snap0;
};

/* the whole test, at the end */
struct ps_summary {
	double duration;
	int nstreams;
	struct ps_stream_iv *local; /* bytes this end moved, per stream */
	uint64_t *remote_bytes;	    /* the peer's count, per stream */
	int64_t *remote_errors;	    /* UDP loss seen by the peer */
	int64_t *remote_packets;
	double *remote_jitter_ms;
	int64_t *remote_retrans; /* -1 when the peer did not say */
	struct ps_stream_iv sum_sent, sum_received; /* as iperf3's end.sum_* */
	bool have_sent, have_received;
	double cpu_local_total, cpu_local_user, cpu_local_system;
	double cpu_remote_total, cpu_remote_user, cpu_remote_system;
	double cpu_seconds_per_gb; /* this end's CPU seconds per GB moved */
	char congestion_local[16], congestion_remote[16];
	bool remote_valid;
	bool partial;	     /* ended by a fault; numbers up to it */
	bool stopped;	     /* partial because this end was told to stop
			      * (the screen's s, a signal) */
	char *server_output; /* --get-server-output, or NULL */
	struct json_object *server_output_json; /* the same from a -J server */
	const struct ps_snapshot *peer_snap;	/* as in ps_interval */
};

struct ps_test_info {
	bool server;
	enum ps_proto proto;
	int nstreams; /* data connections */
	int parallel;
	bool reverse, bidir;
	double duration;
	uint64_t bytes, blocks;
	uint32_t len;
	int omit;
	uint64_t rate;
	uint64_t fq_rate;      /* --fq-rate bit/s */
	bool gsro;	       /* UDP GSO/GRO asked for */
	const char *peer_kind; /* "pipescope" or "iperf3" */
	char title[256];       /* a server's: the client's -T */
	char peer_version[48];
	char cookie[PS_COOKIE_SIZE];
	int ntargets;
	const char *target_host[PS_MAX_TARGETS];
	int target_port[PS_MAX_TARGETS];
	uint64_t window_req;
	int sndbuf_actual, rcvbuf_actual;
	/* the control connection's far end (iperf3's accepted_connection) */
	char ctrl_remote[64];
	int ctrl_rport;
	int mss_default;
	/* per stream: who, where */
	struct {
		int id, fd;
		bool sender;
		char local[64], remote[64];
		int lport, rport;
		/* read back from the socket: what the kernel really applied */
		int nodelay, mss, sndbuf, rcvbuf, tos;
		char congestion[16];
	} conn[2 * PS_MAX_STREAMS * PS_MAX_TARGETS];
	int nconn;
	int threads; /* threads that move the data (one per stream, or fewer) */
	/* where they were kept: the NIC's NUMA node (place.h) */
	struct ps_placement place;
	/* what one TCP send hands the kernel (the block, or a piece of it);
	 * 0: this end sends no TCP */
	size_t send_piece;
};

/* every renderer (text, JSON, json-stream, TUI) implements these */
struct ps_reporter {
	void (*start)(void *arg, const struct ps_test_info *info);
	void (*interval)(void *arg, const struct ps_interval *iv);
	void (*end)(void *arg, const struct ps_test_info *info,
		    const struct ps_summary *sum);
	void (*error)(void *arg, const char *msg);
	void (*message)(void *arg, const char *msg); /* "Connecting…" */
	void (*destroy)(void *arg); /* flush what is pending and free */
	void *arg;
};

/* run a client test as the options say; 0 or an exit code */
int ps_client_run(const struct ps_opts *o, const struct ps_reporter *rep,
		  atomic_bool *stop);
/*
 * The server: open binds the port (0 picks a free one, for the self-test)
 * and reads --rsa-private-key-path's files (-ENOKEY: it said why), loop
 * serves until *stop (or after one test with -1). 0 or an exit code.
 */
struct ps_server;
int ps_server_open(const struct ps_opts *o, struct ps_server **out);
int ps_server_port(const struct ps_server *srv);
void ps_server_set_output(struct ps_server *srv, FILE *out);
int ps_server_loop(struct ps_server *srv, const struct ps_reporter *rep,
		   atomic_bool *stop);
void ps_server_close(struct ps_server *srv);

/* a line for the reporter's message callback ("Connecting to ..."), if any */
void ps_report_message(const struct ps_reporter *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* the renderers the engine ships */
void ps_report_text_init(struct ps_reporter *r, const struct ps_opts *o,
			 FILE *out);
void ps_report_json_init(struct ps_reporter *r, const struct ps_opts *o,
			 FILE *out, bool stream);
void ps_report_destroy(struct ps_reporter *r);

/* "rwnd", "sndbuf", "app" or "cwnd": what TCP_INFO says held a flow back,
 * or NULL when nothing did or it cannot tell */
const char *ps_limit_reason(const struct ps_stream_iv *v);

/* for a stream in a summary: the bytes its sender and its receiver counted */
void ps_summary_stream_bytes(const struct ps_summary *sum, int i,
			     uint64_t *sent, uint64_t *received);
/* the same summed over every stream (both ways in a bidir test) */
void ps_summary_bytes(const struct ps_summary *sum, double *sent,
		      double *received);
#endif
