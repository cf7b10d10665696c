/*
 * padlock-xstore/divN: the PadLock RNG through xstore, one source per
 * divisor (EDX = 0..3) [PG][LRNG][OSSL].
 *
 * xstore stores whole 8-byte units whatever it reports, so it always
 * stores into an aligned driver buffer with slack and the valid bytes are
 * copied out. Each status word is checked the way OpenSSL does: the RNG
 * enabled bit must be set, the DC bias, raw bits and string filter bits
 * (10..14) clear, and a non-zero byte count must cover the divisor's
 * random bytes (8, 4, 2, 1 [LRNG VIA_RNG_CHUNK_*]; divisors 2 and 3 store
 * them in the low bytes of a 32-bit unit, so a count of up to 8 is taken
 * as that many bytes stored, of which only the divisor's are used). A
 * count below that is an error. A count of 0 means the FIFO
 * was empty (Nehemiah: four 8-byte buffers filled by a whitener); the
 * driver retries up to XSTORE_EMPTY_MAX times in a row or for
 * XSTORE_EMPTY_CYCLES TSC cycles, whichever ends first, then gives up.
 *
 * RNG MSR 0x110B (C3 and C7; the Nano has none [LRNG]): reported at probe
 * and set up like Linux via-rng, with its masks: string filter enable and
 * failed, the count bits 22:16 (0x7F << 16), the xstore count 0x0F and raw
 * bits cleared, the other bits kept as found, RNG and noise source A enabled, source B too on the C3
 * Nehemiah stepping >= 8 and the C7; written only when that changes it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/platform/hw.h"
#include "lib/engine/engine.h"
#include "lib/util/fmt.h"
#include "lib/util/wait.h"
#include "drivers/padlock/padlock_insn.h"
#include "drivers/padlock/padlock_int.h"
#include "drivers/padlock/padlock_reg.h"

#define XSTORE_EMPTY_MAX	(1u << 20)	/* consecutive empty stores before giving up */
#define XSTORE_EMPTY_CYCLES	200000000ull	/* ... or this many TSC cycles (0.2 s at 1 GHz) */
#define RNG_TEST_BYTES		256		/* bytes read per divisor by padlock_rng_tests */

struct xstore_ctx {
	uint32_t divisor;
	uint64_t stores, empty, bytes;
	uint32_t last_status;
};

/*
 * padlock_rng_register() fills in the contexts and the sources from
 * xstore_text; test_divisor() sets the divisor again.
 */
static struct xstore_ctx xstore_ctx[XSTORE_DIVISORS];
static struct rng_source xstore_sources[XSTORE_DIVISORS];

/* Divisor 0-3: the source's name and description; a store yields 8 >> divisor bytes [LRNG]. */
static const struct {
	const char *name, *description;
} xstore_text[XSTORE_DIVISORS] = {
	{ "padlock-xstore/div0", "VIA PadLock RNG, xstore divisor 0 (8 bytes per store)" },
	{ "padlock-xstore/div1", "VIA PadLock RNG, xstore divisor 1 (4 bytes per store)" },
	{ "padlock-xstore/div2", "VIA PadLock RNG, xstore divisor 2 (2 bytes per store)" },
	{ "padlock-xstore/div3", "VIA PadLock RNG, xstore divisor 3 (1 byte per store)" },
};

/* Where xstore writes: the valid bytes, then the rest of the 8-byte unit. */
static uint8_t xstore_buf[2 * XSTORE_UNIT_BYTES] __attribute__((aligned(PADLOCK_ALIGN)));

static int xstore_read(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got);

/* Whether an xstore status is clean: the RNG enabled, bits 10-14 clear [OSSL]. */
static bool xstore_status_ok(uint32_t status)
{
	return (status & XSTORE_ENABLED) && !(status & XSTORE_BAD_MASK);
}

/* Valid bytes of one store with this divisor [LRNG]. */
static unsigned xstore_chunk(uint32_t divisor)
{
	return XSTORE_UNIT_BYTES >> divisor;
}

/* One xstore and what it returned. */
struct xstore_poll {
	struct xstore_ctx *c;
	uint8_t *dst;
	uint32_t status;
};

/* One store; done unless the FIFO was empty (a clean status with count 0). */
static bool xstore_once(void *p)
{
	struct xstore_poll *x = p;

	x->status = padlock_xstore(x->dst, x->c->divisor);
	x->c->stores++;
	x->c->last_status = x->status;
	if ((x->status & XSTORE_COUNT_MASK) != 0 || !xstore_status_ok(x->status))
		return true;
	x->c->empty++;
	return false;
}

static int xstore_read(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got)
{
	struct xstore_ctx *c = r->ctx;
	struct xstore_poll x = { c, NULL, 0 };
	unsigned chunk = xstore_chunk(c->divisor);
	uint32_t saved, count;
	size_t done = 0, n;
	int rc = ENGINE_OK;

	saved = padlock_enter();
	while (done < len) {
		x.dst = PADLOCK_QUIRK(no_xstore_slack) ? buf + done : xstore_buf;
		/* An empty FIFO: store again, bounded (lib/util/wait.h), a last look included. */
		if (!xstore_once(&x) &&
		    !wait_poll(xstore_once, &x, hw_rdtsc, XSTORE_EMPTY_CYCLES, XSTORE_EMPTY_MAX, NULL, NULL)) {
			rc = ENGINE_ETIMEOUT;
			break;
		}
		count = x.status & XSTORE_COUNT_MASK;
		if (!xstore_status_ok(x.status) || count < chunk || count > XSTORE_UNIT_BYTES) {
			rc = ENGINE_EHW;
			break;
		}
		n = len - done < chunk ? len - done : chunk;
		if (x.dst != buf + done)
			memcpy(buf + done, xstore_buf, n);
		done += n;
		c->bytes += n;
	}
	padlock_leave(saved);
	memset(xstore_buf, 0, sizeof(xstore_buf));
	if (got)
		*got = done;
	return rc;
}

