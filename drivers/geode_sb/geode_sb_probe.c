/*
 * Geode LX security block: the probe. Finds PCI 1022:2082 (or says the
 * firmware hides it), checks GLD_MSR_CAP and BAR0, enables the device,
 * sets the TRNG defaults, reports the EEPROM lock state, registers the
 * engine and the RNG sources. And the hidden-key probe, a self-test run
 * after the writable-key ones. See geode_sb.h.
 */
#include <stdarg.h>
#include <string.h>

#include "kernel/platform/hw.h"
#include "kernel/platform/pci_bus.h"
#include "lib/crypto/aes.h"
#include "lib/util/fmt.h"
#include "lib/util/hex.h"
#include "drivers/geode_sb/geode_sb_int.h"
#include "drivers/geode_sb/geode_sb_reg.h"


static bool probe_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static bool probe_fail(const char *fmt, ...)
{
	va_list ap;
	if (!geode_sb_st.why[0]) {
		va_start(ap, fmt);
		fmt_vsnprintf(geode_sb_st.why, sizeof(geode_sb_st.why), fmt, ap);
		va_end(ap);
		geode_sb_st.absent = geode_sb_st.why;
	}
	return false;
}

/* GLD_MSR_CAP through the safe rdmsr: a #GP says this is no Geode LX. */
static bool check_msr(void)
{
	uint64_t cap;

	if (hw_rdmsr_safe(GEODE_SB_MSR_CAP, &cap) != 0) {
		fmt_snprintf(geode_sb_st.msr_text, sizeof(geode_sb_st.msr_text),
			     "rdmsr 0x%08x (GLD_MSR_CAP) raised #GP: no GeodeLink security block MSRs",
			     GEODE_SB_MSR_CAP);
		return probe_fail("%s", geode_sb_st.msr_text);
	}
	geode_sb_st.info.cap = cap;
	if ((cap & GEODE_SB_CAP_ID_MASK) != GEODE_SB_CAP_ID) {
		fmt_snprintf(geode_sb_st.msr_text, sizeof(geode_sb_st.msr_text),
			     "GLD_MSR_CAP=0x%016llx: device ID 0x%04x, expected 0x%04x (security block)",
			     (unsigned long long)cap, (unsigned)((cap & GEODE_SB_CAP_ID_MASK) >> 8),
			     GEODE_SB_CAP_ID >> 8);
		return probe_fail("%s", geode_sb_st.msr_text);
	}
	fmt_snprintf(geode_sb_st.msr_text, sizeof(geode_sb_st.msr_text), "GLD_MSR_CAP=0x%016llx, revision 0x%02x",
		     (unsigned long long)cap, (unsigned)(cap & GEODE_SB_CAP_REV_MASK));
	geode_sb_st.info.msr_ok = true;
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
	if (b->size < GEODE_SB_MEM_SIZE)
		return probe_fail("BAR0 is %llu bytes, the registers need 0x%x",
				  (unsigned long long)b->size, GEODE_SB_MEM_SIZE);
	if (b->base + GEODE_SB_MEM_SIZE > 0x100000000ull)
		return probe_fail("BAR0 at 0x%llx is above 4 GiB", (unsigned long long)b->base);
	geode_sb_st.info.bar0 = (uint32_t)b->base;
	return true;
}

/*
 * Memory decoding and bus mastering, where firmware left them off (the
 * net5501 comBIOS and OLPC's header leave 0x0006: both on). Only memory
 * decoding is required of the read-back: no source says bus mastering
 * gates this engine's DMA (Linux and NetBSD never set it), so a command
 * register that drops it is printed, not judged.
 */
