/*
 * Exception handling: print every exception with its full register state,
 * then either resume (a _safe MSR access), leave the running test through
 * its guard, or bail out when nothing can be recovered.
 */
#include "kernel/platform/exceptions.h"

#include <stddef.h>
#include <string.h>

#include "kernel/platform/console.h"
#include "kernel/platform/emulate.h"
#include "kernel/platform/hw.h"
#include "kernel/platform/watchdog.h"
#include "kernel/platform/x86.h"

extern char boot_stack_bottom[], boot_stack_top[];
extern volatile uint8_t isr_last_vector;	/* boot/isr.S: the last stub entered */

/* Intel SDM Vol. 3A, Table 6-1. */
static const char *const exc_names[EXC_VECTORS][2] = {
	{ "#DE", "Divide Error" },
	{ "#DB", "Debug" },
	{ "NMI", "Non-Maskable Interrupt" },
	{ "#BP", "Breakpoint" },
	{ "#OF", "Overflow" },
	{ "#BR", "BOUND Range Exceeded" },
	{ "#UD", "Invalid Opcode" },
	{ "#NM", "Device Not Available" },
	{ "#DF", "Double Fault" },
	{ "CSO", "Coprocessor Segment Overrun" },
	{ "#TS", "Invalid TSS" },
	{ "#NP", "Segment Not Present" },
	{ "#SS", "Stack-Segment Fault" },
	{ "#GP", "General Protection" },
	{ "#PF", "Page Fault" },
	{ "#15", "Reserved (15)" },
	{ "#MF", "x87 Floating-Point Error" },
	{ "#AC", "Alignment Check" },
	{ "#MC", "Machine Check" },
	{ "#XM", "SIMD Floating-Point Exception" },
	{ "#VE", "Virtualization Exception" },
	{ "#CP", "Control Protection" },
	{ "#22", "Reserved (22)" },
	{ "#23", "Reserved (23)" },
	{ "#24", "Reserved (24)" },
	{ "#25", "Reserved (25)" },
	{ "#26", "Reserved (26)" },
	{ "#27", "Reserved (27)" },
	{ "#HV", "Hypervisor Injection" },
	{ "#VC", "VMM Communication" },
	{ "#SX", "Security Exception" },
	{ "#31", "Reserved (31)" },
};

static const char *const irq_names[16] = {
	"IRQ0", "IRQ1", "IRQ2", "IRQ3", "IRQ4", "IRQ5", "IRQ6", "IRQ7",
	"IRQ8", "IRQ9", "IRQ10", "IRQ11", "IRQ12", "IRQ13", "IRQ14", "IRQ15",
};

const char *exc_mnemonic(unsigned vector)
{
	if (vector >= EXC_VECTORS && vector < IDT_VECTORS)
		return irq_names[vector - EXC_VECTORS];
	return vector < EXC_VECTORS ? exc_names[vector][0] : "#??";
}

const char *exc_name(unsigned vector)
{
	if (vector == VEC_IRQ0)
		return "PIT timer interrupt";
	if (vector > EXC_VECTORS && vector < IDT_VECTORS)
		return "8259 interrupt";
	return vector < EXC_VECTORS ? exc_names[vector][1] : "unknown";
}

/* Intel SDM Vol. 3A, Table 6-1, column "Error Code": #DF, #TS, #NP, #SS,
 * #GP, #PF, #AC, #CP, #VC, #SX. (boot/isr.S has the same list.) */
bool exc_has_error_code(unsigned vector)
{
	switch (vector) {
	case 8: case 10: case 11: case 12: case 13: case 14: case 17: case 21: case 29: case 30:
		return true;
	default:
		return false;
	}
}

#define GUARD_DEPTH 8

struct guard {
	struct kjmp jmp;
	const char *what;
	struct fault_info *fi;
};

static struct guard guards[GUARD_DEPTH];
static int guard_depth;
static int in_handler;

const char *guard_current(void)
{
	return guard_depth > 0 ? guards[guard_depth - 1].what : NULL;
}

bool guard_run(const char *what, void (*fn)(void *ctx), void *ctx, struct fault_info *fi)
{
	struct guard *g;

	if (guard_depth >= GUARD_DEPTH) {
		/* Too deep to guard: run it anyway; a fault then bails out. */
		fn(ctx);
		return true;
	}
	g = &guards[guard_depth];
	g->what = what;
	g->fi = fi;
	guard_depth++;
	if (kjmp_set(&g->jmp) != 0) {
		/* Back from the exception handler: the guard was popped there.
		 * The handler ran with IF clear; the watchdog ticks on if armed. */
		if (watchdog_armed())
			x86_sti();
		return false;
	}
	fn(ctx);
	guard_depth--;
	return true;
}

