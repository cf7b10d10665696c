/*
 * rdrand: the RDRAND and RDSEED instructions as RNG sources "rdrand" and
 * "rdseed" (lib/engine/engine.h struct rng_source).
 *
 * Sources: Intel SDM vol. 2B, RDRAND and RDSEED (CF=1: the destination
 * holds a random value; CF=0: none was available and the destination is
 * zero); Intel Digital Random Number Generator (DRNG) Software
 * Implementation Guide 5.2.1 (retry RDRAND up to 10 times: a failure that
 * persists is a hardware fault) and 5.3.1 (RDSEED fails more often under
 * load; back off with PAUSE between tries). CPUID.1:ECX.RDRAND[bit 30] and
 * CPUID.(EAX=7,ECX=0):EBX.RDSEED[bit 18].
 *
 * Builds for the kernel and for x86_64 host programs (rdrand_fill() on a
 * host CPU with RDRAND).
 */
#ifndef CQ_DRIVERS_RDRAND_H
#define CQ_DRIVERS_RDRAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/platform/cpuid.h"
#include "lib/engine/engine.h"

#define RDRAND_RETRIES		10	/* tries per 32-bit word before giving up (DRNG guide 5.2.1) */
#define RDSEED_BACKOFF_PAUSES	128	/* PAUSEs between two RDSEED tries (DRNG guide 5.3.1) */

/* One try: stores a 32-bit value and returns true, or returns false (CF=0). */
typedef bool (*rdrand_step_fn)(uint32_t *val);

/*
 * Counters a source keeps across reads (its rng_source.ctx), for the
 * report: words delivered, failed tries (CF=0) that a retry then covered
 * or not, and the longest run of consecutive failed tries.
 */
struct rdrand_stats {
	uint64_t words;
	uint64_t failures;
	unsigned longest_run;
};

/*
 * Fills buf with len bytes of 32-bit results of step (the first len % 4
 * bytes of the last word when len is not a multiple of 4), trying each
 * word up to RDRAND_RETRIES times, with backoff_pauses PAUSE instructions
 * between tries. Returns 0, or ENGINE_EHW when RDRAND_RETRIES tries in a
 * row failed; *got (if not NULL) is the number of bytes delivered. stats
 * may be NULL. Executes no instruction itself beyond what step does.
 */
int rdrand_fill_with(rdrand_step_fn step, unsigned backoff_pauses, struct rdrand_stats *stats,
		     uint8_t *buf, size_t len, size_t *got);

/* The same with RDRAND (no backoff) and RDSEED (RDSEED_BACKOFF_PAUSES). Call
 * only when CPUID says the instruction exists. */
int rdrand_fill(uint8_t *buf, size_t len, size_t *got);
int rdseed_fill(uint8_t *buf, size_t len, size_t *got);

/* One RDRAND / RDSEED try (rdrand_step_fn). */
bool rdrand_step(uint32_t *val);
bool rdseed_step(uint32_t *val);

/* The sources; their ctx is their struct rdrand_stats. */
extern const struct rng_source rdrand_source;
extern const struct rng_source rdseed_source;

/* "CPUID.1:ECX.RDRAND is clear" / "CPUID.(EAX=7,ECX=0):EBX.RDSEED is clear",
 * or NULL when the instruction exists. */
const char *rdrand_absent_reason(const struct cpu_info *cpu);
const char *rdseed_absent_reason(const struct cpu_info *cpu);

/* Registers each source whose instruction CPUID reports (engine_register_rng). */
void rdrand_probe(const struct cpu_info *cpu);

/* The RDRAND/RDSEED driver for the run's table (lib/engine/driver.h). */
struct driver;
extern const struct driver rdrand_driver;

#endif
