/*
 * Marking code that needs a CPU feature beyond i586.
 *
 * A function that uses SSE, AES-NI, RDRAND or any other post-i586
 * instruction is declared CPUFEAT_FN("target-list"): GCC may then emit
 * those instructions in it, and the linker places it in .text_cpufeat, the
 * only place the instruction audit (scripts/insn-audit.sh) accepts them.
 * Such a function runs only after CPUID says the feature exists (and, for
 * SSE, after the kernel enabled it in CR0/CR4). GCC never inlines it into
 * unmarked code (its target options differ). It realigns its stack to
 * 16 bytes on entry, so aligned SSE locals are safe whoever calls it.
 *
 * The kernel is assembled with -march=i586, so a file with such functions
 * also needs a top-level `__asm__(".arch .sse2")` (or .aes, .rdrnd, ...)
 * to let the assembler accept the instructions; the audit still checks
 * that they only appear in .text_cpufeat.
 *
 *   CPUFEAT_FN("aes,sse2") static void aesni_encrypt_blocks(...);
 */
#ifndef CQ_KERNEL_CPUFEAT_H
#define CQ_KERNEL_CPUFEAT_H

#define CPUFEAT_FN(targets) \
	__attribute__((target(targets), section(".text_cpufeat"), noinline, \
		       force_align_arg_pointer))

#endif
