/*
 * report: the TAP version 13 serial report. Every result line goes through
 * here, so the numbering, the plan and the closing summary always agree.
 *
 *   TAP version 13
 *   # ... diagnostics ...
 *   ok 1 - cpu: CPUID identity decoded
 *   not ok 2 - ...
 *   ok 3 - padlock: ... # SKIP no VIA PadLock on this CPU
 *   # summary: ... (at most 22 lines: lib/util/run_summary.h)
 *   1..3
 *   # cryptoqual: PASS (2 ok, 0 not ok, 1 skipped)
 *
 * Version 13, not 14: Debian 12's prove (TAP::Parser 3.44) rejects 14.
 * The verdict is a TAP comment so that every TAP consumer accepts the line.
 */
#ifndef CQ_KERNEL_REPORT_H
#define CQ_KERNEL_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util/run_summary.h"

/* Exit statuses through QEMU's isa-debug-exit (value v gives (v << 1) | 1). */
#define QEMU_EXIT_PORT  0xF4
#define QEMU_EXIT_PASS  0x10   /* qemu exits 33 */
#define QEMU_EXIT_FAIL  0x11   /* qemu exits 35 */
#define QEMU_EXIT_CRASH 0x12   /* qemu exits 37: Bail out! (0 is a triple fault) */

enum finish_action { FINISH_HALT, FINISH_REBOOT };

/* Prints "TAP version 13" and starts the run's clock (the TSC, when the CPU has one). */
void report_begin(void);

/*
 * The TSC frequency (Hz) once calibrated: from then on times are printed.
 * Before it (or without a TSC) a time reads "unknown".
 */
void report_set_clock(uint64_t tsc_hz);

/* Tenths of a second since report_begin(), or -1 before report_set_clock(). */
int64_t report_tenths(void);

/* Seconds since report_begin(), one decimal ("12.3"), or "unknown". Returns the length. */
size_t report_time(char *buf, size_t n);

/*
 * "# " + text + "\n". A line whose text starts with '@' is a record: it
 * gets " t=SECONDS" (report_time()) appended.
 */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Called from long loops: prints "# heartbeat: t=S stage=NAME" when no line
 * has been printed for 10 seconds. Cheap otherwise (one TSC read).
 */
void report_tick(void);

/*
 * Ends the current stage (prints "# @stage name=NAME seconds=S t=T") and
 * starts the next one, named name ("" for none).
 */
void report_stage(const char *name);

/*
 * An engine's 8 KiB throughput (bytes/s: AES-128-CBC encrypt, SHA-256, or
 * an RNG source's read rate when rng) and software's for the same algorithm
 * (0: none), for the summary's engine rows; emulated when a device model
 * produced it (the row's figure is marked).
 */
void report_speed(const char *engine, uint64_t bytes_per_s, uint64_t sw_bytes_per_s, bool rng,
		  bool emulated);

/* The engine the summary's vs_sw figures are relative to (its own reads
 * "ref"): the benchmark's software baseline (lib/util/run_summary.h). */
void report_reference(const char *engine);

/*
 * The box the summary names first (lib/util/run_summary.h rsum_box): its
 * key, model, BIOS version and image version, already escaped.
 */
void report_box(const char *key, const char *model, const char *bios, const char *version);

/*
 * Where the results that follow count in the summary: the engine (or RNG
 * source) they check and the column (RSUM_KAT, RSUM_XCHECK, RSUM_RNG, or
 * RSUM_PROBE for an engine's own checks). Set by the stage that makes the
 * results (kernel/run/kat_run.c, rng_report.c, driver_run.c) and put back
 * with report_subject(NULL, RSUM_PROBE): the platform's own checks, which
 * is also where a run starts.
 */
void report_subject(const char *engine, enum rsum_col col);

/*
 * One result: "ok N - name" or "not ok N - name". Returns ok. The name is
 * escaped (a '#' as "\#", control bytes as \xNN) and bounded to 480
 * characters: it can neither start a directive nor add a line.
 */
