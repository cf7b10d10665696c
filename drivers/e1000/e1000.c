/*
 * e1000: the Intel 82540EM driver. See e1000.h; registers and descriptors
 * in e1000_reg.h (8254x SDM). Initialisation as the SDM's chapter 14 orders
 * it: mask every interrupt, reset (bounded wait for CTRL.RST to clear),
 * mask again, set link up, station address from RAL0/RAH0, clear the
 * multicast table, then the receive ring (RDBAL/RDLEN/RDH/RDT, RCTL) and
 * the transmit ring (TDBAL/TDLEN/TDH/TDT, TCTL, TIPG).
 */
#include "drivers/e1000/e1000.h"

#include <stdbool.h>
#include <string.h>

#include "drivers/e1000/e1000_reg.h"
#include "kernel/platform/hw.h"
#include "kernel/platform/pci_bus.h"
#include "kernel/platform/timer.h"
#include "lib/util/fmt.h"
#include "lib/util/wait.h"

#define E1000_MAX	2	/* NICs of this kind the driver can hold open */
#define RX_BUF		2048	/* RCTL.BSIZE 2048 */
#define TX_BUF		1536

struct e1000 {
	uintptr_t base;
	struct e1000_rx_desc rx[E1000_RING] __attribute__((aligned(128)));
	struct e1000_tx_desc tx[E1000_RING] __attribute__((aligned(128)));
	uint8_t rxbuf[E1000_RING][RX_BUF] __attribute__((aligned(16)));
	uint8_t txbuf[E1000_RING][TX_BUF] __attribute__((aligned(16)));
	unsigned rx_next;		/* the descriptor the NIC fills next */
	unsigned tx_next;		/* the descriptor we fill next */
	bool tx_used[E1000_RING];	/* handed to the NIC at least once */
	bool rx_in_frame;		/* dropping the rest of a frame that spans buffers */
};

static struct e1000 nics[E1000_MAX];
static unsigned nopen;

static uint32_t rd(const struct e1000 *e, unsigned reg)
{
	return hw_mmio_read32(e->base + reg);
}

static void wr(const struct e1000 *e, unsigned reg, uint32_t v)
{
	hw_mmio_write32(e->base + reg, v);
}

static bool reset_done(void *ctx)
{
	return !(rd(ctx, E1000_CTRL) & E1000_CTRL_RST);
}

static bool match(uint16_t vendor, uint16_t device)
{
	/* 82540EM (QEMU's default), 82545EM, 82543GC, 82544GC, 82541GI, 82547GI: one register layout for what is used here. */
	static const uint16_t ids[] = { 0x100e, 0x100f, 0x1004, 0x1026, 0x1075, 0x107c };
	unsigned i;

	if (vendor != 0x8086)
		return false;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (ids[i] == device)
			return true;
	return false;
}

static int e1000_send(struct netdev *d, const void *frame, size_t len);
static int e1000_poll(struct netdev *d, void *buf, size_t cap);
static bool e1000_link_up(struct netdev *d);

