/*
 * arp: the Address Resolution Protocol for IPv4 over Ethernet (RFC 826) and
 * a small bounded cache of its answers. Freestanding; no I/O here (the
 * interface in lib/net/netif.h sends and receives).
 *
 * Packet (28 bytes after the Ethernet header): hardware type 1 (Ethernet),
 * protocol type 0x0800, hardware length 6, protocol length 4, operation
 * (1 request, 2 reply), sender MAC, sender IPv4, target MAC, target IPv4.
 */
#ifndef CQ_LIB_NET_ARP_H
#define CQ_LIB_NET_ARP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARP_LEN			28	/* bytes of an IPv4-over-Ethernet ARP packet */
#define ARP_OP_REQUEST		1
#define ARP_OP_REPLY		2
#define ARP_CACHE_ENTRIES	8	/* a box talks to a server or two and a gateway */

struct arp_packet {
	unsigned op;			/* ARP_OP_REQUEST or ARP_OP_REPLY */
	uint8_t sha[6];			/* sender hardware address */
	uint32_t spa;			/* sender IPv4, host order */
	uint8_t tha[6];			/* target hardware address (zero in a request) */
	uint32_t tpa;			/* target IPv4 */
};

/*
 * Reads an ARP packet from the len bytes after an Ethernet header. Returns
 * 0, or -1 when it is short, not Ethernet/IPv4 (htype 1, ptype 0x0800,
 * lengths 6 and 4), or its operation is neither request nor reply.
 * Bytes past the 28 (Ethernet padding) are ignored.
 */
int arp_parse(const uint8_t *p, size_t len, struct arp_packet *out);

/* Writes the 28-byte packet for a into p. Returns ARP_LEN. */
size_t arp_build(uint8_t *p, const struct arp_packet *a);

struct arp_cache {
	struct {
		uint32_t ip;		/* 0: free */
		uint8_t mac[6];
		unsigned long used;	/* the cache's clock at the last put or hit */
	} e[ARP_CACHE_ENTRIES];
	unsigned long clock;
};

/* Empties the cache. */
void arp_cache_init(struct arp_cache *c);

/*
 * Records ip -> mac (ip 0 and the broadcast address are never recorded).
 * An entry for ip is updated; otherwise a free entry or the least recently
 * used one is taken.
 */
void arp_cache_put(struct arp_cache *c, uint32_t ip, const uint8_t mac[6]);

/* Copies the MAC of ip into mac and returns true, or returns false when ip is not cached. */
bool arp_cache_get(struct arp_cache *c, uint32_t ip, uint8_t mac[6]);

#endif
