/* Register-level model of the VIA VT6105M Rhine III. See rhine_model.h (facts and [A]ssumptions). */
#include "emu/models/rhine_model.h"

#include <string.h>

#include "drivers/rhine/rhine_reg.h"
#include "kernel/platform/hw.h"
#include "lib/platform/pci_enum.h"
#include "lib/util/bytes.h"

static const char *const fault_names[RHINE_NFAULTS] = {
	"link-down", "reset-stuck", "reset-needs-force", "eeprom-stuck", "rx-flood",
	"bad-mac", "d3", "rx-errors", "rx-stall",
};

#define PMCSR		(RHINE_MODEL_PM_CAP + PCI_PM_CTRL)
#define WIRE_PER_TICK	64	/* frames taken from the wire per step: bounds a runaway source */
#define TX_PER_TICK	64	/* transmit descriptors per step: bounds a ring that never ends */
#define RX_MAX_FRAME	1518	/* 1514 and an 802.1Q tag; longer: a giant [A] */
#define BMSR_ABILITY	0x7809	/* 100FD 100HD 10FD 10HD, extended capability [A] */
#define BMSR_AN_ABLE	0x0008
#define BMSR_AN_DONE	0x0020

uint32_t rhine_model_fault(const char *name)
{
	unsigned i;
	for (i = 0; i < RHINE_NFAULTS; i++)
		if (strcmp(name, fault_names[i]) == 0)
			return 1u << i;
	return 0;
}

const char *rhine_model_fault_name(unsigned i)
{
	return i < RHINE_NFAULTS ? fault_names[i] : "?";
}

void rhine_model_init(struct rhine_model *m)
{
	static const uint8_t par[6] = { 0x00, 0x00, 0x24, 0xcb, 0x55, 0x01 };

	memset(m, 0, sizeof(*m));
	m->device = RHINE_MODEL_DEVICE;
	m->rev = RHINE_MODEL_REV;
	m->io_base = 0xE100;
	m->mmio_base = 0xA0004000u;
	memcpy(m->eeprom_par, par, sizeof(par));
	m->eeprom_phy = RHINE_INT_PHY_ADDR;
	m->reset_polls = 2;
	m->eeprom_polls = 2;
	m->mii_polls = 1;
	m->link = true;
	m->partner = RHINE_MODEL_PARTNER;
	m->flood_per_tick = 2;
	rhine_model_power_on(m);
}

/* ---- small helpers ---- */

static void isr_set(struct rhine_model *m, uint16_t bits)
{
	m->reg[RHINE_ISR] |= (uint8_t)bits;
	m->reg[RHINE_ISR + 1] |= (uint8_t)(bits >> 8);
}

uint32_t rhine_model_rda(const struct rhine_model *m)
{
	return le32_get(m->reg + RHINE_RDA);
}

uint32_t rhine_model_tda(const struct rhine_model *m)
{
	return le32_get(m->reg + RHINE_TDA);
}

static uint16_t pci_cmd(const struct rhine_model *m)
{
	return m->pci_fn ? (uint16_t)pci_model_peek32(m->pci_fn, PCI_CMD) : 0x0007;
}

static uint8_t power_state(const struct rhine_model *m)
{
	return m->pci_fn ? (uint8_t)(pci_model_peek32(m->pci_fn, PMCSR) & PCI_PM_STATE) : 0;
}

/* A partner on the cable whose far end has a carrier, and the PHY not isolated; a loss latches BMSR. */
static bool link_now(struct rhine_model *m)
{
	bool up = m->link && !(m->faults & RHINE_FAULT_LINK_DOWN) && !(m->phy[MII_BMCR] & MII_BMCR_ISOLATE) &&
		  (!m->wire.carrier || m->wire.carrier(m->wire.ctx));

	if (m->link_was && !up)
		m->bmsr_latched = true;
	m->link_was = up;
	return up;
}

