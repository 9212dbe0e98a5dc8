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

/* a key of the footer: "F1 help", narrow "?:help" */
struct ui_footer_key {
	const char *key, *shortkey;
	const char *longer, *shorter; /* N_() */
};

/* one view of the workstation: a const table, listed in ui_views[] */
struct ui_view_ops {
	const char *name;  /* stable id: "dashboard" */
	const char *title; /* N_("Dashboard") */
	int key;	   /* '1' */
	bool dashboard;	   /* uses the dashboard layout */
	/* the dashboard panel a click opens it from (UI_P_HEADER: none; a
	 * click on the header opens the first view) */
	enum ui_panel panel;
	void (*draw)(struct ui *ui, const struct ui_rect *body);
	/* the view's own keys, tried before the workstation's; true: used
	 * (NULL: none) */
	bool (*key_handler)(struct ui *ui, int ch);
	/* the footer's keys while it shows, n of them (NULL, or returning
	 * NULL: the workstation's) */
	const struct ui_footer_key *(*footer)(struct ui *ui, int *n);
};

/* the far end's cores to show beside this host's (a pipescope server on
 * another machine), or NULL */
const struct ps_cpu_info *ui_peer_cpu(const struct ui *ui);

/* the views the workstation itself opens (g, F1, the start) */
extern const struct ui_view_ops ui_view_dashboard, ui_view_checklist,
	ui_view_help;
/* every view, in the order of Tab (ui-views.c) */
extern const struct ui_view_ops *const ui_views[];
extern const int ui_nviews;

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
	bool paused;
	bool restart; /* start again once the worker is gone */
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

	/* the checks, evaluated once per snapshot (view-checklist.c) */
	struct ps_diagnosis *diag;
	uint64_t diag_seq;
	uint64_t diag_runs; /* the test (tv.runs) and its end it saw */
	bool diag_end;
	double proc_cpu_s, proc_wall_s; /* this process's CPU, last look */
	double proc_pct;		/* % of one core since then */

	/* the guided run (key g) and the checklist view's cursor on its
	 * findings (view-guided.c) */
	struct ui_grun grun;
	bool guided_pending;	   /* starts once the test has stopped */
	struct ui_guided gview;	   /* this frame's copy of the rows */
	enum ui_grun_phase gphase; /* and of the phase */
	int gsel;		   /* the chosen finding (ranked index) */
	bool gopen[64];		   /* findings opened with Enter */
	bool lclosed[64];	   /* live findings closed with Enter */
	int gtop;		   /* first line shown */
	int gfindings;		   /* findings listed */

	/* the streams table: its first row shown and its order */
	int st_top;
	int st_sort; /* enum ui_stream_sort */

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
/* one entry of the live findings list (view 6 before a guided run): a
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
/* the checklist view's keys for the guided run's findings; true: used */
bool ui_guided_key(struct ui *ui, int ch);
/* a new guided run: the cursor on its findings starts again */
void ui_guided_view_reset(struct ui *ui);

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
void ui_findings_free(struct ui *ui);

#endif
