/*
 * padlock_emu: an emulated VIA CPU for i386 host programs run under
 * qemu-i386, so the PadLock driver's real inline assembly, opcodes and
 * register constraints are what the host tests exercise.
 *
 * qemu-i386 delivers an unknown opcode as SIGILL with the whole register
 * context; the handler hands xstore, rep xcrypt-{ecb,cbc,ctr,cfb,ofb},
 * rep xsha1/xsha256 and rep montmul at EIP to the shared instruction model
 * (emu/models/padlock_model.h, which the kernel's emulation build runs
 * from its #UD handler), which performs them with lib/crypto/aes, lib/crypto/sha and
 * lib/crypto/montmul and updates the registers as the instruction does
 * (drivers/padlock/padlock_insn.h lists them); the handler resumes after
 * it. CPUID and MSRs come from the same model through tests/host/hw_host.c:
 * the dumps in $CQ_SHARED/data/cpuid (C3 Nehemiah, C7 Esther, Nano Isaiah,
 * the C3 Samuel 2 without PadLock, the Zhaoxin KX-7000), with FCR 0x1107
 * and the RNG MSR 0x110B modelled so a present-but-disabled ACE or RNG can
 * be enabled; a synthetic "  Shanghai  " (the KX-7000's answers with that
 * vendor) has MSR 0x1257 instead.
 *
 * Quirks reproduced (the model's, see padlock_model.h), each one a driver
 * must handle:
 *   - key cache: the first xcrypt after an EFLAGS write loads the control
 *     word and the key from memory; later ones use the cached copies, so a
 *     driver that forgets the reload gets the old key's output. EFLAGS
 *     writes are seen at the driver's reload sites (pushfl; popfl recorded
 *     in the section padlock_reload_sites when built with
 *     -DPADLOCK_EMU_SITES): the popfl byte is patched to int3 and the
 *     SIGTRAP handler performs the popfl and drops the cache. (qemu-i386
 *     does not keep EFLAGS bit 30, which real parts use to mark a loaded
 *     key, across a signal return: checked first, it reads back as 0.)
 *   - #GP on an unaligned control word, key, IV, source or destination,
 *     and on undefined programming (reserved control-word bits, hardware
 *     key expansion of a 192/256-bit key, bad montmul sizes or padding);
 *   - the prefetch: xcrypt reads the profile's distance past the end of
 *     the input (C3/C7: 2 blocks ECB, 1 block other modes; Nano stepping
 *     2: 8 and 4 [LAES]), before writing anything; a guard page after the
 *     input turns a missing bounce into a page fault;
 *   - xstore always writes a whole 8-byte unit, whatever count it reports;
 *   - #UD for an instruction of a unit that CPUID reports disabled;
 *   - #NM when the virtual CR0 has TS or EM set.
 * Hardware CTR: the counter is a big-endian integer whose low 32 bits are
 * incremented per block without carry into the upper 96 (a conservative
 * model: no public source documents it; the driver splits at the wrap).
 *
 * Faults: inside emu_guard() an exception ends the guarded function and
 * emu_guard() returns its EMU_EXC_* code; outside, the program aborts with
 * a message on stderr.
 */
#ifndef CQ_TESTS_PADLOCK_EMU_H
#define CQ_TESTS_PADLOCK_EMU_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/models/padlock_model.h"
#include "lib/platform/cpuid.h"

/* The same order as the model's enum padlock_model_cpu (checked in padlock_emu.c). */
enum emu_profile {
	EMU_NEHEMIAH,	/* C3 Nehemiah, family 6 model 9 stepping 8: RNG, ACE */
	EMU_ESTHER,	/* C7 Esther, model 10: RNG, ACE, ACE2, PHE one-shot, PMM */
	EMU_ISAIAH,	/* Nano Isaiah, model 15 stepping 2: RNG (no MSR), ACE, PHE blocks; ACE2 disabled, no PMM */
	EMU_SAMUEL2,	/* C3 Samuel 2, model 7: no PadLock */
	EMU_ZHAOXIN,	/* Zhaoxin KX-7000 (real dump, CentaurHauls family 7): FCR 0x1107 / RNG 0x110B */
	EMU_SHANGHAI,	/* synthetic: the KX-7000 as "  Shanghai  ", MSR 0x1257 only */
	EMU_PROFILES
};

/* The model's own options (emu/models/padlock_model.h), and the virtual CR0. */
struct emu_options {
	struct padlock_model_options model;	/* disabled units, RNG MSR, faults, strict */
	uint32_t cr0;		/* initial virtual CR0 (bit 3 TS, bit 2 EM) */
};