int guard_level(void)
{
	return guard_depth;
}

static void dump_frame(const struct trap_frame *tf, uint32_t esp)
{
	const char *test = guard_current();	/* the running test, NULL outside any */
	const char *mn = exc_mnemonic(tf->vector), *name = exc_name(tf->vector);

	if (exc_has_error_code(tf->vector) && test)
		kprintf("# exception: %s %s (vector %u) error=0x%08x in test '%s'\n", mn, name,
			tf->vector, tf->error, test);
	else if (exc_has_error_code(tf->vector))
		kprintf("# exception: %s %s (vector %u) error=0x%08x in no test (outside any test)\n",
			mn, name, tf->vector, tf->error);
	else if (test)
		kprintf("# exception: %s %s (vector %u) no error code in test '%s'\n", mn, name,
			tf->vector, test);
	else
		kprintf("# exception: %s %s (vector %u) no error code in no test (outside any test)\n",
			mn, name, tf->vector);
	kprintf("#   EIP=%08x EFLAGS=%08x CS=%04x\n", tf->eip, tf->eflags, tf->cs & 0xFFFF);
	kprintf("#   EAX=%08x EBX=%08x ECX=%08x EDX=%08x\n", tf->eax, tf->ebx, tf->ecx, tf->edx);
	kprintf("#   ESI=%08x EDI=%08x EBP=%08x ESP=%08x\n", tf->esi, tf->edi, tf->ebp, esp);
	kprintf("#   CR0=%08x CR2=%08x CR3=%08x CR4=%08x\n", x86_read_cr0(), x86_read_cr2(),
		x86_read_cr3(), x86_read_cr4());
	/* A stub that pushes a dummy error code where the CPU pushed one (or
	 * none where it pushed none) shifts the frame: CS is then not ours. */
	if (tf->cs != GDT_CODE_SEL)
		kprintf("#   frame inconsistent: the CS slot holds 0x%08x, not 0x%04x: the entry stub and the CPU disagree about the error code\n",
			tf->cs, GDT_CODE_SEL);
}

static void fill_fault(struct guard *g, const struct trap_frame *tf, enum fault_kind kind, uint32_t esp)
{
	if (!g->fi)
		return;
	g->fi->vector = tf->vector;
	g->fi->error = tf->error;
	g->fi->eip = tf->eip;
	g->fi->cs = tf->cs;
	g->fi->cr2 = x86_read_cr2();
	g->fi->esp = esp;
	g->fi->kind = kind;
}

CQ_ASMLINKAGE void exception_dispatch(struct trap_frame *tf)
{
	uint32_t resume;
	struct guard *g;

	if (tf->vector >= EXC_VECTORS) {
		/* An IRQ: only IRQ 0 (the watchdog tick) is unmasked. */
		if (tf->vector == VEC_IRQ0 && !in_handler) {
			int level = watchdog_tick();
			if (level >= 0)
				guard_timeout(level, tf);   /* leaves the test: does not return */
		} else
			watchdog_irq_other(tf->vector);
		return;
	}
	if (emulate_trap(tf))
		return;     /* an emulated instruction (emulation build only) */
	resume = hw_fault_fixup(tf->eip, tf->vector);
	if (resume != 0) {
		tf->eip = resume;   /* a _safe MSR access: it reports the error */
		return;
	}
	if (in_handler) {
		/* A fault while handling a fault: nothing left to trust. */
		console_emergency("# exception inside the exception handler\n");
		console_bail_out("nested exception");
	}
	in_handler = 1;
	/* The CPU pushes no ESP on a same-privilege exception: the interrupted
	 * ESP is just above the EFLAGS slot. */
	dump_frame(tf, (uint32_t)(uintptr_t)&tf->eflags + 4);
	if (guard_depth == 0 || tf->vector == 18) {
		/* Outside any test, or a machine check. */
		console_bail_out(exc_name(tf->vector));
	}
	g = &guards[--guard_depth];
	fill_fault(g, tf, FAULT_EXCEPTION, 0);
	in_handler = 0;
	kjmp_long(&g->jmp, 1);
}

void guard_timeout(int level, const struct trap_frame *tf)
{
	struct guard *g;
	uint32_t esp = (uint32_t)(uintptr_t)&tf->eflags + 4;

	if (level < 0 || level >= guard_depth) {
		console_bail_out("watchdog: no guard to leave");
	}
	in_handler = 1;
	g = &guards[level];
	kprintf("# watchdog: test '%s' ran past its time budget: stopped at EIP=%08x ESP=%08x EFLAGS=%08x\n",
		g->what ? g->what : "?", tf->eip, esp, tf->eflags);
	kprintf("#   EAX=%08x EBX=%08x ECX=%08x EDX=%08x ESI=%08x EDI=%08x EBP=%08x\n",
		tf->eax, tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp);
	guard_depth = level;
	fill_fault(g, tf, FAULT_TIMEOUT, esp);
	in_handler = 0;
	kjmp_long(&g->jmp, 1);
}

