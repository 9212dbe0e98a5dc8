/* ui-internal.h: what the workstation's loop, views and widgets share: the
 * state of the screen, the drawing helpers and the view table */
#ifndef PS_UI_INTERNAL_H
#define PS_UI_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "options.h"
#include "sampler.h"
#include "snapshot.h"
#include "ui-colors.h"
#include "ui-guided.h"
#include "ui-layout.h"
#include "ui-model.h"

struct ps_irq_info;
struct ps_pci_info;
struct ps_ethtool_info;
struct ps_link_info;

struct ui;
struct ps_diagnosis;

/* what the interface picker shows of one interface, as bmon does */
struct ui_ifinfo {
	char state[16]; /* operstate: "up", "down", "unknown" */
	long speed;	/* Mbit/s, -1 not told */
	double bytes;	/* rx + tx, the last look */
	double t;	/* when */
	double bps;	/* rx + tx since the look before, -1 not yet */
};

/* a key, of the workstation (ui_global_keys[]) or of a view (its ops'
 * .keys): the codes it answers to, what the footer and the help say of it.
 * The footer and the help list the keys by rank, a footer in full words
 * ("F1 help") or, narrow, short ones ("?:help") */
struct ui_key {
	int ch[4];		      /* the codes it answers to (0 ends) */
	const char *key, *shortkey;   /* the footer's; NULL: not there */
	const char *longer, *shorter; /* N_() */
	const char *helpkey; /* the help's key column; NULL: not there */
	/* N_(): the help's line; a %s in it is ref's key (ui_view_ref) */
	const char *help;
	const struct ui_view_ops *ref;
	int rank;
	/* a footer too narrow for every key leaves out the highest drop
	 * first (0: kept while any other can go) */
	int drop;
	unsigned flags; /* UI_KEY_* */
	/* whether its view's footer lists it now (NULL: always) */
	bool (*shown)(struct ui *ui);
	/* a global key's action (a view's keys go to its key_handler) */
	void (*act)(struct ui *ui, int ch);
};

enum {
	/* a view's key that works from every view: the loop gives it to
	 * the view's key_handler when no other takes it (the checklist's g) */
	UI_KEY_ANY_VIEW = 1u << 0,
	/* a view's key the other views' footers list, as a global key (its
	 * own lists it as another of its keys, or not) */
	UI_KEY_OTHER_FOOTERS = 1u << 1,
	/* the views' keys: its key and help key are formats whose %s is the
	 * views' range ("1-7"), its help's %s the views' names */
	UI_KEY_VIEWS = 1u << 2,
};

/* one view of the workstation: a const table, listed in ui_views[]; a new
 * view is its file and a line there */
struct ui_view_ops {
	const char *name;  /* stable id: "dashboard" */
	const char *title; /* N_("Dashboard") */
	/* N_(): how the help's list of views names it ("dashboard") */
	const char *noun;
	int key;	/* '1': the key that shows it */
	bool dashboard; /* uses the dashboard layout */
	/* the dashboard panel a click opens it from (UI_P_HEADER: none; a
	 * click on the header opens the first view) */
	enum ui_panel panel;
	void (*draw)(struct ui *ui, const struct ui_rect *body);
	/* the view's own keys, tried before the workstation's; true: used
	 * (NULL: none) */
	bool (*key_handler)(struct ui *ui, int ch);
	/* its keys as the footer and the help tell them, nkeys of them */
	const struct ui_key *keys;
	int nkeys;
	/* the keys (by their first code) its footer leaves out for its own
	 * (they still work), or NULL */
	const char *footer_without;
	/* its state, state_size bytes (0: none), zeroed, then init (NULL:
	 * zeroes are the start); free releases what it holds (NULL: nothing);
	 * ui_view_state() finds it */
	size_t state_size;
	void (*init)(struct ui *ui, void *state);
	void (*free)(struct ui *ui, void *state);
};

#define UI_NKEYS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* the far end's cores to show beside this host's (a pipescope server on
 * another machine), or NULL */
const struct ps_cpu_info *ui_peer_cpu(const struct ui *ui);

/* the views the workstation itself opens (g, F1, the start) */
extern const struct ui_view_ops ui_view_dashboard, ui_view_checklist,
	ui_view_streams, ui_view_help;
/* every view, in the order of Tab (ui-views.c) */
extern const struct ui_view_ops *const ui_views[];
extern const int ui_nviews;
/* the keys of every view (ui-loop.c) */
extern const struct ui_key ui_global_keys[];
extern const int ui_nglobal_keys;

