/* cli.h: the command-line contract, parsed in one place */
#ifndef PS_CLI_H
#define PS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"

enum ps_cli_result {
	PS_CLI_RUN = 0,	   /* options are in *o; go */
	PS_CLI_HELP,	   /* --help asked for */
	PS_CLI_VERSION,	   /* --version asked for */
	PS_CLI_ERROR = -1, /* err holds one translated line */
};

void ps_opts_free(struct ps_opts *o);

/*
 * Parse argv into *o (which ps_opts_init prepared). Never prints and never
 * exits, so tests can call it repeatedly; on PS_CLI_ERROR err holds a single
 * line that names the option and the problem.
 */
enum ps_cli_result ps_cli_parse(int argc, char **argv, struct ps_opts *o,
				char *err, size_t errlen);

void ps_cli_help(FILE *out);
/* the help of a sub-command (check, compare, history, probe); the whole
 * help for the others */
void ps_cli_help_mode(FILE *out, enum ps_mode mode);
void ps_cli_version(FILE *out);

/* argv as one line for a person to read and a shell to run again: the
 * program's name without its directory, a word with anything but
 * [A-Za-z0-9_./:=,@%+-] in single quotes ('it'\''s'); xmalloc'ed. The
 * caller still sanitizes it for where it goes (a terminal, HTML) */
char *ps_cli_cmdline(int argc, char *const *argv);
/* argv[0] names "iperf3": pipescope runs as a drop-in for it */
bool ps_cli_iperf3_name(const char *argv0);
void ps_cli_version_iperf3(FILE *out);

#endif
