/*
 * Unit tests for lib/net/netif.c and lib/net/arp.c: frames built and read
 * back through a NIC that records what it is given, ARP answered and
 * cached (bounded), IPv4/UDP checks (checksums, lengths, fragments), the
 * next hop and address resolution against a clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/net/arp.h"
#include "lib/net/inet.h"
#include "lib/net/netif.h"

static uint8_t sent[8][NETDEV_MAX_FRAME];
static size_t sent_len[8];
static unsigned nsent;
static int send_rc;

static int rec_send(struct netdev *d, const void *frame, size_t len)
{
	(void)d;
	if (send_rc)
		return send_rc;
	if (nsent < 8) {
		memcpy(sent[nsent], frame, len);
		sent_len[nsent] = len;
	}
	nsent++;
	return 0;
}

static struct netdev dev = { .kind = "test", .mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 }, .send = rec_send };
static const uint8_t peer_mac[6] = { 0x52, 0x55, 0x0a, 0x00, 0x02, 0x02 };
#define OUR_IP	0x0A00020F	/* 10.0.2.15 */
#define PEER_IP	0x0A000202	/* 10.0.2.2 */

static void setup(struct net_if *nif)
{
	nsent = 0;
	send_rc = 0;
	netif_init(nif, &dev);
	nif->ip = OUR_IP;
	nif->mask = 0xFFFFFF00;
	nif->gw = PEER_IP;
}

/* A frame from peer to us: what we send, with the addresses swapped. */
static size_t mirror(const uint8_t *f, size_t len, uint8_t *out)
{
	memcpy(out, f, len);
	memcpy(out, f + 6, 6);
	memcpy(out + 6, f, 6);
	return len;
}

static void test_udp_roundtrip(void **state)
{
	struct net_if a, b;
	struct udp_datagram d;
	uint8_t frame[NETDEV_MAX_FRAME];
	(void)state;

	setup(&a);
	assert_int_equal(netif_udp_send(&a, peer_mac, PEER_IP, 40000, 514, "hello", 5), 0);
	assert_int_equal(nsent, 1);
	assert_int_equal(sent_len[0], ETH_HLEN + IPV4_HLEN + UDP_HLEN + 5);
	assert_memory_equal(sent[0], peer_mac, 6);
	assert_memory_equal(sent[0] + 6, dev.mac, 6);
	assert_int_equal(be16_get(sent[0] + 12), ETHERTYPE_IPV4);
	assert_int_equal(inet_checksum(sent[0] + ETH_HLEN, IPV4_HLEN), 0);
	assert_int_equal(be32_get(sent[0] + ETH_HLEN + 12), OUR_IP);
	assert_int_equal(be32_get(sent[0] + ETH_HLEN + 16), PEER_IP);
	/* The peer (its own interface at PEER_IP) reads it back. */
	netif_init(&b, &dev);
	b.ip = PEER_IP;
	b.mask = 0xFFFFFF00;
	assert_int_equal(netif_input(&b, sent[0], sent_len[0], &d), 1);
	assert_int_equal(d.src_ip, OUR_IP);
	assert_int_equal(d.sport, 40000);
	assert_int_equal(d.dport, 514);
	assert_int_equal(d.len, 5);
	assert_memory_equal(d.data, "hello", 5);
	assert_memory_equal(d.src_mac, dev.mac, 6);
	/* One bit flipped in the payload: the UDP checksum catches it. */
	mirror(sent[0], sent_len[0], frame);
	frame[sent_len[0] - 1] ^= 1;
	assert_int_equal(netif_input(&b, frame, sent_len[0], &d), 0);
	assert_int_equal(b.cnt.rx_malformed, 1);
	/* A zero UDP checksum means none: accepted. */
	frame[sent_len[0] - 1] ^= 1;
	frame[ETH_HLEN + IPV4_HLEN + 6] = frame[ETH_HLEN + IPV4_HLEN + 7] = 0;
	assert_int_equal(netif_input(&b, frame, sent_len[0], &d), 1);
}

