/*
 * Unit tests for lib/net/dhcp.c: the messages the client sends (RFC 2131
 * figure 1, RFC 2132 options), the reader of replies (every kept option,
 * wrong lengths, truncation, foreign xid/chaddr), and the state machine:
 * DISCOVER/OFFER/REQUEST/ACK, retries on a clock, NAK, giving up.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/net/dhcp.h"
#include "lib/net/inet.h"

static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
#define XID 0x1234abcdu

/* A server's reply: header, cookie, then the options given (already TLV-encoded), then END. */
static size_t reply(uint8_t *b, unsigned type, uint32_t yiaddr, const uint8_t *opts, size_t olen)
{
	size_t o = 240;
	memset(b, 0, 600);
	b[0] = 2;
	b[1] = 1;
	b[2] = 6;
	be32_put(b + 4, XID);
	be32_put(b + 16, yiaddr);
	be32_put(b + 20, 0x0A000204);	/* siaddr */
	memcpy(b + 28, mac, 6);
	be32_put(b + 236, 0x63825363);
	b[o++] = 53;
	b[o++] = 1;
	b[o++] = (uint8_t)type;
	memcpy(b + o, opts, olen);
	o += olen;
	b[o++] = 255;
	return o;
}

static const uint8_t full_opts[] = {
	1, 4, 255, 255, 255, 0,
	3, 8, 10, 0, 2, 2, 10, 0, 2, 9,
	6, 4, 10, 0, 2, 3,
	7, 4, 10, 0, 2, 5,
	12, 5, 'b', 'o', 'x', '\n', '7',
	54, 4, 10, 0, 2, 2,
	66, 8, '1', '0', '.', '0', '.', '2', '.', '6',
	0, 0,		/* pads */
	43, 2, 1, 2,	/* an option we do not use */
};

static void test_parse_all_options(void **state)
{
	uint8_t b[600];
	struct dhcp_reply r;
	(void)state;

	assert_int_equal(dhcp_parse(b, reply(b, DHCPOFFER, 0x0A00020F, full_opts, sizeof(full_opts)), XID, mac, &r), 0);
	assert_int_equal(r.type, DHCPOFFER);
	assert_int_equal(r.lease.ip, 0x0A00020F);
	assert_int_equal(r.lease.siaddr, 0x0A000204);
	assert_int_equal(r.lease.mask, 0xFFFFFF00);
	assert_int_equal(r.lease.router, 0x0A000202);	/* the first of the list */
	assert_int_equal(r.lease.dns, 0x0A000203);
	assert_int_equal(r.lease.log_server, 0x0A000205);
	assert_int_equal(r.lease.server_id, 0x0A000202);
	assert_string_equal(r.lease.hostname, "box?7");	/* a control byte made harmless */
	assert_string_equal(r.lease.tftp_server, "10.0.2.6");
	assert_int_equal(r.bad_options, 0);
}

static void test_parse_rejects(void **state)
{
	uint8_t b[600];
	struct dhcp_reply r;
	size_t n;
	static const uint8_t other_mac[6] = { 2, 0, 0, 0, 0, 1 };
	static const uint8_t runs_past[] = { 7, 200, 1, 2, 3, 4 };
	(void)state;

	n = reply(b, DHCPOFFER, 0x0A00020F, NULL, 0);
	assert_int_equal(dhcp_parse(b, n, XID, mac, &r), 0);
	assert_int_equal(dhcp_parse(b, n, XID + 1, mac, &r), -1);
	assert_int_equal(dhcp_parse(b, n, XID, other_mac, &r), -1);
	assert_int_equal(dhcp_parse(b, 239, XID, mac, &r), -1);
	b[0] = 1;	/* a BOOTREQUEST */
	assert_int_equal(dhcp_parse(b, n, XID, mac, &r), -1);
	n = reply(b, DHCPOFFER, 0x0A00020F, NULL, 0);
	b[236] = 0;	/* no cookie */
	assert_int_equal(dhcp_parse(b, n, XID, mac, &r), -1);
	/* No message type. */
	n = reply(b, DHCPOFFER, 0x0A00020F, NULL, 0);
	b[240] = 0;
	b[241] = 0;
	b[242] = 0;
	assert_int_equal(dhcp_parse(b, n, XID, mac, &r), -1);
	/* An option whose length runs past the message. */
	n = reply(b, DHCPOFFER, 0x0A00020F, runs_past, sizeof(runs_past));
	assert_int_equal(dhcp_parse(b, n - 1, XID, mac, &r), -1);
	/* Cut inside an option's length byte. */
	n = reply(b, DHCPOFFER, 0x0A00020F, NULL, 0);
	b[n - 1] = 7;	/* the END replaced by an option code with no length byte */
	assert_int_equal(dhcp_parse(b, n, XID, mac, &r), -1);
	/* Without an END the options simply stop at the end of the message. */
	assert_int_equal(dhcp_parse(b, n - 1, XID, mac, &r), 0);
}

