/* ui-loop.c: the workstation's one UI thread: it owns the terminal, polls
 * the keyboard, the engine's and sampler's wake-up fd and a signalfd, sets
 * dirty flags and draws at most four frames a second (keys at once); it
 * restores the terminal on q, SIGINT/SIGTERM/SIGHUP, ps_fatal and crashes */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <curses.h>

#include "clock.h"
#include "selftest.h"
#include "exitcodes.h"
#include "log.h"
#include "nls.h"
#include "sysroot.h"
#include "ui-internal.h"
#include "ui-text.h"
#include "ui.h"
#include "units.h"
#include "xmalloc.h"

/* last: terminfo defines macros such as "lines" */
#include <term.h>

#define FRAME_NS (250 * 1000000LL) /* 4 frames a second at most */

static volatile sig_atomic_t curses_on;
static SCREEN *screen;

/* put the terminal back; safe to call twice, from ps_fatal and atexit */
static void ui_restore(void)
{
	if (!curses_on)
		return;
	curses_on = 0;
	/* without an alternate screen (vt100, linux) leave a clean one */
	if (!enter_ca_mode || !*enter_ca_mode) {
		erase();
		refresh();
	}
	curs_set(1);
	endwin();
	fflush(stdout);
}

static void on_crash(int sig)
{
	ui_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

bool ps_ui_wanted(const struct ps_opts *o)
{
	if (o->mode != PS_MODE_SELFTEST && o->mode != PS_MODE_CLIENT)
		return false;
	/* --diagnose: a test for a scheduler or a script, whose file is
	 * the answer */
	if (o->no_tui || o->json || o->json_stream || o->diagnose)
		return false;
	return isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);
}

/* can this terminal address the cursor? why not, in one line */
static bool term_usable(char *why, size_t len)
{
	const char *term = getenv("TERM");
	char *cup;
	int err = 0;

	if (!term || !*term) {
		snprintf(why, len, "%s", _("TERM is not set"));
		return false;
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		snprintf(why, len, _("the terminal type '%s' is unknown"),
			 term);
		return false;
	}
	cup = tigetstr("cup");
	if (!strcmp(term, "dumb") || cup == NULL || cup == (char *)-1) {
		snprintf(why, len,
			 _("the terminal '%s' cannot move the cursor"), term);
		del_curterm(cur_term);
		return false;
	}
	del_curterm(cur_term);
	return true;
}

/* the log's messages go to the message line while the screen is up */
static void log_hook(enum ps_level level, const char *msg, void *arg)
{
	struct ui *ui = arg;

	ui_model_say(&ui->model,
		     level >= PS_LOG_ERR    ? 2
		     : level == PS_LOG_WARN ? 1
					    : 0,
		     msg);
}

static void sampler_notify(void *arg)
{
	ui_model_wake(arg);
}

int ui_sampler_start(struct ui *ui)
{
	struct ps_sampler_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.env.iface = ui->iface;
	cfg.interval_s = 1.0;
	cfg.history = 2;
	cfg.notify = sampler_notify;
	cfg.notify_arg = &ui->model;
	return ps_sampler_start(&cfg, &ui->sampler);
}

void ui_say(struct ui *ui, int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->msg, sizeof(ui->msg), fmt, ap);
	va_end(ap);
	ui->msg_level = level;
}

static void start_test(struct ui *ui, bool retry)
{
	int rc = ui_model_start(&ui->model, &ui->test, retry);

	if (rc)
		ui_say(ui, 2, _("cannot start the test: %s"), strerror(-rc));
	else
		ui_say(ui, 0, _("test started: %d stream(s), %s, %s"),
		       ui->test.parallel,
		       ui->test.proto == PS_PROTO_UDP ? "UDP" : "TCP",
		       ui->test.bidir	  ? _("both ways")
		       : ui->test.reverse ? _("reverse")
					  : _("send"));
}

/* a setting changed: a running test restarts with it */
static void settings_changed(struct ui *ui)
{
	if (ui_grun_busy(&ui->grun)) {
		ui_say(ui, 0, "%s",
		       _("the guided run goes on; s runs a test with the new "
			 "settings after it"));
	} else if (ui_model_busy(&ui->model)) {
		ui->restart = true;
		ui_model_stop(&ui->model);
		ui_say(ui, 0, "%s",
		       _("restarting the test with the new settings"));
	} else {
		ui_say(ui, 0, "%s", _("s runs a test with the new settings"));
	}
}

