/* rtc: the CMOS real-time clock. See rtc.h. */
#include "kernel/platform/rtc.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kernel/platform/acpi.h"
#include "kernel/platform/hw.h"
#include "lib/util/fmt.h"

#define CMOS_INDEX  0x70
#define CMOS_DATA   0x71
#define REG_A       0x0A
#define  REG_A_UIP  0x80    /* update in progress: registers may change within 244 us */
#define REG_B       0x0B
#define UIP_POLLS   100000  /* port reads (about 1 us each): well over one update cycle */
#define READS       5

static uint8_t cmos(uint8_t reg)
{
	hw_outb(CMOS_INDEX, reg);
	return hw_inb(CMOS_DATA);
}

static bool read_once(struct rtc_regs *r, uint8_t century_reg)
{
	unsigned i;
	for (i = 0; i < UIP_POLLS && (cmos(REG_A) & REG_A_UIP); i++)
		;
	if (i == UIP_POLLS)
		return false;
	memset(r, 0, sizeof(*r));
	r->sec = cmos(0x00);
	r->min = cmos(0x02);
	r->hour = cmos(0x04);
	r->mday = cmos(0x07);
	r->mon = cmos(0x08);
	r->year = cmos(0x09);
	r->status_b = cmos(REG_B);
	if (century_reg) {
		r->have_century = true;
		r->century = cmos(century_reg);
	}
	return true;
}

int rtc_read(struct rtc_time *t, char *why, size_t n)
{
	struct acpi_pm_timer acpi;
	struct rtc_regs a, b;
	uint8_t century_reg = 0;
	unsigned i;

	memset(&acpi, 0, sizeof(acpi));
	if (acpi_find_pm_timer(&acpi) && acpi.century >= 0x0E && acpi.century < 0x80)
		century_reg = acpi.century;
	if (!read_once(&a, century_reg)) {
		fmt_snprintf(why, n, "update-in-progress bit never cleared (status A 0x%02x)", cmos(REG_A));
		return -1;
	}
	for (i = 0; i < READS; i++) {
		if (!read_once(&b, century_reg))
			break;
		if (memcmp(&a, &b, sizeof(a)) == 0) {
			if (rtc_decode(&a, t) == 0)
				return 0;
			fmt_snprintf(why, n, "registers are no valid date (sec %02x min %02x hour %02x day %02x month %02x year %02x status B %02x)",
				     a.sec, a.min, a.hour, a.mday, a.mon, a.year, a.status_b);
			return -1;
		}
		a = b;
	}
	fmt_snprintf(why, n, "no two reads agreed in %u tries", READS);
	return -1;
}
