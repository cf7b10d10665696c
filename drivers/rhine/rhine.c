/* VIA Rhine NIC driver: polled descriptor rings behind lib/net/netdev.h. See rhine.h. */
#include "drivers/rhine/rhine.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "drivers/rhine/rhine_reg.h"
#include "kernel/platform/hw.h"
#include "kernel/platform/pci_bus.h"
#include "kernel/platform/timer.h"
#include "lib/util/fmt.h"
#include "lib/util/wait.h"

/* One descriptor as the chip reads and writes it (rhine_reg.h). */
struct rhine_desc {
	volatile uint32_t des0, des1, buf, next;
};

/* One NIC: its rings and buffers (DMA, static, 16-byte aligned) and the driver's state. */
struct rhine_nic {
	struct rhine_desc rx[RHINE_RX_DESC];
	struct rhine_desc tx[RHINE_TX_DESC];
	uint8_t rx_buf[RHINE_RX_DESC][RHINE_BUF_SIZE];
	uint8_t tx_buf[RHINE_TX_DESC][RHINE_BUF_SIZE];
	bool used, up;
	uint8_t bus, dev, fn, rev, phy;
	uint16_t io;			/* I/O BAR base */
	unsigned rx_head;		/* next receive descriptor to look at (free-running) */
	unsigned tx_prod, tx_cons;	/* transmit descriptors queued, and done (free-running) */
	bool rx_restart;		/* frames were lost: restart the receiver once drained */
} __attribute__((aligned(16)));

static struct rhine_nic nics[RHINE_MAX_NICS];

/* Keeps the compiler from moving descriptor stores across it (x86 stores reach a bus master in order). */
static inline void barrier(void)
{
	__asm__ volatile("" : : : "memory");
}

static uint8_t rd8(const struct rhine_nic *r, unsigned off)
{
	return hw_inb((uint16_t)(r->io + off));
}

static uint16_t rd16(const struct rhine_nic *r, unsigned off)
{
	return hw_inw((uint16_t)(r->io + off));
}

static uint32_t rd32(const struct rhine_nic *r, unsigned off)
{
	return hw_inl((uint16_t)(r->io + off));
}

static void wr8(const struct rhine_nic *r, unsigned off, uint8_t v)
{
	hw_outb((uint16_t)(r->io + off), v);
}

static void wr16(const struct rhine_nic *r, unsigned off, uint16_t v)
{
	hw_outw((uint16_t)(r->io + off), v);
}

static void wr32(const struct rhine_nic *r, unsigned off, uint32_t v)
{
	hw_outl((uint16_t)(r->io + off), v);
}

/* ---- bounded waits ---- */

/* A wait for (register & mask) == want, and what it saw. */
struct bitwait {
	const struct rhine_nic *r;
	unsigned off;
	uint8_t mask, want, last;
	uint64_t elapsed, limit;
	unsigned long polls;
};

static bool bit_done(void *ctx)
{
	struct bitwait *w = ctx;
	w->last = rd8(w->r, w->off);
	return (w->last & w->mask) == w->want;
}

/* Waits at most us microseconds; w holds the last value, cycles and polls for a message. */
static bool wait_bit(const struct rhine_nic *r, unsigned off, uint8_t mask, uint8_t want, unsigned us,
		     struct bitwait *w)
{
	w->r = r;
	w->off = off;
	w->mask = mask;
	w->want = want;
	w->limit = tsc_ticks_for_us(us);
	return wait_poll(bit_done, w, hw_rdtsc, w->limit, &w->elapsed, &w->polls);
}

/* A fixed delay (the PCI power-state recovery time): a wait on the TSC alone, bounded by construction. */
static void delay_us(unsigned us)
{
	uint64_t t0 = hw_rdtsc(), ticks = tsc_ticks_for_us(us);
	while (hw_rdtsc() - t0 < ticks)
		;
}

/* ---- PCI ---- */

/*
 * Puts a chip found in D1-D3 into D0 ([O] vr_attach, [L] avoid_D3): PMCSR
 * state 0, the recovery time, then BAR0, BAR1 and the interrupt line
 * written back (a D3hot -> D0 transition may reset them). Returns 0 or a
 * NETDEV_E* error with why.
 */
