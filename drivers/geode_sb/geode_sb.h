/*
 * geode_sb: the AMD Geode LX security block (PCI 1022:2082): AES-128 in
 * ECB and CBC through DMA context A, the true random number generator in
 * its four post-processing modes and its test mode, and the EEPROM's lock
 * state. Facts: drivers/geode_sb/geode_sb_reg.h and the notes it cites.
 *
 * What probing registers (lib/engine/engine.h):
 *   AES engine "geode-sb": claims exactly AES-128 ECB and CBC, encrypt and
 *     decrypt; any alignment and any length that is a multiple of 16 (the
 *     driver bounces every request through its own 16-byte-aligned DMA
 *     buffers, GEODE_SB_CHUNK bytes per DMA operation, chaining the CBC IV
 *     across them); in == out allowed. set_key keeps the key in the
 *     session; every DMA operation loads it into WKEY0..3 again, and every
 *     crypt call ends by writing zeros to WKEY0..3 and CBC_IV0..3 (unless
 *     a timed-out operation still runs: see below) and to the DMA
 *     buffers it used.
 *   RNG sources "geode-trng/tsel0" .. "geode-trng/tsel3" (MSR CTRL T_SEL
 *     0: raw noise, 1: LFSR, 2: whitener, 3: LFSR + whitener, noise
 *     generator on, test mode off). Only tsel3, what the BSDs use, claims
 *     full entropy; tsel0-2 are characterised (engine.h RNG_CLAIM_*,
 *     docs/rng-verdict.md). Test mode (T_TM) is no source: a self-test
 *     probes it and reports what it gives, as information.
 *   Dual-context crypt (crypt_dual): contexts A and B started together,
 *     same key, ECB only, since WKEY0..3 and CBC_IV0..3 are shared.
 *
 * Every hardware wait is bounded by the calibrated TSC (kernel/platform/timer.h):
 *   AES DMA: GEODE_SB_WAIT_BASE_US + 1 us per 16 bytes. Published figures
 *     put the engine at 20-40 MB/s (0.4-0.8 us per block); 1 us per block
 *     leaves a margin over the slowest of them, and the fixed 10 ms covers
 *     DMA setup and a System Management Interrupt of the VSA firmware,
 *     which emulates this very device's PCI header. A 16 KiB chunk may
 *     take at most 11 ms before it counts as a timeout.
 *   TRNG: GEODE_SB_TRNG_WAIT_US per 32-bit word (the BSDs sample every 10 ms;
 *     Linux gives up after 20 polls 10 us apart).
 * Besides the TSC bound, each wait stops after GEODE_SB_MAX_POLLS register
 * reads, so even a TSC that does not advance cannot hang the run.
 *
 * After a timeout the operation may still be running, and software must
 * not write the block's registers until it completes ([DB] 6.11, security
 * block, geode_sb_reg.h: wait for completion before the next operation).
 * So until CTL_A.ST is seen clear (or the A flag set), no SOURCE/DEST/
 * LENGTH/WKEY/CBC_IV/CTL_A write is made: each later request, and each
 * wipe, first re-reads CTL_A and AES_INT up to GEODE_SB_IDLE_POLLS times
 * (the operation already had its full time limit; this only sees whether
 * it has finished since). A request then fails with "engine still busy
 * with a timed-out operation"; a wipe is skipped and the error text says
 * "key registers not wiped", and the key left in WKEY0..3 and CBC_IV0..3
 * is wiped as soon as a later check finds the engine done.
 *
 * Errors carry the register state, e.g. "geode-sb: DMA timeout after
 * 22049000 cycles (limit 22048000, 22049 polls): CTL_A=0x0000003f
 * AES_INT=0x00000007 SRC=0x0804c000 DST=0x08050040 LEN=16384"; the first
 * GEODE_SB_ERR_PRINT of them are printed as `#` lines, and the latest is
 * kept for geode_sb_last_error().
 */
