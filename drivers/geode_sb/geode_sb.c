/*
 * Geode LX security block: AES-128 ECB/CBC through DMA context A, and the
 * driver's state and error record. See geode_sb.h; register facts in
 * geode_sb_reg.h; the probe is geode_sb_probe.c.
 *
 * One request becomes one or more DMA operations of at most
 * GEODE_SB_CHUNK bytes. Each copies the caller's data into the source
 * bounce buffer, loads key and IV, starts the engine with source and
 * destination coherent, waits (bounded) for ST to clear or the A flag,
 * clears the flag, checks the guard bytes around the destination, and
 * copies the result out. The DMA area, laid out once in .bss (paging is
 * off: a pointer is a bus address, see hw_dma_addr):
 *
 *   [source: CHUNK][guard: GUARD][destination: CHUNK][room for the guard after it: GUARD]
 *
 * The guard after the destination is placed right after the n bytes of
 * each operation, so a device writing past a short request is caught too.
 */
#include "drivers/geode_sb/geode_sb.h"

#include <stdarg.h>
#include <string.h>

#include "kernel/platform/hw.h"
#include "kernel/platform/timer.h"
#include "lib/util/fmt.h"
#include "drivers/geode_sb/geode_sb_int.h"
#include "drivers/geode_sb/geode_sb_reg.h"
#include "lib/util/bytes.h"
#include "lib/util/wait.h"

#define SB_ALL_PAIRS	(AES_TRIPLE_BIT(AES_MODE_ECB, AES_DIR_ENCRYPT) | \
			 AES_TRIPLE_BIT(AES_MODE_ECB, AES_DIR_DECRYPT) | \
			 AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_ENCRYPT) | \
			 AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_DECRYPT))

uintptr_t geode_sb_base;

uint8_t geode_sb_dma[GEODE_SB_DMA_BYTES] __attribute__((aligned(GEODE_SB_DMA_ALIGN)));

/* Zero until the probe (in .bss: an initialiser would put its 1152 bytes in the image). */
struct geode_sb_state geode_sb_st;

static int sb_set_key(struct aes_session *s, const uint8_t *key, unsigned key_bits);
static int sb_crypt(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		    uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len);
static void sb_release(struct aes_session *s);
static int sb_crypt_dual(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
			 uint8_t *iv_a, const uint8_t *in_a, uint8_t *out_a,
			 uint8_t *iv_b, const uint8_t *in_b, uint8_t *out_b, size_t len);

struct aes_engine geode_sb_aes = {
	.name = "geode-sb",
	.description = "AMD Geode LX security block, DMA context A (PCI 1022:2082)",
	.supported = { SB_ALL_PAIRS, 0, 0 },
	.align = 1,
	.max_len = 0,
	.set_key = sb_set_key,
	.crypt = sb_crypt,
	.release = sb_release,
	.crypt_dual = sb_crypt_dual,
	.dual_mode = AES_MODE_ECB,
	.dual_dir = AES_DIR_ENCRYPT,
	.dual_what = "contexts A and B started together, same key, ECB encrypt, each the column's size "
		     "(both counted): the contexts share WKEY0..3 and CBC_IV0..3 [DB 6.11], so only "
		     "same-key ECB can run on both at once; compare with the row without :dual-context "
		     "(context A alone)",
};

/* The registers and DMA area of each context [DB 6.12.3]. */
struct geode_sb_dma_ctx {
	const char *name;		/* "A", "B" */
	unsigned ctl, src, dst, len;
	uint32_t done;			/* its AES_INT completion flag */
	uint8_t *area;
};
uint8_t geode_sb_dma_b[GEODE_SB_DMA_BYTES] __attribute__((aligned(GEODE_SB_DMA_ALIGN)));
static const struct geode_sb_dma_ctx dma_ctx[GEODE_SB_CONTEXTS] = {
	{ "A", GEODE_SB_CTL_A, GEODE_SB_SOURCE_A, GEODE_SB_DEST_A, GEODE_SB_LENGTH_A, GEODE_SB_INT_DONE_A,
	  geode_sb_dma },
	{ "B", GEODE_SB_CTL_B, GEODE_SB_SOURCE_B, GEODE_SB_DEST_B, GEODE_SB_LENGTH_B, GEODE_SB_INT_DONE_B,
	  geode_sb_dma_b },
};

