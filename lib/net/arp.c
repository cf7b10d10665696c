/* arp: RFC 826 packets and a bounded cache. See arp.h. */
#include "lib/net/arp.h"

#include <string.h>

#include "lib/net/inet.h"

int arp_parse(const uint8_t *p, size_t len, struct arp_packet *out)
{
	if (len < ARP_LEN)
		return -1;
	/* htype 1 (Ethernet), ptype 0x0800 (IPv4), hlen 6, plen 4: RFC 826, "Packet format". */
	if (be16_get(p) != 1 || be16_get(p + 2) != 0x0800 || p[4] != 6 || p[5] != 4)
		return -1;
	out->op = be16_get(p + 6);
	if (out->op != ARP_OP_REQUEST && out->op != ARP_OP_REPLY)
		return -1;
	memcpy(out->sha, p + 8, 6);
	out->spa = be32_get(p + 14);
	memcpy(out->tha, p + 18, 6);
	out->tpa = be32_get(p + 24);
	return 0;
}

size_t arp_build(uint8_t *p, const struct arp_packet *a)
{
	be16_put(p, 1);
	be16_put(p + 2, 0x0800);
	p[4] = 6;
	p[5] = 4;
	be16_put(p + 6, (uint16_t)a->op);
	memcpy(p + 8, a->sha, 6);
	be32_put(p + 14, a->spa);
	memcpy(p + 18, a->tha, 6);
	be32_put(p + 24, a->tpa);
	return ARP_LEN;
}

void arp_cache_init(struct arp_cache *c)
{
	memset(c, 0, sizeof(*c));
}

void arp_cache_put(struct arp_cache *c, uint32_t ip, const uint8_t mac[6])
{
	unsigned i, pick = 0;

	if (ip == 0 || ip == INET_BROADCAST)
		return;
	for (i = 0; i < ARP_CACHE_ENTRIES; i++) {
		if (c->e[i].ip == ip) {
			pick = i;
			break;
		}
		if (c->e[i].ip == 0 && c->e[pick].ip != 0)
			pick = i;
		else if (c->e[pick].ip != 0 && c->e[i].ip != 0 && c->e[i].used < c->e[pick].used)
			pick = i;
	}
	c->e[pick].ip = ip;
	memcpy(c->e[pick].mac, mac, 6);
	c->e[pick].used = ++c->clock;
}

bool arp_cache_get(struct arp_cache *c, uint32_t ip, uint8_t mac[6])
{
	unsigned i;

	if (ip == 0)
		return false;
	for (i = 0; i < ARP_CACHE_ENTRIES; i++)
		if (c->e[i].ip == ip) {
			memcpy(mac, c->e[i].mac, 6);
			c->e[i].used = ++c->clock;
			return true;
		}
	return false;
}