static void test_udp_limits(void **state)
{
	struct net_if a;
	static uint8_t big[UDP_MAX_PAYLOAD + 1];
	(void)state;
	setup(&a);
	assert_int_equal(netif_udp_send(&a, peer_mac, PEER_IP, 1, 2, big, sizeof(big)), NET_ETOOBIG);
	assert_int_equal(netif_udp_send(&a, peer_mac, PEER_IP, 1, 2, big, UDP_MAX_PAYLOAD), 0);
	assert_int_equal(sent_len[0], NETDEV_MAX_FRAME);
	send_rc = NETDEV_EBUSY;
	assert_int_equal(netif_udp_send(&a, peer_mac, PEER_IP, 1, 2, big, 1), NETDEV_EBUSY);
	assert_int_equal(a.cnt.tx_errors, 1);
}

/* Builds an IPv4/UDP frame to dst with the given fields, checksums right. */
static size_t ip_frame(uint8_t *f, uint32_t dst, uint16_t flags, unsigned ihl_words, size_t ulen_claim, size_t pay)
{
	uint8_t *ip = f + ETH_HLEN, *u;
	size_t ihl = ihl_words * 4;

	memset(f, 0, NETDEV_MAX_FRAME);
	memcpy(f, dev.mac, 6);
	memcpy(f + 6, peer_mac, 6);
	be16_put(f + 12, ETHERTYPE_IPV4);
	ip[0] = (uint8_t)(0x40 | ihl_words);
	be16_put(ip + 2, (uint16_t)(ihl + UDP_HLEN + pay));
	be16_put(ip + 6, flags);
	ip[8] = 64;
	ip[9] = 17;
	be32_put(ip + 12, PEER_IP);
	be32_put(ip + 16, dst);
	be16_put(ip + 10, inet_checksum(ip, ihl));
	u = ip + ihl;
	be16_put(u, 69);
	be16_put(u + 2, 1234);
	be16_put(u + 4, (uint16_t)ulen_claim);
	return ETH_HLEN + ihl + UDP_HLEN + pay;
}

static void test_ipv4_checks(void **state)
{
	struct net_if a;
	struct udp_datagram d;
	uint8_t f[NETDEV_MAX_FRAME];
	size_t n;
	(void)state;

	setup(&a);
	n = ip_frame(f, OUR_IP, 0, 5, UDP_HLEN + 4, 4);
	assert_int_equal(netif_input(&a, f, n, &d), 1);
	assert_int_equal(d.len, 4);
	/* Ethernet padding after the datagram is ignored. */
	assert_int_equal(netif_input(&a, f, 60, &d), 1);
	assert_int_equal(d.len, 4);
	/* With options (IHL 6): the payload starts after them. */
	n = ip_frame(f, OUR_IP, 0, 6, UDP_HLEN + 4, 4);
	assert_int_equal(netif_input(&a, f, n, &d), 1);
	assert_int_equal(d.dport, 1234);
	/* Broadcasts: limited and our subnet's. */
	n = ip_frame(f, INET_BROADCAST, 0, 5, UDP_HLEN, 0);
	assert_int_equal(netif_input(&a, f, n, &d), 1);
	n = ip_frame(f, 0x0A0002FF, 0, 5, UDP_HLEN, 0);
	assert_int_equal(netif_input(&a, f, n, &d), 1);
	/* Another host's address: not ours. */
	n = ip_frame(f, 0x0A000203, 0, 5, UDP_HLEN, 0);
	assert_int_equal(netif_input(&a, f, n, &d), 0);
	assert_int_equal(a.cnt.rx_other, 1);
	/* Fragments are dropped: more-fragments set, or an offset. */
	n = ip_frame(f, OUR_IP, 0x2000, 5, UDP_HLEN, 0);
	assert_int_equal(netif_input(&a, f, n, &d), 0);
	n = ip_frame(f, OUR_IP, 0x0001, 5, UDP_HLEN, 0);
	assert_int_equal(netif_input(&a, f, n, &d), 0);
	assert_int_equal(a.cnt.rx_fragments, 2);
	/* A UDP length past the IP datagram, or under 8. */
	n = ip_frame(f, OUR_IP, 0, 5, UDP_HLEN + 5, 4);
	assert_int_equal(netif_input(&a, f, n, &d), 0);
	n = ip_frame(f, OUR_IP, 0, 5, 7, 4);
	assert_int_equal(netif_input(&a, f, n, &d), 0);
	/* IP total length past the frame. */
	n = ip_frame(f, OUR_IP, 0, 5, UDP_HLEN + 4, 4);
	assert_int_equal(netif_input(&a, f, n - 1, &d), 0);
	/* A bad header checksum, an IHL under 5, version 6. */
	n = ip_frame(f, OUR_IP, 0, 5, UDP_HLEN, 0);
	f[ETH_HLEN + 10] ^= 0x10;
	assert_int_equal(netif_input(&a, f, n, &d), 0);
	n = ip_frame(f, OUR_IP, 0, 4, UDP_HLEN, 0);
	assert_int_equal(netif_input(&a, f, n, &d), 0);
	n = ip_frame(f, OUR_IP, 0, 5, UDP_HLEN, 0);
	f[ETH_HLEN] = 0x65;
	assert_int_equal(netif_input(&a, f, n, &d), 0);
	assert_int_equal(a.cnt.rx_malformed, 6);
	/* Before we have an address anything UDP is taken (DHCP's offer to the address it offers). */
	a.ip = 0;
	n = ip_frame(f, 0x0A000299, 0, 5, UDP_HLEN, 0);
	assert_int_equal(netif_input(&a, f, n, &d), 1);
	/* Runts and other EtherTypes. */
	assert_int_equal(netif_input(&a, f, 13, &d), 0);
	be16_put(f + 12, 0x86DD);
	assert_int_equal(netif_input(&a, f, n, &d), 0);
}

