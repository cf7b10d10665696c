/*
 * drivers/e1000 against a small register-level model of the 82540EM,
 * built for i386 (run under qemu-i386 by e1000-host.t) so the driver's
 * buffers have 32-bit bus addresses as in the kernel. The model, from the
 * 8254x SDM as drivers/e1000/e1000_reg.h cites it: CTRL.RST self-clears
 * after a few reads (or never, for the timeout case), RAL0/RAH0 hold the
 * EEPROM's address, STATUS.LU follows the model's link, a write of TDT
 * sends the descriptors from TDH up to it (DD set, TDH moved) unless the
 * model stalls, a frame the model receives goes into the descriptor at
 * RDH unless RDH has reached RDT (then the missed-packet count MPC grows:
 * the ring is full). PCI configuration through lib/host/pci_model.h.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "drivers/e1000/e1000.h"
#include "drivers/e1000/e1000_reg.h"
#include "kernel/platform/pci_bus.h"
#include "lib/host/pci_model.h"
#include "tests/host/hw_host.h"
#include "tests/host/tap_ok.h"

#define BAR0	0xFEBC0000u
#define BAR_SIZE 0x20000u

static struct model {
	uint32_t reg[BAR_SIZE / 4];
	uint8_t mac[6];
	bool link, tx_stall, rst_stuck, no_av;
	unsigned rst_reads;		/* reads of CTRL before RST clears */
	uint8_t sent[16][NETDEV_MAX_FRAME + 64];
	size_t sent_len[16];
	unsigned nsent;
} M;

#define R(off) M.reg[(off) / 4]

static void model_reset(void)
{
	memset(M.reg, 0, sizeof(M.reg));
	R(E1000_RAL0) = (uint32_t)M.mac[0] | (uint32_t)M.mac[1] << 8 | (uint32_t)M.mac[2] << 16 | (uint32_t)M.mac[3] << 24;
	R(E1000_RAH0) = (uint32_t)M.mac[4] | (uint32_t)M.mac[5] << 8 | (M.no_av ? 0 : E1000_RAH_AV);
}

static void model_tx(void)
{
	while (!M.tx_stall && R(E1000_TDH) != R(E1000_TDT)) {
		struct e1000_tx_desc *t = (struct e1000_tx_desc *)hw_bus_to_virt(R(E1000_TDBAL) + 16 * R(E1000_TDH));
		memcpy(M.sent[M.nsent % 16], hw_bus_to_virt(t->addr_lo), t->length);	/* the last 16 kept */
		M.sent_len[M.nsent % 16] = t->length;
		M.nsent++;
		t->status |= E1000_TXD_DD;
		R(E1000_TDH) = (R(E1000_TDH) + 1) % (R(E1000_TDLEN) / 16);
	}
}

static uint32_t model_read(void *ctx, uint32_t off, unsigned bytes)
{
	uint32_t v;
	(void)ctx, (void)bytes;
	if (off == E1000_CTRL && (R(E1000_CTRL) & E1000_CTRL_RST) && !M.rst_stuck && M.rst_reads && --M.rst_reads == 0)
		R(E1000_CTRL) &= ~E1000_CTRL_RST;
	if (off == E1000_STATUS)
		return (M.link ? E1000_STATUS_LU | E1000_STATUS_FD : 0);
	v = R(off);
	if (off == E1000_MPC || off == E1000_ICR)
		R(off) = 0;	/* clear on read */
	return v;
}

static void model_write(void *ctx, uint32_t off, uint32_t val, unsigned bytes)
{
	(void)ctx, (void)bytes;
	if (off == E1000_CTRL && (val & E1000_CTRL_RST)) {
		model_reset();
		R(E1000_CTRL) = val;
		M.rst_reads = 3;
		return;
	}
	R(off) = val;
	if (off == E1000_TDT)
		model_tx();
}

/* A frame on the wire to the NIC: into the ring, or counted as missed. */
static bool model_rx(const uint8_t *f, size_t len)
{
	struct e1000_rx_desc *r;
	uint32_t n = R(E1000_RDLEN) / 16;

	if (!(R(E1000_RCTL) & E1000_RCTL_EN) || n == 0 || R(E1000_RDH) == R(E1000_RDT)) {
		R(E1000_MPC)++;
		return false;
	}
	r = (struct e1000_rx_desc *)hw_bus_to_virt(R(E1000_RDBAL) + 16 * R(E1000_RDH));
	memcpy(hw_bus_to_virt(r->addr_lo), f, len);
	r->length = (uint16_t)len;
	r->errors = 0;
	r->status = E1000_RXD_DD | E1000_RXD_EOP;
	R(E1000_RDH) = (R(E1000_RDH) + 1) % n;
	return true;
}

static struct pci_model pm;