static bool running(const struct rhine_model *m)
{
	uint8_t cr0 = m->reg[RHINE_CR0];
	return !m->resetting && (cr0 & RHINE_CR0_START) && !(cr0 & RHINE_CR0_STOP);
}

/* ---- DMA ---- */

static bool dma_read(struct rhine_model *m, uint32_t bus, void *buf, size_t n)
{
	bool ok;
	if (m->dma.read)
		ok = m->dma.read(m->dma.ctx, bus, buf, n);
	else if ((ok = bus != 0 && (uint64_t)bus + n <= 0x100000000ull))
		memcpy(buf, hw_bus_to_virt(bus), n);
	if (!ok)
		m->st.dma_errors++;
	return ok;
}

static bool dma_write(struct rhine_model *m, uint32_t bus, const void *buf, size_t n)
{
	bool ok;
	if (m->dma.write)
		ok = m->dma.write(m->dma.ctx, bus, buf, n);
	else if ((ok = bus != 0 && (uint64_t)bus + n <= 0x100000000ull))
		memcpy(hw_bus_to_virt(bus), buf, n);
	if (!ok)
		m->st.dma_errors++;
	return ok;
}

/* Reads the descriptor at bus into d[4] (little-endian words). */
static bool desc_read(struct rhine_model *m, uint32_t bus, uint32_t d[4])
{
	uint8_t b[RHINE_DESC_SIZE];
	unsigned i;

	if (bus & 3)
		m->st.desc_unaligned++;
	if (!dma_read(m, bus, b, sizeof(b)))
		return false;
	for (i = 0; i < 4; i++)
		d[i] = le32_get(b + 4 * i);
	return true;
}

static bool des0_write(struct rhine_model *m, uint32_t bus, uint32_t des0)
{
	uint8_t b[4];

	le32_put(b, des0);
	return dma_write(m, bus, b, sizeof(b));
}

/* A PCI error during DMA: ISR bit 6, the engine stops [A]. */
static void dma_fault(struct rhine_model *m, uint8_t engine_bit)
{
	isr_set(m, RHINE_ISR_BE);
	m->reg[RHINE_CR0] &= (uint8_t)~engine_bit;
}

/* ---- EEPROM, reset, power ---- */

static void eeprom_load(struct rhine_model *m)
{
	static const uint8_t bad[6] = { 0x01, 0x00, 0x24, 0xcb, 0x55, 0x01 };

	memcpy(&m->reg[RHINE_PAR], (m->faults & RHINE_FAULT_BAD_MAC) ? bad : m->eeprom_par, 6);
	m->reg[RHINE_BCR0] = m->eeprom_bcr[0];
	m->reg[RHINE_BCR1] = m->eeprom_bcr[1];
	memcpy(&m->reg[RHINE_CFGA], m->eeprom_cfg, 4);
	if (m->rev < RHINE_REV_VT6105)
		m->reg[RHINE_MIIPHY] = m->eeprom_phy;	/* [L] "plus 0x6C for Rhine-I/II" */
}

/* Every register to 0 but STICKHW, the engines idle: the state a software reset gives. */
static void regs_reset(struct rhine_model *m)
{
	uint8_t sticky = m->reg[RHINE_STICKHW];

	memset(m->reg, 0, sizeof(m->reg));
	m->reg[RHINE_STICKHW] = sticky;
	m->tx_active = m->tx_latched = m->rx_stalled = m->mdone_once = false;
	m->eeprom_loading = false;
	m->mii_left = 0;
	m->mii_op = 0;
}

static void phy_reset(struct rhine_model *m)
{
	memset(m->phy, 0, sizeof(m->phy));
	m->phy[MII_BMCR] = 0x1000 | (m->phy_isolated ? MII_BMCR_ISOLATE : 0);	/* auto-negotiation on */
	m->phy[MII_ANAR] = RHINE_MODEL_ANAR;
	m->bmsr_latched = true;		/* the link was down until negotiation finished [A] */
}

