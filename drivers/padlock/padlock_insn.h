/*
 * padlock_insn.h: the PadLock instructions, the only inline assembly of the
 * driver. Encodings are .byte sequences (binutils may not know the
 * mnemonics); see padlock_reg.h for the sources of each fact.
 *
 * Register use [PG][LAES][LRNG][LSHA][OSSL]:
 *   rep xcrypt-*: ESI source, EDI destination, ECX blocks (0 on return),
 *     EDX control word, EBX key, EAX IV (CBC/CFB/OFB) or counter (CTR).
 *     ESI/EDI advance. After CBC encryption EAX points at the last output
 *     block (the next IV); the other modes leave the next IV at [EAX].
 *     Either way the next IV is the 16 bytes at the returned EAX.
 *   xstore: EDI buffer (advanced by the bytes stored), EDX divisor,
 *     EAX status.
 *   rep xsha1/xsha256: ESI message, EDI state, EAX bytes already hashed
 *     (one-shot) or -1 (block mode), ECX total bytes (one-shot) or blocks.
 *   rep montmul: ESI parameter block, ECX bit length, EAX 0.
 * Every register an instruction may change is an output operand ("+"),
 * every one they read is an input; all of them clobber memory. GCC 5 and
 * later allocate EBX in position-independent code too, so "b" is safe.
 *
 * The key reload (pushfl; popfl, [LAES] padlock_reset_key, [OSSL]) writes
 * EFLAGS, which makes the unit load key and control word afresh at the next
 * xcrypt. When PADLOCK_EMU_SITES is defined (host emulator builds only) each
 * reload also records its address in the section padlock_reload_sites, so
 * the emulator (tests/drivers/padlock/padlock_emu.c) can see the EFLAGS write that
 * qemu-i386 otherwise executes silently; the instruction bytes are the same.
 */
#ifndef CQ_DRIVERS_PADLOCK_INSN_H
#define CQ_DRIVERS_PADLOCK_INSN_H

#include <stdint.h>

#ifdef PADLOCK_EMU_SITES
#define PADLOCK_RELOAD_SITE \
	".pushsection padlock_reload_sites,\"aw\"\n\t.long 1b\n\t.popsection\n\t"
#else
#define PADLOCK_RELOAD_SITE ""
#endif

/* Forces the unit to reload key and control word at the next xcrypt. */
static inline void padlock_reload_key(void)
{
	__asm__ volatile("1:\tpushfl\n\tpopfl\n\t" PADLOCK_RELOAD_SITE
			 : : : "memory", "cc");
}

/*
 * One rep xcrypt of a mode: in, out, the IV pointer and blocks as in/out
 * registers. Returns the final EAX (where the next IV is).
 */
#define PADLOCK_XCRYPT_FN(name, modrm)						\
static inline uint8_t *name(const uint8_t *in, uint8_t *out, const void *key,	\
			    const void *cw, uint8_t *iv, uint32_t blocks)	\
{										\
	__asm__ volatile(".byte 0xf3, 0x0f, 0xa7, " #modrm			\
			 : "+S"(in), "+D"(out), "+c"(blocks), "+a"(iv)		\
			 : "d"(cw), "b"(key)					\
			 : "memory", "cc");					\
	return iv;								\
}

PADLOCK_XCRYPT_FN(padlock_xcrypt_ecb, 0xc8)	/* EAX unused */
PADLOCK_XCRYPT_FN(padlock_xcrypt_cbc, 0xd0)
PADLOCK_XCRYPT_FN(padlock_xcrypt_ctr, 0xd8)	/* ACE2 */
PADLOCK_XCRYPT_FN(padlock_xcrypt_cfb, 0xe0)
PADLOCK_XCRYPT_FN(padlock_xcrypt_ofb, 0xe8)

/*
 * xstore: stores random bytes at buf (whole 8-byte units: keep 8 bytes of
 * slack after what is wanted), divisor 0..3 in EDX. Returns the status word.
 */
static inline uint32_t padlock_xstore(void *buf, uint32_t divisor)
{
	uint32_t status;
	__asm__ volatile(".byte 0x0f, 0xa7, 0xc0"
			 : "=a"(status), "+D"(buf), "+d"(divisor)
			 : : "memory", "cc");
	return status;
}

/*
 * rep xsha1 / rep xsha256 on a 16-byte-aligned state buffer of
 * PHE_STATE_BYTES. One-shot: done = bytes already hashed (0), count = the
 * total length, the unit pads. Block mode: done = PHE_BLOCK_MODE, count =
 * number of 64-byte blocks, no padding.
 */
static inline void padlock_xsha1(const void *msg, void *state, uint32_t done, uint32_t count)
{
	__asm__ volatile(".byte 0xf3, 0x0f, 0xa6, 0xc8"
			 : "+S"(msg), "+D"(state), "+a"(done), "+c"(count)
			 : : "memory", "cc");
}

static inline void padlock_xsha256(const void *msg, void *state, uint32_t done, uint32_t count)
{
	__asm__ volatile(".byte 0xf3, 0x0f, 0xa6, 0xd0"
			 : "+S"(msg), "+D"(state), "+a"(done), "+c"(count)
			 : : "memory", "cc");
}

/*
 * rep montmul on the parameter block params (six words), bits = 32 x words.
 * EDX and EDI are declared clobbered because no source says they survive.
 */
static inline void padlock_montmul(const void *params, uint32_t bits)
{
	uint32_t zero = 0;
	__asm__ volatile(".byte 0xf3, 0x0f, 0xa6, 0xc0"
			 : "+S"(params), "+c"(bits), "+a"(zero)
			 : : "edx", "edi", "memory", "cc");
}

#endif