/* ---- small helpers ---- */

uint32_t geode_sb_rd(unsigned off)
{
	return hw_mmio_read32(geode_sb_base + off);
}

void geode_sb_wr(unsigned off, uint32_t val)
{
	hw_mmio_write32(geode_sb_base + off, val);
}

struct drv_log geode_sb_log;

/*
 * The error record: last_err = "<who>: <text>"; the log gets the text
 * alone for the block's own errors (its lines are attributed already),
 * with the source's name for the TRNG's.
 */
static void sb_verror(const char *who, const char *fmt, va_list ap)
{
	char *e = geode_sb_st.last_err;
	size_t n = fmt_snprintf(e, sizeof(geode_sb_st.last_err), "%s: ", who ? who : geode_sb_aes.name);

	fmt_vsnprintf(e + n, sizeof(geode_sb_st.last_err) - n, fmt, ap);
	geode_sb_st.stats.errors++;
	if (geode_sb_st.err_printed < GEODE_SB_ERR_PRINT) {
		drv_log(&geode_sb_log, "%s", who ? e : e + n);
		if (++geode_sb_st.err_printed == GEODE_SB_ERR_PRINT)
			drv_log(&geode_sb_log, "further errors are not printed");
	}
}

void geode_sb_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_verror(NULL, fmt, ap);
	va_end(ap);
}

void geode_sb_trng_error(const char *source, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_verror(source, fmt, ap);
	va_end(ap);
}

uint64_t geode_sb_ticks_per_s(void)
{
	return tsc_hz() ? tsc_hz() : tsc_ticks_for_us(1000000);
}

uint64_t geode_sb_trng_ctrl_default(uint64_t found)
{
	found &= ~(uint64_t)(GEODE_SB_CTRL_T_TM | GEODE_SB_CTRL_T_SEL_MASK);
	return found | GEODE_SB_CTRL_T_NE | (GEODE_SB_T_SEL_BOTH << GEODE_SB_CTRL_T_SEL_SHIFT);
}

/* Zeroes n bytes; the barrier keeps the compiler from dropping the stores. */
void geode_sb_wipe(void *p, size_t n)
{
	memset(p, 0, n);
	__asm__ volatile("" : : "r"(p) : "memory");
}

/* TSC ticks an operation of n bytes may take (geode_sb.h). */
static uint64_t wait_ticks(size_t n)
{
	return tsc_ticks_for_us(GEODE_SB_WAIT_BASE_US +
				(uint64_t)(n / GEODE_SB_AES_BLOCK) * GEODE_SB_WAIT_US_PER_BLOCK);
}

/* ---- DMA ---- */

static uint8_t guard_byte(unsigned i)
{
	return (uint8_t)(0xA5u ^ (i * 0x3Du));
}

static void guards_fill(uint8_t *dst, size_t n)
{
	unsigned i;
	for (i = 0; i < GEODE_SB_GUARD; i++) {
		dst[-GEODE_SB_GUARD + (int)i] = guard_byte(i);
		dst[n + i] = guard_byte(GEODE_SB_GUARD + i);
	}
}

/*
 * Checks the guards around the n-byte destination at bus address dst_bus
 * of context c: side 0 the GEODE_SB_GUARD bytes before it, side 1 those
 * after it. Each damaged side is described by how many bytes changed and
 * the bus addresses of the first and last; one error names both sides.
 */
