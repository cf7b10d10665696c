/*
 * driver: the one interface between the qualification run and a driver.
 *
 * kernel/run/driver_table.c holds the table of drivers; kmain iterates it
 * and names no driver. Adding a driver is one folder under drivers/ and one
 * line in that table.
 *
 * A driver prints nothing. Its probe registers engines (lib/engine/engine.h)
 * and says, per unit, why a unit is absent; its self-tests return results;
 * its diagnostics and errors go into its own log (struct drv_log), which the
 * run stage prints, attributed to the driver, at the end of the stage that
 * produced them. So the report's order is the test order, and no driver
 * includes the report header.
 */
#ifndef CQ_LIB_ENGINE_DRIVER_H
#define CQ_LIB_ENGINE_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cpu_info;
struct pci_dev;

/* What a probe may look at: the CPU and PCI facts gathered before it. */
struct driver_facts {
	const struct cpu_info *cpu;	/* decoded CPUID (lib/platform/cpuid.h) */
	const struct pci_dev *pci;	/* the functions the PCI enumeration found */
	int npci;
	bool sse_enabled;		/* CR0/CR4 set up for SSE (kernel/platform/fpu.h) */
};

/*
 * A unit a probe looked for. present == false: the run prints one
 * `ok N - NAME # SKIP REASON` line, so the report says why that unit's
 * tests are missing. A present unit prints nothing here (its engines show
 * in every later stage).
 */
#define DRIVER_UNITS 8
struct driver_unit {
	const char *name;		/* TAP name, e.g. "rng: rdseed source" */
	bool present;
	bool promised;			/* absent although the part promises it (see below) */
	char reason[240];		/* why it is absent (a CPUID bit, a missing PCI function) */
};
struct driver_probe {
	struct driver_unit unit[DRIVER_UNITS];
	unsigned n;
};
/* Records a unit (at most DRIVER_UNITS; more are dropped). reason: NULL when present. */
void driver_unit(struct driver_probe *p, const char *name, const char *reason_fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Records a unit the part promises by a documented fact but that is not
 * there or cannot be used (a Geode LX CPU without a reachable security
 * block; a CentaurHauls CPU whose CPUID 0xC0000001 lists a unit that
 * cannot be enabled): the run prints `not ok N - NAME: REASON` instead of
 * a SKIP, so a box whose engine vanished is no PASS. The kernel option
 * expect=none turns these back into SKIPs (and says so). reason_fmt must
 * name the fact and its source.
 */
void driver_unit_promised(struct driver_probe *p, const char *name, const char *reason_fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A self-test's outcome. */
enum drv_status { DRV_PASS, DRV_FAIL, DRV_SKIP };

/*
 * One self-test of a driver. run(ctx, detail, cap) does the work and
 * returns its status; ctx is the test's own ctx field (e.g. which T_SEL or
 * xstore divisor), so one function serves a family of tests. It writes
 * into detail (cap bytes) the failure text, the skip reason, or a note
 * appended to a passing test's name (empty for none). The run stage runs
 * it under the fault guard and the watchdog, so a fault or a hang is that
 * test's outcome.
 *
 * finding = true marks a probe of behaviour no public source documents
 * (its expected answer is unknown): whatever it returns, and a fault or a
 * hang too, is reported as a finding (`ok N - name # finding: OUTCOME`
 * and a `# @finding` record), never as `not ok`.
 */
struct driver_test {
	const char *name;		/* TAP name: "geode-sb: probe" */
	enum drv_status (*run)(const void *ctx, char *detail, size_t cap);
	const void *ctx;		/* passed to run(); NULL when unused */
	bool finding;			/* undocumented behaviour: report, never judge */
};

/*
 * A driver's log: diagnostics and errors with their detail (register
 * values, counts, the first overrun), kept until the run stage prints them
 * as `# <driver>: <line>` and empties it. Lines past DRV_LOG_LINES before
 * the next print are counted, not kept.
 */
#define DRV_LOG_LINES 24
#define DRV_LOG_LINE_BYTES 320
struct drv_log {
	char line[DRV_LOG_LINES][DRV_LOG_LINE_BYTES];
	unsigned n;			/* lines kept */
	unsigned long dropped;		/* lines not kept (log full) */
};
void drv_log(struct drv_log *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Forgets every line (host tests). */
void drv_log_reset(struct drv_log *l);

struct driver {
	const char *name;		/* "geode-sb", "padlock", "aesni", "rdrand" */
	/* Looks for the units, registers the engines of those present. */
	void (*probe)(const struct driver_facts *f, struct driver_probe *out);
	/* The driver's self-tests (register protocol, guards, wipes), run
	 * after every probe; NULL or count 0 for none. */
	const struct driver_test *tests;
	unsigned ntests;
	struct drv_log *log;		/* NULL: the driver records nothing */
};

#endif