/* Options of the wrong size are skipped and counted; the rest is kept. */
static void test_parse_garbage_options(void **state)
{
	static const uint8_t garbage[] = {
		1, 3, 255, 255, 255,		/* mask of 3 bytes */
		3, 6, 1, 2, 3, 4, 5, 6,		/* router list not a multiple of 4 */
		7, 0,				/* empty log server */
		54, 5, 1, 2, 3, 4, 5,		/* server id of 5 */
		12, 0,				/* empty host name */
		53, 2, 2, 2,			/* a second message type, wrong length */
		6, 4, 10, 0, 2, 3,		/* one good one */
	};
	uint8_t b[600];
	struct dhcp_reply r;
	(void)state;
	assert_int_equal(dhcp_parse(b, reply(b, DHCPOFFER, 0x0A00020F, garbage, sizeof(garbage)), XID, mac, &r), 0);
	assert_int_equal(r.bad_options, 6);
	assert_int_equal(r.lease.mask, 0);
	assert_int_equal(r.lease.router, 0);
	assert_int_equal(r.lease.log_server, 0);
	assert_int_equal(r.lease.server_id, 0);
	assert_int_equal(r.lease.dns, 0x0A000203);
	assert_int_equal(r.type, DHCPOFFER);
}

/* The option with code c in message b (n bytes): a pointer to its length byte, or NULL. */
static const uint8_t *find_opt(const uint8_t *b, size_t n, unsigned c)
{
	size_t i = 240;
	while (i + 1 < n && b[i] != 255) {
		if (b[i] == 0) {
			i++;
			continue;
		}
		if (b[i] == c)
			return b + i + 1;
		i += 2 + b[i + 1];
	}
	return NULL;
}

static void test_exchange(void **state)
{
	struct dhcp_client c;
	uint8_t out[DHCP_MSG_MAX], in[600];
	const uint8_t *o;
	size_t n;
	(void)state;

	dhcp_start(&c, mac, XID, 1000);
	n = dhcp_output(&c, 1000, out, sizeof(out));
	assert_true(n >= 300);
	assert_int_equal(out[0], 1);
	assert_int_equal(be32_get(out + 4), XID);
	assert_memory_equal(out + 28, mac, 6);
	assert_int_equal(be32_get(out + 236), 0x63825363);
	o = find_opt(out, n, 53);
	assert_non_null(o);
	assert_int_equal(o[1], DHCPDISCOVER);
	o = find_opt(out, n, 55);
	assert_non_null(o);
	assert_non_null(memchr(o + 1, 7, o[0]));	/* the log server is asked for */
	assert_non_null(memchr(o + 1, 66, o[0]));
	assert_int_equal(dhcp_output(&c, 1500, out, sizeof(out)), 0);	/* nothing due yet */
	/* An offer for another client, then ours. */
	n = reply(in, DHCPOFFER, 0x0A00020F, full_opts, sizeof(full_opts));
	in[4] ^= 1;
	dhcp_input(&c, in, n, 1600);
	assert_int_equal(c.state, DHCP_SELECTING);
	assert_int_equal(c.ignored, 1);
	in[4] ^= 1;
	dhcp_input(&c, in, n, 1600);
	assert_int_equal(c.state, DHCP_REQUESTING);
	n = dhcp_output(&c, 1600, out, sizeof(out));
	assert_true(n > 0);
	o = find_opt(out, n, 53);
	assert_int_equal(o[1], DHCPREQUEST);
	o = find_opt(out, n, 50);
	assert_non_null(o);
	assert_int_equal(be32_get(o + 1), 0x0A00020F);
	o = find_opt(out, n, 54);
	assert_non_null(o);
	assert_int_equal(be32_get(o + 1), 0x0A000202);
	/* An ACK for another address is ignored; the right one binds, its values over the offer's. */
	{
		static const uint8_t ack_opts[] = { 54, 4, 10, 0, 2, 2, 7, 4, 10, 0, 2, 8 };
		n = reply(in, DHCPACK, 0x0A000210, ack_opts, sizeof(ack_opts));
		dhcp_input(&c, in, n, 1700);
		assert_int_equal(c.state, DHCP_REQUESTING);
		n = reply(in, DHCPACK, 0x0A00020F, ack_opts, sizeof(ack_opts));
		dhcp_input(&c, in, n, 1700);
	}
	assert_int_equal(c.state, DHCP_BOUND);
	assert_int_equal(c.lease.ip, 0x0A00020F);
	assert_int_equal(c.lease.mask, 0xFFFFFF00);	/* from the offer */
	assert_int_equal(c.lease.log_server, 0x0A000208);	/* the ack's */
	assert_int_equal(dhcp_output(&c, 99999, out, sizeof(out)), 0);
}