void rhine_model_power_on(struct rhine_model *m)
{
	m->reg[RHINE_STICKHW] = (m->faults & RHINE_FAULT_D3) ? RHINE_STICKHW_DS : 0;
	regs_reset(m);
	m->resetting = false;
	eeprom_load(m);
	phy_reset(m);
	m->power_seen = power_state(m);
}

static void reset_begin(struct rhine_model *m)
{
	m->st.resets++;
	regs_reset(m);
	m->resetting = true;
	m->forced = false;
	m->reset_left = m->reset_polls;
	m->reg[RHINE_CR1] = RHINE_CR1_SRST;
}

static void reset_end(struct rhine_model *m)
{
	m->resetting = false;
	m->reg[RHINE_CR1] &= (uint8_t)~RHINE_CR1_SRST;
}

/* A D3hot -> D0 transition seen at the next register access: a power-on reset [A]. */
static void power_track(struct rhine_model *m)
{
	uint8_t ps = power_state(m);
	if (m->power_seen != 0 && ps == 0) {
		m->st.power_ups++;
		regs_reset(m);
		m->resetting = false;
		eeprom_load(m);
	}
	m->power_seen = ps;
}

/* ---- PHY over MII ---- */

static uint16_t phy_read(struct rhine_model *m, unsigned addr, unsigned reg)
{
	uint16_t v;
	unsigned phy_addr = m->rev >= RHINE_REV_VT6105 ? RHINE_INT_PHY_ADDR : m->eeprom_phy;

	m->st.mii_reads++;
	if (addr != phy_addr)
		return 0xFFFF;
	switch (reg) {
	case MII_BMSR:
		v = BMSR_ABILITY | BMSR_AN_ABLE;
		if (link_now(m) && !m->bmsr_latched)
			v |= MII_BMSR_LINK | BMSR_AN_DONE;
		m->bmsr_latched = false;
		return v;
	case MII_ANLPAR:
		return link_now(m) ? m->partner : 0;
	default:
		return reg < 32 ? m->phy[reg] : 0xFFFF;
	}
}

static void phy_write(struct rhine_model *m, unsigned addr, unsigned reg, uint16_t v)
{
	unsigned phy_addr = m->rev >= RHINE_REV_VT6105 ? RHINE_INT_PHY_ADDR : m->eeprom_phy;

	m->st.mii_writes++;
	if (addr != phy_addr || reg == MII_BMSR || reg == MII_ANLPAR || reg >= 32)
		return;
	m->phy[reg] = v;
}

void rhine_model_set_link(struct rhine_model *m, bool up)
{
	if (m->link && !up)
		m->bmsr_latched = true;
	m->link = up;
}

/* ---- transmit ---- */

/*
 * Fetches the frame at TDA into the transmit latch if the chip owns it:
 * the descriptors from STP to EDP and their buffers. Returns false when
 * the engine went idle (nothing owned, stopped, or a DMA error).
 */
static bool tx_fetch(struct rhine_model *m)
{
	uint32_t d[4];
	size_t len = 0;

	if (!running(m) || !(m->reg[RHINE_CR0] & RHINE_CR0_TXON)) {
		m->tx_active = false;
		return false;
	}
	if (!(pci_cmd(m) & PCI_CMD_MASTER)) {
		m->st.no_master++;
		m->tx_active = false;
		return false;
	}
	m->tx_nfrag = 0;
	m->tx_at[0] = le32_get(m->reg + RHINE_TDA);
	if (!desc_read(m, m->tx_at[0], d)) {
		dma_fault(m, RHINE_CR0_TXON);
		m->tx_active = false;
		return false;
	}
	if (!(d[0] & RHINE_DES0_OWN)) {
		m->tx_active = false;
		return false;
	}
	for (;;) {
		size_t n = d[1] & RHINE_DES1_SIZE;
		if (d[2] & 3)
			m->st.buf_unaligned++;
		if (len + n > sizeof(m->tx_frame) || !dma_read(m, d[2], m->tx_frame + len, n))
			break;
		len += n;
		m->tx_next = d[3];
		if ((d[1] & RHINE_TDES1_EDP) || ++m->tx_nfrag == RHINE_MODEL_TX_FRAGS) {
			m->tx_nfrag++;
			m->tx_len = len;
			m->tx_latched = true;
			return true;
		}
		m->tx_at[m->tx_nfrag] = m->tx_next;
		if (!desc_read(m, m->tx_next, d) || !(d[0] & RHINE_DES0_OWN))
			break;
	}
	dma_fault(m, RHINE_CR0_TXON);
	m->tx_active = false;
	return false;
}

