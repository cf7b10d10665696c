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

struct emu_state {
	const struct emu_profile *prof;	/* NULL: no emulation */
	char error[320];		/* why the profile could not be set up, "" if it was */
	const char *fault;		/* the fault injected, "" for none */
	bool on_qemu;			/* real PCI space had subsystem vendor 1af4 */
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
};
extern struct emu_state emu;

/* Patches the PadLock driver's key-reload sites (emu_trap.c). Returns how many, or -1. */
int emu_patch_reload_sites(void);

/*
 * One TAP result: an xcrypt executed while CPUID reports the ACE disabled
 * (or absent) raises #UD, as on the hardware: the model declines it
 * (emu_trap.c). Only when the profile's ACE is not enabled.
 */
void emu_check_disabled_ace(void);

#endif