/*
 * Entered from boot/isr.S on a rescue stack when an exception or IRQ found
 * ESP outside the kernel stack: the CPU wrote its frame wherever ESP
 * pointed (it may be memory that does not exist), so tf is read but not
 * trusted, and the vector comes from the stub's isr_last_vector.
 */
CQ_ASMLINKAGE void exception_bad_stack(const struct trap_frame *tf)
{
	unsigned vector = isr_last_vector;
	uint32_t esp = (uint32_t)(uintptr_t)&tf->eflags + 4;   /* the interrupted ESP */
	struct trap_frame t = *tf;
	struct guard *g;

	if (vector >= EXC_VECTORS)
		watchdog_eoi(vector);
	t.vector = vector;
	if (guard_current())
		kprintf("# exception: %s %s (vector %u) with ESP=%08x outside the kernel stack [%08x, %08x) in test '%s'\n",
			exc_mnemonic(vector), exc_name(vector), vector, esp,
			(unsigned)(uintptr_t)boot_stack_bottom, (unsigned)(uintptr_t)boot_stack_top,
			guard_current());
	else
		kprintf("# exception: %s %s (vector %u) with ESP=%08x outside the kernel stack [%08x, %08x) in no test (outside any test)\n",
			exc_mnemonic(vector), exc_name(vector), vector, esp,
			(unsigned)(uintptr_t)boot_stack_bottom, (unsigned)(uintptr_t)boot_stack_top);
	kprintf("#   the frame was written there and may be lost: EIP=%08x CS=%08x error=%08x\n",
		t.eip, t.cs, t.error);
	if (in_handler || guard_depth == 0 || df_stack_contains(esp)) {
		console_bail_out("stack pointer outside the kernel stack");
	}
	g = &guards[--guard_depth];
	fill_fault(g, &t, FAULT_BAD_STACK, esp);
	kjmp_long(&g->jmp, 1);
}

/* ---- #DF: its own task (boot/gdt.c, boot/isr.S df_task_entry) ---- */

static struct guard *df_guard;

static void __attribute__((noreturn)) df_resume(void)
{
	/* Every hardware task switch sets CR0.TS (SDM Vol. 3A 7.3 step 12):
	 * clear it, or the next x87 instruction raises #NM. */
	x86_write_cr0(x86_read_cr0() & ~(1u << 3));
	kjmp_long(&df_guard->jmp, 1);
}

/*
 * Runs as the double-fault task: the kernel's state at the fault is in
 * tss_main (the CPU saved it there on the task switch). Prints it like any
 * exception; inside a test, rewrites tss_main so that the IRET back to the
 * kernel's task resumes in df_resume() on a known-good stack below the
 * guard's, which leaves the test; outside any test, bails out from here.
 */
CQ_ASMLINKAGE void df_task_handler(uint32_t error)
{
	struct trap_frame tf;
	struct guard *g;

	memset(&tf, 0, sizeof(tf));
	tf.vector = 8;
	tf.error = error;
	tf.eip = tss_main.eip;
	tf.cs = tss_main.cs;
	tf.eflags = tss_main.eflags;
	tf.eax = tss_main.eax;
	tf.ebx = tss_main.ebx;
	tf.ecx = tss_main.ecx;
	tf.edx = tss_main.edx;
	tf.esi = tss_main.esi;
	tf.edi = tss_main.edi;
	tf.ebp = tss_main.ebp;
	if (in_handler) {
		console_emergency("# double fault inside the exception handler\n");
		console_bail_out("Double Fault");
	}
	in_handler = 1;
	dump_frame(&tf, tss_main.esp);
	kprintf("#   double fault: handled on its own stack (task gate to TSS 0x%02x); the kernel's ESP was %08x\n",
		GDT_DF_TSS_SEL, tss_main.esp);
	if (guard_depth == 0)
		console_bail_out(exc_name(8));
	g = &guards[--guard_depth];
	fill_fault(g, &tf, FAULT_EXCEPTION, tss_main.esp);
	df_guard = g;
	tss_main.eip = (uint32_t)(uintptr_t)df_resume;
	tss_main.esp = (g->jmp.esp - 1024) & ~15u;
	tss_main.eflags = 0x2;
	tss_main.cs = GDT_CODE_SEL;
	tss_main.ss = tss_main.ds = tss_main.es = tss_main.fs = tss_main.gs = GDT_DATA_SEL;
	in_handler = 0;
}