static void set_proto(struct ui *ui, enum ps_proto p)
{
	ui->test.proto = p;
	if (p == PS_PROTO_UDP)
		ui->test.rate = ui->opts->rate_set ? ui->opts->rate
						   : PS_DEFAULT_UDP_RATE;
	else
		ui->test.rate =
			ui->opts->proto == PS_PROTO_TCP ? ui->opts->rate : 0;
}

/* a click on a dashboard panel opens its view; on the header, back */
static void mouse_click(struct ui *ui)
{
	MEVENT ev;

	if (getmouse(&ev) != OK || ui->lay.too_small)
		return;
	for (int p = 0; p < UI_P_COUNT; p++) {
		const struct ui_rect *r = &ui->lay.p[p];

		if (!r->h || ev.y < r->y || ev.y >= r->y + r->h ||
		    ev.x < r->x || ev.x >= r->x + r->w)
			continue;
		if (p == UI_P_HEADER) {
			ui->view = ui_views[0];
			return;
		}
		for (int i = 0; i < ui_nviews; i++)
			if (ui_views[i]->panel == (enum ui_panel)p) {
				ui->view = ui_views[i];
				return;
			}
	}
}

static const double durations[] = { 10, 30, 60, 0, 5 };

/* t, b, W: a value typed on the message line, Enter sets it */
static void prompt_open(struct ui *ui, int what)
{
	char r[32];

	ui->prompt = what;
	ui->ptyped = false;
	if (what == 't')
		snprintf(ui->pbuf, sizeof(ui->pbuf), "%.0f", ui->test.duration);
	else if (what == 'b') {
		ui_fmt_bps_short(r, sizeof(r), (double)ui->test.rate);
		snprintf(ui->pbuf, sizeof(ui->pbuf), "%s",
			 ui->test.rate ? r : "0");
	} else {
		ui_fmt_bytes_short(r, sizeof(r), (double)ui->test.window);
		snprintf(ui->pbuf, sizeof(ui->pbuf), "%s",
			 ui->test.window ? r : "0");
	}
}

/* the prompt's line on the message line */
static void prompt_text(const struct ui *ui, char *buf, size_t len)
{
	const char *what = ui->prompt == 't'   ? _("duration (-t, seconds, 0 "
						     "no end; t: 10 30 60 0 5)")
			   : ui->prompt == 'b' ? _("rate (-b, e.g. 500M, 0 "
						   "none)")
					       : _("window (-w, e.g. 4M, 0 "
						   "the kernel's)");

	snprintf(buf, len, _("%s: %s_   Enter sets, Esc keeps"), what,
		 ui->pbuf);
}

static void prompt_apply(struct ui *ui)
{
	uint64_t v = 0;
	char unit = 0, *end = NULL;
	int what = ui->prompt;
	double d;

	ui->prompt = 0;
	if (what == 't') {
		d = strtod(ui->pbuf, &end);
		if (!ui->pbuf[0] || *end || !(d >= 0) || d > 86400) {
			ui_say(ui, 2, _("not a duration in seconds: %s"),
			       ui->pbuf);
			return;
		}
		ui->test.duration = d;
	} else if (ps_parse_rate(ui->pbuf, &v, &unit) == 0 && what == 'b') {
		ui->test.rate = v;
	} else if (what == 'W' && ps_parse_size(ui->pbuf, &v, &unit) == 0 &&
		   v <= (1u << 30)) {
		ui->test.window = v;
	} else {
		ui_say(ui, 2,
		       what == 'b' ? _("not a rate: %s (500M, 2G, 0)")
				   : _("not a window size: %s (256K, 4M, 0)"),
		       ui->pbuf);
		return;
	}
	settings_changed(ui);
}

