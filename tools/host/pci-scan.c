/*
 * pci-scan LISTING: builds a PCI configuration-space model from a listing
 * (comBIOS ShowPCI table or lspci -nn, see lib/host/pci_listing.h), runs the
 * kernel's enumerator over it and prints the kernel's table: a header
 * line, then one row per function (layout in lib/platform/pci_enum.h).
 *
 * `pci-scan --help` (or -h) prints the usage on stdout and exits 0.
 *
 * Warnings go to stderr prefixed "warning: ". Exit status: 0 on success,
 * 2 when the listing cannot be read or parsed (or on bad usage: no
 * argument, more than one, or an option other than --help).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/platform/pci_enum.h"
#include "lib/host/pci_listing.h"
#include "lib/host/pci_model.h"

#define MAX_LISTING	(1 << 20)	/* bytes */
#define MAX_DEVS	256

#define USAGE	"usage: pci-scan LISTING\n" \
		"  LISTING: a file holding a comBIOS ShowPCI table or lspci -nn output\n"

static void warn(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "warning: %s\n", msg);
}

/* Reads the whole file; returns its length or -1 (errno set: EISDIR for a folder). */
static long slurp(const char *path, char *buf, size_t cap)
{
	FILE *fp = fopen(path, "rb");
	struct stat st;
	size_t n;
	int err = 0;

	if (fp == NULL)
		return -1;
	if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(fp);
		errno = EISDIR;
		return -1;
	}
	errno = 0;
	n = fread(buf, 1, cap, fp);
	if (ferror(fp))
		err = errno != 0 ? errno : EIO;
	else if (n == cap && fgetc(fp) != EOF)
		err = EFBIG;
	fclose(fp);
	errno = err;
	return err != 0 ? -1 : (long)n;
}

int main(int argc, char **argv)
{
	static char text[MAX_LISTING];
	static struct pci_model model;
	static struct pci_dev devs[MAX_DEVS];
	struct pci_listing_result res;
	struct pci_cfg_ops ops;
	char row[PCI_ROW_MAX];
	long len;
	int n, i;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("%s", USAGE);
		return 0;
	}
	if (argc != 2 || (argv[1][0] == '-' && argv[1][1] != '\0')) {
		fprintf(stderr, "%s", USAGE);
		return 2;
	}
	len = slurp(argv[1], text, sizeof text);
	if (len < 0) {
		fprintf(stderr, "pci-scan: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	if (pci_listing_load(&model, text, (size_t)len, &res) != 0) {
		if (res.line > 0)
			fprintf(stderr, "pci-scan: %s: line %u: %s\n", argv[1],
			    res.line, res.msg);
		else
			fprintf(stderr, "pci-scan: %s: %s\n", argv[1], res.msg);
		return 2;
	}
	if (res.nadded > 0)
		fprintf(stderr, "warning: %d bridge(s) added to reach the "
		    "buses listed\n", res.nadded);
	pci_model_ops(&model, &ops);
	n = pci_enumerate(&ops, devs, MAX_DEVS, warn, NULL);
	if (n > MAX_DEVS)
		n = MAX_DEVS;
	pci_format_header(row, sizeof row);
	printf("%s\n", row);
	for (i = 0; i < n; i++) {
		pci_format_row(&devs[i], row, sizeof row);
		printf("%s\n", row);
	}
	if (n != res.nlisted + res.nadded)
		fprintf(stderr, "warning: %d functions listed, %d found\n",
		    res.nlisted + res.nadded, n);
	return 0;
}
