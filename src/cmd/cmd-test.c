/* cmd-test.c: "pipescope -c/-s" without the screen: text or JSON as iperf3 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd-multi.h"
#include "cmd-diagnose.h"
#include "cmd-test.h"
#include "ui.h"
#include "engine.h"
#include "exitcodes.h"
#include "log.h"
#include "nls.h"
#include "record.h"
#include "sysroot.h"
#include "xmalloc.h"

static FILE *open_output(const struct ps_opts *o)
{
	FILE *f;

	if (!o->logfile)
		return stdout;
	f = fopen(o->logfile, "ae");
	if (!f)
		ps_fatal(_("cannot open the log file %s: %s"), o->logfile,
			 strerror(errno));
	ps_log_set_file(f);
	return f;
}

/*
 * --json-stream-full-output: the stream of events, then (as iperf3 3.18 and
 * later) the whole -J document after its "end" event
 */
struct tee {
	struct ps_reporter r[2];
};

static void tee_start(void *arg, const struct ps_test_info *in)
{
	struct tee *t = arg;

	for (int i = 0; i < 2; i++)
		if (t->r[i].start)
			t->r[i].start(t->r[i].arg, in);
}

static void tee_interval(void *arg, const struct ps_interval *iv)
{
	struct tee *t = arg;

	for (int i = 0; i < 2; i++)
		if (t->r[i].interval)
			t->r[i].interval(t->r[i].arg, iv);
}

static void tee_end(void *arg, const struct ps_test_info *in,
		    const struct ps_summary *sum)
{
	struct tee *t = arg;

	for (int i = 0; i < 2; i++)
		if (t->r[i].end)
			t->r[i].end(t->r[i].arg, in, sum);
}

static void tee_error(void *arg, const char *msg)
{
	struct tee *t = arg;

	for (int i = 0; i < 2; i++)
		if (t->r[i].error)
			t->r[i].error(t->r[i].arg, msg);
}

static void tee_message(void *arg, const char *msg)
{
	struct tee *t = arg;

	for (int i = 0; i < 2; i++)
		if (t->r[i].message)
			t->r[i].message(t->r[i].arg, msg);
}

static void tee_destroy(void *arg)
{
	struct tee *t = arg;

	for (int i = 0; i < 2; i++)
		ps_report_destroy(&t->r[i]);
	free(t);
}

static void make_reporter(struct ps_reporter *r, const struct ps_opts *o,
			  FILE *out)
{
	if (o->json_stream && o->json_stream_full) {
		struct tee *t = xcalloc(1, sizeof(*t));

		ps_report_json_init(&t->r[0], o, out, true);
		ps_report_json_init(&t->r[1], o, out, false);
		*r = (struct ps_reporter){ .start = tee_start,
					   .interval = tee_interval,
					   .end = tee_end,
					   .error = tee_error,
					   .message = tee_message,
					   .destroy = tee_destroy,
					   .arg = t };
	} else if (o->json_stream)
		ps_report_json_init(r, o, out, true);
	else if (o->json)
		ps_report_json_init(r, o, out, false);
	else
		ps_report_text_init(r, o, out);
}

/*
 * -I: the file is opened first (before -D detaches, so that a failure is
 * seen and the exit status says so), the pid written once it is known;
 * *path is its absolute name, for the unlink at the end (-D changes to /).
 * 0, or -1 with a message. *fd = -1 without -I.
 */