#ifndef CQ_DRIVERS_GEODE_SB_H
#define CQ_DRIVERS_GEODE_SB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/engine/engine.h"

#define GEODE_SB_CHUNK		16384	/* bytes per DMA operation (the BSDs' GLXSB_MAX_AES_LEN) */
#define GEODE_SB_GUARD		64	/* guard bytes before and after every DMA destination */
#define GEODE_SB_WAIT_BASE_US	10000	/* fixed part of the DMA completion wait, us */
#define GEODE_SB_WAIT_US_PER_BLOCK 1	/* plus this per 16-byte block, us */
#define GEODE_SB_TRNG_WAIT_US	10000	/* wait for RANDOM_NUM_STATUS valid, per word, us */
#define GEODE_SB_MAX_POLLS	10000000u	/* backstop on register reads of one wait */
#define GEODE_SB_IDLE_POLLS	16	/* CTL_A/AES_INT re-reads before touching a timed-out engine */
#define GEODE_SB_ERR_PRINT	8	/* errors printed as `#` lines; later ones only kept */
/*
 * Repetition count test on the TRNG's 32-bit words (SP 800-90B 4.4.1):
 * cutoff C = 1 + ceil(30 / H) for a false alarm rate of 2^-30, with a
 * conservative H = 2 bits of min-entropy per word for the raw noise mode.
 * Not applied to the test-mode probe, whose output nobody describes.
 */
#define GEODE_SB_TRNG_STUCK_WORDS	16
#define GEODE_SB_TRNG_PERIODS	8	/* repeating output checked for periods 1..8 words */
/* T_SEL 0-2 are characterised at this assessment claim: 1 bit per byte, micro-bits. */
#define GEODE_SB_TRNG_RAW_CLAIM	1000000u
#define GEODE_SB_TRNG_TM_BYTES	4096	/* what the T_TM probe reads at most */
/* What the probe says when GLD_MSR_CAP identifies the block but PCI has no 1022:2082. */
#define GEODE_SB_NO_VSA		"security block present, PCI header absent: firmware without VSA"
/* CTRL bits the probe writes and compares after writing (the rest is only printed). */
#define GEODE_SB_CTRL_OURS	(GEODE_SB_CTRL_T_NE | GEODE_SB_CTRL_T_SEL_MASK | GEODE_SB_CTRL_T_TM)
#define GEODE_SB_TRNG_BENCH_BYTES	4096	/* bytes per mode for the throughput figure */
#define GEODE_SB_TRNG_BENCH_US	250000	/* ... or this long, whichever comes first */

/*
 * Finds PCI 1022:2082 among the devices pci_scan() found (without it, a
 * GLD_MSR_CAP that identifies the block means firmware without VSA: the
 * absent reason is GEODE_SB_NO_VSA), checks GLD_MSR_CAP (0x58002000,
 * through hw_rdmsr_safe) and BAR0, turns on memory decoding and bus
 * mastering where firmware left them off, masks the block's interrupts,
 * sets the TRNG to noise on / T_SEL 3 / test mode off and compares only
 * those CTRL bits after the write (a mismatch keeps the RNG sources out,
 * never the AES engine), and reads the EEPROM lock state. Logs what it
 * found (geode_sb_driver.log) and registers the engine and the RNG
 * sources. The hidden key is not touched here: geode_sb_t_hidden_key(), a
 * self-test after the writable-key ones, probes it on context B. Call
 * after pci_scan() and, for the right time bounds, after
 * timer_calibrate(). May be called again (host tests): it starts from
 * scratch each time.
 */
void geode_sb_probe(void);

/*
 * The driver for the run's table (lib/engine/driver.h). Its self-tests:
 * probe, GLD_MSR_CAP, writable key in use, AES through DMA against lib/crypto/aes
 * (several chunks, unaligned and in-place buffers, CBC chained across
 * calls), DMA guard bytes, DMA buffers wiped, the hidden-key probe
 * (information, context B), TRNG bytes/s for each T_SEL mode, the T_TM
 * probe (information). Without the device each SKIPs with "no 1022:2082
 * device" (or GEODE_SB_NO_VSA); after a failed probe the probe test fails
 * with the reason and the others SKIP. The KATs are not here: they run through the
 * shared KAT runner over the registered engine.
 */
