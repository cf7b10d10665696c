/*
 * Unit tests for lib/platform/pci_enum.c (enumeration, BAR sizing), lib/platform/pci_format.c
 * and lib/host/pci_model.c, on synthetic machines built with the model.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lib/platform/pci_enum.h"
#include "lib/host/pci_model.h"

#define CLS(c, s, p, r) ((uint32_t)(c) << 24 | (s) << 16 | (p) << 8 | (r))
#define ETH	CLS(0x02, 0x00, 0x00, 0x01)
#define HOSTBR	CLS(0x06, 0x00, 0x00, 0x00)
#define PCIBR	CLS(0x06, 0x04, 0x00, 0x00)

static struct pci_model model;
static struct pci_cfg_ops ops;
static struct pci_dev devs[64];

struct warnings {
	int n;
	char last[160];
};
static struct warnings warns;

static void collect(void *ctx, const char *msg)
{
	struct warnings *w = ctx;

	w->n++;
	strncpy(w->last, msg, sizeof w->last - 1);
}

static int setup(void **state)
{
	(void)state;
	pci_model_init(&model);
	pci_model_ops(&model, &ops);
	memset(devs, 0, sizeof devs);
	memset(&warns, 0, sizeof warns);
	return 0;
}

static int scan(void)
{
	return pci_enumerate(&ops, devs, 64, collect, &warns);
}

static struct pci_model_fn *add(unsigned bus, unsigned dev, unsigned fn,
    uint16_t device, uint32_t cls, uint8_t ht)
{
	struct pci_model_fn *f = pci_model_add(&model, bus, dev, fn, 0x8086,
	    device, cls, ht);
	assert_non_null(f);
	return f;
}

static struct pci_model_fn *bridge(unsigned bus, unsigned dev, uint8_t sec,
    uint8_t sub)
{
	struct pci_model_fn *f = add(bus, dev, 0, 0x244e, PCIBR, PCI_HDR_BRIDGE);

	pci_model_set_buses(f, bus, sec, sub);
	return f;
}

static void assert_bdf(const struct pci_dev *d, unsigned bus, unsigned dev,
    unsigned fn)
{
	assert_int_equal(d->bus, bus);
	assert_int_equal(d->dev, dev);
	assert_int_equal(d->fn, fn);
}

static void test_mech1_address(void **state)
{
	(void)state;
	assert_int_equal(pci_mech1_address(0, 0, 0, 0), 0x80000000u);
	assert_int_equal(pci_mech1_address(0, 1, 2, 0x10), 0x80000A10u);
	assert_int_equal(pci_mech1_address(0, 0x14, 0, 0x3C), 0x8000A03Cu);
	assert_int_equal(pci_mech1_address(255, 31, 7, 0xFC), 0x80FFFFFCu);
	assert_int_equal(pci_mech1_address(1, 0, 0, 0x13), 0x80010010u);
}

static void test_model_registers(void **state)
{
	struct pci_model_fn *f = add(0, 3, 0, 0x1234, ETH, 0);

	(void)state;
	pci_model_poke32(f, PCI_CMD, 0x82100000);	/* status bits 15, 9, 4 */
	assert_int_equal(ops.read32(&model, 0, 3, 0, PCI_ID), 0x12348086);
	assert_int_equal(ops.read32(&model, 0, 3, 1, PCI_ID), 0xFFFFFFFF);
	assert_int_equal(ops.read32(&model, 0, 4, 0, PCI_CLASS), 0xFFFFFFFF);
	ops.write32(&model, 0, 3, 0, PCI_ID, 0);
	assert_int_equal(ops.read32(&model, 0, 3, 0, PCI_ID), 0x12348086);
	ops.write32(&model, 0, 3, 0, PCI_CLASS, 0);
	assert_int_equal(ops.read32(&model, 0, 3, 0, PCI_CLASS), ETH);
	/* command: memory + bus master stick, reserved bits do not;
	 * status bit 15 is write-1-to-clear, bits 9 and 4 read-only */
	ops.write32(&model, 0, 3, 0, PCI_CMD, 0x8210FFF6);
	assert_int_equal(ops.read32(&model, 0, 3, 0, PCI_CMD), 0x02100546);
	ops.write32(&model, 0, 3, 0, PCI_CMD, 0x00000000);
	assert_int_equal(ops.read32(&model, 0, 3, 0, PCI_CMD), 0x02100000);
	/* device-specific bytes are storage */
	ops.write32(&model, 0, 3, 0, 0x40, 0xCAFEF00D);
	assert_int_equal(ops.read32(&model, 0, 3, 0, 0x40), 0xCAFEF00D);
	assert_int_equal(model.writes, 5);
}