/* One e1000 at 00:03.0 (BAR0 at base), PCI command as firmware left it: I/O only. */
static const struct pci_dev *machine(uint32_t base, unsigned ndev)
{
	unsigned i;

	hw_host_reset();
	pci_model_init(&pm);
	pci_model_add(&pm, 0, 0, 0, 0x8086, 0x1237, 0x06000002, 0);
	for (i = 0; i < ndev; i++) {
		struct pci_model_fn *f = pci_model_add(&pm, 0, 3 + i, 0, 0x8086, 0x100e, 0x02000003, 0);
		pci_model_set_bar(f, 0, 0, base + i * BAR_SIZE, BAR_SIZE);
		pci_model_poke32(f, PCI_CMD, PCI_CMD_IO);
		hw_host_add_mmio(base + i * BAR_SIZE, BAR_SIZE, model_read, model_write, NULL);
	}
	hw_host_set_pci(&pm);
	pci_scan();
	return pci_find(0x8086, 0x100e);
}

static void fresh_model(void)
{
	static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
	memset(&M, 0, sizeof(M));
	memcpy(M.mac, mac, 6);
	M.link = true;
	model_reset();
}

static int open_one(struct netdev *d)
{
	const struct pci_dev *p = machine(BAR0, 1);
	memset(d, 0, sizeof(*d));
	return p ? e1000_nic_driver.open(p, d) : -99;
}

