/* cmd-test.c: "pipescope -c/-s" without the screen: text or JSON as iperf3 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd-test.h"
#include "engine.h"
#include "exitcodes.h"
#include "log.h"
#include "nls.h"
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

static void make_reporter(struct ps_reporter *r, const struct ps_opts *o,
			  FILE *out)
{
	if (o->json_stream)
		ps_report_json_init(r, o, out, true);
	else if (o->json)
		ps_report_json_init(r, o, out, false);
	else
		ps_report_text_init(r, o, out);
}

static int write_pidfile(const struct ps_opts *o)
{
	FILE *f;

	if (!o->pidfile)
		return 0;
	f = fopen(o->pidfile, "we");
	if (!f) {
		ps_err(_("cannot write the pid file %s: %s"), o->pidfile,
		       strerror(errno));
		return -1;
	}
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	return 0;
}

static void pin_process(const struct ps_opts *o)
{
	cpu_set_t cs;

	if (o->ncpus != 1)
		return;
	CPU_ZERO(&cs);
	CPU_SET(o->cpus[0], &cs);
	if (sched_setaffinity(0, sizeof(cs), &cs))
		ps_warn(_("cannot pin to CPU %d: %s"), o->cpus[0], strerror(errno));
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
		return 0;	/* already that user */
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
		ps_err(_("cannot read the file %s: %s"), o->file, strerror(errno));
		return -1;
	}
	return 0;
}

int ps_cmd_client(const struct ps_opts *o)
{
	struct ps_reporter rep;
	FILE *out = open_output(o);
	int rc;

	if (o->ntargets > 1)
		return precheck(o) ? PS_EXIT_FAIL : ps_cmd_multi(o);
	if (precheck(o))
		return PS_EXIT_FAIL;
	ps_install_signals();
	pin_process(o);
	if (write_pidfile(o))
		return PS_EXIT_FAIL;
	make_reporter(&rep, o, out);
	rc = ps_client_run(o, &rep, &ps_stop_requested);
	ps_report_destroy(&rep);
	if (o->pidfile)
		unlink(o->pidfile);
	if (out != stdout)
		fclose(out);
	return rc;
}

int ps_cmd_server(const struct ps_opts *o)
{
	struct ps_server *srv;
	struct ps_reporter rep;
	FILE *out;
	int rc;

	/* the readings it shares come from a recorded machine; the tests
	 * stay live */
	if (ps_sysroot_use(o->sysroot))
		return PS_EXIT_USAGE;
	rc = ps_server_open(o, &srv);
	if (rc) {
		ps_err(_("cannot listen on port %d: %s"), o->port, strerror(-rc));
		return PS_EXIT_FAIL;
	}
	if (o->daemon && daemon(0, o->logfile ? 0 : 1)) {
		ps_err(_("cannot run in the background: %s"), strerror(errno));
		ps_server_close(srv);
		return PS_EXIT_FAIL;
	}
	out = open_output(o);
	ps_install_signals();
	pin_process(o);
	if (write_pidfile(o) || (o->user && drop_privileges(o->user))) {
		ps_server_close(srv);
		return PS_EXIT_FAIL;
	}
	ps_server_set_output(srv, out);
	/* -J makes a document per test inside the server; text is shared */
	ps_report_text_init(&rep, o, out);
	if (o->json || o->json_stream)
		rep.message = NULL;	/* stdout holds JSON only */
	rc = ps_server_loop(srv, &rep, &ps_stop_requested);
	ps_server_close(srv);
	ps_report_destroy(&rep);
	if (o->pidfile)
		unlink(o->pidfile);
	if (out != stdout)
		fclose(out);
	return rc;
}

int ps_cmd_selftest(const struct ps_opts *o)
{
	struct ps_opts co;
	struct ps_reporter rep;
	void *h;
	int rc;

	if (precheck(o))
		return PS_EXIT_FAIL;
	rc = ps_selftest_start(o, &co, &h);
	if (rc) {
		ps_err(_("cannot start the loopback server: %s"), strerror(-rc));
		return PS_EXIT_FAIL;
	}
	ps_install_signals();
	make_reporter(&rep, o, stdout);
	rc = ps_client_run(&co, &rep, &ps_stop_requested);
	ps_report_destroy(&rep);
	ps_selftest_stop(h);
	return rc;
}
