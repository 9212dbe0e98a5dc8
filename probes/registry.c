/* registry.c: the list of probes "pipescope probe" runs, in display order:
 * PS_PROBE_LIST (probe-list.h); each probe's ops are in its own file */
#include "config.h"

#include <string.h>

#include "probe.h"

#define PS_PROBE_ENTRY(NAME) &ps_##NAME##_ops,
const struct ps_probe_ops *const ps_probe_registry[] = { PS_PROBE_LIST(
	PS_PROBE_ENTRY) };

const size_t ps_probe_count =
	sizeof(ps_probe_registry) / sizeof(ps_probe_registry[0]);

const struct ps_probe_ops *ps_probe_find(const char *name)
{
	for (size_t i = 0; i < ps_probe_count; i++)
		if (!strcmp(ps_probe_registry[i]->name, name))
			return ps_probe_registry[i];
	return NULL;
}
