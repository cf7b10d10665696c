/*
 * libFuzzer target for lib/host/pci_listing*.c (the PCI listing reader of
 * tools/host/pci-scan: comBIOS ShowPCI tables and lspci -nn, fed files
 * from outside): arbitrary bytes as a listing. Checks that an error has a
 * one-line printable message naming a line that exists, that a loaded
 * model never holds more than PCI_MODEL_MAX_FN functions, and that the
 * enumerator walks the model and formats every row it finds within the
 * row buffer.
 * Build: make fuzz (mk/fuzz.mk); run: tests/fuzz/fuzz-readers.t.
 */
#include <stdint.h>
#include <string.h>

#include "lib/host/pci_listing.h"
#include "lib/host/pci_model.h"
#include "lib/platform/pci_enum.h"
#include "tests/fuzz/fuzz_common.h"

#define MAX_DEVS 256

static void on_warn(void *ctx, const char *msg)
{
	(void)ctx;
	fz_check_printable(msg, 200);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pci_model m;
	static struct pci_dev devs[MAX_DEVS];
	struct pci_listing_result res;
	struct pci_cfg_ops ops;
	char row[PCI_ROW_MAX];
	int n, i;

	memset(&res, 0x5A, sizeof(res));
	if (pci_listing_load(&m, (const char *)data, size, &res) != 0) {
		fz_check_printable(res.msg, sizeof(res.msg) - 1);
		fz_check(res.msg[0] != '\0');
		fz_check(res.line <= fz_lines(data, size));
		return 0;
	}
	fz_check(res.format == PCI_LISTING_COMBIOS || res.format == PCI_LISTING_LSPCI);
	fz_check(res.nlisted >= 1 && res.nadded >= 0 &&
		 res.nlisted + res.nadded <= PCI_MODEL_MAX_FN);
	pci_model_ops(&m, &ops);
	n = pci_enumerate(&ops, devs, MAX_DEVS, on_warn, NULL);
	fz_check(n >= 0 && n <= PCI_MODEL_MAX_FN);
	for (i = 0; i < n; i++) {
		size_t len = pci_format_row(&devs[i], row, sizeof(row));
		fz_check(len < sizeof(row) && strlen(row) == len);
	}
	return 0;
}
