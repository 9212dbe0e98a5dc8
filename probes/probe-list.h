/* probe-list.h: every probe of "pipescope probe", in display order: the one
 * list the snapshot's members, the registry and the JSON keys come from */
#ifndef PS_PROBE_LIST_H
#define PS_PROBE_LIST_H

/* the probes' own types (a member needs its type complete) */
#include "probe-cpu.h"
#include "probe-ethtool.h"
#include "probe-irq.h"
#include "probe-link.h"
#include "probe-netstat.h"
#include "probe-path.h"
#include "probe-pci.h"
#include "probe-platform.h"
#include "probe-procs.h"
#include "probe-qdisc.h"
#include "probe-sysctl.h"

/*
 * X(NAME) once per probe. NAME is the probe's stable id and JSON key, its
 * member "struct ps_NAME_info NAME" of struct ps_snapshot (snapshot.h) and
 * its ops "const struct ps_probe_ops ps_NAME_ops" (probe-NAME.c). A new
 * probe is its own files, its #include above and one line here.
 */
#define PS_PROBE_LIST(X)                                                       \
	X(link)                                                                \
	X(ethtool)                                                             \
	X(pci)                                                                 \
	X(irq)                                                                 \
	X(cpu)                                                                 \
	X(sysctl)                                                              \
	X(qdisc)                                                               \
	X(path)                                                                \
	X(netstat)                                                             \
	X(procs)                                                               \
	X(platform)

#endif