struct driver;
extern const struct driver geode_sb_driver;

/* NULL when the block was probed and works, else why not ("no 1022:2082 device", ...). */
const char *geode_sb_absent_reason(void);

/* The latest error of the driver (one line, no newline), "" when none. */
const char *geode_sb_last_error(void);

/*
 * Whether WKEY0..3 and CBC_IV0..3 may still hold key material because a
 * timed-out operation kept the engine busy when they were to be wiped
 * (see above). Cleared when a later check finds the engine done and the
 * registers are wiped.
 */
bool geode_sb_keys_unwiped(void);

/* The AES engine (registered by a successful probe; usable only then). */
const struct aes_engine *geode_sb_engine(void);

/* What the hidden-key probe found (a self-test after the writable-key ones). */
enum geode_sb_hidden_key {
	GEODE_SB_HKEY_NOT_RUN,		/* the probe has not run (yet) */
	GEODE_SB_HKEY_UNKNOWN,		/* the DMA with the hidden key failed */
	GEODE_SB_HKEY_FACTORY,		/* encrypts like the all-ones key: EEPROM as shipped */
	GEODE_SB_HKEY_PROGRAMMED,	/* not the all-ones key: a hidden key is programmed */
};

struct geode_sb_info {
	bool found;			/* PCI 1022:2082 exists */
	bool no_vsa;			/* not found, but GLD_MSR_CAP identifies the block */
	bool ok;			/* probe succeeded: the AES engine is registered */
	bool rng_ok;			/* ... and MSR CTRL took the TRNG setting: sources registered */
	uint8_t bus, dev, fn;
	uint32_t bar0;			/* bus address of the registers */
	bool msr_ok;			/* GLD_MSR_CAP read and identified the block */
	uint64_t cap;			/* GLD_MSR_CAP */
	uint64_t ctrl_found, ctrl_set;	/* MSR CTRL as found and as the probe wrote it */
	uint64_t ctrl_back;		/* ... and as it read back */
	uint32_t sec_state;		/* EEPROM_SEC_STATE */
	enum geode_sb_hidden_key hidden_key;
};
const struct geode_sb_info *geode_sb_info(void);

/* Counters since the last probe. */
struct geode_sb_stats {
	unsigned long ops;		/* DMA operations that completed */
	unsigned long done_by_st;	/* ... seen done through CTL_A.ST clearing */
	unsigned long done_by_flag;	/* ... through AES_INT's A flag while ST was still set */
	unsigned long timeouts;
	unsigned long overruns;		/* operations that changed guard bytes */
	unsigned long errors;		/* every error, of any kind */
	unsigned long iv_readback_same;	/* CBC: CBC_IV afterwards = the chained IV */
	unsigned long iv_readback_other;
	unsigned long key_wipes;	/* times WKEY0..3 and CBC_IV0..3 were zeroed */
	unsigned long key_wipes_skipped;	/* ... not zeroed: a timed-out operation was still running */
	unsigned long busy_at_probe;	/* contexts found with ST set when the probe ran */
	uint64_t max_wait_cycles;	/* longest completion wait */
	char first_overrun[200];	/* the first overrun's error text, "" if none */
};
const struct geode_sb_stats *geode_sb_stats(void);

/*
 * Whether the driver's DMA area is all zero (as every crypt call leaves
 * it). Returns true, or false with *offset = first non-zero byte.
 */
bool geode_sb_dma_clean(size_t *offset);

/*
 * Test hook: when on, SOURCE_A = DEST_A (the engine reads and writes the
 * same buffer), an arrangement the BSDs leave as an open question and
 * Linux uses; the DMA guard self-test tries it once and logs what happened.
 */
void geode_sb_set_inplace_dma(bool on);

#endif
