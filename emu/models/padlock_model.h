/*
 * padlock_model: the semantics of an emulated VIA CPU's PadLock units,
 * shared by the i386 host tests (tests/drivers/padlock/padlock_emu.c, from SIGILL
 * under qemu-i386) and the kernel's emulation build (emu/, from the
 * #UD trap under qemu-system-i386). Hardware facts:
 * drivers/padlock/padlock_reg.h and the sources it cites.
 *
 * What it models, for one CPU profile (the dumps in shared/data/cpuid).
 * docs/emulation.md lists each behaviour as a fact with its source or as
 * an assumption; in short:
 *   - CPUID from the profile's dump, with leaf 0xC0000001 EDX's enable
 *     bits following the MSRs (padlock_model_cpuid, a cpuid_query_fn);
 *     the synthetic "shanghai" answers the KX-7000's leaves as "  Shanghai  ";
 *   - MSRs FCR 0x1107 (ACE enable), RNG 0x110B (C3/C7, and the KX-7000 for
 *     enabling only) and Zhaoxin 0x1257 ("  Shanghai  " only); any other
 *     MSR raises #GP; writes are counted per MSR;
 *   - the instructions, decoded at EIP and executed on a register set:
 *     xstore and rep xstore, rep xcrypt-{ecb,cbc,ctr,cfb,ofb}, rep
 *     xsha1/xsha256, rep montmul, with lib/crypto/aes, lib/crypto/sha and lib/crypto/montmul
 *     doing the work on the memory the registers point at (a flat 32-bit
 *     address space: in the host program and in the kernel a pointer is
 *     the address);
 *   - the key cache and EFLAGS bit 30: the first xcrypt after an EFLAGS
 *     write (padlock_model_reload(), the harness's view of popf) loads
 *     control word and key and sets bit 30 (padlock_model_eflags30(), what
 *     a pushf the harness sees must show); later ones use the cached copies;
 *     an ECB run on a key cached by CFB/OFB gives wrong output (assumption
 *     after OpenSSL's "empirically found" reload);
 *   - #GP on an unaligned control word, key or IV, on unaligned data in
 *     ECB, and on unaligned data in any mode on the Nehemiah (the C7, the
 *     Nano and the KX-7000 accept it outside ECB); #GP on undefined
 *     programming (reserved control-word bits 31:12, hardware key expansion
 *     of a 192/256-bit key, bad montmul sizes or padding) - assumptions
 *     that help find driver bugs; the control word's upper 96 bits are
 *     ignored (Mbed TLS leaves them uninitialised and works on real parts);
 *   - the prefetch: ECB and CBC read to the end of their fetch group (read
 *     before anything is written), nothing past a whole group, nothing in
 *     CFB/OFB/CTR;
 *   - xstore's whole 8-byte unit (divisor 0) or 32-bit unit (1 to 3);
 *     #UD for a unit CPUID reports disabled; #NM with CR0.TS/EM;
 *   - PHE: one-shot ECX = 0 hashes the empty message on VIA parts and is
 *     no operation on Zhaoxin (counted either way), block mode on the C7 a
 *     wrong result (no fault), Zhaoxin's 32-byte XSHA1 state.
 * Strict option (padlock_model_options.strict, "not documented behaviour",
 * never used by an emulated box): the checks this model had before it
 * followed the sources - #GP on the upper 96 control-word bits and on
 * unaligned data in every mode and CPU, the whole fetch group read past
 * the end in every mode, EFLAGS bit 30 never shown, #GP for PHE block mode
 * on the C7. Host tests use it to show a test depends on the model.
 * The harness supplies what differs: where the registers come from, how an
 * exception is delivered, the CR0 value, how EFLAGS writes are seen.
 *
 * Faults (PADLOCK_MODEL_FAULT_*, by name for the kernel's emulate= option):
 *   rng-stuck    xstore never returns data (status count 0)
 *   wrong-data   the last byte of every xcrypt output is flipped
 *   hash-wrong   xsha leaves the first state word with bit 0 flipped
 *   ace-locked   ACE present but disabled, and FCR bit 28 does not stick
 *   xstore-div0-biased  divisor 0's bits are ones with probability 3/4;
 *                divisor 3 healthy (a variant: divisor 0 is characterised)
 *   ctr-probe-hang  rep xcrypt-ctr never completes: the instruction does
 *                nothing and runs again (EIP not advanced), for ever (a
 *                variant: the hardware CTR probe is a finding)
 *   xstore-status-bits  every store's status has bits 10-14 set, the data
 *                good (offered on the Nano and the KX-7000: a variant,
 *                nothing documents those bits there)
 *
 * Freestanding: no allocation, no stdio; only lib/ and the driver's
 * register header.
 */
