/*
 * The known-answer tests and the cross-check of every registered engine,
 * printed as TAP tests (the vectors and runners are lib/vectors/kat.h).
 */
#ifndef CQ_KERNEL_KAT_H
#define CQ_KERNEL_KAT_H

#include <stdint.h>

/*
 * For every registered AES engine, one test per claimed (key size, mode,
 * direction): "kat: software aes-128-cbc encrypt (FIPS-197 C.1, SP 800-38A
 * F.2.1)"; for a hardware engine, one SKIP per mode it claims nothing of
 * and a `#` line for partly claimed modes. Then one test per hash engine.
 * Failure details follow the result as `#   ...` lines. Buffers come from
 * mem_alloc once (about 1 MB for the million-'a' vectors; with less memory
 * those vectors are skipped and the report says so).
 */
void kat_run_all(void);

/*
 * Prints "# crosscheck: seed=0x%08x", then one test per hardware AES
 * engine (any not named "software") and claimed triple, comparing it with
 * the software engine on random data of 16 B to 16 KiB, and one per
 * hardware hash engine. Without hardware AES engines: one SKIP test line.
 * The same seed gives the same keys, IVs and data.
 */
void crosscheck_run_all(uint32_t seed);

#endif
