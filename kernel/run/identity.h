/*
 * identity: which box this report is from (issue 15). One `@identity`
 * record (the image, and the machine's facts: CMOS clock, memory, SMBIOS
 * system, baseboard and BIOS strings, else the BIOS banner) and one `@nic`
 * record per network controller (its station address), printed once the
 * clock is calibrated so that they carry t=. Absent facts read "absent",
 * never a guess; every string from the firmware is escaped.
 */
#ifndef CQ_KERNEL_RUN_IDENTITY_H
#define CQ_KERNEL_RUN_IDENTITY_H

/* version, image_sha256, emulate: the build's facts as the first lines give them. */
void identity_report(const char *version, const char *image_sha256, const char *emulate);

#endif
