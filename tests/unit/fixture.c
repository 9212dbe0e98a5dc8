/* fixture.c: the recorded machine trees for the unit tests (fixture.h) */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "fixture.h"
#include "sysroot.h"
#include "xmalloc.h"

char *machine(const char *name)
{
	const char *top = getenv("top_srcdir");
	char *p;

	xasprintf(&p, "%s/tests/fixtures/machines/%s", top ? top : ".", name);
	return p;
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

char *slurp(const char *tree, const char *rel)
{
	char *dir = machine(tree), *path, *text;
	size_t len;

	xasprintf(&path, "%s/%s", dir, rel);
	ps_sysroot_set(NULL);
	text = ps_read_file(path, &len);
	assert_non_null(text);
	free(path);
	free(dir);
	return text;
}