static void prompt_key(struct ui *ui, int ch)
{
	size_t n = strlen(ui->pbuf);
	int nd = (int)(sizeof(durations) / sizeof(durations[0]));

	if (ch == 27) {
		ui->prompt = 0;
		ui_say(ui, 0, "%s", _("unchanged"));
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		prompt_apply(ui);
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (n)
			ui->pbuf[n - 1] = 0;
		ui->ptyped = true;
	} else if (ch == 't' && ui->prompt == 't') {
		/* t again: the next of the usual lengths; from a length
		 * not among them, the first (2 s goes to 10, not 30) */
		double cur = strtod(ui->pbuf, NULL);
		int i = 0;

		while (i < nd && durations[i] != cur)
			i++;
		snprintf(ui->pbuf, sizeof(ui->pbuf), "%.0f",
			 durations[i < nd ? (i + 1) % nd : 0]);
	} else if (ch > 0 && ch < 128 &&
		   (strchr("0123456789.", ch) ||
		    (ui->prompt != 't' && strchr("kKmMgGtT", ch))) &&
		   n + 1 < sizeof(ui->pbuf)) {
		/* the first key replaces the value shown */
		if (!ui->ptyped)
			n = 0;
		ui->ptyped = true;
		ui->pbuf[n] = (char)ch;
		ui->pbuf[n + 1] = 0;
	}
}

/* ---- the keys of every view ------------------------------------------ */

static void act_help(struct ui *ui, int ch)
{
	(void)ch;
	ui->before_help = ui->view;
	ui->help_top = 0;
	ui->view = &ui_view_help;
}

static void act_quit(struct ui *ui, int ch)
{
	(void)ch;
	ui->quit = true;
}

/* s: start or stop the test (a guided run's steps are the checklist's) */
static void act_run(struct ui *ui, int ch)
{
	(void)ch;
	if (ui_grun_busy(&ui->grun)) {
		ui_say(ui, 1,
		       _("a guided run is going: %s shows it; s there skips a "
			 "test, x ends the run"),
		       ui_view_ref(&ui_view_checklist));
	} else if (ui->guided_pending) {
		ui_say(ui, 1, "%s",
		       _("the guided run starts when the test has ended; x "
			 "cancels it"));
	} else if (ui_model_busy(&ui->model)) {
		ui->restart = false;
		ui_model_stop(&ui->model);
		ui_say(ui, 0, "%s", _("stopping the test"));
	} else if (!ui->model.th_live) {
		start_test(ui, true);
	}
}

static void act_streams(struct ui *ui, int ch)
{
	bool more = ch == '+' || ch == '=';

	if (more ? ui->test.parallel >= PS_MAX_STREAMS : ui->test.parallel <= 1)
		return;
	ui->test.parallel += more ? 1 : -1;
	settings_changed(ui);
}

static void act_reverse(struct ui *ui, int ch)
{
	(void)ch;
	ui->test.reverse = !ui->test.reverse;
	ui->test.bidir = false;
	settings_changed(ui);
}

static void act_bidir(struct ui *ui, int ch)
{
	(void)ch;
	ui->test.bidir = !ui->test.bidir;
	ui->test.reverse = false;
	settings_changed(ui);
}

static void act_proto(struct ui *ui, int ch)
{
	(void)ch;
	set_proto(ui,
		  ui->test.proto == PS_PROTO_UDP ? PS_PROTO_TCP : PS_PROTO_UDP);
	settings_changed(ui);
}

/* t, b, W: the prompt for the value */
static void act_prompt(struct ui *ui, int ch)
{
	prompt_open(ui, ch == 'W' ? 'W' : ch == 'b' || ch == 'B' ? 'b' : 't');
}

static void act_iface(struct ui *ui, int ch)
{
	(void)ch;
	ui_picker_open(ui);
}

static void act_pause(struct ui *ui, int ch)
{
	(void)ch;
	ui->paused = !ui->paused;
	ui->paused_ns = ps_mono_ns();
}

/* Tab, BTab: the next view, the one before */
static void act_tab(struct ui *ui, int ch)
{
	int i = 0;

	while (i < ui_nviews && ui_views[i] != ui->view)
		i++;
	i = ch == '\t' ? i + 1 : i + ui_nviews - 1;
	ui->view = ui_views[i % ui_nviews];
}

static void act_mouse(struct ui *ui, int ch)
{
	(void)ch;
	mouse_click(ui);
}

#define MOUSE_EVENTS (BUTTON1_CLICKED | BUTTON1_PRESSED)