static void test_model_multifunction_bit(void **state)
{
	(void)state;
	add(0, 5, 0, 0x1111, ETH, 0);
	assert_int_equal(ops.read32(&model, 0, 5, 0, PCI_BHLC) >> 16 & 0xFF, 0);
	add(0, 5, 3, 0x2222, ETH, 0);
	assert_int_equal(ops.read32(&model, 0, 5, 0, PCI_BHLC) >> 16 & 0xFF,
	    PCI_HDR_MF);
	assert_int_equal(ops.read32(&model, 0, 5, 3, PCI_BHLC) >> 16 & 0xFF, 0);
}

static void test_model_bar_rules(void **state)
{
	struct pci_model_fn *f = add(0, 1, 0, 0x1, ETH, 0);
	struct pci_model_fn *b = bridge(0, 2, 1, 1);

	(void)state;
	assert_int_equal(pci_model_set_bar(f, 0, 0, 0xA0000000, 3000), -1);
	assert_int_equal(pci_model_set_bar(f, 0, 0, 0xA0000800, 4096), -1);
	assert_int_equal(pci_model_set_bar(f, 0, PCI_BAR_IO, 0xE000, 512), -1);
	assert_int_equal(pci_model_set_bar(f, 5, PCI_BAR_MEM64, 0, 4096), -1);
	assert_int_equal(pci_model_set_bar(f, 0, 0, 0xA0000000, 4096), 0);
	assert_int_equal(pci_model_set_bar(f, 0, 0, 0xB0000000, 4096), -1);
	assert_int_equal(pci_model_set_bar(b, 1, 0, 0xA0000000, 4096), 0);
	assert_int_equal(pci_model_set_bar(b, 2, 0, 0xA0000000, 4096), -1);
	/* the sizing protocol on the model */
	ops.write32(&model, 0, 1, 0, PCI_BAR0, 0xFFFFFFFF);
	assert_int_equal(ops.read32(&model, 0, 1, 0, PCI_BAR0), 0xFFFFF000);
	ops.write32(&model, 0, 1, 0, PCI_BAR0, 0xA0000000);
	assert_int_equal(ops.read32(&model, 0, 1, 0, PCI_BAR0), 0xA0000000);
}

static void test_flat_bus(void **state)
{
	(void)state;
	add(0, 0x1f, 0, 0x3333, ETH, 0);
	add(0, 0, 0, 0x1111, HOSTBR, 0);
	add(0, 5, 0, 0x2222, ETH, 0);
	add(1, 0, 0, 0x4444, ETH, 0);	/* no bridge leads to bus 1 */
	assert_int_equal(scan(), 3);
	assert_bdf(&devs[0], 0, 0, 0);
	assert_bdf(&devs[1], 0, 5, 0);
	assert_bdf(&devs[2], 0, 0x1f, 0);
	assert_int_equal(devs[1].vendor, 0x8086);
	assert_int_equal(devs[1].device, 0x2222);
	assert_int_equal(devs[1].class_code, 0x02);
	assert_int_equal(devs[1].rev, 0x01);
	assert_int_equal(warns.n, 0);
}

static void test_multifunction(void **state)
{
	(void)state;
	add(0, 0x14, 0, 0x2090, CLS(6, 1, 0, 3), 0);
	add(0, 0x14, 2, 0x209a, CLS(1, 1, 0x80, 1), 0);
	add(0, 0x14, 7, 0x2095, CLS(0xc, 3, 0x20, 2), 0);
	add(0, 1, 2, 0x2082, CLS(0x10, 0x10, 0, 0), 0);	/* no function 0 */
	assert_int_equal(scan(), 4);
	assert_bdf(&devs[0], 0, 1, 2);
	assert_bdf(&devs[1], 0, 0x14, 0);
	assert_true(devs[1].multifunction);
	assert_bdf(&devs[2], 0, 0x14, 2);
	assert_false(devs[2].multifunction);
	assert_int_equal(devs[2].progif, 0x80);
	assert_bdf(&devs[3], 0, 0x14, 7);
}

/* A single-function device that answers on every function number, as
 * some old devices do: only its header type bit 7 tells. */
static uint32_t alias_read(void *ctx, unsigned bus, unsigned dev, unsigned fn,
    unsigned off)
{
	return ops.read32(ctx, bus, dev, dev == 9 ? 0 : fn, off);
}

