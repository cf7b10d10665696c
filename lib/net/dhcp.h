/*
 * dhcp: a DHCP client (RFC 2131) for one address, and the reader of the
 * server's replies. DISCOVER, OFFER, REQUEST, ACK (a NAK starts over once
 * more), each message sent again after a timeout a bounded number of
 * times, then given up: a qualification run waits seconds for a network,
 * never minutes (RFC 2131 4.1 suggests 4 s doubling to 64 s; a box with no
 * DHCP server should get on with its tests). No lease renewal: the run ends
 * long before any lease does.
 *
 * The options kept (RFC 2132): 1 subnet mask, 3 router, 6 domain name
 * server, 7 log server (the syslog collector), 12 host name, 54 server
 * identifier, 66 TFTP server name, and the header's siaddr (the next
 * server: where PXE loaded us from). The first address of a list is kept.
 *
 * A state machine without I/O or clock of its own: the caller passes the
 * time (milliseconds, any origin, wrapping allowed), broadcasts what
 * dhcp_output() returns, and passes every UDP payload that arrives on
 * port 68 to dhcp_input(). Freestanding.
 */
#ifndef CQ_LIB_NET_DHCP_H
#define CQ_LIB_NET_DHCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DHCP_SERVER_PORT	67
#define DHCP_CLIENT_PORT	68
#define DHCP_MSG_MAX		576	/* bytes dhcp_output() may write: RFC 2131's minimum reassembly size */
#define DHCP_TEXT_MAX		63	/* characters kept of host name and TFTP server name */

/* Message types, option 53 (RFC 2132 9.6). */
enum {
	DHCPDISCOVER = 1, DHCPOFFER = 2, DHCPREQUEST = 3, DHCPDECLINE = 4,
	DHCPACK = 5, DHCPNAK = 6,
};

/* What a reply offers; an address is 0 and a text "" when the option was absent. */
struct dhcp_lease {
	uint32_t ip;			/* yiaddr */
	uint32_t siaddr;		/* next server (header) */
	uint32_t mask;			/* option 1 */
	uint32_t router;		/* option 3, first */
	uint32_t dns;			/* option 6, first */
	uint32_t log_server;		/* option 7, first */
	uint32_t server_id;		/* option 54 */
	char hostname[DHCP_TEXT_MAX + 1];	/* option 12: bytes outside 0x21..0x7e become '?' */
	char tftp_server[DHCP_TEXT_MAX + 1];	/* option 66, likewise */
};

/* One reply as dhcp_parse() read it. */
struct dhcp_reply {
	unsigned type;			/* option 53 */
	struct dhcp_lease lease;
	unsigned bad_options;		/* options ignored: a length wrong for their kind */
};

/*
 * Reads a server's message (len bytes of UDP payload) meant for the client
 * with this xid and MAC. Returns 0, or -1 when it is not one: short (under
 * 240 bytes: the fixed header and magic cookie), not a BOOTREPLY, not
 * Ethernet (htype 1, hlen 6), another xid or chaddr, no magic cookie
 * 99.130.83.99, an option running past the end, or no message type.
 * An option of the wrong length is skipped and counted, not fatal.
 */
int dhcp_parse(const uint8_t *p, size_t len, uint32_t xid, const uint8_t mac[6], struct dhcp_reply *out);

enum dhcp_state { DHCP_SELECTING, DHCP_REQUESTING, DHCP_BOUND, DHCP_FAILED };

#define DHCP_DISCOVER_TRIES	4	/* DISCOVERs sent, 1 + 2 + 4 + 4 s apart: 11 s without an answer */
#define DHCP_REQUEST_TRIES	3	/* REQUESTs sent, 1 + 2 + 4 s */
#define DHCP_NAKS		2	/* NAKs taken before giving up */

struct dhcp_client {
	enum dhcp_state state;
	uint8_t mac[6];
	uint32_t xid;
	uint32_t start_ms, last_ms;	/* when we started, when the last message went */
	unsigned sent;			/* messages sent in this state */
	unsigned naks;
	unsigned ignored;		/* replies not for us or unreadable */
	unsigned bad_options;		/* options skipped in the replies taken */
	bool due;			/* a message is to go at the next dhcp_output() */
	struct dhcp_lease lease;	/* the offer, then the ack's values over it */
	char why[96];			/* when DHCP_FAILED: why */
};

/* Starts (or restarts) in DHCP_SELECTING; the first DISCOVER goes at the next dhcp_output(). */
void dhcp_start(struct dhcp_client *c, const uint8_t mac[6], uint32_t xid, uint32_t now_ms);

/*
 * The message to broadcast now (from 0.0.0.0:68 to 255.255.255.255:67),
 * written into buf (cap bytes, at least DHCP_MSG_MAX); returns its length,
 * or 0 when nothing is due. Moves to DHCP_FAILED (why set) once the tries
 * of a state have all timed out.
 */
size_t dhcp_output(struct dhcp_client *c, uint32_t now_ms, uint8_t *buf, size_t cap);

/* Takes a message from a server (UDP payload to port 68). */
void dhcp_input(struct dhcp_client *c, const uint8_t *p, size_t len, uint32_t now_ms);

#endif