static bool enable_pci(const struct pci_dev *d)
{
	uint32_t cmd = pci_cfg_read32(d, PCI_CMD) & 0xFFFF, want, back;

	want = cmd | PCI_CMD_MEM | PCI_CMD_MASTER;
	if (want != cmd)
		pci_cfg_write32(d, PCI_CMD, want);	/* status half 0: no W1C bit cleared */
	back = pci_cfg_read32(d, PCI_CMD) & 0xFFFF;
	if (!(back & PCI_CMD_MEM))
		return probe_fail("PCI command register did not keep memory decoding (wrote 0x%04x, reads 0x%04x)",
				  want, back);
	if (want != cmd)
		drv_log(&geode_sb_log, "PCI command 0x%04x -> 0x%04x (memory decoding, bus mastering)",
			 cmd, back);
	if (!(back & PCI_CMD_MASTER))
		drv_log(&geode_sb_log, "PCI command 0x%04x: bus mastering did not stick (information: no source says it gates this engine's DMA)",
			back);
	return true;
}

/*
 * TRNG defaults: noise on, T_SEL 3, test mode off (the BSDs' attach: read
 * CTRL, change only those bits, write it back). Afterwards only the bits
 * written are compared; the others are printed. A mismatch or a #GP
 * leaves the TRNG out (rng_why), never the AES engine.
 */
static void init_ctrl(void)
{
	uint64_t found, back = 0;
	struct geode_sb_info *in = &geode_sb_st.info;
	/* The swap bits set, by (CTRL & (SBI | SBY)) / SBI: SBI is bit 2, SBY bit 3. */
	static const char *const swap_names[4] = { "", "SBI", "SBY", "SBI, SBY" };
	const char *op = "rdmsr", *after = "";
	char val[24] = "";	/* the value written, for a #GP of the write */
	uint64_t other;
	unsigned swap;

	if (hw_rdmsr_safe(GEODE_SB_MSR_CTRL, &found) != 0)
		goto gp;
	in->ctrl_found = found;
	in->ctrl_set = geode_sb_trng_ctrl_default(found);
	swap = (unsigned)(found & (GEODE_SB_CTRL_SBI | GEODE_SB_CTRL_SBY)) / GEODE_SB_CTRL_SBI;
	if (swap)
		drv_log(&geode_sb_log, "MSR CTRL=0x%llx as found has the AES swap bits set (%s): every public driver leaves them clear; left as the firmware set them, so AES results are bit/byte swapped if the data book's meaning holds",
			(unsigned long long)found, swap_names[swap]);
	if (hw_wrmsr_safe(GEODE_SB_MSR_CTRL, in->ctrl_set) != 0) {
		op = "wrmsr";
		fmt_snprintf(val, sizeof(val), " <- 0x%llx", (unsigned long long)in->ctrl_set);
		goto gp;
	}
	if (hw_rdmsr_safe(GEODE_SB_MSR_CTRL, &back) != 0) {
		after = " after the write";
		goto gp;
	}
	in->ctrl_back = back;
	drv_log(&geode_sb_log, "MSR CTRL 0x%llx -> 0x%llx (noise on, T_SEL 3, test mode off), reads 0x%llx",
		(unsigned long long)found, (unsigned long long)in->ctrl_set, (unsigned long long)back);
	other = (back ^ in->ctrl_set) & ~(uint64_t)GEODE_SB_CTRL_OURS;
	if (other)
		drv_log(&geode_sb_log, "MSR CTRL bits not written by the driver read back changed (0x%llx, information: nothing documents them)",
			(unsigned long long)other);
	if ((back ^ in->ctrl_set) & GEODE_SB_CTRL_OURS) {
		fmt_snprintf(geode_sb_st.rng_why, sizeof(geode_sb_st.rng_why), "MSR CTRL reads 0x%llx after writing 0x%llx: T_NE/T_SEL/T_TM (0x%x) did not take, TRNG sources not registered",
			     (unsigned long long)back, (unsigned long long)in->ctrl_set, GEODE_SB_CTRL_OURS);
		return;
	}
	in->rng_ok = true;
	return;
gp:
	fmt_snprintf(geode_sb_st.rng_why, sizeof(geode_sb_st.rng_why), "%s 0x%08x (CTRL)%s raised #GP%s: TRNG not set up",
		     op, GEODE_SB_MSR_CTRL, val, after);
}

