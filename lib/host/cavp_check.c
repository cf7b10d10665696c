/*
 * cavp_check: how a CAVP record's result is checked and a mismatch noted,
 * shared by cavp_run.c (KAT and MMT records) and cavp_mct.c (MCT and
 * Monte records); it calls neither.
 */
#include "lib/host/cavp_rsp.h"

#include <string.h>

#include "lib/host/cavp_rsp_int.h"
#include "lib/util/hex.h"

/* "line 12 [DECRYPT] COUNT = 3" or "line 40 Len = 1304" into buf. */
void cavp_where(const struct cavp_run *r, const struct cavp_record *rec, char *buf, size_t n)
{
	if (r->kind->aes)
		fmt_snprintf(buf, n, "line %u [%s] COUNT = %u", rec->line,
			     rec->dir == AES_DIR_ENCRYPT ? "ENCRYPT" : "DECRYPT",
			     (unsigned)rec->count);
	else if (rec->fields & CAVP_F_LEN)
		fmt_snprintf(buf, n, "line %u Len = %u", rec->line, (unsigned)rec->len_bits);
	else
		fmt_snprintf(buf, n, "line %u COUNT = %u", rec->line, (unsigned)rec->count);
}

/* Compares len bytes; notes the first wrong 16-byte block (or digest). */
bool cavp_compare(struct cavp_run *r, const struct cavp_record *rec, const char *what,
		  const uint8_t *want, const uint8_t *got, size_t len, size_t unit)
{
	char where[64], exp_hex[65], got_hex[65];
	size_t off;

	for (off = 0; off < len; off += unit) {
		size_t n = len - off < unit ? len - off : unit;
		if (memcmp(want + off, got + off, n) == 0)
			continue;
		cavp_where(r, rec, where, sizeof(where));
		if (len > unit)
			kat_note(r->note, r->note_ctx, "%s %s block %u: expected %s got %s", where,
				 what, (unsigned)(off / unit) + 1,
				 hex_encode(want + off, n, exp_hex, sizeof(exp_hex)),
				 hex_encode(got + off, n, got_hex, sizeof(got_hex)));
		else
			kat_note(r->note, r->note_ctx, "%s %s: expected %s got %s", where, what,
				 hex_encode(want, n, exp_hex, sizeof(exp_hex)),
				 hex_encode(got, n, got_hex, sizeof(got_hex)));
		return false;
	}
	return true;
}

void cavp_engine_error(struct cavp_run *r, const struct cavp_record *rec, const char *op, int rc)
{
	char where[64];
	cavp_where(r, rec, where, sizeof(where));
	kat_note(r->note, r->note_ctx, "%s: %s returned %d (%s)", where, op, rc,
		 engine_strerror(rc));
}
