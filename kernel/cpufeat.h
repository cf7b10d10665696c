/*
 * Marking code that needs a CPU feature beyond i586.
 *
 * A function that uses SSE, AES-NI, RDRAND or any other post-i586
 * instruction is declared CPUFEAT_FN("target-list"): GCC may then emit
 * those instructions in it, and the linker places it in .text_cpufeat, the
 * only place the instruction audit (scripts/insn-audit.sh) accepts them.
 * Such a function runs only after CPUID says the feature exists (and, for
 * SSE, after the kernel enabled it in CR0/CR4). GCC never inlines it into
 * unmarked code (its target options differ).
 *
 *   CPUFEAT_FN("aes,sse2") static void aesni_encrypt_blocks(...);
 */
#ifndef CQ_KERNEL_CPUFEAT_H
#define CQ_KERNEL_CPUFEAT_H

#define CPUFEAT_FN(targets) \
	__attribute__((target(targets), section(".text_cpufeat"), noinline))

#endif
