/*
 * bench_aes: the AES engines' rows of the benchmark: which rows (every
 * claimed key size and mode, decryption where it is a different operation,
 * the variants), and the timed operation of one cell. See bench.h.
 */
#include <string.h>

#include "lib/util/fmt.h"
#include "kernel/run/bench_int.h"

#define SIZE_8192	4		/* index of 8192 in bench_sizes */
#define ALL_SIZES	((1u << BENCH_NSIZES) - 1)
#define MIN_ALIGN	64		/* alignment given to every engine (a cache line) */

static struct aes_session session;	/* over 1 KiB: not on the stack */

/* p rounded up to the engine's alignment (at least a cache line). */
static uint8_t *align_up(uint8_t *p, unsigned align)
{
	uintptr_t a = align < MIN_ALIGN ? MIN_ALIGN : align;
	return (uint8_t *)(((uintptr_t)p + a - 1) & ~(a - 1));
}

struct aes_run {
	const struct aes_engine *e;
	struct aes_session *s;
	bool dual;
	enum aes_mode mode;
	enum aes_dir dir;
	uint8_t *iv, *iv2;
	const uint8_t *in, *in2;
	uint8_t *out, *out2;
	uint8_t *bin, *bout;		/* bounce buffers (unaligned input, align > 1), or NULL */
	size_t len, chunk;
};

static int aes_run_fn(void *ctx, uint64_t count)
{
	struct aes_run *r = ctx;
	size_t off, n;
	int rc;

	for (; count > 0; count--) {
		const uint8_t *in = r->in;
		uint8_t *out = r->out;
		if (r->bin) {
			memcpy(r->bin, r->in, r->len);
			in = r->bin;
			out = r->bout;
		}
		for (off = 0; off < r->len; off += n) {
			n = r->len - off < r->chunk ? r->len - off : r->chunk;
			if (r->dual)
				rc = r->e->crypt_dual(r->s, r->mode, r->dir, r->iv, in + off, out + off,
						      r->iv2, r->in2 + off, r->out2 + off, n);
			else
				rc = r->e->crypt(r->s, r->mode, r->dir, r->iv, in + off, out + off, n);
			if (rc != 0)
				return rc;
		}
		if (r->bin)
			memcpy(r->out, r->bout, r->len);
	}
	return 0;
}

static const uint8_t bench_key[32] = {
	0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c,
	0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81,
};

/* Sets up r for row row at size len over the buffers. Returns 0 or ENGINE_E*. */
static int aes_run_setup(struct aes_run *r, const struct bench_row *row,
			 struct bench_buffers *bb, size_t len)
{
	const struct aes_engine *e = row->aes;
	unsigned al = e->align ? e->align : 1;

	memset(r, 0, sizeof(*r));
	if (al > BENCH_BUF_ALIGN || (al & (al - 1)))
		return ENGINE_EUNSUPPORTED;
	r->e = e;
	r->s = &session;
	r->mode = row->mode;
	r->dir = row->adir;
	r->len = len;
	r->chunk = e->max_len ? e->max_len / AES_BLOCK_BYTES * AES_BLOCK_BYTES : len;
	if (r->chunk == 0)
		return ENGINE_ELEN;
	memset(bb->iv, 0x5a, sizeof(bb->iv));
	r->iv = row->mode == AES_MODE_ECB ? NULL : bb->iv[0];
	r->in = align_up(bb->a, al);
	r->out = align_up(bb->b, al);
	switch (row->bv) {
	case BV_SEPARATE:
		break;
	case BV_INPLACE:
		r->out = (uint8_t *)r->in;
		break;
	case BV_UNALIGNED:
		r->in++;
		r->out++;
		if (al > 1) {
			r->bin = align_up(bb->c, al);
			r->bout = align_up(bb->d, al);
		}
		break;
	case BV_DUAL:
		r->dual = true;
		r->iv2 = row->mode == AES_MODE_ECB ? NULL : bb->iv[1];
		r->in2 = align_up(bb->c, al);
		r->out2 = align_up(bb->d, al);
		break;
	}
	return 0;
}

