/*
 * bench_units: the benchmark's other units: hash engines (same table form
 * as AES), RNG sources (bytes per second) and Montgomery multipliers
 * (operations per second). See bench.h.
 */
#include <string.h>

#include "lib/measure/bench_stats.h"
#include "lib/util/fmt.h"
#include "kernel/run/bench_int.h"
#include "kernel/run/report.h"

#define ALL_SIZES	((1u << BENCH_NSIZES) - 1)

/* ---- Hashes ---- */

bool bench_hash_rows(struct bench_row *rows, unsigned max, unsigned *n)
{
	unsigned a, i;

	*n = 0;
	/* Algorithm-major, like the AES rows: software:sha1 beside padlock-phe:sha1. */
	for (a = 0; a < HASH_ALG_COUNT; a++)
		for (i = 0; i < engine_hash_count(); i++) {
			const struct hash_engine *h = engine_hash(i);
			struct bench_row *r;
			unsigned j;

			if (h->alg != (enum hash_alg)a)
				continue;
			if (*n >= max)
				return false;
			r = &rows[(*n)++];
			memset(r, 0, sizeof(*r));
			r->is_hash = true;
			r->hash = h;
			r->engine = h->name;
			r->emulated = engine_emulated(h->name);
			r->dir = "digest";
			r->variant = "oneshot";
			/* A message longer than the engine takes at once has no figure. */
			for (j = 0; j < BENCH_NSIZES; j++)
				if (h->max_len == 0 || bench_sizes[j] <= h->max_len)
					r->sizes_mask |= 1u << j;
			fmt_snprintf(r->alg, sizeof(r->alg), "%s", hash_alg_name(h->alg));
			fmt_snprintf(r->base, sizeof(r->base), "%s:%s", h->name, r->alg);
			fmt_snprintf(r->name, sizeof(r->name), "%s%s", r->base,
				     engine_emulated(h->name) ? "(emulated)" : "");
		}
	return true;
}

struct hash_run {
	const struct hash_engine *h;
	const uint8_t *msg;
	uint8_t *out;
	size_t len;
};

static int hash_run_fn(void *ctx, uint64_t count)
{
	struct hash_run *r = ctx;
	int rc;

	for (; count > 0; count--) {
		rc = r->h->digest(r->h, r->msg, r->len, r->out);
		if (rc != 0)
			return rc;
	}
	return 0;
}

bool bench_measure_hash_row(const struct bench_plan *p, struct bench_row *row)
{
	struct bench_buffers *bb;
	struct hash_run r;
	bool ok = true;
	unsigned i;

	if (!bench_buffers(&bb))
		return false;
	for (i = 0; i < BENCH_NSIZES; i++) {
		if (!(row->sizes_mask & (1u << i)))
			continue;
		r.h = row->hash;
		r.msg = bb->a + 64;
		r.out = bb->digest;
		r.len = bench_sizes[i];
		/* The count from the row's smaller sizes, as for the AES rows (no doubling from 1). */
		if (bench_measure_hint(p, hash_run_fn, &r, bench_sizes[i],
				       bench_predict_cycles(row, i, NULL), &row->cell[i]) != 0)
			ok = false;
	}
	bench_print_records(p, row);
	return ok;
}

/* ---- RNG sources ---- */

struct rng_run {
	const struct rng_source *src;
	uint8_t *buf;
};

static int rng_run_fn(void *ctx, uint64_t count)
{
	struct rng_run *r = ctx;
	size_t got;
	int rc;

	for (; count > 0; count--) {
		got = 0;
		rc = r->src->read(r->src, r->buf, BENCH_RNG_READ, &got);
		if (rc != 0)
			return rc;
		if (got != BENCH_RNG_READ)
			return ENGINE_EHW;	/* success claimed, bytes missing */
	}
	return 0;
}

