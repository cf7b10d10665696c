/*
 * Geode LX security block: the probe. Finds PCI 1022:2082, checks
 * GLD_MSR_CAP and BAR0, enables the device, sets the TRNG defaults,
 * reports the EEPROM lock state and the hidden key, registers the engine
 * and the RNG sources. See geode_sb.h.
 */
#include <stdarg.h>
#include <string.h>

#include "kernel/platform/hw.h"
#include "kernel/platform/pci_bus.h"
#include "lib/crypto/aes.h"
#include "lib/util/fmt.h"
#include "lib/util/hex.h"
#include "drivers/geode_sb/geode_sb_int.h"
#include "drivers/geode_sb/glx_sb_reg.h"

static char *hex16(const uint8_t *b, char *buf, size_t cap)
{
	return hex_encode(b, GLX_SB_AES_BLOCK, buf, cap);
}

static bool probe_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static bool probe_fail(const char *fmt, ...)
{
	va_list ap;
	if (!glx_sb.why[0]) {
		va_start(ap, fmt);
		fmt_vsnprintf(glx_sb.why, sizeof(glx_sb.why), fmt, ap);
		va_end(ap);
		glx_sb.absent = glx_sb.why;
	}
	return false;
}

/* GLD_MSR_CAP through the safe rdmsr: a #GP says this is no Geode LX. */
static bool check_msr(void)
{
	uint64_t cap;

	if (hw_rdmsr_safe(GLX_SB_MSR_CAP, &cap) != 0) {
		fmt_snprintf(glx_sb.msr_text, sizeof(glx_sb.msr_text),
			     "rdmsr 0x%08x (GLD_MSR_CAP) raised #GP: no GeodeLink security block MSRs",
			     GLX_SB_MSR_CAP);
		return probe_fail("%s", glx_sb.msr_text);
	}
	glx_sb.info.cap = cap;
	if ((cap & GLX_SB_CAP_ID_MASK) != GLX_SB_CAP_ID) {
		fmt_snprintf(glx_sb.msr_text, sizeof(glx_sb.msr_text),
			     "GLD_MSR_CAP=0x%016llx: device ID 0x%04x, expected 0x%04x (security block)",
			     (unsigned long long)cap, (unsigned)((cap & GLX_SB_CAP_ID_MASK) >> 8),
			     GLX_SB_CAP_ID >> 8);
		return probe_fail("%s", glx_sb.msr_text);
	}
	fmt_snprintf(glx_sb.msr_text, sizeof(glx_sb.msr_text), "GLD_MSR_CAP=0x%016llx, revision 0x%02x",
		     (unsigned long long)cap, (unsigned)(cap & GLX_SB_CAP_REV_MASK));
	glx_sb.info.msr_ok = true;
	return true;
}

static bool check_bar(const struct pci_dev *d)
{
	const struct pci_bar *b = NULL;
	unsigned i;

	for (i = 0; i < d->nbars; i++)
		if (d->bars[i].index == 0)
			b = &d->bars[i];
	if (!b)
		return probe_fail("BAR0 not implemented (reads 0 even after sizing)");
	if (b->flags & PCI_BAR_IO)
		return probe_fail("BAR0 is an I/O BAR, expected 16 KiB of memory");
	if (b->flags & PCI_BAR_UNASSIGNED)
		return probe_fail("BAR0 unassigned: it reads 0, the firmware gave the block no address (size %llu bytes)",
				  (unsigned long long)b->size);
	if (b->size < GLX_SB_MEM_SIZE)
		return probe_fail("BAR0 is %llu bytes, the registers need 0x%x",
				  (unsigned long long)b->size, GLX_SB_MEM_SIZE);
	if (b->base + GLX_SB_MEM_SIZE > 0x100000000ull)
		return probe_fail("BAR0 at 0x%llx is above 4 GiB", (unsigned long long)b->base);
	glx_sb.info.bar0 = (uint32_t)b->base;
	return true;
}

