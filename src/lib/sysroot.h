/* sysroot.h: every /proc and /sys path goes through here (--sysroot DIR) */
#ifndef PS_SYSROOT_H
#define PS_SYSROOT_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* set once at start-up; NULL or "" means the live machine */
void ps_sysroot_set(const char *dir);
const char *ps_sysroot_get(void); /* "" when live */
/* --sysroot DIR from the command line: set it when DIR is a directory,
 * else one line on stderr and -1 (a usage error); NULL or "" is live */
int ps_sysroot_use(const char *dir);
int ps_sysroot_is_live(void);

/* "/proc/stat" -> "DIR/proc/stat"; returns buf, truncation gives "" */
char *ps_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Every open of a /proc or /sys path (as on the live machine) is one of
 * these. Under a sysroot the path is resolved inside DIR: a symbolic link
 * may point anywhere inside it, but an absolute link, or one whose ".."
 * climbs out, fails with EXDEV (openat2 RESOLVE_BENEATH, or the same walk
 * by hand where openat2 is missing). Files are opened without blocking and
 * must be regular files (EINVAL: a FIFO, a device; EISDIR). A whole-file
 * read stops at PS_READ_MAX (EFBIG). Errors are -errno (NULL and errno).
 */
#define PS_READ_MAX (32u << 20)
int ps_open(const char *path); /* a read-only fd */
FILE *ps_fopen(const char *path);
DIR *ps_opendir(const char *path);
int ps_stat(const char *path, struct stat *st); /* follows links in DIR */
/* tests: walk by hand even where openat2 works */
void ps_sysroot_force_manual(bool on);
/*
 * Read a whole small file (as on the live machine) into a NUL-terminated
 * xmalloc'ed buffer; NULL with errno set when it cannot be read.
 */
char *ps_read_file(const char *path, size_t *len);
/* first line of a sysfs attribute, without the newline: 0 or -errno */
int ps_read_line(const char *path, char *buf, size_t len);
/* the same, parsed as a number: 0 or -errno (-EINVAL when not a number) */
int ps_read_long(const char *path, long *out);

#endif