static int power_up(const struct pci_dev *pci, struct netdev *d)
{
	unsigned cap = pci_capability(pci, PCI_CAP_ID_PM);
	uint32_t pm, bar0, bar1, intr, cmd;

	if (!cap)
		return 0;
	pm = pci_cfg_read32(pci, cap + PCI_PM_CTRL);
	if (!(pm & PCI_PM_STATE))
		return 0;
	bar0 = pci_cfg_read32(pci, PCI_BAR0);
	bar1 = pci_cfg_read32(pci, PCI_BAR0 + 4);
	intr = pci_cfg_read32(pci, PCI_INTR);
	cmd = pci_cfg_read32(pci, PCI_CMD) & 0xFFFF;
	/* state D0; PME status (bit 15, write 1 to clear) left alone */
	pci_cfg_write32(pci, cap + PCI_PM_CTRL, pm & ~(uint32_t)(PCI_PM_STATE | 0x8000));
	delay_us(PCI_PM_D3_RECOVERY_US);
	pci_cfg_write32(pci, PCI_BAR0, bar0);
	pci_cfg_write32(pci, PCI_BAR0 + 4, bar1);
	pci_cfg_write32(pci, PCI_INTR, intr);
	pci_cfg_write32(pci, PCI_CMD, cmd);
	pm = pci_cfg_read32(pci, cap + PCI_PM_CTRL);
	if (pm & PCI_PM_STATE)
		return netdev_fail(d, NETDEV_EHW, "chip stays in power state D%u after D0 was written: PMCSR=0x%04x at config 0x%02x",
				   (unsigned)(pm & PCI_PM_STATE), (unsigned)(pm & 0xFFFF), cap + PCI_PM_CTRL);
	return 0;
}

/* The I/O BAR (the registers), or NULL. */
static const struct pci_bar *io_bar(const struct pci_dev *pci)
{
	unsigned i;
	for (i = 0; i < pci->nbars; i++)
		if (pci->bars[i].flags & PCI_BAR_IO)
			return &pci->bars[i];
	return NULL;
}

/* ---- MII (PHY) access, each step bounded ---- */

/* Stops auto-polling so the MII port is free [L rhine_disable_linkmon, Rhine II and later]. */
static int mii_idle(struct rhine_nic *r, struct netdev *d)
{
	struct bitwait w;

	wr8(r, RHINE_MIICR, 0);
	if (r->rev < RHINE_REV_RHINE2)
		return 0;
	if (!wait_bit(r, RHINE_MIIAD, RHINE_MIIAD_MIDLE, RHINE_MIIAD_MIDLE, RHINE_MII_US, &w))
		return netdev_fail(d, NETDEV_ETIMEOUT, "MII auto-poll did not stop: MIIAD=0x%02x after %llu cycles (limit %llu, %lu polls), MIICR=0x%02x",
				   w.last, (unsigned long long)w.elapsed, (unsigned long long)w.limit, w.polls,
				   rd8(r, RHINE_MIICR));
	return 0;
}

/* Points the idle MII port at register reg of the PHY. Returns 0 or a NETDEV_E* error with why. */
static int mii_select(struct rhine_nic *r, struct netdev *d, unsigned reg)
{
	int rc = mii_idle(r, d);

	if (rc)
		return rc;
	wr8(r, RHINE_MIIPHY, (uint8_t)((rd8(r, RHINE_MIIPHY) & 0xE0) | r->phy));
	wr8(r, RHINE_MIIAD, (uint8_t)reg);
	return 0;
}

/* Reads PHY register reg into *val. Returns 0 or a NETDEV_E* error with why. */
static int mii_read(struct rhine_nic *r, struct netdev *d, unsigned reg, uint16_t *val)
{
	struct bitwait w;
	int rc = mii_select(r, d, reg);

	if (rc)
		return rc;
	wr8(r, RHINE_MIICR, RHINE_MIICR_RDEN);
	if (!wait_bit(r, RHINE_MIICR, RHINE_MIICR_RDEN, 0, RHINE_MII_US, &w))
		return netdev_fail(d, NETDEV_ETIMEOUT, "MII read of PHY %u register %u did not finish: MIICR=0x%02x after %llu cycles (limit %llu, %lu polls), MIIAD=0x%02x",
				   r->phy, reg, w.last, (unsigned long long)w.elapsed, (unsigned long long)w.limit,
				   w.polls, rd8(r, RHINE_MIIAD));
	*val = rd16(r, RHINE_MIIDATA);
	return 0;
}

