/* wait: bounded polling with a last look after the deadline. See wait.h. */
#include "lib/util/wait.h"

bool wait_poll_max(bool (*done)(void *ctx), void *ctx, uint64_t (*now)(void), uint64_t limit,
		   unsigned long max_polls, uint64_t *elapsed, unsigned long *polls)
{
	uint64_t t0 = now(), el;
	unsigned long n = 1;
	bool ok;

	while (!(ok = done(ctx))) {
		el = now() - t0;
		if (el > limit || (max_polls && n >= max_polls)) {
			/* The deadline has passed: one more look before a timeout. */
			n++;
			ok = done(ctx);
			break;
		}
		n++;
	}
	el = now() - t0;
	if (elapsed)
		*elapsed = el;
	if (polls)
		*polls = n;
	return ok;
}

bool wait_poll(bool (*done)(void *ctx), void *ctx, uint64_t (*now)(void), uint64_t limit,
	       uint64_t *elapsed, unsigned long *polls)
{
	return wait_poll_max(done, ctx, now, limit, 0, elapsed, polls);
}

static uint64_t poll_ticks;

uint64_t wait_poll_count(void)
{
	return ++poll_ticks;
}