/*
 * The last measured cost of one operation per engine and size (cycles),
 * from the rows measured so far: the prediction for a row's first cell.
 */
#define SEEN_ENGINES	8
static struct {
	const struct aes_engine *e;
	uint64_t cycles[BENCH_NSIZES];
} seen[SEEN_ENGINES];

static uint64_t *seen_costs(const struct aes_engine *e)
{
	unsigned k;

	for (k = 0; k < SEEN_ENGINES; k++) {
		if (seen[k].e == e)
			return seen[k].cycles;
		if (!seen[k].e) {
			seen[k].e = e;
			return seen[k].cycles;
		}
	}
	return NULL;	/* more engines than remembered: no prediction */
}

bool bench_measure_aes_row(const struct bench_plan *p, struct bench_row *row,
			   struct bench_buffers *bb)
{
	const struct aes_engine *e = row->aes;
	struct aes_run r;
	bool ok = true;
	unsigned i;
	int key_rc, rc;

	uint64_t *last = seen_costs(e);

	memset(&session, 0, sizeof(session));
	session.engine = e;
	session.key_bits = row->key_bits;
	key_rc = e->set_key(&session, bench_key, row->key_bits);
	for (i = 0; i < BENCH_NSIZES; i++) {
		if (!(row->sizes_mask & (1u << i)))
			continue;
		rc = key_rc;
		if (rc == 0)
			rc = aes_run_setup(&r, row, bb, bench_sizes[i]);
		if (rc == 0)
			rc = bench_measure_hint(p, aes_run_fn, &r,
						row->bv == BV_DUAL ? 2ull * bench_sizes[i] : bench_sizes[i],
						bench_predict_cycles(row, i, last), &row->cell[i]);
		else
			row->cell[i].err = rc;
		if (rc == 0 && last && row->bv != BV_DUAL && row->cell[i].ops)
			last[i] = row->cell[i].cycles / row->cell[i].ops;
		if (rc != 0)
			ok = false;
	}
	e->release(&session);
	bench_print_records(p, row);
	return ok;
}

/* OFB and CTR decryption is the encryption operation itself (SP 800-38A 6.4, 6.5). */
static bool same_both_ways(enum aes_mode m)
{
	return m == AES_MODE_OFB || m == AES_MODE_CTR;
}

/* openssl's names: aes-128-cfb is CFB128. */
static const char *openssl_mode(enum aes_mode m)
{
	return m == AES_MODE_CFB128 ? "cfb" : aes_mode_name(m);
}

static const char *const variant_suffix[] = {
	[BV_SEPARATE] = "", [BV_INPLACE] = ":inplace",
	[BV_UNALIGNED] = ":unaligned", [BV_DUAL] = ":dual-context",
};

static const char *variant_name(enum bench_variant bv, unsigned align)
{
	switch (bv) {
	case BV_INPLACE:	return "inplace-aligned";
	case BV_UNALIGNED:	return align > 1 ? "separate-unaligned-bounced" : "separate-unaligned";
	case BV_DUAL:		return "dual-context";
	case BV_SEPARATE:
	default:		return "separate-aligned";
	}
}

static bool add_aes_row(struct bench_row *rows, unsigned max, unsigned *n,
			const struct aes_engine *e, unsigned bits,
			enum aes_mode m, enum aes_dir d, enum bench_variant bv,
			unsigned mask)
{
	struct bench_row *r;

	if (*n >= max)
		return false;
	r = &rows[(*n)++];
	memset(r, 0, sizeof(*r));
	r->engine = e->name;
	r->emulated = engine_emulated(e->name);
	r->aes = e;
	r->key_bits = bits;
	r->mode = m;
	r->adir = d;
	r->dir = aes_dir_name(d);
	r->bv = bv;
	r->sizes_mask = mask;
	r->variant = variant_name(bv, e->align);
	fmt_snprintf(r->alg, sizeof(r->alg), "aes-%u-%s", bits, openssl_mode(m));
	fmt_snprintf(r->base, sizeof(r->base), "%s:%s", e->name, r->alg);
	fmt_snprintf(r->name, sizeof(r->name), "%s%s%s%s", r->base,
		     d == AES_DIR_DECRYPT ? ":decrypt" : "", variant_suffix[bv],
		     engine_emulated(e->name) ? "(emulated)" : "");
	return true;
}

