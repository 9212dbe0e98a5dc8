/* test-cli.c: the command-line contract, option by option */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

static struct ps_opts o;
static char err[512];

/* parse a NULL-terminated list of words after argv0 */
static enum ps_cli_result parse_as(const char *argv0, ...)
{
	char *argv[64];
	int argc = 0;
	va_list ap;
	const char *w;

	ps_opts_free(&o);
	ps_opts_init(&o);
	argv[argc++] = (char *)argv0;
	va_start(ap, argv0);
	for (w = va_arg(ap, const char *); w; w = va_arg(ap, const char *))
		argv[argc++] = (char *)w;
	va_end(ap);
	argv[argc] = NULL;
	return ps_cli_parse(argc, argv, &o, err, sizeof(err));
}

#define parsev(...) parse_as("pipescope", __VA_ARGS__)
/* as the binary would under the name "iperf3" (a symlink) */
#define parse_as_iperf3(...) parse_as("/usr/local/bin/iperf3", __VA_ARGS__)

#define OK(...) assert_int_equal(parsev(__VA_ARGS__, NULL), PS_CLI_RUN)
#define BAD(needle, ...)                                                       \
	do {                                                                   \
		assert_int_equal(parsev(__VA_ARGS__, NULL), PS_CLI_ERROR);     \
		if (!strstr(err, needle))                                      \
			fail_msg("error '%s' does not name '%s'", err,         \
				 needle);                                      \
		assert_null(strchr(err, '\n'));                                \
	} while (0)

static void test_defaults(void **state)
{
	assert_int_equal(parsev(NULL), PS_CLI_RUN);
	assert_int_equal(o.mode, PS_MODE_SELFTEST);
	assert_int_equal(o.port, 5201);
	assert_int_equal(o.parallel, 1);
	assert_true(o.duration == 10);
	assert_true(o.interval == 1);
	assert_int_equal(o.proto, PS_PROTO_TCP);
	assert_int_equal(o.max_tests, 1);
	assert_int_equal(o.tos, -1);
	assert_int_equal(o.server_cpu, -1);
}

static void test_modes(void **state)
{
	OK("-c", "10.0.0.2");
	assert_int_equal(o.mode, PS_MODE_CLIENT);
	assert_string_equal(o.targets[0].host, "10.0.0.2");
	OK("-s");
	assert_int_equal(o.mode, PS_MODE_SERVER);
	OK("--server", "--max-tests", "4", "-1", "-D");
	assert_int_equal(o.max_tests, 4);
	assert_true(o.one_off && o.daemon);
	OK("probe", "--iface", "eth0", "--json", "--sysroot", "/tmp/x");
	assert_int_equal(o.mode, PS_MODE_PROBE);
	assert_string_equal(o.iface, "eth0");
	assert_string_equal(o.sysroot, "/tmp/x");
	assert_true(o.json);
	OK("check", "-c", "h", "--format", "markdown", "--quick");
	assert_int_equal(o.mode, PS_MODE_CHECK);
	assert_int_equal(o.report_format, PS_FORMAT_MARKDOWN);
	assert_true(o.quick);
	OK("check", "-c", "h", "--repeat", "3");
	assert_int_equal(o.repeat, 3);
	BAD("2", "check", "--repeat", "1");
	BAD("--repeat", "-c", "h", "--repeat", "3");
	OK("check", "--snapshot", "snap.json", "--format", "json");
	assert_string_equal(o.snapshot, "snap.json");
	assert_int_equal(o.report_format, PS_FORMAT_JSON);
	OK("check", "--format", "html", "--plot", "charts");
	assert_int_equal(o.report_format, PS_FORMAT_HTML);
	assert_string_equal(o.plot_dir, "charts");
	assert_int_equal(parsev("--help", NULL), PS_CLI_HELP);
	assert_int_equal(parsev("-h", NULL), PS_CLI_HELP);
	assert_int_equal(parsev("--version", NULL), PS_CLI_VERSION);
	assert_int_equal(parsev("-v", NULL), PS_CLI_VERSION);
}

static void test_targets(void **state)
{
	OK("-c", "a", "-c", "b:5300", "-c", "[fe80::1]:6000", "-c",
	   "fe80::2%eth1", "-c", "h%eth0");
	assert_int_equal(o.ntargets, 5);
	assert_string_equal(o.targets[0].host, "a");
	assert_int_equal(o.targets[0].port, 0);
	assert_string_equal(o.targets[1].host, "b");
	assert_int_equal(o.targets[1].port, 5300);
	assert_string_equal(o.targets[2].host, "fe80::1");
	assert_int_equal(o.targets[2].port, 6000);
	assert_string_equal(o.targets[3].host, "fe80::2");
	assert_string_equal(o.targets[3].dev, "eth1");
	assert_string_equal(o.targets[4].dev, "eth0");
	BAD("port", "-c", "h:99999");
	BAD("-c", "-c", "");
	BAD("]", "-c", "[::1");
}

