/*
 * rhine_model: a register-level model of the VIA VT6105M Rhine III (and,
 * by its revision, the Rhine II), for host tests and the emulation build.
 *
 * Written from the public drivers (drivers/rhine/rhine_reg.h cites them:
 * [L] Linux via-rhine.c, [O] OpenBSD if_vr.c/if_vrreg.h, [I] iPXE
 * rhine.c/h; [PM] PCI PM 1.2; [802.3] IEEE 802.3), not from the driver
 * under test. Every behaviour is a fact from them or an assumption [A]
 * where they are silent or disagree; docs/emulation.md lists both.
 *
 *   - PCI: 1106:3053 class 02.00.00, revision 0x96 (net5501, ALIX
 *     listings), BAR0 256 bytes of I/O, BAR1 256 bytes of memory [L
 *     io_size]; the status register's capability bit (the net5501 listing
 *     shows status 0x0210) with the power management capability at 0xDC,
 *     PMCSR at 0xE0 [O vr_attach]. Registers answer only while I/O (BAR0)
 *     or memory (BAR1) decoding is on (PCI 3.0 6.2.2) and the power state
 *     is D0 ([PM]: D3hot answers configuration cycles only); BAR1 only while
 *     ConfigD bit 7 (ConfigA bit 5 before revision 0x20) enables MMIO [L
 *     enable_mmio][I]. Descriptor and buffer DMA needs bus mastering (PCI
 *     3.0 6.2.2; [L] "functional only in a bus-master PCI slot").
 *     D3hot -> D0 resets the chip and reloads the EEPROM [A]; the BARs are
 *     kept [A] (drivers write them back anyway, as [O] does).
 *   - PAR0-5, BCR0/1, ConfigA-D (and MIIPHY before revision 0x80) come from
 *     the EEPROM at power-on [A: the address is readable before any driver
 *     ran, kernel/platform/nic.h] and on an EEPROM reload (EECSR bit 5,
 *     clear after eeprom_polls reads of EECSR [A latency]) [L].
 *   - Software reset (CR1 bit 7): every register cleared at once, the
 *     EEPROM-loaded ones included ([L] "Reload EEPROM controlled bytes
 *     cleared by soft reset"), except STICKHW ("sticky" [O][L]); CR1 bit 7
 *     reads set for reset_polls more reads of CR1 [A latency]; MISC_CR1 bit
 *     6 finishes it at once [L][O]. Register writes during the reset are
 *     counted (the forced reset excepted).
 *   - CR0: start, stop, RX on, TX on stored; bits 5/6 are poll demands
 *     (CR0 [O], CR1 [L][I]: both accepted, as the sources use both) and read
 *     0 [A]. The chip runs while START is set and STOP clear [A]. A transmit
 *     error clears TX on ([L] waits for it after an error).
 *   - ISR (16 bits, write 1 to clear) [L][O][I]; IMR stored, a non-zero
 *     write counted (a polled driver keeps it 0).
 *   - RCR: broadcast (bit 3), multicast (bit 2, every multicast: the hash
 *     filter is not modelled [A]), promiscuous (bit 4 [L][O]), runts (bit
 *     1); a frame to PAR is always accepted [L default 0x0C receives
 *     unicast]. TCR stored.
 *   - Descriptors through a DMA callback (default: hw_bus_to_virt): 16
 *     bytes read from RDA/TDA, des0 written back [L][O][I]; the chip
 *     follows next [O][I chain]. Transmit on a poll demand (and on its own
 *     while CR1 bit 3 is clear [L Cmd1NoTxPoll][I]): every descriptor the
 *     chip owns, fragments from STP to EDP, to the wire as they are (no
 *     padding: [L errata][O] "doesn't auto-pad"; a frame under 60 bytes is
 *     counted in tx_runts), des0 = 0 (OWN clear, no error) [A status],
 *     ISR bit 1. Without a link: des0 = error summary | carrier lost, ISR
 *     bit 3, TX on cleared, nothing sent [A: [L] counts 0x0400 as a
 *     carrier error]. TDA moves to next either way [A].
 *   - Receive from the wire into the descriptor at RDA: frame + its CRC-32
 *     (the length field counts it: [O] "includes the CRC with every
 *     received frame"), des0 = length << 16 | RXOK | STP | EDP | PHY, BAR
 *     or MAR [O][I], ISR bit 0. A frame longer than the buffer: buffer
 *     error, RXOK clear, cut [A]. Runts (under 60 bytes without the CRC)
 *     and frames over 1518 dropped [A]. No descriptor owned: the frame is
 *     lost, the missed tally (0x7C, 16 bits, saturating [A]) counts it,
 *     ISR bits 5 and 12 set ([O] RX_NOBUF 0x0020, [L] IntrRxNoBuf 0x1000:
 *     which one the chip sets is not known, both [A]), the receiver keeps
 *     RDA and takes the next frame there once the descriptor is given back
 *     [A] (variant rx-stall: it stops until RDA is written, an RX poll
 *     demand or RX on again, the case [O] vr_rxeoc restarts it for). The tallies (0x7C,
 *     0x7E) clear on a write [A: [L] saw both write- and read-clearing].
 *   - MII: the PHY at address 1 (revision 0x80 and later [L rqIntPHY]),
 *     else at MIIPHY; other addresses read 0xFFFF [802.3 22.2.4 pull-up].
 *     MIICR bit 6/5 read/write PHY register MIIAD[4:0] through MIIDATA,
 *     clear after mii_polls reads of MIICR [A latency][L][O][I]. BMSR link
 *     bit latched low [802.3 22.2.4.2.13] (low once after power-on [A]);
 *     BMCR isolate takes the link away [802.3 22.2.4.1.6]; ANAR 0x01E1,
 *     ANLPAR the partner's abilities (0x41E1: 100/10 full and half [A])
 *     while the link is up, else 0. Auto-poll (MIICR bit 7): MIISR bit 1
 *     = link failed [I][O]; MIIAD bit 7 reads 1 while auto-poll is off ([L]
 *     waits for it) and bit 5 (MDONE) reads 1 once after auto-poll is
 *     switched on, then 0 ([I] waits for it clear, [L] for it set: both
 *     end [A]).
 *   - STICKHW bits 1:0 stored (set to 3 with the d3 fault, as [L]'s
 *     shutdown leaves them) [A: no other effect].
 *
 * Faults and variants, by name (emulate=PROFILE,fault=NAME):
 *   link-down          no link partner: BMSR link 0, MIISR link failed, frames
 *                      neither sent nor received (so is a wire whose far end
 *                      reports no carrier)
 *   reset-stuck        CR1 bit 7 never clears, not even with the forced reset
 *   reset-needs-force  (variant) the reset finishes only with the forced reset
 *   eeprom-stuck       EECSR bit 5 never clears
 *   rx-flood           the wire brings flood_per_tick broadcast frames at each
 *                      register access: the receive ring overflows
 *   bad-mac            the EEPROM holds a multicast station address
 *   d3                 (variant) the chip starts in D3hot with STICKHW 3, as Linux
 *                      leaves it without avoid_D3
 *   rx-errors          every third frame received has a CRC error
 *   rx-stall           (variant) the receiver stops after a frame found no
 *                      descriptor, until RDA is written or an RX poll demand
 *
 * The wire: frames the chip transmits go to wire.send; frames the chip
 * receives come from wire.poll, asked at each register access (or in
 * rhine_model_step() when lazy) while the receiver runs and the
 * descriptor at RDA is the chip's: until then a frame waits on the wire,
 * in the far NIC's own ring [A]; and from rhine_model_receive(), a frame
 * that arrives now and is lost when the receiver is off or no descriptor
 * is owned (the rx-flood fault's frames arrive so, after the wire's).
 * Freestanding: no allocation, no stdio; only lib/ and
 * kernel/platform/hw.h (hw_bus_to_virt). Host glue:
 * tests/drivers/rhine/test_rhine.c; emulation: emu/emulate.c.
 */
