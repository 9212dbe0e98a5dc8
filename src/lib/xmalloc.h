/* xmalloc.h: allocation that never returns NULL (it exits instead) */
#ifndef PS_XMALLOC_H
#define PS_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* an array of n elements of size bytes made room for one more: its
 * capacity is implicit (the next power of two, at least 16), so that n
 * appends cost O(n) copies, not O(n^2); for arrays only ever grown
 * through it, or freed and restarted from NULL and 0 */
void *xgrow(void *ptr, size_t n, size_t size);
char *xstrdup(const char *s);
int xasprintf(char **ret, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
