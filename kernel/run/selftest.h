/*
 * Self-checks of the kernel's own safety nets, run on every boot: a fault
 * inside a guarded test must be caught, and a _safe MSR access of an MSR
 * the CPU lacks must come back as an error instead of killing the run.
 */
#ifndef CQ_KERNEL_SELFTEST_H
#define CQ_KERNEL_SELFTEST_H

#include "lib/platform/cmdline.h"

/*
 * Runs the self-checks. inject (the selftest= option) additionally
 * provokes a real failure so the boot tests can watch the failure paths:
 *   CQ_SELFTEST_FAULT_IN_TEST  a counted test executes UD2: it must be
 *                              `not ok`, and the run must go on to FAIL;
 *   CQ_SELFTEST_FAULT_OUTSIDE  UD2 outside any test: `Bail out!` and the
 *                              crash status.
 */
void selftest_run(enum cq_selftest inject);

#endif
