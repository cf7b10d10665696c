/*
 * VIA Rhine (VT86C100A Rhine I, VT6102 Rhine II, VT6105/VT6105M Rhine III)
 * registers, descriptor bits and PCI facts. No VIA data sheet text is
 * stored; every value comes from the public drivers, cited per group:
 *   [L] Linux drivers/net/ethernet/via/via-rhine.c
 *   [O] OpenBSD sys/dev/pci/if_vrreg.h and if_vr.c
 *   [I] iPXE src/drivers/net/rhine.h and rhine.c
 *   [PM] PCI Bus Power Management Interface Specification 1.2
 * Where the sources name a bit differently, the comment says so; the model
 * (emu/models/rhine_model.c, docs/emulation.md) says what it makes of it.
 * Registers are in the I/O BAR (BAR0, 256 bytes on Rhine II and later, 128
 * on Rhine I [L io_size]); the same block is mirrored in the memory BAR
 * (BAR1) once MMIO is enabled, which this driver does not use.
 */
#ifndef CQ_DRIVERS_RHINE_REG_H
#define CQ_DRIVERS_RHINE_REG_H

#define RHINE_VENDOR		0x1106	/* VIA Technologies */
#define RHINE_DEV_VT86C100A	0x3043	/* Rhine I [L][I] */
#define RHINE_DEV_VT6102	0x3065	/* Rhine II, VT8231..VT8237 south bridges [L][I] */
#define RHINE_DEV_VT6105	0x3106	/* Rhine III VT6105/L/LOM [L][I] */
#define RHINE_DEV_VT6105M	0x3053	/* Rhine III management adapter: net5501, ALIX [L][I] */
/* Whether vendor v, device d is one of the four above: the driver's match and the emulation's models. */
#define RHINE_PCI_ID(v, d)	((v) == RHINE_VENDOR && ((d) == RHINE_DEV_VT86C100A || (d) == RHINE_DEV_VT6102 || \
					       (d) == RHINE_DEV_VT6105 || (d) == RHINE_DEV_VT6105M))

/* PCI revision IDs [L enum rhine_revs]: the quirks follow them. */
#define RHINE_REV_RHINE2	0x20	/* below: Rhine I (4-byte aligned buffers, 128-byte BAR) */
#define RHINE_REV_VT6102	0x40	/* from here: power-state bits in STICKHW, forced reset [L rqWOL rqForceReset] */
#define RHINE_REV_VT6105	0x80	/* from here: integrated PHY at MII address 1 [L rqIntPHY] */
#define RHINE_REV_VT6105M	0x90	/* management adapter: CAM filters [L rqMgmt] */
#define RHINE_INT_PHY_ADDR	1	/* [L] phy_id = 1 with rqIntPHY; earlier chips: MIIPHY */

#define RHINE_IO_SIZE		256	/* bytes of the I/O BAR on Rhine II and later [L] */
#define RHINE_IO_SIZE_RHINE1	128	/* [L] */

/* Station address: PAR0..PAR5, loaded from the EEPROM [L StationAddr][O VR_PAR0][I RHINE_MAC]. */
#define RHINE_PAR		0x00

/* Receive configuration, RCR [L RxConfig][O VR_RXCFG][I RHINE_RCR]. */
#define RHINE_RCR		0x06
#define  RHINE_RCR_ERR		0x01	/* accept frames with errors */
#define  RHINE_RCR_RUNT		0x02	/* accept runts */
#define  RHINE_RCR_MULTI	0x04	/* accept multicast (hash filter) */
#define  RHINE_RCR_BCAST	0x08	/* accept broadcast */
#define  RHINE_RCR_PROMISC	0x10	/* every unicast address: [L] 0x1C with IFF_PROMISC, [O] RX_PROMISC;
					 * [I] calls it "accept matching PA" */
#define  RHINE_RCR_THRESH	0xE0	/* receive FIFO threshold [O][I] */

/* Transmit configuration, TCR [L TxConfig][O VR_TXCFG][I RHINE_TCR]. */
#define RHINE_TCR		0x07
#define  RHINE_TCR_TAGEN	0x01	/* 802.1Q tagging (VT6105M) [O][I] */
#define  RHINE_TCR_LOOPBACK	0x06	/* loopback mode [O][I]; [L] sets 0x02 to quiesce at close */
#define  RHINE_TCR_THRESH_64	0x20	/* 64-byte transmit threshold: what [L] init_registers writes */

