/*
 * padlock_reg.h: VIA PadLock (and Zhaoxin) constants: CPUID bits, MSRs,
 * instruction encodings, the ACE control word, the xstore status word.
 *
 * Sources (facts only, see ../shared/notes/via-padlock.md):
 *   [PG]   VIA "PadLock Programming Guide" (the primary reference);
 *   [LAES] Linux drivers/crypto/padlock-aes.c, include/crypto/padlock.h;
 *   [LSHA] Linux drivers/crypto/padlock-sha.c;
 *   [LRNG] Linux drivers/char/hw_random/via-rng.c;
 *   [LCEN] Linux arch/x86/kernel/cpu/centaur.c and zhaoxin.c;
 *   [OSSL] OpenSSL engines/e_padlock.c, engines/asm/e_padlock-x86.pl,
 *          crypto/bn/asm/via-mont.pl;
 *   [OBSD] OpenBSD sys/arch/i386/i386/via.c, include/specialreg.h;
 *   [NBSD] NetBSD sys/crypto/aes/arch/x86/aes_via.c;
 *   [BINU] GNU binutils opcode tables (xstore-rng, xcrypt-ctr, montmul).
 */
#ifndef CQ_DRIVERS_PADLOCK_REG_H
#define CQ_DRIVERS_PADLOCK_REG_H

#include "lib/platform/cpuid.h"

/* ---- CPUID (lib/platform/cpuid.h decodes the unit states) ---- */
/*
 * CPUID leaves and unit bits: the bit numbers live once, in the CPUID
 * decoder (lib/platform/cpuid.h, with their source); these are the masks.
 * Leaf 0xC0000001 EDX: bit n = unit present, bit n+1 = unit enabled.
 */
#define PADLOCK_LEAF_MAX	CPUID_LEAF_CENTAUR_MAX
#define PADLOCK_LEAF_FEAT	CPUID_LEAF_CENTAUR_FEAT
#define PADLOCK_EDX_RNG		(1u << CPUID_C1_EDX_RNG)
#define PADLOCK_EDX_RNG_EN	(PADLOCK_EDX_RNG << 1)
#define PADLOCK_EDX_ACE		(1u << CPUID_C1_EDX_ACE)
#define PADLOCK_EDX_ACE_EN	(PADLOCK_EDX_ACE << 1)
#define PADLOCK_EDX_ACE2	(1u << CPUID_C1_EDX_ACE2)
#define PADLOCK_EDX_ACE2_EN	(PADLOCK_EDX_ACE2 << 1)
#define PADLOCK_EDX_PHE		(1u << CPUID_C1_EDX_PHE)
#define PADLOCK_EDX_PHE_EN	(PADLOCK_EDX_PHE << 1)
#define PADLOCK_EDX_PMM		(1u << CPUID_C1_EDX_PMM)
#define PADLOCK_EDX_PMM_EN	(PADLOCK_EDX_PMM << 1)
#define PADLOCK_EDX_PHE2	(1u << CPUID_C1_EDX_PHE2)
#define PADLOCK_EDX_PHE2_EN	(PADLOCK_EDX_PHE2 << 1)

/* CPU models (family 6 unless said) [LCEN][LRNG][LSHA] */
#define PADLOCK_FAMILY_VIA	6
#define PADLOCK_FAMILY_ZHAOXIN	7
#define PADLOCK_MODEL_NEHEMIAH	9	/* C3 "Nehemiah": first with PadLock */
#define PADLOCK_MODEL_ESTHER	10	/* C7 "Esther" (also model 13) */
#define PADLOCK_MODEL_NANO	15	/* Nano "Isaiah": PHE block mode, no RNG MSR */
#define PADLOCK_NEHEMIAH_2RNG_STEPPING 8 /* stepping >= 8: second noise source [LRNG] */

/* ---- MSRs (always through hw_rdmsr_safe/hw_wrmsr_safe: #GP elsewhere) ---- */
#define MSR_VIA_FCR		0x1107u	/* feature control register [LCEN] */
#define   FCR_ACE_ENABLE	(1u << 28)	/* enables a present ACE [LCEN] */
#define MSR_VIA_RNG		0x110Bu	/* RNG control, C3/C7 only (not Nano) [LRNG] */
#define   RNG_MSR_ENABLE	(1u << 6)	/* RNG on [LRNG] */
#define   RNG_MSR_SRC1		(1u << 8)	/* noise source A [LRNG] */
#define   RNG_MSR_SRC2		(1u << 9)	/* noise source B [LRNG] */
#define   RNG_MSR_DC_BIAS	(7u << 10)	/* DC bias setting (check) [PG][OSSL] */
#define   RNG_MSR_DC_BIAS_SHIFT	10
#define   RNG_MSR_RAW_BITS	(1u << 13)	/* raw bits: whitener bypassed [LRNG] */
#define   RNG_MSR_FILTER_EN	(1u << 14)	/* string filter enable [LRNG] */
#define   RNG_MSR_FILTER_FAIL	(1u << 15)	/* string filter failed [LRNG] */
#define   RNG_MSR_FILTER_CNT	(0x3Fu << 16)	/* string filter count, bits 21:16 [LRNG] */
#define   RNG_MSR_FILTER_CNT_SHIFT 16
/* What via-rng.c clears before it enables the RNG [LRNG via_rng_init]: the
 * string filter count as 7 bits (0x7F << 16), the xstore count (0x0F),
 * string filter enable and failed, raw bits. */
