/*
 * Exceptions (vectors 0-31) and the test guard that turns a fault inside a
 * test into a `not ok` for that test instead of the end of the run.
 */
#ifndef CQ_KERNEL_EXCEPTIONS_H
#define CQ_KERNEL_EXCEPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#define EXC_VECTORS 32

/* Stack layout built by boot/isr.S: pushal, then vector, error, CPU frame. */
struct trap_frame {
	uint32_t edi, esi, ebp, esp_at_pusha, ebx, edx, ecx, eax;
	uint32_t vector, error;
	uint32_t eip, cs, eflags;
};

/* What a guard reports when the code it ran faulted. */
struct fault_info {
	unsigned vector;
	uint32_t error;
	uint32_t eip;
	uint32_t cr2;
};

/* setjmp/longjmp buffer (boot/kjmp.S). */
struct kjmp {
	uint32_t ebx, esi, edi, ebp, esp, eip;
};
int kjmp_set(struct kjmp *j) __attribute__((returns_twice));
void kjmp_long(struct kjmp *j, int val) __attribute__((noreturn));

/* Loads our GDT and IDT (boot/gdt.c). Call first thing in kmain. */
void gdt_idt_init(void);

/* Short mnemonic ("#GP") and long name ("General Protection") of a vector. */
const char *exc_mnemonic(unsigned vector);
const char *exc_name(unsigned vector);

/*
 * Runs fn(ctx) under a guard. Returns true if it completed; false if it
 * raised an exception, in which case the register dump was printed (with
 * `what` as the name of the running test) and *fi says what happened.
 * Guards nest: the innermost one catches. Interrupts are off throughout.
 */
bool guard_run(const char *what, void (*fn)(void *ctx), void *ctx, struct fault_info *fi);

/* Name of the innermost guarded piece of work, or NULL outside any guard. */
const char *guard_current(void);

/* Called from boot/isr.S. */
void exception_dispatch(struct trap_frame *tf);

#endif