static const char *lock_name(uint32_t state, unsigned shift, char *buf, size_t n)
{
	unsigned v = (state >> shift) & GEODE_SB_SEC_FIELD;
	if (v == GEODE_SB_SEC_FIELD)
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
	uint32_t s = geode_sb_rd(GEODE_SB_EEPROM_SEC_STATE);

	geode_sb_st.info.sec_state = s;
	drv_log(&geode_sb_log, "eeprom: SEC_STATE=0x%08x write-protect lower=%s upper=%s extended=%s debug-lock=%s (read only; the EEPROM is never written)",
		 s, lock_name(s, GEODE_SB_SEC_WPL_SHIFT, a, sizeof(a)),
		 lock_name(s, GEODE_SB_SEC_WPU_SHIFT, b, sizeof(b)),
		 lock_name(s, GEODE_SB_SEC_WPE_SHIFT, c, sizeof(c)),
		 lock_name(s, GEODE_SB_SEC_DBL_SHIFT, d, sizeof(d)));
}

/* AES-128 of a zero block under the all-ones key (lib/crypto/aes): what the hidden key gives as shipped. */
void geode_sb_ones_block(uint8_t out[GEODE_SB_AES_BLOCK])
{
	static const uint8_t zero[GEODE_SB_AES_BLOCK];
	static struct aes_ctx c;
	uint8_t k[GEODE_SB_KEY_BYTES];

	memset(k, 0xFF, sizeof(k));
	aes_set_key(&c, k, sizeof(k));
	aes_encrypt_block(&c, zero, out);
	aes_wipe(&c);
}

/*
 * The hidden-key probe: one DMA operation with the hidden key (WK = 0) on
 * a zero block, on context B, so that an operation that never completes
 * leaves context A (every other request) free. Run after the writable-key
 * self-tests. Only the classification is given, never the hidden key's
 * ciphertext: all-ones key (the EEPROM as shipped), programmed (anything
 * else), unknown (the operation failed). No public driver issues a
 * hidden-key operation or uses context B (only Linux 2.6-era code had an
 * unreachable WK = 0 path), so the test is a finding
 * (lib/engine/driver.h): DRV_FAIL, when the operation does not complete,
 * is reported, never judged; context B then stays held by it, and every
 * later use of context B says so.
 */
enum drv_status geode_sb_t_hidden_key(const void *ctx, char *d, size_t cap)
{
	uint8_t want[GEODE_SB_AES_BLOCK];
	bool same, hung;
	int rc;
	(void)ctx;

	if (geode_sb_skip(GEODE_SB_NEED_OK, d, cap))
		return DRV_SKIP;
	memset(geode_sb_dma_b + GEODE_SB_DMA_SRC, 0, GEODE_SB_AES_BLOCK);
	rc = geode_sb_dma_ops(2, NULL, NULL, true, GEODE_SB_AES_BLOCK);
	geode_sb_ones_block(want);
	same = memcmp(want, geode_sb_dma_b + GEODE_SB_DMA_DST, sizeof(want)) == 0;
	geode_sb_wipe(geode_sb_dma_b + GEODE_SB_DMA_DST, GEODE_SB_AES_BLOCK);
	geode_sb_wipe(want, sizeof(want));
	if (rc != ENGINE_OK) {
		geode_sb_st.info.hidden_key = GEODE_SB_HKEY_UNKNOWN;
		hung = rc == ENGINE_ETIMEOUT && !geode_sb_ctx_idle(1);
		fmt_snprintf(d, cap, "hidden key: unknown: %s%s%s",
			     hung ? "the operation with the hidden key (WK = 0) did not complete: " : "",
			     geode_sb_last_error(), hung ? "; context B left to it, context A unaffected" : "");
		return DRV_FAIL;
	}
	geode_sb_st.info.hidden_key = same ? GEODE_SB_HKEY_FACTORY : GEODE_SB_HKEY_PROGRAMMED;
	if (same)
		fmt_snprintf(d, cap, "factory all-ones hidden key");
	else
		fmt_snprintf(d, cap, "hidden key programmed (not all ones)");
	return DRV_PASS;
}