static int guards_check(const uint8_t *dst, size_t n, uint32_t dst_bus, unsigned c)
{
	static const char *const where[3] = {
		"before the destination changed", "after the destination changed", "after it",
	};
	char side[2][80];
	const uint8_t *p;
	uint32_t at;
	unsigned s, i, count = 0, first = 0, last = 0, damaged = 0;

	for (s = 0; s < 2; s++) {
		p = s ? dst + n : dst - GEODE_SB_GUARD;
		at = s ? dst_bus + (uint32_t)n : dst_bus - GEODE_SB_GUARD;
		side[s][0] = '\0';
		for (i = count = 0; i < GEODE_SB_GUARD; i++) {
			if (p[i] == guard_byte(s * GEODE_SB_GUARD + i))
				continue;
			if (count++ == 0)
				first = i;
			last = i;
		}
		if (!count)
			continue;
		fmt_snprintf(side[s], sizeof(side[s]), "%s%u bytes %s, at 0x%08x-0x%08x",
			     damaged ? ", and " : "", count, where[s + damaged], at + first, at + last);
		damaged = 1;
	}
	if (!damaged)
		return ENGINE_OK;
	geode_sb_st.stats.overruns++;
	geode_sb_error("DMA overrun: %s%s (DEST_%s=0x%08x LEN=%u)", side[0], side[1],
		     dma_ctx[c].name, dst_bus, (unsigned)n);
	if (!geode_sb_st.stats.first_overrun[0])
		fmt_snprintf(geode_sb_st.stats.first_overrun, sizeof(geode_sb_st.stats.first_overrun), "%s",
			     geode_sb_st.last_err);
	return ENGINE_EHW;
}

/* Writes the 16 bytes at p (NULL: zeros) to WKEY0..3 (off GEODE_SB_WKEY(0)) or CBC_IV0..3. */
static void wr_block(unsigned off, const uint8_t *p)
{
	unsigned i;
	for (i = 0; i < 4; i++)
		geode_sb_wr(off + 4 * i, p ? le32_get(p + 4 * i) : 0);
}

/* Zeroes WKEY0..3 and CBC_IV0..3; only while the engine is idle. */
static void wipe_key_regs(void)
{
	wr_block(GEODE_SB_WKEY(0), NULL);
	wr_block(GEODE_SB_CBC_IV(0), NULL);
	geode_sb_st.stats.key_wipes++;
	geode_sb_st.keys_unwiped = false;
}

/*
 * After a timeout a context may still be running: none of the registers
 * its operation uses may be written until it is seen done (geode_sb.h).
 * Re-reads its CTL and AES_INT up to GEODE_SB_IDLE_POLLS times; the last
 * values stay in busy_ctl/busy_int for the error text.
 */
static bool ctx_idle(unsigned c)
{
	const struct geode_sb_dma_ctx *x = &dma_ctx[c];
	uint32_t ctl = 0, aint = 0;
	unsigned i;

	if (!geode_sb_st.wedged[c])
		return true;
	for (i = 0; i < GEODE_SB_IDLE_POLLS; i++) {
		ctl = geode_sb_rd(x->ctl);
		aint = geode_sb_rd(GEODE_SB_AES_INT);
		if (!(ctl & GEODE_SB_CTL_ST) || (aint & x->done))
			break;
	}
	geode_sb_st.busy_ctl = ctl;
	geode_sb_st.busy_int = aint;
	if (i == GEODE_SB_IDLE_POLLS)
		return false;
	geode_sb_st.wedged[c] = false;
	geode_sb_st.wedged_keys[c] = false;
	geode_sb_wr(GEODE_SB_AES_INT, GEODE_SB_INT_MASK_ALL | x->done);
	if (c == 0)
		drv_log(&geode_sb_log, "the timed-out operation has completed since (CTL_A=0x%08x AES_INT=0x%08x)",
			ctl, aint);
	else
		drv_log(&geode_sb_log, "the timed-out operation on context B has completed since (CTL_B=0x%08x AES_INT=0x%08x)",
			ctl, aint);
	return true;
}

