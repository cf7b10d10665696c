/* Unit tests for lib/util/wait.c: bounded polls, and no false timeout after a stall. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>

#include "lib/util/wait.h"

/*
 * A scripted device and clock: the device becomes ready at poll number
 * ready_at (0: never); each clock read advances the clock by step ticks,
 * except the read that follows poll number stall_after, which jumps by
 * stall ticks (the CPU away in an SMI between that poll and the deadline
 * check).
 */
static struct {
	unsigned long polls, ready_at, stall_after;
	uint64_t clock, step, stall;
} dev;

static bool dev_done(void *ctx)
{
	(void)ctx;
	dev.polls++;
	return dev.ready_at && dev.polls >= dev.ready_at;
}

static uint64_t dev_now(void)
{
	if (dev.stall_after && dev.polls == dev.stall_after) {
		dev.stall_after = 0;
		dev.clock += dev.stall;
	} else {
		dev.clock += dev.step;
	}
	return dev.clock;
}

static void setup_dev(unsigned long ready_at, unsigned long stall_after, uint64_t stall)
{
	dev.polls = 0;
	dev.ready_at = ready_at;
	dev.stall_after = stall_after;
	dev.clock = 1000;
	dev.step = 1;
	dev.stall = stall;
}

/* Ready at once: one poll, success. */
static void ready_at_once(void **state)
{
	unsigned long polls = 0;
	uint64_t el = 99;
	(void)state;
	setup_dev(1, 0, 0);
	assert_true(wait_poll(dev_done, NULL, dev_now, 100, &el, &polls));
	assert_int_equal(polls, 1);
	assert_true(el <= 2);
}

/* Ready after some polls, inside the limit. */
static void ready_inside_limit(void **state)
{
	unsigned long polls = 0;
	(void)state;
	setup_dev(50, 0, 0);
	assert_true(wait_poll(dev_done, NULL, dev_now, 100, NULL, &polls));
	assert_int_equal(polls, 50);
}

/* Never ready: a timeout, after the limit has passed, with the last look counted. */
static void never_ready_times_out(void **state)
{
	unsigned long polls = 0;
	uint64_t el = 0;
	(void)state;
	setup_dev(0, 0, 0);
	assert_false(wait_poll(dev_done, NULL, dev_now, 100, &el, &polls));
	assert_true(el > 100);
	/* 101 polls before the clock passed 100 ticks, then the last look. */
	assert_int_equal(polls, 102);
	assert_int_equal(dev.polls, polls);
}

/*
 * The stall: poll 3 finds the device busy, then the CPU is away for 10^9
 * ticks; the device finished meanwhile (ready from poll 4 on). The clock
 * read after poll 3 is past the deadline: only the last look can see the
 * device done, and it must, so this is no timeout.
 */
static void stall_before_deadline_check_is_no_timeout(void **state)
{
	unsigned long polls = 0;
	(void)state;
	setup_dev(4, 3, 1000000000ull);
	assert_true(wait_poll(dev_done, NULL, dev_now, 100, NULL, &polls));
	assert_int_equal(polls, 4);
}

/* A limit of 0: the first poll, then the last look. */
static void zero_limit_still_looks_twice(void **state)
{
	unsigned long polls = 0;
	(void)state;
	setup_dev(2, 0, 0);
	assert_true(wait_poll(dev_done, NULL, dev_now, 0, NULL, &polls));
	assert_int_equal(polls, 2);
	setup_dev(0, 0, 0);
	assert_false(wait_poll(dev_done, NULL, dev_now, 0, NULL, &polls));
	assert_int_equal(polls, 2);
}

/*
 * The poll backstop: a clock that never advances (step 0) cannot hang the
 * wait; after max_polls polls it looks once more and gives up. A device
 * ready on that last look is no timeout.
 */
static void max_polls_bounds_a_stopped_clock(void **state)
{
	unsigned long polls = 0;
	(void)state;
	setup_dev(0, 0, 0);
	dev.step = 0;
	assert_false(wait_poll_max(dev_done, NULL, dev_now, 100, 50, NULL, &polls));
	assert_int_equal(polls, 51);
	setup_dev(51, 0, 0);
	dev.step = 0;
	assert_true(wait_poll_max(dev_done, NULL, dev_now, 100, 50, NULL, &polls));
	assert_int_equal(polls, 51);
	/* The clock's limit still counts when the backstop is further away. */
	setup_dev(0, 0, 0);
	assert_false(wait_poll_max(dev_done, NULL, dev_now, 10, 1000, NULL, &polls));
	assert_int_equal(polls, 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ready_at_once),
		cmocka_unit_test(ready_inside_limit),
		cmocka_unit_test(never_ready_times_out),
		cmocka_unit_test(stall_before_deadline_check_is_no_timeout),
		cmocka_unit_test(zero_limit_still_looks_twice),
		cmocka_unit_test(max_polls_bounds_a_stopped_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
