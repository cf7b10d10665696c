/*
 * Exceptions (vectors 0-31) and the test guard that turns a fault inside a
 * test into a `not ok` for that test instead of the end of the run.
 */
#ifndef CQ_KERNEL_EXCEPTIONS_H
#define CQ_KERNEL_EXCEPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#define EXC_VECTORS 32
#define IDT_VECTORS 48          /* exceptions, then the 16 remapped 8259 IRQs */
#define VEC_IRQ0    32          /* PIT channel 0: the watchdog tick */

/* GDT selectors (boot/gdt.c). */
#define GDT_CODE_SEL      0x08
#define GDT_DATA_SEL      0x10
#define GDT_TSS_SEL       0x18  /* the kernel's own task */
#define GDT_DF_TSS_SEL    0x20  /* the double-fault task */
#define GDT_SHORT_TSS_SEL 0x28  /* a TSS below the minimum size: #TS self-test */
#define GDT_NP_DATA_SEL   0x30  /* a not-present data segment: #NP/#SS self-tests */
#define GDT_ENTRIES       7

/* A 32-bit task state segment (Intel SDM Vol. 3A, Figure 7-2). */
struct __attribute__((packed)) tss32 {
	uint16_t link, r0;
	uint32_t esp0;
	uint16_t ss0, r1;
	uint32_t esp1;
	uint16_t ss1, r2;
	uint32_t esp2;
	uint16_t ss2, r3;
	uint32_t cr3, eip, eflags, eax, ecx, edx, ebx, esp, ebp, esi, edi;
	uint16_t es, r4, cs, r5, ss, r6, ds, r7, fs, r8, gs, r9, ldt, r10;
	uint16_t trap, iomap;
};
extern struct tss32 tss_main;   /* where a task switch saves the kernel's state */

/* Stack layout built by boot/isr.S: pushal, then vector, error, CPU frame. */
struct trap_frame {
	uint32_t edi, esi, ebp, esp_at_pusha, ebx, edx, ecx, eax;
	uint32_t vector, error;
	uint32_t eip, cs, eflags;
};

/* How a guarded piece of work was stopped. */
enum fault_kind {
	FAULT_EXCEPTION,        /* an exception, reported with its frame */
	FAULT_BAD_STACK,        /* an exception or IRQ with ESP outside the kernel stack */
	FAULT_TIMEOUT,          /* the watchdog: it ran past its time budget */
};

/* What a guard reports when the code it ran faulted. */
struct fault_info {
	unsigned vector;
	uint32_t error;
	uint32_t eip;
	uint32_t cr2;
	uint32_t cs;            /* CS as found in the frame (0x08 when the frame is sane) */
	uint32_t esp;           /* for FAULT_BAD_STACK: the wrecked ESP */
	enum fault_kind kind;
};

/*
 * Functions assembly calls, or written in assembly: arguments on the stack,
 * popped by the caller (the i386 System V convention), whatever calling
 * convention the kernel's C code is built with (-mregparm=3 -mrtd, Makefile).
 */
#if defined(__i386__)
#define CQ_ASMLINKAGE	__attribute__((regparm(0), cdecl))
#else
#define CQ_ASMLINKAGE
#endif

/* setjmp/longjmp buffer (boot/kjmp.S). */
struct kjmp {
	uint32_t ebx, esi, edi, ebp, esp, eip;
};
CQ_ASMLINKAGE int kjmp_set(struct kjmp *j) __attribute__((returns_twice));
CQ_ASMLINKAGE void kjmp_long(struct kjmp *j, int val) __attribute__((noreturn));

/* Loads our GDT, IDT and TSS (boot/gdt.c). Call first thing in kmain. */
void gdt_idt_init(void);

/* Marks an IDT gate present or not (the #DF self-test). */
void idt_gate_present(unsigned vector, bool present);

/* Whether esp lies on the double-fault task's stack. */
bool df_stack_contains(uint32_t esp);

/* Short mnemonic ("#GP") and long name ("General Protection") of a vector
 * (Intel SDM Vol. 3A, Table 6-1; "IRQ0".. for 32-47). */
const char *exc_mnemonic(unsigned vector);
const char *exc_name(unsigned vector);

/* Whether the CPU pushes an error code for this vector (Table 6-1). */
bool exc_has_error_code(unsigned vector);

/*
 * The guard in force when the watchdog was armed (kernel/platform/watchdog.c):
 * guard_timeout() leaves every guard above it and that one, reporting
 * FAULT_TIMEOUT. Called from the IRQ 0 handler only.
 */
int guard_level(void);
void guard_timeout(int level, const struct trap_frame *tf) __attribute__((noreturn));

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
CQ_ASMLINKAGE void exception_dispatch(struct trap_frame *tf);
CQ_ASMLINKAGE void exception_bad_stack(const struct trap_frame *tf) __attribute__((noreturn));
CQ_ASMLINKAGE void df_task_handler(uint32_t error);

#endif
