/*
 * run_summary: the last screen of the report. It collects every TAP result
 * (by its name: "kat: ENGINE ...", "crosscheck: ENGINE ...", "rng: SOURCE
 * ...", "ENGINE: ..." for a driver's own checks, the platform's checks
 * under "platform"), each engine's 8 KiB throughput against software, the
 * stage durations and the failing tests, and formats them as at most
 * RSUM_MAX_LINES lines (docs/report-format.md, "Summary").
 * Hardware-free: the kernel feeds it from kernel/run/report.c.
 */
#ifndef CQ_LIB_RUN_SUMMARY_H
#define CQ_LIB_RUN_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RSUM_ENGINES    9    /* rows; later engines are counted under "other" */
#define RSUM_FAILS      7    /* failing tests named; the rest are counted */
#define RSUM_NAME       24   /* engine name, bytes with the NUL */
#define RSUM_FAIL_NAME  100  /* a failing test's name as kept, bytes with the NUL */
#define RSUM_STAGES     16
#define RSUM_MAX_LINES  22   /* with the plan and the verdict: the last 24 lines */
#define RSUM_LINE       200  /* bytes per formatted line, with the NUL */

enum rsum_col { RSUM_PROBE, RSUM_KAT, RSUM_XCHECK, RSUM_RNG, RSUM_COLS };

struct rsum_cell {
	unsigned ok, not_ok, skip;
};

struct rsum_engine {
	char name[RSUM_NAME];
	struct rsum_cell c[RSUM_COLS];
	uint64_t speed, sw_speed;   /* bytes per second at 8 KiB; 0 = not measured */
	bool rng_speed;             /* speed is an RNG source's (no software reference) */
};

struct rsum {
	struct rsum_engine e[RSUM_ENGINES + 1];    /* the last is "other" */
	unsigned n;
	unsigned nfail;                            /* every not ok */
	unsigned fail_num[RSUM_FAILS];
	char fail_name[RSUM_FAILS][RSUM_FAIL_NAME];
	unsigned nstage;
	char stage[RSUM_STAGES][16];
	int64_t stage_tenths[RSUM_STAGES];         /* -1: unknown */
};

void rsum_init(struct rsum *s);

/*
 * One TAP result: its number, ok/not ok, whether it was a SKIP, and its
 * name as printed (already escaped; anything after " # " is ignored).
 */
void rsum_result(struct rsum *s, unsigned number, bool ok, bool skip, const char *name);

/*
 * An engine's throughput at 8 KiB in bytes per second, and software's for
 * the same algorithm (0 when there is no reference, e.g. an RNG source).
 * The first figure given for an engine is kept.
 */
void rsum_speed(struct rsum *s, const char *engine, uint64_t bytes_per_s, uint64_t sw_bytes_per_s,
		bool rng);

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

/* The engine row and column a test name counts under (exposed for tests). */
void rsum_classify(const char *name, char *engine, size_t cap, enum rsum_col *col);

#endif
