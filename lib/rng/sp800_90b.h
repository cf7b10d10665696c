/*
 * sp800_90b: NIST SP 800-90B (January 2018) health tests and two of its
 * min-entropy estimators, in integer arithmetic.
 *
 * Entropy figures are in micro-bits (1,000,000 = 1 bit) per sample; the
 * false-positive probability alpha is 2^-alpha_log2 (SP90B_ALPHA_LOG2 = 20,
 * the value 90B 4.4 recommends). Samples are the stream's bytes (8-bit
 * samples) or its bits, most significant bit of each byte first.
 *
 * Health tests (90B 4.4), counted over a whole stream:
 *   repetition count test (4.4.1): cutoff C = 1 + ceil(alpha_log2 / H); a
 *     run of C equal samples raises an alarm. Reported: alarms (runs that
 *     reached C, each counted once) and the longest run.
 *   adaptive proportion test (4.4.2): window W = 1024 for binary samples,
 *     512 otherwise; cutoff C = 1 + CRITBINOM(W, 2^-H, 1 - alpha), computed
 *     by fx_critbinom (no table). The first sample of each window is counted
 *     in the window (B starts at 1, as 4.4.2 step 2); a window whose count
 *     reaches C raises one alarm. Reported: alarms, windows, largest count.
 *
 * Estimators (90B 6.3), for the entropy report and the verdicts:
 *   most common value (6.3.1) on the 8-bit samples:
 *     p_u = min(1, p_hat + 2.576 sqrt(p_hat (1 - p_hat) / (L - 1))),
 *     H = -log2(p_u), p_hat = (count of the most common byte) / L.
 *   Markov (6.3.3): 90B defines it for binary samples only, and 6.3 applies
 *     its binary-only estimators to non-binary data through the bitstring
 *     of the samples (3.1.3: H = min(H_original, n * H_bitstring)). So it is
 *     computed on the bits of the bytes (most significant first) and given
 *     per bit; 8 * H_bitstring is the per-byte figure. Definition: the
 *     min-entropy of the most likely 128-bit sequence under the fitted
 *     first-order model (six candidate sequences, 6.3.3 step 3), / 128,
 *     at most 1.
 */
#ifndef CQ_LIB_SP800_90B_H
#define CQ_LIB_SP800_90B_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SP90B_ALPHA_LOG2	20		/* alpha = 2^-20, 90B 4.4 */
#define SP90B_MICRO		1000000u	/* micro-bits per bit */
#define SP90B_APT_WINDOW_BINARY	1024		/* 90B 4.4.2 */
#define SP90B_APT_WINDOW	512		/* non-binary samples */
#define SP90B_MCV_Z_MILLI	2576		/* 2.576: the 99% bound of 6.3.1 */
#define SP90B_MARKOV_LEN	128		/* sequence length of 6.3.3 */

/* 1 + ceil(alpha_log2 / H). h_micro > 0. */
uint32_t sp90b_rct_cutoff(uint32_t h_micro, unsigned alpha_log2);

/* 1024 for 1-bit samples, 512 for wider ones. */
uint32_t sp90b_apt_window(unsigned sample_bits);

/* 1 + CRITBINOM(W, 2^-H, 1 - 2^-alpha_log2); 0 < h_micro <= sample_bits * 10^6. */
uint32_t sp90b_apt_cutoff(uint32_t h_micro, unsigned sample_bits, unsigned alpha_log2);

/* The two health tests running over a stream of 8-bit or 1-bit samples. */
struct sp90b_health {
	unsigned sample_bits;		/* 8 or 1 */
	uint32_t h_micro;		/* claimed min-entropy per sample */
	uint32_t rct_cutoff, apt_cutoff, apt_window;
	uint64_t samples;
	/* repetition count */
	unsigned rct_a;
	uint64_t rct_b;
	uint64_t rct_alarms, rct_longest;
	/* adaptive proportion */
	unsigned apt_a;
	uint32_t apt_b, apt_i;
	uint32_t apt_max;		/* largest count of a window's first value */
	uint64_t apt_windows;		/* complete windows */
	uint64_t apt_alarms;		/* windows whose count reached the cutoff */
};

/* sample_bits 8 or 1; h_micro the claimed entropy per sample (0 < h <= bits). */
void sp90b_health_init(struct sp90b_health *h, unsigned sample_bits, uint32_t h_micro);
void sp90b_health_feed(struct sp90b_health *h, const uint8_t *buf, size_t len);

/* Counts the estimators need, gathered over a stream. */
struct sp90b_counts {
	uint64_t bytes;
	uint64_t count[256];		/* occurrences of each byte value */
	uint64_t bits, zeros;		/* bits seen, zeros among them */
	uint64_t c0, c00, c10;		/* over consecutive bit pairs (s_i, s_i+1): */
					/* s_i = 0; s_i = 0 and s_i+1 = 0; s_i = 1 and s_i+1 = 0 */
	uint8_t last_bit;
};

void sp90b_counts_init(struct sp90b_counts *c);
void sp90b_counts_feed(struct sp90b_counts *c, const uint8_t *buf, size_t len);

struct sp90b_mcv {
	uint32_t h_micro;		/* min-entropy per byte */
	unsigned mode;			/* the most common byte value (the lowest on a tie) */
	uint64_t mode_count;
	uint64_t p_u_frac;		/* p_u * 2^64 (all ones when p_u = 1) */
};

/* 6.3.1 on the byte counts. Needs at least 2 bytes (else h_micro = 0). */
void sp90b_mcv(const struct sp90b_counts *c, struct sp90b_mcv *out);

/* 6.3.3 on the bitstring: min-entropy per bit, micro-bits (0..10^6). Needs 2 bits. */
uint32_t sp90b_markov(const struct sp90b_counts *c);

#endif