static size_t arp_frame(uint8_t *f, unsigned op, uint32_t spa, const uint8_t sha[6], uint32_t tpa)
{
	struct arp_packet p;
	memset(f, 0, 60);
	memset(f, 0xff, 6);
	memcpy(f + 6, sha, 6);
	be16_put(f + 12, ETHERTYPE_ARP);
	memset(&p, 0, sizeof(p));
	p.op = op;
	memcpy(p.sha, sha, 6);
	p.spa = spa;
	p.tpa = tpa;
	arp_build(f + ETH_HLEN, &p);
	return 60;
}

static void test_arp_answer_and_cache(void **state)
{
	struct net_if a;
	struct udp_datagram d;
	struct arp_packet r;
	uint8_t f[64], mac[6];
	(void)state;

	setup(&a);
	/* A request for someone else: not answered, not cached. */
	assert_int_equal(netif_input(&a, f, arp_frame(f, ARP_OP_REQUEST, PEER_IP, peer_mac, 0x0A000209), &d), 0);
	assert_int_equal(nsent, 0);
	assert_false(arp_cache_get(&a.arp, PEER_IP, mac));
	/* A request for us: answered to the asker, and the asker cached. */
	assert_int_equal(netif_input(&a, f, arp_frame(f, ARP_OP_REQUEST, PEER_IP, peer_mac, OUR_IP), &d), 0);
	assert_int_equal(nsent, 1);
	assert_int_equal(a.cnt.arp_answered, 1);
	assert_memory_equal(sent[0], peer_mac, 6);
	assert_int_equal(arp_parse(sent[0] + ETH_HLEN, sent_len[0] - ETH_HLEN, &r), 0);
	assert_int_equal(r.op, ARP_OP_REPLY);
	assert_int_equal(r.spa, OUR_IP);
	assert_memory_equal(r.sha, dev.mac, 6);
	assert_int_equal(r.tpa, PEER_IP);
	assert_true(arp_cache_get(&a.arp, PEER_IP, mac));
	assert_memory_equal(mac, peer_mac, 6);
	/* Short or foreign ARP: malformed. */
	assert_int_equal(netif_input(&a, f, ETH_HLEN + 27, &d), 0);
	f[ETH_HLEN + 1] = 6;	/* hardware type 6 */
	assert_int_equal(netif_input(&a, f, 60, &d), 0);
	assert_int_equal(a.cnt.rx_malformed, 2);
}

