/*
 * bench_int: what the benchmark's files share. Calls go one way, down
 * this list, never back up:
 *   kernel/run/bench.c        the orchestration: scope, budget, sections;
 *   kernel/run/bench_aes.c    the AES rows; kernel/run/bench_units.c the
 *                             hashes, RNG sources and montmul;
 *   kernel/run/bench_print.c  tables and records;
 *   kernel/run/bench_time.c   the timing core: sizes, bench_measure, buffers.
 * Not a public interface.
 */
#ifndef CQ_KERNEL_BENCH_INT_H
#define CQ_KERNEL_BENCH_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/measure/bench_stats.h"
#include "lib/engine/engine.h"
#include "kernel/run/bench.h"

#define BENCH_NSIZES	6		/* openssl speed's buffer sizes, below */
#define BENCH_MAX_BYTES	16384		/* the largest */
#define BENCH_MAX_ROWS	256		/* cipher and hash rows of one run */
#define BENCH_NAME_MAX	48		/* a row name, with its NUL */
#define BENCH_MAX_OPS	(1ull << 30)	/* bound on the operations of one run */
#define BENCH_EZERO	(-100)		/* a timed run took zero cycles (no ENGINE_E* code) */
#define BENCH_SHORT_DIV	2		/* repetitions under budget/reps/2: the count was too small */
#define BENCH_RESCALES	2		/* times a cell's count is scaled up after short repetitions */

extern const uint32_t bench_sizes[BENCH_NSIZES];

/* How long a cell runs: budget_cycles of repetitions in total, over reps runs. */
struct bench_plan {
	uint64_t budget_cycles;
	unsigned reps;
	uint64_t hz;			/* tsc_hz() */
	bool verbose;			/* the cycles-per-byte and spread grids, the cost table */
};

/* One measured cell: reps runs of `ops` operations each. */
struct bench_cell {
	bool measured;			/* a figure exists */
	int err;			/* 0, ENGINE_E* or BENCH_EZERO when it failed */
	uint64_t ops;			/* operations per run */
	uint64_t bytes;			/* bytes per run (ops x bytes per operation) */
	uint64_t cycles;		/* median cycles per run */
	uint32_t spread_x10;		/* (max - min) / median, per mille */
};

enum bench_variant {
	BV_SEPARATE,			/* in and out separate, aligned */
	BV_INPLACE,			/* out == in, aligned */
	BV_UNALIGNED,			/* in and out at offset 1 (bounced by us when align > 1) */
	BV_DUAL,			/* two requests at once (aes_engine.crypt_dual) */
};

struct bench_row {
	char name[BENCH_NAME_MAX];	/* table row: engine:alg[:decrypt][:variant][(emulated)] */
	char base[BENCH_NAME_MAX];	/* engine:alg, for the cost table */
	char alg[16];			/* "aes-128-cbc", "sha256" */
	const char *engine;
	unsigned key_bits;		/* AES rows */
	const char *dir;		/* "encrypt", "decrypt", "digest" */
	const char *variant;		/* the record's variant= value */
	bool emulated;
	bool is_hash;
	unsigned sizes_mask;		/* bit i: measure bench_sizes[i] */
	/* What to run. */
	const struct aes_engine *aes;
	enum aes_mode mode;
	enum aes_dir adir;
	enum bench_variant bv;
	const struct hash_engine *hash;
	struct bench_cell cell[BENCH_NSIZES];
};

/* ---- bench_time.c ---- */

/* A timed piece of work: count operations; returns 0 or ENGINE_E*. */
typedef int (*bench_fn)(void *ctx, uint64_t count);

/*
 * Measures fn: doubles the count from 1 until one run lasts at least
 * target = budget/reps cycles (at most BENCH_MAX_OPS; the run that ends
 * the doubling is timed again when it is the first or took over 2.25
 * times the previous run, and the shorter time counts), scales the count
 * to that length (never below the last count that fell short), then
 * times reps runs. When their median is under target / BENCH_SHORT_DIV
 * (the doubling was fooled twice) the count is scaled up from the
 * shortest run and the reps runs are timed again, at most BENCH_RESCALES
 * times. bytes_per_op gives cell->bytes. Returns 0, ENGINE_E* (an operation failed) or BENCH_EZERO;
 * cell->err says the same.
 */