static void test_single_function_aliases_ignored(void **state)
{
	struct pci_cfg_ops aliasing = { alias_read, NULL, &model };

	(void)state;
	aliasing.write32 = ops.write32;
	add(0, 9, 0, 0x3053, ETH, 0);
	assert_int_equal(pci_enumerate(&aliasing, devs, 64, collect, &warns), 1);
	assert_bdf(&devs[0], 0, 9, 0);
}

static void test_two_level_bridges(void **state)
{
	(void)state;
	add(0, 0, 0, 0x1111, HOSTBR, 0);
	bridge(0, 0x1e, 1, 2);
	add(0, 2, 0, 0x2222, ETH, 0);
	add(1, 0, 0, 0x3333, ETH, 0);
	bridge(1, 4, 2, 2);
	add(2, 3, 0, 0x4444, ETH, 0);
	add(2, 3, 1, 0x5555, ETH, 0);
	assert_int_equal(scan(), 7);
	assert_int_equal(warns.n, 0);
	assert_bdf(&devs[0], 0, 0, 0);
	assert_bdf(&devs[1], 0, 2, 0);
	assert_bdf(&devs[2], 0, 0x1e, 0);
	assert_int_equal(devs[2].header_type, PCI_HDR_BRIDGE);
	assert_int_equal(devs[2].primary, 0);
	assert_int_equal(devs[2].secondary, 1);
	assert_int_equal(devs[2].subordinate, 2);
	assert_bdf(&devs[3], 1, 0, 0);
	assert_bdf(&devs[4], 1, 4, 0);
	assert_int_equal(devs[4].secondary, 2);
	assert_bdf(&devs[5], 2, 3, 0);
	assert_bdf(&devs[6], 2, 3, 1);
	assert_int_equal(devs[6].device, 0x5555);
}

static void test_bridge_numbering_out_of_order(void **state)
{
	(void)state;
	bridge(0, 1, 2, 2);	/* lower device, higher bus */
	bridge(0, 2, 1, 1);
	add(1, 0, 0, 0x1111, ETH, 0);
	add(2, 0, 0, 0x2222, ETH, 0);
	assert_int_equal(scan(), 4);
	assert_bdf(&devs[2], 1, 0, 0);
	assert_bdf(&devs[3], 2, 0, 0);
}

static void test_bridge_loops(void **state)
{
	int i, j;

	(void)state;
	bridge(0, 1, 1, 1);
	bridge(0, 2, 1, 1);	/* claims bus 1 again */
	bridge(0, 3, 0, 0);	/* secondary 0 */
	bridge(1, 0, 0, 0);	/* back to bus 0 */
	bridge(1, 1, 1, 1);	/* itself */
	bridge(1, 2, 3, 3);	/* fine: bus 3 */
	add(1, 5, 0, 0x5555, ETH, 0);
	bridge(3, 0, 1, 1);	/* bus 3 back to bus 1 */
	assert_int_equal(scan(), 8);
	assert_int_equal(warns.n, 5);
	for (i = 0; i < 8; i++)
		for (j = i + 1; j < 8; j++)
			assert_false(devs[i].bus == devs[j].bus &&
			    devs[i].dev == devs[j].dev &&
			    devs[i].fn == devs[j].fn);
	assert_bdf(&devs[7], 3, 0, 0);
	/* bounded: 3 buses scanned, each at most 32 x 8 probes + header reads */
	assert_true(model.reads < 3 * 32 * 8 + 8 * 40);
}

static void test_loop_warning_text(void **state)
{
	(void)state;
	bridge(0, 1, 1, 1);
	bridge(0, 2, 1, 1);
	scan();
	assert_int_equal(warns.n, 1);
	assert_string_equal(warns.last, "00:02.0: bridge secondary bus 1 "
	    "already reached; not scanned again");
}

static void test_table_full(void **state)
{
	int i;

	(void)state;
	for (i = 5; i > 0; i--)
		add(0, i, 0, i, ETH, 0);
	assert_int_equal(pci_enumerate(&ops, devs, 2, collect, &warns), 5);
	assert_int_equal(warns.n, 1);
	assert_string_equal(warns.last, "5 functions found, table holds 2");
	assert_bdf(&devs[0], 0, 1, 0);
	assert_bdf(&devs[1], 0, 2, 0);
	assert_int_equal(devs[2].vendor, 0);	/* nothing stored past max */
	assert_int_equal(pci_enumerate(&ops, NULL, 0, NULL, NULL), 5);
}