/* Without an answer: 4 DISCOVERs at 0, 1, 3, 7 s, failure at 11 s. */
static void test_no_answer(void **state)
{
	struct dhcp_client c;
	uint8_t out[DHCP_MSG_MAX];
	uint32_t t, sends[8];
	unsigned k = 0;
	(void)state;

	dhcp_start(&c, mac, XID, 0xFFFFF000u);	/* the clock wraps on the way */
	for (t = 0; t <= 20000 && c.state != DHCP_FAILED; t += 100)
		if (dhcp_output(&c, 0xFFFFF000u + t, out, sizeof(out)) > 0 && k < 8)
			sends[k++] = t;
	assert_int_equal(k, DHCP_DISCOVER_TRIES);
	assert_int_equal(sends[0], 0);
	assert_int_equal(sends[1], 1000);
	assert_int_equal(sends[2], 3000);
	assert_int_equal(sends[3], 7000);
	assert_int_equal(c.state, DHCP_FAILED);
	assert_int_equal(t, 11100);
	assert_non_null(strstr(c.why, "no DHCPOFFER after 4 DHCPDISCOVERs"));
	/* The buffer must hold a whole message. */
	dhcp_start(&c, mac, XID, 0);
	assert_int_equal(dhcp_output(&c, 0, out, DHCP_MSG_MAX - 1), 0);
}

static void test_nak_and_request_timeout(void **state)
{
	struct dhcp_client c;
	uint8_t out[DHCP_MSG_MAX], in[600];
	static const uint8_t sid[] = { 54, 4, 10, 0, 2, 2 };
	uint32_t t;
	(void)state;

	dhcp_start(&c, mac, XID, 0);
	dhcp_output(&c, 0, out, sizeof(out));
	dhcp_input(&c, in, reply(in, DHCPOFFER, 0x0A00020F, sid, sizeof(sid)), 10);
	dhcp_output(&c, 10, out, sizeof(out));
	dhcp_input(&c, in, reply(in, DHCPNAK, 0, sid, sizeof(sid)), 20);
	assert_int_equal(c.state, DHCP_SELECTING);
	assert_true(dhcp_output(&c, 20, out, sizeof(out)) > 0);	/* a new DISCOVER at once */
	dhcp_input(&c, in, reply(in, DHCPOFFER, 0x0A00020F, sid, sizeof(sid)), 30);
	dhcp_output(&c, 30, out, sizeof(out));
	dhcp_input(&c, in, reply(in, DHCPNAK, 0, sid, sizeof(sid)), 40);
	assert_int_equal(c.state, DHCP_FAILED);
	assert_string_equal(c.why, "2 DHCPNAKs for 10.0.2.15");
	/* An offer of 0.0.0.0 or a multicast address is not taken. */
	dhcp_start(&c, mac, XID, 0);
	dhcp_input(&c, in, reply(in, DHCPOFFER, 0, sid, sizeof(sid)), 10);
	dhcp_input(&c, in, reply(in, DHCPOFFER, 0xE0000001, sid, sizeof(sid)), 10);
	assert_int_equal(c.state, DHCP_SELECTING);
	/* REQUESTs unanswered: 3 of them, then failure. */
	dhcp_input(&c, in, reply(in, DHCPOFFER, 0x0A00020F, sid, sizeof(sid)), 10);
	for (t = 10; t < 20000 && c.state != DHCP_FAILED; t += 50)
		dhcp_output(&c, t, out, sizeof(out));
	assert_int_equal(c.state, DHCP_FAILED);
	assert_non_null(strstr(c.why, "no DHCPACK after 3 DHCPREQUESTs"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_all_options),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_parse_garbage_options),
		cmocka_unit_test(test_exchange),
		cmocka_unit_test(test_no_answer),
		cmocka_unit_test(test_nak_and_request_timeout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