/* Command register 0, CR0 [L ChipCmd][O VR_COMMAND low byte][I RHINE_CR0]. */
#define RHINE_CR0		0x08
#define  RHINE_CR0_INIT		0x01	/* [L CmdInit][O VR_CMD_INIT] */
#define  RHINE_CR0_START	0x02	/* start the NIC */
#define  RHINE_CR0_STOP		0x04	/* stop the NIC */
#define  RHINE_CR0_RXON		0x08	/* receiver on */
#define  RHINE_CR0_TXON		0x10	/* transmitter on: the chip clears it after a transmit error
					 * ([L] waits for it to read 0 before scavenging) */
#define  RHINE_CR0_TDMD		0x20	/* transmit poll demand [O VR_CMD_TX_GO][I TXSTART] */
#define  RHINE_CR0_RDMD		0x40	/* receive poll demand [O VR_CMD_RX_GO][L CmdRxDemand][I RXSTART] */

/* Command register 1, CR1 [L ChipCmd1][O VR_COMMAND high byte][I RHINE_CR1]. */
#define RHINE_CR1		0x09
#define  RHINE_CR1_FDX		0x04	/* full duplex [L Cmd1FDuplex][O FULLDUPLEX][I] */
#define  RHINE_CR1_DPOLL	0x08	/* no transmit auto-poll [L Cmd1NoTxPoll][O TX_NOPOLL][I "disable autopoll"] */
#define  RHINE_CR1_TDMD1	0x20	/* transmit poll demand [L Cmd1TxDemand][I TXPOLL] */
#define  RHINE_CR1_RDMD1	0x40	/* receive poll demand [I RXPOLL] */
#define  RHINE_CR1_SRST		0x80	/* software reset, clears when done [L Cmd1Reset][O VR_CMD_RESET][I] */

/* Interrupt status, ISR (16 bits, write 1 to clear) [L IntrStatus][O VR_ISR][I ISR0/ISR1]. */
#define RHINE_ISR		0x0C
#define  RHINE_ISR_PRX		0x0001	/* frame received */
#define  RHINE_ISR_PTX		0x0002	/* frame transmitted */
#define  RHINE_ISR_RXE		0x0004	/* receive error */
#define  RHINE_ISR_TXE		0x0008	/* transmit error [L IntrTxError]; [O] TX_ABRT */
#define  RHINE_ISR_TU		0x0010	/* transmit underrun [O] */
#define  RHINE_ISR_RU		0x0020	/* no receive buffer [O VR_ISR_RX_NOBUF][L IntrRxEmpty][I RXRINGERR] */
#define  RHINE_ISR_BE		0x0040	/* PCI bus error [L IntrPCIErr][O VR_ISR_BUSERR] */
#define  RHINE_ISR_CNT		0x0080	/* tally counter overflow [L IntrStatsMax] */
#define  RHINE_ISR_OVFI		0x0400	/* receive FIFO overflow [L IntrRxOverflow][O RX_OFLOW] */
#define  RHINE_ISR_PKRACE	0x0800	/* receive frame dropped [L IntrRxDropped][O RX_DROPPED] */
#define  RHINE_ISR_NORBF	0x1000	/* no receive buffer [L IntrRxNoBuf][O RX_NOBUF2][I ISR1 RXNOBUF] */
#define  RHINE_ISR_ABTI		0x2000	/* transmit aborted [L IntrTxAborted][O TX_ABRT2] */
#define  RHINE_ISR_SRCI		0x4000	/* link change [L IntrLinkChange][O LINKSTAT2] */
#define  RHINE_ISR_RX_LOSS	(RHINE_ISR_RU | RHINE_ISR_OVFI | RHINE_ISR_PKRACE | RHINE_ISR_NORBF)

/* Interrupt mask, IMR (16 bits) [L IntrEnable][O VR_IMR]: this driver keeps it 0 (polled). */
#define RHINE_IMR		0x0E

/* Current receive and transmit descriptor (bus address; written to start a ring there)
 * [L RxRingPtr TxRingPtr][O VR_RXADDR VR_TXADDR, rewritten to restart at a descriptor][I]. */