static void test_arp_cache_bounded(void **state)
{
	struct arp_cache c;
	uint8_t m[6] = { 2, 0, 0, 0, 0, 0 }, got[6];
	unsigned i;
	(void)state;

	arp_cache_init(&c);
	for (i = 1; i <= ARP_CACHE_ENTRIES; i++) {
		m[5] = (uint8_t)i;
		arp_cache_put(&c, 0x0A000000 + i, m);
	}
	assert_true(arp_cache_get(&c, 0x0A000001, got));	/* 1 used again: 2 is now the oldest */
	m[5] = 99;
	arp_cache_put(&c, 0x0A0000FE, m);
	assert_false(arp_cache_get(&c, 0x0A000002, got));
	assert_true(arp_cache_get(&c, 0x0A000001, got));
	assert_int_equal(got[5], 1);
	assert_true(arp_cache_get(&c, 0x0A0000FE, got));
	assert_int_equal(got[5], 99);
	/* An update replaces in place. */
	m[5] = 77;
	arp_cache_put(&c, 0x0A000003, m);
	assert_true(arp_cache_get(&c, 0x0A000003, got));
	assert_int_equal(got[5], 77);
	assert_true(arp_cache_get(&c, 0x0A000004, got));
	/* 0 and broadcast are never recorded. */
	arp_cache_put(&c, 0, m);
	arp_cache_put(&c, INET_BROADCAST, m);
	assert_false(arp_cache_get(&c, 0, got));
	assert_false(arp_cache_get(&c, INET_BROADCAST, got));
}

static void test_next_hop_and_resolve(void **state)
{
	struct net_if a;
	struct net_resolve r;
	struct udp_datagram d;
	uint8_t mac[6], f[64];
	(void)state;

	setup(&a);
	assert_int_equal(netif_next_hop(&a, 0x0A000203), 0x0A000203);
	assert_int_equal(netif_next_hop(&a, 0xC0A80101), PEER_IP);
	assert_int_equal(netif_next_hop(&a, INET_BROADCAST), INET_BROADCAST);
	a.gw = 0;
	assert_int_equal(netif_next_hop(&a, 0xC0A80101), 0);
	netif_resolve_start(&r, &a, 0xC0A80101, 3, 1000);
	assert_int_equal(netif_resolve(&a, &r, 0, mac), NET_ENOROUTE);
	a.gw = PEER_IP;
	/* Three requests 1000 ms apart, then -1. */
	netif_resolve_start(&r, &a, 0xC0A80101, 3, 1000);
	assert_int_equal(netif_resolve(&a, &r, 5000, mac), 0);
	assert_int_equal(nsent, 1);
	assert_int_equal(netif_resolve(&a, &r, 5999, mac), 0);
	assert_int_equal(nsent, 1);
	assert_int_equal(netif_resolve(&a, &r, 6000, mac), 0);
	assert_int_equal(netif_resolve(&a, &r, 7000, mac), 0);
	assert_int_equal(nsent, 3);
	assert_int_equal(netif_resolve(&a, &r, 7999, mac), 0);
	assert_int_equal(netif_resolve(&a, &r, 8000, mac), -1);
	assert_int_equal(nsent, 3);
	/* The request asks for the gateway; its reply resolves. */
	{
		struct arp_packet q;
		assert_int_equal(arp_parse(sent[0] + ETH_HLEN, sent_len[0] - ETH_HLEN, &q), 0);
		assert_int_equal(q.op, ARP_OP_REQUEST);
		assert_int_equal(q.tpa, PEER_IP);
	}
	netif_resolve_start(&r, &a, 0xC0A80101, 3, 1000);
	assert_int_equal(netif_resolve(&a, &r, 0xFFFFFF00u, mac), 0);
	assert_int_equal(netif_input(&a, f, arp_frame(f, ARP_OP_REPLY, PEER_IP, peer_mac, OUR_IP), &d), 0);
	assert_int_equal(netif_resolve(&a, &r, 100, mac), 1);	/* the clock wrapped: still fine */
	assert_memory_equal(mac, peer_mac, 6);
	netif_resolve_start(&r, &a, INET_BROADCAST, 3, 1000);
	assert_int_equal(netif_resolve(&a, &r, 0, mac), 1);
	assert_int_equal(mac[0], 0xff);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_roundtrip),
		cmocka_unit_test(test_udp_limits),
		cmocka_unit_test(test_ipv4_checks),
		cmocka_unit_test(test_arp_answer_and_cache),
		cmocka_unit_test(test_arp_cache_bounded),
		cmocka_unit_test(test_next_hop_and_resolve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
