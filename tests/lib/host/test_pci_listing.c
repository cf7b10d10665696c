/*
 * Unit tests for lib/pci_listing*.c: listings in both formats become a
 * model that lib/platform/pci_enum.c enumerates. The listings here are made up; the
 * real ones in ../shared/data/pci are run by tests/tools/pci-scan.t.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lib/platform/pci_enum.h"
#include "lib/host/pci_listing.h"

static struct pci_model model;
static struct pci_listing_result res;
static struct pci_dev devs[64];
static int nwarn;

static void count_warning(void *ctx, const char *msg)
{
	(void)ctx;
	(void)msg;
	nwarn++;
}

static int load(const char *text)
{
	return pci_listing_load(&model, text, strlen(text), &res);
}

static int scan(void)
{
	struct pci_cfg_ops ops;

	pci_model_ops(&model, &ops);
	nwarn = 0;
	return pci_enumerate(&ops, devs, 64, count_warning, NULL);
}

static void test_combios(void **state)
{
	static const char text[] =
	    "# made-up board\n"
	    "Slot   Vend Dev  ClassRev Cmd  Stat CL LT HT  Base1    Base2   Int\n"
	    "---------------------------------------------------------\n"
	    "0:01:2 1022 2082 10100000 0006 0220 08 00 00 B0000000 00000000 10\n"
	    "0:12:0 1106 3053 02000096 0117 0210 08 40 00 0000D001 B0010000 11\n"
	    "0:20:0 1022 2090 06010003 0009 02A0 08 40 80 00007001 00007101\n"
	    "0:20:2 1022 209A 01018001 0005 02A0 08 00 00 00000000 00000000\n"
	    "0:21:0 1234 5678 0C032002 0006 0230 08 00 00 C000000C 00000001 15\n";
	struct pci_model_fn *f;

	(void)state;
	assert_int_equal(load(text), 0);
	assert_int_equal(res.format, PCI_LISTING_COMBIOS);
	assert_int_equal(res.nlisted, 5);
	assert_int_equal(res.nadded, 0);
	f = pci_model_find(&model, 0, 0x14, 0);	/* Slot 20 is decimal */
	assert_non_null(f);
	assert_int_equal(pci_model_peek32(f, PCI_CMD), 0x02A00009);
	assert_int_equal(pci_model_peek32(f, PCI_BHLC), 0x00804008);
	f = pci_model_find(&model, 0, 12, 0);
	assert_non_null(f);
	assert_int_equal(pci_model_peek32(f, PCI_INTR) & 0xFF, 11);

	assert_int_equal(scan(), 5);
	assert_int_equal(nwarn, 0);
	assert_int_equal(devs[0].device, 0x2082);
	assert_int_equal(devs[0].nbars, 1);
	assert_int_equal(devs[0].bars[0].base, 0xB0000000);
	assert_int_equal(devs[0].bars[0].size, 16384);	/* known device */
	assert_int_equal(devs[0].command, 0x0006);
	assert_int_equal(devs[1].dev, 12);
	assert_int_equal(devs[1].bars[0].flags, PCI_BAR_IO);
	assert_int_equal(devs[1].bars[0].size, 256);
	assert_int_equal(devs[1].bars[1].base, 0xB0010000);
	assert_int_equal(devs[1].bars[1].size, 256);	/* table, not alignment */
	assert_int_equal(devs[2].dev, 0x14);
	assert_true(devs[2].multifunction);
	assert_int_equal(devs[2].bars[0].size, 8);
	assert_int_equal(devs[3].progif, 0x80);
	assert_int_equal(devs[3].nbars, 0);
	/* unknown device: 64-bit prefetchable BAR from Base1+Base2, size by
	 * alignment capped at 4 KiB */
	assert_int_equal(devs[4].nbars, 1);
	assert_int_equal(devs[4].bars[0].flags,
	    PCI_BAR_MEM64 | PCI_BAR_PREFETCH);
	assert_true(devs[4].bars[0].base == 0x1C0000000ull);
	assert_int_equal(devs[4].bars[0].size, 4096);
}

static void test_lspci(void **state)
{
	static const char text[] =
	    "# comment\r\n"
	    "\r\n"
	    "0000:00:01.0 Host bridge [0600]: AMD [AMD] Host [1022:2080] (rev 33)\r\n"
	    "00:01.2 Entertainment encryption device [1010]: AMD [AMD] SB [1022:2082]\r\n"
	    "00:0f.4 USB controller [0c03]: AMD [AMD] OHC [1022:2094] (rev 02) (prog-if 10 [OHCI])\r\n";

	(void)state;
	assert_int_equal(load(text), 0);
	assert_int_equal(res.format, PCI_LISTING_LSPCI);
	assert_int_equal(res.nlisted, 3);
	assert_int_equal(scan(), 3);
	assert_int_equal(nwarn, 0);
	assert_int_equal(devs[0].vendor, 0x1022);
	assert_int_equal(devs[0].device, 0x2080);
	assert_int_equal(devs[0].rev, 0x33);
	assert_true(devs[0].multifunction);
	assert_int_equal(devs[0].nbars, 0);
	assert_int_equal(devs[0].command, 0);
	/* security block: default BAR0, decoding and bus mastering on */
	assert_int_equal(devs[1].fn, 2);
	assert_int_equal(devs[1].rev, 0);
	assert_int_equal(devs[1].nbars, 1);
	assert_int_equal(devs[1].bars[0].base, PCI_LISTING_GEODE_SB_BASE);
	assert_int_equal(devs[1].bars[0].size, 16384);
	assert_int_equal(devs[1].bars[0].flags, 0);
	assert_int_equal(devs[1].command, PCI_CMD_MEM | PCI_CMD_MASTER);
	assert_int_equal(devs[2].class_code, 0x0c);
	assert_int_equal(devs[2].subclass, 0x03);
	assert_int_equal(devs[2].progif, 0x10);
	assert_int_equal(devs[2].rev, 0x02);
}