#ifndef CQ_EMU_RHINE_MODEL_H
#define CQ_EMU_RHINE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/host/pci_model.h"

#define RHINE_MODEL_DEVICE	0x3053	/* VT6105M */
#define RHINE_MODEL_REV		0x96	/* net5501 comBIOS and ALIX lspci listings */
#define RHINE_MODEL_REGS	256	/* I/O and memory BAR size [L io_size] */
#define RHINE_MODEL_PM_CAP	0xDC	/* power management capability [O VR_PCI_CAPID] */
#define RHINE_MODEL_FRAME_MAX	1536	/* longest frame the wire carries here (bytes, no CRC) */
#define RHINE_MODEL_ANAR	0x01E1	/* 100/10 full/half, IEEE 802.3 selector [A] */
#define RHINE_MODEL_PARTNER	0x41E1	/* link partner: the same and acknowledge [A] */
#define RHINE_MODEL_TX_FRAGS	16	/* buffers per transmitted frame at most, as [O] VR_MAXFRAGS uses [A] */

#define RHINE_FAULT_LINK_DOWN		(1u << 0)
#define RHINE_FAULT_RESET_STUCK		(1u << 1)
#define RHINE_FAULT_RESET_NEEDS_FORCE	(1u << 2)
#define RHINE_FAULT_EEPROM_STUCK	(1u << 3)
#define RHINE_FAULT_RX_FLOOD		(1u << 4)
#define RHINE_FAULT_BAD_MAC		(1u << 5)
#define RHINE_FAULT_D3			(1u << 6)
#define RHINE_FAULT_RX_ERRORS		(1u << 7)
#define RHINE_FAULT_RX_STALL		(1u << 8)
#define RHINE_NFAULTS			9
/* Variants: a healthy driver opens the NIC and works. */
#define RHINE_FAULT_VARIANTS	(RHINE_FAULT_RESET_NEEDS_FORCE | RHINE_FAULT_D3 | RHINE_FAULT_RX_STALL)