/* Whether WKEY0..3 / CBC_IV0..3 may be written: no running operation uses them. */
static bool keys_writable(void)
{
	unsigned c;
	for (c = 0; c < GEODE_SB_CONTEXTS; c++)
		if (geode_sb_st.wedged_keys[c] && !ctx_idle(c))
			return false;
	return true;
}

bool geode_sb_engine_idle(void)
{
	if (!ctx_idle(0) || !keys_writable())
		return false;
	if (geode_sb_st.keys_unwiped) {
		wipe_key_regs();
		drv_log(&geode_sb_log, "WKEY0..3 and CBC_IV0..3 wiped now, after the timed-out operation completed");
	}
	return true;
}

bool geode_sb_ctx_idle(unsigned c)
{
	return ctx_idle(c);
}

/* What the completion wait polls: the contexts still running, and the registers last read. */
struct dma_wait {
	unsigned pending;		/* bit c: context c not seen done yet */
	uint32_t ctl, aint;		/* CTL of the last context polled, AES_INT */
};

/*
 * One poll of every pending context: done when CTL.ST is clear (the BSDs'
 * test) or its AES_INT flag is set (Linux's test) [geode_sb_reg.h].
 */
static bool dma_poll(void *p)
{
	struct dma_wait *w = p;
	unsigned c;

	for (c = 0; c < GEODE_SB_CONTEXTS; c++) {
		if (!(w->pending & (1u << c)))
			continue;
		w->ctl = geode_sb_rd(dma_ctx[c].ctl);
		w->aint = geode_sb_rd(GEODE_SB_AES_INT);
		if (!(w->ctl & GEODE_SB_CTL_ST)) {
			geode_sb_st.stats.done_by_st++;
			w->pending &= ~(1u << c);
		} else if (w->aint & dma_ctx[c].done) {
			geode_sb_st.stats.done_by_flag++;
			w->pending &= ~(1u << c);
		}
	}
	return w->pending == 0;
}

/*
 * DMA operations of n bytes (16..GEODE_SB_CHUNK, a multiple of 16) on the
 * contexts in mask (bit 0 A, bit 1 B), each from its source bounce buffer,
 * already filled, into its destination one, started together (CTL_A
 * first) and waited for together. key: 16 bytes for WKEY0..3 (shared), or
 * NULL for the hidden key. iv: 16 bytes for CBC (one context only: CBC_IV
 * is shared), NULL for ECB. Returns 0, ENGINE_ETIMEOUT or ENGINE_EHW.
 */
