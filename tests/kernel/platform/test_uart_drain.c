/*
 * Host test of kernel/platform/console.c's drain (i386 under qemu-i386),
 * run by tests/kernel/platform/uart-drain.t: a 16550 model at 0x3F8 (scratch, LCR,
 * divisor latch, MCR loopback, LSR DR/THRE/TEMT; PC16550D data sheet)
 * whose transmitter holds each byte for a set number of LSR reads.
 * console_drain() must wait until LSR.TEMT (the shift register empty too,
 * not only THRE), give up with the LSR value when TEMT never sets, and
 * not call a stall a timeout when the byte left while the CPU was away.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernel/platform/console.h"
#include "tests/host/hw_host.h"
#include "tests/host/tap_ok.h"

#define BASE 0x3F8

static struct {
	uint8_t scr, lcr, mcr, dll, dlm, rbr;
	bool dr;
	unsigned busy;		/* LSR reads until the byte in the shift register is sent */
	unsigned hold;		/* reads a byte is held for (0: sent at once) */
	bool stuck;		/* TEMT never sets */
	unsigned stall_at;	/* at this LSR read, 10^12 TSC cycles pass (0: never) */
	unsigned lsr_reads, sent;
	bool temt_seen;		/* the last LSR read returned TEMT */
} U;

static uint32_t port_in(void *ctx, uint16_t port, unsigned bytes)
{
	uint8_t lsr;
	(void)ctx;
	(void)bytes;
	switch (port - BASE) {
	case 0:
		if (U.lcr & 0x80)
			return U.dll;
		U.dr = false;
		return U.rbr;
	case 1:
		return (U.lcr & 0x80) ? U.dlm : 0;
	case 3:
		return U.lcr;
	case 4:
		return U.mcr;
	case 5:
		U.lsr_reads++;
		if (U.stall_at && U.lsr_reads == U.stall_at)
			hw_host_tsc_advance(1000000000000ull);
		if (U.busy && !U.stuck)
			U.busy--;
		lsr = (uint8_t)(0x20 | (U.dr ? 0x01 : 0) | (U.busy || U.stuck ? 0 : 0x40));
		U.temt_seen = (lsr & 0x40) != 0;
		return lsr;
	case 7:
		return U.scr;
	default:
		return 0xFF;
	}
}

static void port_out(void *ctx, uint16_t port, uint32_t val, unsigned bytes)
{
	(void)ctx;
	(void)bytes;
	switch (port - BASE) {
	case 0:
		if (U.lcr & 0x80) {
			U.dll = (uint8_t)val;
		} else if (U.mcr & 0x10) {
			U.rbr = (uint8_t)val;	/* loopback */
			U.dr = true;
		} else {
			U.sent++;
			U.busy = U.hold;
		}
		break;
	case 1:
		if (U.lcr & 0x80)
			U.dlm = (uint8_t)val;
		break;
	case 3:
		U.lcr = (uint8_t)val;
		break;
	case 4:
		U.mcr = (uint8_t)val;
		break;
	case 7:
		U.scr = (uint8_t)val;
		break;
	}
}

/* timer.c's calibration, stubbed: 0 (uncalibrated: the drain counts polls) or 1 GHz. */
static uint64_t hz;

uint64_t tsc_hz(void)
{
	return hz;
}

uint64_t tsc_ticks_for_us(uint64_t us)
{
	return us * (hz / 1000000u);
}

static void setup(unsigned hold, bool stuck, unsigned stall_after)
{
	memset(&U, 0, sizeof(U));
	hw_host_reset();
	hw_host_set_ports(port_in, port_out, NULL);
	console_init(0, 115200);
	U.hold = hold;
	console_write("x", 1);
	U.stuck = stuck;
	U.stall_at = stall_after ? U.lsr_reads + stall_after : 0;
	U.lsr_reads = 0;
}

int main(void)
{
	char why[128] = "";
	bool r;

	setup(50, false, 0);
	r = console_drain(why, sizeof(why));
	ok(r && U.sent == 1 && U.temt_seen && U.lsr_reads >= 50,
	   "drain: waits for LSR.TEMT (the byte held for 50 LSR reads), not only THRE");

	setup(0, true, 0);
	r = console_drain(why, sizeof(why));
	ok(!r && strstr(why, "ttyS0 did not drain within 200002 polls (TSC not calibrated)") && strstr(why, "LSR=0x20"),
	   "drain: a transmitter that never empties is a bounded failure that gives the LSR");
	printf("#   %s (%u LSR reads)\n", why, U.lsr_reads);
	ok(U.lsr_reads < 1000000, "drain: the failed wait is bounded (fewer than 10^6 polls)");

	/* With the TSC calibrated (1 GHz here): the CPU is away (10^12 cycles
	 * pass) right after the 100th LSR read, while the byte leaves; the
	 * last look after the deadline finds the UART empty: no timeout. */
	hz = 1000000000ull;
	setup(101, false, 100);
	r = console_drain(why, sizeof(why));
	ok(r && U.temt_seen && U.lsr_reads == 101,
	   "drain: a stall past the deadline while the byte left is no timeout (the last look)");
	setup(0, true, 0);
	r = console_drain(why, sizeof(why));
	ok(!r && strstr(why, "ttyS0 did not drain within 50 ms") && strstr(why, "LSR=0x20"), "drain: on the TSC clock a UART that never empties still fails, bounded");

	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