/* Where frames go and come from (see above). poll returns 0 when none waits; carrier
 * (NULL: always) says whether the far end has a link: the model's link needs it too. */
struct rhine_model_wire {
	void (*send)(void *ctx, const uint8_t *frame, size_t len);
	size_t (*poll)(void *ctx, uint8_t *buf, size_t cap);
	bool (*carrier)(void *ctx);
	void *ctx;
};

/* Bus-master access to memory: false when the address is not memory (a PCI error). */
struct rhine_model_dma {
	bool (*read)(void *ctx, uint32_t bus, void *buf, size_t n);
	bool (*write)(void *ctx, uint32_t bus, const void *buf, size_t n);
	void *ctx;
};

struct rhine_model_stats {
	unsigned long resets, forced_resets, eeprom_reloads, power_ups;
	unsigned long tx_demands, tx_frames, tx_bytes, tx_runts, tx_carrier;
	unsigned long rx_wire;		/* frames offered by the wire */
	unsigned long rx_frames;	/* written into a descriptor (errors included) */
	unsigned long rx_missed;	/* no descriptor owned */
	unsigned long rx_filtered, rx_runts, rx_giants, rx_off, rx_errors, rx_flood;
	unsigned long mii_reads, mii_writes;
	unsigned long imr_set;		/* IMR written non-zero */
	unsigned long no_decode;	/* register access with decoding off (or MMIO not enabled) */
	unsigned long no_master;	/* DMA wanted without bus mastering */
	unsigned long d3_access;	/* register access outside D0 */
	unsigned long write_in_reset;	/* register written while CR1 bit 7 is set */
	unsigned long desc_unaligned;	/* descriptor address not a multiple of 4 */
	unsigned long buf_unaligned;	/* buffer address not a multiple of 4 (Rhine I needs it [L]) */
	unsigned long dma_errors;	/* the DMA callback refused an address */
};

struct rhine_model {
	/* Configuration: rhine_model_init() sets defaults; change before rhine_model_power_on(). */
	uint16_t device;		/* RHINE_MODEL_DEVICE */
	uint8_t rev;			/* RHINE_MODEL_REV */
	uint16_t io_base;		/* BAR0 */
	uint32_t mmio_base;		/* BAR1 */
	uint8_t eeprom_par[6];		/* station address in the EEPROM */
	uint8_t eeprom_bcr[2], eeprom_cfg[4], eeprom_phy;
	unsigned reset_polls;		/* CR1 reads that still show the reset (2) */
	unsigned eeprom_polls;		/* EECSR reads that still show the reload (2) */
	unsigned mii_polls;		/* MIICR reads that still show an MII access (1) */
	bool link;			/* a partner on the cable (rhine_model_set_link) */
	uint16_t partner;		/* its abilities (RHINE_MODEL_PARTNER) */
	bool phy_isolated;		/* BMCR isolate set at power-on (test knob) */
	bool lazy;			/* the engine runs only in rhine_model_step() (tests of concurrency) */
	unsigned flood_per_tick;	/* rx-flood: frames per register access (2) */
	uint32_t faults;		/* RHINE_FAULT_* */
	struct rhine_model_wire wire;
	struct rhine_model_dma dma;	/* NULL read/write: hw_bus_to_virt */