static int pidfile_open(const struct ps_opts *o, int *fd, char **path)
{
	char cwd[4096];

	*fd = -1;
	*path = NULL;
	if (!o->pidfile)
		return 0;
	if (o->pidfile[0] != '/' && !getcwd(cwd, sizeof(cwd))) {
		ps_err(_("cannot write the pid file %s: %s"), o->pidfile,
		       strerror(errno));
		return -1;
	}
	*fd = open(o->pidfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (*fd < 0) {
		ps_err(_("cannot write the pid file %s: %s"), o->pidfile,
		       strerror(errno));
		return -1;
	}
	if (o->pidfile[0] == '/')
		*path = xstrdup(o->pidfile);
	else
		xasprintf(path, "%s/%s", cwd, o->pidfile);
	return 0;
}

static void pidfile_write(int fd)
{
	if (fd < 0)
		return;
	dprintf(fd, "%d\n", (int)getpid());
	close(fd);
}

static void pidfile_remove(char *path)
{
	if (path)
		unlink(path);
	free(path);
}

/*
 * -I with --user: the pid file was made as root, maybe in a folder (/run)
 * the user cannot write to. A helper keeps root for that one thing: it
 * holds nothing else (no socket, stdio on /dev/null), ignores the signals
 * meant for the server, and removes the file once the server's end of a
 * pipe closes, however the server ends.
 */
static int pidfile_keeper(const char *path)
{
	int p[2], null;
	pid_t pid;
	char c;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (pid > 0) {
		close(p[0]);
		return 0; /* p[1] stays open as long as the server */
	}
	null = open("/dev/null", O_RDWR);
	for (int fd = 0; fd < 3 && null >= 0; fd++)
		dup2(null, fd);
	for (int fd = 3; fd < 1024; fd++)
		if (fd != p[0])
			close(fd);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	while (read(p[0], &c, 1) < 0 && errno == EINTR)
		;
	unlink(path);
	_exit(0);
}

static void pin_process(const struct ps_opts *o)
{
	cpu_set_t cs;

	if (o->ncpus != 1)
		return;
	CPU_ZERO(&cs);
	CPU_SET(o->cpus[0], &cs);
	if (sched_setaffinity(0, sizeof(cs), &cs))
		ps_warn(_("cannot pin to CPU %d: %s"), o->cpus[0],
			strerror(errno));
}

/*
 * -s --user NAME: the port is bound, now give up root for good (groups,
 * then gid, then uid) before any thread starts. 0 or -1 with a message.
 */
static int drop_privileges(const char *user)
{
	struct passwd *pw;

	errno = 0;
	pw = getpwnam(user);
	if (!pw) {
		ps_err(_("--user: no user named %s"), user);
		return -1;
	}
	if (getuid() == pw->pw_uid && geteuid() == pw->pw_uid)
		return 0; /* already that user */
	if (geteuid() != 0) {
		ps_err(_("--user %s: only root can change user"), user);
		return -1;
	}
	if (initgroups(pw->pw_name, pw->pw_gid) || setgid(pw->pw_gid) ||
	    setuid(pw->pw_uid)) {
		ps_err(_("--user %s: cannot drop privileges: %s"), user,
		       strerror(errno));
		return -1;
	}
	/* make sure there is no way back */
	if (pw->pw_uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) {
		ps_err(_("--user %s: root could be regained; stopping"), user);
		return -1;
	}
	ps_debug("running as %s (uid %u, gid %u)", pw->pw_name,
		 (unsigned)pw->pw_uid, (unsigned)pw->pw_gid);
	return 0;
}

/* what can be known wrong before anything starts */
static int precheck(const struct ps_opts *o)
{
	if (o->file && !o->reverse && access(o->file, R_OK)) {
		ps_err(_("cannot read the file %s: %s"), o->file,
		       strerror(errno));
		return -1;
	}
	return 0;
}

int ps_cmd_client(const struct ps_opts *o)
{
	struct ps_hist_attach att = { 0 };
	struct ps_tdiag *diag;
	struct ps_reporter rep;
	FILE *out = open_output(o);
	struct ps_opts co = *o;
	char *pidpath;
	int rc, pidfd;

	/* the history keeps the far end's snapshot too (a pipescope server
	 * sends it when asked) */
	co.peer_probes = o->peer_probes || ps_hist_enabled(o);
	if (o->ntargets > 1)
		return precheck(o) ? PS_EXIT_FAIL : ps_cmd_multi(o);
	if (precheck(o))
		return PS_EXIT_FAIL;
	ps_install_signals();
	pin_process(o);
	if (pidfile_open(o, &pidfd, &pidpath))
		return PS_EXIT_FAIL;
	pidfile_write(pidfd);
	make_reporter(&rep, o, out);
	/* --diagnose: the test judged too, before its record is made */
	diag = ps_tdiag_wrap(&rep, o, &co, false, &att);
	/* each finished test into the history, after its output */
	ps_hist_wrap_reporter_attach(&rep, &co, "test", &att);
	rc = ps_client_run(&co, &rep, &ps_stop_requested);
	ps_report_destroy(&rep);
	if (ps_tdiag_finish(diag) && !rc)
		rc = PS_EXIT_FAIL;
	free(att.check);
	pidfile_remove(pidpath);
	if (out != stdout)
		fclose(out);
	return rc;
}

int ps_cmd_server(const struct ps_opts *o)
{
	struct ps_server *srv;
	struct ps_reporter rep;
	FILE *out;
	char *pidpath;
	int rc, pidfd;

	/* the readings it shares come from a recorded machine; the tests
	 * stay live */
	if (ps_sysroot_use(o->sysroot))
		return PS_EXIT_USAGE;
	rc = ps_server_open(o, &srv);
	if (rc) {
		if (rc != -ENOKEY)
			ps_err(_("cannot listen on port %d: %s"), o->port,
			       strerror(-rc));
		return PS_EXIT_FAIL;
	}
	/* --logfile and -I open here, in this folder, where a failure is
	 * seen: -D then changes to / and leaves the terminal */
	out = open_output(o);
	if (pidfile_open(o, &pidfd, &pidpath)) {
		ps_server_close(srv);
		return PS_EXIT_FAIL;
	}
	if (o->daemon && daemon(0, o->logfile ? 0 : 1)) {
		ps_err(_("cannot run in the background: %s"), strerror(errno));
		ps_server_close(srv);
		pidfile_remove(pidpath);
		return PS_EXIT_FAIL;
	}
	pidfile_write(pidfd);
	ps_install_signals();
	pin_process(o);
	if (o->user && pidpath && (rc = pidfile_keeper(pidpath)))
		ps_warn(_("--user: the pid file %s will stay behind: %s"),
			pidpath, strerror(-rc));
	if (o->user && drop_privileges(o->user)) {
		ps_server_close(srv);
		pidfile_remove(pidpath);
		return PS_EXIT_FAIL;
	}
	ps_server_set_output(srv, out);
	/* -J makes a document per test inside the server; text is shared */
	ps_report_text_init(&rep, o, out);
	if (o->json || o->json_stream)
		rep.message = NULL; /* stdout holds JSON only */
	rc = ps_server_loop(srv, &rep, &ps_stop_requested);
	ps_server_close(srv);
	ps_report_destroy(&rep);
	pidfile_remove(pidpath);
	if (out != stdout)
		fclose(out);
	return rc;
}

int ps_cmd_selftest(const struct ps_opts *o)
{
	struct ps_hist_attach att = { 0 };
	struct ps_tdiag *diag;
	struct ps_opts co;
	struct ps_reporter rep;
	void *h;
	int rc;

	if (precheck(o))
		return PS_EXIT_FAIL;
	rc = ps_selftest_start(o, &co, &h);
	if (rc) {
		ps_err(_("cannot start the loopback server: %s"),
		       strerror(-rc));
		return PS_EXIT_FAIL;
	}
	ps_install_signals();
	make_reporter(&rep, o, stdout);
	diag = ps_tdiag_wrap(&rep, o, &co, true, &att);
	ps_hist_wrap_reporter_attach(&rep, &co, "test", &att);
	rc = ps_client_run(&co, &rep, &ps_stop_requested);
	ps_report_destroy(&rep);
	ps_selftest_stop(h);
	if (ps_tdiag_finish(diag) && !rc)
		rc = PS_EXIT_FAIL;
	free(att.check);
	return rc;
}

int ps_cmd_ui(const struct ps_opts *o)
{
	char *pidpath;
	int rc, pidfd;

	if (pidfile_open(o, &pidfd, &pidpath))
		return PS_EXIT_FAIL;
	pidfile_write(pidfd);
	rc = ps_ui_run(o);
	pidfile_remove(pidpath);
	return rc;
}