/* Sends the latched frame (or, without a link, fails it) and moves TDA on. */
static void tx_finish(struct rhine_model *m)
{
	unsigned i;

	m->tx_latched = false;
	le32_put(m->reg + RHINE_TDA, m->tx_next);
	if (!link_now(m)) {
		/* no carrier: nothing leaves, the transmitter stops [A] */
		m->st.tx_carrier++;
		for (i = 0; i < m->tx_nfrag; i++)
			des0_write(m, m->tx_at[i], RHINE_TDES0_TERR | RHINE_TDES0_CRS);
		isr_set(m, RHINE_ISR_TXE);
		m->reg[RHINE_CR0] &= (uint8_t)~RHINE_CR0_TXON;
		m->tx_active = false;
		return;
	}
	m->st.tx_frames++;
	m->st.tx_bytes += m->tx_len;
	if (m->tx_len < 60)
		m->st.tx_runts++;
	if (m->wire.send)
		m->wire.send(m->wire.ctx, m->tx_frame, m->tx_len);
	for (i = 0; i < m->tx_nfrag; i++)
		des0_write(m, m->tx_at[i], 0);
	isr_set(m, RHINE_ISR_PTX);
}

static bool tx_one(struct rhine_model *m)
{
	if (!tx_fetch(m))
		return false;
	tx_finish(m);
	return m->tx_active;
}

/* Transmit auto-poll: while CR1 bit 3 is clear the chip looks at the ring by itself [L][I]. */
static bool tx_wanted(const struct rhine_model *m)
{
	return m->tx_active || !(m->reg[RHINE_CR1] & RHINE_CR1_DPOLL);
}

static void tx_run(struct rhine_model *m, unsigned budget)
{
	while (budget-- > 0 && tx_wanted(m) && tx_one(m))
		;
}

/* ---- receive ---- */

/* IEEE 802.3 CRC-32 (reflected 0xEDB88320), as it follows the frame on the wire. */
static uint32_t crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	unsigned k;

	while (n--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
	}
	return ~c;
}

static void missed(struct rhine_model *m)
{
	uint16_t t = (uint16_t)le16_get(m->reg + RHINE_MPA);
	m->st.rx_missed++;
	if (t != 0xFFFF)
		t++;
	le16_put(m->reg + RHINE_MPA, t);
	isr_set(m, RHINE_ISR_RU | RHINE_ISR_NORBF);
	if (m->faults & RHINE_FAULT_RX_STALL)
		m->rx_stalled = true;
}

