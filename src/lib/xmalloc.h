/* xmalloc.h: allocation that never returns NULL (it exits instead) */
#ifndef PS_XMALLOC_H
#define PS_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
int xasprintf(char **ret, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
