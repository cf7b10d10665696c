/*
 * bytes: little-endian fields of firmware tables, hardware buffers and
 * test data (x86 order, read a byte at a time: no alignment assumed), and
 * the byte-sum checksum of firmware tables (ACPI 6.4 5.2.5.3 and 5.2.6,
 * SMBIOS 3.x 5.2.1: all bytes of the structure sum to 0 modulo 256).
 * Freestanding.
 */
#ifndef CQ_LIB_BYTES_H
#define CQ_LIB_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The 16-bit little-endian value at p. */
static inline uint32_t le16_get(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

/* The 32-bit little-endian value at p. */
static inline uint32_t le32_get(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Stores v at p as 2 little-endian bytes. */
static inline void le16_put(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* Stores v at p as 4 little-endian bytes. */
static inline void le32_put(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* True when the n bytes at p sum to 0 modulo 256 (n = 0: true). */
static inline bool bytes_sum_zero(const uint8_t *p, size_t n)
{
	uint8_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	return s == 0;
}

#endif
