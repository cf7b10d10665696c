/*
 * padlock: the VIA PadLock (and Zhaoxin) units as engines of the registry.
 *
 *   ACE/ACE2  AES engine "padlock-ace": ECB, CBC, CFB128 and OFB for AES-128/
 *             192/256, encrypt and decrypt; CTR too when ACE2 is enabled.
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
 * disabled ACE or RNG through its MSR on VIA family 6 (FCR 0x1107 bit 28,
 * RNG MSR 0x110B bit 6) and Zhaoxin (MSR 0x1257 bits 7 and 8) with the safe
 * MSR accessors, re-reads CPUID 0xC0000001, sets up the RNG MSR on C3/C7,
 * prints `# padlock: ...` lines saying what it found and did, and registers
 * the engines of the enabled units (lib/engine/engine.h). Call once after
 * cpu_init(); calling it again (host tests) starts over.
 */
void padlock_probe(const struct cpu_info *cpu);

/*
 * Emits the driver's own TAP tests: detection, RNG status checks for each
 * divisor, the PMM known-answer test and its timing. Each is `# SKIP` with
 * the reason when the unit is absent or disabled (e.g. "no VIA PadLock on
 * this CPU (CentaurHauls leaf absent)"). The AES and SHA KATs and the
 * cross-checks run through the shared KAT runner over the registered
 * engines, not here. Call after padlock_probe().
 */
void padlock_tests(void);

/* NULL when the CPU has PadLock units, else why not (valid after probe). */
const char *padlock_absent_reason(void);

/*
 * Test-build switches that turn the driver's handling of each documented
 * quirk off, so a host test can show that the handling is needed (the
 * emulator in tests/drivers/padlock then produces wrong output or a fault). All false
 * (handling on) by default; only host tests set them. Never set in the
 * kernel.
 */
struct padlock_quirks {
	bool no_reload;		/* no EFLAGS write when key or control word changes */
	bool no_bounce_unaligned; /* hand unaligned caller buffers to xcrypt (#GP) */
	bool no_page_tail_bounce; /* let the prefetch run past a page end (#PF) */
	bool no_xstore_slack;	/* xstore straight into the caller's buffer */
	bool no_cr0_ts;		/* leave CR0.TS/EM as they are (#NM) */
	bool no_pmm_final_sub;	/* skip the final conditional subtraction of montmul */
};
extern struct padlock_quirks padlock_quirks;

/* Set by host programs before padlock_probe(): engines say `emulated`. */
extern bool padlock_emulated;

#endif
