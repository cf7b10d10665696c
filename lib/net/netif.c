/* netif: Ethernet, ARP, IPv4 and UDP over one NIC. See netif.h. */
#include "lib/net/netif.h"

#include <string.h>

#include "lib/net/inet.h"

#define IP_PROTO_UDP	17	/* RFC 790 */
#define IP_TTL		64	/* RFC 1700's recommended default */
#define IP_FLAG_MF	0x2000	/* more fragments, RFC 791 3.1 */
#define IP_FRAG_OFFSET	0x1FFF

static const uint8_t eth_broadcast[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };

void netif_init(struct net_if *nif, struct netdev *dev)
{
	memset(nif, 0, sizeof(*nif));
	nif->dev = dev;
	memcpy(nif->mac, dev->mac, 6);
	arp_cache_init(&nif->arp);
}

static size_t eth_header(struct net_if *nif, const uint8_t dst[6], uint16_t type)
{
	memcpy(nif->tx, dst, 6);
	memcpy(nif->tx + 6, nif->mac, 6);
	be16_put(nif->tx + 12, type);
	return ETH_HLEN;
}

static int transmit(struct net_if *nif, size_t len)
{
	int rc = nif->dev->send(nif->dev, nif->tx, len);

	if (rc < 0)
		nif->cnt.tx_errors++;
	else
		nif->cnt.tx_frames++;
	return rc < 0 ? rc : 0;
}

static int arp_send(struct net_if *nif, unsigned op, const uint8_t eth_dst[6], const uint8_t tha[6], uint32_t tpa)
{
	struct arp_packet a;
	size_t o = eth_header(nif, eth_dst, ETHERTYPE_ARP);

	a.op = op;
	memcpy(a.sha, nif->mac, 6);
	a.spa = nif->ip;
	memcpy(a.tha, tha, 6);
	a.tpa = tpa;
	o += arp_build(nif->tx + o, &a);
	return transmit(nif, o);
}

int netif_arp_request(struct net_if *nif, uint32_t ip)
{
	static const uint8_t zero[6];
	return arp_send(nif, ARP_OP_REQUEST, eth_broadcast, zero, ip);
}

static void arp_input(struct net_if *nif, const uint8_t *p, size_t len)
{
	struct arp_packet a;

	if (arp_parse(p, len, &a) != 0) {
		nif->cnt.rx_malformed++;
		return;
	}
	nif->cnt.rx_arp++;
	if (a.op == ARP_OP_REPLY || (nif->ip != 0 && a.tpa == nif->ip))
		arp_cache_put(&nif->arp, a.spa, a.sha);
	if (a.op == ARP_OP_REQUEST && nif->ip != 0 && a.tpa == nif->ip) {
		if (arp_send(nif, ARP_OP_REPLY, a.sha, a.sha, a.spa) == 0)
			nif->cnt.arp_answered++;
	}
}

/* Whether dst is one of ours: our address, the limited broadcast, our subnet's broadcast, or anything before we have an address. */
static bool for_us(const struct net_if *nif, uint32_t dst)
{
	if (nif->ip == 0 || dst == INET_BROADCAST || dst == nif->ip)
		return true;
	return nif->mask != 0 && nif->mask != INET_BROADCAST && dst == (nif->ip | ~nif->mask);
}

/* The UDP checksum's pseudo-header sum (RFC 768): addresses, protocol, UDP length. */
static uint32_t pseudo_sum(uint32_t src, uint32_t dst, size_t udp_len)
{
	uint8_t ph[12];

	be32_put(ph, src);
	be32_put(ph + 4, dst);
	ph[8] = 0;
	ph[9] = IP_PROTO_UDP;
	be16_put(ph + 10, (uint16_t)udp_len);
	return inet_sum(0, ph, sizeof(ph));
}

static int ipv4_input(struct net_if *nif, const uint8_t *frame, const uint8_t *p, size_t len,
		      struct udp_datagram *out)
{
	size_t ihl, total, ulen;
	uint32_t src, dst;
	const uint8_t *u;

