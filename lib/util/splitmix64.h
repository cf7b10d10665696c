#ifndef CQ_UTIL_SPLITMIX64_H
#define CQ_UTIL_SPLITMIX64_H
/*
 * SplitMix64 (G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom
 * number generators", OOPSLA 2014; constants as in S. Vigna's
 * splitmix64.c): the state advances by the golden-ratio gamma
 * 0x9E3779B97F4A7C15, the output is the state mixed by two
 * xor-shift-multiply steps and a last xor-shift. Not for secrets: the one
 * deterministic generator of the project, so a printed seed reproduces the
 * same test data in the image, the emulator models and the host tools.
 * Header only (static inline), so the i586 image, the host harnesses and
 * the tools share it without a link dependency.
 */
#include <stdint.h>

#define SPLITMIX64_GAMMA	0x9E3779B97F4A7C15ull

/* The output function alone: a 64-bit bijection that spreads every input bit. */
static inline uint64_t splitmix64_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Advances *state by one step and returns the next 64-bit output. */
static inline uint64_t splitmix64_next(uint64_t *state)
{
	return splitmix64_mix(*state += SPLITMIX64_GAMMA);
}

#endif
