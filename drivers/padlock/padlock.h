/*
 * padlock: the VIA PadLock (and Zhaoxin) units as engines of the registry.
 *
 *   ACE       AES engine "padlock-ace": ECB, CBC, CFB128, OFB and CTR (built
 *             from rep xcrypt-ecb, as OpenSSL and NetBSD do) for AES-128/
 *             192/256, encrypt and decrypt. ACE2's rep xcrypt-ctr is run
 *             only by a self-test probe whose result is information.
 *   RNG       RNG sources "padlock-xstore/div0" .. "div3" (xstore divisors).
 *   PHE       hash engines "padlock-phe" for sha1 and sha256 (one-shot on
 *             the C7, block mode with software padding on the Nano and later).
 *   PMM       rep montmul: a known-answer test and its timing (no engine).
 *
 * Sources: see padlock_reg.h. Hardware access: CPUID and MSRs through
 * kernel/platform/hw.h; the PadLock instructions themselves (padlock_insn.h) are CPU
 * instructions run by the driver. CR0.TS (and CR0.EM) are cleared around
 * them (padlock_cr0.c: a spurious #NM otherwise).
 *
 * Single-threaded, like the rest of the kernel: the driver keeps static,
 * aligned work buffers and the identity of the key the unit last loaded.
 */
#ifndef CQ_DRIVERS_PADLOCK_H
#define CQ_DRIVERS_PADLOCK_H

#include <stdbool.h>

#include "lib/platform/cpuid.h"

/*
 * Probes the units from the decoded CPUID (cpu), enables a present but
 * disabled ACE or RNG through the MSR Linux uses for the vendor string
 * (CentaurHauls family 6 and >= 7: FCR 0x1107 bit 28, RNG MSR 0x110B bit
 * 6; "  Shanghai  ": MSR 0x1257 bits 7 and 8) with the safe MSR
 * accessors, re-reads CPUID 0xC0000001, sets up the RNG MSR on C3/C7,
 * logs (padlock_driver.log) what it found and did, and registers the
 * engines of the enabled units (lib/engine/engine.h) and the PMM's
 * Montgomery multiplier. Call once after
 * cpu_init(); calling it again (host tests) starts over.
 */
void padlock_probe(const struct cpu_info *cpu);

/*
 * The driver for the run's table (lib/engine/driver.h). Its self-tests:
 * detection, RNG status checks for each divisor, the PMM known-answer test
 * (and its timing, logged), the ACE work buffers wiped after use, and the
 * ACE2 hardware CTR probe (passes with its finding: the counter format is
 * not documented, so it is never a verdict). Each SKIPs with the reason when the unit is
 * absent or disabled (e.g. "no VIA PadLock on this CPU (CentaurHauls leaf
 * absent)"). The AES and SHA KATs and the cross-checks run through the
 * shared KAT runner over the registered engines, not here.
 */
struct driver;
extern const struct driver padlock_driver;

/* NULL when the CPU has PadLock units, else why not (valid after probe). */
const char *padlock_absent_reason(void);


#endif