static int e1000_open(const struct pci_dev *pci, struct netdev *d)
{
	const struct pci_bar *bar = NULL;
	struct e1000 *e;
	uint32_t cmd, lo, hi, addr;
	uint64_t limit, elapsed;
	unsigned long polls;
	unsigned i;

	for (i = 0; i < pci->nbars; i++)
		if (pci->bars[i].index == 0 && !(pci->bars[i].flags & (PCI_BAR_IO | PCI_BAR_UNASSIGNED)))
			bar = &pci->bars[i];
	if (!bar || bar->base >= 0x100000000ull || bar->size < 0x6000)
		return netdev_fail(d, NETDEV_EHW, "no 32-bit memory BAR0 of at least 24 KiB (%u BARs)", (unsigned)pci->nbars);
	/* A NIC opened again (after a failed open) keeps its slot. */
	for (i = 0; i < nopen && nics[i].base != (uintptr_t)bar->base; i++)
		;
	if (i == E1000_MAX)
		return netdev_fail(d, NETDEV_EINVAL, "already %u e1000 NICs open (at most %u)", nopen, (unsigned)E1000_MAX);
	if (i == nopen)
		nopen++;
	e = &nics[i];
	memset(e, 0, sizeof(*e));
	e->base = (uintptr_t)bar->base;
	/* Memory decoding and bus mastering: the rings are read and written by DMA. */
	cmd = pci_cfg_read32(pci, PCI_CMD) & 0xFFFF;
	if ((cmd & (PCI_CMD_MEM | PCI_CMD_MASTER)) != (PCI_CMD_MEM | PCI_CMD_MASTER))
		pci_cfg_write32(pci, PCI_CMD, cmd | PCI_CMD_MEM | PCI_CMD_MASTER);
	cmd = pci_cfg_read32(pci, PCI_CMD) & 0xFFFF;
	if ((cmd & (PCI_CMD_MEM | PCI_CMD_MASTER)) != (PCI_CMD_MEM | PCI_CMD_MASTER))
		return netdev_fail(d, NETDEV_EHW, "PCI command 0x%04x: memory decoding or bus mastering did not stick", (unsigned)cmd);

	wr(e, E1000_IMC, 0xFFFFFFFFu);
	wr(e, E1000_CTRL, rd(e, E1000_CTRL) | E1000_CTRL_RST);
	limit = tsc_ticks_for_us(E1000_RESET_US);
	if (!wait_poll(reset_done, e, hw_rdtsc, limit, &elapsed, &polls))
		return netdev_fail(d, NETDEV_ETIMEOUT, "CTRL.RST still set after reset: %llu cycles (limit %llu, %lu polls), CTRL=0x%08x STATUS=0x%08x",
				   (unsigned long long)elapsed, (unsigned long long)limit, polls,
				   rd(e, E1000_CTRL), rd(e, E1000_STATUS));
	wr(e, E1000_IMC, 0xFFFFFFFFu);	/* the reset unmasked nothing, but say so to the chip again */
	(void)rd(e, E1000_ICR);
	wr(e, E1000_CTRL, (rd(e, E1000_CTRL) | E1000_CTRL_SLU | E1000_CTRL_ASDE) &
			  ~(E1000_CTRL_LRST | E1000_CTRL_PHY_RST));

	lo = rd(e, E1000_RAL0);
	hi = rd(e, E1000_RAH0);
	if (!(hi & E1000_RAH_AV))
		return netdev_fail(d, NETDEV_EHW, "RAH0 address-valid bit clear after reset (RAL0=0x%08x RAH0=0x%08x)", lo, hi);
	for (i = 0; i < 4; i++)
		d->mac[i] = (uint8_t)(lo >> (8 * i));
	d->mac[4] = (uint8_t)hi;
	d->mac[5] = (uint8_t)(hi >> 8);
	for (i = 0; i < 128; i++)
		wr(e, E1000_MTA + 4 * i, 0);

	/* Receive ring: every descriptor the NIC's, RDT one behind RDH (the ring is full, SDM 3.2.6). */
	for (i = 0; i < E1000_RING; i++) {
		addr = hw_dma_addr(e->rxbuf[i]);
		if (addr == HW_DMA_NONE)
			return netdev_fail(d, NETDEV_EHW, "receive buffer %u not reachable by DMA", i);
		e->rx[i].addr_lo = addr;
	}
	addr = hw_dma_addr(e->rx);
	if (addr == HW_DMA_NONE || hw_dma_addr(e->tx) == HW_DMA_NONE)
		return netdev_fail(d, NETDEV_EHW, "descriptor rings not reachable by DMA");
	wr(e, E1000_RDBAL, addr);
	wr(e, E1000_RDBAH, 0);
	wr(e, E1000_RDLEN, sizeof(e->rx));
	wr(e, E1000_RDH, 0);
	wr(e, E1000_RDT, E1000_RING - 1);
	wr(e, E1000_RCTL, E1000_RCTL_EN | E1000_RCTL_BAM | E1000_RCTL_BSIZE_2048 | E1000_RCTL_SECRC);

	for (i = 0; i < E1000_RING; i++) {
		addr = hw_dma_addr(e->txbuf[i]);
		if (addr == HW_DMA_NONE)
			return netdev_fail(d, NETDEV_EHW, "transmit buffer %u not reachable by DMA", i);
		e->tx[i].addr_lo = addr;
	}
	wr(e, E1000_TDBAL, hw_dma_addr(e->tx));
	wr(e, E1000_TDBAH, 0);
	wr(e, E1000_TDLEN, sizeof(e->tx));
	wr(e, E1000_TDH, 0);
	wr(e, E1000_TDT, 0);
	wr(e, E1000_TCTL, E1000_TCTL_EN | E1000_TCTL_PSP | E1000_TCTL_CT(0x10) | E1000_TCTL_COLD(0x40));
	wr(e, E1000_TIPG, 10 | 8u << 10 | 6u << 20);
	(void)rd(e, E1000_MPC);		/* start the missed-packet count from here */

	d->kind = "e1000";
	fmt_snprintf(d->bdf, sizeof(d->bdf), "%02x:%02x.%x", pci->bus, pci->dev, pci->fn);
	d->priv = e;
	d->send = e1000_send;
	d->poll = e1000_poll;
	d->link_up = e1000_link_up;
	d->why[0] = '\0';
	return 0;
}