/* ---- the views' table (ui-views.c) ------------------------------------ */

/* how a string names view v: its key ("6" in "view 6 explains them") */
const char *ui_view_ref(const struct ui_view_ops *v);
/* the keys that show the views, "1-7" */
const char *ui_views_range(void);
/* view v's state (its ops' state_size bytes), NULL without */
void *ui_view_state(const struct ui *ui, const struct ui_view_ops *v);
/* every view's state, at the start and at the end */
void ui_views_open(struct ui *ui);
void ui_views_close(struct ui *ui);
/* the key of keys[0..n) that answers ch, or NULL */
const struct ui_key *ui_key_find(const struct ui_key *keys, int n, int ch);
/* a key's name in the footer, narrow or not ("F1", "?", "1-7") */
const char *ui_key_name(const struct ui_key *k, bool shorter, char *buf,
			size_t len);
/* the footer's keys while view v shows, in order: the global keys and the
 * other views' keys for every footer, less those v leaves out, and v's own
 * keys it shows now (one takes the place of a global key of the same name);
 * returns how many (at most max) */
int ui_footer_keys(struct ui *ui, const struct ui_view_ops *v,
		   const struct ui_key **out, int max);
/* the help's key lines, in order: the global keys' and every view's */
struct ui_help_line {
	char key[32];
	char text[512];
};
int ui_help_lines(struct ui_help_line *out, int max);

struct ui {
	const struct ps_opts *opts; /* the command line */
	struct ps_opts test;	    /* what the next test runs with */
	bool selftest;
	void *selftest_handle;

	struct ui_model model;	/* shared with the engine's thread */
	struct ui_test_view tv; /* this frame's copy */
	struct ps_sampler *sampler;
	struct ps_snapshot *snap; /* this frame's snapshot (a reference) */
	struct ps_snapshot *peer; /* the far end's (pipescope), or NULL */
	struct ps_iface_choice iface;

	struct ui_style style;
	struct ui_layout lay;
	int rows, cols;
	const struct ui_view_ops *view;
	const struct ui_view_ops *before_help;
	int help_top, help_page; /* the help's first line, a page of it */
	bool paused;
	bool mouse;	   /* clicks are the screen's (m gives them back) */
	int64_t paused_ns; /* when p paused: the header's clock stops there */
	bool restart;	   /* start again once the worker is gone */
	bool quit;
	int signalled; /* the signal that ended the screen, 0 none */

	/* the interface picker (ui-ifpick.c) */
	bool picking;
	char (*ifnames)[16];
	struct ui_ifinfo *ifinfo; /* beside each name */
	int nifnames, pick;
	int ifroute; /* the route's interface among them, -1 */
	/* the interface the route to the peer leaves by ("" unknown) */
	char route_if[16];

	/* a value typed for t, b or W (0: no prompt open) */
	int prompt;
	bool ptyped; /* a key was typed: the value shown is replaced */
	char pbuf[32];

	char msg[256]; /* the message line */
	int msg_level; /* 0 info, 1 warn, 2 error */
	uint64_t msg_gen_seen;

	/* the guided run (key g, view-guided.c) */
	struct ui_grun grun;
	bool guided_pending;	    /* starts once the test has stopped */
	bool edge_live, edge_ended; /* the test's edges seen (ui-loop.c) */
	unsigned guided_cap_gen;    /* model.cap.gen when the guided run
				     * started: a test kept since is newer */
	struct ui_guided gview;	    /* this frame's copy of the rows */
	enum ui_grun_phase gphase;  /* and of the phase */

	/* each view's state, as ui_views[] lists them (ui_view_state) */
	void **vstate;

	/* cost and start-up measurement */
	int64_t t0_ns;
	bool first_frame_done;
	uint64_t frames;
};

/* ---- drawing helpers (ui-draw.c) ------------------------------------- */