/* Writes val to PHY register reg. Returns 0 or a NETDEV_E* error with why. */
static int mii_write(struct rhine_nic *r, struct netdev *d, unsigned reg, uint16_t val)
{
	struct bitwait w;
	int rc = mii_select(r, d, reg);

	if (rc)
		return rc;
	wr16(r, RHINE_MIIDATA, val);
	wr8(r, RHINE_MIICR, RHINE_MIICR_WREN);
	if (!wait_bit(r, RHINE_MIICR, RHINE_MIICR_WREN, 0, RHINE_MII_US, &w))
		return netdev_fail(d, NETDEV_ETIMEOUT, "MII write of PHY %u register %u did not finish: MIICR=0x%02x after %llu cycles (limit %llu, %lu polls), MIIAD=0x%02x",
				   r->phy, reg, w.last, (unsigned long long)w.elapsed, (unsigned long long)w.limit,
				   w.polls, rd8(r, RHINE_MIIAD));
	return 0;
}

/*
 * The PHY: isolation off [L], and whether the link runs full duplex: the
 * best ability both sides advertise (IEEE 802.3 annex 28B.3 priority:
 * 100FD, 100HD, 10FD, 10HD); half duplex without a link.
 */
static int phy_setup(struct rhine_nic *r, struct netdev *d, bool *fdx)
{
	uint16_t bmcr, bmsr, anar, anlpar, both;
	int rc;

	*fdx = false;
	if ((rc = mii_read(r, d, MII_BMCR, &bmcr)) != 0)
		return rc;
	if ((bmcr & MII_BMCR_ISOLATE) && (rc = mii_write(r, d, MII_BMCR, bmcr & ~MII_BMCR_ISOLATE)) != 0)
		return rc;
	/* BMSR's link bit latches low: the second read is the link now */
	if ((rc = mii_read(r, d, MII_BMSR, &bmsr)) != 0 || (rc = mii_read(r, d, MII_BMSR, &bmsr)) != 0)
		return rc;
	if (!(bmsr & MII_BMSR_LINK))
		return 0;
	if ((rc = mii_read(r, d, MII_ANAR, &anar)) != 0 || (rc = mii_read(r, d, MII_ANLPAR, &anlpar)) != 0)
		return rc;
	both = anar & anlpar;
	*fdx = (both & MII_AN_100FD) || (!(both & (MII_AN_100FD | MII_AN_100HD)) && (both & MII_AN_10FD));
	return 0;
}

/* Auto-polling of the PHY's status register, for MIISR's link bit [I rhine_mii_autopoll][L rhine_enable_linkmon]. */
static int mii_autopoll(struct rhine_nic *r, struct netdev *d)
{
	struct bitwait w;
	int rc = mii_idle(r, d);

	if (rc)
		return rc;
	wr8(r, RHINE_MIIAD, MII_BMSR);
	wr8(r, RHINE_MIICR, RHINE_MIICR_MAUTO);
	if (!wait_bit(r, RHINE_MIIAD, RHINE_MIIAD_MDONE, 0, RHINE_MII_US, &w))
		return netdev_fail(d, NETDEV_ETIMEOUT, "MII auto-poll did not start: MIIAD=0x%02x after %llu cycles (limit %llu, %lu polls), MIICR=0x%02x",
				   w.last, (unsigned long long)w.elapsed, (unsigned long long)w.limit, w.polls,
				   rd8(r, RHINE_MIICR));
	wr8(r, RHINE_MIIAD, MII_BMSR | RHINE_MIIAD_MSRCEN);
	return 0;
}

/* ---- reset and EEPROM ---- */

