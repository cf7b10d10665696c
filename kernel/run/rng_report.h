/*
 * RNG quality in the image: the self-check with deliberately bad sources,
 * then every registered RNG source collected and judged by the FIPS 140-2,
 * SP 800-90B and ent statistics of lib/rng/rng_quality.h (verdict rules:
 * docs/rng-verdict.md).
 */
#ifndef CQ_KERNEL_RNG_REPORT_H
#define CQ_KERNEL_RNG_REPORT_H

#include <stdbool.h>
#include <stdint.h>

/* Bytes per source when rng_bytes= is not given: 100 FIPS blocks. */
#define RNG_DEFAULT_BYTES (250u * 1000u)

/*
 * Runs the self-check (one TAP test per bad source: `ok` when the tests
 * caught it, `not ok` if it passed what it is built to fail), then for each
 * registered source: rng_bytes bytes (0 = RNG_DEFAULT_BYTES), one TAP test
 * per statistic, the table row and a `# @rng` record. A source registered
 * as known-bad by its driver (a hardware test mode) must fail at least one
 * test: that is its `ok`. A source characterised for information (no
 * documented entropy claim) gets one `# rng:` line naming the statistics
 * outside their bounds, or with verbose one line per statistic; its
 * `# @rng` record carries every figure either way.
 */
void rng_report_run(uint32_t rng_bytes, bool verbose);

#endif