#define RHINE_RDA		0x18
#define RHINE_TDA		0x1C

/* MII management [L MIIPhyAddr..MIIData][O VR_PHYADDR..VR_MIIDATA][I RHINE_MII_*]. */
#define RHINE_MIIPHY		0x6C	/* PHY address (bits 4:0), from the EEPROM on Rhine I/II [L] */
#define RHINE_MIISR		0x6D	/* MII status */
#define  RHINE_MIISR_LNKFL	0x02	/* link failed, as auto-polling last saw it [I LINKPOLL: clear = up]
					 * [O VR_MIISTAT_LINKFAULT] */
#define RHINE_BCR0		0x6E	/* bus configuration, reloaded from the EEPROM [L] */
#define RHINE_BCR1		0x6F
#define RHINE_MIICR		0x70	/* MII command */
#define  RHINE_MIICR_WREN	0x20	/* write the PHY register, clears when done [L][O][I] */
#define  RHINE_MIICR_RDEN	0x40	/* read the PHY register, clears when done [L][O][I] */
#define  RHINE_MIICR_MAUTO	0x80	/* auto-poll the PHY register named in MIIAD [L][O][I] */
#define RHINE_MIIAD		0x71	/* MII register address (bits 4:0) */
#define  RHINE_MIIAD_MDONE	0x20	/* auto-poll cycle flag: [I] waits for it to clear after starting
					 * auto-poll, [L] for it to be set */
#define  RHINE_MIIAD_MSRCEN	0x40	/* auto-poll source enable [L][I] */
#define  RHINE_MIIAD_MIDLE	0x80	/* auto-poll stopped: [L] waits for it after clearing MAUTO (Rhine II+) */
#define RHINE_MIIDATA		0x72	/* 16 bits */

/* PHY registers (IEEE 802.3 clause 22.2.4). */
#define MII_BMCR		0	/* basic mode control */
#define  MII_BMCR_ISOLATE	0x0400	/* [L] clears it at probe */
#define MII_BMSR		1	/* basic mode status */
#define  MII_BMSR_LINK		0x0004	/* link status, latched low (22.2.4.2.13): read twice */
#define MII_ANAR		4	/* auto-negotiation advertisement */
#define MII_ANLPAR		5	/* link partner ability */
#define  MII_AN_10HD		0x0020	/* 10BASE-T (28.2.1.2.3 technology ability field) */
#define  MII_AN_10FD		0x0040
#define  MII_AN_100HD		0x0080
#define  MII_AN_100FD		0x0100

/* EEPROM control and status, EECSR [L MACRegEEcsr][O VR_EECSR][I RHINE_EEPROM_CTRL]. */
#define RHINE_EECSR		0x74
#define  RHINE_EECSR_LOAD	0x20	/* reload PAR0-5, BCR0/1 (0x6E-0x6F) and ConfigA-D (0x78-0x7B)
					 * from the EEPROM; clears when done [L rhine_reload_eeprom][O][I] */

/* Configuration A-D, reloaded from the EEPROM [L ConfigA..ConfigD][I RHINE_CHIPCFG_*]. */
#define RHINE_CFGA		0x78
#define  RHINE_CFGA_MMIO	0x20	/* MMIO enable, Rhine I only [L enable_mmio][I] */
#define RHINE_CFGD		0x7B
#define  RHINE_CFGD_MMIO	0x80	/* MMIO enable, Rhine II and later [L enable_mmio][I] */

/* Tally counters (16 bits) [L RxMissed RxCRCErrs][O VR_MPA_CNT VR_CRC_CNT]. [L]: some chips clear
 * them on a write of 0, others on a read; [L] writes 0 and reads both, which clears either kind. */
#define RHINE_MPA		0x7C	/* frames missed: no receive descriptor */
#define RHINE_CRCCNT		0x7E	/* frames with a CRC error */

/* Miscellaneous command [L MiscCmd][O VR_MISC_CR1]. */
#define RHINE_MISC_CR1		0x81
#define  RHINE_MISC_FORSRST	0x40	/* force the software reset to finish, Rhine II and later
					 * [L rhine_chip_reset with rqForceReset][O VR_MISCCR1_FORSRST] */

