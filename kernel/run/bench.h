/*
 * bench: throughput of every registered engine, `openssl speed` style,
 * measured on the wall clock (the TSC calibrated at boot against the PIT
 * and the ACPI PM timer, kernel/platform/timer.h).
 *
 * For every AES engine and every (key size, mode) it claims: encryption at
 * 16, 64, 256, 1024, 8192 and 16384 bytes, decryption too where it is a
 * different operation (not OFB/CTR, SP 800-38A 6.4-6.5), in 1000s of bytes
 * per second and in cycles per byte, the median of BENCH_REPS repetitions
 * and their spread; a cost model (fixed cycles per operation + cycles per
 * byte, a least-squares line weighted by each cell's spread, both with
 * their uncertainty) and the break-even size against the software engine
 * over the measured sizes (or `unreliable` where a cell spread over 25 %,
 * the fixed cost came out negative or is known too poorly, see
 * bstat_fit_precise: no break-even is made up from such a line);
 * variants (in place, unaligned input, both DMA contexts where a driver
 * offers them); hash engines in the same form; RNG sources in bytes per
 * second; montmul operations per second where a driver registered a
 * Montgomery multiplier.
 *
 * Output: `#` tables in the openssl layout, and the records of
 * docs/report-format.md (`# @cipher`, `# @cost`, `# @hash`, `# @rng`,
 * `# @montmul`, and `# @calibration` from bench_report_calibration()).
 * The figures are not judged; the TAP results fail only when an operation
 * returned an engine error, faulted, or a repetition took zero cycles.
 *
 * Scope: bench=full, every key size, mode and direction an engine
 * claims; bench=quick (the default), AES-128 in every mode and direction
 * and AES-256 in CBC (said in a `# bench: scope:` line).
 *
 * Determinism: the operation count of each cell comes from doubling until
 * one run lasts budget/reps, then scaling to the budget, or for an AES or
 * hash cell from the cost predicted by the row's smaller sizes (an AES
 * row's first cell: the engine's previous row) (re-timing a run that looks stretched by an interruption, and scaling
 * up again when the repetitions come out far short, see bench_measure and
 * bench_measure_hint in bench_int.h); all of it depends only on cycle
 * counts, so under `qemu -icount shift=0` (TSC = instructions) two boots
 * print identical figures.
 */
#ifndef CQ_KERNEL_BENCH_H
#define CQ_KERNEL_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/engine/engine.h"
#include "kernel/platform/timer.h"

#define BENCH_REPS		3	/* repetitions per cell; the median is printed */
/*
 * bench=quick: ms of repetitions per cell.
 */
#define BENCH_QUICK_MS		12
#define BENCH_FULL_MS		250	/* bench=full: ms per cell, for real hardware (README, "Run time on a real box") */
#define BENCH_RUN_BUDGET_MS	(30u * 60u * 1000u)	/* the benchmark's time budget: 30 minutes */
#define BENCH_EST_OTHER_CELLS	12	/* hash cells (software SHA-1, SHA-256), for the estimate */
#define BENCH_RNG_READ		4096	/* bytes per RNG read in the RNG throughput cell */

/* What the benchmark measures and for how long. */
enum bench_scope { BENCH_OFF, BENCH_QUICK, BENCH_FULL };
struct bench_options {
	enum bench_scope scope;
	uint32_t cell_ms;		/* ms of repetitions per cell; 0: the scope's default */
	bool verbose;			/* also the cycles-per-byte and spread grids and the cost table */
};

/*
 * Runs every benchmark o->scope asks for (BENCH_OFF: one SKIP line),
 * o->cell_ms ms per cell (0: BENCH_QUICK_MS or BENCH_FULL_MS), over every
 * engine in the registry (lib/engine/engine.h): AES engines (with a
 * `:dual-context` row for an engine with crypt_dual), hash engines, RNG
 * sources, Montgomery multipliers. Call
 * after the TSC calibration, the engine probes, the KATs and the
 * cross-check. Needs tsc_hz() != 0 (else SKIP). Emits at most four TAP
 * results (cipher, hash, RNG, montmul), each run under the fault guard
 * and subject to only=.
 */
void bench_run(const struct bench_options *o);

/*
 * Prints the `# @calibration` record of cal and keeps a copy for the
 * benchmark's clock line. Call right after timer_calibrate().
 */
void bench_report_calibration(const struct tsc_calibration *cal);

#endif