/* m: the clicks are the screen's (a panel's view) or the terminal's (to
 * select and copy text) */
static void act_mouse_toggle(struct ui *ui, int ch)
{
	(void)ch;
	ui->mouse = !ui->mouse;
	mousemask(ui->mouse ? MOUSE_EVENTS : 0, NULL);
	ui_say(ui, 0, "%s",
	       ui->mouse ? _("mouse: a click opens a panel's view (m: the "
			     "terminal's, to select text)")
			 : _("mouse: the terminal's, to select and copy text "
			     "(m: clicks open views)"));
}

static void act_redraw(struct ui *ui, int ch)
{
	(void)ui;
	if (ch == 12) /* Ctrl-L */
		clearok(curscr, TRUE);
}

/* the workstation's keys, in every view after the view's own; a view's
 * keys are in its ops, the digits that show the views in ui_views[] */
const struct ui_key ui_global_keys[] = {
	{ .ch = { KEY_F(1), '?', 'h' },
	  .key = "F1",
	  .shortkey = "?",
	  .longer = N_("help"),
	  .shorter = N_("help"),
	  .helpkey = "F1 ?",
	  .help = N_("this help; any key returns"),
	  .rank = 10,
	  .act = act_help },
	{ .ch = { 'q', 'Q' },
	  .key = "q",
	  .shortkey = "q",
	  .longer = N_("quit"),
	  .shorter = N_("quit"),
	  .helpkey = "q",
	  .help = N_("quit (also Ctrl-C); the terminal is "
		     "restored"),
	  .rank = 20,
	  .act = act_quit },
	{ .ch = { 's', 'S', ' ' },
	  .key = "s",
	  .shortkey = "s",
	  .longer = N_("start/stop"),
	  .shorter = N_("run"),
	  .helpkey = "s",
	  .help = N_("start the test, or stop the running one"),
	  .rank = 30,
	  .act = act_run },
	{ .ch = { '+', '=', '-', '_' },
	  .key = "+-",
	  .shortkey = "+-",
	  .longer = N_("streams"),
	  .shorter = N_("P"),
	  .helpkey = "+ -",
	  .help = N_("one stream more / less (-P); restarts "
		     "a running test"),
	  .rank = 40,
	  .act = act_streams },
	{ .ch = { 'R', 'r' },
	  .key = "R",
	  .shortkey = "R",
	  .longer = N_("reverse"),
	  .shorter = N_("rev"),
	  .helpkey = "R",
	  .help = N_("reverse: the peer sends (-R)"),
	  .rank = 50,
	  .act = act_reverse },
	{ .ch = { 'd', 'D' },
	  .key = "d",
	  .shortkey = "d",
	  .longer = N_("both ways"),
	  .shorter = N_("bidir"),
	  .helpkey = "d",
	  .help = N_("both directions at once (-d, --bidir)"),
	  .rank = 51,
	  .drop = 3,
	  .act = act_bidir },
	{ .ch = { 'u', 'U' },
	  .key = "u",
	  .shortkey = "u",
	  .longer = N_("UDP/TCP"),
	  .shorter = N_("udp"),
	  .helpkey = "u",
	  .help = N_("UDP / TCP (-u)"),
	  .rank = 52,
	  .drop = 2,
	  .act = act_proto },
	{ .ch = { 't', 'T' },
	  .key = "t",
	  .shortkey = "t",
	  .longer = N_("duration"),
	  .shorter = N_("time"),
	  .helpkey = "t",
	  .help = N_("duration (-t): type seconds, Enter (t "
		     "again: 10, 30, 60, no end, 5)"),
	  .rank = 53,
	  .act = act_prompt },
	{ .ch = { 'b', 'B' },
	  .helpkey = "b",
	  .help = N_("rate (-b): type 500M, 2G or 0, Enter"),
	  .rank = 54,
	  .act = act_prompt },
	{ .ch = { 'W' },
	  .helpkey = "W",
	  .help = N_("TCP window (-w): type 256K, 4M or 0, "
		     "Enter"),
	  .rank = 55,
	  .act = act_prompt },
	{ .ch = { 'i', 'I' },
	  .key = "i",
	  .shortkey = "i",
	  .longer = N_("interface"),
	  .shorter = N_("if"),
	  .helpkey = "i",
	  .help = N_("pick the interface the probes watch "
		     "(--iface)"),
	  .rank = 56,
	  .drop = 1,
	  .act = act_iface },
	/* the digits themselves are the views' (ui_views[]) */
	{ .ch = { '\t', KEY_BTAB },
	  .key = "%s",
	  .shortkey = "%s",
	  .longer = N_("views"),
	  .shorter = N_("view"),
	  .helpkey = "%s Tab",
	  /* TRANSLATORS: %s is the list of the views' names */
	  .help = N_("views: %s"),
	  .rank = 70,
	  .flags = UI_KEY_VIEWS,
	  .act = act_tab },
	{ .ch = { 'p', 'P' },
	  .key = "p",
	  .shortkey = "p",
	  .longer = N_("pause"),
	  .shorter = N_("pause"),
	  .helpkey = "p",
	  .help = N_("pause the screen (the test goes on)"),
	  .rank = 90,
	  .act = act_pause },
	{ .ch = { 'm', 'M' },
	  .helpkey = "m",
	  .help = N_("mouse: clicks open views; m gives it to the terminal to "
		     "select text"),
	  .rank = 91,
	  .act = act_mouse_toggle },
	{ .ch = { KEY_MOUSE }, .act = act_mouse },
	{ .ch = { 12, KEY_RESIZE }, .act = act_redraw },
};
const int ui_nglobal_keys = UI_NKEYS(ui_global_keys);

