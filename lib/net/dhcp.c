/* dhcp: the DHCP client and its reply reader. See dhcp.h. */
#include "lib/net/dhcp.h"

#include <string.h>

#include "lib/net/inet.h"
#include "lib/util/fmt.h"

#define BOOTREQUEST	1
#define BOOTREPLY	2
#define FIXED_LEN	236	/* op .. file (RFC 2131 figure 1) */
#define COOKIE		0x63825363u	/* 99.130.83.99, RFC 2131 3 */
#define BOOTP_MIN	300	/* a BOOTP message is at least 300 bytes (RFC 1542 2.1): relays drop shorter */

/* RFC 2132 option codes. */
enum {
	OPT_PAD = 0, OPT_MASK = 1, OPT_ROUTER = 3, OPT_DNS = 6, OPT_LOG = 7, OPT_HOSTNAME = 12,
	OPT_REQ_IP = 50, OPT_TYPE = 53, OPT_SERVER_ID = 54, OPT_PARAMS = 55, OPT_MAX_SIZE = 57,
	OPT_VENDOR_CLASS = 60, OPT_CLIENT_ID = 61, OPT_TFTP = 66, OPT_END = 255,
};

static const uint32_t discover_wait_ms[DHCP_DISCOVER_TRIES] = { 1000, 2000, 4000, 4000 };
static const uint32_t request_wait_ms[DHCP_REQUEST_TRIES] = { 1000, 2000, 4000 };

static void keep_text(char *dst, const uint8_t *s, size_t len)
{
	size_t i;

	if (len > DHCP_TEXT_MAX)
		len = DHCP_TEXT_MAX;
	for (i = 0; i < len; i++)
		dst[i] = s[i] > 0x20 && s[i] < 0x7F ? (char)s[i] : '?';
	dst[len] = '\0';
}

/* An address option: 4 bytes for one (mask, server id), a multiple of 4 for a list (first kept). */
static bool addr_option(const uint8_t *v, size_t len, bool list, uint32_t *out)
{
	if (len < 4 || (list ? len % 4 != 0 : len != 4))
		return false;
	*out = be32_get(v);
	return true;
}

static bool take_option(unsigned code, const uint8_t *v, size_t len, struct dhcp_reply *r)
{
	struct dhcp_lease *l = &r->lease;

	switch (code) {
	case OPT_TYPE:
		if (len != 1)
			return false;
		r->type = v[0];
		return true;
	case OPT_MASK:
		return addr_option(v, len, false, &l->mask);
	case OPT_ROUTER:
		return addr_option(v, len, true, &l->router);
	case OPT_DNS:
		return addr_option(v, len, true, &l->dns);
	case OPT_LOG:
		return addr_option(v, len, true, &l->log_server);
	case OPT_SERVER_ID:
		return addr_option(v, len, false, &l->server_id);
	case OPT_HOSTNAME:
		if (len == 0)
			return false;
		keep_text(l->hostname, v, len);
		return true;
	case OPT_TFTP:
		if (len == 0)
			return false;
		keep_text(l->tftp_server, v, len);
		return true;
	default:
		return true;	/* not one we use */
	}
}

int dhcp_parse(const uint8_t *p, size_t len, uint32_t xid, const uint8_t mac[6], struct dhcp_reply *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	if (len < FIXED_LEN + 4 || p[0] != BOOTREPLY || p[1] != 1 || p[2] != 6)
		return -1;
	if (be32_get(p + 4) != xid || memcmp(p + 28, mac, 6) != 0 || be32_get(p + FIXED_LEN) != COOKIE)
		return -1;
	out->lease.ip = be32_get(p + 16);
	out->lease.siaddr = be32_get(p + 20);
	for (i = FIXED_LEN + 4; i < len;) {
		unsigned code = p[i], olen;

		if (code == OPT_END)
			break;
		if (code == OPT_PAD) {
			i++;
			continue;
		}
		if (i + 2 > len || i + 2 + p[i + 1] > len)
			return -1;	/* an option running past the message */
		olen = p[i + 1];
		if (!take_option(code, p + i + 2, olen, out))
			out->bad_options++;
		i += 2 + olen;
	}
	return out->type ? 0 : -1;
}

/* Writes the header and the options every message of ours carries; returns the offset for more. */
static size_t header(const struct dhcp_client *c, uint8_t *b, unsigned type, uint32_t now_ms)
{
	static const uint8_t params[] = { OPT_MASK, OPT_ROUTER, OPT_DNS, OPT_LOG, OPT_HOSTNAME,
					  OPT_SERVER_ID, OPT_TFTP };
	static const char vendor[] = "cryptoqual";
	uint32_t secs = (uint32_t)(now_ms - c->start_ms) / 1000;
	size_t o = FIXED_LEN;

	memset(b, 0, DHCP_MSG_MAX);
	b[0] = BOOTREQUEST;
	b[1] = 1;		/* htype Ethernet */
	b[2] = 6;		/* hlen */
	be32_put(b + 4, c->xid);
	be16_put(b + 8, (uint16_t)(secs > 0xFFFF ? 0xFFFF : secs));
	memcpy(b + 28, c->mac, 6);
	be32_put(b + o, COOKIE);
	o += 4;
	b[o++] = OPT_TYPE;
	b[o++] = 1;
	b[o++] = (uint8_t)type;
	b[o++] = OPT_CLIENT_ID;		/* type 1 (Ethernet) and the MAC, RFC 2132 9.14 */
	b[o++] = 7;
	b[o++] = 1;
	memcpy(b + o, c->mac, 6);
	o += 6;
	b[o++] = OPT_MAX_SIZE;
	b[o++] = 2;
	be16_put(b + o, 1500 - 28);	/* one unfragmented IPv4 datagram's UDP payload */
	o += 2;
	b[o++] = OPT_VENDOR_CLASS;	/* lets a site's server give the log server to these boxes only */
	b[o++] = sizeof(vendor) - 1;
	memcpy(b + o, vendor, sizeof(vendor) - 1);
	o += sizeof(vendor) - 1;
	b[o++] = OPT_PARAMS;
	b[o++] = sizeof(params);
	memcpy(b + o, params, sizeof(params));
	o += sizeof(params);
	return o;
}

