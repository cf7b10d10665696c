/*
 * Self-checks of the fault guard and of the safe MSR accessors, and the
 * selftest= injections that prove the failure paths (lib/platform/cmdline.h):
 * every exception vector QEMU can raise, a test that never ends, a test
 * that wrecks its stack pointer, a double fault outside any test.
 */
#include "kernel/run/selftest.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/util/fmt.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/cpufeat.h"
#include "kernel/platform/exceptions.h"
#include "kernel/platform/fpu.h"
#include "kernel/platform/hw.h"
#include "kernel/run/report.h"
#include "kernel/platform/x86.h"

/* An MSR no x86 CPU implements (outside every documented range). */
#define MSR_NONEXISTENT 0x7FFFFFF0u
#define MSR_IA32_TSC    0x10u

static void do_ud2(void *ctx)
{
	(void)ctx;
	x86_ud2();
}

static bool check_guard(void *ctx)
{
	struct fault_info fi = { 0 };
	(void)ctx;
	if (guard_run("selftest: deliberate #UD", do_ud2, 0, &fi))
		return false;       /* UD2 did not fault?! */
	return fi.vector == 6;
}

static bool check_safe_msr(void *ctx)
{
	uint64_t v = 0;
	int rc;
	(void)ctx;
	if (hw_fixup_selftest() != HW_EFAULT) {
		tap_diag("selftest: the fixup path did not catch UD2");
		return false;
	}
	rc = hw_rdmsr_safe(MSR_NONEXISTENT, &v);
	if (rc == HW_EFAULT)
		tap_diag("selftest: rdmsr 0x%08x raised an exception; the safe form returned an error",
			 MSR_NONEXISTENT);
	else
		tap_diag("selftest: rdmsr 0x%08x returned 0x%llx without a fault (QEMU's TCG does this)",
			 MSR_NONEXISTENT, (unsigned long long)v);
	if (!cpu()->msr)
		return rc == HW_EFAULT;   /* no MSRs at all: rdmsr must have raised #UD */
	/* An MSR every CPU with MSRs has still reads through the safe path
	 * (its value is not checked: QEMU's TCG reads 0 here). */
	rc = hw_rdmsr_safe(MSR_IA32_TSC, &v);
	if (rc != 0) {
		tap_diag("selftest: rdmsr IA32_TIME_STAMP_COUNTER (0x10) through the safe path: rc=%d value=0x%llx",
			 rc, (unsigned long long)v);
		return false;
	}
	return true;
}

static bool injected_fault(void *ctx)
{
	(void)ctx;
	x86_ud2();
	return true;
}

/* ---- selftest=vectors: one test per exception vector ---- */

/*
 * Each raiser executes the instruction that raises its vector at a global
 * label, so the test knows the EIP the CPU must report: the faulting
 * instruction for faults, the next one for traps (#DB single step, #BP,
 * #OF). Intel SDM Vol. 3A 6.15 gives each vector's class and error code.
 */
#define RAISER __attribute__((noinline, noclone, used))

extern const char st_de_at[], st_db_at[], st_bp_at[], st_of_at[], st_br_at[], st_ud_at[],
	st_nm_at[], st_df_at[], st_ts_at[], st_np_at[], st_ss_at[], st_gp_at[], st_mf_at[],
	st_xm_at[];

static volatile int32_t st_bounds[2] = { 0, 10 };

RAISER static void raise_de(void *ctx)
{
	(void)ctx;
	__asm__ volatile("xorl %%ecx, %%ecx\n\tmovl $1, %%eax\n\txorl %%edx, %%edx\n"
			 ".globl st_de_at\nst_de_at:\n\tdivl %%ecx" : : : "eax", "ecx", "edx");
}

/* POPF sets TF: the single-step trap comes after the next instruction. */
RAISER static void raise_db(void *ctx)
{
	(void)ctx;
	__asm__ volatile("pushfl\n\torl $0x100, (%%esp)\n\tpopfl\n\tnop\n"
			 ".globl st_db_at\nst_db_at:\n\tnop" : : : "memory", "cc");
}

RAISER static void raise_bp(void *ctx)
{
	(void)ctx;
	__asm__ volatile("int3\n.globl st_bp_at\nst_bp_at:\n\tnop");
}

RAISER static void raise_of(void *ctx)
{
	(void)ctx;
	__asm__ volatile("movl $0x7fffffff, %%eax\n\taddl $1, %%eax\n\tinto\n"
			 ".globl st_of_at\nst_of_at:\n\tnop" : : : "eax", "cc");
}

RAISER static void raise_br(void *ctx)
{
	(void)ctx;
	__asm__ volatile("movl $20, %%eax\n.globl st_br_at\nst_br_at:\n\tboundl %%eax, %0"
			 : : "m"(st_bounds) : "eax");
}

