/*
 * rhine_test: drivers/rhine, unchanged, against the register-level model
 * of the VT6105M (emu/models/rhine_model.h), through the host hardware
 * access layer (tests/host/hw_host.h). Built for i386 and run under
 * qemu-i386, so pointers are 32-bit bus addresses as in the kernel
 * (mk/rhine.mk, tests/drivers/rhine/rhine.t).
 *
 * The machine: up to four Rhines at 00:06.0-00:09.0 as on a net5501
 * (BAR0 I/O 0xe100 + 0x100 * i, BAR1 0xa0004000 + 0x100 * i), each with a
 * test wire: the frames its model transmits are logged (and, in the race
 * test, checked as they leave), the frames queued on it arrive at the
 * model's next register access (or asynchronous step).
 *
 * Prints TAP version 13. What it proves:
 *   - match: the four Rhine IDs, nothing else;
 *   - open: I/O decoding and bus mastering on, one reset and one EEPROM
 *     reload, the station address from the EEPROM (the reset clears PAR:
 *     without the reload it would read 00:00:00:00:00:00), rings 16-byte
 *     aligned, broadcast-only receive filter (not promiscuous), IMR 0,
 *     chip started; duplex from the partner's abilities, BMSR read twice
 *     (its link bit latches low); PHY isolation cleared;
 *   - send: 14, 59, 60 and 1514 bytes after a full-length frame: on the
 *     wire at least 60 bytes, the padding zeros (not the previous frame),
 *     no runt; bad lengths refused with a reason and nothing sent;
 *   - receive: own address and broadcast delivered without the CRC,
 *     another unicast address and multicast filtered, a frame longer than
 *     the caller's buffer dropped and counted, the next one fine;
 *   - 2000 frames each way through the rings (wrapping 250 and 500 times);
 *   - a flood of 100 frames arriving with no poll in between: 4 delivered,
 *     96 dropped and counted from the chip's tally, every poll returns within
 *     a fixed number of register accesses, and frames flow again after it,
 *     also when the receiver stalls after a loss (variant rx-stall) and
 *     under the model's own rx-flood;
 *   - receive errors (CRC) dropped and counted, good frames between them
 *     delivered;
 *   - faults: a reset that never ends (timeout naming CR1 and the forced
 *     reset, within the TSC budget of two waits), a reset that needs the
 *     forced reset, a reset seen finished only on the last look after the
 *     deadline, an EEPROM reload that never ends, a multicast station
 *     address, a chip left in D3hot, no I/O BAR, link down (send counted
 *     as an error, nothing on the wire, link_up false; after the cable
 *     comes back frames leave again);
 *   - four NICs at once, each on its own wire; reopening a NIC; a
 *     transmitter that never gives a descriptor back (NETDEV_EBUSY after
 *     the bounded wait, naming des0);
 *   - the DMA engine running concurrently (lazy model stepped from a
 *     50 us timer signal, and half way through each frame copy of the
 *     driver): 3000 frames sent and 6000 arriving (the receive
 *     ring kept full), every frame on the wire and every frame received
 *     exactly as sent, which fails when the driver hands a transmit
 *     descriptor over before it is complete or a receive descriptor back
 *     before it has copied the frame out;
 *   - the wire to a real NIC (emu/nic_wire.c) over a test double: opened
 *     once when the Rhine first runs, frames both ways (short ones from
 *     the real NIC padded to 60 bytes), a refused frame counted, the link
 *     following the real NIC's, a NIC that does not open leaving the wire
 *     dead with its reason;
 *   - no protocol slip on the model in any of this (IMR never set, no
 *     misaligned descriptor or buffer, no write during a reset, no access
 *     in D3, no DMA error).
 * A hang ends in `Bail out!` (alarm); a crash in a `not ok` naming the
 * part, then the plan.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "drivers/rhine/rhine.h"
#include "drivers/rhine/rhine_reg.h"
#include "emu/models/rhine_model.h"
#include "emu/nic_wire.h"
#include "kernel/platform/pci_bus.h"
#include "kernel/platform/timer.h"
#include "lib/util/fmt.h"
#include "tests/host/hw_host.h"
#include "tests/host/tap_ok.h"

#define NMAX		4
#define HANG_SECONDS	300
#define WIRE_LOG	64		/* frames kept per wire */
#define WIRE_QUEUE	256		/* frames waiting on a wire */
#define FRAME_MAX	1536
#define TSC_STEP	1000		/* hw_host's default: cycles per hw_rdtsc() */

struct wire {
	uint8_t log[WIRE_LOG][FRAME_MAX];
	size_t log_len[WIRE_LOG];
	unsigned long sent;		/* frames the model transmitted */
	uint8_t q[WIRE_QUEUE][FRAME_MAX];
	size_t q_len[WIRE_QUEUE];
	volatile unsigned head, tail;	/* queue: head taken by the model, tail added by the test */
	bool check;			/* race test: validate each frame as it leaves */
	unsigned long good, bad;	/* race test: frames as sent and in order, and the others */
};

static struct rhine_model M[NMAX];
static struct wire W[NMAX];
static struct pci_model PM;
static unsigned nnic;
static volatile sig_atomic_t in_model;
static uint8_t own_mac[NMAX][6];

/* ---- the wire double ---- */

static bool frame_ok(const uint8_t *f, size_t len);

static unsigned long frame_seq(const uint8_t *f)
{
	return f[14] | f[15] << 8 | f[16] << 16 | (unsigned long)f[17] << 24;
}

static void wire_send(void *ctx, const uint8_t *frame, size_t len)
{
	struct wire *w = ctx;
	unsigned k = (unsigned)(w->sent % WIRE_LOG);

	if (len > FRAME_MAX)
		len = FRAME_MAX;
	memcpy(w->log[k], frame, len);
	w->log_len[k] = len;
	w->sent++;
	if (w->check) {
		/* exactly as sent, and in the order sent */
		if (frame_ok(frame, len) && frame_seq(frame) == w->good)
			w->good++;
		else
			w->bad++;
	}
}

static size_t wire_poll(void *ctx, uint8_t *buf, size_t cap)
{
	struct wire *w = ctx;
	size_t n;

	if (w->head == w->tail)
		return 0;
	n = w->q_len[w->head % WIRE_QUEUE];
	if (n > cap)
		n = cap;
	memcpy(buf, w->q[w->head % WIRE_QUEUE], n);
	w->head++;
	return n;
}

