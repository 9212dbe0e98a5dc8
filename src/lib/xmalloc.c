/* xmalloc.c: allocation wrappers; running out of memory is fatal */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "nls.h"
#include "xmalloc.h"

static void oom(size_t size)
{
	ps_fatal(_("out of memory (allocating %zu bytes)"), size);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *xgrow(void *ptr, size_t n, size_t size)
{
	size_t cap = n ? 2 * n : 16;

	if (n && (n < 16 || (n & (n - 1))))
		return ptr; /* room left below the next power of two */
	if (cap < n || cap > (size_t)-1 / (size ? size : 1))
		oom((size_t)-1);
	return xrealloc(ptr, cap * size);
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom(strlen(s) + 1);
	return p;
}

int xasprintf(char **ret, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(ret, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	return n;
}
