/*
 * inet: what every layer of the network stack (lib/net/) shares: network
 * byte order (big-endian, RFC 1700 "Data Notations"), the Internet
 * checksum (RFC 1071: the 16-bit ones' complement of the ones' complement
 * sum), and IPv4 addresses as text. Addresses are kept in host order as
 * uint32_t (10.0.2.15 is 0x0A00020F). Freestanding.
 */
#ifndef CQ_LIB_NET_INET_H
#define CQ_LIB_NET_INET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define INET_ADDR_TEXT	16	/* "255.255.255.255" and its NUL */
#define INET_BROADCAST	0xFFFFFFFFu	/* limited broadcast, RFC 919 */

static inline uint16_t be16_get(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t be32_get(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void be16_put(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void be32_put(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/*
 * Adds len bytes at p (big-endian 16-bit words, an odd last byte padded
 * with zero) to the running 32-bit sum (start with 0 or a pseudo-header's
 * sum). Chain calls only at even offsets.
 */
uint32_t inet_sum(uint32_t sum, const void *p, size_t len);

/* Folds a running sum into the 16-bit checksum (its ones' complement), RFC 1071 section 4.1. */
uint16_t inet_fold(uint32_t sum);

/* The Internet checksum of len bytes: inet_fold(inet_sum(0, p, len)). A correct header sums to 0. */
uint16_t inet_checksum(const void *p, size_t len);

/*
 * Parses a dotted-quad IPv4 address ("10.0.2.2": four decimal numbers
 * 0..255, no leading '+' or blanks, at most three digits each) from the
 * len bytes at s. Returns true and sets *out (host order), or false.
 */
bool inet_parse_ip4(const char *s, size_t len, uint32_t *out);

/* Writes addr as a dotted quad into out (INET_ADDR_TEXT bytes). Returns out. */
char *inet_format_ip4(uint32_t addr, char out[INET_ADDR_TEXT]);

/* Whether mask is a contiguous netmask (ones then zeros; 0 and all ones included). */
bool inet_mask_ok(uint32_t mask);

#endif