/* the view's own keys, the workstation's, a view's that work from every
 * view (the checklist's g), the digit that shows a view */
static void handle_key(struct ui *ui, int ch)
{
	const struct ui_key *k;

	if (ui->picking) {
		ui_picker_key(ui, ch);
		return;
	}
	if (ui->prompt) {
		prompt_key(ui, ch);
		return;
	}
	if (ui->view->key_handler && ui->view->key_handler(ui, ch))
		return;
	k = ui_key_find(ui_global_keys, ui_nglobal_keys, ch);
	if (k) {
		k->act(ui, ch);
		return;
	}
	for (int i = 0; i < ui_nviews; i++) {
		const struct ui_view_ops *v = ui_views[i];

		k = ui_key_find(v->keys, v->nkeys, ch);
		if (k && (k->flags & UI_KEY_ANY_VIEW) && v->key_handler &&
		    v->key_handler(ui, ch))
			return;
	}
	for (int i = 0; i < ui_nviews; i++)
		if (ch == ui_views[i]->key)
			ui->view = ui_views[i];
}

static void resize(struct ui *ui)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row &&
	    ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
	clearok(curscr, TRUE);
}

static void stats_write(struct ui *ui, const char *what, double v)
{
	const char *path = getenv("PIPESCOPE_UI_STATS");
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "ae");
	if (!f)
		return;
	fprintf(f, "%s=%.1f\n", what, v);
	(void)ui;
	fclose(f);
}

/* the lines the CPU panel wants: a line per core, the legend and the
 * title; with the far end's cores beside, a heading and the longer list */
static int cpu_lines(const struct ui *ui)
{
	const struct ps_cpu_info *far = ui_peer_cpu(ui);
	int n;

	if (!ui->snap)
		return 0;
	n = ui->snap->cpu.ncores;
	if (far) {
		if (far->ncores > n)
			n = far->ncores;
		n++;
	}
	return n + 2;
}

/* the lines the streams panel wants: title, head, spread, strip, rows */
static int streams_lines(const struct ui *ui)
{
	int n = ui->tv.nstreams;

	if (!n)
		return 2;
	return 1 + 1 + (n > 1) + (n > 32) + n;
}

/* the lines the findings strip wants: its title and every line */
static int findings_lines(struct ui *ui)
{
	char fl[32][256];
	int level[32];

	if (!ui->view->dashboard || !ui->snap)
		return 0;
	return 1 + ui_findings_collect(ui, fl, level, 32);
}