int geode_sb_dma_ops(unsigned mask, const uint8_t *key, const uint8_t *iv, bool enc, size_t n)
{
	uint32_t src_bus[GEODE_SB_CONTEXTS], dst_bus[GEODE_SB_CONTEXTS], ctl, c_now;
	/* Masks on, the completion flags of the contexts used cleared (W1C). */
	uint32_t int_clear = GEODE_SB_INT_MASK_ALL | GEODE_SB_INT_DONE_A | (mask & 2 ? GEODE_SB_INT_DONE_B : 0);
	struct dma_wait w = { mask, 0, 0 };
	uint64_t elapsed = 0, limit;
	unsigned long polls = 0;
	unsigned c, nctx = 0;
	int rc = ENGINE_OK, rc2;

	for (c = 0; c < GEODE_SB_CONTEXTS; c++) {
		uint8_t *src = dma_ctx[c].area + GEODE_SB_DMA_SRC, *dst = dma_ctx[c].area + GEODE_SB_DMA_DST;
		if (!(mask & (1u << c)))
			continue;
		nctx++;
		if (geode_sb_st.inplace_dma) {
			memcpy(dst, src, n);
			src = dst;
		}
		src_bus[c] = hw_dma_addr(src);
		dst_bus[c] = hw_dma_addr(dst);
		if (src_bus[c] == HW_DMA_NONE || dst_bus[c] == HW_DMA_NONE ||
		    ((src_bus[c] | dst_bus[c]) & (GEODE_SB_DMA_ALIGN - 1))) {
			geode_sb_error("DMA buffers unreachable or misaligned: SRC=0x%08x DST=0x%08x",
				     src_bus[c], dst_bus[c]);
			return ENGINE_EHW;
		}
		if (c == 1 && !ctx_idle(1)) {
			if (geode_sb_st.held_by_hidden_key)
				geode_sb_error("context B still held by the hidden-key operation (WK = 0) that timed out: CTL_B=0x%08x AES_INT=0x%08x (checked %u times; no register written; context A unaffected)",
					       geode_sb_st.busy_ctl, geode_sb_st.busy_int, GEODE_SB_IDLE_POLLS);
			else
				geode_sb_error("context B still held by an operation that timed out: CTL_B=0x%08x AES_INT=0x%08x (checked %u times; no register written; context A unaffected)",
					       geode_sb_st.busy_ctl, geode_sb_st.busy_int, GEODE_SB_IDLE_POLLS);
			return ENGINE_ETIMEOUT;
		}
		if (!ctx_idle(c) || ((key || iv) && !keys_writable()) || (c == 0 && !geode_sb_engine_idle())) {
			geode_sb_error("engine still busy with a timed-out operation: CTL_%s=0x%08x AES_INT=0x%08x (checked %u times; no register written)",
				     geode_sb_st.wedged[c] ? dma_ctx[c].name : "A", geode_sb_st.busy_ctl,
				     geode_sb_st.busy_int, GEODE_SB_IDLE_POLLS);
			return ENGINE_ETIMEOUT;
		}
	}
	ctl = GEODE_SB_CTL_ST | GEODE_SB_CTL_DC | GEODE_SB_CTL_SC;
	if (enc)
		ctl |= GEODE_SB_CTL_ENC;
	for (c = 0; c < GEODE_SB_CONTEXTS; c++) {
		if (!(mask & (1u << c)))
			continue;
		guards_fill(dma_ctx[c].area + GEODE_SB_DMA_DST, n);
		geode_sb_wr(dma_ctx[c].src, src_bus[c]);
		geode_sb_wr(dma_ctx[c].dst, dst_bus[c]);
		geode_sb_wr(dma_ctx[c].len, (uint32_t)n);
	}
	if (key) {
		wr_block(GEODE_SB_WKEY(0), key);
		ctl |= GEODE_SB_CTL_WK;
	}
	if (iv) {
		wr_block(GEODE_SB_CBC_IV(0), iv);
		ctl |= GEODE_SB_CTL_CBC;
	}
	geode_sb_wr(GEODE_SB_AES_INT, int_clear);

	limit = wait_ticks(n * nctx);
	for (c = 0; c < GEODE_SB_CONTEXTS; c++)
		if (mask & (1u << c))
			geode_sb_wr(dma_ctx[c].ctl, ctl);
	wait_poll_max(dma_poll, &w, hw_rdtsc, limit, GEODE_SB_MAX_POLLS, &elapsed, &polls);
	for (c = 0; c < GEODE_SB_CONTEXTS; c++) {
		const struct geode_sb_dma_ctx *x = &dma_ctx[c];
		if (!(w.pending & (1u << c)))
			continue;
		geode_sb_st.wedged[c] = true;
		geode_sb_st.wedged_keys[c] = key || iv;
		if (c == 1)
			geode_sb_st.held_by_hidden_key = !key;
		geode_sb_st.stats.timeouts++;
		c_now = geode_sb_rd(x->ctl);
		if (c == 0)
			geode_sb_error("DMA timeout after %llu cycles (limit %llu, %lu polls): CTL_A=0x%08x AES_INT=0x%08x SRC=0x%08x DST=0x%08x LEN=%u",
				     (unsigned long long)elapsed, (unsigned long long)limit, polls, c_now,
				     w.aint, geode_sb_rd(x->src), geode_sb_rd(x->dst), geode_sb_rd(x->len));
		else
			geode_sb_error("DMA timeout on context B after %llu cycles (limit %llu, %lu polls): CTL_B=0x%08x AES_INT=0x%08x SRC_B=0x%08x DST_B=0x%08x LEN_B=%u",
				     (unsigned long long)elapsed, (unsigned long long)limit, polls, c_now,
				     w.aint, geode_sb_rd(x->src), geode_sb_rd(x->dst), geode_sb_rd(x->len));
		rc = ENGINE_ETIMEOUT;
	}
	if (rc)
		return rc;
	geode_sb_wr(GEODE_SB_AES_INT, int_clear);
	geode_sb_st.stats.ops += nctx;
	if (elapsed > geode_sb_st.stats.max_wait_cycles)
		geode_sb_st.stats.max_wait_cycles = elapsed;
	for (c = 0; c < GEODE_SB_CONTEXTS; c++) {
		if (!(mask & (1u << c)))
			continue;
		rc2 = guards_check(dma_ctx[c].area + GEODE_SB_DMA_DST, n, dst_bus[c], c);
		if (rc2 && !rc)
			rc = rc2;
	}
	return rc;
}