static void test_client_options(void **state)
{
	OK("-c", "h", "-p", "5300", "-f", "G", "-i", "0.5", "-I", "/tmp/p",
	   "-A", "2,3", "-B", "10.0.0.1%eth0", "-V", "-J", "--logfile", "l",
	   "--forceflush", "-u", "-b", "100M/10", "-t", "30", "-l", "1400",
	   "--cport", "6000", "-P", "8", "-w", "4M", "-N", "-S", "0x10", "-O",
	   "2", "-T", "t", "--get-server-output", "--connect-timeout", "3000",
	   "-4", "--udp-counters-64bit", "--gsro", "--repeating-payload",
	   "--dont-fragment", "--extra-data", "x", "--no-tui", "--no-color",
	   "--rcv-timeout", "5000", "--snd-timeout", "100", "--debug",
	   "--json-stream");
	assert_int_equal(o.port, 5300);
	assert_int_equal(o.format, 'G');
	assert_true(o.interval == 0.5);
	assert_string_equal(o.pidfile, "/tmp/p");
	assert_int_equal(o.ncpus, 1);
	assert_int_equal(o.cpus[0], 2);
	assert_int_equal(o.server_cpu, 3);
	assert_string_equal(o.bind, "10.0.0.1");
	assert_string_equal(o.bind_dev, "eth0");
	assert_true(o.verbose && o.json && o.forceflush && o.json_stream);
	assert_string_equal(o.logfile, "l");
	assert_int_equal(o.proto, PS_PROTO_UDP);
	assert_true(o.rate == 100000000ULL);
	assert_int_equal(o.burst, 10);
	assert_true(o.duration == 30);
	assert_int_equal(o.len, 1400);
	assert_int_equal(o.cport, 6000);
	assert_int_equal(o.parallel, 8);
	assert_true(o.window == 4ULL * 1024 * 1024);
	assert_true(o.nodelay);
	assert_int_equal(o.tos, 16);
	assert_int_equal(o.omit, 2);
	assert_string_equal(o.title, "t");
	assert_true(o.get_server_output);
	assert_int_equal(o.connect_timeout_ms, 3000);
	assert_int_equal(o.family, 4);
	assert_true(o.udp_counters_64bit && o.gsro && o.repeating_payload &&
		    o.dont_fragment && o.no_tui && o.no_color && o.debug);
	assert_string_equal(o.extra_data, "x");
	assert_int_equal(o.rcv_timeout_ms, 5000);
	assert_int_equal(o.snd_timeout_ms, 100);

	OK("-c", "h", "-R", "-C", "cubic", "-M", "1400", "-Z", "--skip-rx-copy",
	   "-n", "1G", "-6", "--bind-dev", "d", "--fq-rate", "1G", "--iface",
	   "eth0");
	assert_true(o.reverse && o.zerocopy && o.skip_rx_copy);
	assert_string_equal(o.congestion, "cubic");
	assert_int_equal(o.mss, 1400);
	assert_true(o.bytes == 1024ULL * 1024 * 1024);
	assert_int_equal(o.family, 6);
	assert_string_equal(o.bind_dev, "d");
	assert_true(o.fq_rate == 1000000000ULL);

	/* -F writes what it receives: not with --skip-rx-copy (below) */
	OK("-c", "h", "-R", "-F", "f");
	assert_string_equal(o.file, "f");
	BAD("-F and --skip-rx-copy", "-c", "h", "-R", "-F", "f",
	    "--skip-rx-copy");

	/* -d is --bidir here, not iperf3's debug */
	OK("-c", "h", "-d", "-k", "100");
	assert_true(o.bidir);
	assert_false(o.debug);
	assert_true(o.blocks == 100);
	OK("-c", "h", "--bidir", "--parallel=128", "--time=0");
	assert_true(o.bidir);
	assert_int_equal(o.parallel, 128);
	assert_true(o.duration == 0);

	/* UDP without -b gets iperf3's 1 Mbit/s (1048576); -b 0 is unlimited */
	OK("-c", "h", "-u");
	assert_true(o.rate == 1048576);
	OK("-c", "h", "-u", "-b", "0");
	assert_true(o.rate == 0);

	/* one CPU per stream */
	OK("-c", "h", "-P", "4", "-A", "2,3,4,5");
	assert_int_equal(o.ncpus, 4);
	assert_int_equal(o.cpus[3], 5);
	assert_int_equal(o.server_cpu, -1);
	OK("-c", "h", "-A", "0-3");
	assert_int_equal(o.ncpus, 4);
}