#define   RNG_MSR_LINUX_CNT_CLEAR	(0x7Fu << RNG_MSR_FILTER_CNT_SHIFT)
#define   RNG_MSR_LINUX_XSTORE_CNT	0x0Fu
#define MSR_ZHAOXIN_FCR57	0x1257u	/* Zhaoxin feature control [LCEN zhaoxin.c] */
#define   FCR57_ACE_ENABLE	(1u << 7)
#define   FCR57_RNG_ENABLE	(1u << 8)

/* ---- Instructions (32-bit encodings) [PG][BINU] ----
 * All are written as .byte sequences in padlock_insn.h. */
#define PADLOCK_OP_REP		0xF3
#define PADLOCK_OP_0F		0x0F
#define PADLOCK_OP_GRP_A7	0xA7	/* xstore, xcrypt-* */
#define PADLOCK_OP_GRP_A6	0xA6	/* montmul, xsha1, xsha256 */
#define PADLOCK_MODRM_XSTORE	0xC0	/* 0F A7 C0 */
#define PADLOCK_MODRM_ECB	0xC8	/* F3 0F A7 C8 */
#define PADLOCK_MODRM_CBC	0xD0	/* F3 0F A7 D0 */
#define PADLOCK_MODRM_CTR	0xD8	/* F3 0F A7 D8, ACE2 only [BINU] */
#define PADLOCK_MODRM_CFB	0xE0	/* F3 0F A7 E0 */
#define PADLOCK_MODRM_OFB	0xE8	/* F3 0F A7 E8 */
#define PADLOCK_MODRM_MONTMUL	0xC0	/* F3 0F A6 C0 */
#define PADLOCK_MODRM_XSHA1	0xC8	/* F3 0F A6 C8 */
#define PADLOCK_MODRM_XSHA256	0xD0	/* F3 0F A6 D0 */

/* ---- ACE control word: 16 bytes, 16-byte aligned, upper 96 bits zero [PG][LAES] ---- */
#define CW_ROUNDS_MASK		0x000Fu	/* bits 3:0: 10, 12 or 14 */
#define CW_ALG_MASK		0x0070u	/* bits 6:4: 0 = AES */
#define CW_KEYGN		(1u << 7)	/* key buffer holds a software schedule */
#define CW_INTERM		(1u << 8)	/* intermediate results (not used) */
#define CW_DECRYPT		(1u << 9)	/* 1 = decrypt, 0 = encrypt */
#define CW_KSIZE_SHIFT		10	/* bits 11:10: 0 = 128, 1 = 192, 2 = 256 */
#define CW_KSIZE_MASK		(3u << CW_KSIZE_SHIFT)
#define CW_RESERVED		0xFFFFF000u	/* must be zero (and words 1..3) */

#define PADLOCK_ALIGN		16	/* cw, key, IV, src, dst [PG][LAES] */
#define PADLOCK_KEYBUF_BYTES	256	/* the unit reads 16 x 16 bytes of key [PG] */

/*
 * Prefetch past the end of the input [LAES][OSSL]: ECB at least 2 blocks,
 * CBC at least 1; Nano stepping 2 up to 8 ECB / 4 CBC blocks. The driver
 * uses the largest distances on every CPU (OpenSSL's 128 / 64 bytes).
 */
#define PADLOCK_FETCH_ECB_BYTES	128
#define PADLOCK_FETCH_BYTES	64	/* CBC, CFB, OFB, CTR */
#define PADLOCK_PAGE_BYTES	4096

/*
 * ---- xstore status (EAX) [LRNG][OSSL][PG] ----
 * The byte count in the low bits is what Linux via-rng reads (mask 0x0F,
 * VIA_XSTORE_CNT_MASK) on every family. On the C3 and C7 the rest is a
 * copy of RNG MSR 0x110B [PG]: bit 6 RNG enabled, 10-12 DC bias, 13 raw
 * bits, 14 string filter (OpenSSL rejects a store with any of 10-14 set).
 * The Nano and Zhaoxin parts have no such MSR and no source documents
 * their status bits.
 */
#define XSTORE_COUNT_MASK	RNG_MSR_LINUX_XSTORE_CNT	/* bytes stored [LRNG] */
#define XSTORE_ENABLED		RNG_MSR_ENABLE
#define XSTORE_STATE_MASK	(0x1Fu << 10)	/* DC bias, raw bits, string filter */
#define XSTORE_DIVISORS		4	/* EDX 0..3 */
#define XSTORE_UNIT_BYTES	8	/* xstore writes whole 8-byte units: keep slack */

/* ---- PHE [LSHA][PG] ---- */
#define PHE_STATE_BYTES		128	/* state buffer the microcode needs, 16-aligned */
#define PHE_BLOCK_MODE		0xFFFFFFFFu	/* EAX = -1: ECX = 64-byte blocks, no padding */

/* ---- PMM [OSSL via-mont.pl][PG] ----
 * ESI -> { n0', A, B, T, M, scratch } (six 32-bit words), ECX = bit length,
 * EAX = 0. Vectors are little-endian 32-bit words, a multiple of 4 words,
 * 8..1024 words, each followed by 16 zero bytes; T gets one more word (the
 * carry). The result is in [0, 2M): software subtracts M once if needed. */
#define PMM_MIN_WORDS		8
#define PMM_MAX_WORDS		1024
#define PMM_WORD_MULTIPLE	4
#define PMM_PAD_WORDS		4	/* 16 bytes of zero padding per vector */
#define PMM_SCRATCH_BYTES	32

#endif
