/* test-sysroot.c: reads under --sysroot stay in the tree and read only
 * regular files, with openat2 and with the walk by hand */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sysroot.h"

static char top[64], tree[128];

static void put(const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void link_(const char *target, const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	assert_int_equal(symlink(target, p), 0);
}

static void dir_(const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

/* TOP/secret outside TOP/tree; the tree's own files, links and traps */
static int setup(void **state)
{
	char p[512];
	int fd;

	(void)state;
	snprintf(top, sizeof(top), "/tmp/ps-sysroot-XXXXXX");
	if (!mkdtemp(top))
		return -1;
	snprintf(tree, sizeof(tree), "%s/tree", top);
	put("secret", "outside\n");
	dir_("tree");
	dir_("tree/proc");
	dir_("tree/sys");
	dir_("tree/sys/a");
	dir_("tree/sys/a/b");
	put("tree/proc/ok", "hello\n");
	put("tree/sys/a/b/file", "deep\n");
	link_("a/b", "tree/sys/link");
	link_("../proc/ok", "tree/sys/up");
	link_("../../../sys/a/b/file", "tree/sys/a/b/round");
	link_("link", "tree/sys/chain");
	link_("../../secret", "tree/sys/esc");
	link_("../..", "tree/sys/escdir");
	snprintf(p, sizeof(p), "%s/secret", top);
	link_(p, "tree/sys/abs");
	link_("/dev/zero", "tree/sys/zero");
	link_("loop", "tree/sys/loop");
	snprintf(p, sizeof(p), "%s/sys/fifo", tree);
	assert_int_equal(mkfifo(p, 0644), 0);
	snprintf(p, sizeof(p), "%s/proc/big", tree);
	fd = open(p, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, PS_READ_MAX + 4096), 0);
	close(fd);
	ps_sysroot_set(tree);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	ps_sysroot_set(NULL);
	ps_sysroot_force_manual(false);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd);
}

static void expect_line(const char *path, int rc, const char *want)
{
	char buf[64];

	assert_int_equal(ps_read_line(path, buf, sizeof(buf)), rc);
	if (want)
		assert_string_equal(buf, want);
}

static void reads(bool manual)
{
	struct stat st;
	DIR *d;
	char *text;

	ps_sysroot_force_manual(manual);
	/* inside the tree: files, links to directories and up, chains */
	expect_line("/proc/ok", 0, "hello");
	expect_line("/sys/link/file", 0, "deep");
	expect_line("/sys/up", 0, "hello");
	expect_line("/sys/chain/file", 0, "deep");
	expect_line("/sys/a/b/round", 0, "deep");
	expect_line("/sys/a/../a/b/file", 0, "deep");
	/* out of the tree: never */
	expect_line("/sys/esc", -EXDEV, NULL);
	expect_line("/sys/abs", -EXDEV, NULL);
	expect_line("/sys/zero", -EXDEV, NULL);
	expect_line("/sys/escdir/secret", -EXDEV, NULL);
	expect_line("/../secret", -EXDEV, NULL);
	expect_line("/sys/link/../../../secret", -ENOENT, NULL);
	expect_line("/sys/link/../../../../secret", -EXDEV, NULL);
	/* not regular files: no block, no endless read */
	expect_line("/sys/fifo", -EINVAL, NULL);
	expect_line("/sys/a", -EISDIR, NULL);
	expect_line("/sys/loop", -ELOOP, NULL);
	expect_line("/sys/none", -ENOENT, NULL);
	errno = 0;
	assert_null(ps_read_file("/proc/big", NULL));
	assert_int_equal(errno, EFBIG);
	text = ps_read_file("/sys/up", NULL);
	assert_non_null(text);
	assert_string_equal(text, "hello\n");
	free(text);
	/* directories and stat follow the same rules */
	d = ps_opendir("/sys/link");
	assert_non_null(d);
	closedir(d);
	errno = 0;
	assert_null(ps_opendir("/sys/escdir"));
	assert_int_equal(errno, EXDEV);
	assert_int_equal(ps_stat("/sys/chain/file", &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(ps_stat("/sys/abs", &st), -EXDEV);
	assert_int_equal(ps_stat("/sys/fifo", &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
}

static void test_openat2(void **state)
{
	(void)state;
	reads(false);
}

static void test_by_hand(void **state)
{
	(void)state;
	reads(true);
}

/* renames anywhere make openat2 ask for a retry while it resolves "..":
 * a read through the tree's relative links must not fail for it */
static atomic_bool renaming;

static void *rename_loop(void *arg)
{
	char a[128], b[128];

	(void)arg;
	snprintf(a, sizeof(a), "%s/ra", top);
	snprintf(b, sizeof(b), "%s/rb", top);
	close(open(a, O_CREAT | O_WRONLY, 0644));
	while (atomic_load(&renaming)) {
		rename(a, b);
		rename(b, a);
	}
	return NULL;
}

static void test_renames(void **state)
{
	pthread_t th;
	int bad = 0;

	(void)state;
	ps_sysroot_force_manual(false);
	atomic_store(&renaming, true);
	assert_int_equal(pthread_create(&th, NULL, rename_loop, NULL), 0);
	for (int i = 0; i < 20000; i++) {
		char buf[16];

		bad += ps_read_line("/sys/a/b/round", buf, sizeof(buf)) != 0;
	}
	atomic_store(&renaming, false);
	pthread_join(th, NULL);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_openat2),
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_renames),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