static const char no_device[] = "no 1022:2082 device";	/* the absent reason, and in the log */

/* No PCI function: the GeodeLink MSR tells firmware without VSA from no block at all. */
static void probe_absent(void)
{
	uint64_t cap;

	if (hw_rdmsr_safe(GEODE_SB_MSR_CAP, &cap) == 0 &&
	    (cap & GEODE_SB_CAP_ID_MASK) == GEODE_SB_CAP_ID) {
		geode_sb_st.info.no_vsa = true;
		geode_sb_st.info.msr_ok = true;
		geode_sb_st.info.cap = cap;
		geode_sb_st.absent = GEODE_SB_NO_VSA;
		drv_log(&geode_sb_log, "%s, but GLD_MSR_CAP=0x%016llx identifies the security block: %s (the engine is not used without its PCI BAR)",
			no_device, (unsigned long long)cap, GEODE_SB_NO_VSA);
		return;
	}
	drv_log(&geode_sb_log, "%s: no Geode LX security block here", no_device);
}

void geode_sb_probe(void)
{
	const struct pci_dev *d;
	bool ok;
	uint32_t ctl;

	memset(&geode_sb_st, 0, sizeof(geode_sb_st));
	geode_sb_st.absent = no_device;
	geode_sb_base = 0;
	geode_sb_wipe(geode_sb_dma, sizeof(geode_sb_dma));
	geode_sb_wipe(geode_sb_dma_b, sizeof(geode_sb_dma_b));
	geode_sb_trng_reset();

	d = pci_find(GEODE_SB_VENDOR, GEODE_SB_DEVICE);
	if (!d) {
		probe_absent();
		return;
	}
	geode_sb_st.info.found = true;
	geode_sb_st.info.bus = d->bus;
	geode_sb_st.info.dev = d->dev;
	geode_sb_st.info.fn = d->fn;
	geode_sb_st.absent = NULL;
	ok = check_msr();
	ok = check_bar(d) && ok;
	ok = ok && enable_pci(d);
	if (ok)
		geode_sb_base = geode_sb_st.info.bar0;
	drv_log(&geode_sb_log, "1022:2082 at %02x:%02x.%x BAR0=0x%08x %s", d->bus, d->dev, d->fn,
		 geode_sb_st.info.bar0, geode_sb_st.msr_text);
	if (!ok) {
		drv_log(&geode_sb_log, "probe failed: %s", geode_sb_st.absent);
		return;
	}
	init_ctrl();
	if (geode_sb_st.rng_why[0])
		drv_log(&geode_sb_log, "%s", geode_sb_st.rng_why);
	geode_sb_wr(GEODE_SB_AES_INT, GEODE_SB_INT_MASK_ALL | GEODE_SB_INT_DONE_ALL);
	for (unsigned c = 0; c < GEODE_SB_CONTEXTS; c++) {
		ctl = geode_sb_rd(GEODE_SB_CTL_A + c * (GEODE_SB_CTL_B - GEODE_SB_CTL_A));
		if (!(ctl & GEODE_SB_CTL_ST))
			continue;
		/* Firmware left an operation running: no register it may use is written until it ends. */
		geode_sb_st.wedged[c] = true;
		geode_sb_st.wedged_keys[c] = true;
		geode_sb_st.stats.busy_at_probe++;
		if (c == 0)
			drv_log(&geode_sb_log, "engine busy when the image started: CTL_A=0x%08x (ST set, left by firmware); its registers are not written until it completes",
				ctl);
		else
			drv_log(&geode_sb_log, "engine busy when the image started: CTL_B=0x%08x (ST set, left by firmware); its registers are not written until it completes",
				ctl);
	}
	geode_sb_st.info.ok = true;
	report_eeprom();
	if (engine_register_aes(&geode_sb_aes) != ENGINE_OK)
		drv_log(&geode_sb_log, "engine registry full: geode-sb not registered");
	if (geode_sb_st.info.rng_ok)
		geode_sb_trng_register();
}
