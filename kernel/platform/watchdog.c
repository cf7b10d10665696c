/* Watchdog on PIT channel 0 / IRQ 0. See watchdog.h. */
#include "kernel/platform/watchdog.h"

#include "kernel/platform/hw.h"
#include "kernel/platform/x86.h"

#define PIC1_CMD   0x20
#define PIC1_DATA  0x21
#define PIC2_CMD   0xA0
#define PIC2_DATA  0xA1
#define   PIC_ICW1_INIT_ICW4 0x11   /* edge triggered, cascade, ICW4 follows */
#define   PIC_ICW4_8086      0x01
#define   PIC_EOI            0x20   /* OCW2: non-specific end of interrupt */
#define   PIC_READ_ISR       0x0B   /* OCW3: next read of the command port gives the ISR */

#define PIT_CH0    0x40
#define PIT_MODE   0x43
#define   PIT_CH0_LOHI_MODE2 0x34   /* channel 0, lo/hi byte, rate generator, binary */

static struct {
	bool ready;
	unsigned depth;         /* nested arms */
	int level;              /* guard to leave on timeout */
	uint32_t budget_ticks, armed_at;
	volatile uint32_t ticks;
	uint32_t stray;
} wd;

void watchdog_init(void)
{
	hw_outb(PIC1_CMD, PIC_ICW1_INIT_ICW4);
	hw_outb(PIC2_CMD, PIC_ICW1_INIT_ICW4);
	hw_outb(PIC1_DATA, VEC_IRQ0);        /* ICW2: IRQ 0-7 at 32-39 */
	hw_outb(PIC2_DATA, VEC_IRQ0 + 8);    /* IRQ 8-15 at 40-47 */
	hw_outb(PIC1_DATA, 0x04);            /* ICW3: slave on IRQ 2 */
	hw_outb(PIC2_DATA, 0x02);            /* slave identity 2 */
	hw_outb(PIC1_DATA, PIC_ICW4_8086);
	hw_outb(PIC2_DATA, PIC_ICW4_8086);
	hw_outb(PIC1_DATA, 0xFE);            /* only IRQ 0 */
	hw_outb(PIC2_DATA, 0xFF);
	hw_outb(PIT_MODE, PIT_CH0_LOHI_MODE2);
	hw_outb(PIT_CH0, 0);                 /* divisor 0 = 65536 */
	hw_outb(PIT_CH0, 0);
	wd.ready = true;
}

void watchdog_arm(unsigned budget_ms, int level)
{
	if (!wd.ready)
		return;
	if (wd.depth++ > 0)
		return;
	wd.level = level;
	wd.budget_ticks = (uint32_t)(((uint64_t)budget_ms * 1000 + WATCHDOG_TICK_US - 1) / WATCHDOG_TICK_US) + 1;  /* < 2^27 */
	wd.armed_at = wd.ticks;
	x86_sti();
}

void watchdog_disarm(void)
{
	if (wd.depth == 0)
		return;
	if (--wd.depth == 0)
		x86_cli();
}

bool watchdog_armed(void)
{
	return wd.depth > 0;
}

uint32_t watchdog_ticks(void)
{
	return wd.ticks;
}

void watchdog_eoi(unsigned vector)
{
	if (vector >= VEC_IRQ0 + 8)
		hw_outb(PIC2_CMD, PIC_EOI);
	hw_outb(PIC1_CMD, PIC_EOI);
}

int watchdog_tick(void)
{
	watchdog_eoi(VEC_IRQ0);
	wd.ticks++;
	if (wd.depth > 0 && wd.ticks - wd.armed_at >= wd.budget_ticks) {
		wd.depth = 0;       /* the test is left: nothing stays armed */
		return wd.level;
	}
	return -1;
}

/* Masked IRQs do not arrive; IRQ 7 and 15 can be spurious (no ISR bit:
 * no EOI to that PIC, 8259A data sheet). */
void watchdog_irq_other(unsigned vector)
{
	wd.stray++;
	if (vector == VEC_IRQ0 + 7) {
		hw_outb(PIC1_CMD, PIC_READ_ISR);
		if (hw_inb(PIC1_CMD) & 0x80)
			hw_outb(PIC1_CMD, PIC_EOI);
		return;
	}
	if (vector == VEC_IRQ0 + 15) {
		hw_outb(PIC2_CMD, PIC_READ_ISR);
		if (hw_inb(PIC2_CMD) & 0x80)
			hw_outb(PIC2_CMD, PIC_EOI);
		hw_outb(PIC1_CMD, PIC_EOI);     /* the cascade IRQ 2 was real */
		return;
	}
	watchdog_eoi(vector);
}
