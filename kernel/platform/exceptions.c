/*
 * Exception handling: print every exception with its full register state,
 * then either resume (a _safe MSR access), leave the running test through
 * its guard, or bail out when nothing can be recovered.
 */
#include "kernel/platform/exceptions.h"

#include <stddef.h>

#include "kernel/platform/console.h"
#include "kernel/platform/emulate.h"
#include "kernel/platform/hw.h"
#include "kernel/run/report.h"
#include "kernel/platform/x86.h"

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

const char *exc_mnemonic(unsigned vector)
{
	return vector < EXC_VECTORS ? exc_names[vector][0] : "#??";
}

const char *exc_name(unsigned vector)
{
	return vector < EXC_VECTORS ? exc_names[vector][1] : "unknown";
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
		/* Back from the exception handler: the guard was popped there. */
		return false;
	}
	fn(ctx);
	guard_depth--;
	return true;
}

static void dump_frame(const struct trap_frame *tf)
{
	const char *what = guard_current();
	/* The CPU pushes no ESP on a same-privilege exception: the interrupted
	 * ESP is just above the EFLAGS slot. */
	uint32_t esp = (uint32_t)(uintptr_t)&tf->eflags + 4;

	kprintf("# exception: %s %s (vector %u) error=0x%08x in %s%s%s\n",
		exc_mnemonic(tf->vector), exc_name(tf->vector), tf->vector, tf->error,
		what ? "test '" : "", what ? what : "no test (outside any test)",
		what ? "'" : "");
	kprintf("#   EIP=%08x EFLAGS=%08x CS=%04x\n", tf->eip, tf->eflags, tf->cs & 0xFFFF);
	kprintf("#   EAX=%08x EBX=%08x ECX=%08x EDX=%08x\n", tf->eax, tf->ebx, tf->ecx, tf->edx);
	kprintf("#   ESI=%08x EDI=%08x EBP=%08x ESP=%08x\n", tf->esi, tf->edi, tf->ebp, esp);
	kprintf("#   CR0=%08x CR2=%08x CR3=%08x CR4=%08x\n", x86_read_cr0(), x86_read_cr2(),
		x86_read_cr3(), x86_read_cr4());
}

void exception_dispatch(struct trap_frame *tf)
{
	uint32_t resume;
	struct guard *g;

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
		report_bail_out("nested exception");
	}
	in_handler = 1;
	dump_frame(tf);
	if (guard_depth == 0 || tf->vector == 8 || tf->vector == 18) {
		/* Outside any test, or a double fault / machine check. */
		report_bail_out(exc_name(tf->vector));
	}
	g = &guards[--guard_depth];
	if (g->fi) {
		g->fi->vector = tf->vector;
		g->fi->error = tf->error;
		g->fi->eip = tf->eip;
		g->fi->cr2 = x86_read_cr2();
	}
	in_handler = 0;
	kjmp_long(&g->jmp, 1);
}