	/* Registers and PHY (readable by tests). */
	uint8_t reg[RHINE_MODEL_REGS];
	uint16_t phy[32];

	/* Internal state. */
	bool resetting, forced, eeprom_loading, tx_active, rx_stalled, mdone_once, bmsr_latched;
	bool tx_latched;		/* a fetched frame waits to be sent (lazy mode) */
	bool link_was;			/* the link at the last look: a loss latches BMSR */
	uint8_t tx_frame[RHINE_MODEL_FRAME_MAX + 64];
	size_t tx_len;
	uint32_t tx_at[RHINE_MODEL_TX_FRAGS], tx_next;
	unsigned tx_nfrag;
	unsigned reset_left, eeprom_left, mii_left, rx_seq, flood_seq;
	uint8_t mii_op, power_seen;
	struct pci_model_fn *pci_fn;

	struct rhine_model_stats st;
};

/* Defaults: the net5501's first NIC (BAR0 0xe100, BAR1 0xa0004000, its made-up address
 * 00:00:24:cb:55:01 as in emu/emu_profiles.c), link up, no fault. */
void rhine_model_init(struct rhine_model *m);

/* The power-on state after the configuration and faults are set: EEPROM loaded, PHY reset. */
void rhine_model_power_on(struct rhine_model *m);

/* RHINE_FAULT_* of a name ("link-down", ...), 0 if unknown; the name of bit i. */
uint32_t rhine_model_fault(const char *name);
const char *rhine_model_fault_name(unsigned i);

/*
 * Adds the function at bus:dev.fn of pm (IDs, class, revision, both BARs,
 * command register cmd) and rhine_model_attach_pci(). Returns it, or NULL.
 */
struct pci_model_fn *rhine_model_add_pci(struct rhine_model *m, struct pci_model *pm, unsigned bus,
					 unsigned dev, unsigned fn, uint16_t cmd);

/*
 * Serves an existing function f (a listing's row): the capability bit in
 * its status, the capability pointer and the power management capability
 * (D3hot with the d3 fault), then rhine_model_power_on().
 */
void rhine_model_attach_pci(struct rhine_model *m, struct pci_model_fn *f);

/* Register access at offset off of the I/O BAR (bytes 1, 2 or 4). */
uint32_t rhine_model_io_read(struct rhine_model *m, uint32_t off, unsigned bytes);
void rhine_model_io_write(struct rhine_model *m, uint32_t off, uint32_t val, unsigned bytes);

/* The same through BAR1 (ctx = the model; the signature of hw_host's and hw_emu's MMIO handlers). */
uint32_t rhine_model_mmio_read(void *ctx, uint32_t off, unsigned bytes);
void rhine_model_mmio_write(void *ctx, uint32_t off, uint32_t val, unsigned bytes);

/* A frame (len bytes, no CRC) arrives from the wire now. */
void rhine_model_receive(struct rhine_model *m, const uint8_t *frame, size_t len);

/*
 * One step of the DMA engine in lazy mode (else each register access runs
 * it to the end): the wire's frames, then the frame fetched at the
 * previous step is sent and the next descriptor the chip owns is fetched
 * with its data at once, as a chip reads the next descriptor as soon as it
 * has sent a frame [A]. Returns true while there was a frame to send or
 * one is fetched.
 */
bool rhine_model_step(struct rhine_model *m);

/* Plugs or unplugs the cable (BMSR's link bit latches the loss). */
void rhine_model_set_link(struct rhine_model *m, bool up);

/* The current RX and TX descriptor addresses (RDA, TDA). */
uint32_t rhine_model_rda(const struct rhine_model *m);
uint32_t rhine_model_tda(const struct rhine_model *m);

#endif