static void test_server_options(void **state)
{
	OK("-s", "--server-bitrate-limit", "1G", "--idle-timeout", "30",
	   "--server-max-duration", "60", "-B", "127.0.0.1", "-A", "1");
	assert_true(o.server_rate_limit == 1000000000ULL);
	assert_int_equal(o.idle_timeout, 30);
	assert_int_equal(o.server_max_duration, 60);
	assert_string_equal(o.bind, "127.0.0.1");
	assert_int_equal(o.cpus[0], 1);
}

static void test_bad_numbers(void **state)
{
	BAD("-P", "-c", "h", "-P", "0");
	BAD("-P", "-c", "h", "-P", "100000");
	BAD("-P", "-c", "h", "-P", "129");
	BAD("-P", "-c", "h", "-P", "four");
	BAD("-P", "-c", "h", "-P", "4x");
	BAD("-t", "-c", "h", "-t", "-5");
	BAD("-t", "-c", "h", "-t", "86401");
	BAD("-t", "-c", "h", "-t", "abc");
	BAD("-p", "-c", "h", "-p", "0");
	BAD("-p", "-c", "h", "-p", "65536");
	BAD("-i", "-c", "h", "-i", "0.01");
	BAD("-i", "-c", "h", "-i", "61");
	BAD("-O", "-c", "h", "-O", "-1");
	BAD("-S", "-c", "h", "-S", "256");
	BAD("-M", "-c", "h", "-M", "40000");
	BAD("--cport", "-c", "h", "--cport", "70000");
	BAD("--max-tests", "-s", "--max-tests", "0");
	BAD("--connect-timeout", "-c", "h", "--connect-timeout", "-1");
	BAD("-b", "-c", "h", "-b", "100M/0");
	BAD("-b", "-c", "h", "-b", "100M/x");
}

static void test_bad_units(void **state)
{
	BAD("'X'", "-c", "h", "-b", "12X");
	BAD("-b", "-c", "h", "-b", "12X");
	BAD("'Q'", "-c", "h", "-n", "5Q");
	BAD("-w", "-c", "h", "-w", "4MB");
	BAD("-w", "-c", "h", "-w", "1G"); /* above 512 MiB */
	BAD("-l", "-c", "h", "-l", "2M");
	BAD("-l", "-c", "h", "-l", "0");
	BAD("-l", "-c", "h", "-u", "-l", "65508");
	BAD("-n", "-c", "h", "-n", "-1");
	BAD("-n", "-c", "h", "-n", "");
	BAD("-b", "-c", "h", "-b", "99999999999999999999999T");
	BAD("-f", "-c", "h", "-f", "x");
	BAD("-A", "-c", "h", "-A", "a,b");
	BAD("-A", "-c", "h", "-A", "3-1");
	BAD("--format", "check", "--format", "pdf");
	BAD("--plot", "check", "--plot", "");
	BAD("--plot", "-c", "h", "--plot", "charts");
	BAD("--iface", "probe", "--iface", "a/b");
}

static void test_bad_structure(void **state)
{
	BAD("-x", "-x");
	BAD("--frobnicate", "--frobnicate");
	BAD("-P", "-c", "h", "-P");
	BAD("--time", "-c", "h", "--time");
	BAD("-c", "-c");
	BAD("-c and -s", "-c", "h", "-s");
	BAD("-c and -s", "-s", "-c", "h");
	BAD("extra", "-c", "h", "extra");
	BAD("'probe' must come first", "-c", "h", "probe");
	BAD("probe", "probe", "-c", "h");
	BAD("check", "check", "-s");
	BAD("-P", "probe", "-P", "2");
	BAD("--format", "--format", "json");
	BAD("--snapshot", "--snapshot", "f");
	BAD("--snapshot", "check", "--snapshot", "f", "-c", "h");
	BAD("-P", "-s", "-P", "4");
	BAD("-R", "-s", "-R");
	BAD("--max-tests", "-c", "h", "--max-tests", "2");
	BAD("-1", "-c", "h", "-1");
	BAD("-t", "-c", "h", "-t", "5", "-n", "1M");
	BAD("-R", "-c", "h", "-R", "-d");
	BAD("--skip-rx-copy", "-c", "h", "-u", "--skip-rx-copy");
	BAD("--gsro", "-c", "h", "--gsro");
}