RAISER static void raise_ud(void *ctx)
{
	(void)ctx;
	__asm__ volatile(".globl st_ud_at\nst_ud_at:\n\tud2");
}

/* CR0.TS set: the next x87 instruction raises #NM (the checker clears TS). */
RAISER static void raise_nm(void *ctx)
{
	(void)ctx;
	x86_write_cr0(x86_read_cr0() | (1u << 3));
	__asm__ volatile(".globl st_nm_at\nst_nm_at:\n\tfninit");
}

/* IDT gate 0 marked not present: delivering #DE raises #NP, a second
 * contributory fault: #DF, through its task gate (the checker restores
 * gate 0). */
RAISER static void raise_df(void *ctx)
{
	(void)ctx;
	idt_gate_present(0, false);
	__asm__ volatile("xorl %%ecx, %%ecx\n\tmovl $1, %%eax\n\txorl %%edx, %%edx\n"
			 ".globl st_df_at\nst_df_at:\n\tdivl %%ecx" : : : "eax", "ecx", "edx");
}

/* A far jump to a TSS shorter than the 0x67 bytes a 32-bit TSS needs:
 * #TS with the selector (SDM Vol. 3A 7.3, Table 7-1). */
RAISER static void raise_ts(void *ctx)
{
	(void)ctx;
	__asm__ volatile(".globl st_ts_at\nst_ts_at:\n\tljmp %0, $0" : : "i"(GDT_SHORT_TSS_SEL));
}

/* Loading FS with a not-present data segment: #NP with the selector. */
RAISER static void raise_np(void *ctx)
{
	(void)ctx;
	__asm__ volatile("movw %0, %%ax\n.globl st_np_at\nst_np_at:\n\tmovw %%ax, %%fs"
			 : : "i"(GDT_NP_DATA_SEL) : "eax");
}

/* Loading SS with it: #SS with the selector. */
RAISER static void raise_ss(void *ctx)
{
	(void)ctx;
	__asm__ volatile("movw %0, %%ax\n.globl st_ss_at\nst_ss_at:\n\tmovw %%ax, %%ss"
			 : : "i"(GDT_NP_DATA_SEL) : "eax");
}

/* A selector beyond the GDT's limit: #GP with the selector. */
RAISER static void raise_gp(void *ctx)
{
	(void)ctx;
	__asm__ volatile("movw $0xfff8, %%ax\n.globl st_gp_at\nst_gp_at:\n\tmovw %%ax, %%fs"
			 : : : "eax");
}

/* x87 divide by zero unmasked (control word 0x037B): the error is pending
 * until the next waiting x87 instruction, which raises #MF (CR0.NE = 1). */
RAISER static void raise_mf(void *ctx)
{
	static const uint16_t cw = 0x037B;
	(void)ctx;
	__asm__ volatile("fninit\n\tfldcw %0\n\tfld1\n\tfldz\n\tfdivrp\n"
			 ".globl st_mf_at\nst_mf_at:\n\tfwait" : : "m"(cw) : "memory");
}

/* SSE divide by zero unmasked (MXCSR 0x1D80): #XM at the DIVSS
 * (CR4.OSXMMEXCPT = 1, set by fpu_enable_sse). CPUFEAT code: SSE. */
__asm__(".arch .sse");
CPUFEAT_FN("sse") RAISER static void raise_xm(void *ctx)
{
	static const uint32_t mxcsr = 0x1D80, one = 0x3F800000;
	(void)ctx;
	__asm__ volatile("ldmxcsr %0\n\txorps %%xmm0, %%xmm0\n\tmovss %1, %%xmm1\n"
			 ".globl st_xm_at\nst_xm_at:\n\tdivss %%xmm0, %%xmm1"
			 : : "m"(mxcsr), "m"(one) : "xmm0", "xmm1");
}

/* Restores the reset MXCSR; returns the one before (its flags). */
CPUFEAT_FN("sse") static uint32_t xm_cleanup(void)
{
	static const uint32_t mxcsr = 0x1F80;
	uint32_t was;
	__asm__ volatile("stmxcsr %0\n\tldmxcsr %1" : "=m"(was) : "m"(mxcsr));
	return was;
}

struct vector_case {
	unsigned vector;
	const char *mnemonic;       /* this test's own copy of SDM Table 6-1 */
	const char *name;
	bool has_error;
	uint32_t error;             /* expected error code */
	void (*raise)(void *ctx);
	const char *at;             /* expected EIP; NULL: not checked (#DF) */
	const char *how;
};