int bench_measure(const struct bench_plan *p, bench_fn fn, void *ctx,
		  uint64_t bytes_per_op, struct bench_cell *cell);

/*
 * bench_measure with a predicted cost of hint cycles per operation (0: no
 * prediction, as bench_measure): instead of doubling from 1, one run of
 * target / hint operations sets the count (timed twice, the shorter
 * counting, when the first time is outside 1/2 to 3/2 of target; scaled
 * to target; kept, and counted as the first repetition, when it lasted
 * 1/2 to 3/2 of target); a run off by more than 8 times falls back to
 * doubling from its count.
 */
int bench_measure_hint(const struct bench_plan *p, bench_fn fn, void *ctx,
		       uint64_t bytes_per_op, uint64_t hint, struct bench_cell *cell);

/*
 * Predicted cycles per operation of row's cell at size index i (0 when
 * none), the hint for bench_measure_hint: from the row's measured smaller
 * sizes, the straight line through the last two (fixed + per-byte cost,
 * never below the last), or from one alone its cost scaled by the size
 * ratio (an upper bound for such a cost); for the row's first cell,
 * last[i] (the engine's last measured cost at this size in another row:
 * close enough to start from), or 0 when last is NULL.
 */
struct bench_row;
uint64_t bench_predict_cycles(const struct bench_row *row, unsigned i, const uint64_t *last);

/* "engine error -5 (hardware error)" or "a repetition took zero cycles". */
const char *bench_strerror(int err);

/* Aligned work buffers of BENCH_MAX_BYTES (+ slack), allocated once; false if out of memory. */
#define BENCH_BUF_ALIGN	4096		/* base alignment; also the largest engine alignment served */
struct bench_buffers {
	uint8_t *a, *b, *c, *d;		/* in, out, second in, second out (see bench_buffers) */
	uint8_t iv[2][16];
	uint8_t digest[64];
};
#define BENCH_BUF_BYTES	(BENCH_MAX_BYTES + BENCH_BUF_ALIGN + 64)	/* bytes allocated per buffer */
bool bench_buffers(struct bench_buffers **out);

/* ---- bench_aes.c ---- */

/*
 * Fills rows[0..max) with the AES rows, algorithm-major: for each key
 * size, mode and direction (quick: only bench=quick's, AES-128 in every
 * mode and AES-256 in CBC) one row
 * per engine claiming it (no decryption row for OFB/CTR, the same
 * operation), then each engine's variants. *nengines counts the engines
 * with rows. Returns the number of rows.
 */
unsigned bench_aes_rows(struct bench_row *rows, unsigned max,
			bool quick, unsigned *nengines);

/* Measures every size of an AES row and prints its records; false if a cell failed. */
bool bench_measure_aes_row(const struct bench_plan *p, struct bench_row *row,
			   struct bench_buffers *bb);

/* ---- bench_units.c ---- */
bool bench_hash_rows(struct bench_row *rows, unsigned max, unsigned *n);
bool bench_measure_hash_row(const struct bench_plan *p, struct bench_row *r);
bool bench_rng(const struct bench_plan *p);
bool bench_montmul(const struct bench_plan *p);

/* ---- bench_print.c ---- */
enum bench_grid { BG_KBPS, BG_CPB, BG_SPREAD };

/* The `# @cipher` / `# @hash` records of a row's measured cells, and a
 * `# bench: ...` line per failed cell. */
void bench_print_records(const struct bench_plan *p, const struct bench_row *r);

/*
 * The summary's 8 KiB figure of every row of rows[0..n) that has one
 * (report_speed), against its reference row's (the software baseline:
 * vperm's row where it exists, else software's), once the rows are measured.
 */
void bench_note_speeds(const struct bench_plan *p, const struct bench_row *rows, unsigned n);

/* One table (header and rows) of rows[0..n) in the openssl layout. */
void bench_print_grid(const struct bench_row *rows, unsigned n, enum bench_grid g);

/*
 * Cost model of the BV_SEPARATE rows: a least-squares line per row,
 * `# @cost` records and (table: the `verbose` option) a table, break-even against the row of the
 * software baseline with the same alg and dir: the engine named "vperm" where it has one (a CPU
 * with SSSE3), else "software" (vs= names it). Returns false when a
 * fit failed for a row whose cells were all measured.
 */
bool bench_print_cost(const struct bench_row *rows, unsigned n, bool table);

#endif
