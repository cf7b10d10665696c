/*
 * report: the TAP version 14 serial report. Every result line goes through
 * here, so the numbering, the plan and the closing summary always agree.
 *
 *   TAP version 14
 *   # ... diagnostics ...
 *   ok 1 - cpu: CPUID identity decoded
 *   not ok 2 - ...
 *   ok 3 - padlock: ... # SKIP no VIA PadLock on this CPU
 *   1..3
 *   cryptoqual: PASS (2 ok, 0 not ok, 1 skipped)
 */
#ifndef CQ_KERNEL_REPORT_H
#define CQ_KERNEL_REPORT_H

#include <stdbool.h>

/* Exit statuses through QEMU's isa-debug-exit (value v gives (v << 1) | 1). */
#define QEMU_EXIT_PORT  0xF4
#define QEMU_EXIT_PASS  0x10   /* qemu exits 33 */
#define QEMU_EXIT_FAIL  0x11   /* qemu exits 35 */
#define QEMU_EXIT_CRASH 0x12   /* qemu exits 37: Bail out! (0 is a triple fault) */

enum finish_action { FINISH_HALT, FINISH_REBOOT };

/* Prints "TAP version 14". */
void report_begin(void);

/* "# " + text + "\n". */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One result: "ok N - name" or "not ok N - name". Returns ok. */
bool tap_result(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "ok N - name # SKIP reason". */
void tap_skip(const char *reason, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Runs a test under the fault guard. fn returns true for ok; if it faults,
 * the test is `not ok` with the exception named, and the run goes on.
 * Returns true only when the test ran and passed: false for `not ok`, and
 * false when only= left it out (then it is `# SKIP` and fn never ran, so
 * whatever fn would have produced does not exist).
 */
bool tap_run(const char *name, bool (*fn)(void *ctx), void *ctx);

/*
 * Test selection (the only= option): tap_run() runs only tests whose name
 * contains pattern and reports the others as `# SKIP not selected by
 * only=PATTERN`. NULL or "" selects everything. The boot checks that use
 * tap_result() directly (CPU, PCI, timers) always run.
 */
void report_set_only(const char *pattern);
/* Whether the test called name runs under the only= pattern (true without one). */
bool report_selected(const char *name);

/* Counters so far. */
unsigned report_ok(void);
unsigned report_not_ok(void);
unsigned report_skipped(void);

/*
 * Whether the QEMU isa-debug-exit device may be written (only when the
 * platform was recognised as QEMU: a write to port 0xF4 on a real box is
 * not something to do blindly).
 */
void report_set_qemu(bool is_qemu);
void report_set_finish(enum finish_action a);

/* Prints the plan and the summary line, then exits/halts/reboots. */
void report_finish(void) __attribute__((noreturn));

/* "Bail out! reason", then the crash status. For unrecoverable faults. */
void report_bail_out(const char *reason) __attribute__((noreturn));

#endif