/* The model's enum padlock_model_exc. */
enum emu_exc {
	EMU_EXC_NONE,
	EMU_EXC_UD,		/* invalid opcode: unit disabled or not emulated */
	EMU_EXC_GP,		/* general protection: alignment, undefined programming */
	EMU_EXC_NM,		/* device not available: CR0.TS or CR0.EM */
	EMU_EXC_PF,		/* page fault (SIGSEGV), e.g. the guard page */
};

struct emu_stats {
	unsigned long xcrypt;		/* rep xcrypt executed */
	unsigned long key_loads;	/* of those, loads of key + control word from memory */
	unsigned long reloads;		/* EFLAGS writes seen at reload sites */
	unsigned long overread_bytes;	/* bytes touched past the input */
	unsigned long xstore, xstore_empty;
	unsigned long xsha, montmul;
	unsigned long xsha_ecx0;	/* one-shot xsha with ECX = 0 issued */
	unsigned long stale_ecb;	/* ECB on a key cached by CFB/OFB (wrong output) */
	unsigned long msr_writes[3];	/* writes to 0x1107, 0x110B, 0x1257 */
	unsigned long faults;
};

/*
 * Installs the SIGILL, SIGTRAP and SIGSEGV handlers and patches the
 * driver's reload sites. shared: the ../shared folder (the dumps are in
 * shared/data/cpuid). Returns the number of reload sites patched, or -1.
 */
int emu_init(const char *shared);

/* Loads a profile and resets the whole model (MSRs, key cache, RNG,
 * counters); installs its CPUID and MSRs in hw_host. opt may be NULL.
 * Returns 0, or -1 when the dump cannot be read (errors on stderr). */
int emu_select(enum emu_profile p, const struct emu_options *opt);

const char *emu_profile_name(enum emu_profile p);	/* "nehemiah", "esther", ... */
const char *emu_profile_cpu(enum emu_profile p);	/* "C3 Nehemiah", "C7 Esther", ... */
/* The profile named by s ("nehemiah"/"c3", "esther"/"c7", "isaiah"/"nano",
 * "samuel2", "zhaoxin"/"zx"), or EMU_PROFILES. */
enum emu_profile emu_profile_by_name(const char *s);

/* Decodes the current profile's CPUID (through hw_cpuid) into *ci. */
void emu_cpu_info(struct cpu_info *ci);

/* Runs fn(ctx); returns EMU_EXC_NONE, or the exception that ended it. */
int emu_guard(void (*fn)(void *ctx), void *ctx);

/* The last exception's description ("" if none) and the counters. */
const char *emu_last_fault(void);
const struct emu_stats *emu_stats(void);

/* Virtual CR0 (the driver's padlock_cr0_* go through these in host builds). */
uint32_t emu_cr0(void);
void emu_set_cr0(uint32_t v);

/* CPUID 0xC0000001 EDX as the model answers it now. */
uint32_t emu_centaur_edx(void);

/* EFLAGS bit 30 as the model has it (1 << 30 while a key is loaded). */
uint32_t emu_eflags30(void);

/* Drops the cached key as an EFLAGS write would. */
void emu_flush_key(void);

/*
 * Makes an instruction of code outside the driver (a third-party library
 * such as OpenSSL's PadLock engine, its addresses found with objdump)
 * visible to the model: the byte at addr is patched to int3 and the
 * SIGTRAP handler performs the instruction:
 *   EMU_SITE_POPF   popfl: an EFLAGS load, the key cache dropped (bit 30
 *                   cleared), as at the driver's reload sites;
 *   EMU_SITE_PUSHF  pushfl: pushes EFLAGS with the model's bit 30, which
 *                   qemu-i386 does not keep (OpenSSL tests it to decide
 *                   whether to reload);
 *   EMU_SITE_CPUID  cpuid (0F A2, the 0xA2 becomes a nop): answered from
 *                   the model's CPUID instead of QEMU's.
 * Returns 0, or -1 (the byte is not that instruction, or no room).
 */
enum emu_site { EMU_SITE_POPF, EMU_SITE_PUSHF, EMU_SITE_CPUID };
int emu_patch_site(void *addr, enum emu_site kind);

/* The current RNG MSR and FCR values (for asserting what the driver wrote;
 * on the Zhaoxin profile emu_msr_fcr() is MSR 0x1257). */
uint64_t emu_msr_rng(void);
uint64_t emu_msr_fcr(void);

#endif
