/*
 * wait: the one bounded wait of the tree. Every poll of a device for a
 * condition (a DMA done bit, an RNG data-valid flag, a reset bit that
 * clears, a UART that drains) goes through wait_poll(), so each wait has a
 * limit and each timeout was seen with the device's own eyes after the
 * deadline.
 *
 * Why the last look: a poll loop that reads the clock, finds the deadline
 * passed and declares a timeout can be wrong when the CPU was away between
 * its last poll and that clock read (an SMI on a real board, a descheduled
 * emulator on a loaded host): the device finished long ago, nobody looked.
 * wait_poll() polls once more after the deadline and reports a timeout
 * only when that poll fails too.
 */
#ifndef CQ_LIB_UTIL_WAIT_H
#define CQ_LIB_UTIL_WAIT_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Polls done(ctx) until it returns true or until now() has advanced
 * limit ticks past its value at the start (ticks: whatever now() counts,
 * TSC cycles in the kernel: hw_rdtsc()). After the deadline it polls once
 * more. Returns true when done(ctx) returned true (also on that last
 * look), false on a timeout. *elapsed (NULL: not wanted) gets the ticks
 * from the start to a clock read after the last poll; *polls (NULL: not
 * wanted) the number of done() calls: at least 1, and on a timeout at
 * least 2 (the polls before the deadline and the last look).
 */
bool wait_poll(bool (*done)(void *ctx), void *ctx, uint64_t (*now)(void), uint64_t limit,
	       uint64_t *elapsed, unsigned long *polls);

/*
 * wait_poll() with a backstop: it also stops after max_polls polls (then
 * looks once more), so even a clock that does not advance cannot hang the
 * caller; max_polls 0 is no backstop (wait_poll() itself).
 */
bool wait_poll_max(bool (*done)(void *ctx), void *ctx, uint64_t (*now)(void), uint64_t limit,
		   unsigned long max_polls, uint64_t *elapsed, unsigned long *polls);

/*
 * A clock for waits bounded by a number of polls rather than by time (a
 * UART before the TSC is calibrated, the calibration itself): it advances
 * one tick per read, and wait_poll() reads it once per poll, so a limit
 * of n ticks allows about n polls.
 */
uint64_t wait_poll_count(void);

#endif