/* Queues a frame on wire i (SIGVTALRM blocked meanwhile: the race test's steps read the queue). */
static bool wire_put(unsigned i, const uint8_t *f, size_t len)
{
	struct wire *w = &W[i];
	sigset_t s, old;
	bool ok;

	sigemptyset(&s);
	sigaddset(&s, SIGVTALRM);
	sigprocmask(SIG_BLOCK, &s, &old);
	ok = w->tail - w->head < WIRE_QUEUE;
	if (ok) {
		memcpy(w->q[w->tail % WIRE_QUEUE], f, len);
		w->q_len[w->tail % WIRE_QUEUE] = len;
		w->tail++;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ok;
}

static const uint8_t *wire_last(unsigned i, size_t *len)
{
	unsigned k = (unsigned)((W[i].sent - 1) % WIRE_LOG);
	*len = W[i].log_len[k];
	return W[i].log[k];
}

/* ---- ports and the machine ---- */

static struct rhine_model *model_at(uint16_t port, uint32_t *off)
{
	unsigned i;
	for (i = 0; i < nnic; i++) {
		uint32_t bar = pci_model_peek32(M[i].pci_fn, PCI_BAR0) & PCI_BAR_IO_MASK;
		if (bar && port >= bar && port - bar < RHINE_MODEL_REGS) {
			*off = port - bar;
			return &M[i];
		}
	}
	return NULL;
}

static uint32_t port_in(void *ctx, uint16_t port, unsigned bytes)
{
	uint32_t off, v;
	struct rhine_model *m = model_at(port, &off);
	(void)ctx;
	if (!m)
		return bytes == 4 ? 0xFFFFFFFFu : (1u << (8 * bytes)) - 1;
	in_model = 1;
	v = rhine_model_io_read(m, off, bytes);
	in_model = 0;
	return v;
}

static void port_out(void *ctx, uint16_t port, uint32_t val, unsigned bytes)
{
	uint32_t off;
	struct rhine_model *m = model_at(port, &off);
	(void)ctx;
	if (!m)
		return;
	in_model = 1;
	rhine_model_io_write(m, off, val, bytes);
	in_model = 0;
}

typedef void (*cfg_fn)(struct rhine_model *m, unsigned i);

static void cfg_lazy(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->lazy = true;
}

/*
 * A net5501-like machine with n Rhines at 00:06.0.. (cfg, if any, changes
 * each model before it powers on), hw_host wired to them, and pci_scan()
 * run. Returns the kernel's pci_dev of NIC 0.
 */
static const struct pci_dev *machine(unsigned n, cfg_fn cfg)
{
	unsigned i;
	int nd, k;
	const struct pci_dev *d;

	hw_host_reset();
	pci_model_init(&PM);
	pci_model_add(&PM, 0, 1, 0, 0x1022, 0x2080, 0x06000033u, PCI_HDR_NORMAL);
	memset(W, 0, sizeof(W));
	nnic = n;
	for (i = 0; i < n; i++) {
		struct rhine_model *m = &M[i];
		rhine_model_init(m);
		m->io_base = (uint16_t)(0xE100 + 0x100 * i);
		m->mmio_base = 0xA0004000u + 0x100 * i;
		m->eeprom_par[5] = (uint8_t)(1 + i);
		m->wire = (struct rhine_model_wire){ wire_send, wire_poll, NULL, &W[i] };
		if (cfg)
			cfg(m, i);
		memcpy(own_mac[i], m->eeprom_par, 6);
		if (!rhine_model_add_pci(m, &PM, 0, 6 + i, 0, 0x0000)) {
			fprintf(stderr, "rhine_test: the PCI model has no room\n");
			exit(2);
		}
		hw_host_add_mmio(m->mmio_base, RHINE_MODEL_REGS, rhine_model_mmio_read,
				 rhine_model_mmio_write, m);
	}
	hw_host_set_pci(&PM);
	hw_host_set_ports(port_in, port_out, NULL);
	pci_scan();
	d = pci_devices(&nd);
	for (k = 0; k < nd; k++)
		if (d[k].vendor == RHINE_VENDOR)
			return &d[k];
	fprintf(stderr, "rhine_test: pci_scan found no Rhine\n");
	exit(2);
}

static const struct pci_dev *nic_dev(unsigned i)
{
	int nd, k;
	const struct pci_dev *d = pci_devices(&nd);
	for (k = 0; k < nd; k++)
		if (d[k].vendor == RHINE_VENDOR && d[k].dev == 6 + i)
			return &d[k];
	return NULL;
}

/* ---- frames ---- */

/* A frame to dst from src, EtherType 0x88b5 (local experimental), len bytes, payload from seed. */
static size_t make_frame(uint8_t *f, size_t len, const uint8_t dst[6], const uint8_t src[6], unsigned seed)
{
	size_t i;
	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	f[12] = 0x88;
	f[13] = 0xB5;
	for (i = 14; i < len; i++)
		f[i] = (uint8_t)(seed * 31 + i * 7 + (i >> 8));
	return len;
}

static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t peer[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

/* Race test frames describe themselves: seq at 14..17, length at 18..19, the rest from both. */
static size_t race_frame(uint8_t *f, unsigned seq, size_t len, const uint8_t dst[6])
{
	size_t i;
	memcpy(f, dst, 6);
	memcpy(f + 6, peer, 6);
	f[12] = 0x88;
	f[13] = 0xB5;
	f[14] = (uint8_t)seq;
	f[15] = (uint8_t)(seq >> 8);
	f[16] = (uint8_t)(seq >> 16);
	f[17] = (uint8_t)(seq >> 24);
	f[18] = (uint8_t)len;
	f[19] = (uint8_t)(len >> 8);
	for (i = 20; i < len; i++)
		f[i] = (uint8_t)(seq * 13 + i);
	return len;
}

static bool frame_ok(const uint8_t *f, size_t len)
{
	size_t want, i;
	unsigned seq;

	if (len < 60)
		return false;
	seq = f[14] | f[15] << 8 | f[16] << 16 | (unsigned)f[17] << 24;
	want = f[18] | f[19] << 8;
	if (want < 20 || want > 1514 || len != (want < 60 ? 60 : want))
		return false;
	for (i = 20; i < want; i++)
		if (f[i] != (uint8_t)(seq * 13 + i))
			return false;
	for (; i < len; i++)
		if (f[i] != 0)
			return false;
	return true;
}

/* ---- harness plumbing ---- */

#define RUN(fn)                 \
	do {                    \
		tap_phase = #fn; \
		fn();           \
	} while (0)

/* No protocol slip on model i: everything a driver must never make the chip see. */
static void check_slips(unsigned i, const char *when)
{
	const struct rhine_model_stats *s = &M[i].st;
	okf(s->imr_set == 0 && s->desc_unaligned == 0 && s->buf_unaligned == 0 && s->write_in_reset == 0 &&
		    s->d3_access == 0 && s->dma_errors == 0 && s->no_decode == 0 && s->no_master == 0,
	    "%s: no protocol slip on the model (IMR set %lu, misaligned descriptors %lu, buffers %lu, writes during reset %lu, accesses in D3 %lu, DMA errors %lu, no decode %lu, no bus master %lu)",
	    when, s->imr_set, s->desc_unaligned, s->buf_unaligned, s->write_in_reset, s->d3_access,
	    s->dma_errors, s->no_decode, s->no_master);
}

static int open0(struct netdev *d, cfg_fn cfg)
{
	const struct pci_dev *p = machine(1, cfg);
	return rhine_nic_driver.open(p, d);
}

/* ---- tests ---- */

static void test_match(void)
{
	const struct nic_driver *drv = &rhine_nic_driver;
	okf(drv->match(0x1106, 0x3043) && drv->match(0x1106, 0x3065) && drv->match(0x1106, 0x3106) &&
		    drv->match(0x1106, 0x3053),
	    "match: 1106:3043, 1106:3065, 1106:3106 and 1106:3053");
	okf(!drv->match(0x1106, 0x3119) && !drv->match(0x8086, 0x100e) && !drv->match(0x3053, 0x1106) &&
		    !drv->match(0x1106, 0x3054),
	    "match: not VT6122 1106:3119, e1000 8086:100e, swapped IDs or a neighbour ID");
	okf(strcmp(drv->kind, "via-rhine") == 0, "kind is via-rhine (as kernel/platform/nic.c names it)");
}

static void test_open(void)
{
	struct netdev d;
	int rc = open0(&d, NULL);
	struct rhine_model *m = &M[0];
	uint16_t cmd = (uint16_t)pci_model_peek32(m->pci_fn, PCI_CMD);
	uint32_t rda = rhine_model_rda(m), tda = rhine_model_tda(m);

	okf(rc == 0 && d.why[0] == '\0', "open: returns 0 with no reason (rc %d, why '%s')", rc, d.why);
	okf(strcmp(d.kind, "via-rhine") == 0 && strcmp(d.bdf, "00:06.0") == 0 && d.send && d.poll &&
		    d.link_up && d.priv,
	    "open: fills kind '%s', bdf '%s' and the functions", d.kind, d.bdf);
	okf(memcmp(d.mac, own_mac[0], 6) == 0,
	    "open: station address %02x:%02x:%02x:%02x:%02x:%02x from the EEPROM", d.mac[0], d.mac[1],
	    d.mac[2], d.mac[3], d.mac[4], d.mac[5]);
	okf((cmd & (PCI_CMD_IO | PCI_CMD_MASTER)) == (PCI_CMD_IO | PCI_CMD_MASTER),
	    "open: I/O decoding and bus mastering on (PCI command 0x0000 -> 0x%04x)", cmd);
	okf(m->st.resets == 1 && m->st.forced_resets == 0 && m->st.eeprom_reloads == 1,
	    "open: one software reset, no forced reset, one EEPROM reload (%lu, %lu, %lu)", m->st.resets,
	    m->st.forced_resets, m->st.eeprom_reloads);
	okf(rda != 0 && tda != 0 && rda % 16 == 0 && tda % 16 == 0 && rda != tda,
	    "open: receive and transmit rings 16-byte aligned (RDA 0x%08x, TDA 0x%08x)", rda, tda);
	okf(m->reg[RHINE_RCR] == RHINE_RCR_BCAST,
	    "open: receive filter broadcast only, not promiscuous (RCR 0x%02x)", m->reg[RHINE_RCR]);
	okf(m->reg[RHINE_CR0] == (RHINE_CR0_START | RHINE_CR0_RXON | RHINE_CR0_TXON) &&
		    (m->reg[RHINE_CR1] & RHINE_CR1_DPOLL) && m->reg[RHINE_IMR] == 0 && m->reg[RHINE_IMR + 1] == 0,
	    "open: CR0 start + RX on + TX on (0x%02x), CR1 no TX auto-poll (0x%02x), IMR 0",
	    m->reg[RHINE_CR0], m->reg[RHINE_CR1]);
	okf(m->reg[RHINE_CR1] & RHINE_CR1_FDX,
	    "open: full duplex with a partner offering 100 full duplex (CR1 0x%02x; BMSR's latched link bit read twice)",
	    m->reg[RHINE_CR1]);
	okf((m->reg[RHINE_MIICR] & RHINE_MIICR_MAUTO) && d.link_up(&d),
	    "open: MII auto-poll on (MIICR 0x%02x), link_up true", m->reg[RHINE_MIICR]);
	check_slips(0, "open");
}

/* The frame last on wire i is f (len bytes) padded with zeros to 60. */
static bool wire_has(unsigned i, const uint8_t *f, size_t len)
{
	size_t wl, k, want = len < 60 ? 60 : len;
	const uint8_t *w = wire_last(i, &wl);

	if (W[i].sent == 0 || wl != want || memcmp(w, f, len) != 0)
		return false;
	for (k = len; k < wl; k++)
		if (w[k] != 0)
			return false;
	return true;
}

static void test_send(void)
{
	static const size_t lens[] = { 14, 59, 60, 1514 };
	uint8_t f[1514];
	struct netdev d;
	unsigned i;
	int rc;

	open0(&d, NULL);
	/* every transmit buffer holds a long frame first: padding must not show it */
	for (i = 0; i < RHINE_TX_DESC; i++)
		d.send(&d, f, make_frame(f, 1514, peer, d.mac, 100 + i));
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		size_t wl;
		make_frame(f, lens[i], peer, d.mac, (unsigned)lens[i]);
		rc = d.send(&d, f, lens[i]);
		wire_last(0, &wl);
		okf(rc == 0 && wire_has(0, f, lens[i]),
		    "send: a %u-byte frame leaves as %u bytes: its own bytes, then zeros to 60 (rc %d; the buffer held a 1514-byte frame)",
		    (unsigned)lens[i], (unsigned)wl, rc);
	}
	okf(M[0].st.tx_runts == 0 && M[0].st.tx_frames == 12 && d.stats.tx_frames == 12 && d.stats.tx_errors == 0,
	    "send: 12 frames on the wire, none under 60 bytes (model %lu frames, %lu runts; driver %lu sent, %lu errors)",
	    M[0].st.tx_frames, M[0].st.tx_runts, d.stats.tx_frames, d.stats.tx_errors);
	{
		unsigned long before = W[0].sent;
		int r13 = d.send(&d, f, 13), r1515 = d.send(&d, f, 1515), rnull = d.send(&d, NULL, 60);
		okf(r13 == NETDEV_EINVAL && r1515 == NETDEV_EINVAL && rnull == NETDEV_EINVAL &&
			    W[0].sent == before && strstr(d.why, "refused") != NULL,
		    "send: 13 bytes, 1515 bytes and no frame refused with NETDEV_EINVAL, nothing sent (%d %d %d; why '%s')",
		    r13, r1515, rnull, d.why);
	}
	check_slips(0, "send");
}

static void test_receive(void)
{
	static const uint8_t other[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x99 };
	static const uint8_t mcast[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
	uint8_t f[1514], buf[1600];
	struct netdev d;
	int n1, n2, n3, n4, n5, n6, n7;

	open0(&d, NULL);
	n1 = d.poll(&d, buf, sizeof(buf));
	okf(n1 == 0, "receive: poll with nothing waiting returns 0 (%d)", n1);
	make_frame(f, 60, d.mac, peer, 1);
	wire_put(0, f, 60);
	n2 = d.poll(&d, buf, sizeof(buf));
	okf(n2 == 60 && memcmp(buf, f, 60) == 0,
	    "receive: a 60-byte frame to the station address comes back as 60 bytes, the CRC stripped (%d)", n2);
	make_frame(f, 342, bcast, peer, 2);
	wire_put(0, f, 342);
	n3 = d.poll(&d, buf, sizeof(buf));
	okf(n3 == 342 && memcmp(buf, f, 342) == 0, "receive: a 342-byte broadcast frame (%d)", n3);
	make_frame(f, 100, other, peer, 3);
	wire_put(0, f, 100);
	make_frame(f, 100, mcast, peer, 4);
	wire_put(0, f, 100);
	n4 = d.poll(&d, buf, sizeof(buf));
	okf(n4 == 0 && M[0].st.rx_filtered == 2,
	    "receive: frames to another unicast address and to a multicast group are filtered by the chip (%d, %lu filtered)",
	    n4, M[0].st.rx_filtered);
	make_frame(f, 200, d.mac, peer, 5);
	wire_put(0, f, 200);
	n5 = d.poll(&d, buf, 100);
	make_frame(f, 100, d.mac, peer, 6);
	wire_put(0, f, 100);
	n6 = d.poll(&d, buf, 100);
	okf(n5 == 0 && n6 == 100 && memcmp(buf, f, 100) == 0 && d.stats.rx_dropped == 1,
	    "receive: a 200-byte frame for a 100-byte buffer is dropped and counted, the next 100-byte frame fits (%d, %d, dropped %lu)",
	    n5, n6, d.stats.rx_dropped);
	make_frame(f, 1514, d.mac, peer, 7);
	wire_put(0, f, 1514);
	n7 = d.poll(&d, buf, sizeof(buf));
	okf(n7 == 1514 && memcmp(buf, f, 1514) == 0 && d.stats.rx_frames == 4,
	    "receive: a 1514-byte frame (%d); 4 frames counted (%lu)", n7, d.stats.rx_frames);
	check_slips(0, "receive");
}

static void test_wrap(void)
{
	uint8_t f[1514], g[1514], buf[1600];
	struct netdev d;
	unsigned i, tx_bad = 0, rx_bad = 0;

	open0(&d, NULL);
	for (i = 0; i < 2000; i++) {
		size_t lt = 14 + (i * 37) % 1501, lr = 60 + (i * 53) % 1455;
		int n;
		make_frame(f, lt, peer, d.mac, i);
		if (d.send(&d, f, lt) != 0 || !wire_has(0, f, lt))
			tx_bad++;
		make_frame(g, lr, d.mac, peer, i + 7);
		wire_put(0, g, lr);
		n = d.poll(&d, buf, sizeof(buf));
		if (n != (int)lr || memcmp(buf, g, lr) != 0)
			rx_bad++;
	}
	okf(tx_bad == 0 && d.stats.tx_frames == 2000 && M[0].st.tx_frames == 2000,
	    "rings: 2000 frames of 14..1514 bytes sent through 8 descriptors, each on the wire as sent (%u wrong)",
	    tx_bad);
	okf(rx_bad == 0 && d.stats.rx_frames == 2000 && d.stats.rx_dropped == 0,
	    "rings: 2000 frames of 60..1514 bytes received through 4 descriptors, each as sent (%u wrong, %lu dropped)",
	    rx_bad, d.stats.rx_dropped);
	check_slips(0, "rings");
}

static void cfg_stall(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->faults = RHINE_FAULT_RX_STALL;
}

/* 100 frames arrive at once, nobody polling; then the ring must work again. */
static void flood_run(const char *label, cfg_fn cfg)
{
	const struct hw_host_stats *hs;
	uint8_t f[60], buf[1600];
	struct netdev d;
	unsigned i, got = 0, order_bad = 0, back = 0;
	unsigned long most = 0;

	open0(&d, cfg);
	hs = hw_host_stats();
	/* frames that arrive now, on the cable (not waiting in a far NIC's ring) */
	for (i = 0; i < 100; i++) {
		make_frame(f, 60, bcast, peer, 0);
		f[14] = (uint8_t)i;
		rhine_model_receive(&M[0], f, 60);
	}
	for (i = 0; i < 20; i++) {
		unsigned long before = hs->port_ins + hs->port_outs, used;
		int n = d.poll(&d, buf, sizeof(buf));
		used = hs->port_ins + hs->port_outs - before;
		if (used > most)
			most = used;
		if (n > 0 && buf[14] != got++)
			order_bad++;
	}
	okf(got == 4 && order_bad == 0 && d.stats.rx_dropped == 96 && M[0].st.rx_missed == 96,
	    "%s: 100 frames at once: the first 4 delivered in order, 96 dropped and counted from the missed tally (delivered %u, dropped %lu, model missed %lu)",
	    label, got, d.stats.rx_dropped, M[0].st.rx_missed);
	okf(most <= 32, "%s: every poll returns after at most 32 register accesses (most %lu)", label, most);
	for (i = 0; i < 10; i++) {
		int n;
		make_frame(f, 60, d.mac, peer, 50 + i);
		wire_put(0, f, 60);
		n = d.poll(&d, buf, sizeof(buf));
		if (n == 60 && memcmp(buf, f, 60) == 0)
			back++;
	}
	okf(back == 10, "%s: after the flood 10 frames in a row are received again (%u)", label, back);
	check_slips(0, label);
}

static void test_flood(void)
{
	flood_run("flood", NULL);
	flood_run("flood, receiver stalls after a loss (rx-stall)", cfg_stall);
}

static void cfg_model_flood(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->faults = RHINE_FAULT_RX_FLOOD;
}

static void test_model_flood(void)
{
	uint8_t f[100], buf[1600];
	struct netdev d;
	unsigned i;
	int worst = 0;

	open0(&d, cfg_model_flood);
	for (i = 0; i < 200; i++) {
		int n = d.poll(&d, buf, sizeof(buf));
		if (n < worst)
			worst = n;
	}
	make_frame(f, 100, peer, d.mac, 9);
	okf(worst == 0 && d.stats.rx_frames > 0 && d.stats.rx_dropped > 0 &&
		    d.stats.rx_frames + d.stats.rx_dropped <= M[0].st.rx_flood && d.send(&d, f, 100) == 0 &&
		    wire_has(0, f, 100),
	    "rx-flood: 200 polls under a broadcast flood of %lu frames return (received %lu, dropped %lu, no error), and a frame still goes out",
	    M[0].st.rx_flood, d.stats.rx_frames, d.stats.rx_dropped);
}

static void cfg_rx_errors(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->faults = RHINE_FAULT_RX_ERRORS;
}

static void test_rx_errors(void)
{
	uint8_t f[80], buf[1600];
	struct netdev d;
	unsigned i, got = 0, wrong = 0;

	open0(&d, cfg_rx_errors);
	for (i = 0; i < 9; i++) {
		int n;
		make_frame(f, 80, d.mac, peer, i);
		wire_put(0, f, 80);
		n = d.poll(&d, buf, sizeof(buf));
		if (n == 80) {
			got++;
			if (memcmp(buf, f, 80) != 0 || i % 3 == 2)
				wrong++;
		} else if (n != 0 || i % 3 != 2) {
			wrong++;
		}
	}
	okf(got == 6 && wrong == 0 && d.stats.rx_dropped == 3 && M[0].st.rx_errors == 3,
	    "rx-errors: of 9 frames every third has a CRC error: 6 delivered, 3 dropped and counted (%u, %u wrong, dropped %lu)",
	    got, wrong, d.stats.rx_dropped);
}

static void cfg_reset_stuck(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->faults = RHINE_FAULT_RESET_STUCK;
}

static void cfg_reset_force(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->faults = RHINE_FAULT_RESET_NEEDS_FORCE;
}

static void test_reset(void)
{
	struct netdev d;
	const struct pci_dev *p = machine(1, cfg_reset_stuck);
	uint64_t budget = 2 * (tsc_ticks_for_us(RHINE_RESET_US) / TSC_STEP + 2) + 100;
	unsigned long t0 = hw_host_stats()->tsc_reads, used;
	int rc = rhine_nic_driver.open(p, &d);

	used = hw_host_stats()->tsc_reads - t0;
	okf(rc == NETDEV_ETIMEOUT && strstr(d.why, "reset did not finish: CR1=0x80") &&
		    strstr(d.why, "nor forced (MISC_CR1 bit 6") && strstr(d.why, "ISR=0x") &&
		    M[0].st.forced_resets == 1,
	    "reset-stuck: open gives NETDEV_ETIMEOUT naming CR1 and the forced reset (rc %d, why '%s')", rc,
	    d.why);
	okf(used <= budget, "reset-stuck: within two bounded waits (%lu TSC reads, budget %llu)", used,
	    (unsigned long long)budget);

	rc = open0(&d, cfg_reset_force);
	okf(rc == 0 && M[0].st.forced_resets == 1 && M[0].st.resets == 1,
	    "reset-needs-force: the forced reset (MISC_CR1 bit 6) finishes it and open succeeds (rc %d, '%s')", rc,
	    d.why);
}

static void cfg_slow_once(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->reset_polls = 1;
	m->eeprom_polls = 1;
}

static void test_last_look(void)
{
	struct netdev d;
	const struct pci_dev *p = machine(1, cfg_slow_once);
	int rc;

	/* the CPU is away past every deadline between two polls: only the last look sees the chip done */
	hw_host_set_tsc_step(tsc_ticks_for_us(RHINE_RESET_US) + 1);
	rc = rhine_nic_driver.open(p, &d);
	okf(rc == 0 && M[0].st.resets == 1,
	    "last look: a reset, EEPROM reload and MII access seen done only after the deadline still succeed (rc %d, '%s')",
	    rc, d.why);
}

static void cfg_eeprom_stuck(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->faults = RHINE_FAULT_EEPROM_STUCK;
}

static void cfg_bad_mac(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->faults = RHINE_FAULT_BAD_MAC;
}

static void cfg_d3(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->faults = RHINE_FAULT_D3;
}

static void cfg_isolated(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->phy_isolated = true;
}

static void test_faults(void)
{
	struct netdev d;
	int rc;

	rc = open0(&d, cfg_eeprom_stuck);
	okf(rc == NETDEV_ETIMEOUT && strstr(d.why, "EEPROM reload did not finish: EECSR=0x20"),
	    "eeprom-stuck: NETDEV_ETIMEOUT with EECSR (rc %d, why '%s')", rc, d.why);

	rc = open0(&d, cfg_bad_mac);
	okf(rc == NETDEV_EHW && strstr(d.why, "01:00:24:cb:55:01") && strstr(d.why, "not a unicast"),
	    "bad-mac: a multicast station address fails the open with the address (rc %d, why '%s')", rc, d.why);

	rc = open0(&d, cfg_d3);
	okf(rc == 0 && (pci_model_peek32(M[0].pci_fn, 0xE0) & 3) == 0 && M[0].st.power_ups == 1 &&
		    (M[0].reg[RHINE_STICKHW] & RHINE_STICKHW_DS) == 0 &&
		    pci_model_peek32(M[0].pci_fn, PCI_BAR0) == (0xE100u | PCI_BAR_SPACE_IO) && d.link_up(&d),
	    "d3: a chip left in D3hot is brought to D0 (PMCSR, STICKHW power bits 0), BAR0 kept, open succeeds (rc %d, '%s')",
	    rc, d.why);
	check_slips(0, "d3");

	rc = open0(&d, cfg_isolated);
	okf(rc == 0 && !(M[0].phy[MII_BMCR] & MII_BMCR_ISOLATE) && d.link_up(&d),
	    "PHY isolated at power-on: open clears BMCR isolate and the link is up (rc %d, BMCR 0x%04x)", rc,
	    M[0].phy[MII_BMCR]);

	{
		const struct pci_dev *p = machine(1, NULL);
		pci_model_poke32(M[0].pci_fn, PCI_BAR0, PCI_BAR_SPACE_IO);
		pci_scan();
		p = nic_dev(0);
		rc = rhine_nic_driver.open(p, &d);
		okf(rc == NETDEV_EHW && strstr(d.why, "no usable I/O BAR") && M[0].st.resets == 0,
		    "no I/O BAR: open fails before touching the chip (rc %d, why '%s')", rc, d.why);
	}
}

static void cfg_partner_100hd(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->partner = 0x40A1;	/* 100 and 10 half duplex */
}

static void cfg_partner_10(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->partner = 0x4061;	/* 10 full and half duplex */
}

static void cfg_no_link(struct rhine_model *m, unsigned i)
{
	(void)i;
	m->link = false;
}

static void test_duplex(void)
{
	struct netdev d;
	int rc;

	rc = open0(&d, cfg_partner_100hd);
	okf(rc == 0 && !(M[0].reg[RHINE_CR1] & RHINE_CR1_FDX),
	    "duplex: a partner with 100/10 half duplex only: CR1 half duplex (0x%02x)", M[0].reg[RHINE_CR1]);
	rc = open0(&d, cfg_partner_10);
	okf(rc == 0 && (M[0].reg[RHINE_CR1] & RHINE_CR1_FDX),
	    "duplex: a partner with 10 full and half duplex: CR1 full duplex (0x%02x)", M[0].reg[RHINE_CR1]);
}

static void test_link_down(void)
{
	uint8_t f[100];
	struct netdev d;
	int rc, r1, r2, r3;

	rc = open0(&d, cfg_no_link);
	okf(rc == 0 && d.why[0] == '\0' && !d.link_up(&d) && !(M[0].reg[RHINE_CR1] & RHINE_CR1_FDX),
	    "link down: open succeeds, link_up false, half duplex (rc %d, '%s')", rc, d.why);
	make_frame(f, 100, peer, d.mac, 1);
	r1 = d.send(&d, f, 100);
	r2 = d.send(&d, f, 100);
	okf(r1 == 0 && r2 == 0 && W[0].sent == 0 && M[0].st.tx_carrier == 2 && d.stats.tx_errors == 1,
	    "link down: sends return 0, nothing reaches the wire, the carrier loss is counted when the descriptor comes back (wire %lu, carrier %lu, tx_errors %lu)",
	    W[0].sent, M[0].st.tx_carrier, d.stats.tx_errors);
	rhine_model_set_link(&M[0], true);
	make_frame(f, 100, peer, d.mac, 2);
	r3 = d.send(&d, f, 100);
	okf(d.link_up(&d) && r3 == 0 && W[0].sent == 1 && wire_has(0, f, 100) && d.stats.tx_errors == 2,
	    "link down: once the cable is back link_up is true and the next frame leaves (the transmitter restarted; wire %lu, tx_errors %lu)",
	    W[0].sent, d.stats.tx_errors);
	check_slips(0, "link down");
}

static void test_four(void)
{
	struct netdev d[NMAX];
	uint8_t f[NMAX][64], buf[1600];
	unsigned i, opened = 0, own = 0, rx = 0;

	machine(NMAX, NULL);
	for (i = 0; i < NMAX; i++)
		if (rhine_nic_driver.open(nic_dev(i), &d[i]) == 0 && d[i].mac[5] == i + 1)
			opened++;
	for (i = 0; i < NMAX; i++) {
		make_frame(f[i], 64, peer, d[i].mac, i);
		d[i].send(&d[i], f[i], 64);
	}
	for (i = 0; i < NMAX; i++)
		if (W[i].sent == 1 && wire_has(i, f[i], 64))
			own++;
	make_frame(f[0], 64, d[2].mac, peer, 77);
	wire_put(2, f[0], 64);
	for (i = 0; i < NMAX; i++) {
		int n = d[i].poll(&d[i], buf, sizeof(buf));
		if (n > 0)
			rx += i == 2 ? 1 : 100;
	}
	okf(opened == NMAX && own == NMAX && rx == 1,
	    "four NICs: each opens with its own address, sends on its own wire and receives only its own frames (%u opened, %u wires right, rx code %u)",
	    opened, own, rx);
	for (i = 0; i < NMAX; i++)
		check_slips(i, "four NICs");
}

static void test_reopen(void)
{
	uint8_t f[60];
	struct netdev d;
	const struct pci_dev *p = machine(1, NULL);
	int r1, r2;

	r1 = rhine_nic_driver.open(p, &d);
	make_frame(f, 60, peer, d.mac, 1);
	d.send(&d, f, 60);
	d.send(&d, f, 60);
	r2 = rhine_nic_driver.open(p, &d);
	make_frame(f, 60, peer, d.mac, 2);
	okf(r1 == 0 && r2 == 0 && M[0].st.resets == 2 && d.send(&d, f, 60) == 0 && wire_has(0, f, 60) &&
		    d.stats.tx_frames == 1,
	    "reopen: a second open resets the chip again, restarts the rings and sends (%d %d, resets %lu)", r1,
	    r2, M[0].st.resets);
}

static void test_tx_stuck(void)
{
	uint8_t f[60];
	struct netdev d;
	unsigned i, ok8 = 0;
	uint64_t budget = tsc_ticks_for_us(RHINE_TX_WAIT_US) / TSC_STEP + 200;
	unsigned long t0, used;
	int rc;

	/* a lazy model nobody steps: the chip never gives a transmit descriptor back */
	open0(&d, cfg_lazy);
	make_frame(f, 60, peer, d.mac, 1);
	for (i = 0; i < RHINE_TX_DESC; i++)
		ok8 += d.send(&d, f, 60) == 0;
	t0 = hw_host_stats()->tsc_reads;
	rc = d.send(&d, f, 60);
	used = hw_host_stats()->tsc_reads - t0;
	okf(ok8 == RHINE_TX_DESC && rc == NETDEV_EBUSY && strstr(d.why, "no free transmit descriptor") &&
		    strstr(d.why, "des0=0x80000000") && used <= budget,
	    "transmitter stuck: 8 frames queue, the 9th gives NETDEV_EBUSY within its bounded wait (%lu TSC reads, budget %llu; why '%s')",
	    used, (unsigned long long)budget, d.why);
}

/* ---- the wire to a real NIC (emu/nic_wire.c) over a test double ---- */

static struct {
	int open_rc;			/* what open returns */
	bool down;			/* its link is down */
	unsigned opens;
	int send_rc;
	uint8_t sent[8][FRAME_MAX];
	size_t sent_len[8];
	unsigned nsent;
	uint8_t q[8][FRAME_MAX];
	size_t q_len[8];
	unsigned qh, qt;
} fake;
static struct nic_wire fake_wire;

static int fake_send(struct netdev *d, const void *f, size_t len)
{
	(void)d;
	if (fake.send_rc == 0 && fake.nsent < 8) {
		memcpy(fake.sent[fake.nsent], f, len);
		fake.sent_len[fake.nsent++] = len;
	}
	return fake.send_rc;
}

static int fake_poll(struct netdev *d, void *buf, size_t cap)
{
	size_t n;
	(void)d;
	if (fake.qh == fake.qt)
		return 0;
	n = fake.q_len[fake.qh % 8];
	if (n > cap)
		return NETDEV_EINVAL;
	memcpy(buf, fake.q[fake.qh++ % 8], n);
	return (int)n;
}

static bool fake_link_up(struct netdev *d)
{
	(void)d;
	return !fake.down;
}

static int fake_open(struct nic_wire *w)
{
	fake.opens++;
	w->nd.kind = "fake";
	w->nd.send = fake_send;
	w->nd.poll = fake_poll;
	w->nd.link_up = fake_link_up;
	if (fake.open_rc)
		fmt_snprintf(w->nd.why, sizeof(w->nd.why), "the fake NIC refuses to open");
	return fake.open_rc;
}

static void cfg_fake_wire(struct rhine_model *m, unsigned i)
{
	(void)i;
	nic_wire_init(&fake_wire, fake_open, NULL);
	m->wire = nic_wire_model_side(&fake_wire);
}

static void test_wire(void)
{
	static const uint8_t arp[42] = { 0x00, 0x00, 0x24, 0xcb, 0x55, 0x01, 0x52, 0x54, 0x00, 0x12, 0x35, 0x02,
					 0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02 };
	uint8_t f[100], buf[1600];
	struct netdev d;
	const struct pci_dev *p;
	unsigned opens_before_start;
	int rc, n, k;

	memset(&fake, 0, sizeof(fake));
	p = machine(1, cfg_fake_wire);
	for (k = 0; k < 6; k++)
		(void)hw_inb((uint16_t)(0xE100 + k));	/* what kernel/platform/nic.c reads at identity time */
	opens_before_start = fake.opens;
	rc = rhine_nic_driver.open(p, &d);
	make_frame(f, 42, peer, d.mac, 3);
	d.send(&d, f, 42);
	memcpy(fake.q[fake.qt % 8], arp, sizeof(arp));
	fake.q_len[fake.qt++ % 8] = sizeof(arp);
	n = d.poll(&d, buf, sizeof(buf));
	okf(rc == 0 && opens_before_start == 0 && fake.opens == 1 && fake_wire.state == NIC_WIRE_OPEN,
	    "wire: the real NIC is opened once, when the driver first uses the Rhine, not when its address is read (%u then %u opens)",
	    opens_before_start, fake.opens);
	okf(fake.nsent == 1 && fake.sent_len[0] == 60 && memcmp(fake.sent[0], f, 42) == 0 && fake_wire.to_real == 1,
	    "wire: a 42-byte frame the driver sends reaches the real NIC as the model sent it, 60 bytes (%u frames, %u bytes)",
	    fake.nsent, (unsigned)fake.sent_len[0]);
	okf(n == 60 && memcmp(buf, arp, sizeof(arp)) == 0 && buf[42] == 0 && buf[59] == 0 && fake_wire.padded == 1,
	    "wire: a 42-byte frame from the real NIC arrives padded to 60 bytes, as on a cable (%d, padded %lu)", n,
	    fake_wire.padded);
	fake.send_rc = NETDEV_EBUSY;
	rc = d.send(&d, f, 60);
	okf(rc == 0 && fake_wire.to_real_errors == 1 && d.stats.tx_errors == 0,
	    "wire: a frame the real NIC refuses is counted on the wire and lost, as on a cable (rc %d, refused %lu)", rc,
	    fake_wire.to_real_errors);
	{
		bool up1 = d.link_up(&d), down, up2;
		fake.down = true;
		down = d.link_up(&d);
		fake.down = false;
		up2 = d.link_up(&d);
		okf(up1 && !down && up2,
		    "wire: the Rhine's link follows the real NIC's carrier (up %d, real NIC down: %d, back: %d)", up1,
		    down, up2);
	}

	memset(&fake, 0, sizeof(fake));
	fake.open_rc = NETDEV_ETIMEOUT;
	p = machine(1, cfg_fake_wire);
	rc = rhine_nic_driver.open(p, &d);
	n = d.poll(&d, buf, sizeof(buf));
	okf(rc == 0 && fake_wire.state == NIC_WIRE_FAILED && strstr(fake_wire.why, "refuses to open") &&
		    d.send(&d, f, 60) == 0 && n == 0 && fake.opens == 1,
	    "wire: a real NIC that does not open leaves the wire dead with the reason, tried once (state %d, '%s')",
	    (int)fake_wire.state, fake_wire.why);
}

/* ---- the DMA engine running concurrently ---- */

static struct rhine_model *volatile race_model;
static volatile unsigned long race_steps;


/*
 * The driver's frame copies (memcpy into a transmit buffer, out of a
 * receive buffer) run one model step half way through while armed: the
 * engine then always moves at the worst moment for a driver that handed a
 * descriptor over too early, whatever the timer does. This program's
 * memcpy replaces the C library's for the code linked into it (the
 * driver, the model, the harness).
 */
static volatile int copy_step_armed;
static unsigned long copy_steps;

void *memcpy(void *dst, const void *src, size_t n)
{
	volatile unsigned char *d = dst;
	const volatile unsigned char *s = src;
	size_t i, half = n / 2;

	for (i = 0; i < half; i++)
		d[i] = s[i];
	if (copy_step_armed && n >= 14 && !in_model && race_model) {
		in_model = 1;
		rhine_model_step(race_model);
		in_model = 0;
		copy_steps++;
	}
	for (; i < n; i++)
		d[i] = s[i];
	return dst;
}

static void on_vtalrm(int sig)
{
	(void)sig;
	if (in_model || !race_model)
		return;
	in_model = 1;
	rhine_model_step(race_model);
	in_model = 0;
	race_steps++;
}

/* Spins for 0..150 us (wall clock), so the engine is sometimes behind the driver, sometimes idle. */
static void pace(unsigned i)
{
	struct timespec t0, t;
	long ns = (long)((i * 2654435761u) % 150) * 1000;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < ns);
}


/* One model step now, outside the driver: the engine fetches what the chip owns. */
static void step_now(void)
{
	in_model = 1;
	rhine_model_step(&M[0]);
	in_model = 0;
}

static void test_race(void)
{
	struct itimerspec tv = { { 0, 50000 }, { 0, 50000 } }, off = { { 0, 0 }, { 0, 0 } };
	struct sigevent ev;
	timer_t timer;
	uint8_t f[1514], g[1514], buf[1600];
	struct netdev d;
	unsigned i, busy = 0, rx_got = 0, rx_bad = 0, k;
	int rc_open, rc;

	rc_open = open0(&d, cfg_lazy);
	W[0].check = true;
	signal(SIGVTALRM, on_vtalrm);
	race_model = &M[0];
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGVTALRM;
	if (timer_create(CLOCK_MONOTONIC, &ev, &timer) != 0 || timer_settime(timer, 0, &tv, NULL) != 0) {
		okf(false, "concurrent engine: a 50 us timer for the model's steps (timer_create failed)");
		return;
	}
#define RACE_FRAMES	3000
	/*
	 * Transmit: after each frame the engine fetches it (one step), so while
	 * the driver copies the next frame the step half way through sends the
	 * fetched one and looks at the next descriptor at once, as a busy
	 * transmitter does; the timer adds steps at random moments.
	 */
	for (i = 0; i < RACE_FRAMES; i++) {
		size_t lt = 20 + (i * 97) % 1495;
		pace(i);
		race_frame(f, i, lt, peer);
		copy_step_armed = 1;
		rc = d.send(&d, f, lt);
		copy_step_armed = 0;
		if (rc == NETDEV_EBUSY)
			busy++;
		step_now();
	}
	/* Receive: two frames per poll keep the ring full, so a descriptor handed back is the next one filled. */
	for (i = 0; i < RACE_FRAMES; i++) {
		size_t lr = 60 + (i * 61) % 1455;
		int n;
		pace(i);
		race_frame(g, 2 * i, lr, d.mac);
		wire_put(0, g, lr);
		race_frame(g, 2 * i + 1, 1514 - lr + 60, d.mac);
		wire_put(0, g, 1514 - lr + 60);
		copy_step_armed = 1;
		n = d.poll(&d, buf, sizeof(buf));
		copy_step_armed = 0;
		if (n > 0) {
			rx_got++;
			if (!frame_ok(buf, (size_t)n))
				rx_bad++;
		}
	}
	timer_settime(timer, 0, &off, NULL);
	timer_delete(timer);
	race_model = NULL;
	for (k = 0; k < 100000 && rhine_model_step(&M[0]); k++)
		;
	okf(rc_open == 0 && W[0].bad == 0 && W[0].good + busy == RACE_FRAMES && W[0].good >= RACE_FRAMES / 2,
	    "concurrent engine: %lu frames on the wire, each exactly as sent and in order (%lu wrong, %u refused busy)",
	    W[0].good, W[0].bad, busy);
	okf(rx_bad == 0 && rx_got >= RACE_FRAMES / 2,
	    "concurrent engine: %u frames received, each exactly as sent (%u wrong, %lu dropped)", rx_got, rx_bad,
	    d.stats.rx_dropped);
	okf(race_steps >= 100 && copy_steps >= RACE_FRAMES,
	    "concurrent engine: the model ran %lu times from the timer and %lu times half way through the driver's frame copies",
	    race_steps, copy_steps);
	check_slips(0, "concurrent engine");
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: rhine_test\n");
		return 2;
	}
	tap_guard("rhine_test", HANG_SECONDS, NULL);
	printf("TAP version 13\n");
	RUN(test_match);
	RUN(test_open);
	RUN(test_send);
	RUN(test_receive);
	RUN(test_wrap);
	RUN(test_flood);
	RUN(test_model_flood);
	RUN(test_rx_errors);
	RUN(test_reset);
	RUN(test_last_look);
	RUN(test_faults);
	RUN(test_duplex);
	RUN(test_link_down);
	RUN(test_four);
	RUN(test_reopen);
	RUN(test_tx_stuck);
	RUN(test_wire);
	RUN(test_race);
	return tap_plan();
}