static size_t finish_msg(uint8_t *b, size_t o)
{
	b[o++] = OPT_END;
	return o < BOOTP_MIN ? BOOTP_MIN : o;
}

static void put_addr_option(uint8_t *b, size_t *o, unsigned code, uint32_t a)
{
	b[(*o)++] = (uint8_t)code;
	b[(*o)++] = 4;
	be32_put(b + *o, a);
	*o += 4;
}

void dhcp_start(struct dhcp_client *c, const uint8_t mac[6], uint32_t xid, uint32_t now_ms)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->mac, mac, 6);
	c->xid = xid;
	c->start_ms = c->last_ms = now_ms;
	c->state = DHCP_SELECTING;
	c->due = true;
}

static void enter(struct dhcp_client *c, enum dhcp_state s)
{
	c->state = s;
	c->sent = 0;
	c->due = s == DHCP_SELECTING || s == DHCP_REQUESTING;
}

size_t dhcp_output(struct dhcp_client *c, uint32_t now_ms, uint8_t *buf, size_t cap)
{
	const uint32_t *wait;
	unsigned tries;
	size_t o;

	if (cap < DHCP_MSG_MAX || (c->state != DHCP_SELECTING && c->state != DHCP_REQUESTING))
		return 0;
	wait = c->state == DHCP_SELECTING ? discover_wait_ms : request_wait_ms;
	tries = c->state == DHCP_SELECTING ? DHCP_DISCOVER_TRIES : DHCP_REQUEST_TRIES;
	if (!c->due) {
		if ((uint32_t)(now_ms - c->last_ms) < wait[c->sent - 1])
			return 0;
		if (c->sent >= tries) {
			unsigned secs = (unsigned)((uint32_t)(now_ms - c->start_ms) / 1000);

			if (c->state == DHCP_SELECTING)
				fmt_snprintf(c->why, sizeof(c->why), "no DHCPOFFER after %u DHCPDISCOVERs (%u s)", tries,
					     secs);
			else
				fmt_snprintf(c->why, sizeof(c->why), "no DHCPACK after %u DHCPREQUESTs (%u s)", tries, secs);
			c->state = DHCP_FAILED;
			return 0;
		}
	}
	c->due = false;
	c->sent++;
	c->last_ms = now_ms;
	if (c->state == DHCP_SELECTING)
		return finish_msg(buf, header(c, buf, DHCPDISCOVER, now_ms));
	o = header(c, buf, DHCPREQUEST, now_ms);
	put_addr_option(buf, &o, OPT_REQ_IP, c->lease.ip);
	if (c->lease.server_id)
		put_addr_option(buf, &o, OPT_SERVER_ID, c->lease.server_id);
	return finish_msg(buf, o);
}

/* The ack's values over the offer's, where the ack has them. */
static void merge(struct dhcp_lease *l, const struct dhcp_lease *a)
{
	l->ip = a->ip;
	if (a->siaddr)
		l->siaddr = a->siaddr;
	if (a->mask)
		l->mask = a->mask;
	if (a->router)
		l->router = a->router;
	if (a->dns)
		l->dns = a->dns;
	if (a->log_server)
		l->log_server = a->log_server;
	if (a->server_id)
		l->server_id = a->server_id;
	if (a->hostname[0])
		memcpy(l->hostname, a->hostname, sizeof(l->hostname));
	if (a->tftp_server[0])
		memcpy(l->tftp_server, a->tftp_server, sizeof(l->tftp_server));
}

/* An address we can take: not 0, not broadcast, not multicast or reserved (224.0.0.0 and up). */
static bool usable(uint32_t ip)
{
	return ip != 0 && (ip >> 28) < 0xE && (ip >> 24) != 0 && (ip >> 24) != 127;
}

void dhcp_input(struct dhcp_client *c, const uint8_t *p, size_t len, uint32_t now_ms)
{
	struct dhcp_reply r;

	(void)now_ms;
	if (dhcp_parse(p, len, c->xid, c->mac, &r) != 0) {
		c->ignored++;
		return;
	}
	if (c->state == DHCP_SELECTING && r.type == DHCPOFFER && usable(r.lease.ip)) {
		c->lease = r.lease;
		c->bad_options += r.bad_options;
		enter(c, DHCP_REQUESTING);
		return;
	}
	if (c->state == DHCP_REQUESTING && (r.lease.server_id == 0 || c->lease.server_id == 0 ||
					    r.lease.server_id == c->lease.server_id)) {
		if (r.type == DHCPACK && r.lease.ip == c->lease.ip) {
			merge(&c->lease, &r.lease);
			c->bad_options += r.bad_options;
			enter(c, DHCP_BOUND);
			return;
		}
		if (r.type == DHCPNAK) {
			if (++c->naks >= DHCP_NAKS) {
				char ip[INET_ADDR_TEXT];

				fmt_snprintf(c->why, sizeof(c->why), "%u DHCPNAKs for %s", c->naks,
					     inet_format_ip4(c->lease.ip, ip));
				c->state = DHCP_FAILED;
				return;
			}
			memset(&c->lease, 0, sizeof(c->lease));
			enter(c, DHCP_SELECTING);
			return;
		}
	}
	c->ignored++;
}
