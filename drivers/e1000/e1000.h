/*
 * e1000: the Intel 82540EM driver (QEMU's e1000, 8086:100e, and the
 * 8254x boards of the same register layout) behind lib/net/netdev.h.
 * Polled: no interrupt is unmasked; one transmit and one receive
 * descriptor ring of E1000_RING descriptors in the driver's own memory.
 */
#ifndef CQ_DRIVERS_E1000_H
#define CQ_DRIVERS_E1000_H

#include "lib/net/netdev.h"

#define E1000_RING		8	/* descriptors per ring (8 x 16 bytes: the 128-byte length unit) */
#define E1000_RESET_US		10000	/* wait for CTRL.RST to clear (the SDM asks 1 us; iPXE allows 10 ms) */
#define E1000_TX_WAIT_US	10000	/* wait for a transmit descriptor to come back */

extern const struct nic_driver e1000_nic_driver;

#endif
