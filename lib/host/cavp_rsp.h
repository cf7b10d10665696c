/*
 * cavp: NIST CAVP response files (.rsp) for AES and SHA, parsed as a stream
 * and run through an engine.
 *
 * Files understood (the kind comes from the file name, not the header
 * comments, since the names are what NIST publishes; the header is free
 * text and ignored):
 *   AESAVS (NIST, "The Advanced Encryption Standard Algorithm Validation
 *   Suite", 2002):  {ECB,CBC,CFB128,OFB}{GFSbox,KeySbox,VarKey,VarTxt,MMT,MCT}{128,192,256}.rsp
 *     [ENCRYPT] / [DECRYPT] sections of records COUNT, KEY, IV (not ECB),
 *     PLAINTEXT, CIPHERTEXT in either order. KAT files (GFSbox, KeySbox,
 *     VarKey, VarTxt) and MCT hold one block a record, MMT several.
 *     MCT records are checked by the Monte Carlo algorithm of AESAVS 6.4.
 *   SHAVS (NIST, "The Secure Hash Algorithm Validation System", 2004):
 *     SHA{1,256}{ShortMsg,LongMsg,Monte}.rsp
 *     an [L = 20] or [L = 32] section (digest bytes), then records Len
 *     (bits; byte-oriented files only), Msg, MD; Monte files have one
 *     Seed, then records COUNT, MD checked by SHAVS 6.4.
 * Lines end in LF or CRLF; lines starting with '#' are comments; blank
 * lines separate records. Anything else (an unknown field or section, bad
 * hex, an odd number of digits, a missing or repeated field, a length that
 * does not match the file's key size or digest) is an error naming the
 * 1-based line.
 *
 * Allocation-free: the caller gives a line buffer and two data buffers.
 */
#ifndef CQ_LIB_CAVP_H
#define CQ_LIB_CAVP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/engine/engine.h"
#include "lib/vectors/kat.h"

/* Errors (negative). */
#define CAVP_ESYNTAX	(-1)	/* malformed input: cavp_error() names the line */
#define CAVP_EKIND	(-2)	/* file name of no known kind */
#define CAVP_EUNCLAIMED	(-3)	/* the engine does not claim the file's triple */
#define CAVP_EENGINE	(-4)	/* no engine for the file's algorithm */

#define CAVP_ERR_MAX	192	/* error message, NUL included */
#define CAVP_LABEL_MAX	32

enum cavp_test {
	CAVP_AES_KAT,		/* GFSbox, KeySbox, VarKey, VarTxt */
	CAVP_AES_MMT,		/* multi-block message test */
	CAVP_AES_MCT,		/* Monte Carlo test, AESAVS 6.4 */
	CAVP_SHA_MSG,		/* ShortMsg, LongMsg */
	CAVP_SHA_MONTE,		/* pseudorandomly generated messages, SHAVS 6.4 */
};

struct cavp_kind {
	enum cavp_test test;
	bool aes;		/* AES (key_bits, mode) or SHA (alg) */
	unsigned key_bits;
	enum aes_mode mode;
	enum hash_alg alg;
	char label[CAVP_LABEL_MAX];	/* "aes-128-cbc MMT", "sha256 Monte" */
};

/*
 * Kind of the file named path (directories are ignored; the name must end
 * in ".rsp"). Returns 0, or CAVP_EKIND (also for CFB1, CFB8 and the SHA-2
 * sizes other than 256, which are not supported).
 */
int cavp_kind_from_name(const char *path, struct cavp_kind *k);

/* Fields of a record (bits of cavp_record.fields). */
#define CAVP_F_COUNT	(1u << 0)
#define CAVP_F_KEY	(1u << 1)
#define CAVP_F_IV	(1u << 2)
#define CAVP_F_PT	(1u << 3)
#define CAVP_F_CT	(1u << 4)
#define CAVP_F_LEN	(1u << 5)
#define CAVP_F_MSG	(1u << 6)
#define CAVP_F_MD	(1u << 7)
#define CAVP_F_SEED	(1u << 8)
#define CAVP_NFIELDS	9

