/* test.h: the engine's inside: one test, its streams, their threads */
#ifndef PS_TEST_H
#define PS_TEST_H

#include <stdatomic.h>
#include <stdio.h>

#include "engine.h"
#include "net.h"
#include "place.h"
#include "tcpinfo.h"

struct ps_test;

struct ps_stream {
	struct ps_test *t;
	int id;
	int fd;
	int target;
	bool sender;
	bool udp;
	int cpu_pin; /* -1 = none */
	pthread_t thread;
	bool running;
	char *buf;
	size_t len;
	int file_fd;	   /* -F, or the -Z sendfile source; -1 */
	unsigned gso_segs; /* UDP datagrams per send (1 = no GSO) */
	bool from_file;	   /* -F: send file_fd's bytes once, then end */
	int worker;	   /* t->workers[] serving it, or -1: its own thread */
	bool shared_buf;   /* buf is the worker's, not the stream's */

	/* written by the stream thread, read by the control thread */
	atomic_uint_fast64_t bytes;
	atomic_uint_fast64_t blocks;
	atomic_uint_fast64_t packets;	/* UDP: received or sent */
	atomic_int_fast64_t lost;	/* UDP receiver */
	atomic_uint_fast64_t ooo;	/* UDP receiver */
	atomic_uint_fast64_t jitter_ns; /* UDP receiver */
	atomic_int cpu;
	atomic_int err; /* errno that ended the thread, or 0 */
	atomic_bool finished;

	/* a grouped stream's worker-private state: the block in flight */
	size_t pend;	 /* its bytes still to send */
	uint64_t tx_seq; /* UDP datagrams numbered */
	uint64_t mine;	 /* bytes sent (or received) */
	double tx_start;
	double due; /* -b: parked (not polled) until then, or 0 */
	bool retired;

	/* a TCP receiver's batch size (SO_RCVLOWAT), set from its own rate;
	 * read by the control thread for -J */
	atomic_int lowat;
	double lw_t, lw_next;
	uint64_t lw_bytes;

	/* the UDP receiver's private state: its counts, published once a
	 * batch to packets, lost, ooo and jitter_ns */
	uint64_t udp_packets, udp_ooo;
	int64_t udp_lost;
	uint64_t udp_last_seq;
	double udp_prev_transit;
	double udp_jitter;

	/* the control thread's private state */
	uint64_t iv_bytes, iv_packets, iv_ooo;
	int64_t iv_lost;
	uint64_t omit_bytes, omit_packets;
	int64_t omit_lost;
	struct ps_tcpinfo ti_prev;
	bool have_ti_prev;
	int64_t retrans_total;
	uint32_t rtt_max, rtt_min;
	uint64_t rtt_sum, rtt_n;
	uint64_t cwnd_max, snd_wnd_max;
	int64_t reorder_total;
	int rx_cpu;
	struct ps_stream_iv last_iv;
};

/*
 * More streams than online CPUs: a few threads (as many as the CPUs this
 * process may run on), each polling its streams (index % nworkers) with
 * epoll on non-blocking sockets, instead of one thread per stream.
 */
struct ps_worker {
	struct ps_test *t;
	int idx;
	pthread_t thread;
	bool running;
	int epfd, wakefd;
	char *txbuf, *rxbuf; /* shared by its streams, one at a time */
};

struct ps_test {
	struct ps_params p;
	bool server;
	int ctrl_fd;
	char cookie[PS_COOKIE_SIZE];
	int nstreams;
	struct ps_stream *streams[2 * PS_MAX_STREAMS * PS_MAX_TARGETS];
	const struct ps_reporter *rep;
	struct ps_test_info info;
	double interval;
	char format;
	bool skip_rx_copy;
	bool gsro;	/* UDP_SEGMENT on senders, UDP_GRO on receivers */
	bool file_send; /* -F: the test ends when the file is sent */
	const struct ps_opts *o;