/* Memory decoding and bus mastering (the engine is a DMA master). */
static bool enable_pci(const struct pci_dev *d)
{
	uint32_t cmd = pci_cfg_read32(d, PCI_CMD) & 0xFFFF, want, back;

	want = cmd | PCI_CMD_MEM | PCI_CMD_MASTER;
	if (want != cmd)
		pci_cfg_write32(d, PCI_CMD, want);	/* status half 0: no W1C bit cleared */
	back = pci_cfg_read32(d, PCI_CMD) & 0xFFFF;
	if ((back & (PCI_CMD_MEM | PCI_CMD_MASTER)) != (PCI_CMD_MEM | PCI_CMD_MASTER))
		return probe_fail("PCI command register did not keep memory decoding and bus mastering (wrote 0x%04x, reads 0x%04x)",
				  want, back);
	if (want != cmd)
		drv_log(&geode_sb_log, "PCI command 0x%04x -> 0x%04x (memory decoding, bus mastering)",
			 cmd, back);
	return true;
}

/* TRNG defaults: noise on, T_SEL 3, test mode off (the BSDs' attach). */
static bool init_ctrl(void)
{
	uint64_t found, back;

	if (hw_rdmsr_safe(GLX_SB_MSR_CTRL, &found) != 0)
		return probe_fail("rdmsr 0x%08x (CTRL) raised #GP", GLX_SB_MSR_CTRL);
	glx_sb.info.ctrl_found = found;
	glx_sb.info.ctrl_set = glx_trng_ctrl_default(found);
	if (hw_wrmsr_safe(GLX_SB_MSR_CTRL, glx_sb.info.ctrl_set) != 0)
		return probe_fail("wrmsr 0x%08x (CTRL) <- 0x%llx raised #GP", GLX_SB_MSR_CTRL,
				  (unsigned long long)glx_sb.info.ctrl_set);
	if (hw_rdmsr_safe(GLX_SB_MSR_CTRL, &back) != 0 || back != glx_sb.info.ctrl_set)
		return probe_fail("MSR CTRL reads 0x%llx after writing 0x%llx",
				  (unsigned long long)back, (unsigned long long)glx_sb.info.ctrl_set);
	return true;
}

static const char *lock_name(uint32_t state, unsigned shift, char *buf, size_t n)
{
	unsigned v = (state >> shift) & GLX_SB_SEC_FIELD;
	if (v == GLX_SB_SEC_FIELD)
		return "unlocked";
	if (v == 0)
		return "locked";
	fmt_snprintf(buf, n, "locked(bits %u%u%u)", (v >> 2) & 1, (v >> 1) & 1, v & 1);
	return buf;
}

/* EEPROM_SEC_STATE, read only: the EEPROM itself is never written. */
static void report_eeprom(void)
{
	char a[24], b[24], c[24], d[24];
	uint32_t s = glx_sb_rd(GLX_SB_EEPROM_SEC_STATE);

	glx_sb.info.sec_state = s;
	drv_log(&geode_sb_log, "eeprom: SEC_STATE=0x%08x write-protect lower=%s upper=%s extended=%s debug-lock=%s (read only; the EEPROM is never written)",
		 s, lock_name(s, GLX_SB_SEC_WPL_SHIFT, a, sizeof(a)),
		 lock_name(s, GLX_SB_SEC_WPU_SHIFT, b, sizeof(b)),
		 lock_name(s, GLX_SB_SEC_WPE_SHIFT, c, sizeof(c)),
		 lock_name(s, GLX_SB_SEC_DBL_SHIFT, d, sizeof(d)));
}

/* Encrypts with key (16 bytes) in software. */
static void sw_block(const uint8_t *key, const uint8_t *in, uint8_t *out)
{
	static struct aes_ctx c;
	aes_set_key(&c, key, GLX_SB_KEY_BYTES);
	aes_encrypt_block(&c, in, out);
	aes_wipe(&c);
}

/*
 * One DMA operation with the hidden key (WK = 0) on a zero block, compared
 * with the all-ones key (an EEPROM as shipped) and the all-zero key.
 */
