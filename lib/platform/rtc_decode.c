/* rtc_decode: CMOS clock registers to a date and time. See rtc_decode.h. */
#include "lib/platform/rtc_decode.h"

/* A register value in the clock's format: BCD (both nibbles 0-9) or binary. */
static int field(uint8_t v, bool binary, unsigned lo, unsigned hi, unsigned *out)
{
	unsigned n;
	if (binary) {
		n = v;
	} else {
		if ((v & 0x0F) > 9 || (v >> 4) > 9)
			return -1;
		n = (v >> 4) * 10u + (v & 0x0F);
	}
	if (n < lo || n > hi)
		return -1;
	*out = n;
	return 0;
}

int rtc_decode(const struct rtc_regs *r, struct rtc_time *t)
{
	bool bin = (r->status_b & RTC_B_BINARY) != 0;
	bool h24 = (r->status_b & RTC_B_24H) != 0;
	unsigned yy, cc, h;

	if (field(r->sec, bin, 0, 59, &t->sec) || field(r->min, bin, 0, 59, &t->min) ||
	    field(r->mday, bin, 1, 31, &t->mday) || field(r->mon, bin, 1, 12, &t->mon) ||
	    field(r->year, bin, 0, 99, &yy))
		return -1;
	if (h24) {
		if (field(r->hour, bin, 0, 23, &t->hour))
			return -1;
	} else {
		/* 12-hour mode: 1-12, bit 7 set for PM; 12 AM is 0 h, 12 PM is 12 h. */
		if (field(r->hour & 0x7F, bin, 1, 12, &h))
			return -1;
		t->hour = (h % 12) + ((r->hour & 0x80) ? 12 : 0);
	}
	if (r->have_century) {
		if (field(r->century, bin, 19, 20, &cc))
			return -1;
		t->year = cc * 100 + yy;
	} else {
		t->year = (yy < 70 ? 2000 : 1900) + yy;
	}
	return 0;
}
