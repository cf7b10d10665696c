/*
 * libFuzzer target for lib/net/tftp.c (what a TFTP server, or anyone else,
 * sends back during an upload): the input is a sequence of packets, each
 * [port selector byte][length byte][bytes], fed to a write client of a
 * 1300-byte file with the clock moving on. Checks that the client stays
 * in a valid state, never sends past its data or its packet buffer,
 * sends DATA blocks in order and only to the server's TID, and that an
 * ERROR text is printable.
 * Build: make fuzz (mk/fuzz.mk); run: tests/fuzz/fuzz-net.t.
 */
#include <stdint.h>
#include <string.h>

#include "lib/net/inet.h"
#include "lib/net/tftp.h"
#include "tests/fuzz/fuzz_common.h"

static uint8_t file[1300];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tftp_client t;
	struct tftp_packet k;
	uint8_t out[TFTP_PACKET_MAX];
	uint16_t dport;
	size_t i = 0, n;
	uint32_t now = 0;
	unsigned last_block = 0;

	tftp_start(&t, "cryptoqual-fuzz.log", file, sizeof(file), true, TFTP_PORT, 1000, 3, now);
	while (i + 2 <= size) {
		uint8_t sel = data[i];
		uint16_t port = (uint16_t)(40000 + (sel & 3));
		size_t len = data[i + 1];
		uint8_t *p;

		i += 2;
		if (len > size - i)
			len = size - i;
		p = malloc(len ? len : 1);
		memcpy(p, data + i, len);
		if (tftp_parse(p, len, &k) == 0 && k.opcode == TFTP_ERROR)
			fz_check_printable(k.msg, sizeof(k.msg) - 1);
		tftp_input(&t, port, p, len, now);
		free(p);
		i += len;
		now += (sel & 4) ? 1500 : 10;	/* sometimes past the timeout */
		while ((n = tftp_output(&t, now, out, sizeof(out), &dport)) > 0) {
			unsigned op = be16_get(out);
			fz_check(n <= sizeof(out));
			if (op == TFTP_DATA) {
				unsigned b = be16_get(out + 2);
				fz_check(dport == t.tid && t.tid != 0);
				fz_check(b == last_block || b == last_block + 1);
				fz_check((size_t)(b - 1) * TFTP_BLOCK + (n - 4) <= sizeof(file));
				last_block = b;
			} else {
				fz_check(op == TFTP_WRQ || op == TFTP_ERROR);
			}
		}
		fz_check(t.state <= TFTP_FAILED);
		fz_check(tftp_acked(&t) <= sizeof(file));
		if (t.state == TFTP_FAILED)
			fz_check_printable(t.why, sizeof(t.why) - 1);
	}
	return 0;
}