#ifndef CQ_TESTS_PADLOCK_MODEL_H
#define CQ_TESTS_PADLOCK_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/padlock/padlock_reg.h"
#include "lib/crypto/aes.h"
#include "lib/platform/cpuid.h"
#include "lib/host/cpuid_dump.h"

enum padlock_model_cpu {
	PADLOCK_CPU_NEHEMIAH,	/* C3 Nehemiah, family 6 model 9 stepping 8: RNG, ACE */
	PADLOCK_CPU_ESTHER,	/* C7 Esther, model 10: RNG, ACE, ACE2, PHE one-shot, PMM */
	PADLOCK_CPU_ISAIAH,	/* Nano Isaiah, model 15 stepping 2: RNG (no MSR), ACE, PHE blocks;
				 * ACE2 disabled, no PMM */
	PADLOCK_CPU_SAMUEL2,	/* C3 Samuel 2, model 7: no PadLock */
	PADLOCK_CPU_ZHAOXIN,	/* Zhaoxin KaiXian KX-7000 (its dump: CentaurHauls family 7 model 0x6B):
				 * RNG, ACE, PHE block mode, PHE2, PMM; ACE2 present but disabled */
	PADLOCK_CPU_SHANGHAI,	/* synthetic: the KX-7000 as "  Shanghai  ", MSR 0x1257 only */
	PADLOCK_CPUS
};

#define PADLOCK_MODEL_FAULT_RNG_STUCK	(1u << 0)
#define PADLOCK_MODEL_FAULT_WRONG_DATA	(1u << 1)
#define PADLOCK_MODEL_FAULT_HASH_WRONG	(1u << 2)
#define PADLOCK_MODEL_FAULT_ACE_LOCKED	(1u << 3)
#define PADLOCK_MODEL_FAULT_XSTORE_DIV0_BIASED	(1u << 4)
#define PADLOCK_MODEL_FAULT_CTR_PROBE_HANG	(1u << 5)
#define PADLOCK_MODEL_FAULT_XSTORE_STATUS_BITS	(1u << 6)
#define PADLOCK_MODEL_NFAULTS		7

struct padlock_model_options {
	bool ace_disabled;	/* ACE present, disabled until FCR 0x1107 bit 28 is set */
	bool rng_disabled;	/* RNG present, disabled until MSR 0x110B bit 6 (C3/C7; never on Nano) */
	bool phe_disabled;	/* PHE present and disabled, no way to enable it */
	bool pmm_disabled;	/* likewise PMM */
	bool rng_msr_set;	/* use rng_msr as the initial MSR 0x110B */
	uint32_t rng_msr;	/* default: enable, source A (+B when the model has it) */
	unsigned rng_empty_every; /* every n-th xstore finds the FIFO empty (0: never) */
	uint32_t faults;	/* PADLOCK_MODEL_FAULT_* */
	bool strict;		/* the old stricter checks: not documented behaviour (see above) */
};

/* EFLAGS bit 30: set while the unit holds a loaded key [OSSL padlock_verify_context]. */
#define PADLOCK_MODEL_EFLAGS_KEY	(1u << 30)

/* Exceptions an instruction can raise (the vector numbers of Intel SDM vol. 3A 6.15). */
enum padlock_model_exc {
	PADLOCK_EXC_NONE,
	PADLOCK_EXC_UD,		/* invalid opcode: unit disabled or form not emulated */
	PADLOCK_EXC_GP,		/* general protection: alignment, undefined programming */
	PADLOCK_EXC_NM,		/* device not available: CR0.TS or CR0.EM */
	PADLOCK_EXC_PF,		/* page fault (raised by the host harness only) */
};

struct padlock_model_stats {
	unsigned long xcrypt;		/* rep xcrypt executed */
	unsigned long key_loads;	/* of those, loads of key + control word from memory */
	unsigned long reloads;		/* EFLAGS writes seen (padlock_model_reload) */
	unsigned long overread_bytes;	/* bytes read past the input (the prefetch) */
	unsigned long xstore, xstore_empty;
	unsigned long xsha, montmul;
	unsigned long xsha_ecx0;	/* one-shot xsha with ECX = 0 (no operation) */
	unsigned long xsha_no_blocks;	/* block mode on a part without it (wrong result) */
	unsigned long stale_ecb;	/* ECB on a key cached by CFB/OFB (wrong output) */
	unsigned long msr_writes[3];	/* writes to 0x1107, 0x110B, 0x1257 */
	unsigned long faults;		/* exceptions raised */
	unsigned long hung;		/* instructions that did not complete (ctr-probe-hang) */
};

