/* fixture.c: the recorded machine trees for the unit tests (fixture.h) */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "fixture.h"
#include "sysroot.h"
#include "xmalloc.h"

#ifndef PS_TOP_SRCDIR
#define PS_TOP_SRCDIR "."
#endif

static const char *top_srcdir(void)
{
	const char *top = getenv("top_srcdir");

	return top && *top ? top : PS_TOP_SRCDIR;
}

char *machine(const char *name)
{
	char *p;

	xasprintf(&p, "%s/tests/fixtures/machines/%s", top_srcdir(), name);
	return p;
}

const char *machine_or_skip(const char *name)
{
	static char tree[4096];
	struct stat st;

	snprintf(tree, sizeof(tree), "%s/tests/fixtures/machines/%s",
		 top_srcdir(), name);
	/* the release tarball does not carry the recorded trees */
	if (stat(tree, &st)) {
		print_message("no recorded tree %s: skipped\n", tree);
		skip();
	}
	return tree;
}

bool have_machines_at(const char *rel)
{
	char *p = machine(rel);
	struct stat st;
	bool ok = !lstat(p, &st);

	free(p);
	if (!ok)
		fprintf(stderr,
			"recorded machine trees not present: skipped\n");
	return ok;
}

/* $top_srcdir/tests/fixtures/REL, read live (the sysroot put back), whole */
static char *fixture(const char *rel, size_t *len)
{
	char *root = xstrdup(ps_sysroot_get()), *path, *text;

	xasprintf(&path, "%s/tests/fixtures/%s", top_srcdir(), rel);
	ps_sysroot_set(NULL);
	text = ps_read_file(path, len);
	ps_sysroot_set(root);
	if (!text)
		fail_msg("cannot read fixture %s", path);
	free(path);
	free(root);
	return text;
}

char *slurp(const char *tree, const char *rel)
{
	char *path, *text;
	size_t len;

	xasprintf(&path, "machines/%s/%s", tree, rel);
	text = fixture(path, &len);
	free(path);
	return text;
}

char *fixture_text(const char *rel)
{
	size_t len;

	return fixture(rel, &len);
}

char *counters_fixture(const char *name)
{
	char *path, *text;
	size_t len;

	xasprintf(&path, "counters/%s", name);
	text = fixture(path, &len);
	free(path);
	return text;
}

char *netlink_fixture(const char *dir, const char *name, size_t *len)
{
	char *path, *buf;

	xasprintf(&path, "netlink/%s/%s.bin", dir, name);
	buf = fixture(path, len);
	free(path);
	return buf;
}

void feed_mangled(const char *buf, size_t len, size_t step, int flips,
		  unsigned *seed,
		  void (*parse)(const char *p, size_t n, void *arg), void *arg)
{
	char *copy = xmalloc(len ? len : 1);

	for (size_t cut = 0; cut <= len; cut += step) {
		char *p = xmalloc(cut ? cut : 1);

		memcpy(p, buf, cut);
		parse(p, cut, arg);
		free(p);
	}
	for (int k = 0; len && k < flips; k++) {
		memcpy(copy, buf, len);
		for (int f = 0; f < 4; f++)
			copy[rand_r(seed) % len] ^=
				(char)(1 << (rand_r(seed) % 8));
		parse(copy, len, arg);
	}
	free(copy);
}