void rhine_model_receive(struct rhine_model *m, const uint8_t *frame, size_t len)
{
	uint8_t buf[RHINE_MODEL_FRAME_MAX + 4];
	uint32_t d[4], at, status, size, total;
	bool bcast, mcast, accept;
	uint8_t rcr = m->reg[RHINE_RCR];

	m->st.rx_wire++;
	if (!running(m) || !(m->reg[RHINE_CR0] & RHINE_CR0_RXON) || power_state(m) != 0 || !link_now(m)) {
		m->st.rx_off++;
		return;
	}
	if (len < 6)
		return;
	bcast = memcmp(frame, "\xff\xff\xff\xff\xff\xff", 6) == 0;
	mcast = !bcast && (frame[0] & 1);
	if (bcast)
		accept = rcr & RHINE_RCR_BCAST;
	else if (mcast)
		accept = rcr & (RHINE_RCR_MULTI | RHINE_RCR_PROMISC);
	else
		accept = memcmp(frame, &m->reg[RHINE_PAR], 6) == 0 || (rcr & RHINE_RCR_PROMISC);
	if (!accept) {
		m->st.rx_filtered++;
		return;
	}
	if (len < 60 && !(rcr & RHINE_RCR_RUNT)) {
		m->st.rx_runts++;
		return;
	}
	if (len > RX_MAX_FRAME || len > RHINE_MODEL_FRAME_MAX) {
		m->st.rx_giants++;
		return;
	}
	if (!(pci_cmd(m) & PCI_CMD_MASTER)) {
		m->st.no_master++;
		return;
	}
	if (m->rx_stalled) {
		missed(m);
		return;
	}
	at = le32_get(m->reg + RHINE_RDA);
	if (!desc_read(m, at, d)) {
		dma_fault(m, RHINE_CR0_RXON);
		return;
	}
	if (!(d[0] & RHINE_DES0_OWN)) {
		missed(m);
		return;
	}
	memcpy(buf, frame, len);
	le32_put(buf + len, crc32(frame, len));
	total = (uint32_t)len + 4;
	status = RHINE_RDES0_WHOLE | (bcast ? RHINE_RDES0_BAR : mcast ? RHINE_RDES0_MAR : RHINE_RDES0_PHY);
	if ((m->faults & RHINE_FAULT_RX_ERRORS) && ++m->rx_seq % 3 == 0) {
		uint16_t c = (uint16_t)le16_get(m->reg + RHINE_CRCCNT);
		status |= RHINE_RDES0_RERR | RHINE_RDES0_CRC;
		m->st.rx_errors++;
		c = (uint16_t)(c + (c != 0xFFFF));
		le16_put(m->reg + RHINE_CRCCNT, c);
		isr_set(m, RHINE_ISR_RXE);
	} else {
		status |= RHINE_RDES0_RXOK;
	}
	size = d[1] & RHINE_DES1_SIZE;
	if (total > size) {
		status = (status & ~RHINE_RDES0_RXOK) | RHINE_RDES0_BUFF | RHINE_RDES0_RERR;
		total = size;
	}
	if (d[2] & 3)
		m->st.buf_unaligned++;
	if (!dma_write(m, d[2], buf, total) || !des0_write(m, at, status | total << 16)) {
		dma_fault(m, RHINE_CR0_RXON);
		return;
	}
	m->st.rx_frames++;
	isr_set(m, (status & RHINE_RDES0_RXOK) ? RHINE_ISR_PRX : RHINE_ISR_RXE);
	le32_put(m->reg + RHINE_RDA, d[3]);
}

/*
 * Whether the descriptor at RDA is the chip's, so a frame from the wire
 * has somewhere to go: until then frames wait on the wire (in the far
 * NIC's ring) [A].
 */
static bool rx_descriptor_ready(struct rhine_model *m)
{
	uint32_t d[4];
	uint32_t at = le32_get(m->reg + RHINE_RDA);

	return !m->rx_stalled && at != 0 && (pci_cmd(m) & PCI_CMD_MASTER) && desc_read(m, at, d) &&
	       (d[0] & RHINE_DES0_OWN);
}

/* rx-flood: broadcast ARP requests from a made-up sender, numbered. */
static void flood(struct rhine_model *m)
{
	uint8_t f[60];
	unsigned i;

	memset(f, 0, sizeof(f));
	memset(f, 0xFF, 6);
	memcpy(f + 6, "\x02\x00\x00\xf1\x00\x0d", 6);
	f[12] = 0x08;
	f[13] = 0x06;
	for (i = 0; i < m->flood_per_tick; i++) {
		f[14] = (uint8_t)(m->flood_seq >> 8);
		f[15] = (uint8_t)m->flood_seq++;
		m->st.rx_flood++;
		rhine_model_receive(m, f, sizeof(f));
	}
}