/*
 * The key registers could not be wiped: says so once per timed-out
 * operation, and adds it to the error text of the request that failed.
 */
static void key_wipe_refused(void)
{
	static const char note[] = "; key registers not wiped (engine busy)";
	size_t n = strlen(geode_sb_st.last_err), k = sizeof(note) - 1;

	geode_sb_st.stats.key_wipes_skipped++;
	if (n && !(n >= k && strcmp(geode_sb_st.last_err + n - k, note) == 0))
		fmt_snprintf(geode_sb_st.last_err + n, sizeof(geode_sb_st.last_err) - n, "%s", note);
	if (geode_sb_st.keys_unwiped)
		return;
	geode_sb_st.keys_unwiped = true;
	drv_log(&geode_sb_log, "key registers not wiped: WKEY0..3 and CBC_IV0..3 may still hold the key, the timed-out operation is still running (CTL_A=0x%08x AES_INT=0x%08x after %u checks); writing them now would be a protocol error",
		 geode_sb_st.busy_ctl, geode_sb_st.busy_int, GEODE_SB_IDLE_POLLS);
}

/* Zeroes the key and IV registers (engine idle only) and the first `used` bytes of each buffer. */
void geode_sb_wipe_after(size_t used)
{
	unsigned c;

	if (geode_sb_engine_idle())
		wipe_key_regs();
	else
		key_wipe_refused();
	for (c = 0; used && c < GEODE_SB_CONTEXTS; c++) {
		geode_sb_wipe(dma_ctx[c].area + GEODE_SB_DMA_SRC, used);
		geode_sb_wipe(dma_ctx[c].area + GEODE_SB_DMA_DST - GEODE_SB_GUARD, used + 2 * GEODE_SB_GUARD);
	}
}

/* Compares the CBC_IV registers with the IV the driver chained (a statistic only). */
static void iv_readback(const uint8_t *expect)
{
	uint8_t got[GEODE_SB_AES_BLOCK];
	unsigned i;
	for (i = 0; i < 4; i++)
		le32_put(got + 4 * i, geode_sb_rd(GEODE_SB_CBC_IV(i)));
	if (memcmp(got, expect, sizeof(got)) == 0)
		geode_sb_st.stats.iv_readback_same++;
	else
		geode_sb_st.stats.iv_readback_other++;
	geode_sb_wipe(got, sizeof(got));
}

/* ---- the engine ---- */

static uint8_t *sess_key(struct aes_session *s)
{
	return s->priv;
}