bool bench_rng(const struct bench_plan *p)
{
	struct bench_buffers *bb;
	struct bench_cell c;
	struct rng_run r;
	char bps[24], spread[16];
	bool ok = true;
	unsigned i;

	if (!bench_buffers(&bb))
		return false;
	tap_diag("bench: RNG sources, bytes per second in %u-byte reads (median of %u runs):",
		 BENCH_RNG_READ, p->reps);
	tap_diag("%-28s %16s %8s", "source", "bytes/s", "spread");
	for (i = 0; i < engine_rng_count(); i++) {
		const struct rng_source *src = engine_rng(i);
		uint64_t per_s;

		r.src = src;
		r.buf = bb->a;
		if (bench_measure(p, rng_run_fn, &r, BENCH_RNG_READ, &c) != 0) {
			tap_diag("bench: %s: %s", src->name, bench_strerror(c.err));
			tap_diag("%-28s %16s %8s", src->name, "failed", "-");
			/* A characterised source (engine.h) is measured, never judged. */
			if (src->claim == RNG_CLAIM_CHARACTERISE) {
				tap_diag("bench: %s: characterised, not judged", src->name);
				continue;
			}
			/* The table's failure counts in the first failing source's row. */
			if (ok)
				report_subject(src->name, RSUM_RNG);
			ok = false;
			continue;
		}
		per_s = bstat_per_second(c.bytes, c.cycles, p->hz);
		report_speed(src->name, per_s, 0, true, engine_emulated(src->name));
		fmt_fixed(spread, sizeof(spread), (int64_t)c.spread_x10, 1);
		fmt_snprintf(bps, sizeof(bps), "%llu", (unsigned long long)per_s);
		tap_diag("@rng source=%s bytes=%llu bytes_per_s=%s spread_pct=%s reps=%u emulated=%d",
			 src->name, (unsigned long long)c.bytes * p->reps, bps, spread, p->reps,
			 engine_emulated(src->name));
		tap_diag("%-28s %16s %7s%%%s", src->name, bps, spread,
			 engine_emulated(src->name) ? "  (emulated)" : "");
	}
	return ok;
}

/* ---- Montgomery multipliers ---- */

struct mm_run {
	const struct montmul_engine *m;
	unsigned bits;
};

static int mm_run_fn(void *ctx, uint64_t count)
{
	struct mm_run *r = ctx;
	return r->m->op(r->m->ctx, r->bits, count);
}

bool bench_montmul(const struct bench_plan *p)
{
	char ops[24], cyc[24];
	struct bench_cell c;
	struct mm_run r;
	bool ok = true;
	unsigned i, j;

	tap_diag("bench: Montgomery multiplication, operations per second (median of %u runs):",
		 p->reps);
	tap_diag("%-28s %6s %14s %14s", "engine", "bits", "ops/s", "cycles/op");
	for (i = 0; i < engine_montmul_count(); i++) {
		const struct montmul_engine *m = engine_montmul(i);
		bool emulated = engine_emulated(m->name);
		for (j = 0; j < m->nbits && j < MONTMUL_MAX_SIZES; j++) {
			r.m = m;
			r.bits = m->bits[j];
			if (bench_measure(p, mm_run_fn, &r, 0, &c) != 0) {
				tap_diag("bench: %s %u bits: %s", m->name, r.bits, bench_strerror(c.err));
				if (ok)
					report_subject(m->name, RSUM_PROBE);
				ok = false;
				continue;
			}
			fmt_snprintf(ops, sizeof(ops), "%llu",
				     (unsigned long long)bstat_per_second(c.ops, c.cycles, p->hz));
			fmt_fixed(cyc, sizeof(cyc), (int64_t)bstat_muldiv(c.cycles, 100, c.ops), 2);
			if (m->path) {
				tap_diag("@montmul engine=%s bits=%u ops_per_s=%s cycles_per_op=%s reps=%u emulated=%d path=%s",
					 m->name, r.bits, ops, cyc, p->reps, emulated, m->path());
				tap_diag("%-28s %6u %14s %14s  (%s path)", m->name, r.bits, ops, cyc,
					 m->path());
			} else {
				tap_diag("@montmul engine=%s bits=%u ops_per_s=%s cycles_per_op=%s reps=%u emulated=%d",
					 m->name, r.bits, ops, cyc, p->reps, emulated);
				tap_diag("%-28s %6u %14s %14s%s", m->name, r.bits, ops, cyc,
					 emulated ? "  (emulated)" : "");
			}
		}
	}
	return ok;
}
