/*
 * Watchdog: PIT channel 0 ticking IRQ 0 through the 8259 PIC, so that a
 * test that never returns (a spin, a wait without a bound, a wrecked stack)
 * is stopped, reported `not ok ... # timeout` and the run goes on.
 *
 * The kernel stays polled: interrupts are enabled only while a test runs
 * under tap_run() (kernel/run/report.c), and only IRQ 0 is unmasked. The
 * tick is PIT channel 0 in mode 2 with the largest divisor, 65536 / 1.193182
 * MHz = 54.9 ms (Intel 8254 data sheet); each tick costs about a hundred
 * instructions, a few parts per million of a benchmark.
 * PIC programming: Intel 8259A data sheet (ICW1-4, OCW2 EOI, OCW3 read ISR);
 * the IRQs go to vectors 32-47, clear of the CPU's exceptions.
 */
#ifndef CQ_KERNEL_WATCHDOG_H
#define CQ_KERNEL_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/platform/exceptions.h"

#define WATCHDOG_TICK_US    54925u    /* 65536 / 1193182 Hz */

/* Remaps and masks the PICs (all but IRQ 0) and starts PIT channel 0.
 * Interrupts stay disabled. Call once, after gdt_idt_init(). */
void watchdog_init(void);

/*
 * Arms the watchdog for the guard about to be pushed (the next guard_run,
 * at level guard_level()): after budget_ms (rounded up to whole ticks)
 * watchdog_tick() names that level, and exception_dispatch() leaves it with
 * FAULT_TIMEOUT. Enables interrupts. Nested arms keep the outer budget.
 * watchdog_disarm() undoes one arm; the last one disables interrupts.
 * The watchdog calls nothing in exceptions.c: the caller gives the level.
 */
void watchdog_arm(unsigned budget_ms, int level);
void watchdog_disarm(void);
bool watchdog_armed(void);

/* Ticks seen since watchdog_init() (each WATCHDOG_TICK_US). */
uint32_t watchdog_ticks(void);

/*
 * From exception_dispatch(): IRQ 0, and any other (stray or spurious) IRQ.
 * watchdog_tick() returns the guard level to leave when the armed budget
 * has run out (and disarms), else -1.
 */
int watchdog_tick(void);
void watchdog_irq_other(unsigned vector);
/* End of interrupt for an IRQ vector that will not return normally. */
void watchdog_eoi(unsigned vector);

#endif