/* The triple the variant rows use: AES-128-CBC encryption, else the engine's first claim. */
static bool variant_triple(const struct aes_engine *e, unsigned *bits, enum aes_mode *m,
			   enum aes_dir *d)
{
	unsigned k, mi, di;

	*bits = 128;
	*m = AES_MODE_CBC;
	*d = AES_DIR_ENCRYPT;
	if (aes_engine_supports(e, *bits, *m, *d))
		return true;
	for (di = 0; di < AES_DIR_COUNT; di++)
		for (k = 0; k < AES_KEYSIZES; k++)
			for (mi = 0; mi < AES_MODE_COUNT; mi++)
				if (aes_engine_supports(e, aes_keysize_bits(k), (enum aes_mode)mi,
							(enum aes_dir)di)) {
					*bits = aes_keysize_bits(k);
					*m = (enum aes_mode)mi;
					*d = (enum aes_dir)di;
					return true;
				}
	return false;
}

/*
 * bench=quick's rows: AES-128 in every mode, and AES-256 in CBC (the two
 * `openssl speed -evp` comparisons users run most); AES-192 and the other
 * AES-256 modes only with bench=full.
 */
static bool in_quick_scope(unsigned bits, enum aes_mode m)
{
	return bits == 128 || (bits == 256 && m == AES_MODE_CBC);
}

/*
 * The AES rows, algorithm-major so that every engine's row for one
 * algorithm sits together: for each key size, mode and direction, one row
 * per engine that claims it; then each engine's variant rows.
 */
unsigned bench_aes_rows(struct bench_row *rows, unsigned max, bool quick,
			unsigned *nengines)
{
	unsigned n = 0, i, k, mi, di, bits;
	enum aes_mode m;
	enum aes_dir d;

	*nengines = 0;
	for (k = 0; k < AES_KEYSIZES; k++)
		for (mi = 0; mi < AES_MODE_COUNT; mi++)
			for (di = 0; di < AES_DIR_COUNT; di++)
				for (i = 0; i < engine_aes_count(); i++) {
					const struct aes_engine *e = engine_aes(i);
					bits = aes_keysize_bits(k);
					m = (enum aes_mode)mi;
					d = (enum aes_dir)di;
					if (!aes_engine_supports(e, bits, m, d) ||
					    (quick && !in_quick_scope(bits, m)))
						continue;
					if (d == AES_DIR_DECRYPT && same_both_ways(m) &&
					    aes_engine_supports(e, bits, m, AES_DIR_ENCRYPT))
						continue;
					add_aes_row(rows, max, &n, e, bits, m, d, BV_SEPARATE, ALL_SIZES);
				}
	for (i = 0; i < engine_aes_count(); i++) {
		const struct aes_engine *e = engine_aes(i);
		if (!variant_triple(e, &bits, &m, &d))
			continue;
		(*nengines)++;
		add_aes_row(rows, max, &n, e, bits, m, d, BV_INPLACE, ALL_SIZES);
		/* Unaligned input costs nothing extra on an engine taking any alignment:
		 * one cell shows it; an engine needing alignment gets the whole row. */
		add_aes_row(rows, max, &n, e, bits, m, d, BV_UNALIGNED,
			    e->align > 1 ? ALL_SIZES : 1u << SIZE_8192);
		/* Both contexts at once, in the one triple the engine offers them for. */
		if (e->crypt_dual && aes_engine_supports(e, 128, e->dual_mode, e->dual_dir))
			add_aes_row(rows, max, &n, e, 128, e->dual_mode, e->dual_dir, BV_DUAL, ALL_SIZES);
	}
	return n;
}