static int chip_reset(struct rhine_nic *r, struct netdev *d)
{
	struct bitwait w;
	bool force = r->rev >= RHINE_REV_VT6102;

	wr8(r, RHINE_CR1, RHINE_CR1_SRST);
	if (wait_bit(r, RHINE_CR1, RHINE_CR1_SRST, 0, RHINE_RESET_US, &w))
		return 0;
	if (force) {
		uint64_t el = w.elapsed, lim = w.limit;
		unsigned long polls = w.polls;
		wr8(r, RHINE_MISC_CR1, rd8(r, RHINE_MISC_CR1) | RHINE_MISC_FORSRST);
		if (wait_bit(r, RHINE_CR1, RHINE_CR1_SRST, 0, RHINE_RESET_US, &w))
			return 0;
		return netdev_fail(d, NETDEV_ETIMEOUT, "reset did not finish: CR1=0x%02x after %llu cycles (limit %llu, %lu polls), nor forced (MISC_CR1 bit 6: %lu more polls); CR0=0x%02x ISR=0x%04x",
				   w.last, (unsigned long long)el, (unsigned long long)lim, polls, w.polls,
				   rd8(r, RHINE_CR0), rd16(r, RHINE_ISR));
	}
	return netdev_fail(d, NETDEV_ETIMEOUT, "reset did not finish: CR1=0x%02x after %llu cycles (limit %llu, %lu polls), no forced reset on a Rhine I; CR0=0x%02x ISR=0x%04x",
			   w.last, (unsigned long long)w.elapsed, (unsigned long long)w.limit, w.polls,
			   rd8(r, RHINE_CR0), rd16(r, RHINE_ISR));
}

static int eeprom_reload(struct rhine_nic *r, struct netdev *d)
{
	struct bitwait w;

	wr8(r, RHINE_EECSR, rd8(r, RHINE_EECSR) | RHINE_EECSR_LOAD);
	if (wait_bit(r, RHINE_EECSR, RHINE_EECSR_LOAD, 0, RHINE_EEPROM_US, &w))
		return 0;
	return netdev_fail(d, NETDEV_ETIMEOUT, "EEPROM reload did not finish: EECSR=0x%02x after %llu cycles (limit %llu, %lu polls), CR1=0x%02x",
			   w.last, (unsigned long long)w.elapsed, (unsigned long long)w.limit, w.polls,
			   rd8(r, RHINE_CR1));
}

/* ---- rings ---- */

static uint32_t bus_of(const volatile void *p)
{
	return hw_dma_addr((const void *)p);
}

/* Gives receive descriptor i to the chip: size and chain first, OWN last. */
static void rx_give(struct rhine_nic *r, unsigned i)
{
	struct rhine_desc *x = &r->rx[i];
	x->des1 = RHINE_DES1_CHAIN | RHINE_BUF_SIZE;
	barrier();
	x->des0 = RHINE_DES0_OWN;
	barrier();
}

/* Builds both rings. Returns false when a buffer has no 32-bit bus address. */
static bool rings_init(struct rhine_nic *r)
{
	unsigned i;

	for (i = 0; i < RHINE_RX_DESC; i++) {
		r->rx[i].des0 = 0;
		r->rx[i].buf = bus_of(r->rx_buf[i]);
		r->rx[i].next = bus_of(&r->rx[(i + 1) % RHINE_RX_DESC]);
		if (r->rx[i].buf == HW_DMA_NONE || r->rx[i].next == HW_DMA_NONE)
			return false;
	}
	for (i = 0; i < RHINE_TX_DESC; i++) {
		r->tx[i].des0 = 0;
		r->tx[i].des1 = 0;
		r->tx[i].buf = bus_of(r->tx_buf[i]);
		r->tx[i].next = bus_of(&r->tx[(i + 1) % RHINE_TX_DESC]);
		if (r->tx[i].buf == HW_DMA_NONE || r->tx[i].next == HW_DMA_NONE)
			return false;
	}
	for (i = 0; i < RHINE_RX_DESC; i++)
		rx_give(r, i);
	r->rx_head = r->tx_prod = r->tx_cons = 0;
	r->rx_restart = false;
	return true;
}

/* The slot of this PCI function (the one it had, else a free one), or NULL. */
static struct rhine_nic *slot_for(const struct pci_dev *pci)
{
	unsigned i;
	for (i = 0; i < RHINE_MAX_NICS; i++)
		if (nics[i].used && nics[i].bus == pci->bus && nics[i].dev == pci->dev &&
		    nics[i].fn == pci->fn)
			return &nics[i];
	for (i = 0; i < RHINE_MAX_NICS; i++)
		if (!nics[i].used)
			return &nics[i];
	return NULL;
}

/* ---- netdev functions ---- */

static int rhine_send(struct netdev *d, const void *frame, size_t len);
static int rhine_poll(struct netdev *d, void *buf, size_t cap);
static bool rhine_link_up(struct netdev *d);

