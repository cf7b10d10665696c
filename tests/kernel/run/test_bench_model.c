/*
 * bench-model: runs the kernel's benchmark (kernel/run/bench*.c, unchanged)
 * on the host over model engines whose cost is known exactly, so that
 * tests/kernel/run/bench-model.t can check every printed figure, record and
 * table against arithmetic done by hand.
 *
 * The clock is a counter that only the model engines advance: an
 * operation of len bytes "takes" fixed + per_byte * len cycles, so every
 * repetition of a cell lasts exactly the same and the least-squares fit
 * recovers the model. tsc_hz() is 1 GHz.
 *
 *   bench-model good        software + an emulated, aligned DMA-like engine
 *                           with a dual-context hook, a chunked engine, hash
 *                           engines, an RNG source, a montmul hook and the
 *                           software multiplier
 *   bench-model engine-error  the same plus an engine that times out at 1024 bytes
 *   bench-model dual-error    good, with the dual-context hook timing out: a finding
 *   bench-model zero-cycles   the same plus an engine whose operations take no time
 *   bench-model off           bench=off
 *   bench-model stretched     good, with single operations stretched (an
 *                           interruption) while the counts are chosen: the
 *                           figures must come out as in good
 *   bench-model noisy         good, with a stretched repetition in one cell
 *                           of the reference and an engine whose cost is no
 *                           straight line: the cost model calls both fits
 *                           unreliable
 *   bench-model wide          good plus an engine claiming every key size
 *                           (CBC encryption): bench=quick measures its
 *                           AES-128 and AES-256 rows, not AES-192
 *   bench-model full          wide with bench=full: every key size
 *
 * At the end "# model: clock=N" gives the cycles the whole run took, so
 * the test can check the cost of choosing each cell's operation count.
 *
 * Output: the kernel's TAP lines on stdout (this file provides the
 * report functions: numbered results, no fault guard).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/run/bench.h"
#include "kernel/platform/hw.h"
#include "kernel/platform/memmap.h"
#include "kernel/run/report.h"
#include "kernel/platform/timer.h"
#include "lib/platform/cmdline.h"
#include "lib/engine/engine.h"
#include "tests/host/tap_ok.h"

#define MODEL_HZ	1000000000ull

static uint64_t clock_now;

/* ---- The kernel interfaces the benchmark uses ---- */

uint64_t hw_rdtsc(void)
{
	return clock_now;
}

uint64_t tsc_hz(void)
{
	return MODEL_HZ;
}

void *mem_alloc(size_t size, size_t align)
{
	void *p = NULL;

	if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size) != 0)
		return NULL;
	return p;
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vdiag(fmt, ap);
	va_end(ap);
}

/* The report's result lines, written by the harnesses' TAP writer. */
bool tap_result(bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline(ok, "", fmt, ap);
	va_end(ap);
	return ok;
}

void tap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ok_vskip(reason, fmt, ap);
	va_end(ap);
}

bool tap_run(const char *name, bool (*fn)(void *ctx), void *ctx)
{
	return tap_result(fn(ctx), "%s", name);
}

/* The report's clock and summary (kernel/run/report.c): nothing to do here. */
void report_tick(void)
{
}

/* The network report (kernel/run/net_report.c): no network on the host. */
void net_report_hold(bool hold)
{
	(void)hold;
}

void report_speed(const char *engine, uint64_t bytes_per_s, uint64_t sw_bytes_per_s, bool rng,
		  bool emulated)
{
	(void)engine; (void)bytes_per_s; (void)sw_bytes_per_s; (void)rng; (void)emulated;
}

void report_reference(const char *engine)
{
	(void)engine;
}

void report_subject(const char *engine, enum rsum_col col)
{
	(void)engine; (void)col;
}

bool tap_run_budget(const char *name, bool (*fn)(void *ctx), void *ctx, unsigned budget_ms)
{
	(void)budget_ms;    /* no watchdog on the host */
	return tap_run(name, fn, ctx);
}

/* ---- Interruptions ---- */

/*
 * A stretch: the call-th operation of `len` bytes on the model whose
 * context is ctx (counted from 1 over the whole run) takes `cycles` more,
 * as if the host descheduled the guest or an SMI fired.
 */
struct stretch {
	const void *ctx;
	size_t len;
	unsigned long call;
	uint64_t cycles;
	unsigned long seen;
};

#define MAX_STRETCHES	4
static struct stretch stretches[MAX_STRETCHES];
static unsigned nstretches;

static void add_stretch(const void *ctx, size_t len, unsigned long call, uint64_t cycles)
{
	struct stretch st = { ctx, len, call, cycles, 0 };

	if (nstretches < MAX_STRETCHES)
		stretches[nstretches++] = st;
}

