/*
 * libFuzzer target for lib/net/netif.c and lib/net/arp.c (every frame a
 * NIC hands the stack, from anyone on the wire): arbitrary bytes as a
 * received Ethernet frame, to an interface with an address and one
 * without. Checks that a delivered UDP datagram lies inside the frame,
 * that an ARP answer is a well-formed 42-byte frame, and that the
 * counters account for every frame.
 * Build: make fuzz (mk/fuzz.mk); run: tests/fuzz/fuzz-net.t.
 */
#include <stdint.h>
#include <string.h>

#include "lib/net/netif.h"
#include "tests/fuzz/fuzz_common.h"

static int check_send(struct netdev *d, const void *frame, size_t len)
{
	struct arp_packet a;
	const uint8_t *f = frame;

	(void)d;
	fz_check(len == ETH_HLEN + ARP_LEN);	/* the only frame input ever sends: an ARP reply */
	fz_check(arp_parse(f + ETH_HLEN, len - ETH_HLEN, &a) == 0 && a.op == ARP_OP_REPLY);
	return 0;
}

static struct netdev dev = { .kind = "fuzz", .mac = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 }, .send = check_send };

static void one(struct net_if *nif, const uint8_t *data, size_t size)
{
	struct udp_datagram d;
	struct net_counters c0 = nif->cnt;
	int r = netif_input(nif, data, size, &d);
	unsigned long counted;

	fz_check(r == 0 || r == 1);
	if (r == 1) {
		fz_check(d.data >= data + ETH_HLEN + IPV4_HLEN + UDP_HLEN && d.data + d.len <= data + size);
		fz_check(d.len <= UDP_MAX_PAYLOAD + 40);	/* IP options may make a header longer than ours */
	}
	counted = (nif->cnt.rx_udp - c0.rx_udp) + (nif->cnt.rx_arp - c0.rx_arp) +
		  (nif->cnt.rx_malformed - c0.rx_malformed) + (nif->cnt.rx_fragments - c0.rx_fragments) +
		  (nif->cnt.rx_other - c0.rx_other);
	fz_check(nif->cnt.rx_frames - c0.rx_frames == 1 && counted == 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct net_if nif;
	uint8_t *copy;

	if (size > 2048)
		return 0;
	/* An exact-size heap copy: ASan sees any read past the frame. */
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	netif_init(&nif, &dev);
	nif.ip = 0x0A00020F;
	nif.mask = 0xFFFFFF00;
	nif.gw = 0x0A000202;
	one(&nif, copy, size);
	netif_init(&nif, &dev);		/* no address yet, as during DHCP */
	one(&nif, copy, size);
	free(copy);
	return 0;
}