static void wire_run(struct rhine_model *m)
{
	uint8_t f[RHINE_MODEL_FRAME_MAX];
	unsigned i;
	size_t n;

	/* the wire is asked only while the receiver runs and has a descriptor: frames wait on it meanwhile [A] */
	if (!running(m) || !(m->reg[RHINE_CR0] & RHINE_CR0_RXON))
		return;
	for (i = 0; m->wire.poll && i < WIRE_PER_TICK && rx_descriptor_ready(m) &&
		    (n = m->wire.poll(m->wire.ctx, f, sizeof(f))) != 0; i++)
		rhine_model_receive(m, f, n);
	/* the flood after the wire's own frames: they still find a descriptor now and then */
	if (m->faults & RHINE_FAULT_RX_FLOOD)
		flood(m);
}

bool rhine_model_step(struct rhine_model *m)
{
	bool sent = m->tx_latched;

	if (m->resetting || power_state(m) != 0)
		return false;
	wire_run(m);
	if (m->tx_latched)
		tx_finish(m);
	if (tx_wanted(m))
		tx_fetch(m);
	return sent || m->tx_latched;
}

/* What happens between two register accesses when not lazy: the wire, then the transmit ring. */
static void tick(struct rhine_model *m)
{
	if (m->lazy || m->resetting)
		return;
	wire_run(m);
	tx_run(m, TX_PER_TICK);
}

static void tx_demand(struct rhine_model *m)
{
	m->st.tx_demands++;
	m->tx_active = true;
	if (!m->lazy)
		tx_run(m, TX_PER_TICK);
}

/* ---- registers ---- */

static uint8_t reg_read(struct rhine_model *m, unsigned off)
{
	uint8_t v = m->reg[off];

	switch (off) {
	case RHINE_CR1:
		if (!m->resetting)
			return v;
		if ((m->faults & RHINE_FAULT_RESET_STUCK) ||
		    ((m->faults & RHINE_FAULT_RESET_NEEDS_FORCE) && !m->forced))
			return v;
		if (m->forced || m->reset_left == 0) {
			reset_end(m);
			return m->reg[RHINE_CR1];
		}
		m->reset_left--;
		return v;
	case RHINE_MIISR:
		if (m->reg[RHINE_MIICR] & RHINE_MIICR_MAUTO)
			m->reg[RHINE_MIISR] = link_now(m) ? 0 : RHINE_MIISR_LNKFL;
		return m->reg[RHINE_MIISR];
	case RHINE_MIICR:
		if (m->mii_op && m->mii_left-- == 0) {
			unsigned addr = m->reg[RHINE_MIIPHY] & 0x1F, reg = m->reg[RHINE_MIIAD] & 0x1F;
			if (m->mii_op == RHINE_MIICR_RDEN) {
				le16_put(m->reg + RHINE_MIIDATA, phy_read(m, addr, reg));
			} else {
				phy_write(m, addr, reg, (uint16_t)le16_get(m->reg + RHINE_MIIDATA));
			}
			m->reg[RHINE_MIICR] &= (uint8_t)~m->mii_op;
			m->mii_op = 0;
		}
		return m->reg[RHINE_MIICR];
	case RHINE_MIIAD:
		v &= 0x1F | RHINE_MIIAD_MSRCEN;
		if (!(m->reg[RHINE_MIICR] & RHINE_MIICR_MAUTO))
			v |= RHINE_MIIAD_MIDLE;
		if (m->mdone_once) {
			v |= RHINE_MIIAD_MDONE;
			m->mdone_once = false;
		}
		return v;
	case RHINE_EECSR:
		if (!m->eeprom_loading || (m->faults & RHINE_FAULT_EEPROM_STUCK))
			return v;
		if (m->eeprom_left-- == 0) {
			eeprom_load(m);
			m->eeprom_loading = false;
			m->reg[RHINE_EECSR] &= (uint8_t)~RHINE_EECSR_LOAD;
		}
		return m->reg[RHINE_EECSR];
	default:
		return v;
	}
}

