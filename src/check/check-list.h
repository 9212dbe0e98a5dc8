/* check-list.h: every check of "pipescope check" and every family table of
 * thresholds, in order: the one list the registry (check.c), the rules'
 * registry (rules.c) and their declarations come from. A new check is its
 * ops in its family's file (check-FAMILY.c) and one X line here; a new
 * family file with thresholds, one F line besides. */
#ifndef PS_CHECK_LIST_H
#define PS_CHECK_LIST_H

/*
 * X(NAME): "const struct ps_check_ops ps_check_NAME", in the order of the
 * report's "ruled out" (its id is its own: ps_check_host_busy is
 * "host_busy", ps_check_pcie "pcie_link").
 */
#define PS_CHECK_LIST(X)                                                       \
	X(link_speed)                                                          \
	X(pcie)                                                                \
	X(mtu)                                                                 \
	X(offloads)                                                            \
	X(window)                                                              \
	X(buffers)                                                             \
	X(cpu_core)                                                            \
	X(worse)                                                               \
	X(rss)                                                                 \
	X(irq_cpu)                                                             \
	X(irqbalance)                                                          \
	X(rps)                                                                 \
	X(coalesce)                                                            \
	X(rings)                                                               \
	X(softnet)                                                             \
	X(fork)                                                                \
	X(direction)                                                           \
	X(bidir)                                                               \
	X(cc_qdisc)                                                            \
	X(retrans)                                                             \
	X(numa)                                                                \
	X(governor)                                                            \
	X(busy_clock)                                                          \
	X(iommu)                                                               \
	X(cstates)                                                             \
	X(smt)                                                                 \
	X(buffers_table)                                                       \
	X(pcie_payload)                                                        \
	X(rfs)                                                                 \
	X(nic_tuning)                                                          \
	X(queue_tuning)                                                        \
	X(steal)                                                               \
	X(virtual_nic)                                                         \
	X(peer_tool)                                                           \
	X(host_busy)                                                           \
	X(far_cpu)                                                             \
	X(shaper)                                                              \
	X(short_queue)                                                         \
	X(far_shaper)                                                          \
	X(udp_loss)                                                            \
	X(tcp_memory)                                                          \
	X(udp_buffers)                                                         \
	X(udp_rate)                                                            \
	X(rss_balance)                                                         \
	X(rss_table)                                                           \
	X(pause)                                                               \
	X(tx_queues)

/*
 * F(FAMILY): "const struct ps_rule_family ps_rules_FAMILY" (rules.h,
 * PS_RULE_FAMILY in its file), in the order "check --rules" lists them.
 */
#define PS_RULE_FAMILIES(F)                                                    \
	F(check)                                                               \
	F(host)                                                                \
	F(platform)                                                            \
	F(pcie)                                                                \
	F(cpu)                                                                 \
	F(nic)                                                                 \
	F(path)                                                                \
	F(shaper)                                                              \
	F(drops)                                                               \
	F(udp)                                                                 \
	F(tenants)                                                             \
	F(ceiling)                                                             \
	F(answer)                                                              \
	F(checklist)

#endif