static int sb_set_key(struct aes_session *s, const uint8_t *key, unsigned key_bits)
{
	if (key_bits != 8 * GEODE_SB_KEY_BYTES) {
		geode_sb_error("%u-bit key: the engine does AES-128 only", key_bits);
		return ENGINE_EKEY;
	}
	memcpy(sess_key(s), key, GEODE_SB_KEY_BYTES);
	s->key_bits = key_bits;
	return ENGINE_OK;
}

static void sb_release(struct aes_session *s)
{
	geode_sb_wipe(sess_key(s), GEODE_SB_KEY_BYTES);
	if (!geode_sb_st.info.ok)
		return;
	if (!geode_sb_engine_idle()) {
		key_wipe_refused();
		return;
	}
	wr_block(GEODE_SB_WKEY(0), NULL);
	geode_sb_st.stats.key_wipes++;
}

/*
 * The checks both crypt calls make after their mode check: a length that
 * is a multiple of 16, an IV where CBC needs one (no_iv), a usable block.
 */
static int sb_check(size_t len, bool no_iv)
{
	if (len % GEODE_SB_AES_BLOCK) {
		geode_sb_error("length %u is not a multiple of 16", (unsigned)len);
		return ENGINE_ELEN;
	}
	if (no_iv) {
		geode_sb_error("CBC without an IV");
		return ENGINE_EUNSUPPORTED;
	}
	if (!geode_sb_st.info.ok) {
		geode_sb_error("not available: %s", geode_sb_absent_reason());
		return ENGINE_EHW;
	}
	return ENGINE_OK;
}

/*
 * The chunk loop of both crypt calls: len bytes (a multiple of 16) from
 * in[c] to out[c] on each context c in mask (bit 0 A, bit 1 B), at most
 * GEODE_SB_CHUNK bytes per DMA operation, through the DMA areas. chain:
 * NULL for ECB; for CBC (context A only) the 16-byte IV, chained across
 * the chunks and left as the next IV. Ends with geode_sb_wipe_after().
 * Returns 0 or the first failing operation's error.
 */
static int sb_chunks(const uint8_t *key, unsigned mask, bool enc, uint8_t *chain,
		     const uint8_t *const in[], uint8_t *const out[], size_t len)
{
	uint8_t next[GEODE_SB_AES_BLOCK];
	const uint8_t *src = geode_sb_dma + GEODE_SB_DMA_SRC, *dst = geode_sb_dma + GEODE_SB_DMA_DST;
	size_t off, n = 0, used = 0;
	unsigned c;
	int rc = ENGINE_OK;

	for (off = 0; off < len; off += n) {
		n = len - off < GEODE_SB_CHUNK ? len - off : GEODE_SB_CHUNK;
		for (c = 0; c < GEODE_SB_CONTEXTS; c++)
			if (mask & (1u << c))
				memcpy(dma_ctx[c].area + GEODE_SB_DMA_SRC, in[c] + off, n);
		if (n > used)
			used = n;
		/* Decrypt chains the last input block: save it before out (maybe = in) changes. */
		if (chain && !enc)
			memcpy(next, src + n - GEODE_SB_AES_BLOCK, GEODE_SB_AES_BLOCK);
		rc = geode_sb_dma_ops(mask, key, chain, enc, n);
		if (rc)
			break;
		if (chain) {
			if (enc)
				memcpy(next, dst + n - GEODE_SB_AES_BLOCK, GEODE_SB_AES_BLOCK);
			iv_readback(next);
			memcpy(chain, next, sizeof(next));
		}
		for (c = 0; c < GEODE_SB_CONTEXTS; c++)
			if (mask & (1u << c))
				memcpy(out[c] + off, dma_ctx[c].area + GEODE_SB_DMA_DST, n);
	}
	geode_sb_wipe_after(used);
	geode_sb_wipe(next, sizeof(next));
	return rc;
}