static void test_bridges_get_bus_numbers(void **state)
{
	static const char text[] =
	    "00:00.0 Host bridge [0600]: Intel [8086:1237]\n"
	    "00:1e.0 PCI bridge [0604]: Intel [8086:244e] (rev d9)\n"
	    "01:00.0 Ethernet controller [0200]: Intel [8086:100e]\n"
	    "01:01.0 PCI bridge [0604]: Intel [8086:244e]\n"
	    "02:03.0 Ethernet controller [0200]: Intel [8086:100f]\n"
	    "05:00.0 Ethernet controller [0200]: Intel [8086:1010]\n";

	(void)state;
	assert_int_equal(load(text), 0);
	assert_int_equal(res.nlisted, 6);
	assert_int_equal(res.nadded, 1);	/* nothing listed leads to 5 */
	assert_int_equal(scan(), 7);
	assert_int_equal(nwarn, 0);
	assert_int_equal(devs[1].dev, 0x1e);
	assert_int_equal(devs[1].primary, 0);
	assert_int_equal(devs[1].secondary, 1);
	assert_int_equal(devs[1].subordinate, 2);
	assert_int_equal(devs[2].dev, 0x1f);	/* the added bridge */
	assert_int_equal(devs[2].vendor, PCI_LISTING_BRIDGE_VENDOR);
	assert_int_equal(devs[2].device, PCI_LISTING_BRIDGE_DEVICE);
	assert_int_equal(devs[2].secondary, 5);
	assert_int_equal(devs[4].bus, 1);
	assert_int_equal(devs[4].dev, 1);
	assert_int_equal(devs[4].primary, 1);
	assert_int_equal(devs[4].secondary, 2);
	assert_int_equal(devs[5].bus, 2);
	assert_int_equal(devs[6].bus, 5);
}

static void test_spare_bridge_gets_empty_bus(void **state)
{
	static const char text[] =
	    "00:01.0 PCI bridge [0604]: X [1234:0001]\n"
	    "00:02.0 PCI bridge [0604]: X [1234:0001]\n"
	    "01:00.0 Ethernet controller [0200]: X [1234:0002]\n";

	(void)state;
	assert_int_equal(load(text), 0);
	assert_int_equal(res.nadded, 0);
	assert_int_equal(scan(), 3);
	assert_int_equal(nwarn, 0);
	assert_int_equal(devs[0].secondary, 1);
	assert_int_equal(devs[1].secondary, 2);
	assert_int_equal(devs[1].subordinate, 2);
}

static void expect_error(const char *text, unsigned line, const char *msg)
{
	assert_int_equal(load(text), -1);
	assert_int_equal(res.line, line);
	assert_non_null(strstr(res.msg, msg));
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("# header only\n\n", 0, "no PCI functions");
	expect_error("# c\nhello world\n", 2, "neither");
	expect_error("Slot Vend\n0:01:0 1022 2080 06000000\n", 2,
	    "want Vend Dev");
	expect_error("0:01:0 1022 2080 06000000 0006 0220 08 00 00 0 0 1x\n",
	    1, "bad Int");
	expect_error("0:01:0 1022 2080 06000000 0006 0220 08 00 00 0 0 9 9\n",
	    1, "extra text");
	expect_error("0:32:0 1022 2080 06000000 0006 0220 08 00 00 0 0\n",
	    1, "out of range");
	expect_error("0:01:0 1022 2080 06000000 0006 0220 08 00 00 A0000100 0\n"
	    "0:01:1 1022 2080 06000000 0006 0220 08 00 00 00010001 0\n",
	    2, "not valid BARs");	/* I/O above 64 KiB */
	expect_error("00:01.0 Host bridge [0600]: AMD [1022:2080]\n"
	    "00:02.0 Host bridge [0600]: AMD 1022:2081\n", 2, "vendor:device");
	expect_error("00:01.0 Host bridge 0600: AMD [1022:2080]\n", 1,
	    "class code");
	expect_error("00:01.0 Host bridge [0600]: AMD [1022:2080]\n"
	    "00:01.0 Host bridge [0600]: AMD [1022:2080]\n", 2, "listed twice");
	expect_error("00:01.0 Host bridge [0600]: AMD [1022:2080] (rev 3)\n", 1,
	    "bad (rev");
	expect_error("00:01.0 Host bridge [0600]: AMD [1022:2080]\n"
	    "0:01:1 1022 2080 06000000 0006 0220 08 00 00 0 0\n", 2,
	    "bad address");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_combios),
		cmocka_unit_test(test_lspci),
		cmocka_unit_test(test_bridges_get_bus_numbers),
		cmocka_unit_test(test_spare_bridge_gets_empty_bus),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
