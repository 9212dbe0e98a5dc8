/* fixture.h: the recorded machine trees (tests/fixtures/machines) for the
 * unit tests of the probes and the checks */
#ifndef PS_TEST_FIXTURE_H
#define PS_TEST_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

/* "$top_srcdir/tests/fixtures/machines/NAME", xmalloc'ed */
char *machine(const char *name);
/*
 * Whether the trees are here: they are not in the release tarball (tar
 * would dereference their symlinks), so a test skips there, saying why.
 * rel is a path that must exist, e.g. "i40e-4cpu/sys".
 */
bool have_machines_at(const char *rel);
/* "$top_srcdir/tests/fixtures/machines/NAME" in a static buffer, or the
 * test skips, saying so, when that tree is not here */
const char *machine_or_skip(const char *name);
/* the whole of TREE/REL read live (no sysroot); the test fails if absent */
char *slurp(const char *tree, const char *rel);
/* tests/fixtures/REL, whole (the test fails if absent) */
char *fixture_text(const char *rel);
/* a recorded counter output, tests/fixtures/counters/NAME, whole (the
 * test fails if absent) */
char *counters_fixture(const char *name);
/* a recorded netlink answer, tests/fixtures/netlink/DIR/NAME.bin, whole
 * (*len bytes); the test fails if absent */
char *netlink_fixture(const char *dir, const char *name, size_t *len);
/*
 * Feed parse(p, n, arg) every step-th prefix of buf (each an exact-size
 * heap copy, so an overread shows under ASan or valgrind), then `flips`
 * whole copies with four bits flipped at random (*seed, carried on).
 */
void feed_mangled(const char *buf, size_t len, size_t step, int flips,
		  unsigned *seed,
		  void (*parse)(const char *p, size_t n, void *arg), void *arg);

#endif
