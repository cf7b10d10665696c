/* Register-level model of the Geode LX security block. See geode_sb_model.h. */
#include "emu/models/geode_sb_model.h"

#include <stddef.h>
#include <string.h>

#include "drivers/geode_sb/geode_sb_reg.h"
#include "kernel/platform/hw.h"
#include "lib/platform/pci_enum.h"
#include "lib/util/splitmix64.h"

static const char *const fault_names[GEODE_SB_NFAULTS] = {
	"dma-timeout", "wrong-data", "dma-overrun", "ignore-key",
	"rng-never-valid", "rng-stuck", "bar-unassigned", "msr-gp",
	"busy-at-start", "noise-dead", "no-vsa", "stale-key", "cbc-iv-stale",
	"swap-bits", "hidden-key-hang", "poor-noise", "poor-noise-tsel3",
	"tsel0-dead", "tsel1-biased", "trng-mode-stuck",
};

#define MSR_CTRL_IDX	(GEODE_SB_MSR_CTRL - GEODE_SB_MSR_CAP)

void geode_sb_model_init(struct geode_sb_model *m)
{
	memset(m, 0, sizeof(*m));
	m->bar0 = GEODE_SB_MODEL_BAR0;
	m->pci_cmd = GEODE_SB_MODEL_PCI_CMD;
	m->ctrl_reset = GEODE_SB_MODEL_CTRL_RESET;
	m->done_polls = 3;
	m->rng_polls = 2;
	m->sec_state = GEODE_SB_MODEL_SEC_UNLOCKED;
	memset(m->hidden_key, 0xFF, sizeof(m->hidden_key));
	m->rng_seed = 0x67656f64652dull;	/* "geode-" */
	m->stuck_value = 0x5A5A5A5Au;
	m->raw_p256 = GEODE_SB_MODEL_RAW_P256;
	m->raw_sticky8 = 1;
	m->msr[0] = GEODE_SB_CAP_ID;		/* revision 0 */
	m->aes_int = 0;
	geode_sb_model_power_on(m);
}

void geode_sb_model_power_on(struct geode_sb_model *m)
{
	m->msr[MSR_CTRL_IDX] = m->ctrl_reset;
	if (m->faults & GEODE_SB_FAULT_SWAP_BITS)
		m->msr[MSR_CTRL_IDX] |= GEODE_SB_CTRL_SBY;
	if (m->faults & (GEODE_SB_FAULT_POOR_NOISE | GEODE_SB_FAULT_POOR_NOISE_TSEL3)) {
		m->raw_p256 = GEODE_SB_MODEL_POOR_P256;
		m->raw_sticky8 = 0;
	}
	m->rng_state = m->rng_seed ^ ((m->ctrl_reset & GEODE_SB_CTRL_T_SEL_MASK) << 48);
	m->lfsr = 0xACE1u;
	if (m->faults & GEODE_SB_FAULT_BUSY_AT_START) {
		/* firmware started an operation that never ends: ST set, nothing latched to run */
		m->ctl[0] = GEODE_SB_CTL_ST | GEODE_SB_CTL_WK | GEODE_SB_CTL_DC | GEODE_SB_CTL_SC;
		m->op[0].busy = true;
		m->op[0].hang = true;
		m->op[0].ctl = m->ctl[0];
	}
}

uint32_t geode_sb_model_fault(const char *name)
{
	unsigned i;
	for (i = 0; i < GEODE_SB_NFAULTS; i++)
		if (strcmp(name, fault_names[i]) == 0)
			return 1u << i;
	return 0;
}

const char *geode_sb_model_fault_name(unsigned i)
{
	return i < GEODE_SB_NFAULTS ? fault_names[i] : "?";
}

/* ---- PCI ---- */

struct pci_model_fn *geode_sb_model_add_pci(struct geode_sb_model *m, struct pci_model *pm)
{
	struct pci_model_fn *f;
	uint32_t base = (m->faults & GEODE_SB_FAULT_BAR_UNASSIGNED) ? 0 : m->bar0;

