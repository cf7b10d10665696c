/*
 * RDRAND and RDSEED as RNG sources (see rdrand.h for the sources).
 *
 * Only rdrand_step() and rdseed_step() execute the instructions: they are
 * CPUFEAT_FN (.text_cpufeat, see kernel/platform/cpufeat.h). The retry loop, the
 * backoff and the registration are plain i586 code.
 *
 * RDSEED backoff: RDSEED returns CF=0 whenever the entropy conditioner has
 * no fresh seed yet, which happens routinely when it is read back to back
 * (DRNG guide 5.3.1), whereas an RDRAND failure is rare enough that ten in
 * a row mean a fault (5.2.1). Both keep the same bound of RDRAND_RETRIES
 * tries per word, so a dead unit is reported quickly either way, but RDSEED
 * waits RDSEED_BACKOFF_PAUSES PAUSE instructions between tries (a PAUSE
 * lasts about 10 to 140 cycles depending on the core), so its ten tries
 * span some 10^4 to 10^5 cycles instead of a few hundred. PAUSE is encoded
 * F3 90 (REP NOP), which every i586 executes as a NOP.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/platform/cpufeat.h"
#include "drivers/rdrand/rdrand.h"
#include "lib/engine/driver.h"

/* The kernel is assembled with -Wa,-march=i586; allow RDRAND and RDSEED in
 * this file. The instruction audit still checks that they occur only in
 * .text_cpufeat. */
__asm__(".arch .rdrnd\n\t.arch .rdseed");

/*
 * Inline assembly rather than _rdrand32_step(): GCC implements that
 * intrinsic as "CF ? 1 : destination", trusting the SDM's promise that the
 * destination is zero on failure. Here CF alone decides, so a unit that
 * fails with a nonzero destination is still seen to fail.
 */
CPUFEAT_FN("rdrnd") bool rdrand_step(uint32_t *val)
{
	uint32_t v;
	uint8_t cf;
	__asm__ volatile("rdrand %0\n\tsetc %1" : "=r"(v), "=qm"(cf) : : "cc");
	*val = v;
	return cf != 0;
}

CPUFEAT_FN("rdseed") bool rdseed_step(uint32_t *val)
{
	uint32_t v;
	uint8_t cf;
	__asm__ volatile("rdseed %0\n\tsetc %1" : "=r"(v), "=qm"(cf) : : "cc");
	*val = v;
	return cf != 0;
}

static void pause_n(unsigned n)
{
	while (n--)
		__asm__ volatile("rep; nop");	/* PAUSE */
}

int rdrand_fill_with(rdrand_step_fn step, unsigned backoff_pauses, struct rdrand_stats *stats,
		     uint8_t *buf, size_t len, size_t *got)
{
	size_t done = 0, n;
	unsigned tries;
	uint32_t v = 0;
	bool ok;

	while (done < len) {
		ok = false;
		for (tries = 0; tries < RDRAND_RETRIES; tries++) {
			if (tries > 0)
				pause_n(backoff_pauses);
			ok = step(&v);
			if (ok)
				break;
			if (stats)
				stats->failures++;
		}
		if (stats && tries > stats->longest_run)
			stats->longest_run = tries;
		if (!ok)
			break;
		if (stats)
			stats->words++;
		n = len - done < sizeof(v) ? len - done : sizeof(v);
		memcpy(buf + done, &v, n);
		done += n;
	}
	if (got)
		*got = done;
	return done == len ? ENGINE_OK : ENGINE_EHW;
}

static struct rdrand_stats rdrand_counts, rdseed_counts;

int rdrand_fill(uint8_t *buf, size_t len, size_t *got)
{
	return rdrand_fill_with(rdrand_step, 0, &rdrand_counts, buf, len, got);
}

int rdseed_fill(uint8_t *buf, size_t len, size_t *got)
{
	return rdrand_fill_with(rdseed_step, RDSEED_BACKOFF_PAUSES, &rdseed_counts, buf, len, got);
}

static int rdrand_read(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got)
{
	(void)r;
	return rdrand_fill(buf, len, got);
}

static int rdseed_read(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got)
{
	(void)r;
	return rdseed_fill(buf, len, got);
}

const struct rng_source rdrand_source = {
	.name = "rdrand",
	.description = "RDRAND instruction (DRBG output), 32 bits per try, up to 10 tries per word",
	.known_bad = false,
	.ctx = &rdrand_counts,
	.read = rdrand_read,
};

const struct rng_source rdseed_source = {
	.name = "rdseed",
	.description = "RDSEED instruction (conditioned entropy), 32 bits per try, up to 10 tries per word with PAUSE backoff",
	.known_bad = false,
	.ctx = &rdseed_counts,
	.read = rdseed_read,
};

const char *rdrand_absent_reason(const struct cpu_info *cpu)
{
	return cpu->rdrand ? NULL : "CPUID.1:ECX.RDRAND is clear";
}

const char *rdseed_absent_reason(const struct cpu_info *cpu)
{
	return cpu->rdseed ? NULL : "CPUID.(EAX=7,ECX=0):EBX.RDSEED is clear";
}

void rdrand_probe(const struct cpu_info *cpu)
{
	if (!rdrand_absent_reason(cpu))
		engine_register_rng(&rdrand_source);
	if (!rdseed_absent_reason(cpu))
		engine_register_rng(&rdseed_source);
}

/* The driver interface (lib/engine/driver.h): two units, RDRAND and RDSEED. */
static void rdrand_driver_probe(const struct driver_facts *f, struct driver_probe *out)
{
	const char *why;

	rdrand_probe(f->cpu);
	why = rdrand_absent_reason(f->cpu);
	if (why)
		driver_unit(out, "rng: rdrand source", "%s", why);
	else
		driver_unit(out, "rng: rdrand source", NULL);
	why = rdseed_absent_reason(f->cpu);
	if (why)
		driver_unit(out, "rng: rdseed source", "%s", why);
	else
		driver_unit(out, "rng: rdseed source", NULL);
}

const struct driver rdrand_driver = {
	.name = "rdrand",
	.probe = rdrand_driver_probe,
};
