/*
 * libFuzzer target for lib/net/dhcp.c (a DHCP server's reply, or anyone's
 * datagram to port 68): arbitrary bytes as a reply, the transaction ID
 * and MAC patched in at their offsets so the option reader is reached.
 * Checks that the kept texts are printable and bounded, and that the
 * client, fed the bytes in each state, stays in a valid state and keeps
 * its buffer bounds.
 * Build: make fuzz (mk/fuzz.mk); run: tests/fuzz/fuzz-net.t.
 */
#include <stdint.h>
#include <string.h>

#include "lib/net/dhcp.h"
#include "tests/fuzz/fuzz_common.h"

static const uint8_t mac[6] = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 };
#define XID 0x0badcafeu

static void check_lease(const struct dhcp_lease *l)
{
	fz_check_printable(l->hostname, DHCP_TEXT_MAX);
	fz_check_printable(l->tftp_server, DHCP_TEXT_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dhcp_reply r;
	struct dhcp_client c;
	uint8_t out[DHCP_MSG_MAX];
	uint8_t *m;
	size_t n;

	if (size > 1500)
		return 0;
	m = malloc(size ? size : 1);
	memcpy(m, data, size);
	if (size >= 34) {	/* our xid and chaddr, so most inputs get to the options */
		m[4] = 0x0b, m[5] = 0xad, m[6] = 0xca, m[7] = 0xfe;
		memcpy(m + 28, mac, 6);
	}
	if (dhcp_parse(m, size, XID, mac, &r) == 0) {
		fz_check(r.type != 0);
		check_lease(&r.lease);
	}
	dhcp_start(&c, mac, XID, 0);
	fz_check(dhcp_output(&c, 0, out, sizeof(out)) > 0);
	dhcp_input(&c, m, size, 1);		/* as an offer */
	n = dhcp_output(&c, 2, out, sizeof(out));
	fz_check(n <= DHCP_MSG_MAX);
	dhcp_input(&c, m, size, 3);		/* as an ack */
	fz_check(c.state == DHCP_SELECTING || c.state == DHCP_REQUESTING || c.state == DHCP_BOUND);
	check_lease(&c.lease);
	fz_check(dhcp_output(&c, 4, out, sizeof(out)) <= DHCP_MSG_MAX);
	free(m);
	return 0;
}