static void probe_hidden_key(void)
{
	static const uint8_t zero[GLX_SB_AES_BLOCK];
	uint8_t k[GLX_SB_KEY_BYTES], want[GLX_SB_AES_BLOCK];
	char hex[40];
	int rc;

	memset(glx_sb_dma + GLX_SB_DMA_SRC, 0, GLX_SB_AES_BLOCK);
	rc = glx_sb_run_dma(NULL, NULL, true, GLX_SB_AES_BLOCK);
	if (rc == ENGINE_OK) {
		memcpy(glx_sb.hkey_out, glx_sb_dma + GLX_SB_DMA_DST, GLX_SB_AES_BLOCK);
		glx_sb.have_hkey_out = true;
	}
	glx_sb_wipe_after(GLX_SB_AES_BLOCK);
	if (rc != ENGINE_OK) {
		glx_sb.info.hidden_key = GEODE_SB_HKEY_UNKNOWN;
		drv_log(&geode_sb_log, "eeprom: hidden key: unknown (the DMA with the hidden key failed: see the error above)");
		return;
	}
	memset(k, 0xFF, sizeof(k));
	sw_block(k, zero, want);
	if (memcmp(want, glx_sb.hkey_out, sizeof(want)) == 0) {
		glx_sb.info.hidden_key = GEODE_SB_HKEY_FACTORY;
		drv_log(&geode_sb_log, "eeprom: hidden key: not programmed (encrypts like the factory all-ones key)");
		return;
	}
	memset(k, 0, sizeof(k));
	sw_block(k, zero, want);
	if (memcmp(want, glx_sb.hkey_out, sizeof(want)) == 0) {
		glx_sb.info.hidden_key = GEODE_SB_HKEY_ZERO;
		drv_log(&geode_sb_log, "eeprom: hidden key: all zeros (no EEPROM fitted, or a zero key programmed)");
		return;
	}
	glx_sb.info.hidden_key = GEODE_SB_HKEY_PROGRAMMED;
	drv_log(&geode_sb_log, "eeprom: hidden key: in use (programmed; E(0) = %s matches neither the all-ones nor the all-zero key)",
		 hex16(glx_sb.hkey_out, hex, sizeof(hex)));
}

void geode_sb_probe(void)
{
	const struct pci_dev *d;
	bool ok;
	uint32_t ctl;

	memset(&glx_sb, 0, sizeof(glx_sb));
	glx_sb.absent = "no 1022:2082 device";
	glx_sb_base = 0;
	glx_sb_wipe(glx_sb_dma, sizeof(glx_sb_dma));
	geode_trng_reset();

	d = pci_find(GLX_SB_VENDOR, GLX_SB_DEVICE);
	if (!d) {
		drv_log(&geode_sb_log, "no 1022:2082 device: no Geode LX security block here");
		return;
	}
	glx_sb.info.found = true;
	glx_sb.info.bus = d->bus;
	glx_sb.info.dev = d->dev;
	glx_sb.info.fn = d->fn;
	glx_sb.absent = NULL;
	ok = check_msr();
	ok = check_bar(d) && ok;
	ok = ok && enable_pci(d);
	if (ok)
		glx_sb_base = glx_sb.info.bar0;
	ok = ok && init_ctrl();
	drv_log(&geode_sb_log, "1022:2082 at %02x:%02x.%x BAR0=0x%08x %s", d->bus, d->dev, d->fn,
		 glx_sb.info.bar0, glx_sb.msr_text);
	if (!ok) {
		drv_log(&geode_sb_log, "probe failed: %s", glx_sb.absent);
		return;
	}
	drv_log(&geode_sb_log, "MSR CTRL 0x%llx -> 0x%llx (noise on, T_SEL 3, test mode off)",
		 (unsigned long long)glx_sb.info.ctrl_found, (unsigned long long)glx_sb.info.ctrl_set);
	glx_sb_wr(GLX_SB_AES_INT, GLX_SB_INT_MASK_ALL | GLX_SB_INT_DONE_ALL);
	ctl = glx_sb_rd(GLX_SB_CTL_A);
	if (ctl & GLX_SB_CTL_ST) {
		glx_sb.wedged = true;
		drv_log(&geode_sb_log, "CTL_A=0x%08x at probe: an operation is running", ctl);
	}
	glx_sb.info.ok = true;
	report_eeprom();
	probe_hidden_key();
	if (engine_register_aes(&glx_sb_engine) != ENGINE_OK)
		drv_log(&geode_sb_log, "engine registry full: geode-sb not registered");
	geode_trng_register();
}
