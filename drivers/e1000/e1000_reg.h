/*
 * e1000_reg: the registers and descriptors of the Intel 82540EM (QEMU's
 * e1000, PCI 8086:100e) and the 8254x family it belongs to, as the driver
 * uses them. Source: Intel "PCI/PCI-X Family of Gigabit Ethernet
 * Controllers Software Developer's Manual" (8254x SDM, 317453): chapter
 * 13 for the registers, 3.2.4 for the legacy receive descriptor, 3.3.3
 * for the legacy transmit descriptor, 14.3-14.5 for the initialisation
 * order; the same facts as ../shared/notes/network.md gathers from MIT's
 * xv6 network lab (its e1000_dev.h) and iPXE's intel.c. All registers
 * are 32 bits wide, little-endian, in memory BAR0 (128 KiB).
 */
#ifndef CQ_DRIVERS_E1000_REG_H
#define CQ_DRIVERS_E1000_REG_H

#include <stdint.h>

#define E1000_CTRL	0x0000		/* device control */
#define  E1000_CTRL_ASDE	(1u << 5)	/* auto-speed detection */
#define  E1000_CTRL_SLU		(1u << 6)	/* set link up (internal PHY: follow its link) */
#define  E1000_CTRL_RST		(1u << 26)	/* device reset, self-clearing (13.4.1) */
#define  E1000_CTRL_PHY_RST	(1u << 31)
#define  E1000_CTRL_LRST	(1u << 3)	/* link reset */
#define E1000_STATUS	0x0008
#define  E1000_STATUS_FD	(1u << 0)	/* full duplex */
#define  E1000_STATUS_LU	(1u << 1)	/* link up (13.4.2) */
#define E1000_ICR	0x00C0		/* interrupt cause, read to clear */
#define E1000_IMC	0x00D8		/* interrupt mask clear: all ones masks every cause */
#define E1000_RCTL	0x0100
#define  E1000_RCTL_EN		(1u << 1)
#define  E1000_RCTL_UPE		(1u << 3)	/* unicast promiscuous (13.4.22; the emulation's cable sets it) */
#define  E1000_RCTL_MPE		(1u << 4)	/* multicast promiscuous */
#define  E1000_RCTL_BAM		(1u << 15)	/* accept broadcast */
#define  E1000_RCTL_BSIZE_2048	(0u << 16)	/* with BSEX clear */
#define  E1000_RCTL_SECRC	(1u << 26)	/* strip the Ethernet CRC */
#define E1000_TCTL	0x0400
#define  E1000_TCTL_EN		(1u << 1)
#define  E1000_TCTL_PSP		(1u << 3)	/* pad short packets */
#define  E1000_TCTL_CT(x)	((uint32_t)(x) << 4)	/* collision threshold: 0x10 (14.5) */
#define  E1000_TCTL_COLD(x)	((uint32_t)(x) << 12)	/* collision distance: 0x40 full duplex */
#define E1000_TIPG	0x0410		/* IPGT 10, IPGR1 8, IPGR2 6 for 802.3 (13.4.34) */
#define E1000_MPC	0x4010		/* missed packets: no receive buffer (clear on read) */
#define E1000_RDBAL	0x2800
#define E1000_RDBAH	0x2804
#define E1000_RDLEN	0x2808		/* bytes, a multiple of 128 */
#define E1000_RDH	0x2810
#define E1000_RDT	0x2818
#define E1000_TDBAL	0x3800
#define E1000_TDBAH	0x3804
#define E1000_TDLEN	0x3808
#define E1000_TDH	0x3810
#define E1000_TDT	0x3818
#define E1000_MTA	0x5200		/* multicast table, 128 registers */
#define E1000_RAL0	0x5400
#define E1000_RAH0	0x5404
#define  E1000_RAH_AV		(1u << 31)	/* address valid */

/* Legacy receive descriptor (3.2.4), 16 bytes. */
struct e1000_rx_desc {
	uint32_t addr_lo, addr_hi;
	uint16_t length;		/* bytes written, without the CRC when SECRC */
	uint16_t csum;
	uint8_t status;
	uint8_t errors;
	uint16_t special;
};
#define E1000_RXD_DD	0x01		/* descriptor done */
#define E1000_RXD_EOP	0x02		/* end of packet */

/* Legacy transmit descriptor (3.3.3), 16 bytes. */
struct e1000_tx_desc {
	uint32_t addr_lo, addr_hi;
	uint16_t length;
	uint8_t cso;
	uint8_t cmd;
	uint8_t status;
	uint8_t css;
	uint16_t special;
};
#define E1000_TXD_EOP	0x01		/* cmd: end of packet */
#define E1000_TXD_IFCS	0x02		/* cmd: insert the FCS */
#define E1000_TXD_RS	0x08		/* cmd: report status (sets DD) */
#define E1000_TXD_DD	0x01		/* status: descriptor done */

#endif
