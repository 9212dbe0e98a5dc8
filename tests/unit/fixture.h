/* fixture.h: the recorded machine trees (tests/fixtures/machines) for the
 * unit tests of the probes and the checks */
#ifndef PS_TEST_FIXTURE_H
#define PS_TEST_FIXTURE_H

#include <stdbool.h>

/* "$top_srcdir/tests/fixtures/machines/NAME", xmalloc'ed */
char *machine(const char *name);
/*
 * Whether the trees are here: they are not in the release tarball (tar
 * would dereference their symlinks), so a test skips there, saying why.
 * rel is a path that must exist, e.g. "i40e-4cpu/sys".
 */
bool have_machines_at(const char *rel);
/* the whole of TREE/REL read live (no sysroot); the test fails if absent */
char *slurp(const char *tree, const char *rel);

#endif