/* One record, validated against the file's kind before it is handed on. */
struct cavp_record {
	unsigned line;		/* line of its first field */
	unsigned fields;	/* CAVP_F_* present */
	unsigned field_line[CAVP_NFIELDS];
	enum aes_dir dir;	/* AES: the section */
	uint32_t count;		/* COUNT */
	uint8_t key[32];	/* key_bits / 8 bytes */
	uint8_t iv[AES_BLOCK_BYTES];
	uint8_t *pt, *ct;	/* the caller's data buffers */
	size_t pt_len, ct_len;
	uint32_t len_bits;	/* Len */
	uint8_t *msg;		/* = pt buffer; msg_len = len_bits / 8 */
	size_t msg_len;
	uint8_t md[32];		/* MD, or Seed for a Seed record */
	uint8_t seed[32];
};

struct cavp_parser;

/* Receives each record. Returns 0, or a negative error that stops the parse
 * (after cavp_set_error() to say why). */
typedef int (*cavp_record_fn)(struct cavp_parser *p, const struct cavp_record *r);

struct cavp_parser {
	struct cavp_kind kind;
	char *line;		/* the caller's line buffer */
	size_t line_cap, line_len;
	bool line_long;		/* the current line overflowed */
	unsigned lineno;	/* lines seen, = 1-based number of the current line */
	bool section;		/* inside a section header's scope */
	enum aes_dir dir;
	struct cavp_record rec;
	size_t data_cap;	/* bytes of each data buffer */
	unsigned records;	/* records handed on */
	cavp_record_fn fn;
	void *ctx;		/* for fn */
	int err;		/* sticky: 0 or the first error */
	char errmsg[CAVP_ERR_MAX];
};

/*
 * Prepares p for a file of kind k. line (line_cap bytes) holds one line at
 * a time, so line_cap bounds the longest line (a SHA-256 LongMsg line is
 * about 21 000 bytes); data_a and data_b (data_cap bytes each) receive
 * PLAINTEXT/Msg and CIPHERTEXT. The records are handed to engines as they
 * are, so the data buffers must meet the engine's alignment (the MCT
 * works on 16-byte aligned blocks of its own).
 */
void cavp_init(struct cavp_parser *p, const struct cavp_kind *k, char *line, size_t line_cap,
	       uint8_t *data_a, uint8_t *data_b, size_t data_cap,
	       cavp_record_fn fn, void *ctx);

/* Parses the next len bytes of the file. Returns 0 or the (sticky) error. */
int cavp_feed(struct cavp_parser *p, const char *data, size_t len);

/* End of file: the last line and record. Returns 0 or the error (a file
 * without any record is an error too). */
int cavp_finish(struct cavp_parser *p);

/* Records the first error: "line N: <text>" (line 0: no line number). */
int cavp_set_error(struct cavp_parser *p, int err, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The error message ("" when none). */
const char *cavp_error(const struct cavp_parser *p);

/* ---- Running the records through an engine (cavp_run.c) ---- */

struct cavp_run {
	const struct cavp_kind *kind;
	const struct aes_engine *aes;	/* for AES files */
	const struct hash_engine *hash;	/* for SHA files, of the file's algorithm */
	struct aes_session *session;
	uint8_t *work;			/* output buffer, work_cap bytes */
	size_t work_cap;
	kat_note_fn note;		/* one line per failed record */
	void *note_ctx;
	unsigned passed, failed, skipped;
	/* MCT: what the next record's inputs must be (AESAVS 6.4). */
	bool chain;
	uint32_t chain_count;
	enum aes_dir chain_dir;
	uint8_t next_key[32], next_iv[AES_BLOCK_BYTES], next_in[AES_BLOCK_BYTES];
	/* SHA Monte: the seed of the next checkpoint. */
	bool have_seed;
	uint8_t seed[32];
};

/*
 * Sets up r for kind k (the engines are the caller's choice; the one the
 * file does not need may be NULL). work must hold the longest message
 * (the parser's data_cap). Returns 0, or CAVP_EENGINE.
 */
int cavp_run_init(struct cavp_run *r, const struct cavp_kind *k,
		  const struct aes_engine *aes, const struct hash_engine *hash,
		  struct aes_session *session, uint8_t *work, size_t work_cap,
		  kat_note_fn note, void *note_ctx);

/*
 * The record callback for cavp_init (ctx: the struct cavp_run). Checks one
 * record, counting it passed, failed or skipped (SHA message over the
 * engine's max_len). Returns 0, or CAVP_EUNCLAIMED when the engine does not
 * claim the record's (key size, mode, direction).
 */
int cavp_run_record(struct cavp_parser *p, const struct cavp_record *rec);

#endif
