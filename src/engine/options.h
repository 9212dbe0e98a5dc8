/* options.h: everything the command line can say, in one structure */
#ifndef PS_OPTIONS_H
#define PS_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#define PS_DEFAULT_PORT 5201
#define PS_MAX_STREAMS 128
#define PS_MAX_TARGETS 16
#define PS_MAX_CPUS_LIST 256
/*
 * TCP writes and reads of 1 MiB by default: on loopback at -P 1 that moved
 * about twice what 128 KiB blocks do (bench/throughput.sh), with fewer
 * system calls and wake-ups. With -k a block keeps iperf3's 128 KiB, so
 * "-k N" moves what it moves with iperf3, and so it does with -b, where a
 * smaller block keeps a slow flow smooth.
 */
#define PS_DEFAULT_TCP_LEN (1024 * 1024)
#define PS_IPERF3_TCP_LEN (128 * 1024)
#define PS_MAX_TCP_LEN (1024 * 1024)
#define PS_MAX_UDP_LEN 65507
#define PS_MIN_UDP_LEN 16 /* the datagram header: sec, usec, 64-bit count */
#define PS_MAX_WINDOW (512u * 1024 * 1024)
#define PS_MAX_MSS 32767
#define PS_MAX_DURATION 86400
#define PS_MAX_OMIT 600
#define PS_DEFAULT_UDP_RATE (1024 * 1024) /* iperf3's UDP_RATE, "1 Mbit/s" */
/* iperf3's datagram when the control connection gives no MSS */
#define PS_DEFAULT_UDP_LEN 1460
#define PS_MAX_ALLOW 32 /* --allow networks */
#define PS_DEFAULT_HANDSHAKE                                                   \
	10 /* s for a new connection's cookie and parameters */

/* iperf3 options pipescope accepts for its command lines and ignores */
#define PS_DEPRECATED_PACING_TIMER 1u /* --pacing-timer */
#define PS_DEPRECATED_NO_FQ_PACING 2u /* --no-fq-socket-pacing */
#define PS_TIMESTAMP_FORMAT "%c "     /* --timestamps: iperf3's default */
/* the iperf3 whose command line and output the drop-in mode follows */
#define PS_IPERF3_VERSION "3.21"

enum ps_mode {
	PS_MODE_SELFTEST, /* no target: loopback against our own server */
	PS_MODE_CLIENT,	  /* -c HOST */
	PS_MODE_SERVER,	  /* -s */
	PS_MODE_PROBE,	  /* pipescope probe */
	PS_MODE_CHECK,	  /* pipescope check */
	PS_MODE_HISTORY,  /* pipescope history */
	PS_MODE_COMPARE,  /* pipescope compare */
};

enum ps_proto { PS_PROTO_TCP, PS_PROTO_UDP };

enum ps_report_format {
	PS_FORMAT_TEXT,
	PS_FORMAT_MARKDOWN,
	PS_FORMAT_JSON,
	PS_FORMAT_HTML, /* check --format html */
};

struct ps_target {
	char *host; /* name or address, without %dev */
	char *dev;  /* from host%dev, or NULL */
	int port;   /* 0: the -p port */
};

/* one --allow network: an address and a prefix length */
struct ps_cidr {
	int family;	  /* AF_INET or AF_INET6 */
	uint8_t addr[16]; /* network order; 4 bytes used for AF_INET */
	int prefix;
};

struct ps_opts {
	enum ps_mode mode;

	/* common to client and server */
	int port;		    /* -p */
	char format;		    /* -f: a k m g t A K M G T */
	double interval;	    /* -i seconds, 0 = no interval reports */
	char *pidfile;		    /* -I */
	char *file;		    /* -F */
	int cpus[PS_MAX_CPUS_LIST]; /* -A list */
	int ncpus;
	int server_cpu;	       /* -A n,m: m, else -1 */
	char *bind;	       /* -B host */
	char *bind_dev;	       /* -B host%dev or --bind-dev */
	bool verbose;	       /* -V */
	bool json;	       /* -J */
	bool json_stream;      /* --json-stream */
	char *logfile;	       /* --logfile */
	bool forceflush;       /* --forceflush */
	bool debug;	       /* --debug */
	int debug_level;       /* --debug=N: 1 to 4 (iperf3's), 4 without N */
	char *timestamps;      /* --timestamps[=FMT]: strftime format */
	bool json_stream_full; /* --json-stream-full-output */
	bool cntl_ka;	       /* --cntl-ka: keepalive on the control socket */
	int cntl_ka_idle;      /* --cntl-ka=IDLE/INTERVAL/COUNT; 0 = system */
	int cntl_ka_interval;
	int cntl_ka_count;
	bool mptcp;		 /* -m: IPPROTO_MPTCP for TCP */
	unsigned deprecated;	 /* PS_DEPRECATED_*: accepted, said on stderr */
	bool iperf3_mode;	 /* started as "iperf3": its command line */
	unsigned rcv_timeout_ms; /* --rcv-timeout */
	unsigned snd_timeout_ms; /* --snd-timeout */
	int family;		 /* -4 / -6 / 0 */