bool tap_result(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "ok N - name # SKIP reason". */
void tap_skip(const char *reason, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Runs a test under the fault guard. fn returns true for ok; if it faults,
 * the test is `not ok` with the exception named (or, when ESP had left the
 * kernel stack, with that said), and the run goes on.
 * Returns true only when the test ran and passed: false for `not ok`, and
 * false when only= left it out (then it is `# SKIP` and fn never ran, so
 * whatever fn would have produced does not exist).
 */
bool tap_run(const char *name, bool (*fn)(void *ctx), void *ctx);

/*
 * Runs fn(ctx) as the test called name under the fault guard and the
 * watchdog (budget_ms). Returns true when fn returned: the caller prints
 * the result line. On a fault or a timeout it prints that test's
 * `not ok ... # fault: ...` / `# timeout: ...` line itself and returns false.
 */
bool report_guarded_call(const char *name, void (*fn)(void *ctx), void *ctx, unsigned budget_ms);

/*
 * report_guarded_call() that prints nothing: on a fault or a timeout it
 * returns false with why (cap bytes) saying which, e.g. "timeout: ran past
 * its 600000 ms budget (stopped at EIP 00102a40)" or "fault: #GP at EIP
 * 00101234". For the findings of driver probes (lib/engine/driver.h).
 */
bool report_guarded_try(const char *name, void (*fn)(void *ctx), void *ctx, unsigned budget_ms,
			char *why, size_t cap);

/*
 * "ok N - name # NOTE" or "not ok N - name # NOTE": a result whose name is
 * escaped and whose note (the report's own text, e.g. "fault: #UD at EIP
 * 00101234" or "finding: faulted") is added unescaped, at most 100 bytes.
 */
void report_result_note(bool ok, const char *name, const char *note);

/*
 * tap_run() with a time budget: a test still running after budget_ms is
 * stopped by the watchdog (kernel/platform/watchdog.h) and reported
 * `not ok N - name # timeout: ...`; the run goes on. tap_run() gives every
 * test TAP_RUN_BUDGET_MS.
 */
#define TAP_RUN_BUDGET_MS 600000u   /* 10 minutes */
bool tap_run_budget(const char *name, bool (*fn)(void *ctx), void *ctx, unsigned budget_ms);

/*
 * Test selection (the only= option): tap_run() runs only tests whose name
 * contains pattern and reports the others as `# SKIP not selected by
 * only=PATTERN`. NULL or "" selects everything. The boot checks that use
 * tap_result() directly (CPU, PCI, timers) always run.
 */
void report_set_only(const char *pattern);
/* Whether the test called name runs under the only= pattern (true without one). */
bool report_selected(const char *name);

/*
 * Marks the run partial (options skipped a stage, or the command line had
 * unknown or invalid options): the verdict line then ends "...; partial:
 * REASON, REASON)", e.g. "# cryptoqual: PASS (61 ok, 0 not ok, 12 skipped;
 * partial: bench=off, unknown option foo)". Reasons are the report's own
 * text (escape anything from outside first); at most about 190 bytes are
 * kept, the rest shown as ", ...".
 */
void report_partial(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The reasons so far, "" for a whole run. */
const char *report_partial_reasons(void);

/*
 * The soak pass now running (1.., 0 when none). In a soak pass every `@`
 * record ends " pass=N t=T" and the pass prints what changed: its not ok
 * results (numbered as usual), the diagnostics from its first not ok on,
 * warnings and its records. SKIP results are not printed again (they
 * were, in the first run) but counted in report_skips_hidden(); ok
 * results are neither printed nor numbered nor in report_ok(), but
 * counted in report_oks_quiet() and in the summary's engine rows.
 */
void report_set_pass(unsigned pass);
unsigned report_skips_hidden(void);
unsigned report_oks_quiet(void);
/* A finished soak pass (from 1) and its not ok count, for the summary's soak line. */
void report_soak_pass(unsigned pass, unsigned not_ok);

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

/*
 * The network report's hooks (kernel/run/net_report.c): before_plan runs
 * in report_finish() after the summary lines and before the plan (what it
 * prints are the last lines before the plan); after_verdict runs after
 * the verdict line of report_finish() and report_bail_out(), before the
 * machine exits, halts or resets, and prints nothing. NULL: none.
 */
void report_set_finish_hooks(void (*before_plan)(void), void (*after_verdict)(void));

/*
 * Ends the last stage, prints "# @run ...", the summary (at most 22 "#
 * summary:" lines), the plan and the verdict "# cryptoqual: PASS|FAIL
 * (...)", then exits/halts/reboots.
 */
void report_finish(void) __attribute__((noreturn));

/*
 * "Bail out! reason", then "# cryptoqual: FAIL (...; crashed: reason)" and
 * the crash status. For unrecoverable faults. reason is escaped.
 */
void report_bail_out(const char *reason) __attribute__((noreturn));

#endif
