/* nls.h: gettext glue; every user-visible string goes through _() or N_() */
#ifndef PS_NLS_H
#define PS_NLS_H

#include "config.h"

#ifdef ENABLE_NLS
#include <libintl.h>
#define _(s) gettext(s)
#define P_(s, p, n) ngettext(s, p, n)
#else
#define _(s) (s)
#define P_(s, p, n) ((n) == 1 ? (s) : (p))
#define textdomain(d) ((void)0)
#define bindtextdomain(d, dir) ((void)0)
#endif
#define N_(s) (s)

void ps_nls_init(void);

#endif