static void draw(struct ui *ui)
{
	struct ui_layout *l = &ui->lay;

	/* paused, the readings shown stay (a new interface's first one
	 * comes); the test's own window takes them all the same */
	if (ui->sampler) {
		struct ps_snapshot *s = ps_sampler_latest(ui->sampler);

		if (s) {
			/* the shown test counts from its first reading */
			ui_model_local(&ui->model, s);
			if (!ui->paused || !ui->snap) {
				if (ui->snap)
					ps_snapshot_put(ui->snap);
				ui->snap = s;
			} else {
				ps_snapshot_put(s);
			}
		}
	}
	erase();
	/* the CPU panel takes the lines its cores need, the IRQ panel the
	 * rest (many cores fold into all but its four lines) */
	ui_layout_compute_want(LINES, COLS, ui->view->dashboard, cpu_lines(ui),
			       streams_lines(ui), findings_lines(ui), l);
	if (l->too_small) {
		ui_draw_too_small(ui);
	} else {
		ui_draw_header(ui, &l->p[UI_P_HEADER]);
		ui->view->draw(ui, &l->p[UI_P_BODY]);
		ui_draw_message(ui, &l->p[UI_P_MESSAGE]);
		if (ui->prompt) {
			char line[256];
			const struct ui_rect *m = &l->p[UI_P_MESSAGE];

			prompt_text(ui, line, sizeof(line));
			move(m->y, 0);
			clrtoeol();
			ui_put(m->y, 1, m->w - 1, ui_attr(UI_C_TITLE) | A_BOLD,
			       line);
		}
		ui_draw_footer(ui, &l->p[UI_P_FOOTER]);
		if (ui->picking)
			ui_picker_draw(ui);
	}
	refresh();
	ui->frames++;
	if (!ui->first_frame_done) {
		ui->first_frame_done = true;
		stats_write(ui, "first_frame_ms",
			    (double)(ps_mono_ns() - ui->t0_ns) / 1e6);
	}
}

/*
 * A reading as the test starts and as it ends, not at the sampler's next
 * tick: the test's window (its base and closing readings, session.h) is
 * then the test's own, not up to a second of the time before or after it
 */
static void kick_at_edges(struct ui *ui)
{
	bool live, ended;

	pthread_mutex_lock(&ui->model.lock);
	live = ui->model.v.state == UI_TEST_RUNNING;
	ended = ui->model.v.have_end || ui->model.v.state == UI_TEST_DONE ||
		ui->model.v.state == UI_TEST_FAILED;
	pthread_mutex_unlock(&ui->model.lock);
	if (ui->sampler && ((live && !ui->edge_live) ||
			    (ended && !ui->edge_ended && ui->edge_live)))
		ps_sampler_kick(ui->sampler);
	if (!live && !ended)
		ui->edge_live = false; /* a new test */
	else if (live)
		ui->edge_live = true;
	ui->edge_ended = ended;
}

/* take the model's news: the test view and the message line */
static void pull_model(struct ui *ui)
{
	struct ui_test_view *tv = &ui->tv;
	uint64_t seen = ui->msg_gen_seen;

	kick_at_edges(ui);
	if (ui->paused) {
		/* only the message line moves while the screen is paused */
		pthread_mutex_lock(&ui->model.lock);
		if (ui->model.v.message_gen != seen) {
			snprintf(ui->msg, sizeof(ui->msg), "%s",
				 ui->model.v.message);
			ui->msg_level = ui->model.v.message_level;
			ui->msg_gen_seen = ui->model.v.message_gen;
		}
		pthread_mutex_unlock(&ui->model.lock);
		return;
	}
	ui_model_copy(&ui->model, tv);
	ps_snapshot_put(ui->peer);
	ui->peer = ui_model_peer(&ui->model);
	ui_grun_copy(&ui->grun, &ui->gview, &ui->gphase);
	if (tv->message_gen != seen) {
		snprintf(ui->msg, sizeof(ui->msg), "%s", tv->message);
		ui->msg_level = tv->message_level;
		ui->msg_gen_seen = tv->message_gen;
	}
}

static int open_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGWINCH);
	/* blocked here, before any thread exists, so every thread inherits
	 * it and the signals queue for the signalfd */
	if (pthread_sigmask(SIG_BLOCK, set, NULL))
		return -1;
	return signalfd(-1, set, SFD_NONBLOCK | SFD_CLOEXEC);
}

