/*
 * boxkey: the one name of a box in every view (the report's @identity
 * box=, the last screen, qualreport's pages, the syslog HOSTNAME and the
 * TFTP file name): the first of
 *   1. the asset= kernel option, as given;
 *   2. a real SMBIOS system serial (type 1), then a real board serial
 *      (type 2): not empty and not a placeholder (boxkey_placeholder());
 *   3. the first NIC's MAC address, "mac-" and 12 lower-case hex digits.
 * "unknown" when none is there. Characters outside A-Z a-z 0-9 . _ - are
 * replaced by '_', so the key is one token, a valid RFC 5424 HOSTNAME
 * (PRINTUSASCII, section 6.2.4) and a file name. docs/report-format.md
 * lists the placeholders; tools/cqreport/identity.py keeps the same list.
 */
#ifndef CQ_LIB_UTIL_BOXKEY_H
#define CQ_LIB_UTIL_BOXKEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOXKEY_MAX 64	/* characters of a key, NUL excluded; longer sources are cut */

/*
 * Whether an SMBIOS serial says nothing about the box: empty, all blanks,
 * all one repeated character ("0000000000", "xxxxxxxx"), or one of the
 * vendor placeholders ("To be filled by O.E.M.", "Default string",
 * "System Serial Number", "0123456789", "Not Specified", "None", "N/A",
 * "Not Applicable", "123456789"...), compared without case.
 */
bool boxkey_placeholder(const char *serial);

/*
 * Writes the key into out (cap bytes, at least BOXKEY_MAX + 1 for any key).
 * asset, sys_serial, board_serial: NUL-terminated or NULL; mac: 6 bytes or
 * NULL. Returns which source won: 'a' asset, 's' system serial, 'b' board
 * serial, 'm' MAC, 'u' unknown.
 */
char boxkey_make(char *out, size_t cap, const char *asset, const char *sys_serial,
		 const char *board_serial, const uint8_t *mac);

#endif