	/* server */
	bool daemon;		      /* -D */
	bool one_off;		      /* -1 */
	int max_tests;		      /* --max-tests */
	uint64_t server_rate_limit;   /* --server-bitrate-limit, bit/s */
	unsigned idle_timeout;	      /* --idle-timeout s */
	unsigned server_max_duration; /* --server-max-duration s */
	int server_max_streams;	      /* --server-max-streams; 0 = no limit */
	unsigned handshake_timeout;   /* --handshake-timeout s */
	struct ps_cidr allow[PS_MAX_ALLOW]; /* --allow, repeatable */
	int nallow;
	char *user;		/* --user: drop to this user after binding */
	char *rsa_privkey;	/* --rsa-private-key-path */
	char *authorized_users; /* --authorized-users-path */
	int time_skew;		/* --time-skew-threshold s */
	bool no_share_probes;	/* --no-share-probes */
	bool no_numa; /* --no-numa: data threads not kept to the NIC's node */

	/* client */
	struct ps_target targets[PS_MAX_TARGETS]; /* -c, repeatable */
	int ntargets;
	enum ps_proto proto; /* -u */
	uint64_t rate;	     /* -b bit/s; 0 = unlimited */
	bool rate_set;
	unsigned burst;		     /* -b RATE/BURST */
	uint64_t fq_rate;	     /* --fq-rate bit/s */
	double duration;	     /* -t s; 0 = until stopped */
	uint64_t bytes;		     /* -n */
	uint64_t blocks;	     /* -k */
	uint32_t len;		     /* -l; 0 = protocol default */
	int cport;		     /* --cport */
	int parallel;		     /* -P */
	bool reverse;		     /* -R */
	bool bidir;		     /* -d / --bidir */
	uint64_t window;	     /* -w bytes; 0 = kernel default */
	char *congestion;	     /* -C */
	int mss;		     /* -M */
	bool nodelay;		     /* -N */
	int tos;		     /* -S or --dscp; -1 = unset */
	int flowlabel;		     /* -L: IPv6 flow label; 0 = none */
	bool zerocopy;		     /* -Z */
	bool skip_rx_copy;	     /* --skip-rx-copy */
	int omit;		     /* -O s */
	char *title;		     /* -T */
	char *extra_data;	     /* --extra-data */
	bool get_server_output;	     /* --get-server-output */
	bool udp_counters_64bit;     /* --udp-counters-64bit */
	bool gsro;		     /* --gsro */
	bool no_gsro;		     /* --no-gsro */
	bool repeating_payload;	     /* --repeating-payload */
	bool dont_fragment;	     /* --dont-fragment */
	unsigned connect_timeout_ms; /* --connect-timeout; 0 = system */
	char *username;		     /* --username */
	char *rsa_pubkey;	     /* --rsa-public-key-path */
	bool pkcs1;		     /* --use-pkcs1-padding (iperf3 < 3.17) */

	/* pipescope's own */
	bool no_tui;			     /* --no-tui */
	bool no_color;			     /* --no-color */
	char *sysroot;			     /* --sysroot */
	char *iface;			     /* --iface */
	enum ps_report_format report_format; /* check --format */
	char *snapshot;			     /* check --snapshot */
	bool quick;			     /* check --quick */
	char *plot_dir;			     /* check --plot */
	char *diagnose;	 /* --diagnose FILE: the checks on this one test */
	int repeat;	 /* check --repeat N: runs of each step, 0 default */
	bool list_rules; /* check --rules: list the thresholds, run nothing */
	/* not an option: the caller (the workstation, check, -J) wants the
	 * server's probe snapshots when the server is pipescope */
	bool peer_probes;
	/* the run history (src/history, doc/history.md) */
	char *history_file; /* --history FILE */
	bool no_history;    /* --no-history */
	int history_last;   /* history --last N; 0 = all */
	/* history --export jsonl|openmetrics */
	enum ps_export {
		PS_EXPORT_NONE,
		PS_EXPORT_JSONL,
		PS_EXPORT_OPENMETRICS,
	} history_export;
	long long compare_id[2]; /* compare A B: run ids */
	int ncompare;		 /* how many were given */
	/* not an option: the command line as given, each word quoted for
	 * a shell when it needs it (check's HTML page says it) */
	char *cmdline;
};

/* the defaults every command starts from (options.c) */
void ps_opts_init(struct ps_opts *o);

#endif
