/*
 * emu.h: shared by the files of the emulation build (emu/): the
 * machine profiles, the data embedded at build time, and the state of the
 * run's emulation. The public side is kernel/platform/emulate.h.
 */
#ifndef CQ_KERNEL_EMU_EMU_H
#define CQ_KERNEL_EMU_EMU_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/host/cpuid_dump.h"
#include "lib/host/pci_model.h"
#include "emu/models/geode_sb_model.h"
#include "emu/models/padlock_model.h"
#include "emu/models/rhine_model.h"
#include "emu/nic_wire.h"
#include "lib/platform/pci_enum.h"

/* ---- the data (scripts/emu-data.sh generates $(BUILD)/emu/emu_data.S) ---- */

struct emu_blob {
	const char *name;	/* "cpuid/FILE" or "pci/FILE", as in shared/data */
	const char *data;	/* the file's bytes (not NUL-terminated) */
	uint32_t len;
};
extern const struct emu_blob emu_blobs[];	/* ends with name == NULL */

/* The blob called dir/file, or NULL. */
const struct emu_blob *emu_blob_find(const char *dir, const char *file);

/* ---- profiles (emu_profiles.c) ---- */

#define EMU_NO_PADLOCK	(-1)

struct emu_profile {
	const char *name;	/* emulate=NAME */
	const char *machine;	/* what is emulated, for the report */
	const char *cpuid;	/* dump in shared/data/cpuid */
	const char *pci;	/* listing in shared/data/pci; NULL: the QEMU machine's own */
	bool add_host_bridge;	/* add the Geode LX host bridge the listing omits */
	bool geode;		/* Geode LX security block model behind 1022:2082 */
	int padlock;		/* enum padlock_model_cpu, or EMU_NO_PADLOCK */
	const char *note;	/* anything else the report must say, or NULL */
	/* A VIA Rhine laid over the QEMU machine's own devices (a profile without a listing;
	 * a listing's Rhines are modelled as listed): its device number on bus 0 (0: none),
	 * device ID and revision. */
	uint8_t rhine_dev;
	uint16_t rhine_device;
	uint8_t rhine_rev;
};

/* The profile called name, or NULL. emu_profile_list: "net5501 alix ...". */
const struct emu_profile *emu_profile_find(const char *name);
const char *emu_profile_list(void);

/*
 * The station addresses of profile name's network controllers, in listing
 * order (6 bytes each), and how many (*n; 0 and NULL for none).
 */
const uint8_t (*emu_profile_macs(const char *name, unsigned *n))[6];

/* ---- the run's emulation (emulate.c, emu_trap.c) ---- */

#define EMU_RHINES	4	/* a net5501 has four */

struct emu_state {
	const struct emu_profile *prof;	/* NULL: no emulation */
	char error[320];		/* why the profile could not be set up, "" if it was */
	const char *fault;		/* the fault injected, "" for none */
	unsigned fault_from_pass;	/* FAULT-from-pass-N: N (the fault waits for soak pass N), 0 */
	uint32_t geode_pending, padlock_pending;	/* the waiting fault's model bits */
	uint32_t nic_fault;		/* RHINE_FAULT_* when the fault is the Rhine model's */
	bool on_qemu;			/* real PCI space had subsystem vendor 1af4 */
	bool macs_from_qemu;		/* the emulated NICs took QEMU's -nic mac= */
	struct cpuid_dump dump;
	struct pci_model pci;
	int pci_listed;			/* functions read from the listing */
	bool host_bridge_added;
	struct geode_sb_model geode;
	bool geode_on;
	struct padlock_model padlock;
	bool padlock_on;
	unsigned reload_sites;		/* patched PadLock key-reload sites */
	unsigned long reload_traps;
	struct rhine_model rhine[EMU_RHINES];	/* in BDF order; rhine[0] has the wire */
	unsigned nrhine;
	struct pci_model overlay;	/* over the QEMU machine's devices (rhine_dev profiles) */
	bool overlay_on;
	struct nic_wire wire;		/* rhine[0]'s cable to the QEMU machine's own NIC */
	const struct nic_driver *wire_drv;
	struct pci_dev wire_dev;	/* that NIC, as the real configuration space shows it */
};
extern struct emu_state emu;

/* ---- the Rhine NICs and their wire (emu_nic.c) ---- */

/* Finds the QEMU machine's own NIC the first Rhine's wire goes to (real PCI space); sets emu.wire. */
void emu_nic_find_wire(void);

/*
 * The Rhine models behind the listing's Rhines (macs: nmacs station
 * addresses, one behind every listed NIC in order; a listed NIC that is no
 * Rhine answers PAR0-5 reads with its address), or a Rhine laid over the
 * QEMU machine's devices at the profile's rhine_dev with macs[0].
 * faults: RHINE_FAULT_*. Return NULL, or why not.
 */
const char *emu_nic_install_listed(const uint8_t (*macs)[6], unsigned nmacs, uint32_t faults);
const char *emu_nic_install_overlay(const struct emu_profile *p, const uint8_t (*macs)[6], unsigned nmacs,
				    uint32_t faults);

/* Whether RHINE_FAULT_* faults are only variants a healthy driver works through. */
bool emu_nic_fault_is_variant(uint32_t faults);

/* The header line of the Rhines; the models' own checks of the NICs the run opened. */
void emu_nic_report(void);
void emu_nic_finish(void);

/* Patches the PadLock driver's key-reload sites (emu_trap.c). Returns how many, or -1. */
int emu_patch_reload_sites(void);

/*
 * One TAP result: an xcrypt executed while CPUID reports the ACE disabled
 * (or absent) raises #UD, as on the hardware: the model declines it
 * (emu_trap.c). Only when the profile's ACE is not enabled.
 */
void emu_check_disabled_ace(void);

#endif