	if (len < IPV4_HLEN || (p[0] >> 4) != 4) {
		nif->cnt.rx_malformed++;
		return 0;
	}
	ihl = (size_t)(p[0] & 0x0F) * 4;
	total = be16_get(p + 2);
	/* RFC 791 3.1: IHL at least 5 words, total length covers the header; Ethernet may pad after it. */
	if (ihl < IPV4_HLEN || total < ihl || total > len || inet_checksum(p, ihl) != 0) {
		nif->cnt.rx_malformed++;
		return 0;
	}
	if (be16_get(p + 6) & (IP_FLAG_MF | IP_FRAG_OFFSET)) {
		nif->cnt.rx_fragments++;
		return 0;
	}
	src = be32_get(p + 12);
	dst = be32_get(p + 16);
	if (p[9] != IP_PROTO_UDP || !for_us(nif, dst)) {
		nif->cnt.rx_other++;
		return 0;
	}
	u = p + ihl;
	if (total - ihl < UDP_HLEN) {
		nif->cnt.rx_malformed++;
		return 0;
	}
	ulen = be16_get(u + 4);
	if (ulen < UDP_HLEN || ulen > total - ihl) {
		nif->cnt.rx_malformed++;
		return 0;
	}
	/* A zero checksum field means none was computed (RFC 768). */
	if (be16_get(u + 6) != 0 && inet_fold(inet_sum(pseudo_sum(src, dst, ulen), u, ulen)) != 0) {
		nif->cnt.rx_malformed++;
		return 0;
	}
	memcpy(out->src_mac, frame + 6, 6);
	out->src_ip = src;
	out->dst_ip = dst;
	out->sport = be16_get(u);
	out->dport = be16_get(u + 2);
	out->data = u + UDP_HLEN;
	out->len = ulen - UDP_HLEN;
	nif->cnt.rx_udp++;
	return 1;
}

int netif_input(struct net_if *nif, const uint8_t *frame, size_t len, struct udp_datagram *out)
{
	uint16_t type;

	nif->cnt.rx_frames++;
	if (len < ETH_HLEN) {
		nif->cnt.rx_malformed++;
		return 0;
	}
	type = be16_get(frame + 12);
	if (type == ETHERTYPE_ARP) {
		arp_input(nif, frame + ETH_HLEN, len - ETH_HLEN);
		return 0;
	}
	if (type == ETHERTYPE_IPV4)
		return ipv4_input(nif, frame, frame + ETH_HLEN, len - ETH_HLEN, out);
	nif->cnt.rx_other++;
	return 0;
}

int netif_udp_send(struct net_if *nif, const uint8_t dst_mac[6], uint32_t dst_ip, uint16_t sport,
		   uint16_t dport, const void *data, size_t len)
{
	uint8_t *ip, *u;
	size_t ulen = UDP_HLEN + len;
	uint16_t sum;

	if (len > UDP_MAX_PAYLOAD)
		return NET_ETOOBIG;
	ip = nif->tx + eth_header(nif, dst_mac, ETHERTYPE_IPV4);
	u = ip + IPV4_HLEN;
	memset(ip, 0, IPV4_HLEN);
	ip[0] = 0x45;			/* version 4, IHL 5 */
	be16_put(ip + 2, (uint16_t)(IPV4_HLEN + ulen));
	be16_put(ip + 4, nif->ip_id++);
	be16_put(ip + 6, 0x4000);	/* don't fragment: nothing is ever reassembled for us */
	ip[8] = IP_TTL;
	ip[9] = IP_PROTO_UDP;
	be32_put(ip + 12, nif->ip);
	be32_put(ip + 16, dst_ip);
	be16_put(ip + 10, inet_checksum(ip, IPV4_HLEN));
	be16_put(u, sport);
	be16_put(u + 2, dport);
	be16_put(u + 4, (uint16_t)ulen);
	be16_put(u + 6, 0);
	memcpy(u + UDP_HLEN, data, len);
	sum = inet_fold(inet_sum(pseudo_sum(nif->ip, dst_ip, ulen), u, ulen));
	be16_put(u + 6, sum ? sum : 0xFFFF);	/* a computed zero is sent as all ones (RFC 768) */
	return transmit(nif, ETH_HLEN + IPV4_HLEN + ulen);
}

uint32_t netif_next_hop(const struct net_if *nif, uint32_t dst)
{
	if (dst == INET_BROADCAST)
		return dst;
	if (nif->ip == 0)
		return 0;
	if ((dst & nif->mask) == (nif->ip & nif->mask))
		return dst;
	return nif->gw;
}

void netif_resolve_start(struct net_resolve *r, const struct net_if *nif, uint32_t dst, unsigned tries,
			 uint32_t interval_ms)
{
	r->hop = netif_next_hop(nif, dst);
	r->sent = 0;
	r->tries = tries;
	r->last_ms = 0;
	r->interval_ms = interval_ms;
}

int netif_resolve(struct net_if *nif, struct net_resolve *r, uint32_t now_ms, uint8_t mac[6])
{
	if (r->hop == 0)
		return NET_ENOROUTE;
	if (r->hop == INET_BROADCAST) {
		memcpy(mac, eth_broadcast, 6);
		return 1;
	}
	if (arp_cache_get(&nif->arp, r->hop, mac))
		return 1;
	if (r->sent > 0 && (uint32_t)(now_ms - r->last_ms) < r->interval_ms)
		return 0;
	if (r->sent >= r->tries)
		return -1;
	r->sent++;
	r->last_ms = now_ms;
	netif_arp_request(nif, r->hop);	/* a failed send is one unanswered try */
	return 0;
}