/* Records the command register whenever a BAR gets all-ones. */
static unsigned sizing_writes, sizing_with_decode_on;
static void watch_write(void *ctx, unsigned bus, unsigned dev, unsigned fn,
    unsigned off, uint32_t val)
{
	if (off >= PCI_BAR0 && off < PCI_BAR0 + 24 && val == 0xFFFFFFFF) {
		sizing_writes++;
		if (ops.read32(ctx, bus, dev, fn, PCI_CMD) & 3)
			sizing_with_decode_on++;
	}
	ops.write32(ctx, bus, dev, fn, off, val);
}

static void test_bar_decoding(void **state)
{
	struct pci_model_fn *f = add(0, 6, 0, 0x1234, ETH, 0);
	struct pci_cfg_ops watched = { NULL, watch_write, &model };
	uint8_t before[PCI_CFG_SIZE];
	const struct pci_bar *b;

	(void)state;
	watched.read32 = ops.read32;
	assert_int_equal(pci_model_set_bar(f, 0, PCI_BAR_IO, 0xE100, 256), 0);
	assert_int_equal(pci_model_set_bar(f, 1, 0, 0xA0004000, 16384), 0);
	assert_int_equal(pci_model_set_bar(f, 2, PCI_BAR_MEM64 |
	    PCI_BAR_PREFETCH, 0x100000000ull, 0x100000), 0);
	assert_int_equal(pci_model_set_bar(f, 4, 0, 0, 4096), 0);
	assert_int_equal(pci_model_set_bar(f, 5, PCI_BAR_IO, 0x6000, 8), 0);
	f->wmask[PCI_BAR0 / 4 + 5] = 0xFFFFFFF8;	/* 32-bit I/O decoder */
	pci_model_poke32(f, PCI_CMD, 0x02100007);
	memcpy(before, f->cfg, sizeof before);
	sizing_writes = sizing_with_decode_on = 0;

	assert_int_equal(pci_enumerate(&watched, devs, 64, collect, &warns), 1);
	assert_memory_equal(before, f->cfg, sizeof before);	/* restored */
	assert_int_equal(sizing_writes, 6);
	assert_int_equal(sizing_with_decode_on, 0);
	assert_int_equal(devs[0].command, 0x0007);
	assert_int_equal(devs[0].nbars, 5);
	b = devs[0].bars;
	assert_int_equal(b[0].index, 0);
	assert_int_equal(b[0].flags, PCI_BAR_IO);
	assert_int_equal(b[0].base, 0xE100);
	assert_int_equal(b[0].size, 256);
	assert_int_equal(b[1].index, 1);
	assert_int_equal(b[1].flags, 0);
	assert_int_equal(b[1].base, 0xA0004000);
	assert_int_equal(b[1].size, 16384);
	assert_int_equal(b[2].index, 2);
	assert_int_equal(b[2].flags, PCI_BAR_MEM64 | PCI_BAR_PREFETCH);
	assert_true(b[2].base == 0x100000000ull);
	assert_int_equal(b[2].size, 0x100000);
	assert_int_equal(b[3].index, 4);
	assert_int_equal(b[3].flags, PCI_BAR_UNASSIGNED);
	assert_int_equal(b[3].size, 4096);
	assert_int_equal(b[4].index, 5);
	assert_int_equal(b[4].flags, PCI_BAR_IO);
	assert_int_equal(b[4].base, 0x6000);
	assert_int_equal(b[4].size, 8);
}

static void test_bridge_bars_only_two(void **state)
{
	struct pci_model_fn *b = bridge(0, 1, 1, 4);
	uint8_t before[PCI_CFG_SIZE];

	(void)state;
	assert_int_equal(pci_model_set_bar(b, 0, 0, 0xA1000000, 256), 0);
	memcpy(before, b->cfg, sizeof before);
	assert_int_equal(scan(), 1);
	assert_int_equal(devs[0].nbars, 1);
	assert_int_equal(devs[0].subordinate, 4);
	assert_memory_equal(before, b->cfg, sizeof before);
}

