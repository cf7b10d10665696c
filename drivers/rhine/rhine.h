/*
 * rhine: the VIA Rhine NIC driver (VT86C100A 1106:3043, VT6102 Rhine II
 * 1106:3065, VT6105 Rhine III 1106:3106, VT6105M 1106:3053: the net5501's
 * four NICs, the ALIX's, and the MAC of VIA's VT8231..VT8237 south bridges)
 * behind lib/net/netdev.h. Polled: no interrupt is unmasked (IMR stays 0).
 *
 * open() (rhine_nic_driver.open):
 *   - PCI: the I/O BAR (BAR0, registers through hw_inb/hw_outb: this driver
 *     never enables MMIO, so the EEPROM reload cannot take the registers
 *     away); I/O decoding and bus mastering on in the command register (the
 *     chip only works as a bus master, [L] "functional only in a bus-master
 *     PCI slot"); a chip left in D1-D3 by the previous system ([L] avoid_D3:
 *     "some BIOSes cannot bring the chip out of D3, so PXE booting fails")
 *     is put in D0 through its PCI power management capability, 10 ms
 *     allowed, BARs, interrupt line and command register written back, as
 *     the BSDs' vr_attach does; STICKHW's power-state bits cleared [L][O];
 *   - software reset (CR1 bit 7, at most RHINE_RESET_US), then on Rhine II
 *     and later the forced reset (MISC_CR1 bit 6, at most RHINE_RESET_US
 *     more) [L rhine_chip_reset][O vr_reset];
 *   - EEPROM reload (EECSR bit 5, at most RHINE_EEPROM_US): the reset
 *     clears PAR0-5, BCR0/1 and ConfigA-D, the reload restores them [L];
 *   - the station address from PAR0-5: a multicast or all-zero address
 *     fails the open (NETDEV_EHW, the address in why): the box is known by
 *     its MAC, so no address is made up;
 *   - the PHY (MII address 1 on Rhine III, else MIIPHY): isolation cleared,
 *     duplex from the link partner's abilities (full duplex only when both
 *     sides offer it), then auto-polling of its status register for
 *     link_up(); every MII access waits at most RHINE_MII_US;
 *   - rings: RHINE_RX_DESC receive descriptors with RHINE_BUF_SIZE-byte
 *     buffers and RHINE_TX_DESC transmit descriptors with their own
 *     buffers, 16-byte aligned, chained in a circle, static (one set per
 *     NIC, up to RHINE_MAX_NICS; opening a NIC again reuses its set after
 *     the reset has stopped its DMA); RCR broadcast only (frames to the
 *     station address are always accepted; RCR bit 4 would be promiscuous
 *     [L][O]); CR0 start + RX on + TX on, CR1 no TX auto-poll [L].
 * send(): copies the frame into the next transmit buffer, zero-pads it to
 *   60 bytes (the chip does not pad [L errata][O vr_encap]), writes des1,
 *   then des0 = OWN last, then the transmit poll demand (CR1 bit 5). A
 *   descriptor the chip still owns is waited for at most RHINE_TX_WAIT_US
 *   (NETDEV_EBUSY after). A transmitter the chip stopped after an error
 *   (CR0 TX on clear) is restarted at the first descriptor not yet done
 *   [L rhine_restart_tx]. Transmit errors (des0 bit 15) are counted in
 *   tx_errors when their descriptor is reused.
 * poll(): hands back at most one frame, never waits on the network:
 *   RX errors, frames split over buffers, frames under 14 bytes or longer
 *   than cap are dropped and counted in rx_dropped; the length excludes
 *   the 4 CRC bytes; frames missed for want of a descriptor (ISR bits 5,
 *   10-12) are added from the chip's missed-frame tally (0x7C). After such
 *   a loss the receiver is restarted at the next descriptor once the ring
 *   is drained, as OpenBSD vr_rxeoc does (RX off, at most RHINE_RX_STOP_US
 *   for it to stop, RDA, RX on + RX poll demand).
 * link_up(): MIISR bit 1 (link failed) as auto-polling last saw it [I][O];
 *   no waiting.
 * Every wait goes through lib/util/wait.h wait_poll (a last look after the
 * deadline); a timeout or device error leaves the register state in
 * d->why. The driver never prints. Sources: drivers/rhine/rhine_reg.h.
 */
#ifndef CQ_DRIVERS_RHINE_H
#define CQ_DRIVERS_RHINE_H

#include "lib/net/netdev.h"

#define RHINE_KIND		"via-rhine"
#define RHINE_MAX_NICS		4	/* a net5501 has four */
#define RHINE_RX_DESC		4	/* as iPXE */
#define RHINE_TX_DESC		8	/* as iPXE */
#define RHINE_BUF_SIZE		1536	/* bytes per buffer [L PKT_BUF_SZ][I RHINE_RX_MAX_LEN] */

/* Limits of the bounded waits, in microseconds (TSC ticks via tsc_ticks_for_us). */
#define RHINE_RESET_US		10000	/* software reset; the forced reset gets as long again [I RHINE_TIMEOUT_US] */
#define RHINE_EEPROM_US		10000	/* EEPROM reload [I] */
#define RHINE_MII_US		10000	/* one MII step [I][O: 10000 x 1 us] */
#define RHINE_TX_WAIT_US	20000	/* a transmit descriptor to come back (8 frames at 10 Mb/s: 10 ms) */
#define RHINE_RX_STOP_US	10000	/* the receiver to stop before a restart [O vr_rxeoc] */

extern const struct nic_driver rhine_nic_driver;

#endif