static void stretch_clock(const void *ctx, size_t len)
{
	unsigned i;

	for (i = 0; i < nstretches; i++) {
		struct stretch *st = &stretches[i];
		if (st->ctx == ctx && st->len == len && ++st->seen == st->call)
			clock_now += st->cycles;
	}
}

/* ---- Model AES engines ---- */

struct model {
	uint64_t fixed, per_byte;	/* cycles per operation, per byte */
	size_t big_from;		/* 0, or: per_byte + 1 per byte from this length */
	size_t fail_from;		/* 0, or: ENGINE_ETIMEOUT from this length */
	unsigned long calls;
	size_t longest;			/* longest single request seen */
	unsigned long misaligned;	/* requests with a buffer the engine refuses */
};

static int model_set_key(struct aes_session *s, const uint8_t *key, unsigned key_bits)
{
	(void)s;
	(void)key;
	return aes_keysize_index(key_bits) < AES_KEYSIZES ? ENGINE_OK : ENGINE_EKEY;
}

static void model_release(struct aes_session *s)
{
	(void)s;
}

static int model_crypt(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		       uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
	const struct aes_engine *e = s->engine;
	struct model *m = e->ctx;

	(void)dir;
	if ((mode == AES_MODE_ECB) != (iv == NULL))
		return ENGINE_EUNSUPPORTED;
	if (len % AES_BLOCK_BYTES || (e->max_len && len > e->max_len))
		return ENGINE_ELEN;
	if (e->align > 1 && (((uintptr_t)in | (uintptr_t)out) & (e->align - 1))) {
		m->misaligned++;
		return ENGINE_EHW;
	}
	if (m->fail_from && len >= m->fail_from)
		return ENGINE_ETIMEOUT;
	memmove(out, in, len);
	m->calls++;
	if (len > m->longest)
		m->longest = len;
	clock_now += m->fixed + m->per_byte * len;
	if (m->big_from && len >= m->big_from)
		clock_now += len;
	stretch_clock(m, len);
	return ENGINE_OK;
}

#define CBC_ECB_BOTH	(AES_TRIPLE_BIT(AES_MODE_ECB, AES_DIR_ENCRYPT) | \
			 AES_TRIPLE_BIT(AES_MODE_ECB, AES_DIR_DECRYPT) | \
			 AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_ENCRYPT) | \
			 AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_DECRYPT))
#define CTR_BOTH	(AES_TRIPLE_BIT(AES_MODE_CTR, AES_DIR_ENCRYPT) | \
			 AES_TRIPLE_BIT(AES_MODE_CTR, AES_DIR_DECRYPT))

/* The reference: 500 cycles per operation + 20 per byte, AES-128/256 ECB, CBC, CTR. */
static struct model sw_model = { 500, 20, 0, 0, 0, 0, 0 };
static const struct aes_engine sw_engine = {
	.name = "software", .description = "model software engine",
	.supported = { CBC_ECB_BOTH | CTR_BOTH, 0, CBC_ECB_BOTH | CTR_BOTH },
	.align = 1, .ctx = &sw_model,
	.set_key = model_set_key, .crypt = model_crypt, .release = model_release,
};

/* A DMA-like device: 5000 cycles per request + 2 per byte, AES-128 ECB/CBC, 16-byte buffers. */
static struct model dma_model = { 5000, 2, 0, 0, 0, 0, 0 };
static int dma_crypt2(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		      uint8_t *iv_a, const uint8_t *in_a, uint8_t *out_a,
		      uint8_t *iv_b, const uint8_t *in_b, uint8_t *out_b, size_t len);
static const struct aes_engine dma_engine = {
	.name = "dmadev", .description = "model DMA engine",
	.supported = { CBC_ECB_BOTH, 0, 0 },
	.align = 16, .ctx = &dma_model,
	.set_key = model_set_key, .crypt = model_crypt, .release = model_release,
	.crypt_dual = dma_crypt2, .dual_mode = AES_MODE_CBC, .dual_dir = AES_DIR_ENCRYPT,
	.dual_what = "model: two requests for the price of one",
};

/* Requests of at most 1024 bytes: 100 cycles each + 1 per byte, AES-128 CTR. */
static struct model chunk_model = { 100, 1, 0, 0, 0, 0, 0 };
static const struct aes_engine chunk_engine = {
	.name = "chunky", .description = "model engine with a length limit",
	.supported = { CTR_BOTH, 0, 0 },
	.align = 1, .max_len = 1024, .ctx = &chunk_model,
	.set_key = model_set_key, .crypt = model_crypt, .release = model_release,
};

