/* tftp: the TFTP write client and its packet reader. See tftp.h. */
#include "lib/net/tftp.h"

#include <string.h>

#include "lib/net/inet.h"
#include "lib/util/fmt.h"

#define ERR_UNKNOWN_TID	5	/* RFC 1350 appendix, error codes */

int tftp_parse(const uint8_t *p, size_t len, struct tftp_packet *out)
{
	size_t i, n = 0;

	memset(out, 0, sizeof(*out));
	if (len < 4)
		return -1;
	out->opcode = be16_get(p);
	switch (out->opcode) {
	case TFTP_ACK:
	case TFTP_DATA:
		out->block = be16_get(p + 2);
		return 0;
	case TFTP_ERROR:
		out->code = be16_get(p + 2);
		for (i = 4; i < len && p[i] != 0 && n + 1 < sizeof(out->msg); i++)
			out->msg[n++] = p[i] >= 0x20 && p[i] < 0x7F ? (char)p[i] : '?';
		out->msg[n] = '\0';
		return 0;
	case TFTP_RRQ:
	case TFTP_WRQ:
		return 0;
	default:
		return -1;
	}
}

/* Sets up the block after the current one, or the wait for its data. */
static void next_block(struct tftp_client *t)
{
	size_t off = (size_t)t->block * TFTP_BLOCK;

	t->in_flight = false;
	t->due = false;
	if (t->block >= 65535) {
		fmt_snprintf(t->why, sizeof(t->why), "the file needs more than 65535 blocks of %u bytes",
			     TFTP_BLOCK);
		t->state = TFTP_FAILED;
		return;
	}
	if (!t->complete && t->avail - off < TFTP_BLOCK)
		return;		/* waits for tftp_more() */
	t->block++;
	t->block_len = t->avail - off < TFTP_BLOCK ? t->avail - off : TFTP_BLOCK;
	t->due = true;
	t->tries_left = t->tries;
}

void tftp_start(struct tftp_client *t, const char *file, const uint8_t *data, size_t avail, bool complete,
		uint16_t request_port, unsigned timeout_ms, unsigned tries, uint32_t now_ms)
{
	memset(t, 0, sizeof(*t));
	fmt_snprintf(t->file, sizeof(t->file), "%s", file);
	t->data = data;
	t->avail = avail;
	t->complete = complete;
	t->request_port = request_port;
	t->timeout_ms = timeout_ms;
	t->tries = tries ? tries : 1;
	t->tries_left = t->tries;
	t->state = TFTP_REQUESTING;
	t->due = true;
	t->last_ms = now_ms;
}

void tftp_more(struct tftp_client *t, size_t avail, bool complete)
{
	if (avail >= t->avail)
		t->avail = avail;
	t->complete = complete;
	if (t->state == TFTP_SENDING && !t->in_flight && !t->due)
		next_block(t);
}

static size_t error_packet(uint8_t *buf, unsigned code, const char *msg)
{
	size_t n = strlen(msg);

	be16_put(buf, TFTP_ERROR);
	be16_put(buf + 2, (uint16_t)code);
	memcpy(buf + 4, msg, n + 1);
	return 4 + n + 1;
}

size_t tftp_output(struct tftp_client *t, uint32_t now_ms, uint8_t *buf, size_t cap, uint16_t *dport)
{
	size_t n;

	if (cap < TFTP_PACKET_MAX)
		return 0;
	if (t->stray_port) {
		*dport = t->stray_port;
		t->stray_port = 0;
		return error_packet(buf, ERR_UNKNOWN_TID, "Unknown transfer ID");
	}
	if (t->state != TFTP_REQUESTING && t->state != TFTP_SENDING)
		return 0;
	if (!t->due) {
		if (!t->in_flight || (uint32_t)(now_ms - t->last_ms) < t->timeout_ms)
			return 0;
		if (t->tries_left == 0) {
			if (t->block == 0)
				fmt_snprintf(t->why, sizeof(t->why), "no answer to the write request after %u tries, %u ms apart",
					     t->tries, t->timeout_ms);
			else
				fmt_snprintf(t->why, sizeof(t->why), "no ACK of block %u (%lu bytes acknowledged) after %u tries, %u ms apart",
					     t->block, (unsigned long)tftp_acked(t), t->tries, t->timeout_ms);
			t->state = TFTP_FAILED;
			return 0;
		}
		t->retransmits++;
	}
	t->due = false;
	t->in_flight = true;
	t->tries_left--;
	t->last_ms = now_ms;
	if (t->block == 0) {
		/* WRQ: opcode, file name, NUL, mode, NUL (RFC 1350 figure 5-1). */
		be16_put(buf, TFTP_WRQ);
		n = strlen(t->file);
		memcpy(buf + 2, t->file, n + 1);
		memcpy(buf + 2 + n + 1, "octet", 6);
		*dport = t->request_port;
		return 2 + n + 1 + 6;
	}
	be16_put(buf, TFTP_DATA);
	be16_put(buf + 2, (uint16_t)t->block);
	memcpy(buf + 4, t->data + (size_t)(t->block - 1) * TFTP_BLOCK, t->block_len);
	*dport = t->tid;
	return 4 + t->block_len;
}

void tftp_input(struct tftp_client *t, uint16_t sport, const uint8_t *p, size_t len, uint32_t now_ms)
{
	struct tftp_packet k;

	(void)now_ms;
	if (t->state != TFTP_REQUESTING && t->state != TFTP_SENDING)
		return;
	if (tftp_parse(p, len, &k) != 0)
		return;
	if (t->tid != 0 && sport != t->tid) {
		t->strays++;
		t->stray_port = sport;
		return;
	}
	if (k.opcode == TFTP_ERROR) {
		if (t->block == 0)
			fmt_snprintf(t->why, sizeof(t->why), "the server answered ERROR %u '%s' to the write request",
				     k.code, k.msg);
		else
			fmt_snprintf(t->why, sizeof(t->why), "the server answered ERROR %u '%s' to block %u", k.code,
				     k.msg, t->block);
		t->state = TFTP_FAILED;
		return;
	}
	if (k.opcode != TFTP_ACK || k.block != t->block || !t->in_flight)
		return;		/* a duplicate or stale ACK: not answered */
	if (t->state == TFTP_REQUESTING) {
		t->tid = sport;
		t->state = TFTP_SENDING;
	} else if (t->block_len < TFTP_BLOCK) {
		t->in_flight = false;
		t->state = TFTP_DONE;
		return;
	}
	next_block(t);
}

size_t tftp_acked(const struct tftp_client *t)
{
	if (t->state == TFTP_DONE)
		return (size_t)(t->block - 1) * TFTP_BLOCK + t->block_len;
	if (t->in_flight || t->due)
		return t->block ? (size_t)(t->block - 1) * TFTP_BLOCK : 0;
	return (size_t)t->block * TFTP_BLOCK;	/* waiting for data: every block sent was acknowledged */
}