int main(void)
{
	struct netdev d;
	uint8_t frame[NETDEV_MAX_FRAME + 4], buf[NETDEV_MAX_FRAME];
	int rc, i, got;
	unsigned k;

	printf("TAP version 13\n");
	ok(e1000_nic_driver.match(0x8086, 0x100e) && e1000_nic_driver.match(0x8086, 0x107c) &&
	   !e1000_nic_driver.match(0x8086, 0x10d3) && !e1000_nic_driver.match(0x1106, 0x3053),
	   "match: 8254x IDs (100e, 107c) yes; the 82574 (10d3) and a Rhine no");

	fresh_model();
	rc = open_one(&d);
	okf(rc == 0, "open: reset, rings, station address (rc %d, %s)", rc, d.why);
	ok(memcmp(d.mac, M.mac, 6) == 0 && strcmp(d.kind, "e1000") == 0 && strcmp(d.bdf, "00:03.0") == 0,
	   "open: station address from RAL0/RAH0, kind and BDF filled");
	ok((pci_model_peek32(pci_model_find(&pm, 0, 3, 0), PCI_CMD) & (PCI_CMD_MEM | PCI_CMD_MASTER)) ==
	   (PCI_CMD_MEM | PCI_CMD_MASTER), "open: memory decoding and bus mastering turned on");
	okf(R(E1000_RDLEN) == 128 && R(E1000_TDLEN) == 128 && R(E1000_RDT) == E1000_RING - 1 && R(E1000_RDH) == 0,
	    "open: 8-descriptor rings, RDT one behind RDH (RDLEN %u RDT %u)", R(E1000_RDLEN), R(E1000_RDT));
	ok((R(E1000_RCTL) & (E1000_RCTL_EN | E1000_RCTL_BAM | E1000_RCTL_SECRC)) == (E1000_RCTL_EN | E1000_RCTL_BAM | E1000_RCTL_SECRC) &&
	   (R(E1000_TCTL) & (E1000_TCTL_EN | E1000_TCTL_PSP)) == (E1000_TCTL_EN | E1000_TCTL_PSP) &&
	   (R(E1000_CTRL) & E1000_CTRL_SLU), "open: RCTL EN|BAM|SECRC, TCTL EN|PSP, CTRL.SLU");

	ok(d.link_up(&d), "link: STATUS.LU set reads up");
	M.link = false;
	ok(!d.link_up(&d), "link: STATUS.LU clear reads down");
	M.link = true;

	/* Transmit: a short frame is padded with zeros to 60 bytes. */
	memset(frame, 0xAB, sizeof(frame));
	rc = d.send(&d, frame, 42);
	okf(rc == 0 && M.nsent == 1 && M.sent_len[0] == 60 && M.sent[0][41] == 0xAB && M.sent[0][42] == 0 &&
	    M.sent[0][59] == 0, "send: a 42-byte frame goes out padded to 60 with zeros (rc %d, %zu bytes)", rc,
	    M.sent_len[0]);
	rc = d.send(&d, frame, NETDEV_MAX_FRAME);
	okf(rc == 0 && M.sent_len[1] == NETDEV_MAX_FRAME && R(E1000_TDT) == 2, "send: a 1514-byte frame whole (TDT %u)",
	    R(E1000_TDT));
	ok(d.send(&d, frame, 13) == NETDEV_EINVAL && d.send(&d, frame, NETDEV_MAX_FRAME + 1) == NETDEV_EINVAL,
	   "send: 13 or 1515 bytes refused");
	for (i = 0, rc = 0; i < 20 && rc == 0; i++)
		rc = d.send(&d, frame, 60);
	okf(rc == 0 && d.stats.tx_frames == 22, "send: 20 more frames around the ring (%lu sent)", d.stats.tx_frames);
	/* A descriptor's buffer used before holds old bytes: the padding must still be zeros. */
	rc = d.send(&d, frame, 42);
	k = (M.nsent - 1) % 16;
	okf(rc == 0 && M.sent_len[k] == 60 && M.sent[k][42] == 0 && M.sent[k][59] == 0,
	    "send: a short frame in a reused buffer is padded with zeros, not old bytes (0x%02x)", M.sent[k][50]);
	/* The NIC stops taking descriptors: the ring fills, then a bounded wait and EBUSY with the registers. */
	M.tx_stall = true;
	for (i = 0, rc = 0; i < E1000_RING + 1 && rc == 0; i++)
		rc = d.send(&d, frame, 60);
	okf(rc == NETDEV_EBUSY && strstr(d.why, " polls): TDH=") != NULL && d.stats.tx_errors == 1,
	    "send: a stalled NIC gives NETDEV_EBUSY after a bounded wait, naming TDH/TDT (%s)", d.why);
	M.tx_stall = false;

	/* Receive. */
	ok(d.poll(&d, buf, sizeof(buf)) == 0, "poll: nothing waiting: 0");
	for (k = 0; k < 3; k++) {
		memset(frame, 0x10 + k, 64 + k);
		model_rx(frame, 64 + k);
	}
	for (k = 0, got = 1; k < 3 && got; k++)
		got = d.poll(&d, buf, sizeof(buf)) == (int)(64 + k) && buf[0] == 0x10 + k && buf[63 + k] == 0x10 + k;
	ok(got && d.poll(&d, buf, sizeof(buf)) == 0 && d.stats.rx_frames == 3, "poll: three frames in order, whole, then 0");
	model_rx(frame, 100);
	ok(d.poll(&d, buf, 50) == 0 && d.stats.rx_dropped == 1, "poll: a frame longer than the buffer is dropped and counted");
	/* A NIC that writes a length past its 2048-byte buffer: nothing copied from beyond it. */
	{
		static uint8_t big[4096];
		struct e1000_rx_desc *r;

		model_rx(frame, 60);
		r = (struct e1000_rx_desc *)hw_bus_to_virt(R(E1000_RDBAL) + 16 * ((R(E1000_RDH) + E1000_RING - 1) % E1000_RING));
		r->length = 3000;
		rc = d.poll(&d, big, sizeof(big));
		okf(rc == 0 && d.stats.rx_dropped == 2, "poll: a descriptor length past the 2048-byte buffer is dropped, even into a larger one (rc %d)", rc);
	}
	/* Flood: 20 frames without a poll; the ring holds 7, the NIC misses the rest; every buffer comes back. */
	for (k = 0; k < 20; k++)
		model_rx(frame, 60);
	for (k = 0; k < 40 && d.poll(&d, buf, sizeof(buf)) > 0; k++)
		;
	okf(k == E1000_RING - 1 && d.stats.rx_dropped == 2 + 20 - (E1000_RING - 1),
	    "poll: a full ring: %u frames read, the %u missed counted from MPC (rx_dropped %lu)", k,
	    20 - (E1000_RING - 1), d.stats.rx_dropped);
	ok(model_rx(frame, 60) && d.poll(&d, buf, sizeof(buf)) == 60, "poll: after the flood the ring takes frames again");

	/* A reset that never ends: a bounded wait and the register state. */
	fresh_model();
	M.rst_stuck = true;
	rc = open_one(&d);
	okf(rc == NETDEV_ETIMEOUT && strstr(d.why, "CTRL.RST still set after reset: ") != NULL && strstr(d.why, " polls), CTRL=0x") != NULL,
	    "open: CTRL.RST never clears: NETDEV_ETIMEOUT with CTRL and STATUS (%s)", d.why);
	/* An EEPROM that loaded no valid address (RAH0.AV clear after reset). */
	fresh_model();
	M.no_av = true;
	rc = open_one(&d);
	okf(rc == NETDEV_EHW && strstr(d.why, "RAH0 address-valid bit clear after reset") != NULL,
	    "open: RAH0.AV clear: NETDEV_EHW naming RAL0/RAH0 (%s)", d.why);
	/* Two NICs open at once; a third is refused; reopening one keeps its slot. */
	fresh_model();
	{
		int n;
		struct netdev d2[3];
		const struct pci_dev *all;
		unsigned opened = 0, refused = 0;

		machine(BAR0, 3);	/* the NIC at BAR0 keeps its slot; the second takes the other */
		all = pci_devices(&n);
		for (i = 0; i < n; i++) {
			if (all[i].vendor != 0x8086 || all[i].device != 0x100e)
				continue;
			memset(&d2[opened + refused], 0, sizeof(d2[0]));
			if (e1000_nic_driver.open(&all[i], &d2[opened + refused]) == 0)
				opened++;
			else
				refused++;
		}
		okf(opened == 2 && refused == 1 && strstr(d2[2].why, "at most 2") != NULL,
		    "open: the NIC opened before keeps its slot, a second fits, a third is refused (%u opened, %u refused)", opened, refused);
	}
	return tap_plan();
}