/* Times out from 1024 bytes. */
static struct model broken_model = { 100, 1, 0, 1024, 0, 0, 0 };
static const struct aes_engine broken_engine = {
	.name = "broken", .description = "model engine that times out",
	.supported = { AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_ENCRYPT), 0, 0 },
	.align = 1, .ctx = &broken_model,
	.set_key = model_set_key, .crypt = model_crypt, .release = model_release,
};

/* Takes no time at all (a clock that does not advance). */
static struct model frozen_model = { 0, 0, 0, 0, 0, 0, 0 };
static const struct aes_engine frozen_engine = {
	.name = "frozen", .description = "model engine the clock does not see",
	.supported = { AES_TRIPLE_BIT(AES_MODE_ECB, AES_DIR_ENCRYPT), 0, 0 },
	.align = 1, .ctx = &frozen_model,
	.set_key = model_set_key, .crypt = model_crypt, .release = model_release,
};

/*
 * No straight line: 3 cycles per byte, 4 from 8192 bytes. The least-squares
 * line over 16..16384 bytes has a fixed cost of -318 cycles.
 */
static struct model kinky_model = { 0, 3, 8192, 0, 0, 0, 0 };
static const struct aes_engine kinky_engine = {
	.name = "kinky", .description = "model engine dearer per byte for long requests",
	.supported = { AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_ENCRYPT), 0, 0 },
	.align = 1, .ctx = &kinky_model,
	.set_key = model_set_key, .crypt = model_crypt, .release = model_release,
};

/* 1000 cycles per request + 10 per byte, AES-128/192/256 CBC encryption. */
static struct model wide_model = { 1000, 10, 0, 0, 0, 0, 0 };
static const struct aes_engine wide_engine = {
	.name = "wide", .description = "model engine with every key size",
	.supported = { AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_ENCRYPT),
		       AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_ENCRYPT),
		       AES_TRIPLE_BIT(AES_MODE_CBC, AES_DIR_ENCRYPT) },
	.align = 1, .ctx = &wide_model,
	.set_key = model_set_key, .crypt = model_crypt, .release = model_release,
};

static bool dual_fails;		/* dual-error: the second context never completes */

/* Both DMA contexts at once: two requests for the price of one. */
static int dma_crypt2(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		      uint8_t *iv_a, const uint8_t *in_a, uint8_t *out_a,
		      uint8_t *iv_b, const uint8_t *in_b, uint8_t *out_b, size_t len)
{
	uint64_t before = clock_now;
	int rc = model_crypt(s, mode, dir, iv_a, in_a, out_a, len);

	if (dual_fails)
		return ENGINE_ETIMEOUT;
	if (rc == 0)
		rc = model_crypt(s, mode, dir, iv_b, in_b, out_b, len);
	clock_now = before + dma_model.fixed + dma_model.per_byte * len;
	return rc;
}


/* ---- Hashes, RNG, montmul ---- */

struct hash_model {
	uint64_t fixed, per_byte;
	unsigned long calls_1024;	/* digests of 1024 bytes: the count of that cell's runs */
};

static int model_digest(const struct hash_engine *h, const uint8_t *msg, size_t len, uint8_t *out)
{
	struct hash_model *m = h->ctx;

	(void)msg;
	memset(out, 0, hash_digest_bytes(h->alg));
	clock_now += m->fixed + m->per_byte * len;
	if (len == 1024)
		m->calls_1024++;
	stretch_clock(m, len);
	return ENGINE_OK;
}

static struct hash_model sw_sha = { 300, 10, 0 }, sw_sha2 = { 300, 10, 0 }, phe_sha = { 2000, 1, 0 };
static const struct hash_engine sw_sha1 = {
	.name = "software", .alg = HASH_SHA1, .ctx = &sw_sha, .digest = model_digest,
};
static const struct hash_engine sw_sha256 = {
	.name = "software", .alg = HASH_SHA256, .ctx = &sw_sha2, .digest = model_digest,
};
static const struct hash_engine phe_sha1 = {
	.name = "phe", .alg = HASH_SHA1, .max_len = 8192, .ctx = &phe_sha,
	.digest = model_digest,
};

/* 4 cycles per byte. */
static int model_read(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got)
{
	(void)r;
	memset(buf, 0x55, len);
	clock_now += 4 * len;
	*got = len;
	return ENGINE_OK;
}

static const struct rng_source model_rng = {
	.name = "modelrng", .read = model_read,
};

/* 1000 cycles per 256 bits of operand. */
static int model_montmul(void *ctx, unsigned bits, uint64_t count)
{
	(void)ctx;
	clock_now += count * 1000 * (bits / 256);
	return ENGINE_OK;
}

static const unsigned mm_bits[] = { 256, 1024 };
static const struct montmul_engine model_pmm = {
	.name = "pmm", .bits = mm_bits, .nbits = 2, .op = model_montmul,
};