static bool rhine_match(uint16_t vendor, uint16_t device)
{
	return RHINE_PCI_ID(vendor, device);
}

static int rhine_open(const struct pci_dev *pci, struct netdev *d)
{
	struct rhine_nic *r;
	const struct pci_bar *bar;
	uint32_t cmd;
	bool fdx;
	int rc;
	unsigned i;

	memset(d, 0, sizeof(*d));
	d->kind = RHINE_KIND;
	fmt_snprintf(d->bdf, sizeof(d->bdf), "%02x:%02x.%x", pci->bus, pci->dev, pci->fn);
	d->send = rhine_send;
	d->poll = rhine_poll;
	d->link_up = rhine_link_up;
	if (!rhine_match(pci->vendor, pci->device))
		return netdev_fail(d, NETDEV_EINVAL, "%04x:%04x is not a VIA Rhine", pci->vendor, pci->device);
	r = slot_for(pci);
	if (!r)
		return netdev_fail(d, NETDEV_EINVAL, "no room for a fifth Rhine (this driver keeps rings for %u)",
				   RHINE_MAX_NICS);
	r->up = false;
	bar = io_bar(pci);
	if (!bar || (bar->flags & PCI_BAR_UNASSIGNED) || bar->base == 0 ||
	    bar->base + RHINE_IO_SIZE_RHINE1 > 0x10000)
		return netdev_fail(d, NETDEV_EHW, "no usable I/O BAR (the registers): %s",
				   !bar ? "none implemented" : "unassigned or beyond 64 KiB");

	if ((rc = power_up(pci, d)) != 0)
		return rc;
	cmd = pci_cfg_read32(pci, PCI_CMD) & 0xFFFF;
	pci_cfg_write32(pci, PCI_CMD, cmd | PCI_CMD_IO | PCI_CMD_MASTER);
	cmd = pci_cfg_read32(pci, PCI_CMD) & 0xFFFF;
	if ((cmd & (PCI_CMD_IO | PCI_CMD_MASTER)) != (PCI_CMD_IO | PCI_CMD_MASTER))
		return netdev_fail(d, NETDEV_EHW, "I/O decoding and bus mastering do not stick: PCI command 0x%04x",
				   cmd);

	r->used = true;
	r->bus = pci->bus;
	r->dev = pci->dev;
	r->fn = pci->fn;
	r->rev = pci->rev;
	r->io = (uint16_t)bar->base;
	d->priv = r;
	if (r->rev >= RHINE_REV_VT6102)
		wr8(r, RHINE_STICKHW, rd8(r, RHINE_STICKHW) & (uint8_t)~RHINE_STICKHW_DS);

	if ((rc = chip_reset(r, d)) != 0 || (rc = eeprom_reload(r, d)) != 0)
		return rc;
	for (i = 0; i < 6; i++)
		d->mac[i] = rd8(r, RHINE_PAR + i);
	if ((d->mac[0] & 1) || !(d->mac[0] | d->mac[1] | d->mac[2] | d->mac[3] | d->mac[4] | d->mac[5]))
		return netdev_fail(d, NETDEV_EHW, "station address %02x:%02x:%02x:%02x:%02x:%02x in PAR0-5 after the EEPROM reload is not a unicast address (EECSR=0x%02x)",
				   d->mac[0], d->mac[1], d->mac[2], d->mac[3], d->mac[4], d->mac[5],
				   rd8(r, RHINE_EECSR));

	r->phy = r->rev >= RHINE_REV_VT6105 ? RHINE_INT_PHY_ADDR : (rd8(r, RHINE_MIIPHY) & 0x1F);
	if ((rc = phy_setup(r, d, &fdx)) != 0)
		return rc;

	if (!rings_init(r))
		return netdev_fail(d, NETDEV_EHW, "the descriptor rings have no 32-bit bus address");
	wr32(r, RHINE_RDA, bus_of(&r->rx[0]));
	wr32(r, RHINE_TDA, bus_of(&r->tx[0]));
	wr8(r, RHINE_RCR, (uint8_t)((rd8(r, RHINE_RCR) & RHINE_RCR_THRESH) | RHINE_RCR_BCAST));
	wr8(r, RHINE_TCR, RHINE_TCR_THRESH_64);
	wr16(r, RHINE_IMR, 0);
	wr16(r, RHINE_ISR, 0xFFFF);
	/* the tallies: cleared by a write of 0 or by a read, depending on the chip [L] */
	wr32(r, RHINE_MPA, 0);
	(void)rd16(r, RHINE_CRCCNT);
	(void)rd16(r, RHINE_MPA);

	if ((rc = mii_autopoll(r, d)) != 0)
		return rc;
	wr8(r, RHINE_CR1, (uint8_t)(RHINE_CR1_DPOLL | (fdx ? RHINE_CR1_FDX : 0)));
	wr8(r, RHINE_CR0, RHINE_CR0_START | RHINE_CR0_RXON | RHINE_CR0_TXON);
	r->up = true;
	return 0;
}

