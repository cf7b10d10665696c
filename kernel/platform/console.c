/*
 * 16550 UART and VGA text console. Register map: National Semiconductor
 * PC16550D data sheet, table II (RBR/THR 0, IER 1, FCR 2, LCR 3, MCR 4,
 * LSR 5, SCR 7; DLL/DLM at 0/1 while LCR.DLAB is set).
 */
#include "kernel/platform/console.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "lib/util/fmt.h"
#include "kernel/platform/hw.h"
#include "kernel/platform/timer.h"
#include "lib/util/wait.h"

#define UART_THR 0
#define UART_DLL 0
#define UART_IER 1
#define UART_DLM 1
#define UART_FCR 2
#define UART_LCR 3
#define   LCR_8N1   0x03
#define   LCR_DLAB  0x80
#define UART_RBR 0
#define UART_MCR 4
#define   MCR_DTR_RTS 0x03
#define   MCR_LOOP    0x10    /* loopback: the transmitter feeds the receiver */
#define UART_LSR 5
#define   LSR_DR    0x01      /* data ready */
#define   LSR_THRE  0x20      /* transmit holding register empty */
#define   LSR_TEMT  0x40      /* transmitter empty: holding and shift register (PC16550D) */
#define UART_SCR 7

#define UART_CLOCK_DIV 115200 /* 1.8432 MHz / 16 */
#define UART_TX_SPINS  200000 /* bounded wait per byte: ~2 ms at 9600 baud needs far fewer */

static const uint16_t uart_ports[4] = { 0x3F8, 0x2F8, 0x3E8, 0x2E8 };

static struct {
	int index;          /* ttyS index, -1 when no UART answered */
	uint16_t base;
	unsigned baud;
	const char *how;    /* where the speed came from */
	unsigned tx_timeouts;
	int missing;        /* the ttyS asked for when it did not answer, else -1 */
	const char *why;    /* which check it failed */
} uart = { -1, 0, 0, "none", 0, -1, NULL };

static bool uart_present(uint16_t base)
{
	uint8_t saved = hw_inb(base + UART_SCR);
	bool ok;
	hw_outb(base + UART_SCR, 0x5A);
	ok = hw_inb(base + UART_SCR) == 0x5A;
	hw_outb(base + UART_SCR, 0xA5);
	ok = ok && hw_inb(base + UART_SCR) == 0xA5;
	hw_outb(base + UART_SCR, saved);
	return ok;
}

/* Divisor latch as the firmware left it, or 0. */
static unsigned uart_current_divisor(uint16_t base, uint8_t *lcr_out)
{
	uint8_t lcr = hw_inb(base + UART_LCR);
	unsigned div;
	hw_outb(base + UART_LCR, lcr | LCR_DLAB);
	div = hw_inb(base + UART_DLL) | ((unsigned)hw_inb(base + UART_DLM) << 8);
	hw_outb(base + UART_LCR, lcr);
	*lcr_out = lcr;
	return div;
}

static void uart_program(uint16_t base, unsigned baud)
{
	unsigned div = UART_CLOCK_DIV / baud;
	hw_outb(base + UART_IER, 0x00);            /* we poll */
	hw_outb(base + UART_LCR, LCR_DLAB);
	hw_outb(base + UART_DLL, (uint8_t)(div & 0xFF));
	hw_outb(base + UART_DLM, (uint8_t)(div >> 8));
	hw_outb(base + UART_LCR, LCR_8N1);
	hw_outb(base + UART_FCR, 0x07);            /* enable and clear FIFOs */
	hw_outb(base + UART_MCR, MCR_DTR_RTS);
}

/* A UART's LSR bit to wait for (uart_lsr_has). */
struct lsr_bit {
	uint16_t base;
	uint8_t bit;
};

static bool uart_lsr_has(void *ctx)
{
	const struct lsr_bit *w = ctx;
	return (hw_inb(w->base + UART_LSR) & w->bit) != 0;
}

/* Waits (at most UART_TX_SPINS polls) for the transmit holding register of the UART at base. */
static bool uart_thr_empty(uint16_t base)
{
	struct lsr_bit thre = { base, LSR_THRE };
	return wait_poll(uart_lsr_has, &thre, wait_poll_count, UART_TX_SPINS, NULL, NULL);
}

/*
 * The data path works: in loopback mode (PC16550D MCR bit 4) a byte written
 * to THR must arrive in RBR. Bounded wait; MCR restored; RBR drained.
 */
