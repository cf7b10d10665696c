/*
 * run_summary: the last screen of the report. It collects every TAP result
 * with the engine row and column its maker gave (the KAT of an engine, its
 * cross-check, an RNG source's statistics, a driver's own checks in the
 * probe column, the platform's checks under "platform"; the name is only
 * kept for the failing tests' lines), each engine's 8 KiB throughput against
 * software, the box's name, the stage durations and the failing tests, and
 * formats them as at most RSUM_MAX_LINES lines of at most RSUM_SCREEN
 * characters (docs/report-format.md, "Summary"): the box, one row per
 * engine that ran, the first failure with its reason first (wrapped, never
 * cut), the other failures, the troubleshooting row to read, the times.
 * Hardware-free: the kernel feeds it from kernel/run/report.c.
 */
#ifndef CQ_LIB_RUN_SUMMARY_H
#define CQ_LIB_RUN_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RSUM_ENGINES    16   /* rows kept (absent engines too); later ones count under "other" */
#define RSUM_FAILS      7    /* failing tests named; the rest are counted */
#define RSUM_NAME       24   /* engine name, bytes with the NUL */
#define RSUM_FAIL_NAME  240  /* a failing test's line as kept, bytes with the NUL */
#define RSUM_BOX        160  /* the box line's text, bytes with the NUL */
#define RSUM_SCREEN     77   /* characters per line: with "# " one 80-column line */
#define RSUM_STAGES     16
#define RSUM_MAX_LINES  22   /* with the plan and the verdict: the last 24 lines */
#define RSUM_LINE       200  /* bytes per formatted line, with the NUL */
#define RSUM_SOAK_KEPT  256  /* soak passes whose verdict the soak line lists */

enum rsum_col { RSUM_PROBE, RSUM_KAT, RSUM_XCHECK, RSUM_RNG, RSUM_COLS };

struct rsum_cell {
	unsigned ok, not_ok, skip;
};

struct rsum_engine {
	char name[RSUM_NAME];
	struct rsum_cell c[RSUM_COLS];
	uint64_t speed, sw_speed;   /* bytes per second at 8 KiB; 0 = not measured */
	bool rng_speed;             /* speed is an RNG source's (no software reference) */
	bool ref;                   /* the software baseline (rsum_reference) */
	bool emulated;              /* speed measured on a device model, not hardware */
};

struct rsum {
	struct rsum_engine e[RSUM_ENGINES + 1];    /* the last is "other" */
	unsigned n;
	unsigned nfail;                            /* every not ok */
	unsigned fail_num[RSUM_FAILS];
	char fail_name[RSUM_FAILS][RSUM_FAIL_NAME];
	char fail_engine[RSUM_FAILS][RSUM_NAME];   /* its row ("platform" for none) */
	char fail_detail[RSUM_FAIL_NAME];          /* the first failure's first detail line; "" none */
	bool detail_open;                          /* the last result was the first failure */
	char box[RSUM_BOX];                        /* rsum_box(); "" before */
	unsigned nstage;
	char stage[RSUM_STAGES][16];
	int64_t stage_tenths[RSUM_STAGES];         /* -1: unknown */
	unsigned soak_passes;                      /* soak passes run (0: no soak) */
	unsigned soak_worst, soak_worst_not_ok;    /* the pass with the most not ok, and how many */
	uint8_t soak_failed[RSUM_SOAK_KEPT / 8];   /* bit p-1: pass p had a not ok */
	bool have_ref;                             /* rsum_reference() named one */
};

void rsum_init(struct rsum *s);

/*
 * One TAP result: its number, ok/not ok, whether it was a SKIP, its name
 * as printed (already escaped; kept for the failing tests' lines), and
 * where it counts: the engine row (an engine or RNG source name; from a
 * '/' on it is cut, so "geode-trng/tsel0" counts as "geode-trng"; NULL or
 * "" for "platform") and the column (out of range: RSUM_PROBE).
 */
void rsum_result(struct rsum *s, unsigned number, bool ok, bool skip, const char *name,
		 const char *engine, enum rsum_col col);

/*
 * A detail line of a failing test (what the report prints as "#   text"
 * after its not ok: a KAT's "vector C.1 block 1: expected .. got .."). The
 * first one after the first failure, with no result between, is kept; the
 * summary gives it as that failure's reason when its name carries none.
 * Any other call is ignored.
 */
void rsum_detail(struct rsum *s, const char *text);

/*
 * An engine's throughput at 8 KiB in bytes per second (AES-128-CBC encrypt
 * for a cipher, SHA-256 for a hash unit, the read rate of an RNG source),
 * and software's for the same algorithm (0 when there is no reference, e.g.
 * an RNG source); emulated when a device model, not hardware, produced it.
 * The first figure given for an engine is kept.
 */
void rsum_speed(struct rsum *s, const char *engine, uint64_t bytes_per_s, uint64_t sw_bytes_per_s,
		bool rng, bool emulated);

/*
 * The engine whose 8 KiB figure the others' software figure is: its vs_sw
 * reads "ref". Without one, the engine named "software" is.
 */
void rsum_reference(struct rsum *s, const char *engine);

/*
 * The box this report is from: its key (@identity box=) and what names its
 * model (SMBIOS product or the BIOS banner), BIOS version and image
 * version, each already escaped; "" or NULL for unknown. The line is cut
 * at RSUM_SCREEN characters.
 */
void rsum_box(struct rsum *s, const char *key, const char *model, const char *bios,
	      const char *version);

/*
 * A finished soak pass (numbered from 1, as its records' pass=) and its
 * not ok count. The summary then has one soak line: each pass's verdict
 * (runs of passes with the same verdict joined: "1-17 pass, 18 FAIL, 19-40
 * pass"; passes past RSUM_SOAK_KEPT counted, not listed) and the worst.
 */
void rsum_soak(struct rsum *s, unsigned pass, unsigned not_ok);

/* A finished stage and its duration in tenths of a second (-1: unknown). */
void rsum_stage(struct rsum *s, const char *name, int64_t tenths);

/*
 * Formats the summary: calls line(ctx, text) for each line (text without
 * "# " and without a newline, shorter than RSUM_LINE), at most
 * RSUM_MAX_LINES times. total is the run time as printed ("52.3").
 * Returns the number of lines.
 */
unsigned rsum_format(const struct rsum *s, const char *total, unsigned ok, unsigned not_ok,
		     unsigned skipped, void (*line)(void *ctx, const char *text), void *ctx);

#endif
