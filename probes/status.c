/* status.c: the words for "why is this field empty" (N/A, needs root, ...) */
#include "config.h"

#include <string.h>

#include "nls.h"
#include "status.h"

static const struct {
	const char *name;
	const char *text;
} statuses[] = {
	[PS_ST_OK] = { "ok", N_("ok") },
	[PS_ST_UNSUPPORTED] = { "unsupported",
				N_("not reported by the device") },
	[PS_ST_ABSENT] = { "absent", N_("not present") },
	[PS_ST_NEEDS_ROOT] = { "needs_root", N_("needs root") },
	[PS_ST_NOT_RECORDED] = { "not_recorded", N_("not recorded") },
	[PS_ST_ERROR] = { "error", N_("error") },
};

const char *ps_status_name(enum ps_status st)
{
	if ((unsigned)st >= sizeof(statuses) / sizeof(statuses[0]))
		st = PS_ST_ERROR;
	return statuses[st].name;
}

const char *ps_status_text(enum ps_status st)
{
	if ((unsigned)st >= sizeof(statuses) / sizeof(statuses[0]))
		st = PS_ST_ERROR;
	return _(statuses[st].text);
}

enum ps_status ps_status_parse(const char *name)
{
	for (unsigned i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
		if (name && !strcmp(name, statuses[i].name))
			return (enum ps_status)i;
	return PS_ST_ERROR;
}