static const struct vector_case vector_cases[] = {
	{ 0, "#DE", "Divide Error", false, 0, raise_de, st_de_at, "DIV by zero" },
	{ 1, "#DB", "Debug", false, 0, raise_db, st_db_at, "single step (EFLAGS.TF)" },
	{ 3, "#BP", "Breakpoint", false, 0, raise_bp, st_bp_at, "INT3" },
	{ 4, "#OF", "Overflow", false, 0, raise_of, st_of_at, "INTO with OF set" },
	{ 5, "#BR", "BOUND Range Exceeded", false, 0, raise_br, st_br_at, "BOUND out of range" },
	{ 6, "#UD", "Invalid Opcode", false, 0, raise_ud, st_ud_at, "UD2" },
	{ 7, "#NM", "Device Not Available", false, 0, raise_nm, st_nm_at, "x87 with CR0.TS set" },
	{ 8, "#DF", "Double Fault", true, 0, raise_df, NULL, "#NP while delivering #DE" },
	{ 10, "#TS", "Invalid TSS", true, GDT_SHORT_TSS_SEL, raise_ts, st_ts_at, "JMP to a short TSS" },
	{ 11, "#NP", "Segment Not Present", true, GDT_NP_DATA_SEL, raise_np, st_np_at, "FS load, not present" },
	{ 12, "#SS", "Stack-Segment Fault", true, GDT_NP_DATA_SEL, raise_ss, st_ss_at, "SS load, not present" },
	{ 13, "#GP", "General Protection", true, 0xFFF8, raise_gp, st_gp_at, "selector beyond the GDT" },
	{ 16, "#MF", "x87 Floating-Point Error", false, 0, raise_mf, st_mf_at, "unmasked x87 divide by zero" },
	{ 19, "#XM", "SIMD Floating-Point Exception", false, 0, raise_xm, st_xm_at, "unmasked DIVSS by zero" },
};

static void vector_cleanup(unsigned vector)
{
	switch (vector) {
	case 7:
		x86_write_cr0(x86_read_cr0() & ~(1u << 3));     /* CLTS */
		break;
	case 8:
		idt_gate_present(0, true);
		break;
	case 16:
		__asm__ volatile("fninit");
		break;
	case 19:
		(void)xm_cleanup();
		break;
	default:
		break;
	}
}

static bool evaluate_vector(const struct vector_case *c, bool raised, const struct fault_info *fi)
{
	bool ok = true;

	if (!raised) {
		tap_diag("selftest: %s: %s raised nothing", c->mnemonic, c->how);
		return false;
	}
	if (fi->kind != FAULT_EXCEPTION || fi->vector != c->vector) {
		tap_diag("selftest: %s: got vector %u (%s), want %u", c->mnemonic, fi->vector,
			 exc_mnemonic(fi->vector), c->vector);
		ok = false;
	}
	if (strcmp(exc_mnemonic(c->vector), c->mnemonic) != 0 || strcmp(exc_name(c->vector), c->name) != 0) {
		tap_diag("selftest: vector %u is named '%s %s', want '%s %s'", c->vector,
			 exc_mnemonic(c->vector), exc_name(c->vector), c->mnemonic, c->name);
		ok = false;
	}
	if (exc_has_error_code(c->vector) != c->has_error) {
		tap_diag("selftest: %s: the kernel thinks it %s an error code", c->mnemonic,
			 c->has_error ? "has no" : "has");
		ok = false;
	}
	if (fi->error != c->error || fi->cs != GDT_CODE_SEL) {
		tap_diag("selftest: %s: error code 0x%08x CS 0x%08x, want 0x%08x and 0x%04x (a stub pushing the wrong error code shifts the frame)",
			 c->mnemonic, fi->error, fi->cs, c->error, GDT_CODE_SEL);
		ok = false;
	}
	if (c->at && fi->eip != (uint32_t)(uintptr_t)c->at) {
		tap_diag("selftest: %s: EIP %08x, want %08x", c->mnemonic, fi->eip,
			 (unsigned)(uintptr_t)c->at);
		ok = false;
	}
	return ok;
}

static bool raise_vector(const struct vector_case *c, struct fault_info *fi)
{
	char what[64];
	bool raised;

	fmt_snprintf(what, sizeof(what), "selftest: vector %u %s", c->vector, c->mnemonic);
	fi->vector = 99;
	fi->error = 0xDEADBEEF;
	fi->kind = FAULT_EXCEPTION;
	raised = !guard_run(what, c->raise, NULL, fi);
	vector_cleanup(c->vector);
	return raised;
}

static bool check_vector(void *ctx)
{
	const struct vector_case *c = ctx;
	struct fault_info fi;
	bool raised = raise_vector(c, &fi);
	return evaluate_vector(c, raised, &fi);
}

/*
 * #XM: a real CPU raises #XM (or #UD with CR4.OSXMMEXCPT clear) for an
 * unmasked SIMD error; it never just sets the flag. An emulator that only
 * sets MXCSR.ZE is measured and the test skipped with that reason.
 */