/* Sticky hardware control [L StickyHW][O VR_STICKHW]: bits 1:0 a power state; [L rhine_power_init]
 * and [O vr_attach] clear them so the chip is in D0. */
#define RHINE_STICKHW		0x83
#define  RHINE_STICKHW_DS	0x03

/*
 * Descriptors: 16 bytes, little-endian {des0 status, des1 control, buffer
 * bus address, next descriptor bus address}, chained through next
 * [L struct rx_desc/tx_desc][O struct vr_desc][I struct rhine_descriptor].
 * The chip owns a descriptor while OWN is set and clears it when done.
 */
#define RHINE_DESC_SIZE		16
#define RHINE_DES0_OWN		0x80000000u	/* [L DescOwn][O][I] */
#define RHINE_RDES0_LEN(d)	(((d) >> 16) & 0x7FFu)	/* received bytes including the 4-byte CRC [O][I] */
#define RHINE_RDES0_RXOK	0x8000u		/* [L RxOK][O][I] */
#define RHINE_RDES0_MAR		0x2000u		/* multicast [O][I] */
#define RHINE_RDES0_BAR		0x1000u		/* broadcast [O][I] */
#define RHINE_RDES0_PHY		0x0800u		/* station address match [O][I] */
#define RHINE_RDES0_STP		0x0200u		/* first buffer of the frame [O FIRSTFRAG][I] */
#define RHINE_RDES0_EDP		0x0100u		/* last buffer of the frame [O LASTFRAG][I] */
#define RHINE_RDES0_WHOLE	(RHINE_RDES0_STP | RHINE_RDES0_EDP)	/* [L RxWholePkt] */
#define RHINE_RDES0_BUFF	0x0080u		/* buffer error [O][I] */
#define RHINE_RDES0_RUNT	0x0020u		/* [O][I] */
#define RHINE_RDES0_LONG	0x0010u		/* [O GIANT][I] */
#define RHINE_RDES0_FOV		0x0008u		/* FIFO overflow [O][I] */
#define RHINE_RDES0_FAE		0x0004u		/* frame alignment error [O][I] */
#define RHINE_RDES0_CRC		0x0002u		/* CRC error [O][I] */
#define RHINE_RDES0_RERR	0x0001u		/* receive error summary [O][I]; [L RxErr] = 0x008F */
#define RHINE_TDES0_TERR	0x8000u		/* transmit error summary [L 0x8000][O ERRSUM][I] */
#define RHINE_TDES0_UDF		0x0800u		/* FIFO underflow [L][O][I] */
#define RHINE_TDES0_CRS		0x0400u		/* carrier lost [L tx_carrier_errors][O CARRLOST][I] */
#define RHINE_TDES0_OWC		0x0200u		/* late collision [O][I] */
#define RHINE_TDES0_ABT		0x0100u		/* aborted, excessive collisions [O][I] */
#define RHINE_DES1_SIZE		0x07FFu		/* buffer size (RX) or bytes to send (TX) [O][I] */
#define RHINE_DES1_CHAIN	0x8000u		/* next holds the next descriptor [O TLINK][I CHAIN] */
#define RHINE_TDES1_STP		0x200000u	/* first buffer of the frame [O FIRSTFRAG][I] */
#define RHINE_TDES1_EDP		0x400000u	/* last buffer of the frame [O LASTFRAG][I] */
#define RHINE_DES1_IC		0x800000u	/* interrupt on completion [O FINT][I]; unused (polled) */

/* PCI power management: the capability (ID 1) at 0xDC on the Rhine [O vr_attach VR_PCI_CAPID],
 * its PMCSR at capability + 4 [PM 3.2.4]; bits 1:0 the power state; D3hot -> D0 needs 10 ms
 * before the function is touched again [PM 5.6.1, state transition recovery times]; BARs and the
 * interrupt line are written back afterwards, as [O] vr_attach does. */
#define PCI_STATUS_CAPLIST	0x0010	/* status register bit 4 [PCI 3.0 6.2.3] */
#define PCI_CAP_PTR		0x34
#define PCI_CAP_ID_PM		0x01
#define PCI_PM_CTRL		4	/* PMCSR offset in the capability */
#define  PCI_PM_STATE		0x0003
#define  PCI_PM_STATE_D3HOT	0x0003
#define PCI_PM_D3_RECOVERY_US	10000

#endif