/* Counts the transmit descriptors the chip has finished with, oldest first. */
static void tx_reclaim(struct rhine_nic *r, struct netdev *d)
{
	while (r->tx_cons != r->tx_prod) {
		uint32_t d0 = r->tx[r->tx_cons % RHINE_TX_DESC].des0;
		if (d0 & RHINE_DES0_OWN)
			break;
		if (d0 & RHINE_TDES0_TERR)
			d->stats.tx_errors++;
		r->tx_cons++;
	}
}

/* After a transmit error the chip turns the transmitter off: on again at the oldest pending descriptor [L rhine_restart_tx]. */
static void tx_restart_if_off(struct rhine_nic *r)
{
	uint8_t cr0 = rd8(r, RHINE_CR0);
	if (cr0 & RHINE_CR0_TXON)
		return;
	wr32(r, RHINE_TDA, bus_of(&r->tx[r->tx_cons % RHINE_TX_DESC]));
	wr8(r, RHINE_CR0, cr0 | RHINE_CR0_TXON);
}

static void tx_demand(struct rhine_nic *r)
{
	wr8(r, RHINE_CR1, rd8(r, RHINE_CR1) | RHINE_CR1_TDMD1);
}

struct txwait {
	struct rhine_nic *r;
	struct netdev *d;
};

static bool tx_slot_free(void *ctx)
{
	struct txwait *t = ctx;
	tx_reclaim(t->r, t->d);
	return t->r->tx_prod - t->r->tx_cons < RHINE_TX_DESC;
}

static int rhine_send(struct netdev *d, const void *frame, size_t len)
{
	struct rhine_nic *r = d->priv;
	struct rhine_desc *t;
	unsigned slot;
	size_t n = len;

	if (!r || !r->up)
		return netdev_fail(d, NETDEV_EINVAL, "send on a Rhine that is not open");
	if (!frame)
		return netdev_fail(d, NETDEV_EINVAL, "send without a frame refused");
	if (len < 14 || len > NETDEV_MAX_FRAME)
		return netdev_fail(d, NETDEV_EINVAL, "frame of %u bytes refused (14..%u)", (unsigned)len,
				   NETDEV_MAX_FRAME);
	tx_reclaim(r, d);
	if (r->tx_prod - r->tx_cons >= RHINE_TX_DESC) {
		struct txwait tw = { r, d };
		uint64_t el, lim = tsc_ticks_for_us(RHINE_TX_WAIT_US);
		unsigned long polls;
		tx_restart_if_off(r);
		tx_demand(r);
		if (!wait_poll(tx_slot_free, &tw, hw_rdtsc, lim, &el, &polls))
			return netdev_fail(d, NETDEV_EBUSY, "no free transmit descriptor after %llu cycles (limit %llu, %lu polls): des0=0x%08x of descriptor %u, CR0=0x%02x ISR=0x%04x TDA=0x%08x",
					   (unsigned long long)el, (unsigned long long)lim, polls,
					   (unsigned)r->tx[r->tx_cons % RHINE_TX_DESC].des0,
					   r->tx_cons % RHINE_TX_DESC, rd8(r, RHINE_CR0), rd16(r, RHINE_ISR),
					   (unsigned)rd32(r, RHINE_TDA));
	}
	slot = r->tx_prod % RHINE_TX_DESC;
	t = &r->tx[slot];
	memcpy(r->tx_buf[slot], frame, len);
	if (n < NETDEV_MIN_FRAME) {
		memset(r->tx_buf[slot] + len, 0, NETDEV_MIN_FRAME - len);
		n = NETDEV_MIN_FRAME;
	}
	t->des1 = RHINE_DES1_CHAIN | RHINE_TDES1_STP | RHINE_TDES1_EDP | (uint32_t)n;
	barrier();
	t->des0 = RHINE_DES0_OWN;
	barrier();
	r->tx_prod++;
	tx_restart_if_off(r);
	tx_demand(r);
	d->stats.tx_frames++;
	return 0;
}

