/* ui-snap.c: where the workstation finds the NIC probes' members of a
 * snapshot (IRQ, PCIe, ethtool, link); NULL while the snapshot has none,
 * which the panels show as "not sampled yet" */
#include "config.h"

#include <stddef.h>

#include "ui-internal.h"

const struct ps_irq_info *ui_snap_irq(const struct ps_snapshot *s)
{
	(void)s;
	return NULL;
}

const struct ps_pci_info *ui_snap_pci(const struct ps_snapshot *s)
{
	(void)s;
	return NULL;
}

const struct ps_ethtool_info *ui_snap_ethtool(const struct ps_snapshot *s)
{
	(void)s;
	return NULL;
}

const struct ps_link_info *ui_snap_link(const struct ps_snapshot *s)
{
	(void)s;
	return NULL;
}
