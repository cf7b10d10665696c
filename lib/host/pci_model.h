/*
 * pci_model: configuration space of a made-up PCI machine, for host
 * tests, pci-scan and the emulation build. It answers through struct
 * pci_cfg_ops as hardware would (PCI Local Bus Specification 3.0 §6):
 *   - absent functions read 0xFFFFFFFF and ignore writes;
 *   - ID, class, header type and status are read-only, except the status
 *     bits that are write-1-to-clear (PCI 3.0 §6.2.3);
 *   - the command register keeps the bits PCI_MODEL_CMD_WMASK (I/O,
 *     memory, bus master, parity, SERR, interrupt disable);
 *   - a BAR keeps only its address bits above its size, so writing
 *     all-ones reads back the size mask (§6.2.5.1); 16-bit I/O decoders:
 *     the upper half of an I/O BAR reads 0;
 *   - function 0 reports header type bit 7 (multi-function) whenever
 *     another function of its device exists;
 *   - bridges (type 1) keep bus numbers and window registers writable;
 *     bytes 0x40-0xFF (device specific) are plain read/write storage.
 * Which bits keep writes is in wmask, one mask per dword, so a test can
 * change it (for instance to model a 32-bit I/O decoder).
 */
#ifndef CQ_LIB_PCI_MODEL_H
#define CQ_LIB_PCI_MODEL_H

#include "lib/platform/pci_enum.h"

#define PCI_MODEL_MAX_FN	64
#define PCI_MODEL_CMD_WMASK	0x0547u
#define PCI_MODEL_STATUS_W1C	0xF900u	/* status bits 8, 11-15 */

struct pci_model_fn {
	uint8_t bus, dev, fn;
	uint8_t cfg[PCI_CFG_SIZE];		/* little-endian dwords */
	uint32_t wmask[PCI_CFG_SIZE / 4];	/* bits that keep writes */
};

struct pci_model {
	int nfn;
	struct pci_model_fn fns[PCI_MODEL_MAX_FN];
	unsigned reads, writes;		/* accesses through the ops, any function */
};

void pci_model_init(struct pci_model *m);

/*
 * Adds function bus:dev.fn (dev 0..31, fn 0..7) with the given IDs, class
 * dword (class << 24 | subclass << 16 | prog-if << 8 | revision) and
 * header type byte (bit 7 may be left 0: the model sets it on reads).
 * Type 1 gets 2 BAR slots, type 0 gets 6, others none. Returns the slot,
 * or NULL when the model is full, the address is out of range or taken.
 */
struct pci_model_fn *pci_model_add(struct pci_model *m, unsigned bus,
    unsigned dev, unsigned fn, uint16_t vendor, uint16_t device,
    uint32_t class_rev, uint8_t header_type);

/* The function at bus:dev.fn, or NULL. */
struct pci_model_fn *pci_model_find(struct pci_model *m, unsigned bus,
    unsigned dev, unsigned fn);

/*
 * Gives BAR slot index a decoder of size bytes at base. flags are
 * PCI_BAR_IO, PCI_BAR_MEM64 (uses slots index and index+1) and
 * PCI_BAR_PREFETCH. size must be a power of two, at least 4 (I/O, at
 * most 256, PCI 3.0 §6.2.5.1) or 16 (memory; at most 2 GiB for 32-bit);
 * base must be a multiple of size (0 = unassigned). Returns 0, or -1 when
 * any of this does not hold, the slot does not exist, or is in use.
 */
int pci_model_set_bar(struct pci_model_fn *f, unsigned index, uint8_t flags,
    uint64_t base, uint64_t size);

/* Type 1 bus numbers: primary, secondary, subordinate. */
void pci_model_set_buses(struct pci_model_fn *f, uint8_t primary,
    uint8_t secondary, uint8_t subordinate);

/* Raw access to a function's bytes, ignoring wmask (setting up a model). */
uint32_t pci_model_peek32(const struct pci_model_fn *f, unsigned off);
void pci_model_poke32(struct pci_model_fn *f, unsigned off, uint32_t val);
void pci_model_poke8(struct pci_model_fn *f, unsigned off, uint8_t val);

/* Fills ops with the model's read32/write32 and ctx = m. */
void pci_model_ops(struct pci_model *m, struct pci_cfg_ops *ops);

#endif
