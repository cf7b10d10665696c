/*
 * net_report: the report on the wire (docs/network.md). When the network is
 * wanted (lib/platform/cmdline.h cmdline_net_wanted(): net=dhcp, or
 * net=auto on a network boot), every byte the console prints is kept;
 * once the first NIC with a link has an address (DHCP or the loader's
 * ip=), each report line goes out as an RFC 5424 syslog datagram
 * (lib/net/syslog_msg.h) with sequenceId 1, 2, ... in console order, and
 * after the verdict the whole log goes by TFTP write (lib/net/tftp.h) as
 * cryptoqual-<box key>-<time>.log. While a timed benchmark cell runs,
 * lines are only queued (net_report_hold()), so the figures do not
 * change. The network never changes the verdict: a failure is one
 * `# warning: net: ...` line, and the `# @netreport` record before the
 * plan says what became of the report.
 */
#ifndef CQ_KERNEL_NET_REPORT_H
#define CQ_KERNEL_NET_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/net/netdev.h"
#include "lib/platform/cmdline.h"

/*
 * Decides whether the network is wanted (the options and the loader's
 * name) and, when it is, starts keeping the console's bytes. Call before
 * the first report line.
 */
void net_report_begin(const struct cq_options *opt, const char *loader_name);

/*
 * Brings the first NIC with a link up and gets an address (needs the PCI
 * scan, the TSC calibration and the box key), then sends the lines so
 * far. Prints the `# @net` record, or one warning line when the network
 * cannot be had (bounded: at most about 30 s without a DHCP answer).
 */
void net_report_up(void);

/* While held (a timed benchmark cell runs), lines are queued, not sent; release sends them. */
void net_report_hold(bool hold);

/* The NIC driver for a PCI ID from kernel/run/nic_table.c, or NULL. */
const struct nic_driver *nic_driver_for(uint16_t vendor, uint16_t device);

#endif
