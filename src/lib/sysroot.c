/* sysroot.c: the one place where /proc and /sys paths are made */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
			ps_err(_("--sysroot %s: %s"), dir, strerror(errno));
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

FILE *ps_fopen(const char *path)
{
	char full[4096];

	if (!*ps_path(full, sizeof(full), "%s", path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(full, "re");
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
