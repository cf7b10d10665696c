/*
 * identity: which box this report is from. One `@identity`
 * record (the image, and the machine's facts: CMOS clock, memory, SMBIOS
 * system, baseboard and BIOS strings, else the BIOS banner) and one `@nic`
 * record per network controller (its station address), printed once the
 * clock is calibrated so that they carry t=. Absent facts read "absent",
 * never a guess; every string from the firmware is escaped.
 */
#ifndef CQ_KERNEL_RUN_IDENTITY_H
#define CQ_KERNEL_RUN_IDENTITY_H

/*
 * version, image_sha256, emulate: the build's facts as the first lines
 * give them; asset, tag: the asset= and tag= kernel options ("" unset).
 * The record ends with asset=, tag= and box=, the box key
 * (lib/util/boxkey.h: asset, else a real SMBIOS serial, else the first
 * NIC's MAC), which every later view names the box by.
 */
void identity_report(const char *version, const char *image_sha256, const char *emulate,
		     const char *asset, const char *tag);

/* The box key identity_report() chose ("unknown" before it ran). */
const char *identity_box_key(void);

#endif
