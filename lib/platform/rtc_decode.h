/*
 * rtc_decode: the MC146818-compatible CMOS clock's registers as a date and
 * time (registers 0x00 seconds, 0x02 minutes, 0x04 hours, 0x07 day of
 * month, 0x08 month, 0x09 year; status B (0x0B) bit 2 DM: binary instead
 * of BCD, bit 1 24/12: 24-hour mode; in 12-hour mode bit 7 of the hours is
 * PM; the century in the register the ACPI FADT names, often 0x32).
 * Hardware-free; kernel/platform/rtc.c reads the registers.
 */
#ifndef CQ_LIB_RTC_DECODE_H
#define CQ_LIB_RTC_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#define RTC_B_24H     0x02
#define RTC_B_BINARY  0x04

struct rtc_regs {
	uint8_t sec, min, hour, mday, mon, year;
	uint8_t status_b;
	bool have_century;      /* a century register was named and read */
	uint8_t century;
};

struct rtc_time {
	unsigned year, mon, mday, hour, min, sec;
};

/*
 * Decodes r into t. Returns 0, or -1 when a field is not a valid number
 * in its format (a BCD nibble above 9) or out of its range (month 1-12,
 * day 1-31, hours 0-23 / 1-12, minutes and seconds 0-59, century 19-20
 * when given): garbage is never turned into a date. Without a century
 * register a two-digit year below 70 is 20YY, else 19YY.
 */
int rtc_decode(const struct rtc_regs *r, struct rtc_time *t);

#endif