static int sb_crypt(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		    uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t chain[GEODE_SB_AES_BLOCK];
	bool cbc = mode == AES_MODE_CBC;
	int rc;

	if (!aes_engine_supports(&geode_sb_aes, s->key_bits, mode, dir)) {
		geode_sb_error("aes-%u %s %s is not claimed (AES-128 ECB/CBC only)",
			     s->key_bits, aes_mode_name(mode), aes_dir_name(dir));
		return ENGINE_EUNSUPPORTED;
	}
	rc = sb_check(len, cbc && !iv);
	if (rc)
		return rc;
	if (cbc)
		memcpy(chain, iv, sizeof(chain));
	rc = sb_chunks(sess_key(s), 1, dir == AES_DIR_ENCRYPT, cbc ? chain : NULL, &in, &out, len);
	if (rc == ENGINE_OK && cbc)
		memcpy(iv, chain, sizeof(chain));
	geode_sb_wipe(chain, sizeof(chain));
	return rc;
}

/*
 * Contexts A and B together: in_a -> out_a on A, in_b -> out_b on B, len
 * bytes each, same key (WKEY is shared), ECB only (CBC_IV is shared, so
 * two CBC streams cannot run at once). Chunked like sb_crypt.
 */
static int sb_crypt_dual(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
			 uint8_t *iv_a, const uint8_t *in_a, uint8_t *out_a,
			 uint8_t *iv_b, const uint8_t *in_b, uint8_t *out_b, size_t len)
{
	const uint8_t *in[GEODE_SB_CONTEXTS] = { in_a, in_b };
	uint8_t *out[GEODE_SB_CONTEXTS] = { out_a, out_b };
	int rc;

	if (mode != AES_MODE_ECB || iv_a || iv_b || s->key_bits != 8 * GEODE_SB_KEY_BYTES) {
		geode_sb_error("dual-context %s: only AES-128 ECB (the contexts share WKEY and CBC_IV)",
			     aes_mode_name(mode));
		return ENGINE_EUNSUPPORTED;
	}
	rc = sb_check(len, false);
	if (rc)
		return rc;
	return sb_chunks(sess_key(s), 3, dir == AES_DIR_ENCRYPT, NULL, in, out, len);
}

/* ---- accessors ---- */

const char *geode_sb_absent_reason(void)
{
	if (geode_sb_st.info.ok)
		return NULL;
	return geode_sb_st.absent ? geode_sb_st.absent : "geode_sb_probe() was not called";
}

bool geode_sb_skip(enum geode_sb_need need, char *d, size_t cap)
{
	const struct geode_sb_info *in = &geode_sb_st.info;
	const char *why = NULL;

	if (!in->found)
		why = geode_sb_absent_reason();
	else if (need >= GEODE_SB_NEED_OK && !in->ok)
		why = "geode-sb probe failed";
	else if (need == GEODE_SB_NEED_RNG && !in->rng_ok)
		why = geode_sb_st.rng_why;
	if (why)
		fmt_snprintf(d, cap, "%s", why);
	return why != NULL;
}

const char *geode_sb_last_error(void)
{
	return geode_sb_st.last_err;
}

bool geode_sb_keys_unwiped(void)
{
	return geode_sb_st.keys_unwiped;
}

const struct aes_engine *geode_sb_engine(void)
{
	return &geode_sb_aes;
}

const struct geode_sb_info *geode_sb_info(void)
{
	return &geode_sb_st.info;
}

const struct geode_sb_stats *geode_sb_stats(void)
{
	return &geode_sb_st.stats;
}

bool geode_sb_dma_clean(size_t *offset)
{
	size_t i;
	unsigned c;
	for (c = 0; c < GEODE_SB_CONTEXTS; c++)
		for (i = 0; i < GEODE_SB_DMA_BYTES; i++)
			if (dma_ctx[c].area[i]) {
				*offset = c * GEODE_SB_DMA_BYTES + i;
				return false;
			}
	return true;
}

void geode_sb_set_inplace_dma(bool on)
{
	geode_sb_st.inplace_dma = on;
}

const char *geode_sb_msr_text(void)
{
	return geode_sb_st.msr_text;
}
