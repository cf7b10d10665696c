/* Self-checks of the fault guard and of the safe MSR accessors. */
#include "kernel/run/selftest.h"

#include "kernel/platform/cpu.h"
#include "kernel/platform/exceptions.h"
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
	struct fault_info fi = { 0, 0, 0, 0 };
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

void selftest_run(enum cq_selftest inject)
{
	tap_run("boot: a fault inside a test is caught and the run goes on (#UD self-check)",
		check_guard, 0);
	tap_run("boot: safe MSR access turns a fault into an error return (fixup self-check)",
		check_safe_msr, 0);
	if (inject == CQ_SELFTEST_FAULT_IN_TEST)
		tap_run("selftest: injected #UD inside a test (selftest=fault-in-test)",
			injected_fault, 0);
	if (inject == CQ_SELFTEST_FAULT_OUTSIDE) {
		tap_diag("selftest: injecting #UD outside any test (selftest=fault-outside)");
		x86_ud2();
	}
}