/* print at (y, x) at most w columns of a UTF-8/locale string */
void ui_put(int y, int x, int w, attr_t a, const char *s);
void ui_printf(int y, int x, int w, attr_t a, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* clear a rectangle */
void ui_clear(const struct ui_rect *r);
/* a panel title line " CPU ───────" at the top of r; returns r minus it */
struct ui_rect ui_title(struct ui *ui, const struct ui_rect *r,
			const char *title, const char *right);
/* the arrows, PgUp/PgDn (page lines) and Home/End (end: the last line)
 * move *top, never below 0 (the draw keeps it to the lines there are);
 * false: ch is not one of them */
bool ui_scroll_key(int ch, int *top, int page, int end);
/* repeat a glyph n times */
void ui_repeat(int y, int x, int n, attr_t a, const char *glyph);
/* "label value" pairs on one line; returns the next x */
int ui_pair(int y, int x, int xmax, const char *label, const char *value,
	    attr_t va);

/* ---- the panels (each its own file) ----------------------------------- */

void ui_draw_header(struct ui *ui, const struct ui_rect *r);
void ui_draw_footer(struct ui *ui, const struct ui_rect *r);
void ui_draw_message(struct ui *ui, const struct ui_rect *r);
void ui_draw_too_small(struct ui *ui);
void ui_panel_graph(struct ui *ui, const struct ui_rect *r);
void ui_panel_streams(struct ui *ui, const struct ui_rect *r, bool full);
void ui_panel_cpu(struct ui *ui, const struct ui_rect *r, bool full);
void ui_panel_irq(struct ui *ui, const struct ui_rect *r, bool full);
void ui_panel_nic(struct ui *ui, const struct ui_rect *r, bool full);
void ui_panel_findings(struct ui *ui, const struct ui_rect *r, bool full);
/* the streams table's keys (scroll, o: order); true: used */
bool ui_streams_key(struct ui *ui, int ch);
/* the checklist view during and after a guided run */
void ui_panel_guided(struct ui *ui, const struct ui_rect *r);
struct ps_finding;
/* one entry of the live findings list (the checklist view before a guided
 * run): a
 * line of the test or the probes (f NULL) or a check that fired */
struct ui_live_item {
	char title[256];
	attr_t a;
	const struct ps_finding *f;
};
/* the live findings with a cursor (Up/Down), Enter closing or opening a
 * finding's evidence and fix, and the window following the cursor;
 * head: a first line ("Tightest ceiling ..."), or NULL */
void ui_panel_live(struct ui *ui, const struct ui_rect *in,
		   const struct ui_live_item *it, int n, const char *head);
/* the checklist view's state: its cursor on the findings */
struct ui_checklist_state {
	int sel;	  /* the chosen finding (ranked index) */
	bool open[64];	  /* findings of a guided run opened with Enter */
	bool lclosed[64]; /* live findings closed with Enter */
	int top;	  /* first line shown */
	int nfindings;	  /* findings listed */
	/* the live findings: the checks, evaluated once per snapshot (the
	 * dashboard's strip reads them too) */
	struct ps_diagnosis *diag;
	uint64_t diag_seq;
	uint64_t diag_runs; /* the test (tv.runs) and its end it saw */
	bool diag_end;
	double proc_cpu_s, proc_wall_s; /* this process's CPU, last look */
	double proc_pct;		/* % of one core since then */
};
/* the checklist view's keys: the guided run's (g, s, x, w) and its
 * findings' (Up/Down, Enter); true: used */
bool ui_guided_key(struct ui *ui, int ch);
/* start the guided run g asked for once the test it stopped is gone */
void ui_guided_go(struct ui *ui);

/* ---- the interface picker (key i, ui-ifpick.c) ------------------------ */

void ui_picker_open(struct ui *ui);
void ui_picker_draw(struct ui *ui);
/* its keys while it is open */
void ui_picker_key(struct ui *ui, int ch);

/* ---- the loop's services to the views (ui-loop.c) --------------------- */

/* a line for the message line: 0 info, 1 warning, 2 error */
void ui_say(struct ui *ui, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* (re)start the sampler on ui->iface: 0 or -errno */
int ui_sampler_start(struct ui *ui);

/* ---- the snapshot's NIC members, NULL until they are sampled ---------- */

const struct ps_irq_info *ui_snap_irq(const struct ps_snapshot *s);
const struct ps_pci_info *ui_snap_pci(const struct ps_snapshot *s);
const struct ps_ethtool_info *ui_snap_ethtool(const struct ps_snapshot *s);
const struct ps_link_info *ui_snap_link(const struct ps_snapshot *s);

/* "not sampled yet" in the dim colour */
void ui_not_sampled(const struct ui_rect *r, int line);

/* the findings strip's lines: the test's own warnings, then the checks'
 * findings on the latest snapshot, most severe first */
int ui_findings_collect(struct ui *ui, char (*out)[256], int *level, int max);

#endif