/* The registers an instruction uses; eip advances past it on success. */
struct padlock_model_regs {
	uint32_t eax, ebx, ecx, edx, esi, edi, eip;
};

struct padlock_model_profile;

struct padlock_model {
	const struct padlock_model_profile *prof;
	const struct cpuid_dump *dump;
	struct padlock_model_options opt;
	uint64_t fcr, rng_msr, fcr57;
	bool key_loaded;		/* the ACE key cache (and EFLAGS bit 30) */
	unsigned last_mode;		/* the xcrypt mode that last used the cached key */
	uint32_t cw[4];
	struct aes_ctx key;
	uint64_t rng_state;
	unsigned long xstores;
	struct padlock_model_stats st;
	char fault[200];		/* the last exception: "#GP: why" */
	bool no_progress;		/* the instruction did not complete: EIP stays */
	uint32_t mont_tmp[PMM_MAX_WORDS + 2];
};

/*
 * Profile names: "nehemiah" (alias "c3"), "esther" ("c7"), "isaiah"
 * ("nano"), "samuel2" ("c3-samuel2"), "zhaoxin" ("kx7000"), "shanghai"
 * ("zx"). by_name returns
 * PADLOCK_CPUS for an unknown name.
 */
const char *padlock_model_cpu_name(enum padlock_model_cpu c);
const char *padlock_model_cpu_desc(enum padlock_model_cpu c);	/* "C7 Esther", ... */
const char *padlock_model_cpu_dump(enum padlock_model_cpu c);	/* the dump's file name */
enum padlock_model_cpu padlock_model_cpu_by_name(const char *s);

/* PADLOCK_MODEL_FAULT_* of a name ("rng-stuck", ...), 0 if unknown; name of bit i. */
uint32_t padlock_model_fault(const char *name);
const char *padlock_model_fault_name(unsigned i);

/*
 * Resets m to CPU c answering CPUID from dump (kept by pointer, must stay
 * valid), with options opt (NULL: none). Returns 0, or -1 for a bad c.
 */
int padlock_model_init(struct padlock_model *m, enum padlock_model_cpu c,
		       const struct cpuid_dump *dump, const struct padlock_model_options *opt);

/* CPUID answers (a cpuid_query_fn; ctx = the model): false = no such leaf. */
bool padlock_model_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out);

/* MSR handlers: return 0, or HW_EFAULT (-14) to raise #GP (ctx = the model). */
int padlock_model_msr_read(void *ctx, uint32_t msr, uint64_t *val);
int padlock_model_msr_write(void *ctx, uint32_t msr, uint64_t val);
/* Whether msr is one the model answers for (on this CPU or any). */
bool padlock_model_owns_msr(uint32_t msr);

/* Whether the bytes at ip start a PadLock instruction (0F A6 / 0F A7 forms, rep or not). */
bool padlock_model_is_insn(const uint8_t *ip);

/*
 * Executes the instruction at r->eip with CR0 = cr0. Returns
 * PADLOCK_EXC_NONE with the registers and memory updated as the
 * instruction leaves them and r->eip past it; or the exception, with
 * nothing architectural changed (except memory the prefetch only read)
 * and m->fault saying why.
 */
enum padlock_model_exc padlock_model_exec(struct padlock_model *m, struct padlock_model_regs *r,
					  uint32_t cr0);

/* An EFLAGS write (popfl at a driver's reload site): drops the key cache, clears bit 30. */
void padlock_model_reload(struct padlock_model *m);

/* EFLAGS bit 30 as a pushf would show it: PADLOCK_MODEL_EFLAGS_KEY while
 * a key is loaded, else 0 (always 0 with the strict option). */
uint32_t padlock_model_eflags30(const struct padlock_model *m);

/* Leaf 0xC0000001 EDX as the model stands now (enable bits follow the MSRs). */
uint32_t padlock_model_centaur_edx(const struct padlock_model *m);

/* "#UD", "#GP", "#NM", "#PF"; and the vector number (6, 13, 7, 14; 0 for none). */
const char *padlock_model_exc_name(enum padlock_model_exc e);
unsigned padlock_model_exc_vector(enum padlock_model_exc e);

#endif
