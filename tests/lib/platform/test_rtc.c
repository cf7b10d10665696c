/* Unit tests for lib/platform/rtc_decode.c: BCD/binary, 12/24-hour, century, garbage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/platform/rtc_decode.h"

static void bcd_24h_with_century(void **state)
{
	struct rtc_regs r = { 0x00, 0x00, 0x10, 0x01, 0x12, 0x26, RTC_B_24H, true, 0x20 };
	struct rtc_time t;
	(void)state;
	assert_int_equal(rtc_decode(&r, &t), 0);
	assert_int_equal(t.year, 2026);
	assert_int_equal(t.mon, 12);
	assert_int_equal(t.mday, 1);
	assert_int_equal(t.hour, 10);
	assert_int_equal(t.min, 0);
	assert_int_equal(t.sec, 0);
	r.sec = 0x59; r.min = 0x07; r.hour = 0x23;
	assert_int_equal(rtc_decode(&r, &t), 0);
	assert_int_equal(t.hour, 23);
	assert_int_equal(t.min, 7);
	assert_int_equal(t.sec, 59);
}

static void binary_mode(void **state)
{
	struct rtc_regs r = { 59, 30, 23, 31, 12, 99, RTC_B_24H | RTC_B_BINARY, true, 19 };
	struct rtc_time t;
	(void)state;
	assert_int_equal(rtc_decode(&r, &t), 0);
	assert_int_equal(t.year, 1999);
	assert_int_equal(t.hour, 23);
	assert_int_equal(t.sec, 59);
	r.hour = 24;
	assert_int_equal(rtc_decode(&r, &t), -1);
}

static void twelve_hour(void **state)
{
	struct rtc_regs r = { 0, 0, 0x12, 1, 1, 0x26, 0, false, 0 };
	struct rtc_time t;
	(void)state;
	assert_int_equal(rtc_decode(&r, &t), 0);
	assert_int_equal(t.hour, 0);             /* 12 AM */
	r.hour = 0x80 | 0x12;
	assert_int_equal(rtc_decode(&r, &t), 0);
	assert_int_equal(t.hour, 12);            /* 12 PM */
	r.hour = 0x80 | 0x01;
	assert_int_equal(rtc_decode(&r, &t), 0);
	assert_int_equal(t.hour, 13);            /* 1 PM */
	r.hour = 0x80 | 0x11;
	assert_int_equal(rtc_decode(&r, &t), 0);
	assert_int_equal(t.hour, 23);
	r.hour = 0x00;                           /* no 0 o'clock in 12-hour mode */
	assert_int_equal(rtc_decode(&r, &t), -1);
	r.status_b = RTC_B_BINARY;
	r.year = 26;
	r.hour = 0x80 | 11;
	assert_int_equal(rtc_decode(&r, &t), 0);
	assert_int_equal(t.hour, 23);
	/* Without a century register: 26 is 2026, 99 is 1999. */
	assert_int_equal(t.year, 2026);
}

static void garbage_is_not_a_date(void **state)
{
	struct rtc_regs r = { 0x00, 0x00, 0x10, 0x01, 0x12, 0x26, RTC_B_24H, true, 0x20 };
	struct rtc_time t;
	(void)state;
	r.sec = 0x5A;  assert_int_equal(rtc_decode(&r, &t), -1); r.sec = 0;
	r.sec = 0x1A;  assert_int_equal(rtc_decode(&r, &t), -1); r.sec = 0;   /* 1A is no BCD, though 26 would fit */
	r.min = 0x60;  assert_int_equal(rtc_decode(&r, &t), -1); r.min = 0;
	r.mon = 0x13;  assert_int_equal(rtc_decode(&r, &t), -1); r.mon = 0x12;
	r.mon = 0x00;  assert_int_equal(rtc_decode(&r, &t), -1); r.mon = 0x12;
	r.mday = 0x32; assert_int_equal(rtc_decode(&r, &t), -1); r.mday = 1;
	r.year = 0xFF; assert_int_equal(rtc_decode(&r, &t), -1); r.year = 0x26;
	r.century = 0x21; assert_int_equal(rtc_decode(&r, &t), -1); r.century = 0x20;
	/* An absent chip reads all ones. */
	memset(&r, 0xFF, sizeof(r));
	r.have_century = false;
	assert_int_equal(rtc_decode(&r, &t), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bcd_24h_with_century),
		cmocka_unit_test(binary_mode),
		cmocka_unit_test(twelve_hour),
		cmocka_unit_test(garbage_is_not_a_date),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
