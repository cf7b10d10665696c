/*
 * tftp: a TFTP write client (RFC 1350) for one file, octet mode, and the
 * reader of the server's packets. Lock-step: each 512-byte DATA block is
 * sent after the ACK of the one before, so every byte the transfer
 * reports as done was acknowledged; a block shorter than 512 bytes (0 when
 * the length is a multiple of 512) ends the file. The server answers the
 * write request (WRQ) from a port of its own, its transfer ID (TID), and
 * the rest goes there; a packet from any other port gets an ERROR 5
 * "Unknown transfer ID" and changes nothing (RFC 1350 section 4). A
 * packet not acknowledged within timeout_ms is sent again, at most tries
 * times in all; a duplicate ACK is not answered (RFC 1123 4.2.3.1, the
 * Sorcerer's Apprentice). An ERROR from the server ends the transfer.
 *
 * A state machine without I/O or clock of its own: the caller passes the
 * time (milliseconds, any origin, wrapping allowed), sends what
 * tftp_output() returns to the port it names, and passes every UDP
 * payload from the server's address to tftp_input(). The data may grow
 * while the transfer runs (tftp_more()): a block goes only once it is
 * whole or the data is complete. Freestanding.
 */
#ifndef CQ_LIB_NET_TFTP_H
#define CQ_LIB_NET_TFTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TFTP_PORT	69
#define TFTP_BLOCK	512
#define TFTP_PACKET_MAX	(4 + TFTP_BLOCK)	/* the largest packet tftp_output() writes (and a WRQ fits) */
#define TFTP_FILE_MAX	127			/* characters of a file name */
#define TFTP_MAX_BYTES	(65535ul * TFTP_BLOCK - 1)	/* 16-bit block numbers, no rollover */

enum { TFTP_RRQ = 1, TFTP_WRQ = 2, TFTP_DATA = 3, TFTP_ACK = 4, TFTP_ERROR = 5 };

/* A packet from the server as tftp_parse() read it. */
struct tftp_packet {
	unsigned opcode;
	unsigned block;			/* ACK, DATA */
	unsigned code;			/* ERROR */
	char msg[64];			/* ERROR: its text, bytes outside 0x20..0x7e as '?', cut */
};

/*
 * Reads a packet (len bytes of UDP payload). Returns 0, or -1 when it is
 * shorter than its opcode needs (ACK 4 bytes, ERROR 4 and a message, DATA 4)
 * or its opcode is not 1..5. An ERROR message without its NUL is taken up
 * to the end of the packet.
 */
int tftp_parse(const uint8_t *p, size_t len, struct tftp_packet *out);

enum tftp_state { TFTP_REQUESTING, TFTP_SENDING, TFTP_DONE, TFTP_FAILED };

struct tftp_client {
	enum tftp_state state;
	char file[TFTP_FILE_MAX + 1];
	const uint8_t *data;
	size_t avail;			/* bytes of data there so far */
	bool complete;			/* no more will come */
	uint16_t request_port;		/* where the WRQ goes */
	uint16_t tid;			/* the server's port, 0 until its first answer */
	unsigned block;			/* the block in flight (0: the WRQ) */
	size_t block_len;		/* its length */
	bool in_flight;			/* it was sent and waits for its ACK */
	bool due;			/* it is to go at the next tftp_output() */
	uint32_t last_ms;
	unsigned tries_left;
	unsigned timeout_ms, tries;
	uint16_t stray_port;		/* a port owed an ERROR 5, 0 for none */
	unsigned long retransmits, strays;
	char why[128];			/* when TFTP_FAILED: why */
};

/*
 * Starts a write of file (at most TFTP_FILE_MAX characters, cut beyond) to
 * the server's request_port (TFTP_PORT): avail bytes of data are there,
 * complete when that is all. timeout_ms: the wait for an answer; tries:
 * sends of one packet before giving up (at least 1).
 */
void tftp_start(struct tftp_client *t, const char *file, const uint8_t *data, size_t avail, bool complete,
		uint16_t request_port, unsigned timeout_ms, unsigned tries, uint32_t now_ms);

/* The data has grown to avail bytes (same buffer); complete when that is all. */
void tftp_more(struct tftp_client *t, size_t avail, bool complete);

/*
 * The packet to send now into buf (cap bytes, at least TFTP_PACKET_MAX),
 * its destination port in *dport; returns its length, or 0 when nothing
 * is due. Moves to TFTP_FAILED (why set) when a packet's tries are spent.
 */
size_t tftp_output(struct tftp_client *t, uint32_t now_ms, uint8_t *buf, size_t cap, uint16_t *dport);

/* Takes a packet from the server's address, sent from port sport. */
void tftp_input(struct tftp_client *t, uint16_t sport, const uint8_t *p, size_t len, uint32_t now_ms);

/* Bytes acknowledged so far. */
size_t tftp_acked(const struct tftp_client *t);

#endif