static void run_xm(const struct vector_case *c, const char *name)
{
	struct fault_info fi;
	bool raised;
	uint32_t mxcsr;

	raised = !guard_run("selftest: vector 19 #XM", c->raise, NULL, &fi);
	mxcsr = xm_cleanup();
	if (!raised && (mxcsr & 0x4)) {
		tap_skip("DIVSS by zero with MXCSR.ZM clear set MXCSR.ZE but raised nothing: this CPU (QEMU's TCG) does not raise #XM",
			 "%s", name);
		return;
	}
	if (!raised)
		tap_diag("selftest: #XM: MXCSR after the DIVSS: 0x%08x", (unsigned)mxcsr);
	tap_result(evaluate_vector(c, raised, &fi), "%s", name);
}

static void run_vectors(void)
{
	unsigned i;
	char name[128];

	for (i = 0; i < sizeof(vector_cases) / sizeof(vector_cases[0]); i++) {
		const struct vector_case *c = &vector_cases[i];
		fmt_snprintf(name, sizeof(name), "selftest: vector %u %s %s: %s, %s", c->vector,
			     c->mnemonic, c->name, c->how,
			     c->has_error ? "error code checked" : "no error code");
		if (c->vector == 19) {
			if (!(cpu()->sse && fpu_enable_sse()))
				tap_skip("no SSE on this CPU (CPUID.1:EDX.SSE clear)", "%s", name);
			else
				run_xm(c, name);
			continue;
		}
		tap_run(name, check_vector, (void *)(uintptr_t)c);
	}
	tap_diag("selftest: vectors not raised: 2 NMI (only the platform raises it: QEMU's monitor 'nmi'), 9 CSO (not raised since the 486), 14 #PF (paging is off), 17 #AC (ring 3 only, and QEMU's TCG never raises it: no alignment check), 18 #MC (QEMU's monitor 'mce' only), 20 #VE (EPT violations under VMX), 21 #CP (CET; not in QEMU's TCG), 28-30 #HV #VC #SX (AMD SEV and SVM guests), 15 and 22-27, 31 (reserved)");
}

/* ---- selftest=hang and selftest=stack-smash ---- */

#define HANG_BUDGET_MS 2000

static bool spin_forever(void *ctx)
{
	(void)ctx;
	for (;;)
		__asm__ volatile("" : : : "memory");
	return true;
}

/* A stack somewhere else: ESP pointed into it is "outside the kernel stack". */
static uint8_t smash_area[4096] __attribute__((aligned(16)));

static bool smash_then_fault(void *ctx)
{
	uint32_t esp = (uint32_t)(uintptr_t)ctx;
	__asm__ volatile("movl %0, %%esp\n\tud2" : : "r"(esp) : "memory");
	return true;
}

static bool smash_then_spin(void *ctx)
{
	uint32_t esp = (uint32_t)(uintptr_t)ctx;
	__asm__ volatile("movl %0, %%esp\n1:\tjmp 1b" : : "r"(esp) : "memory");
	return true;
}

static void run_stack_smash(void)
{
	void *top = smash_area + sizeof(smash_area);
	tap_run("selftest: ESP pointed into a data buffer, then UD2 (selftest=stack-smash)",
		smash_then_fault, top);
	tap_run("selftest: ESP set to 0, then UD2 (selftest=stack-smash)", smash_then_fault, NULL);
	tap_run_budget("selftest: ESP pointed into a data buffer, then a spin (selftest=stack-smash)",
		       smash_then_spin, top, HANG_BUDGET_MS);
}

void selftest_run(enum cq_selftest inject)
{
	tap_run("boot: a fault inside a test is caught and the run goes on (#UD self-check)",
		check_guard, 0);
	tap_run("boot: safe MSR access turns a fault into an error return (fixup self-check)",
		check_safe_msr, 0);
	switch (inject) {
	case CQ_SELFTEST_FAULT_IN_TEST:
		tap_run("selftest: injected #UD inside a test (selftest=fault-in-test)",
			injected_fault, 0);
		break;
	case CQ_SELFTEST_FAULT_OUTSIDE:
		tap_diag("selftest: injecting #UD outside any test (selftest=fault-outside)");
		x86_ud2();
		break;
	case CQ_SELFTEST_VECTORS:
		run_vectors();
		break;
	case CQ_SELFTEST_HANG:
		tap_run_budget("selftest: a test that spins forever (selftest=hang)", spin_forever, 0,
			       HANG_BUDGET_MS);
		break;
	case CQ_SELFTEST_STACK_SMASH:
		run_stack_smash();
		break;
	case CQ_SELFTEST_DOUBLE_FAULT_OUTSIDE:
		tap_diag("selftest: injecting a double fault outside any test (selftest=double-fault-outside)");
		raise_df(NULL);
		break;
	default:
		break;
	}
}