static bool uart_loopback_ok(uint16_t base)
{
	struct lsr_bit rx = { base, LSR_DR };
	uint8_t mcr = hw_inb(base + UART_MCR);
	unsigned spins;
	bool ok = false;

	hw_outb(base + UART_MCR, MCR_LOOP | MCR_DTR_RTS);
	for (spins = 0; spins < 32 && (hw_inb(base + UART_LSR) & LSR_DR); spins++)
		(void)hw_inb(base + UART_RBR);
	hw_outb(base + UART_THR, 0xA5);
	if (wait_poll(uart_lsr_has, &rx, wait_poll_count, UART_TX_SPINS, NULL, NULL))
		ok = hw_inb(base + UART_RBR) == 0xA5;
	hw_outb(base + UART_MCR, mcr);
	for (spins = 0; spins < 32 && (hw_inb(base + UART_LSR) & LSR_DR); spins++)
		(void)hw_inb(base + UART_RBR);
	return ok;
}

/* Sets up ttyS<index> if it answers; NULL, or which check failed. */
static const char *uart_try(int index, unsigned baud)
{
	uint16_t base = uart_ports[index];
	uint8_t lcr;
	unsigned div;

	if (!uart_present(base))
		return "its scratch register does not hold a value";
	if (baud != 0) {
		uart.baud = baud;
		uart.how = "set by console= option";
	} else {
		div = uart_current_divisor(base, &lcr);
		if (div != 0 && (lcr & 0x03) == LCR_8N1 && !(lcr & LCR_DLAB)) {
			uart.baud = UART_CLOCK_DIV / div;
			uart.how = "kept the speed the firmware set";
		} else {
			uart.baud = 115200;
			uart.how = "UART was unprogrammed: default";
		}
	}
	uart_program(base, uart.baud);
	if (!uart_loopback_ok(base))
		return "a byte sent in loopback mode did not come back";
	uart.index = index;
	uart.base = base;
	return NULL;
}

void console_init(int port, unsigned baud)
{
	int index = port < 0 ? 0 : port, i;
	const char *why;

	if (index > 3)
		index = 0;
	uart.index = -1;
	uart.missing = -1;
	uart.why = NULL;
	why = uart_try(index, baud);
	if (!why)
		return;
	/* Not there: say so (console_warning, on the VGA mirror too) and fall
	 * back to ttyS0, else to the first port that answers. */
	uart.missing = index;
	uart.why = why;
	for (i = 0; i < 4; i++) {
		if (i == index)
			continue;
		if (!uart_try(i, baud))
			return;
	}
	uart.how = "no UART answered";
}

bool console_warning(char *buf, size_t n)
{
	if (uart.missing < 0)
		return false;
	if (uart.index >= 0)
		fmt_snprintf(buf, n, "console: ttyS%d (io 0x%x) did not answer (%s): the report goes to ttyS%d (io 0x%x) instead",
			     uart.missing, uart_ports[uart.missing], uart.why, uart.index, uart.base);
	else
		fmt_snprintf(buf, n, "console: ttyS%d (io 0x%x) did not answer (%s), nor did any other UART: the report is only on the VGA screen",
			     uart.missing, uart_ports[uart.missing], uart.why);
	return true;
}

void console_describe(char *buf, size_t n)
{
	if (uart.index < 0) {
		fmt_snprintf(buf, n, "no serial port (%s)", uart.how);
		return;
	}
	fmt_snprintf(buf, n, "ttyS%d io=0x%x %u 8N1 (%s)", uart.index, uart.base,
		     uart.baud, uart.how);
}

static void uart_putc(char c)
{
	if (!uart_thr_empty(uart.base))
		uart.tx_timeouts++;	/* a stuck UART must not hang the run */
	hw_outb(uart.base + UART_THR, (uint8_t)c);
}

/* ---- VGA text mirror (80x25 colour text at 0xB8000) ---- */

#define VGA_TEXT   0xB8000
#define VGA_COLS   80
#define VGA_ROWS   25
#define VGA_ATTR   0x07
#define VGA_CRTC_INDEX 0x3D4
#define VGA_CRTC_DATA  0x3D5
#define CRTC_CURSOR_LO 0x0F

static struct {
	int state;          /* 0 unknown, 1 present, -1 absent */
	int col;
	uint16_t shadow[VGA_ROWS][VGA_COLS];
} vga;

