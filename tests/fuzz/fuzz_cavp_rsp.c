/*
 * libFuzzer target for lib/host/cavp_rsp.c (the NIST CAVP .rsp reader of
 * tools/host/cavp, fed files from outside). Input: byte 0 picks the file
 * name (and so the kind: KAT, MMT, MCT, SHA message, SHA Monte), byte 1
 * the size of the pieces the rest is fed in (the parser is a stream), the
 * rest is the file. Checks that every record handed on is consistent with
 * the kind and the buffers (lengths within data_cap, whole blocks for AES,
 * Len/8 message bytes for SHA, the key size of the file, a line that
 * exists), that an error comes with a one-line message, and that errors
 * are sticky.
 * Build: make fuzz (mk/fuzz.mk); run: tests/fuzz/fuzz-readers.t.
 */
#include <stdint.h>
#include <string.h>

#include "lib/host/cavp_rsp.h"
#include "tests/fuzz/fuzz_common.h"

#define LINE_CAP 512
#define DATA_CAP 256

static const char *const names[] = {
	"ECBGFSbox128.rsp", "CBCKeySbox192.rsp", "CFB128VarKey256.rsp", "OFBVarTxt128.rsp",
	"CBCMMT128.rsp", "ECBMMT256.rsp", "CBCMCT128.rsp", "OFBMCT192.rsp",
	"SHA1ShortMsg.rsp", "SHA256LongMsg.rsp", "SHA1Monte.rsp", "SHA256Monte.rsp",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

static unsigned lines_in_input;

static int on_record(struct cavp_parser *p, const struct cavp_record *r)
{
	const struct cavp_kind *k = &p->kind;

	fz_check(r->line >= 1 && r->line <= lines_in_input);
	fz_check(r->pt_len <= DATA_CAP && r->ct_len <= DATA_CAP);
	if (k->aes) {
		fz_check(r->pt_len % 16 == 0 && r->ct_len % 16 == 0);
		fz_check(r->dir == AES_DIR_ENCRYPT || r->dir == AES_DIR_DECRYPT);
		fz_check(r->fields & CAVP_F_KEY);
	} else if (k->test == CAVP_SHA_MSG) {
		fz_check(r->len_bits % 8 == 0 && r->msg_len == r->len_bits / 8);
		fz_check(r->msg_len <= DATA_CAP);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char line[LINE_CAP];
	static uint8_t a[DATA_CAP], b[DATA_CAP];
	struct cavp_parser p;
	struct cavp_kind k;
	size_t chunk, off;
	int rc = 0, rc2;

	if (size < 2)
		return 0;
	fz_check(cavp_kind_from_name(names[data[0] % NNAMES], &k) == 0);
	chunk = 1 + data[1] % 64;
	data += 2;
	size -= 2;
	lines_in_input = fz_lines(data, size);
	cavp_init(&p, &k, line, sizeof(line), a, b, DATA_CAP, on_record, NULL);
	for (off = 0; off < size && rc == 0; off += chunk)
		rc = cavp_feed(&p, (const char *)data + off, size - off < chunk ? size - off : chunk);
	rc2 = cavp_finish(&p);
	fz_check(rc == 0 || rc2 == rc);     /* sticky */
	if (rc2 != 0) {
		fz_check(rc2 == CAVP_ESYNTAX);
		fz_check_printable(cavp_error(&p), CAVP_ERR_MAX - 1);
		fz_check(cavp_error(&p)[0] != '\0');
	} else {
		fz_check(p.records >= 1);
	}
	return 0;
}