/* Adds the chip's missed-frame tally to rx_dropped and clears it [L rhine_update_rx_crc_and_missed_errord]. */
static void rx_count_missed(struct rhine_nic *r, struct netdev *d)
{
	d->stats.rx_dropped += rd16(r, RHINE_MPA);
	wr32(r, RHINE_MPA, 0);
	(void)rd16(r, RHINE_CRCCNT);
	(void)rd16(r, RHINE_MPA);
}

/*
 * After frames were lost, with every filled descriptor handed back: the
 * receiver off, RDA at the next descriptor, on again with a poll demand
 * [O vr_rxeoc]. Returns 0, or NETDEV_ETIMEOUT with why (tried again at the
 * next poll).
 */
static int rx_restart(struct rhine_nic *r, struct netdev *d)
{
	struct bitwait w;
	uint8_t cr0 = rd8(r, RHINE_CR0);

	wr8(r, RHINE_CR0, cr0 & (uint8_t)~RHINE_CR0_RXON);
	if (!wait_bit(r, RHINE_CR0, RHINE_CR0_RXON, 0, RHINE_RX_STOP_US, &w))
		return netdev_fail(d, NETDEV_ETIMEOUT, "receiver did not stop for a restart after lost frames: CR0=0x%02x after %llu cycles (limit %llu, %lu polls), ISR=0x%04x",
				   w.last, (unsigned long long)w.elapsed, (unsigned long long)w.limit, w.polls,
				   rd16(r, RHINE_ISR));
	wr32(r, RHINE_RDA, bus_of(&r->rx[r->rx_head % RHINE_RX_DESC]));
	wr8(r, RHINE_CR0, (uint8_t)((w.last & ~RHINE_CR0_RDMD) | RHINE_CR0_RXON | RHINE_CR0_RDMD));
	r->rx_restart = false;
	return 0;
}

static int rhine_poll(struct netdev *d, void *buf, size_t cap)
{
	struct rhine_nic *r = d->priv;
	uint16_t isr;
	unsigned k;

	if (!r || !r->up)
		return netdev_fail(d, NETDEV_EINVAL, "poll on a Rhine that is not open");
	isr = rd16(r, RHINE_ISR);
	if (isr)
		wr16(r, RHINE_ISR, isr);
	if (isr & RHINE_ISR_RX_LOSS) {
		rx_count_missed(r, d);
		r->rx_restart = true;
	}
	for (k = 0; k < RHINE_RX_DESC; k++) {
		unsigned slot = r->rx_head % RHINE_RX_DESC;
		uint32_t d0 = r->rx[slot].des0, len;

		if (d0 & RHINE_DES0_OWN)
			break;
		len = RHINE_RDES0_LEN(d0);
		r->rx_head++;
		if ((d0 & (RHINE_RDES0_WHOLE | RHINE_RDES0_RXOK)) == (RHINE_RDES0_WHOLE | RHINE_RDES0_RXOK) &&
		    len >= 14 + 4 && len <= RHINE_BUF_SIZE && len - 4 <= cap && buf) {
			memcpy(buf, r->rx_buf[slot], len - 4);
			rx_give(r, slot);
			d->stats.rx_frames++;
			return (int)(len - 4);
		}
		rx_give(r, slot);
		d->stats.rx_dropped++;
	}
	if (r->rx_restart && (r->rx[r->rx_head % RHINE_RX_DESC].des0 & RHINE_DES0_OWN))
		return rx_restart(r, d);
	return 0;
}

static bool rhine_link_up(struct netdev *d)
{
	struct rhine_nic *r = d->priv;
	return r && r->up && !(rd8(r, RHINE_MIISR) & RHINE_MIISR_LNKFL);
}

const struct nic_driver rhine_nic_driver = {
	.kind = RHINE_KIND,
	.match = rhine_match,
	.open = rhine_open,
};
