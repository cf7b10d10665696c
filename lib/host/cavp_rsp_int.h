/*
 * Shared between cavp_run.c and cavp_mct.c (not a public interface). Calls
 * go one way: cavp_run.c -> cavp_mct.c -> cavp_check.c.
 */
#ifndef CQ_LIB_CAVP_INT_H
#define CQ_LIB_CAVP_INT_H

#include "lib/host/cavp_rsp.h"
#include "lib/util/fmt.h"

/* cavp_check.c */
void cavp_where(const struct cavp_run *r, const struct cavp_record *rec, char *buf, size_t n);
bool cavp_compare(struct cavp_run *r, const struct cavp_record *rec, const char *what,
		  const uint8_t *want, const uint8_t *got, size_t len, size_t unit);
void cavp_engine_error(struct cavp_run *r, const struct cavp_record *rec, const char *op, int rc);

/* cavp_mct.c */
/* One MCT record (AESAVS 6.4) / one Monte checkpoint (SHAVS 6.4).
 * Return 1 passed, 0 failed. */
int cavp_aes_mct(struct cavp_run *r, const struct cavp_record *rec);
int cavp_sha_monte(struct cavp_run *r, const struct cavp_record *rec);

#endif
