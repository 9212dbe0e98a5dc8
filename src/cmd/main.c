/* main.c: pipescope's entry; parses the command line and runs one mode */
#include "config.h"

#include <locale.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd-check.h"
#include "cmd-history.h"
#include "cmd-probe.h"
#include "cmd-rules.h"
#include "cmd-test.h"
#include "exitcodes.h"
#include "log.h"
#include "net.h"
#include "nls.h"
#include "ui.h"

void ps_nls_init(void)
{
	const char *dir = getenv("PIPESCOPE_LOCALEDIR");

	setlocale(LC_ALL, "");
	/*
	 * Numbers stay in the C form whatever the language: the JSON on the
	 * wire and in -J, iperf3's command line (-t 0.5) and the kernel's
	 * files ("2.5 GT/s") all use a decimal point, never a comma.
	 */
	setlocale(LC_NUMERIC, "C");
	bindtextdomain(PACKAGE, dir && *dir ? dir : LOCALEDIR);
	textdomain(PACKAGE);
}

int main(int argc, char **argv)
{
	struct ps_opts opts;
	char err[512];
	int rc = PS_EXIT_OK;

	ps_nls_init();
	ps_opts_init(&opts);
	switch (ps_cli_parse(argc, argv, &opts, err, sizeof(err))) {
	case PS_CLI_ERROR:
		ps_opts_free(&opts);
		ps_usage_error("%s", err);
	case PS_CLI_HELP:
		ps_cli_help_mode(stdout, opts.mode);
		goto out;
	case PS_CLI_VERSION:
		if (opts.iperf3_mode)
			ps_cli_version_iperf3(stdout);
		else
			ps_cli_version(stdout);
		goto out;
	case PS_CLI_RUN:
		break;
	}
	if (opts.deprecated & PS_DEPRECATED_PACING_TIMER)
		ps_warn(_("--pacing-timer is accepted for iperf3's command "
			  "lines and ignored: pipescope paces -b by its own "
			  "clock"));
	if (opts.deprecated & PS_DEPRECATED_NO_FQ_PACING)
		ps_warn(_("--no-fq-socket-pacing is deprecated (in iperf3 "
			  "too): it means --fq-rate 0"));

	ps_log_set_debug(opts.debug);
	ps_net_set_mptcp(opts.mptcp);
	ps_log_set_forceflush(opts.forceflush);
	switch (opts.mode) {
	case PS_MODE_PROBE:
		rc = ps_cmd_probe(&opts);
		break;
	case PS_MODE_CLIENT:
		/* the workstation on a terminal; -1: it cannot, use text */
		rc = ps_ui_wanted(&opts) ? ps_cmd_ui(&opts) : -1;
		if (rc < 0)
			rc = ps_cmd_client(&opts);
		break;
	case PS_MODE_SERVER:
		rc = ps_cmd_server(&opts);
		break;
	case PS_MODE_SELFTEST:
		rc = ps_ui_wanted(&opts) ? ps_cmd_ui(&opts) : -1;
		if (rc < 0)
			rc = ps_cmd_selftest(&opts);
		break;
	case PS_MODE_CHECK:
		rc = opts.list_rules ? ps_cmd_rules(&opts)
				     : ps_cmd_check(&opts);
		break;
	case PS_MODE_HISTORY:
		rc = ps_cmd_history(&opts);
		break;
	case PS_MODE_COMPARE:
		rc = ps_cmd_compare(&opts);
		break;
	default:
		ps_err(_("this mode is not available in this build yet"));
		rc = PS_EXIT_FAIL;
		break;
	}
out:
	ps_opts_free(&opts);
	return rc;
}