/* A VGA answers on its CRT controller: the cursor register reads back. */
static bool vga_probe(void)
{
	uint8_t saved, back;
	hw_outb(VGA_CRTC_INDEX, CRTC_CURSOR_LO);
	if (hw_inb(VGA_CRTC_INDEX) != CRTC_CURSOR_LO)
		return false;
	saved = hw_inb(VGA_CRTC_DATA);
	hw_outb(VGA_CRTC_DATA, 0x5A);
	back = hw_inb(VGA_CRTC_DATA);
	hw_outb(VGA_CRTC_DATA, saved);
	return back == 0x5A;
}

static void vga_flush_row(int row)
{
	int c;
	for (c = 0; c < VGA_COLS; c++)
		hw_mmio_write16(VGA_TEXT + 2u * (unsigned)(row * VGA_COLS + c), vga.shadow[row][c]);
}

static void vga_newline(void)
{
	int r, c;
	memmove(vga.shadow[0], vga.shadow[1], sizeof(vga.shadow[0]) * (VGA_ROWS - 1));
	for (c = 0; c < VGA_COLS; c++)
		vga.shadow[VGA_ROWS - 1][c] = (VGA_ATTR << 8) | ' ';
	for (r = 0; r < VGA_ROWS; r++)
		vga_flush_row(r);
	vga.col = 0;
}

static void vga_putc(char c)
{
	if (vga.state == 0) {
		int r, k;
		vga.state = vga_probe() ? 1 : -1;
		if (vga.state > 0) {
			for (r = 0; r < VGA_ROWS; r++)
				for (k = 0; k < VGA_COLS; k++)
					vga.shadow[r][k] = (VGA_ATTR << 8) | ' ';
			for (r = 0; r < VGA_ROWS; r++)
				vga_flush_row(r);
		}
	}
	if (vga.state < 0)
		return;
	if (c == '\n') {
		vga_newline();
		return;
	}
	if (c == '\r')
		return;
	if (vga.col >= VGA_COLS)
		vga_newline();
	vga.shadow[VGA_ROWS - 1][vga.col] = (uint16_t)((VGA_ATTR << 8) | (uint8_t)c);
	hw_mmio_write16(VGA_TEXT + 2u * (unsigned)((VGA_ROWS - 1) * VGA_COLS + vga.col),
			vga.shadow[VGA_ROWS - 1][vga.col]);
	vga.col++;
}

static void (*console_tee)(const char *s, size_t len);

void console_set_tee(void (*tee)(const char *s, size_t len))
{
	console_tee = tee;
}

void console_write(const char *s, size_t len)
{
	size_t i;
	for (i = 0; i < len; i++) {
		if (uart.index >= 0) {
			if (s[i] == '\n')
				uart_putc('\r');
			uart_putc(s[i]);
		}
		vga_putc(s[i]);
	}
	if (console_tee)
		console_tee(s, len);
}

bool console_drain(char *why, size_t cap)
{
	struct lsr_bit temt = { uart.base, LSR_TEMT };
	uint64_t elapsed = 0;
	unsigned long polls = 0;
	bool tsc = tsc_hz() != 0;

	if (uart.index < 0)
		return true;
	if (wait_poll(uart_lsr_has, &temt, tsc ? hw_rdtsc : wait_poll_count,
		      tsc ? tsc_ticks_for_us(CONSOLE_DRAIN_US) : UART_TX_SPINS, &elapsed, &polls))
		return true;
	if (tsc)
		fmt_snprintf(why, cap, "ttyS%d did not drain within %u ms (%lu polls): LSR=0x%02x", uart.index,
			     CONSOLE_DRAIN_US / 1000, polls, hw_inb(uart.base + UART_LSR));
	else
		fmt_snprintf(why, cap, "ttyS%d did not drain within %lu polls (TSC not calibrated): LSR=0x%02x",
			     uart.index, polls, hw_inb(uart.base + UART_LSR));
	return false;
}

void console_emergency(const char *s)
{
	uint16_t base = uart.index >= 0 ? uart.base : uart_ports[0];
	for (; *s; s++) {
		if (*s == '\n') {
			uart_thr_empty(base);
			hw_outb(base + UART_THR, '\r');
		}
		uart_thr_empty(base);
		hw_outb(base + UART_THR, (uint8_t)*s);
	}
}