int padlock_rng_register(void)
{
	struct rng_source *r;
	unsigned i;
	int rc;

	for (i = 0; i < XSTORE_DIVISORS; i++) {
		r = &xstore_sources[i];
		memset(&xstore_ctx[i], 0, sizeof(xstore_ctx[i]));
		xstore_ctx[i].divisor = i;
		r->name = xstore_text[i].name;
		r->description = xstore_text[i].description;
		r->ctx = &xstore_ctx[i];
		r->read = xstore_read;
	}
	for (i = 0; i < XSTORE_DIVISORS; i++) {
		rc = engine_register_rng(&xstore_sources[i]);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static void rng_msr_describe(const char *what, uint64_t v)
{
	uint32_t lo = (uint32_t)v;
	drv_log(&padlock_log, "rng: MSR 0x110B %s = 0x%08x: enable=%u sources=%s dc-bias=%u raw-bits=%u string-filter=%u filter-failed=%u filter-count=%u",
		 what, lo, (lo & RNG_MSR_ENABLE) ? 1 : 0,
		 (lo & (RNG_MSR_SRC1 | RNG_MSR_SRC2)) == (RNG_MSR_SRC1 | RNG_MSR_SRC2) ? "A+B" :
		 (lo & RNG_MSR_SRC1) ? "A" : (lo & RNG_MSR_SRC2) ? "B" : "none",
		 (lo & RNG_MSR_DC_BIAS) >> RNG_MSR_DC_BIAS_SHIFT,
		 (lo & RNG_MSR_RAW_BITS) ? 1 : 0, (lo & RNG_MSR_FILTER_EN) ? 1 : 0,
		 (lo & RNG_MSR_FILTER_FAIL) ? 1 : 0,
		 (lo & RNG_MSR_FILTER_CNT) >> RNG_MSR_FILTER_CNT_SHIFT);
}

void padlock_rng_setup(void)
{
	struct padlock_dev *d = &padlock_dev;
	uint64_t v, want;
	bool two_sources;

	d->rng_has_msr = !d->zhaoxin && d->family == PADLOCK_FAMILY_VIA &&
			 d->model < PADLOCK_MODEL_NANO;
	if (!d->rng_has_msr) {
		drv_log(&padlock_log, "rng: no RNG MSR 0x110B on this CPU (Nano, Zhaoxin): the CPUID enable bit only");
		return;
	}
	if (hw_rdmsr_safe(MSR_VIA_RNG, &v) != 0) {
		drv_log(&padlock_log, "rng: rdmsr 0x110B faulted: RNG settings unknown");
		return;
	}
	d->rng_msr_ok = true;
	d->rng_msr_boot = d->rng_msr = v;
	rng_msr_describe("as found", v);
	two_sources = d->model > PADLOCK_MODEL_NEHEMIAH ||
		      (d->model == PADLOCK_MODEL_NEHEMIAH &&
		       d->stepping >= PADLOCK_NEHEMIAH_2RNG_STEPPING);
	want = v & ~(uint64_t)(RNG_MSR_LINUX_CNT_CLEAR | RNG_MSR_LINUX_XSTORE_CNT |
			       RNG_MSR_FILTER_EN | RNG_MSR_FILTER_FAIL | RNG_MSR_RAW_BITS);
	want |= RNG_MSR_ENABLE | RNG_MSR_SRC1 | (two_sources ? RNG_MSR_SRC2 : 0);
	if (want == v)
		return;
	if (hw_wrmsr_safe(MSR_VIA_RNG, want) != 0 || hw_rdmsr_safe(MSR_VIA_RNG, &v) != 0) {
		drv_log(&padlock_log, "rng: writing MSR 0x110B = 0x%08x faulted", (uint32_t)want);
		return;
	}
	d->rng_msr = v;
	rng_msr_describe("set to", v);
}

/* The RNG status test of one divisor (ctx: const unsigned *, 0-3): RNG_TEST_BYTES read, every status clean. */
enum drv_status padlock_t_xstore(const void *ctx, char *d, size_t cap)
{
	unsigned i = *(const unsigned *)ctx;
	const struct rng_source *r = &xstore_sources[i];
	struct xstore_ctx *c = r->ctx;
	uint8_t buf[RNG_TEST_BYTES];
	size_t got = 0, k;
	bool varied = false;
	int rc;

	if (padlock_unit_skip(padlock_dev.rng, "RNG", d, cap))
		return DRV_SKIP;
	c->divisor = i;
	memset(buf, 0, sizeof(buf));
	rc = r->read(r, buf, sizeof(buf), &got);
	for (k = 1; k < got; k++)
		varied |= buf[k] != buf[0];
	fmt_snprintf(d, cap, "%u bytes in %llu stores (%llu empty), last status 0x%08x, rc %d",
		     (unsigned)got, (unsigned long long)c->stores, (unsigned long long)c->empty,
		     c->last_status, rc);
	memset(buf, 0, sizeof(buf));
	return rc == ENGINE_OK && got == sizeof(buf) && varied ? DRV_PASS : DRV_FAIL;
}

