/*
 * rng_repeat: finds data that a source delivers twice. The FIPS continuous
 * test only compares neighbouring 32-bit words, and none of the statistics
 * (ent, 90B estimates, FIPS block tests) notices a source that replays a
 * buffer (a 2 KiB block over and over, or a short LFSR whose output repeats
 * every 65535 bytes): each copy looks random on its own.
 *
 * Method (a Rabin-Karp search, as rsync matches blocks): the stream is cut
 * into aligned windows of RNG_REPEAT_WINDOW bytes; the fingerprints of the
 * first RNG_REPEAT_STORED of them are kept in a hash table. At every byte
 * position a rolling hash gives the fingerprint of the last
 * RNG_REPEAT_WINDOW bytes, which is looked up in the table, so a repeat is
 * found at any distance and any alignment, as long as its first copy lies
 * in the first RNG_REPEAT_STORED * RNG_REPEAT_WINDOW bytes (512 KiB).
 *
 * Fingerprints: polynomial hash mod 2^64 (base RNG_REPEAT_BASE), mixed
 * with the splitmix64 finaliser; the table keeps 40 bits of it. Two
 * different windows of a random source match falsely with probability
 * about 2^-40 per lookup (2.5 * 10^-6 over 2.5 MB), so the verdict asks for
 * at least RNG_REPEAT_MIN_HITS hits; a true repeat gives hundreds. Two equal
 * 128-byte windows in random data have probability 2^-1024.
 */
#ifndef CQ_LIB_RNG_REPEAT_H
#define CQ_LIB_RNG_REPEAT_H

#include <stddef.h>
#include <stdint.h>

#define RNG_REPEAT_WINDOW	128	/* bytes fingerprinted together */
#define RNG_REPEAT_SLOTS	8192	/* hash table slots, a power of two */
#define RNG_REPEAT_SLOT_BITS	13
#define RNG_REPEAT_STORED	4096	/* aligned windows kept (table half full) */
#define RNG_REPEAT_MIN_HITS	2	/* hits that make a repeat verdict */

struct rng_repeat {
	uint64_t slot[RNG_REPEAT_SLOTS];	/* 0 empty, else fp40 << 24 | window number + 1 */
	uint8_t ring[RNG_REPEAT_WINDOW];	/* the last window's bytes */
	uint64_t hash;				/* rolling hash of the ring */
	uint64_t pos;				/* bytes seen */
	uint32_t stored;
	uint64_t hits;		/* positions whose last window equals an earlier window */
	uint64_t first_hit;	/* stream offset of the first such window (valid when hits) */
	uint64_t first_dist;	/* its distance from the earlier copy, bytes */
};

void rng_repeat_init(struct rng_repeat *r);
void rng_repeat_feed(struct rng_repeat *r, const uint8_t *buf, size_t len);

#endif
