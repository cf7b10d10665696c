/* Register-level model of the Geode LX security block. See geode_sb_model.h. */
#include "emu/models/geode_sb_model.h"

#include <stddef.h>
#include <string.h>

#include "drivers/geode_sb/glx_sb_reg.h"
#include "kernel/platform/hw.h"
#include "lib/platform/pci_enum.h"

static const char *const fault_names[GEODE_SB_NFAULTS] = {
	"dma-timeout", "wrong-data", "dma-overrun", "ignore-key",
	"rng-never-valid", "rng-stuck", "bar-unassigned", "msr-gp",
};

#define MSR_CTRL_IDX	(GLX_SB_MSR_CTRL - GLX_SB_MSR_CAP)

void geode_sb_model_init(struct geode_sb_model *m)
{
	memset(m, 0, sizeof(*m));
	m->bar0 = GEODE_SB_MODEL_BAR0;
	m->done_polls = 3;
	m->rng_polls = 2;
	m->sec_state = GEODE_SB_MODEL_SEC_UNLOCKED;
	memset(m->hidden_key, 0xFF, sizeof(m->hidden_key));
	m->rng_seed = 0x67656f64652dull;	/* "geode-" */
	m->stuck_value = 0x5A5A5A5Au;
	m->msr[0] = GLX_SB_CAP_ID;		/* revision 0 */
	m->aes_int = 0;
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

	f = pci_model_add(pm, 0, 1, 2, GLX_SB_VENDOR, GLX_SB_DEVICE, 0x10100000u, PCI_HDR_NORMAL);
	if (!f || pci_model_set_bar(f, 0, 0, base, GLX_SB_BAR_SIZE) != 0)
		return NULL;
	pci_model_poke32(f, PCI_CMD, m->pci_cmd);
	pci_model_poke32(f, PCI_INTR, 0x0100 | 10);	/* pin INTA, IRQ 10 */
	m->pci_fn = f;
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

static uint16_t pci_command(const struct geode_sb_model *m)
{
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

/* The end of an operation: DMA, cipher, flags. */
static void complete(struct geode_sb_model *m)
{
	uint32_t ctl = m->ctl[0], s = m->src[0] & ~0xFu, d = m->dst[0] & ~0xFu;
	uint32_t n = m->len[0] & ~0xFu, i;
	bool enc = ctl & GLX_SB_CTL_ENC;
	uint8_t key[16], iv[16], *out;
	const uint8_t *in;

	if ((ctl & GLX_SB_CTL_WK) && !(m->faults & GEODE_SB_FAULT_IGNORE_KEY))
		le_bytes(m->wkey, key);
	else
		memcpy(key, m->hidden_key, sizeof(key));
	if (n && dma_range_ok(s, n) && dma_range_ok(d, n)) {
		in = hw_bus_to_virt(s);
		out = hw_bus_to_virt(d);
		aes_set_key(&m->aes, key, sizeof(key));
		if (ctl & GLX_SB_CTL_CBC) {
			le_bytes(m->iv, iv);
			if (enc)
				aes_cbc_encrypt(&m->aes, iv, in, out, n);
			else
				aes_cbc_decrypt(&m->aes, iv, in, out, n);
			le_words(iv, m->iv);	/* the next IV, as Linux reads it back */
		} else if (enc) {
			aes_ecb_encrypt(&m->aes, in, out, n);
		} else {
			aes_ecb_decrypt(&m->aes, in, out, n);
		}
		aes_wipe(&m->aes);
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
	if (!m->st_sticky)
		m->ctl[0] &= ~(uint32_t)GLX_SB_CTL_ST;
	m->aes_int |= GLX_SB_INT_DONE_A;
	m->busy = false;
	m->st.completed++;
}

/* A read of CTL_A or AES_INT: time passes for a running operation. */
static void poll(struct geode_sb_model *m)
{
	if (!m->busy)
		return;
	m->st.polls++;
	if (m->faults & GEODE_SB_FAULT_DMA_TIMEOUT)
		return;
	if (!(pci_command(m) & PCI_CMD_MASTER))
		return;		/* the engine cannot fetch: it waits for ever */
	if (++m->busy_polls >= m->done_polls)
		complete(m);
}

static void start(struct geode_sb_model *m)
{
	m->st.starts++;
	m->st.last_ctl = m->ctl[0];
	if (m->len[0] == 0 || (m->len[0] & 0xF))
		m->st.bad_len++;
	if ((m->src[0] | m->dst[0]) & 0xF)
		m->st.unaligned++;
	if (!(pci_command(m) & PCI_CMD_MASTER))
		m->st.no_master++;
	if ((m->ctl[0] & GLX_SB_CTL_WK) && m->wkey_written == 0xF)
		m->st.fresh_key_starts++;
	m->wkey_written = 0;
	m->busy = true;
	m->busy_polls = 0;
	if (m->done_polls == 0)
		poll(m);
}

/* ---- TRNG ---- */

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);	/* Steele, Lea, Flood, OOPSLA 2014 */
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t rng_status(struct geode_sb_model *m)
{
	if ((m->faults & GEODE_SB_FAULT_RNG_NEVER_VALID) ||
	    !(m->msr[MSR_CTRL_IDX] & GLX_SB_CTRL_T_NE))
		return 0;
	if (!m->rng_valid && ++m->rng_wait >= m->rng_polls)
		m->rng_valid = true;
	return m->rng_valid ? GLX_SB_RNS_VALID : 0;
}

static uint32_t rng_take(struct geode_sb_model *m)
{
	uint64_t ctrl = m->msr[MSR_CTRL_IDX];

	if (!m->rng_valid && m->rng_polls) {
		m->st.rng_early++;
		return m->rnd;
	}
	m->rng_valid = false;
	m->rng_wait = 0;
	m->st.rng_words++;
	if (m->faults & GEODE_SB_FAULT_RNG_STUCK)
		m->rnd = m->stuck_value;
	else if (ctrl & GLX_SB_CTRL_T_TM)
		m->rnd = m->tm_count++;
	else
		m->rnd = (uint32_t)(splitmix64(&m->rng_state) >> 32);
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
	case GLX_SB_CTL_A:	poll(m); return m->ctl[0];
	case GLX_SB_CTL_B:	return m->ctl[1];
	case GLX_SB_AES_INT:	poll(m); return m->aes_int;
	case GLX_SB_SOURCE_A:	return m->src[0];
	case GLX_SB_DEST_A:	return m->dst[0];
	case GLX_SB_LENGTH_A:	return m->len[0];
	case GLX_SB_SOURCE_B:	return m->src[1];
	case GLX_SB_DEST_B:	return m->dst[1];
	case GLX_SB_LENGTH_B:	return m->len[1];
	case GLX_SB_RANDOM_NUM:	return rng_take(m);
	case GLX_SB_RANDOM_NUM_STATUS: return rng_status(m);
	case GLX_SB_EEPROM_SEC_STATE: return m->sec_state;
	case GLX_SB_EEPROM_COMM:
	case GLX_SB_EEPROM_ADDR:
	case GLX_SB_EEPROM_DATA: return 0;
	}
	for (i = 0; i < 4; i++) {
		if (off == GLX_SB_WKEY(i))
			return 0;	/* write only */
		if (off == GLX_SB_CBC_IV(i))
			return m->iv[i];
	}
	m->st.unknown++;
	return 0;
}

/* A write to a register an operation in progress depends on. */
static void busy_write(struct geode_sb_model *m)
{
	if (m->busy)
		m->st.writes_while_busy++;
}

void geode_sb_model_mmio_write(void *ctx, uint32_t off, uint32_t val, unsigned bytes)
{
	struct geode_sb_model *m = ctx;
	unsigned i;

	if (bytes != 4 || (off & 3))
		m->st.bad_size++;
	if (!(pci_command(m) & PCI_CMD_MEM)) {
		m->st.no_decode++;
		return;
	}
	off &= ~3u;
	switch (off) {
	case GLX_SB_CTL_A:
		busy_write(m);
		m->ctl[0] = val & 0x3F;
		if (val & GLX_SB_CTL_ST)
			start(m);
		return;
	case GLX_SB_CTL_B:	m->ctl[1] = val & 0x3E; return;	/* context B is not modelled */
	case GLX_SB_AES_INT:
		m->aes_int = (m->aes_int & ~(val & GLX_SB_INT_DONE_ALL) & ~GLX_SB_INT_MASK_ALL) |
			     (val & GLX_SB_INT_MASK_ALL);
		return;
	case GLX_SB_SOURCE_A:	busy_write(m); m->src[0] = val; return;
	case GLX_SB_DEST_A:	busy_write(m); m->dst[0] = val; return;
	case GLX_SB_LENGTH_A:	busy_write(m); m->len[0] = val; return;
	case GLX_SB_SOURCE_B:	m->src[1] = val; return;
	case GLX_SB_DEST_B:	m->dst[1] = val; return;
	case GLX_SB_LENGTH_B:	m->len[1] = val; return;
	case GLX_SB_RANDOM_NUM:
	case GLX_SB_RANDOM_NUM_STATUS:
		m->st.ro_writes++;
		return;
	case GLX_SB_EEPROM_COMM:
	case GLX_SB_EEPROM_ADDR:
	case GLX_SB_EEPROM_DATA:
	case GLX_SB_EEPROM_SEC_STATE:
		m->st.eeprom_writes++;
		return;
	}
	for (i = 0; i < 4; i++) {
		if (off == GLX_SB_WKEY(i)) {
			busy_write(m);
			m->wkey[i] = val;
			m->wkey_written |= 1u << i;
			m->st.key_loads++;
			return;
		}
		if (off == GLX_SB_CBC_IV(i)) {
			busy_write(m);
			m->iv[i] = val;
			return;
		}
	}
	m->st.unknown++;
}

/* ---- MSRs ---- */

static bool msr_index(uint32_t msr, unsigned *i)
{
	if (msr < GLX_SB_MSR_CAP || msr >= GLX_SB_MSR_CAP + GEODE_SB_MODEL_NMSR)
		return false;
	*i = msr - GLX_SB_MSR_CAP;
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
		uint64_t tsel = (val & GLX_SB_CTRL_T_SEL_MASK) >> GLX_SB_CTRL_T_SEL_SHIFT;
		m->rng_state = m->rng_seed ^ (tsel << 56);	/* each mode its own stream */
		m->rng_valid = false;
		m->rng_wait = 0;
	}
	m->msr[i] = val;
	return 0;
}