struct tx_wait {
	const volatile struct e1000_tx_desc *desc;
};

static bool tx_done(void *ctx)
{
	const struct tx_wait *w = ctx;
	return (w->desc->status & E1000_TXD_DD) != 0;
}

static int e1000_send(struct netdev *d, const void *frame, size_t len)
{
	struct e1000 *e = d->priv;
	volatile struct e1000_tx_desc *t = &e->tx[e->tx_next];
	struct tx_wait w = { t };
	size_t n = len < NETDEV_MIN_FRAME ? NETDEV_MIN_FRAME : len;

	if (len < 14 || len > NETDEV_MAX_FRAME)
		return NETDEV_EINVAL;
	if (e->tx_used[e->tx_next]) {
		uint64_t limit = tsc_ticks_for_us(E1000_TX_WAIT_US), elapsed;
		unsigned long polls;

		if (!wait_poll(tx_done, &w, hw_rdtsc, limit, &elapsed, &polls)) {
			d->stats.tx_errors++;
			return netdev_fail(d, NETDEV_EBUSY,
					   "transmit descriptor %u not done after %llu cycles (limit %llu, %lu polls): TDH=%u TDT=%u STATUS=0x%08x TCTL=0x%08x",
					   e->tx_next, (unsigned long long)elapsed, (unsigned long long)limit, polls,
					   (unsigned)rd(e, E1000_TDH), (unsigned)rd(e, E1000_TDT), rd(e, E1000_STATUS),
					   rd(e, E1000_TCTL));
		}
	}
	memcpy(e->txbuf[e->tx_next], frame, len);
	memset(e->txbuf[e->tx_next] + len, 0, n - len);
	t->length = (uint16_t)n;
	t->cso = 0;
	t->css = 0;
	t->special = 0;
	t->status = 0;
	t->cmd = E1000_TXD_EOP | E1000_TXD_IFCS | E1000_TXD_RS;
	e->tx_used[e->tx_next] = true;
	e->tx_next = (e->tx_next + 1) % E1000_RING;
	__asm__ volatile("" ::: "memory");	/* the descriptor is written before the tail moves */
	wr(e, E1000_TDT, e->tx_next);
	d->stats.tx_frames++;
	return 0;
}

static int e1000_poll(struct netdev *d, void *buf, size_t cap)
{
	struct e1000 *e = d->priv;
	volatile struct e1000_rx_desc *r = &e->rx[e->rx_next];
	uint8_t status = r->status;
	size_t len = r->length;
	int ret = 0;
	uint32_t missed;

	missed = rd(e, E1000_MPC);	/* frames the NIC had no buffer for */
	d->stats.rx_dropped += missed;
	if (!(status & E1000_RXD_DD))
		return 0;
	__asm__ volatile("" ::: "memory");
	/* The length is the NIC's word: never more than the buffer it had (RCTL.BSIZE). */
	if (e->rx_in_frame || !(status & E1000_RXD_EOP) || r->errors || len > cap || len > RX_BUF || len < 14) {
		d->stats.rx_dropped++;
		e->rx_in_frame = !(status & E1000_RXD_EOP);
	} else {
		memcpy(buf, e->rxbuf[e->rx_next], len);
		d->stats.rx_frames++;
		ret = (int)len;
	}
	r->status = 0;
	__asm__ volatile("" ::: "memory");
	wr(e, E1000_RDT, e->rx_next);	/* the buffer back to the NIC */
	e->rx_next = (e->rx_next + 1) % E1000_RING;
	return ret;
}

static bool e1000_link_up(struct netdev *d)
{
	struct e1000 *e = d->priv;
	return (rd(e, E1000_STATUS) & E1000_STATUS_LU) != 0;
}

const struct nic_driver e1000_nic_driver = {
	.kind = "e1000",
	.match = match,
	.open = e1000_open,
};