/* The software multiplier: 3000 cycles per 1024-bit operation, "integer" path. */
static int model_sw_montmul(void *ctx, unsigned bits, uint64_t count)
{
	(void)ctx;
	clock_now += count * 3000 * (bits / 1024);
	return ENGINE_OK;
}

static const char *model_sw_path(void)
{
	return "integer";
}

static const unsigned sw_mm_bits[] = { 1024 };
static const struct montmul_engine model_sw_mm = {
	.name = "software", .bits = sw_mm_bits, .nbits = 1, .op = model_sw_montmul,
	.path = model_sw_path,
};

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "good";
	struct tsc_calibration cal = { .pit_ok = true, .pit_hz = MODEL_HZ, .pit_ticks = 59659,
				       .pm_found = true, .pm_ok = true, .pm_hz = MODEL_HZ + 5000,
				       .disagreement_ppm = 5 };
	struct bench_options opt = { BENCH_QUICK, 1, false };

	/* The model's hardware engines say "(emulated)", as models do in the image. */
	engine_mark_emulated("dmadev");
	engine_mark_emulated("phe");
	engine_mark_emulated("pmm");
	opt.verbose = true;	/* every grid and the cost table (the serial budget hides them otherwise) */
	engine_register_aes(&sw_engine);
	engine_register_aes(&dma_engine);
	engine_register_aes(&chunk_engine);
	engine_register_hash(&sw_sha1);
	engine_register_hash(&sw_sha256);
	engine_register_hash(&phe_sha1);
	engine_register_rng(&model_rng);
	engine_register_montmul(&model_sw_mm);
	engine_register_montmul(&model_pmm);
	if (strcmp(mode, "engine-error") == 0)
		engine_register_aes(&broken_engine);
	else if (strcmp(mode, "zero-cycles") == 0)
		engine_register_aes(&frozen_engine);
	else if (strcmp(mode, "dual-error") == 0)
		dual_fails = true;
	else if (strcmp(mode, "off") == 0)
		opt.scope = BENCH_OFF;
	else if (strcmp(mode, "stretched") == 0) {
		/*
		 * The cell target is 1e6 / 3 = 333333 cycles.
		 * Doubling (a row's first cell, no prediction): software SHA-1
		 * at 16 bytes takes 460 cycles; the 512-operation run (calls
		 * 512..1023) would end the doubling early if call 600 took
		 * 200000 more were it not timed again (it looks stretched:
		 * over 2.25 times the 256-operation run).
		 * Prediction (the later cells): software SHA takes 82220
		 * cycles for 8192 bytes, predicted exactly from 256 and 1024
		 * bytes, so one run of 4 operations is timed first.
		 * SHA-1: its 4th operation takes 200000 more: that run
		 * (528880) is off the prediction and timed again.
		 * SHA-256: the 2nd and the 4th operations take 10 ms more: the
		 * run is far off (over 8 times the target) and timed again.
		 */
		add_stretch(&sw_sha, 16, 600, 200000);
		add_stretch(&sw_sha, 8192, 4, 200000);
		add_stretch(&sw_sha2, 8192, 2, 10000000);
		add_stretch(&sw_sha2, 8192, 4, 10000000);
	} else if (strcmp(mode, "noisy") == 0) {
		/*
		 * Software SHA-1 at 16 bytes (460 cycles): doubling to 1024
		 * operations (2047 calls), scaled to 725 per repetition; call
		 * 3000 falls in the second repetition and takes 1 ms more.
		 */
		add_stretch(&sw_sha, 16, 3000, 1000000);
		engine_register_aes(&kinky_engine);
	} else if (strcmp(mode, "wide") == 0) {
		engine_register_aes(&wide_engine);
	} else if (strcmp(mode, "full") == 0) {
		engine_register_aes(&wide_engine);
		opt.scope = BENCH_FULL;
	} else if (strcmp(mode, "good") != 0) {
		fprintf(stderr, "usage: bench-model [good|engine-error|dual-error|zero-cycles|off|stretched|noisy|wide|full]\n");
		return 2;
	}
	bench_report_calibration(&cal);
	bench_run(&opt);
	/* What the engines saw, for the test to check the chunking and the bounce. */
	printf("# model: dmadev misaligned=%lu longest=%zu\n", dma_model.misaligned, dma_model.longest);
	printf("# model: chunky longest=%zu\n", chunk_model.longest);
	printf("# model: software sha1 calls_1024=%lu\n", sw_sha.calls_1024);
	printf("# model: clock=%llu\n", (unsigned long long)clock_now);
	tap_plan();
	return 0;     /* the .t file judges the results */
}
