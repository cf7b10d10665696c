/*
 * cpuid_dump: parse a CPUID dump in the InstLatx64 / AIDA64 / EVEREST text
 * format into a table, and answer CPUID queries from it (a cpuid_query_fn),
 * so the host runs the kernel's decoder on real CPUs' data.
 *
 * Format (as found in the dumps of instlatx64.atw.hu): LF or CRLF lines;
 * records are
 *	CPUID 80000002: 20202020-49202020-6C65746E-20295228 [       Intel(R) ]
 * i.e. "CPUID", the leaf in 8 hex digits, an optional ':', then EAX-EBX-ECX-
 * EDX as 8 hex digits each, then an optional "[comment]". Other lines
 * (headers, "CPUID Manufacturer : ...", MSR lines) are ignored.
 *
 * Several logical CPUs: only the first is kept. Parsing stops at a
 * "------[ Logical CPU" marker that follows records, or at a leaf that
 * was already seen earlier (a new CPU without a marker).
 *
 * Subleaves: a dump gives no subleaf numbers; it repeats the leaf line for
 * leaves 4, 0xB, 0xD... The n-th consecutive line of one leaf is stored as
 * subleaf n-1. That is exact for leaves 4 and 0xB; for leaf 0xD the dumping
 * tools skip empty subleaves, so subleaves above 0 may be misnumbered.
 */
#ifndef CQ_LIB_CPUID_DUMP_H
#define CQ_LIB_CPUID_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/platform/cpuid.h"

#define CPUID_DUMP_MAX	128	/* records kept; one CPU needs about 30-60 */

struct cpuid_dump_entry {
	uint32_t leaf, subleaf;
	struct cpuid_regs r;
};

struct cpuid_dump {
	unsigned n;	/* entries used */
	struct cpuid_dump_entry e[CPUID_DUMP_MAX];
};

/* Errors returned by cpuid_dump_parse() */
#define CPUID_DUMP_EFORMAT	(-1)	/* a "CPUID <hex>" line is malformed */
#define CPUID_DUMP_EFULL	(-2)	/* more than CPUID_DUMP_MAX records */
#define CPUID_DUMP_EEMPTY	(-3)	/* no CPUID record at all */

/*
 * Parses len bytes of text (need not be NUL-terminated) into *d.
 * Returns 0 or a CPUID_DUMP_E* error. If line is not NULL, *line gets the
 * 1-based number of the offending line (0 when no line is at fault).
 */
int cpuid_dump_parse(struct cpuid_dump *d, const char *text, size_t len,
		     unsigned *line);

/* A short English description of a CPUID_DUMP_E* code. */
const char *cpuid_dump_strerror(int err);

/*
 * cpuid_query_fn over a parsed dump (pass the struct cpuid_dump * as ctx).
 * Returns false when the dump has no record for (leaf, subleaf); the
 * decoder treats that like a leaf beyond the CPU's maximum.
 */
bool cpuid_dump_query(void *dump, uint32_t leaf, uint32_t subleaf,
		      struct cpuid_regs *out);

#endif
