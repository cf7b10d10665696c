/*
 * netif: one IPv4 interface over one NIC (lib/net/netdev.h): Ethernet II
 * framing (IEEE 802.3 with an EtherType), ARP (lib/net/arp.h) answered and
 * cached, IPv4 (RFC 791) without fragmentation or options sent, and UDP
 * (RFC 768) with its checksum. What the report needs and no more: no TCP,
 * no ICMP, no routing beyond one gateway. Freestanding; it never waits:
 * the caller polls the NIC and passes each frame to netif_input(), and
 * drives address resolution with its own clock (netif_resolve()).
 */
#ifndef CQ_LIB_NET_NETIF_H
#define CQ_LIB_NET_NETIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/net/arp.h"
#include "lib/net/netdev.h"

#define ETH_HLEN	14
#define ETHERTYPE_IPV4	0x0800
#define ETHERTYPE_ARP	0x0806
#define IPV4_HLEN	20	/* without options, as this stack sends */
#define UDP_HLEN	8
/* The largest UDP payload in one unfragmented frame: 1500 - 20 - 8. */
#define UDP_MAX_PAYLOAD	(NETDEV_MAX_FRAME - ETH_HLEN - IPV4_HLEN - UDP_HLEN)

/* Errors (negative; a driver's NETDEV_E* pass through). */
#define NET_ETOOBIG	(-20)	/* payload over UDP_MAX_PAYLOAD */
#define NET_ENOROUTE	(-21)	/* no address yet, or off the subnet without a gateway */

struct net_counters {
	unsigned long rx_frames;	/* frames given to netif_input() */
	unsigned long rx_udp;		/* UDP datagrams delivered to the caller */
	unsigned long rx_arp;		/* ARP packets read */
	unsigned long rx_malformed;	/* short, bad checksum, bad lengths */
	unsigned long rx_fragments;	/* IPv4 fragments (dropped: no reassembly) */
	unsigned long rx_other;		/* well formed but not for us (other protocol, address, EtherType) */
	unsigned long arp_answered;	/* our address asked for and told */
	unsigned long tx_frames, tx_errors;
};

struct net_if {
	struct netdev *dev;
	uint8_t mac[6];			/* copied from dev at netif_init() */
	uint32_t ip, mask, gw;		/* host order; 0 while unset */
	struct arp_cache arp;
	uint16_t ip_id;			/* identification of the next datagram sent */
	struct net_counters cnt;
	uint8_t tx[NETDEV_MAX_FRAME];	/* the frame being built */
};

/* A UDP datagram netif_input() received; data points into the frame. */
struct udp_datagram {
	uint8_t src_mac[6];
	uint32_t src_ip, dst_ip;
	uint16_t sport, dport;
	const uint8_t *data;
	size_t len;
};

/* Binds nif to dev (whose mac is set), no address yet. */
void netif_init(struct net_if *nif, struct netdev *dev);

/*
 * Reads one received Ethernet frame (len bytes, no FCS). ARP: the sender
 * is cached when the packet is a reply, or a request for our address
 * (RFC 826 "merge"); a request for our address is answered at once. IPv4:
 * the header (version 4, IHL 5..15, total length within the frame, header
 * checksum) and UDP (length, checksum when not zero) are checked; a
 * fragment is dropped. A UDP datagram to our address, to a broadcast
 * address, or to anything while we have no address (DHCP) is put in *out
 * and 1 returned; 0 for anything else (counted in nif->cnt). Never
 * reads outside the len bytes.
 */
int netif_input(struct net_if *nif, const uint8_t *frame, size_t len, struct udp_datagram *out);

/*
 * Sends one UDP datagram of len bytes (at most UDP_MAX_PAYLOAD) from our
 * address (0.0.0.0 before one is set) and port sport to dst_ip:dport, in
 * an Ethernet frame to dst_mac. Returns 0, NET_ETOOBIG, or the driver's
 * NETDEV_E* error.
 */
int netif_udp_send(struct net_if *nif, const uint8_t dst_mac[6], uint32_t dst_ip, uint16_t sport,
		   uint16_t dport, const void *data, size_t len);

/* Broadcasts an ARP request for ip. Returns 0 or the driver's NETDEV_E* error. */
int netif_arp_request(struct net_if *nif, uint32_t ip);

/*
 * The next hop toward dst: dst itself on our subnet (or the limited
 * broadcast), else the gateway; 0 when there is none (no address, or off
 * the subnet without a gateway).
 */
uint32_t netif_next_hop(const struct net_if *nif, uint32_t dst);

/*
 * Address resolution driven by the caller's clock: start with
 * netif_resolve_start(), then call netif_resolve() with the time now
 * (milliseconds, any origin, wrapping allowed) after polling the NIC. It
 * sends an ARP request for the next hop at once and again every
 * interval_ms, at most tries times. Returns 1 with mac set once the next
 * hop is cached (broadcast: ff:ff:ff:ff:ff:ff at once), 0 while waiting,
 * NET_ENOROUTE when there is no next hop, or -1 after tries requests went
 * unanswered for interval_ms each.
 */
struct net_resolve {
	uint32_t hop;
	unsigned sent, tries;
	uint32_t last_ms, interval_ms;
};
void netif_resolve_start(struct net_resolve *r, const struct net_if *nif, uint32_t dst, unsigned tries,
			 uint32_t interval_ms);
int netif_resolve(struct net_if *nif, struct net_resolve *r, uint32_t now_ms, uint8_t mac[6]);

#endif
