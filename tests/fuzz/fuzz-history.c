/*
 * fuzz-history.c: a libFuzzer harness for the run history, a file another
 * user or a restored backup can hand pipescope: the input is the SQLite
 * file itself, written to an owner-only folder, then read the ways a user
 * reads it: "history" (text and JSON), "history --export jsonl" and
 * "compare" (text, JSON and HTML) of its two newest runs. What it prints
 * goes to /dev/null; a crash, a leak, UB or a hang (-timeout) is the
 * report. Built by "make fuzz" (configure --enable-fuzzing CC=clang).
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd-history.h"
#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], db[96];

/* the folder, once; stdout to /dev/null (stderr stays libFuzzer's) */
static int setup(void)
{
	int fd;

	if (dir[0])
		return 0;
	snprintf(dir, sizeof(dir), "/tmp/ps-fuzz-history-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(db, sizeof(db), "%s/history.db", dir);
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		return -1;
	close(fd);
	return 0;
}

/* the file as the input has it, with no journal of an earlier one */
static int put(const uint8_t *data, size_t size)
{
	static const char *const side[] = { "-journal", "-wal", "-shm" };
	char path[128];
	int fd;

	for (size_t i = 0; i < sizeof(side) / sizeof(side[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", db, side[i]);
		unlink(path);
	}
	fd = open(db, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	for (size_t off = 0; off < size;) {
		ssize_t n = write(fd, data + off, size - off);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	return close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum ps_report_format compare_as[] = {
		PS_FORMAT_TEXT,
		PS_FORMAT_JSON,
		PS_FORMAT_HTML,
	};
	struct ps_opts o;

	if (setup() || put(data, size))
		abort(); /* the harness's own failure, not the input's */
	ps_opts_init(&o);
	o.history_file = db;
	ps_cmd_history(&o);
	o.report_format = PS_FORMAT_JSON;
	ps_cmd_history(&o);
	o.history_export = true;
	ps_cmd_history(&o);
	o.history_export = false;
	for (size_t i = 0; i < sizeof(compare_as) / sizeof(compare_as[0]);
	     i++) {
		o.report_format = compare_as[i];
		ps_cmd_compare(&o);
	}
	return 0;
}
