/*
 * Shared between geode_sb.c (probe, AES, tests) and geode_sb_trng.c (RNG):
 * the block's state, register access and error reporting.
 */
#ifndef CQ_DRIVERS_GEODE_SB_INT_H
#define CQ_DRIVERS_GEODE_SB_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/geode_sb/geode_sb.h"
#include "lib/engine/driver.h"

#define GEODE_SB_CONTEXTS	2	/* DMA contexts A and B [DB 6.11] */

/* The driver's state (geode_sb.c), filled by the probe (geode_sb_probe.c). */
struct geode_sb_state {
	struct geode_sb_info info;
	struct geode_sb_stats stats;
	const char *absent;		/* why not usable; NULL before the probe and once it succeeded */
	char why[200];			/* the first probe failure */
	char msr_text[160];		/* the GLD_MSR_CAP check's outcome */
	char rng_why[200];		/* why the TRNG was not set up ("" when it was) */
	char last_err[256];
	unsigned err_printed;
	bool wedged[GEODE_SB_CONTEXTS];	/* context A/B: a timed-out operation may still run */
	bool wedged_keys[GEODE_SB_CONTEXTS];	/* ... and it uses WKEY or CBC_IV */
	bool keys_unwiped;		/* WKEY/CBC_IV not wiped: the engine was busy */
	bool held_by_hidden_key;	/* context B's timed-out operation used the hidden key */
	bool wrong_output;		/* the cross-check saw output unlike lib/crypto/aes's */
	uint32_t busy_ctl, busy_int;	/* CTL, AES_INT at the last busy check */
	bool inplace_dma;
};
extern struct geode_sb_state geode_sb_st;

/* The base of the registers; valid when geode_sb_info()->ok. */
extern uintptr_t geode_sb_base;

/*
 * The DMA area, 16-byte aligned (geode_sb.c has the layout): the source
 * bounce buffer at GEODE_SB_DMA_SRC, the destination at GEODE_SB_DMA_DST with
 * GEODE_SB_GUARD bytes of room on each side.
 */
#define GEODE_SB_DMA_SRC		0
#define GEODE_SB_DMA_DST		(GEODE_SB_CHUNK + GEODE_SB_GUARD)
#define GEODE_SB_DMA_BYTES	(GEODE_SB_DMA_DST + GEODE_SB_CHUNK + GEODE_SB_GUARD)
extern uint8_t geode_sb_dma[GEODE_SB_DMA_BYTES];	/* context A */
extern uint8_t geode_sb_dma_b[GEODE_SB_DMA_BYTES];	/* context B, the same layout */

/* The engine "geode-sb" (registered by the probe). */
extern struct aes_engine geode_sb_aes;

/*
 * DMA operations of n bytes (16..GEODE_SB_CHUNK, a multiple of 16) on the
 * contexts in mask (bit 0 A, bit 1 B), each from its source bounce buffer,
 * already filled, to its destination one, started together and waited
 * for together (the limit scales with the bytes of both). key: 16 bytes
 * for WKEY0..3, or NULL for the hidden key; iv: 16 bytes for CBC, NULL for
 * ECB, only with one context (CBC_IV is shared). A timeout leaves only the
 * contexts still running marked busy. Returns 0, ENGINE_ETIMEOUT or
 * ENGINE_EHW (error recorded).
 */
int geode_sb_dma_ops(unsigned mask, const uint8_t *key, const uint8_t *iv, bool enc, size_t n);

/* Whether context c (0 A, 1 B) is free: not left running by a timed-out operation. */
bool geode_sb_ctx_idle(unsigned c);

/*
 * Zeroes WKEY0..3, CBC_IV0..3 and the first `used` bytes of both DMA
 * buffers (and the guards). The registers only when the engine is idle:
 * after a timeout with CTL_A.ST still set they are left alone, counted in
 * key_wipes_skipped, and "key registers not wiped" is added to the error.
 */
void geode_sb_wipe_after(size_t used);

/*
 * Whether the engine's registers may be written: true unless a timed-out
 * operation still runs (CTL_A.ST set, A flag clear) after
 * GEODE_SB_IDLE_POLLS re-reads. Seeing it done wipes any key left behind.
 */
bool geode_sb_engine_idle(void);

/* memset to zero that the compiler may not drop. */
void geode_sb_wipe(void *p, size_t n);

/* 32-bit register access at an offset of BAR0 (hw_mmio_*). */
uint32_t geode_sb_rd(unsigned off);
void geode_sb_wr(unsigned off, uint32_t val);

/* The driver's log (lib/engine/driver.h): the run stage prints it. */
extern struct drv_log geode_sb_log;

/*
 * Records an error of the block, "geode-sb: " and the text
 * (geode_sb_last_error()), and adds the text to the driver's log if fewer
 * than GEODE_SB_ERR_PRINT were logged since the probe.
 */
void geode_sb_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for an RNG source: "<source>: " and the text, in the log too. */
void geode_sb_trng_error(const char *source, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* TSC ticks per second for figures: the calibrated rate, else what timer.c assumes. */
uint64_t geode_sb_ticks_per_s(void);

/* The outcome of the GLD_MSR_CAP check, one line. */
const char *geode_sb_msr_text(void);

/* MSR CTRL value for the TRNG default (T_NE, T_SEL 3, test mode off) from a value as found. */
uint64_t geode_sb_trng_ctrl_default(uint64_t found);

/* geode_sb_trng.c: forget state (probe), register the sources; its tests. */
void geode_sb_trng_reset(void);
void geode_sb_trng_register(void);
/* The hidden-key probe (geode_sb_probe.c), a self-test run after the writable-key ones. */
enum drv_status geode_sb_t_hidden_key(const void *ctx, char *detail, size_t cap);
/* What a self-test needs: the block found, its probe succeeded, the TRNG set up too. */
enum geode_sb_need { GEODE_SB_NEED_FOUND, GEODE_SB_NEED_OK, GEODE_SB_NEED_RNG };

/*
 * geode_sb.c: whether a self-test that needs `need` skips: true with the reason in d
 * (cap bytes): "no 1022:2082 device" (or the no-VSA reason) when the block
 * is absent, "geode-sb probe failed" when the probe did not succeed, why
 * the TRNG was not set up (rng_why); false when the test can run.
 */
bool geode_sb_skip(enum geode_sb_need need, char *d, size_t cap);

/* AES-128 of the zero block under the all-ones key (the hidden key as shipped), by lib/crypto/aes. */
void geode_sb_ones_block(uint8_t out[16]);

/* The TRNG's self-tests (struct driver_test): throughput per T_SEL, the T_TM probe. */
enum drv_status geode_sb_trng_t_throughput(const void *ctx, char *detail, size_t cap);
enum drv_status geode_sb_trng_t_test_mode(const void *ctx, char *detail, size_t cap);

#endif
