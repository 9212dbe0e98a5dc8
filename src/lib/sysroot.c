/* sysroot.c: the one place where /proc and /sys paths are made and their
 * files opened: under --sysroot DIR, a regular file inside DIR or nothing */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<linux/openat2.h>) && defined(SYS_openat2)
#include <linux/openat2.h>
#define HAVE_OPENAT2 1
#endif
#endif

#include "log.h"
#include "nls.h"
#include "sysroot.h"
#include "xmalloc.h"

static char sysroot[4096];

void ps_sysroot_set(const char *dir)
{
	size_t n;

	snprintf(sysroot, sizeof(sysroot), "%s", dir ? dir : "");
	n = strlen(sysroot);
	while (n > 1 && sysroot[n - 1] == '/')
		sysroot[--n] = 0;
	if (!strcmp(sysroot, "/"))
		sysroot[0] = 0;
}

int ps_sysroot_use(const char *dir)
{
	struct stat st;

	if (dir && *dir) {
		if (stat(dir, &st)) {
			ps_err(_("--sysroot %s: %s"), dir, ps_strerror(errno));
			return -1;
		}
		if (!S_ISDIR(st.st_mode)) {
			ps_err(_("--sysroot %s: not a directory"), dir);
			return -1;
		}
	}
	ps_sysroot_set(dir);
	return 0;
}

const char *ps_sysroot_get(void)
{
	return sysroot;
}

int ps_sysroot_is_live(void)
{
	return sysroot[0] == 0;
}

char *ps_path(char *buf, size_t len, const char *fmt, ...)
{
	char rel[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel) ||
	    (size_t)snprintf(buf, len, "%s%s", sysroot, rel) >= len) {
		if (len)
			buf[0] = 0;
	}
	return buf;
}

/* ---- reading under a sysroot: regular files inside the tree only ---- */

static bool force_manual;

void ps_sysroot_force_manual(bool on)
{
	force_manual = on;
}

#ifdef HAVE_OPENAT2
static int beneath_openat2(int root, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)flags,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	/*
	 * EAGAIN: a rename anywhere on the system while a ".." was resolved
	 * (the recordings' links have them), so the kernel could not be sure
	 * it stayed beneath; it asks for a retry. After a few, the walk by
	 * hand decides.
	 */
	for (int i = 0; i < 16; i++) {
		fd = syscall(SYS_openat2, root, rel, &how, sizeof(how));
		if (fd >= 0)
			return (int)fd;
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
	}
	return -EAGAIN;
}
#endif

/*
 * openat2's RESOLVE_BENEATH by hand (old kernels, seccomp filters): walk
 * the path one name at a time with O_NOFOLLOW, put a symbolic link's text
 * in place of its name, and refuse an absolute link or a ".." above the
 * root. The tree is a recording, not a moving target, so opening each name
 * twice (O_PATH to look, then for real) is good enough.
 */
#define MANUAL_DEPTH 64
#define MANUAL_LINKS 40