static void reg_write(struct rhine_model *m, unsigned off, uint8_t v)
{
	if (m->resetting && off != RHINE_MISC_CR1 && off != RHINE_CR1)
		m->st.write_in_reset++;
	switch (off) {
	case RHINE_CR0:
		if ((v & RHINE_CR0_RDMD) || ((v & RHINE_CR0_RXON) && !(m->reg[off] & RHINE_CR0_RXON)))
			m->rx_stalled = false;
		m->reg[off] = v & (RHINE_CR0_INIT | RHINE_CR0_START | RHINE_CR0_STOP | RHINE_CR0_RXON |
				   RHINE_CR0_TXON);
		if (v & RHINE_CR0_TDMD)
			tx_demand(m);
		break;
	case RHINE_CR1:
		if (v & RHINE_CR1_SRST) {
			reset_begin(m);
			break;
		}
		m->reg[off] = v & (uint8_t)~(RHINE_CR1_TDMD1 | RHINE_CR1_RDMD1);
		if (v & RHINE_CR1_RDMD1)
			m->rx_stalled = false;
		if (v & RHINE_CR1_TDMD1)
			tx_demand(m);
		break;
	case RHINE_ISR:
	case RHINE_ISR + 1:
		m->reg[off] &= (uint8_t)~v;
		break;
	case RHINE_IMR:
	case RHINE_IMR + 1:
		m->reg[off] = v;
		if (v)
			m->st.imr_set++;
		break;
	case RHINE_RDA:
	case RHINE_RDA + 1:
	case RHINE_RDA + 2:
	case RHINE_RDA + 3:
		m->reg[off] = v;
		m->rx_stalled = false;
		break;
	case RHINE_MIISR:
		break;		/* read only [A] */
	case RHINE_MIICR:
		if ((v & RHINE_MIICR_MAUTO) && !(m->reg[off] & RHINE_MIICR_MAUTO))
			m->mdone_once = true;
		m->reg[off] = v;
		if (v & (RHINE_MIICR_RDEN | RHINE_MIICR_WREN)) {
			m->mii_op = v & RHINE_MIICR_RDEN ? RHINE_MIICR_RDEN : RHINE_MIICR_WREN;
			m->reg[off] = (uint8_t)((v & ~(RHINE_MIICR_RDEN | RHINE_MIICR_WREN)) | m->mii_op);
			m->mii_left = m->mii_polls;
		}
		break;
	case RHINE_MIIAD:
		m->reg[off] = v & (0x1F | RHINE_MIIAD_MSRCEN);
		break;
	case RHINE_EECSR:
		m->reg[off] = v & (uint8_t)~RHINE_EECSR_LOAD;
		if (v & RHINE_EECSR_LOAD) {
			m->st.eeprom_reloads++;
			m->eeprom_loading = true;
			m->eeprom_left = m->eeprom_polls;
			m->reg[off] |= RHINE_EECSR_LOAD;
		}
		break;
	case RHINE_MPA:
	case RHINE_MPA + 1:
	case RHINE_CRCCNT:
	case RHINE_CRCCNT + 1:
		m->reg[off] = 0;	/* a write clears the tally [A] */
		break;
	case RHINE_MISC_CR1:
		if ((v & RHINE_MISC_FORSRST) && m->resetting) {
			m->st.forced_resets++;
			m->forced = true;
		}
		m->reg[off] = v & (uint8_t)~RHINE_MISC_FORSRST;
		break;
	default:
		m->reg[off] = v;
		break;
	}
}

/* Decoding and power gate of one access; true when the registers answer. */
static bool answers(struct rhine_model *m, uint16_t decode_bit)
{
	if (!(pci_cmd(m) & decode_bit)) {
		m->st.no_decode++;
		return false;
	}
	power_track(m);
	if (m->power_seen != 0) {
		m->st.d3_access++;
		return false;
	}
	return true;
}

