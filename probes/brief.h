/* brief.h: the short blocks of "pipescope probe" for the NIC probes (link,
 * ethtool, PCIe, IRQs): a few lines each, the -V text has every detail.
 * Each is its probe's .brief op; another probe may write its own in its
 * file (without one, its full text is printed) */
#ifndef PS_BRIEF_H
#define PS_BRIEF_H

#include <stdio.h>

struct ps_snapshot;

void ps_brief_link(FILE *out, const struct ps_snapshot *s);
void ps_brief_ethtool(FILE *out, const struct ps_snapshot *s);
void ps_brief_pci(FILE *out, const struct ps_snapshot *s);
void ps_brief_irq(FILE *out, const struct ps_snapshot *s);

#endif