	f = pci_model_add(pm, 0, 1, 2, GEODE_SB_VENDOR, GEODE_SB_DEVICE, 0x10100000u, PCI_HDR_NORMAL);
	if (!f || pci_model_set_bar(f, 0, 0, base, GEODE_SB_BAR_SIZE) != 0)
		return NULL;
	pci_model_poke32(f, PCI_CMD, m->pci_cmd);
	pci_model_poke32(f, PCI_INTR, 0x0100 | 10);	/* pin INTA, IRQ 10 */
	m->pci_fn = f;
	geode_sb_model_power_on(m);
	geode_sb_model_hide_if_no_vsa(m);
	return f;
}

struct pci_model_fn *geode_sb_model_add_machine(struct geode_sb_model *m, struct pci_model *pm)
{
	pci_model_init(pm);
	/* CS5536 host bridge as the ALIX.2D3 lists it: 1022:2080 class 06.00 rev 33. */
	if (!pci_model_add(pm, 0, 1, 0, 0x1022, 0x2080, 0x06000033u, PCI_HDR_NORMAL))
		return NULL;
	return geode_sb_model_add_pci(m, pm);
}

void geode_sb_model_hide_if_no_vsa(struct geode_sb_model *m)
{
	/* No VSA: nothing answers configuration cycles for 00:01.2 (the ID reads all ones). */
	if ((m->faults & GEODE_SB_FAULT_NO_VSA) && m->pci_fn)
		pci_model_poke32(m->pci_fn, PCI_ID, 0xFFFFFFFFu);
}

static uint16_t pci_command(const struct geode_sb_model *m)
{
	if (m->faults & GEODE_SB_FAULT_NO_VSA)
		return 0x0006;	/* no header: the block decodes at the address firmware gave it */
	return m->pci_fn ? (uint16_t)pci_model_peek32(m->pci_fn, PCI_CMD) : 0xFFFF;
}

/* ---- AES through DMA ---- */