	atomic_bool done;		  /* senders stop */
	atomic_bool rx_done;		  /* receivers stop */
	atomic_uint_fast64_t sent_bytes;  /* for -n, reserved before send */
	atomic_uint_fast64_t sent_blocks; /* for -k */
	atomic_uint_fast64_t moved_bytes; /* either direction, for -n -R */
	double t0;			  /* ps_now() at TEST_RUNNING */
	double wall0; /* wall clock then, for UDP timestamps */
	double last_tick;
	double omit_until;
	bool omitting;
	struct rusage ru0;
	double cpu_wall0;
	struct ps_interval iv; /* scratch for the reporter */
	struct ps_stream_iv *iv_streams;
	int niv; /* iv_streams' entries (nstreams at the start) */
	struct ps_stream_iv *iv_remote;
	int nremote;
	int nremote_max; /* iv_remote's entries */
	/* the peer */
	bool peer_ext;
	bool peer_same_kernel; /* its boot id is this kernel's (its EXT_ACK,
				* or the client's parameters) */			/* the peer is pipescope */
	struct ps_snapshot *peer_snap;	/* its latest probe snapshot, or NULL */
	struct ps_snapshot *peer_snap0; /* the first (before the test) */
	bool peer_snap_refused;		/* one was left out, and said */
	struct ps_results remote;
	bool remote_valid;
	/* the stream threads: 0 = one per stream, else that many workers */
	int nworkers;
	struct ps_worker *workers;
	int ncpu; /* the CPUs this process may use (or place.set holds) */
	struct ps_placement place; /* where the data threads stay */
	/* a TCP sender's piece: what one send hands the kernel (0: the
	 * whole block), and a worker's pieces a turn (ps_streams_start) */
	size_t tx_piece;
	int tx_burst;
};

/* stream life */
struct ps_stream *ps_stream_new(struct ps_test *t, int fd, int id, bool sender,
				int target);
void ps_stream_free(struct ps_stream *s);
/* before the streams are made: how many threads serve them: one each
 * while -P (parallel, streams each way) is at most the CPUs this process
 * may use, else one per CPU (--bidir -P 2 on 2 CPUs: 4 threads, which
 * measured faster than 2 workers) */
void ps_streams_plan(struct ps_test *t, int parallel, bool files);
/* start every stream's thread or worker; 0 or -errno */
int ps_streams_start(struct ps_test *t);
/* the threads that move data (t->info.threads) */
int ps_streams_threads(const struct ps_test *t);
/* once the streams are made: how much a TCP sender hands the kernel at a
 * time (t->tx_piece, t->tx_burst; stream.c says why) */
void ps_streams_plan_pieces(struct ps_test *t);
void ps_streams_stop(struct ps_test *t, bool senders, bool receivers);
/*
 * The test ended: let the TCP receivers read what is still on its way,
 * until each sender's FIN (a pipescope sender closes its side before
 * TEST_END), while bytes keep coming: 50 ms without a byte ends the wait,
 * 0.5 s for a stream that writes a file (-F), and 2 s (60 s with -F) at
 * most, and never past until (ps_now() time; 0: no such bound, else the
 * server's --server-max-duration end). So -n's last bytes are counted,
 * not cut by the stop.
 */
void ps_streams_drain(struct ps_test *t, double until);

/* the control thread's periodic work */
void ps_test_begin(struct ps_test *t);
void ps_test_tick(struct ps_test *t, double now, bool final);
bool ps_test_limit_reached(struct ps_test *t);
void ps_test_fill_results(struct ps_test *t, struct ps_results *r);
void ps_test_summary(struct ps_test *t, struct ps_summary *sum);
void ps_summary_free(struct ps_summary *sum);
void ps_test_cpu(struct ps_test *t, double *total, double *user, double *sys);
void ps_test_free_streams(struct ps_test *t);
/* the data sockets' options a test's parameters ask for (both ends) */
void ps_params_sockopts(const struct ps_params *p, struct ps_sockopts *so);
/* t->info.conn[]: each stream's addresses and the options read back */
void ps_test_info_conns(struct ps_test *t);
/* t->info from scratch: the parameters, the peer's kind, the cookie and
 * the connections (each end adds its own after) */
void ps_test_info_fill(struct ps_test *t);
/* -F: open the file for a stream (read to send, or write what arrives);
 * 0 or -errno */
/* -Z: the stream sends its block with sendfile(2) from a memory file
 * holding it (s->file_fd); 0 or -errno */
int ps_stream_sendfile_setup(struct ps_stream *s);
int ps_stream_attach_file(struct ps_stream *s, const char *file, int nstreams);
int ps_stream_id(int index); /* 1, 3, 4, 5, … as iperf3 */
struct json_object *ps_test_ext_data(struct ps_test *t);
/* the far end's EXT_DATA: 0, or -E2BIG when it lists more streams than
 * the test has */
int ps_test_take_ext_data(struct ps_test *t, struct json_object *obj);
/* the server's probe snapshot (EXT_PROBE): 0, or -EINVAL when malformed */
int ps_test_take_probe(struct ps_test *t, struct json_object *obj);

#endif
