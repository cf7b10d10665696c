/*
 * rtc: the CMOS real-time clock (MC146818-compatible, ports 0x70/0x71):
 * the box's date and time as its firmware keeps it (local time or UTC, as
 * the firmware was set). Decoding in lib/platform/rtc_decode.c.
 */
#ifndef CQ_KERNEL_RTC_H
#define CQ_KERNEL_RTC_H

#include <stddef.h>

#include "lib/platform/rtc_decode.h"

/*
 * Reads the clock consistently: waits (bounded) for status A's update-in-
 * progress bit (bit 7) to clear, reads every register, and repeats until
 * two reads agree (at most 5 times). The century comes from the register
 * the ACPI FADT names, if any. Returns 0, or -1 with why (n bytes) saying
 * what went wrong (no stable read, registers that are no valid date).
 */
int rtc_read(struct rtc_time *t, char *why, size_t n);

#endif
