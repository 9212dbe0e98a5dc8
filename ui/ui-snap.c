/* ui-snap.c: where the workstation finds the NIC probes' members of a
 * snapshot (IRQ, PCIe, ethtool, link), the one place that knows the
 * snapshot's layout beyond CPU and sysctl */
#include "config.h"

#include <stddef.h>

#include "ui-internal.h"

const struct ps_irq_info *ui_snap_irq(const struct ps_snapshot *s)
{
	return s ? &s->irq : NULL;
}

const struct ps_pci_info *ui_snap_pci(const struct ps_snapshot *s)
{
	return s ? &s->pci : NULL;
}

const struct ps_ethtool_info *ui_snap_ethtool(const struct ps_snapshot *s)
{
	return s ? &s->ethtool : NULL;
}

const struct ps_link_info *ui_snap_link(const struct ps_snapshot *s)
{
	return s ? &s->link : NULL;
}