static void test_class_names(void **state)
{
	(void)state;
	assert_string_equal(pci_class_name(0x06, 0x00), "Host bridge");
	assert_string_equal(pci_class_name(0x06, 0x01), "ISA bridge");
	assert_string_equal(pci_class_name(0x06, 0x04), "PCI bridge");
	assert_string_equal(pci_class_name(0x01, 0x01), "IDE interface");
	assert_string_equal(pci_class_name(0x02, 0x00), "Ethernet controller");
	assert_string_equal(pci_class_name(0x02, 0x80), "Network controller");
	assert_string_equal(pci_class_name(0x03, 0x00),
	    "VGA compatible controller");
	assert_string_equal(pci_class_name(0x0c, 0x03), "USB controller");
	assert_string_equal(pci_class_name(0x04, 0x01),
	    "Multimedia audio controller");
	assert_string_equal(pci_class_name(0x10, 0x10),
	    "Entertainment encryption device");
	assert_string_equal(pci_class_name(0x10, 0x80), "Encryption controller");
	assert_string_equal(pci_class_name(0x77, 0x00), "Unknown class");
}

static void test_format_rows(void **state)
{
	struct pci_dev d;
	char buf[PCI_ROW_MAX], small[12];
	size_t n;

	(void)state;
	memset(&d, 0, sizeof d);
	d.dev = 1;
	d.fn = 2;
	d.vendor = 0x1022;
	d.device = 0x2082;
	d.class_code = 0x10;
	d.subclass = 0x10;
	d.nbars = 1;
	d.bars[0].base = 0xA0000000;
	d.bars[0].size = 16384;
	n = pci_format_row(&d, buf, sizeof buf);
	assert_string_equal(buf, "00:01.2 1022:2082 10.10.00 rev 00 "
	    "BAR0=mem32:0xa0000000/16K Entertainment encryption device");
	assert_int_equal(n, strlen(buf));

	memset(&d, 0, sizeof d);
	d.bus = 2;
	d.dev = 0x1e;
	d.vendor = 0x8086;
	d.device = 0x244e;
	d.class_code = 6;
	d.subclass = 4;
	d.rev = 0xd9;
	d.header_type = PCI_HDR_BRIDGE;
	d.primary = 2;
	d.secondary = 3;
	d.subordinate = 0x1f;
	d.nbars = 2;
	d.bars[0] = (struct pci_bar){ 0, PCI_BAR_IO, 0xE000, 8 };
	d.bars[1] = (struct pci_bar){ 1, PCI_BAR_MEM64 | PCI_BAR_PREFETCH |
	    PCI_BAR_UNASSIGNED, 0, 0x200000 };
	pci_format_row(&d, buf, sizeof buf);
	assert_string_equal(buf, "02:1e.0 8086:244e 06.04.00 rev d9 "
	    "bus=02,03,1f BAR0=io:0xe000/8 BAR1=mem64p:unassigned/2M "
	    "PCI bridge");

	d.header_type = 0;
	d.nbars = 1;
	d.bars[0] = (struct pci_bar){ 3, PCI_BAR_MEM64, 0x123400000000ull,
	    0x40000000 };
	pci_format_row(&d, buf, sizeof buf);
	assert_string_equal(buf, "02:1e.0 8086:244e 06.04.00 rev d9 "
	    "BAR3=mem64:0x0000123400000000/1G PCI bridge");

	/* truncation: snprintf-style length, always terminated */
	n = pci_format_row(&d, small, sizeof small);
	assert_int_equal(n, strlen(buf));
	assert_string_equal(small, "02:1e.0 808");
	n = pci_format_header(buf, sizeof buf);
	assert_int_equal(n, strlen(buf));
	assert_memory_equal(buf, "BB:DD.F VVVV:DDDD CC.SS.PP REV", 30);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_mech1_address, setup),
		cmocka_unit_test_setup(test_model_registers, setup),
		cmocka_unit_test_setup(test_model_multifunction_bit, setup),
		cmocka_unit_test_setup(test_model_bar_rules, setup),
		cmocka_unit_test_setup(test_flat_bus, setup),
		cmocka_unit_test_setup(test_multifunction, setup),
		cmocka_unit_test_setup(test_single_function_aliases_ignored, setup),
		cmocka_unit_test_setup(test_two_level_bridges, setup),
		cmocka_unit_test_setup(test_bridge_numbering_out_of_order, setup),
		cmocka_unit_test_setup(test_bridge_loops, setup),
		cmocka_unit_test_setup(test_loop_warning_text, setup),
		cmocka_unit_test_setup(test_table_full, setup),
		cmocka_unit_test_setup(test_bar_decoding, setup),
		cmocka_unit_test_setup(test_bridge_bars_only_two, setup),
		cmocka_unit_test_setup(test_class_names, setup),
		cmocka_unit_test_setup(test_format_rows, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