static void install_crash_handlers(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static bool start_curses(struct ui *ui)
{
	screen = newterm(NULL, stdout, stdin);
	if (!screen)
		return false;
	set_term(screen);
	curses_on = 1;
	ps_log_set_atexit(ui_restore);
	atexit(ui_restore);
	install_crash_handlers();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	/* Home and End as tmux, screen and rxvt send them, which the
	 * terminfo of xterm-256color does not list: without these the
	 * "4" of "\e[4~" would show the view of key 4 */
	define_key("\033[1~", KEY_HOME);
	define_key("\033[4~", KEY_END);
	define_key("\033[7~", KEY_HOME);
	define_key("\033[8~", KEY_END);
	define_key("\033[H", KEY_HOME);
	define_key("\033[F", KEY_END);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	/* optional: a click opens a panel's view (Shift still selects; m
	 * gives the mouse to the terminal) */
	ui->mouse = !getenv("PIPESCOPE_NO_MOUSE");
	if (ui->mouse)
		mousemask(MOUSE_EVENTS, NULL);
	mouseinterval(0);
	curs_set(0);
	ui_colors_init(&ui->style);
	return true;
}

static void loop(struct ui *ui, int sfd)
{
	int64_t last_draw = 0;
	bool dirty = true, urgent = true;

	while (!ui->quit) {
		struct pollfd pfd[3] = {
			{ .fd = STDIN_FILENO, .events = POLLIN },
			{ .fd = ui->model.wake_fd, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		int64_t now = ps_mono_ns(), next = last_draw + FRAME_NS;
		int timeout;
		bool live = ui->tv.state == UI_TEST_RUNNING ||
			    ui->tv.state == UI_TEST_CONNECTING ||
			    ui->tv.state == UI_TEST_STOPPING ||
			    ui_grun_busy(&ui->grun);

		if (dirty && (urgent || now >= next)) {
			draw(ui);
			last_draw = ps_mono_ns();
			dirty = urgent = false;
			continue;
		}
		if (dirty || live)
			timeout = next > now ? (int)((next - now) / 1000000) + 1
					     : 0;
		else
			timeout = 1000;
		if (poll(pfd, 3, timeout) < 0 && errno != EINTR)
			break;

		if (pfd[2].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGWINCH) {
					resize(ui);
					urgent = dirty = true;
				} else {
					ui->quit = true;
					ui->signalled = (int)si.ssi_signo;
				}
			}
		}
		if (pfd[1].revents & POLLIN) {
			ui_model_drain(&ui->model);
			pull_model(ui);
			dirty = true;
		}
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			int ch;

			if (pfd[0].revents & (POLLHUP | POLLERR))
				ui->quit = true;
			while ((ch = getch()) != ERR) {
				handle_key(ui, ch);
				if (ch == KEY_RESIZE)
					clearok(curscr, TRUE);
			}
			pull_model(ui);
			urgent = dirty = true;
		}
		/* the worker ended: join it, start the next if one is due */
		if (ui->model.th_live && ui_model_reap(&ui->model)) {
			struct ui_test_view *tv = &ui->tv;

			pull_model(ui);
			dirty = true;
			if (tv->have_end) {
				stats_write(ui, "end_sent_bps", tv->end_bps[0]);
				stats_write(ui, "end_received_bps",
					    tv->end_bps[1]);
			}
			if (ui->restart) {
				ui->restart = false;
				start_test(ui, true);
			} else if (tv->state == UI_TEST_DONE && tv->have_end &&
				   !ui->guided_pending && !tv->stopped) {
				/* what to do with the number: the next step */
				ui_say(ui, 0, "%s",
				       _("next step: press g to find out what "
					 "limits the rate (the guided "
					 "checklist)"));
			}
		}
		/* the guided run ended: its results are the UI thread's */
		if (ui->grun.th_live && ui_grun_reap(&ui->grun)) {
			pull_model(ui);
			dirty = true;
			ui_say(ui, 0, "%s",
			       ui->grun.aborted
				       ? _("guided run ended by x: the "
					   "findings "
					   "come from what ran; w writes the "
					   "report")
				       : _("guided run done: Enter opens a "
					   "finding, w writes the report"));
		}
		/* g waited for the test to stop */
		if (ui->guided_pending && !ui->model.th_live)
			ui_guided_go(ui);
		/* the clock in the header moves while a test runs */
		if (live && ps_mono_ns() >= next)
			dirty = true;
	}
}