static uint32_t access_read(struct rhine_model *m, uint32_t off, unsigned bytes)
{
	uint32_t v = 0;
	unsigned i;

	tick(m);
	for (i = 0; i < bytes; i++)
		v |= (uint32_t)reg_read(m, (off + i) % RHINE_MODEL_REGS) << (8 * i);
	return v;
}

static void access_write(struct rhine_model *m, uint32_t off, uint32_t val, unsigned bytes)
{
	unsigned i;

	tick(m);
	for (i = 0; i < bytes; i++)
		reg_write(m, (off + i) % RHINE_MODEL_REGS, (uint8_t)(val >> (8 * i)));
}

static uint32_t ones(unsigned bytes)
{
	return bytes >= 4 ? 0xFFFFFFFFu : (1u << (8 * bytes)) - 1;
}

uint32_t rhine_model_io_read(struct rhine_model *m, uint32_t off, unsigned bytes)
{
	if (!answers(m, PCI_CMD_IO))
		return ones(bytes);
	return access_read(m, off, bytes);
}

void rhine_model_io_write(struct rhine_model *m, uint32_t off, uint32_t val, unsigned bytes)
{
	if (answers(m, PCI_CMD_IO))
		access_write(m, off, val, bytes);
}

static bool mmio_on(struct rhine_model *m)
{
	bool on = m->rev < RHINE_REV_RHINE2 ? (m->reg[RHINE_CFGA] & RHINE_CFGA_MMIO) :
					      (m->reg[RHINE_CFGD] & RHINE_CFGD_MMIO);
	if (!on)
		m->st.no_decode++;
	return on;
}

uint32_t rhine_model_mmio_read(void *ctx, uint32_t off, unsigned bytes)
{
	struct rhine_model *m = ctx;
	if (!answers(m, PCI_CMD_MEM) || !mmio_on(m))
		return ones(bytes);
	return access_read(m, off, bytes);
}

void rhine_model_mmio_write(void *ctx, uint32_t off, uint32_t val, unsigned bytes)
{
	struct rhine_model *m = ctx;
	if (answers(m, PCI_CMD_MEM) && mmio_on(m))
		access_write(m, off, val, bytes);
}

/* ---- PCI ---- */

void rhine_model_attach_pci(struct rhine_model *m, struct pci_model_fn *f)
{
	uint32_t cs = pci_model_peek32(f, PCI_CMD);

	m->pci_fn = f;
	pci_model_poke32(f, PCI_CMD, cs | (uint32_t)PCI_STATUS_CAPLIST << 16);
	pci_model_poke32(f, PCI_CAP_PTR, RHINE_MODEL_PM_CAP);
	/* ID 1, no next capability, PMC 0x0002 (version 1.1) [A]; PMCSR D0 or D3hot */
	pci_model_poke32(f, RHINE_MODEL_PM_CAP, 0x00020000u | PCI_CAP_ID_PM);
	pci_model_poke32(f, PMCSR, (m->faults & RHINE_FAULT_D3) ? PCI_PM_STATE_D3HOT : 0);
	rhine_model_power_on(m);
}

struct pci_model_fn *rhine_model_add_pci(struct rhine_model *m, struct pci_model *pm, unsigned bus,
					 unsigned dev, unsigned fn, uint16_t cmd)
{
	struct pci_model_fn *f = pci_model_add(pm, bus, dev, fn, RHINE_VENDOR, m->device,
					       0x02000000u | m->rev, PCI_HDR_NORMAL);

	if (!f || pci_model_set_bar(f, 0, PCI_BAR_IO, m->io_base, RHINE_MODEL_REGS) != 0 ||
	    pci_model_set_bar(f, 1, 0, m->mmio_base, RHINE_MODEL_REGS) != 0)
		return NULL;
	pci_model_poke32(f, PCI_CMD, cmd);
	pci_model_poke32(f, PCI_INTR, 0x0100 | 11);	/* INTA, IRQ 11 as the net5501 lists 00:06.0 */
	rhine_model_attach_pci(m, f);
	return f;
}