static void le_bytes(const uint32_t w[4], uint8_t b[16])
{
	unsigned i;
	for (i = 0; i < 16; i++)
		b[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
}

static void le_words(const uint8_t b[16], uint32_t w[4])
{
	unsigned i;
	for (i = 0; i < 4; i++)
		w[i] = b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
		       (uint32_t)b[4 * i + 3] << 24;
}

void geode_sb_model_wkey_bytes(const struct geode_sb_model *m, uint8_t key[16])
{
	le_bytes(m->wkey, key);
}

static bool dma_range_ok(uint32_t addr, uint32_t n)
{
	return addr != 0 && (uint64_t)addr + n + GEODE_SB_OVERRUN_BYTES <= 0x100000000ull;
}

/* SBY: bytes of each 32-bit word reversed; SBI: bits of each byte reversed (assumptions). */
static void swap_data(const struct geode_sb_model *m, uint8_t *p, uint32_t n)
{
	uint64_t ctrl = m->msr[MSR_CTRL_IDX];
	uint32_t i;
	uint8_t t, b;
	unsigned k;

	if (ctrl & GEODE_SB_CTRL_SBY)
		for (i = 0; i + 4 <= n; i += 4) {
			t = p[i]; p[i] = p[i + 3]; p[i + 3] = t;
			t = p[i + 1]; p[i + 1] = p[i + 2]; p[i + 2] = t;
		}
	if (ctrl & GEODE_SB_CTRL_SBI)
		for (i = 0; i < n; i++) {
			for (b = 0, k = 0; k < 8; k++)
				b |= (uint8_t)(((p[i] >> k) & 1) << (7 - k));
			p[i] = b;
		}
}

/* The end of an operation on context c: DMA, cipher, flags, all from what start() latched. */
static void complete(struct geode_sb_model *m, unsigned c)
{
	struct geode_sb_model_op *o = &m->op[c];
	uint32_t ctl = o->ctl, s = o->src & ~0xFu, d = o->dst & ~0xFu;
	uint32_t n = o->len & ~0xFu, i;
	bool enc = ctl & GEODE_SB_CTL_ENC, swap;
	uint8_t key[16], iv[16], *out;
	const uint8_t *in;

	swap = (m->msr[MSR_CTRL_IDX] & (GEODE_SB_CTRL_SBI | GEODE_SB_CTRL_SBY)) != 0;
	le_bytes(o->key, key);
	if (n && dma_range_ok(s, n) && dma_range_ok(d, n)) {
		in = hw_bus_to_virt(s);
		out = hw_bus_to_virt(d);
		if (swap) {
			memmove(out, in, n);
			swap_data(m, out, n);
			in = out;
		}
		aes_set_key(&m->aes, key, sizeof(key));
		if (ctl & GEODE_SB_CTL_CBC) {
			le_bytes(o->iv, iv);
			if (enc)
				aes_cbc_encrypt(&m->aes, iv, in, out, n);
			else
				aes_cbc_decrypt(&m->aes, iv, in, out, n);
			if (!(m->faults & GEODE_SB_FAULT_CBC_IV_STALE))
				le_words(iv, m->iv);	/* the next IV, as Linux reads it back */
		} else if (enc) {
			aes_ecb_encrypt(&m->aes, in, out, n);
		} else {
			aes_ecb_decrypt(&m->aes, in, out, n);
		}
		aes_wipe(&m->aes);
		if (swap)
			swap_data(m, out, n);
		if (m->faults & GEODE_SB_FAULT_WRONG_DATA)
			out[n - 1] ^= 0x01;
		if (m->faults & GEODE_SB_FAULT_DMA_OVERRUN)
			for (i = 0; i < GEODE_SB_OVERRUN_BYTES; i++)
				out[n + i] ^= 0xFF;	/* surely different from what was there */
		m->st.bytes += n;
	} else if (n) {
		m->st.dma_errors++;
	}
	memset(key, 0, sizeof(key));
	memset(iv, 0, sizeof(iv));
	memset(o->key, 0, sizeof(o->key));
	memset(o->iv, 0, sizeof(o->iv));
	if (!m->st_sticky)
		m->ctl[c] &= ~(uint32_t)GEODE_SB_CTL_ST;
	m->aes_int |= c ? GEODE_SB_INT_DONE_B : GEODE_SB_INT_DONE_A;
	o->busy = false;
	m->st.completed++;
	if (c)
		m->st.completed_b++;
}

/* A read of CTL_A, CTL_B or AES_INT: time passes for every running operation. */
static void poll(struct geode_sb_model *m)
{
	unsigned c;

	for (c = 0; c < GEODE_SB_MODEL_CONTEXTS; c++) {
		struct geode_sb_model_op *o = &m->op[c];
		if (!o->busy)
			continue;
		m->st.polls++;
		if ((m->faults & GEODE_SB_FAULT_DMA_TIMEOUT) || o->hang)
			continue;
		/* No bus-master gate: no source says PCI bus mastering gates this engine's DMA. */
		if (++o->polls >= m->done_polls)
			complete(m, c);
	}
}

static void start(struct geode_sb_model *m, unsigned c)
{
	struct geode_sb_model_op *o = &m->op[c];
	uint32_t ctl = m->ctl[c];

	m->st.starts++;
	if (c)
		m->st.starts_b++;
	m->st.last_ctl = ctl;
	if (m->len[c] == 0 || (m->len[c] & 0xF))
		m->st.bad_len++;
	if ((m->src[c] | m->dst[c]) & 0xF)
		m->st.unaligned++;
	if (!(pci_command(m) & PCI_CMD_MASTER))
		m->st.no_master++;
	if ((ctl & GEODE_SB_CTL_WK) && m->wkey_written == 0xF)
		m->st.fresh_key_starts++;
	m->wkey_written = 0;
	/* Latched now (an assumption: the data book only says to wait for completion). */
	o->ctl = ctl;
	o->src = m->src[c];
	o->dst = m->dst[c];
	o->len = m->len[c];
	if ((ctl & GEODE_SB_CTL_WK) && !(m->faults & GEODE_SB_FAULT_IGNORE_KEY)) {
		if ((m->faults & GEODE_SB_FAULT_STALE_KEY) && m->have_prev_key)
			memcpy(o->key, m->prev_key, sizeof(o->key));
		else
			memcpy(o->key, m->wkey, sizeof(o->key));
		memcpy(m->prev_key, m->wkey, sizeof(m->prev_key));
		m->have_prev_key = true;
	} else {
		le_words(m->hidden_key, o->key);
	}
	memcpy(o->iv, m->iv, sizeof(o->iv));
	o->hang = !(ctl & GEODE_SB_CTL_WK) && (m->faults & GEODE_SB_FAULT_HKEY_HANG);
	o->busy = true;
	o->polls = 0;
	if (m->done_polls == 0)
		poll(m);
}

/* ---- TRNG ---- */

static uint32_t rng_status(struct geode_sb_model *m)
{
	uint64_t ctrl = m->msr[MSR_CTRL_IDX];

	if ((m->faults & GEODE_SB_FAULT_RNG_NEVER_VALID) || !(ctrl & GEODE_SB_CTRL_T_NE))
		return 0;
	/* tsel0-dead: raw noise (T_SEL 0, no test mode) never becomes valid */
	if ((m->faults & GEODE_SB_FAULT_TSEL0_DEAD) && !(ctrl & GEODE_SB_CTRL_T_TM) &&
	    (ctrl & GEODE_SB_CTRL_T_SEL_MASK) == 0)
		return 0;
	if (!m->rng_valid && ++m->rng_wait >= m->rng_polls)
		m->rng_valid = true;
	return m->rng_valid ? GEODE_SB_RNS_VALID : 0;
}

/* One raw noise bit: ones with probability raw_p256/256, each bit a copy of the one before with probability 1/8 when raw_sticky8. */
static unsigned raw_bit(struct geode_sb_model *m)
{
	unsigned u, bit;

	if (m->raw_left == 0) {
		m->raw_pool = splitmix64_next(&m->rng_state);
		m->raw_left = 4;
	}
	u = (unsigned)(m->raw_pool & 0xFFFF);
	m->raw_pool >>= 16;
	m->raw_left--;
	bit = (u & 0xFF) < m->raw_p256;
	if (m->raw_sticky8 && ((u >> 8) & 7) == 0)
		bit = m->raw_last;
	m->raw_last = bit;
	return bit;
}

/* The 32-bit Galois LFSR x^32 + x^22 + x^2 + x + 1 (a stand-in: the block's LFSR is undocumented). */
static unsigned lfsr_bit(struct geode_sb_model *m)
{
	unsigned b = m->lfsr & 1;
	m->lfsr >>= 1;
	if (b)
		m->lfsr ^= 0x80200003u;
	return b;
}

/* A word of output under T_SEL tsel (see the header: every choice here is an assumption). */
static uint32_t tsel_word(struct geode_sb_model *m, unsigned tsel)
{
	uint32_t w = 0;
	unsigned i, b;

	if (tsel == GEODE_SB_T_SEL_BOTH && (m->faults & GEODE_SB_FAULT_POOR_NOISE_TSEL3))
		tsel = GEODE_SB_T_SEL_NONE;	/* the post-processing bypassed */
	for (i = 0; i < 32; i++) {
		if (tsel == GEODE_SB_T_SEL_WHITEN || tsel == GEODE_SB_T_SEL_BOTH)
			b = raw_bit(m) ^ raw_bit(m);
		else
			b = raw_bit(m);
		if (tsel == GEODE_SB_T_SEL_LFSR || tsel == GEODE_SB_T_SEL_BOTH)
			b ^= lfsr_bit(m);
		w |= (uint32_t)b << i;
	}
	return w;
}

static uint32_t rng_take(struct geode_sb_model *m)
{
	uint64_t ctrl = m->msr[MSR_CTRL_IDX];
	static const uint32_t dead[4] = { 0x3C3C0F0Fu, 0x0F0F3C3Cu, 0xC3C3F0F0u, 0xF0F0C3C3u };

	if (!m->rng_valid && m->rng_polls) {
		m->st.rng_early++;
		return m->rnd;
	}
	m->rng_valid = false;
	m->rng_wait = 0;
	m->st.rng_words++;
	if (m->faults & GEODE_SB_FAULT_RNG_STUCK)
		m->rnd = m->stuck_value;
	else if (m->faults & GEODE_SB_FAULT_NOISE_DEAD)
		m->rnd = dead[m->st.rng_words % 4];
	else if (ctrl & GEODE_SB_CTRL_T_TM)
		m->rnd = m->tm_count++;
	else
		m->rnd = tsel_word(m, (unsigned)((ctrl & GEODE_SB_CTRL_T_SEL_MASK) >> GEODE_SB_CTRL_T_SEL_SHIFT));
	/* tsel1-biased: T_SEL 1's bits are ones with probability 3/4 (two words ORed) */
	if ((m->faults & GEODE_SB_FAULT_TSEL1_BIASED) && !(ctrl & GEODE_SB_CTRL_T_TM) &&
	    ((ctrl & GEODE_SB_CTRL_T_SEL_MASK) >> GEODE_SB_CTRL_T_SEL_SHIFT) == GEODE_SB_T_SEL_LFSR)
		m->rnd |= tsel_word(m, GEODE_SB_T_SEL_LFSR);
	return m->rnd;
}

/* ---- MMIO ---- */

uint32_t geode_sb_model_mmio_read(void *ctx, uint32_t off, unsigned bytes)
{
	struct geode_sb_model *m = ctx;
	unsigned i;

	if (bytes != 4 || (off & 3))
		m->st.bad_size++;
	if (!(pci_command(m) & PCI_CMD_MEM)) {
		m->st.no_decode++;
		return 0xFFFFFFFFu;
	}
	off &= ~3u;
	switch (off) {
	case GEODE_SB_CTL_A:	poll(m); return m->ctl[0];
	case GEODE_SB_CTL_B:	poll(m); return m->ctl[1];
	case GEODE_SB_AES_INT:	poll(m); return m->aes_int;
	case GEODE_SB_SOURCE_A:	return m->src[0];
	case GEODE_SB_DEST_A:	return m->dst[0];
	case GEODE_SB_LENGTH_A:	return m->len[0];
	case GEODE_SB_SOURCE_B:	return m->src[1];
	case GEODE_SB_DEST_B:	return m->dst[1];
	case GEODE_SB_LENGTH_B:	return m->len[1];
	case GEODE_SB_RANDOM_NUM:	return rng_take(m);
	case GEODE_SB_RANDOM_NUM_STATUS: return rng_status(m);
	case GEODE_SB_EEPROM_SEC_STATE: return m->sec_state;
	case GEODE_SB_EEPROM_COMM:
	case GEODE_SB_EEPROM_ADDR:
	case GEODE_SB_EEPROM_DATA: return 0;
	}
	for (i = 0; i < 4; i++) {
		if (off == GEODE_SB_WKEY(i))
			return 0;	/* write only [DB p.511: reads return 0] */
		if (off == GEODE_SB_CBC_IV(i))
			return m->iv[i];
	}
	m->st.unknown++;
	return 0;
}

/* A write to a register of context c while its operation runs. */
static void busy_write(struct geode_sb_model *m, unsigned c)
{
	if (m->op[c].busy)
		m->st.writes_while_busy++;
}

/* A write to a shared register (WKEY: bit WK, CBC_IV: bit CBC) a running operation uses. */
static void shared_write(struct geode_sb_model *m, uint32_t uses)
{
	unsigned c;
	for (c = 0; c < GEODE_SB_MODEL_CONTEXTS; c++)
		if (m->op[c].busy && (m->op[c].ctl & uses))
			m->st.writes_while_busy++;
}

void geode_sb_model_mmio_write(void *ctx, uint32_t off, uint32_t val, unsigned bytes)
{
	struct geode_sb_model *m = ctx;
	unsigned i, c;

	if (bytes != 4 || (off & 3))
		m->st.bad_size++;
	if (!(pci_command(m) & PCI_CMD_MEM)) {
		m->st.no_decode++;
		return;
	}
	off &= ~3u;
	switch (off) {
	case GEODE_SB_CTL_A:
	case GEODE_SB_CTL_B:
		c = off == GEODE_SB_CTL_B;
		busy_write(m, c);
		m->ctl[c] = val & 0x3F;
		if (val & GEODE_SB_CTL_ST)
			start(m, c);
		return;
	case GEODE_SB_AES_INT:
		m->aes_int = (m->aes_int & ~(val & GEODE_SB_INT_DONE_ALL) & ~GEODE_SB_INT_MASK_ALL) |
			     (val & GEODE_SB_INT_MASK_ALL);
		return;
	case GEODE_SB_SOURCE_A:	busy_write(m, 0); m->src[0] = val; return;
	case GEODE_SB_DEST_A:	busy_write(m, 0); m->dst[0] = val; return;
	case GEODE_SB_LENGTH_A:	busy_write(m, 0); m->len[0] = val; return;
	case GEODE_SB_SOURCE_B:	busy_write(m, 1); m->src[1] = val; return;
	case GEODE_SB_DEST_B:	busy_write(m, 1); m->dst[1] = val; return;
	case GEODE_SB_LENGTH_B:	busy_write(m, 1); m->len[1] = val; return;
	case GEODE_SB_RANDOM_NUM:
	case GEODE_SB_RANDOM_NUM_STATUS:
		m->st.ro_writes++;
		return;
	case GEODE_SB_EEPROM_COMM:
	case GEODE_SB_EEPROM_ADDR:
	case GEODE_SB_EEPROM_DATA:
	case GEODE_SB_EEPROM_SEC_STATE:
		m->st.eeprom_writes++;
		return;
	}
	for (i = 0; i < 4; i++) {
		if (off == GEODE_SB_WKEY(i)) {
			shared_write(m, GEODE_SB_CTL_WK);
			m->wkey[i] = val;
			m->wkey_written |= 1u << i;
			m->st.key_loads++;
			return;
		}
		if (off == GEODE_SB_CBC_IV(i)) {
			shared_write(m, GEODE_SB_CTL_CBC);
			m->iv[i] = val;
			return;
		}
	}
	m->st.unknown++;
}

/* ---- MSRs ---- */

static bool msr_index(uint32_t msr, unsigned *i)
{
	if (msr < GEODE_SB_MSR_CAP || msr >= GEODE_SB_MSR_CAP + GEODE_SB_MODEL_NMSR)
		return false;
	*i = msr - GEODE_SB_MSR_CAP;
	return true;
}

int geode_sb_model_msr_read(void *ctx, uint32_t msr, uint64_t *val)
{
	struct geode_sb_model *m = ctx;
	unsigned i;

	m->st.msr_reads++;
	if ((m->faults & GEODE_SB_FAULT_MSR_GP) || !msr_index(msr, &i)) {
		m->st.msr_faults++;
		return HW_EFAULT;
	}
	*val = m->msr[i];
	return 0;
}

int geode_sb_model_msr_write(void *ctx, uint32_t msr, uint64_t val)
{
	struct geode_sb_model *m = ctx;
	unsigned i;

	m->st.msr_writes++;
	if ((m->faults & GEODE_SB_FAULT_MSR_GP) || !msr_index(msr, &i)) {
		m->st.msr_faults++;
		return HW_EFAULT;
	}
	if (i == 0) {
		m->st.ro_writes++;	/* CAP is read only: the write is dropped */
		return 0;
	}
	if (i == MSR_CTRL_IDX) {
		uint64_t tsel = (val & GEODE_SB_CTRL_T_SEL_MASK) >> GEODE_SB_CTRL_T_SEL_SHIFT;
		m->rng_state = m->rng_seed ^ (tsel << 56);	/* each mode its own stream */
		m->raw_left = 0;
		m->rng_valid = false;
		m->rng_wait = 0;
	}
	if (i == MSR_CTRL_IDX)
		val = (val | m->ctrl_force_set) & ~m->ctrl_force_clear;
	if (i == MSR_CTRL_IDX && (m->faults & GEODE_SB_FAULT_TRNG_MODE_STUCK)) {
		/* T_SEL and T_NE keep what they were: the writes do not stick */
		uint64_t keep = GEODE_SB_CTRL_T_SEL_MASK | GEODE_SB_CTRL_T_NE;
		val = (val & ~keep) | (m->msr[i] & keep);
	}
	m->msr[i] = val;
	return 0;
}