int ps_ui_run(const struct ps_opts *o)
{
	struct ui *ui;
	char why[256];
	sigset_t set;
	const char *peer;
	int sfd, rc = PS_EXIT_OK;

	if (!term_usable(why, sizeof(why))) {
		fprintf(stderr,
			_("pipescope: %s; the workstation needs a terminal "
			  "that can; running the test as text (--no-tui)\n"),
			why);
		return -1;
	}
	/* the probes read a recorded machine; the test stays live */
	if (ps_sysroot_use(o->sysroot))
		return PS_EXIT_USAGE;
	ui = xcalloc(1, sizeof(*ui));
	ui->t0_ns = ps_mono_ns();
	ui->opts = o;
	ui->view = &ui_view_dashboard;
	ui_text_set_format(o->format);
	ui_style_choose(o->no_color, &ui->style);
	signal(SIGPIPE, SIG_IGN);
	sfd = open_signals(&set);
	if (sfd < 0) {
		ps_err(_("cannot watch signals: %s"), strerror(errno));
		free(ui);
		return PS_EXIT_FAIL;
	}
	if (ui_model_init(&ui->model)) {
		ps_err(_("cannot create the wake-up descriptor: %s"),
		       strerror(errno));
		close(sfd);
		free(ui);
		return PS_EXIT_FAIL;
	}

	ui_views_open(ui);
	ui_grun_init(&ui->grun, &ui->model);

	/* the test: our own loopback server, or the -c target */
	if (o->mode == PS_MODE_SELFTEST) {
		int err = ps_selftest_start(o, &ui->test, &ui->selftest_handle);

		if (err) {
			ps_err(_("cannot start the loopback server: %s"),
			       strerror(-err));
			rc = PS_EXIT_FAIL;
			goto out_model;
		}
		ui->selftest = true;
	} else {
		ui->test = *o;
	}
	if (ui->test.interval <= 0)
		ui->test.interval = 1;
	/* a pipescope server sends its cores and NIC: the CPU panel shows
	 * them beside this host's (the self-test's far end is this process:
	 * nothing to ask) */
	ui->test.peer_probes = !ui->selftest;
	if (ui->test.parallel < 1)
		ui->test.parallel = 1;

	peer = ui->test.ntargets ? ui->test.targets[0].host : NULL;
	ps_iface_choose(o->iface, peer, &ui->iface);
	/* the test's own path, to tell a watched interface it does not
	 * cross */
	{
		struct ps_iface_choice rt;

		ps_iface_choose(NULL, peer, &rt);
		snprintf(ui->route_if, sizeof(ui->route_if), "%s", rt.name);
	}
	if (ui_sampler_start(ui))
		ps_warn(_("the probes do not run: the sampler did not start"));

	if (!start_curses(ui)) {
		ps_err(_("cannot start the screen on this terminal"));
		rc = -1;
		goto out_sampler;
	}
	ps_log_set_hook(log_hook, ui);
	start_test(ui, false);
	pull_model(ui);
	loop(ui, sfd);

	ps_log_set_hook(NULL, NULL);
	ui_restore();
	/* the status says how the last test went, as without the screen */
	if (ui_model_reap(&ui->model) && ui->model.v.state == UI_TEST_FAILED)
		rc = ui->model.rc > 0 ? ui->model.rc : PS_EXIT_FAIL;
	/* as the text test: a signal interrupts, status 1 */
	if (ui->signalled)
		rc = PS_EXIT_FAIL;
	stats_write(ui, "frames", (double)ui->frames);
out_sampler:
	ui_grun_destroy(&ui->grun);
	ui_model_finish(&ui->model);
	if (ui->sampler)
		ps_sampler_stop(ui->sampler);
	if (ui->snap)
		ps_snapshot_put(ui->snap);
	ps_snapshot_put(ui->peer);
	if (ui->selftest)
		ps_selftest_stop(ui->selftest_handle);
out_model:
	if (screen) {
		delscreen(screen);
		screen = NULL;
	}
	ui_model_destroy(&ui->model);
	close(sfd);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	ui_views_close(ui);
	free(ui->ifnames);
	free(ui->ifinfo);
	free(ui);
	return rc;
}