/* sizes 1024-based, rates 1000-based, both case-insensitive, as iperf3 */
static void test_suffixes(void **state)
{
	OK("-c", "h", "-n", "1k");
	assert_true(o.bytes == 1024);
	OK("-c", "h", "-n", "2M");
	assert_true(o.bytes == 2 * 1024 * 1024);
	OK("-c", "h", "-n", "1.5g");
	assert_true(o.bytes == 1536ULL * 1024 * 1024);
	OK("-c", "h", "-n", "1T");
	assert_true(o.bytes == 1024ULL * 1024 * 1024 * 1024);
	OK("-c", "h", "-b", "10g");
	assert_true(o.rate == 10000000000ULL);
	OK("-c", "h", "-b", "1.5K");
	assert_true(o.rate == 1500);
	OK("-c", "h", "-b", "250m");
	assert_true(o.rate == 250000000ULL);
	OK("-c", "h", "-w", "256k");
	assert_true(o.window == 262144);
	OK("-c", "h", "-l", "64K");
	assert_int_equal(o.len, 65536);
}

/* iperf3's options that pipescope once refused (issue 18) */
static void test_iperf3_options(void **state)
{
	OK("-c", "h", "--timestamps");
	assert_string_equal(o.timestamps, PS_TIMESTAMP_FORMAT);
	OK("-s", "--timestamps=%H:%M ");
	assert_string_equal(o.timestamps, "%H:%M ");
	OK("-c", "h", "--json-stream", "--json-stream-full-output");
	assert_true(o.json_stream && o.json_stream_full);
	OK("-c", "h", "--cntl-ka");
	assert_true(o.cntl_ka);
	assert_int_equal(o.cntl_ka_idle, 0);
	OK("-s", "--cntl-ka=30/5/3");
	assert_true(o.cntl_ka);
	assert_int_equal(o.cntl_ka_idle, 30);
	assert_int_equal(o.cntl_ka_interval, 5);
	assert_int_equal(o.cntl_ka_count, 3);
	OK("-c", "h", "--cntl-ka=/7");
	assert_int_equal(o.cntl_ka_interval, 7);
	assert_int_equal(o.cntl_ka_idle, 0);
	BAD("--cntl-ka", "-c", "h", "--cntl-ka=10/5/3");
	BAD("--cntl-ka", "-c", "h", "--cntl-ka=x");
	BAD("--cntl-ka", "-c", "h", "--cntl-ka=1/2/3/4");
	BAD("--cntl-ka", "-c", "h", "--cntl-ka=60/5/128");
	BAD("--cntl-ka", "-c", "h", "--cntl-ka=32768");
	OK("-c", "h", "-m");
	assert_true(o.mptcp);
	OK("-s", "--mptcp");
	assert_true(o.mptcp);
	/* --dscp: the code point into the TOS byte's upper six bits */
	OK("-c", "h", "--dscp", "46");
	assert_int_equal(o.tos, 46 << 2);
	OK("-c", "h", "--dscp", "0x0a");
	assert_int_equal(o.tos, 10 << 2);
	OK("-c", "h", "--dscp", "EF");
	assert_int_equal(o.tos, 0xb8);
	OK("-c", "h", "--dscp", "af41");
	assert_int_equal(o.tos, 0x88);
	OK("-c", "h", "--dscp", "cs1");
	assert_int_equal(o.tos, 0x20);
	OK("-c", "h", "--dscp", "throughput");
	assert_int_equal(o.tos, 0x08);
	BAD("--dscp", "-c", "h", "--dscp", "64");
	BAD("--dscp", "-c", "h", "--dscp", "gold");
	BAD("client", "-s", "--dscp", "ef");
	OK("-c", "h", "-L", "0x12345");
	assert_int_equal(o.flowlabel, 0x12345);
	OK("-c", "h", "--flowlabel", "7");
	assert_int_equal(o.flowlabel, 7);
	BAD("-L", "-c", "h", "-L", "0");
	BAD("-L", "-c", "h", "-L", "0x100000");
	/* deprecated in iperf3: accepted, marked for the warning */
	OK("-c", "h", "--pacing-timer", "1000");
	assert_int_equal(o.deprecated, PS_DEPRECATED_PACING_TIMER);
	OK("-c", "h", "--fq-rate", "1G", "--no-fq-socket-pacing");
	assert_int_equal(o.deprecated, PS_DEPRECATED_NO_FQ_PACING);
	assert_true(o.fq_rate == 0);
	OK("-c", "h");
	assert_int_equal(o.deprecated, 0);
	OK("-c", "h", "--debug=2");
	assert_true(o.debug);
	assert_int_equal(o.debug_level, 2);
	OK("-c", "h", "--debug");
	assert_int_equal(o.debug_level, 4);
	BAD("--debug", "-c", "h", "--debug=9");
	OK("-c", "h", "--format", "m");
	assert_int_equal(o.format, 'm');
	OK("-s", "--format", "G");
	assert_int_equal(o.format, 'G');
	BAD("--format", "-c", "h", "--format", "q");
	OK("-c", "h", "-A", "2,3");
	assert_int_equal(o.ncpus, 1);
	assert_int_equal(o.cpus[0], 2);
	assert_int_equal(o.server_cpu, 3);
	OK("-c", "h", "-V");
	assert_true(o.verbose);
	/* as pipescope, -d stays --bidir */
	OK("-c", "h", "-d");
	assert_true(o.bidir && !o.debug);
	assert_false(o.iperf3_mode);
}

