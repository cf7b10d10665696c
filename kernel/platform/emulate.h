/*
 * emulate: the emulated target machines (the emulate= option). The release
 * image links kernel/platform/emulate_none.c, where these do nothing but warn that
 * emulate= needs the other build; the emulation image (make emu,
 * build/cryptoqual-emu.elf) links emu/emulate.c, which puts a
 * machine profile's CPUID dump, PCI listing and device models behind the
 * hardware access layer (emu/hw_emu.h) and emulates the PadLock
 * instructions from the invalid-opcode trap. docs/emulation.md has the
 * profiles, the faults and what comes from where.
 */
#ifndef CQ_KERNEL_EMULATE_H
#define CQ_KERNEL_EMULATE_H

#include <stdbool.h>

#include "kernel/platform/exceptions.h"

/*
 * Selects profile ("" = none: the real machine) with fault ("" = none),
 * both as lib/platform/cmdline.c parsed them from emulate=PROFILE[,fault=FAULT].
 * Call right after the command line is parsed, before anything reads
 * CPUID or PCI; it prints nothing (the console is not up yet).
 */
void emulate_init(const char *profile, const char *fault);

/*
 * Prints what the run reads from the profile and what from the real
 * machine (`#` lines), and one TAP result saying whether the profile was
 * set up; in the release image, a warning when emulate= was given. Call
 * in the report header, before the CPU stage.
 */
void emulate_report(void);

/*
 * Whether the real machine under the emulation is QEMU (its own PCI
 * configuration space, read before a profile replaced it, has subsystem
 * vendor 1af4), so the isa-debug-exit device may be used. Always false in
 * the release image.
 */
bool emulate_on_qemu(void);

/*
 * Called first by the exception handler: an invalid opcode that is an
 * emulated PadLock instruction is executed (true: resume at tf->eip); a
 * breakpoint at a patched PadLock key-reload site drops the emulated key
 * cache (true); an emulated instruction that faults changes tf->vector to
 * the exception it raises and returns false, so the normal path reports
 * it. Everything else: false, tf untouched.
 */
bool emulate_trap(struct trap_frame *tf);

/*
 * The models' own checks at the end of the run (TAP results: e.g. the
 * driver made no protocol slip on the Geode model). Call before
 * report_finish().
 */
void emulate_finish(void);

/*
 * Soak pass number pass (1..) begins (docs/cmdline.md passes=). A fault
 * named FAULT-from-pass-N (emulate=PROFILE,fault=FAULT-from-pass-N) acts
 * from soak pass N on, so a soak can show a failure that starts in a later
 * pass; before, its model runs clean (faults that act when the model is
 * set up, such as bar-unassigned, act from the start). Nothing in the
 * release image.
 */
void emulate_soak_pass(unsigned pass);

/*
 * The profile in force and its fault, for the @identity record: "none"
 * on real hardware (always, in the release image) and "" for no fault.
 */
const char *emulate_profile(void);

/*
 * Whether the machine's firmware tables are not the box's: true while a
 * profile is emulated (QEMU's SMBIOS tables and BIOS ROM belong to QEMU,
 * not to the emulated net5501), so the identity readers report them
 * absent. Always false in the release image.
 */
bool emulate_hides_firmware(void);
const char *emulate_fault(void);

#endif