static int beneath_manual(int root, const char *rel, int flags)
{
	char path[8192], link[4096];
	int fds[MANUAL_DEPTH], depth = 0, links = 0, rc;
	char *p = path;

	if (snprintf(path, sizeof(path), "%s", rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fds[0] = root;
	for (;;) {
		char *name, *next;
		struct stat st;
		int fd;

		while (*p == '/')
			p++;
		if (!*p) {
			/* the path named a directory: reopen it as asked */
			fd = openat(fds[depth], ".", flags);
			rc = fd < 0 ? -errno : fd;
			goto out;
		}
		name = p;
		next = strchr(p, '/');
		if (next)
			*next++ = 0;
		p = next ? next : name + strlen(name);
		if (!strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			if (depth == 0) {
				rc = -EXDEV; /* above the root */
				goto out;
			}
			close(fds[depth--]);
			continue;
		}
		fd = openat(fds[depth], name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st)) {
			rc = -errno;
			if (fd >= 0)
				close(fd);
			goto out;
		}
		if (S_ISLNK(st.st_mode)) {
			ssize_t n = readlinkat(fd, "", link, sizeof(link) - 1);
			size_t rest = strlen(p);

			close(fd);
			if (n < 0) {
				rc = -errno;
				goto out;
			}
			link[n] = 0;
			if (++links > MANUAL_LINKS) {
				rc = -ELOOP;
				goto out;
			}
			if (link[0] == '/') {
				rc = -EXDEV; /* an absolute link leaves it */
				goto out;
			}
			/* "link/rest" replaces "name/rest" */
			if ((size_t)n + 1 + rest >= sizeof(path)) {
				rc = -ENAMETOOLONG;
				goto out;
			}
			memmove(path + n + 1, p, rest + 1);
			memcpy(path, link, (size_t)n);
			path[n] = '/';
			p = path;
			continue;
		}
		if (!*p) {
			/* the last name, not a link: open it as asked */
			close(fd);
			fd = openat(fds[depth], name, flags | O_NOFOLLOW);
			rc = fd < 0 ? -errno : fd;
			goto out;
		}
		if (!S_ISDIR(st.st_mode) || depth + 1 >= MANUAL_DEPTH) {
			close(fd);
			rc = S_ISDIR(st.st_mode) ? -ENAMETOOLONG : -ENOTDIR;
			goto out;
		}
		fds[++depth] = fd;
	}
out:
	while (depth > 0)
		close(fds[depth--]);
	return rc;
}

/* open rel (no leading '/') beneath the sysroot, or the live path */
static int open_in_tree(const char *path, int flags)
{
	const char *rel = path;
	int root, fd;

	flags |= O_CLOEXEC | (flags & O_PATH ? 0 : O_NOCTTY);
	if (ps_sysroot_is_live()) {
		fd = open(path, flags);
		return fd < 0 ? -errno : fd;
	}
	while (*rel == '/')
		rel++;
	if (!*rel)
		rel = ".";
	root = open(sysroot, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -errno;
	fd = -ENOSYS;
#ifdef HAVE_OPENAT2
	if (!force_manual)
		fd = beneath_openat2(root, rel, flags);
#endif
	/* no openat2, filtered, or still racing with renames */
	if (fd == -ENOSYS || fd == -EPERM || fd == -EAGAIN)
		fd = beneath_manual(root, rel, flags);
	close(root);
	return fd;
}

int ps_open(const char *path)
{
	struct stat st;
	int e, fd;

	/* in a tree, look before opening: opening a device node can act */
	if (!ps_sysroot_is_live()) {
		e = -ps_stat(path, &st);
		if (!e && !S_ISREG(st.st_mode))
			e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		if (e)
			return -e;
	}
	fd = open_in_tree(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	/* a FIFO would block, a device never end: regular files only */
	if (fstat(fd, &st))
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	else
		return fd;
	close(fd);
	return -e;
}

DIR *ps_opendir(const char *path)
{
	int fd = open_in_tree(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK);
	DIR *d;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return d;
}

int ps_stat(const char *path, struct stat *st)
{
	int fd = open_in_tree(path, O_PATH);

	if (fd < 0)
		return fd;
	if (fstat(fd, st)) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	return 0;
}

FILE *ps_fopen(const char *path)
{
	int fd = ps_open(path);
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

char *ps_read_file(const char *path, size_t *lenp)
{
	size_t cap = 8192, len = 0, n;
	FILE *f = ps_fopen(path);
	char *buf;

	if (!f)
		return NULL;
	buf = xmalloc(cap);
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len - 1 == 0) {
			if (cap >= PS_READ_MAX) {
				/* no /proc or /sys file is this big */
				fclose(f);
				free(buf);
				errno = EFBIG;
				return NULL;
			}
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO;

		fclose(f);
		free(buf);
		errno = e;
		return NULL;
	}
	fclose(f);
	buf[len] = 0;
	if (lenp)
		*lenp = len;
	return buf;
}

int ps_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = ps_fopen(path);
	char *nl;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		int e = ferror(f) ? (errno ? errno : EIO) : ENODATA;

		fclose(f);
		buf[0] = 0;
		return -e;
	}
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = 0;
	return 0;
}

int ps_read_long(const char *path, long *out)
{
	char buf[64], *end;
	int rc = ps_read_line(path, buf, sizeof(buf));

	if (rc)
		return rc;
	errno = 0;
	*out = strtol(buf, &end, 0);
	if (end == buf || errno)
		return -EINVAL;
	return 0;
}