/* started as "iperf3": iperf3's command line (-d is --debug) */
static void test_iperf3_mode(void **state)
{
	assert_int_equal(parse_as_iperf3("-c", "h", "-d", NULL), PS_CLI_RUN);
	assert_true(o.iperf3_mode && o.no_tui);
	assert_true(o.debug && !o.bidir);
	assert_int_equal(parse_as_iperf3("-c", "h", "--bidir", NULL),
			 PS_CLI_RUN);
	assert_true(o.bidir);
	assert_int_equal(parse_as_iperf3("--version", NULL), PS_CLI_VERSION);
	assert_int_equal(parse_as_iperf3("-v", NULL), PS_CLI_VERSION);
	/* no workstation and no subcommands: -c or -s, as iperf3 wants */
	assert_int_equal(parse_as_iperf3(NULL), PS_CLI_ERROR);
	assert_non_null(strstr(err, "-c"));
	assert_int_equal(parse_as_iperf3("probe", NULL), PS_CLI_ERROR);
	/* perfSONAR's client and server command lines */
	assert_int_equal(
		parse_as_iperf3("-p", "5201", "-c", "h", "-t", "1", "--json",
				"-i", "1", "-P", "2", "-w", "1M", "-M", "1400",
				"-O", "1", "-b", "1G", "--fq-rate", "1G", "-l",
				"64K", "-S", "32", "-C", "cubic", "-Z", "-L",
				"5", "-R", "-B", "127.0.0.1", "-6", NULL),
		PS_CLI_RUN);
	assert_true(o.json && o.reverse && o.zerocopy);
	assert_int_equal(o.flowlabel, 5);
	assert_int_equal(o.family, 6);
	assert_int_equal(parse_as_iperf3("-s", "-1", "--idle-timeout", "30",
					 "--json", "-B", "::1", NULL),
			 PS_CLI_RUN);
	assert_true(o.one_off && o.json);
	assert_int_equal(o.idle_timeout, 30);
	assert_true(ps_cli_iperf3_name("iperf3"));
	assert_false(ps_cli_iperf3_name("/usr/bin/iperf3.12"));
	assert_false(ps_cli_iperf3_name("pipescope"));
}

/* the command line as check's page says it: the program by its name, a
 * word a shell would split or expand quoted (issue 25 item 12) */
static void test_cmdline(void **state)
{
	(void)state;
	assert_int_equal(parse_as("/usr/local/bin/pipescope", "check", "-c",
				  "10.0.0.2", "--title", "it's <b> $x", "-T",
				  "", NULL),
			 PS_CLI_RUN);
	assert_non_null(o.cmdline);
	assert_string_equal(o.cmdline, "pipescope check -c 10.0.0.2 --title "
				       "'it'\\''s <b> $x' -T ''");
	OK("-c", "h", "-b", "1.5G");
	assert_string_equal(o.cmdline, "pipescope -c h -b 1.5G");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_client_options),
		cmocka_unit_test(test_server_options),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_bad_units),
		cmocka_unit_test(test_bad_structure),
		cmocka_unit_test(test_suffixes),
		cmocka_unit_test(test_iperf3_options),
		cmocka_unit_test(test_iperf3_mode),
		cmocka_unit_test(test_cmdline),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	ps_opts_free(&o);
	return rc;
}
