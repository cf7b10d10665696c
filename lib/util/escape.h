/*
 * escape: text that comes from outside the image (the loader's command line
 * and name, SMBIOS strings, the BIOS banner, anything a test name quotes)
 * made safe to put on one report line: one line stays one line.
 *
 * The rules (docs/report-format.md, "Echoed text"):
 * - bytes 0x20..0x7e other than '\' are kept;
 * - every other byte (control characters, CR, LF, DEL, bytes >= 0x80) and
 *   '\' itself become \xNN (two lower-case hex digits), so the escaped text
 *   can be read back without ambiguity;
 * - the result is cut to at most max_out characters, never inside an \xNN,
 *   and then ends in "..." (the "..." counts towards max_out).
 */
#ifndef CQ_LIB_ESCAPE_H
#define CQ_LIB_ESCAPE_H

#include <stddef.h>

/* The smallest useful max_out: "..." plus one \xNN. */
#define ESC_MIN_OUT 8

/*
 * Escapes src (src_len bytes, or up to its first NUL if it comes earlier)
 * into dst (cap bytes, always NUL-terminated when cap > 0). The output is at
 * most min(max_out, cap - 1) characters; max_out below ESC_MIN_OUT counts as
 * ESC_MIN_OUT; a cap below ESC_MIN_OUT + 1 gives "" (no room for a piece
 * and "..."). src may be NULL (gives ""). Returns the length written.
 */
size_t esc_line(char *dst, size_t cap, const char *src, size_t src_len, size_t max_out);

/*
 * As esc_line(), and then also writes '#' as "\#": the form a TAP test
 * name (description) needs, so that no '#' in a name starts a directive.
 * TAP 13 and 14 both define "\#" as a literal '#' in a description.
 */
size_t esc_tap_name(char *dst, size_t cap, const char *src, size_t src_len, size_t max_out);

/*
 * As esc_line(), and then also writes ' ' as \x20: the form of a record's
 * value (`key=value`, docs/report-format.md: values contain no spaces).
 * An empty or NULL src gives "absent" (a fact the box did not give).
 */
size_t esc_value(char *dst, size_t cap, const char *src, size_t src_len, size_t max_out);

#endif
