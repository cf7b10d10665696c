/*
 * driver_run: the drivers stage of the run. It walks the table of drivers
 * (kernel/run/driver_table.c, the only place that names them), turns their
 * probes' absent units and their self-tests' results into TAP lines in
 * table order, and prints their logs (lib/engine/driver.h).
 */
#ifndef CQ_KERNEL_DRIVER_RUN_H
#define CQ_KERNEL_DRIVER_RUN_H

#include "lib/engine/driver.h"

/* ---- Over the table (driver_table.c) ---- */

/* Probes every driver in table order; one SKIP line per absent unit. */
void drivers_probe(const struct driver_facts *f);

/* Runs every driver's self-tests in table order, each under the fault guard. */
void drivers_selftests(void);

/*
 * Prints what the drivers logged since the last call, as
 * `# <driver>: <line>`, and empties the logs. The run calls it at the end
 * of every stage, so a driver's errors appear with the stage that caused
 * them and never inside another stage's lines.
 */
void drivers_flush_logs(void);

/* ---- One driver (driver_run.c; host harnesses use these directly) ---- */

/*
 * Probes d: its log, then a SKIP line per absent unit and a `not ok` per
 * promised unit that is absent (lib/engine/driver.h, driver_unit_promised).
 */
void driver_run_probe(const struct driver *d, const struct driver_facts *f);

/*
 * Runs d's self-tests, each as one TAP line: passed "NAME (NOTE)", failed
 * "NAME: DETAIL", skipped "NAME # SKIP REASON"; a fault in one is that
 * test's `not ok ... # fault: ...`. Its log is printed after each test.
 */
void driver_run_tests(const struct driver *d);

/*
 * expect=none: promised units that are absent are SKIPs, named as such,
 * instead of `not ok` (default false).
 */
void driver_run_expect_none(bool none);

/* Prints d's log lines as `# NAME: LINE` and empties the log. */
void driver_flush_log(const struct driver *d);

#endif
