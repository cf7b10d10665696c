/*
 * Unit tests for lib/net/tftp.c: the write client against a scripted
 * server (RFC 1350): WRQ in octet mode, the server's new TID, lock-step
 * DATA/ACK, the final short (or empty) block, retransmission on a clock
 * and giving up, duplicate ACKs not answered, ERROR packets, strays from
 * another port, data that grows while the transfer runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/net/inet.h"
#include "lib/net/tftp.h"

static uint8_t data[2000];
static uint8_t pkt[TFTP_PACKET_MAX];
static uint16_t dport;

static size_t ack(uint8_t *b, unsigned block)
{
	be16_put(b, TFTP_ACK);
	be16_put(b + 2, (uint16_t)block);
	return 4;
}

static void setup_data(void)
{
	size_t i;
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 3);
}

/* Runs a transfer of n bytes to a server that always answers; returns what it received. */
static size_t run_transfer(size_t n, uint8_t *got, unsigned *blocks)
{
	struct tftp_client t;
	uint8_t a[4];
	size_t len, total = 0;
	uint32_t now = 0;

	tftp_start(&t, "cryptoqual-box-1.log", data, n, true, TFTP_PORT, 1000, 3, now);
	len = tftp_output(&t, now, pkt, sizeof(pkt), &dport);
	assert_int_equal(dport, TFTP_PORT);
	assert_int_equal(be16_get(pkt), TFTP_WRQ);
	assert_string_equal((char *)pkt + 2, "cryptoqual-box-1.log");
	assert_string_equal((char *)pkt + 2 + 21, "octet");
	assert_int_equal(len, 2 + 21 + 6);
	tftp_input(&t, 40001, a, ack(a, 0), now);	/* the server's TID: 40001 */
	*blocks = 0;
	while (t.state == TFTP_SENDING) {
		len = tftp_output(&t, ++now, pkt, sizeof(pkt), &dport);
		assert_true(len >= 4);
		assert_int_equal(dport, 40001);
		assert_int_equal(be16_get(pkt), TFTP_DATA);
		assert_int_equal(be16_get(pkt + 2), *blocks + 1);
		memcpy(got + total, pkt + 4, len - 4);
		total += len - 4;
		(*blocks)++;
		assert_int_equal(tftp_acked(&t), (size_t)(*blocks - 1) * TFTP_BLOCK);
		tftp_input(&t, 40001, a, ack(a, *blocks), now);
	}
	assert_int_equal(t.state, TFTP_DONE);
	assert_int_equal(tftp_acked(&t), n);
	assert_int_equal(t.retransmits, 0);
	return total;
}

static void test_lockstep(void **state)
{
	uint8_t got[sizeof(data) + 512];
	unsigned blocks;
	(void)state;
	setup_data();
	assert_int_equal(run_transfer(1300, got, &blocks), 1300);
	assert_int_equal(blocks, 3);
	assert_memory_equal(got, data, 1300);
	/* A multiple of 512 ends with an empty block. */
	assert_int_equal(run_transfer(1024, got, &blocks), 1024);
	assert_int_equal(blocks, 3);
	assert_memory_equal(got, data, 1024);
	assert_int_equal(run_transfer(0, got, &blocks), 0);
	assert_int_equal(blocks, 1);
}

static void test_retransmit_and_give_up(void **state)
{
	struct tftp_client t;
	uint8_t a[4];
	(void)state;
	setup_data();
	tftp_start(&t, "f", data, 600, true, 6969, 1000, 3, 0);
	assert_true(tftp_output(&t, 0, pkt, sizeof(pkt), &dport) > 0);
	assert_int_equal(dport, 6969);
	assert_int_equal(tftp_output(&t, 999, pkt, sizeof(pkt), &dport), 0);
	assert_true(tftp_output(&t, 1000, pkt, sizeof(pkt), &dport) > 0);	/* WRQ again */
	assert_int_equal(be16_get(pkt), TFTP_WRQ);
	assert_int_equal(t.retransmits, 1);
	/* The answer to the second WRQ. */
	tftp_input(&t, 50000, a, ack(a, 0), 1100);
	assert_true(tftp_output(&t, 1100, pkt, sizeof(pkt), &dport) > 0);
	assert_int_equal(be16_get(pkt + 2), 1);
	/* Block 1 lost twice, then the tries are spent. */
	assert_true(tftp_output(&t, 2100, pkt, sizeof(pkt), &dport) > 0);
	assert_true(tftp_output(&t, 3100, pkt, sizeof(pkt), &dport) > 0);
	assert_int_equal(be16_get(pkt + 2), 1);
	assert_int_equal(tftp_output(&t, 4100, pkt, sizeof(pkt), &dport), 0);
	assert_int_equal(t.state, TFTP_FAILED);
	assert_non_null(strstr(t.why, "no ACK of block 1 (0 bytes acknowledged) after 3 tries"));
	/* No server at all. */
	tftp_start(&t, "f", data, 600, true, TFTP_PORT, 500, 2, 0);
	tftp_output(&t, 0, pkt, sizeof(pkt), &dport);
	tftp_output(&t, 500, pkt, sizeof(pkt), &dport);
	tftp_output(&t, 1000, pkt, sizeof(pkt), &dport);
	assert_int_equal(t.state, TFTP_FAILED);
	assert_non_null(strstr(t.why, "no answer to the write request after 2 tries"));
}

/* A duplicate ACK is not answered (no Sorcerer's Apprentice); a stray port gets ERROR 5. */
static void test_duplicates_and_strays(void **state)
{
	struct tftp_client t;
	uint8_t a[4];
	size_t n;
	(void)state;
	setup_data();
	tftp_start(&t, "f", data, 1500, true, TFTP_PORT, 1000, 3, 0);
	tftp_output(&t, 0, pkt, sizeof(pkt), &dport);
	tftp_input(&t, 40001, a, ack(a, 0), 1);
	tftp_output(&t, 1, pkt, sizeof(pkt), &dport);
	tftp_input(&t, 40001, a, ack(a, 1), 2);
	tftp_output(&t, 2, pkt, sizeof(pkt), &dport);	/* block 2 out */
	tftp_input(&t, 40001, a, ack(a, 1), 3);	/* the old ACK again */
	assert_int_equal(tftp_output(&t, 3, pkt, sizeof(pkt), &dport), 0);
	/* An ACK of block 2 from another port: ERROR 5 there, no progress. */
	tftp_input(&t, 40002, a, ack(a, 2), 4);
	n = tftp_output(&t, 4, pkt, sizeof(pkt), &dport);
	assert_int_equal(dport, 40002);
	assert_int_equal(be16_get(pkt), TFTP_ERROR);
	assert_int_equal(be16_get(pkt + 2), 5);
	assert_int_equal(pkt[n - 1], 0);
	assert_int_equal(t.strays, 1);
	assert_int_equal(tftp_output(&t, 5, pkt, sizeof(pkt), &dport), 0);
	assert_int_equal(tftp_acked(&t), 512);
	tftp_input(&t, 40001, a, ack(a, 2), 6);
	n = tftp_output(&t, 6, pkt, sizeof(pkt), &dport);
	assert_int_equal(be16_get(pkt + 2), 3);
	assert_int_equal(n, 4 + 1500 - 1024);
}

static void test_error_packets(void **state)
{
	struct tftp_client t;
	uint8_t e[80];
	static const char msg[] = "\x00\x05\x00\x02" "Access violation\n";
	(void)state;
	tftp_start(&t, "f", data, 10, true, TFTP_PORT, 1000, 3, 0);
	tftp_output(&t, 0, pkt, sizeof(pkt), &dport);
	memcpy(e, msg, sizeof(msg));	/* with its NUL */
	tftp_input(&t, 40001, e, sizeof(msg), 1);
	assert_int_equal(t.state, TFTP_FAILED);
	assert_string_equal(t.why, "the server answered ERROR 2 'Access violation?' to the write request");
	assert_int_equal(tftp_output(&t, 5000, pkt, sizeof(pkt), &dport), 0);
}

static void test_parse(void **state)
{
	struct tftp_packet k;
	static const uint8_t err_no_nul[] = { 0, 5, 0, 1, 'n', 'o' };
	static const uint8_t short_ack[] = { 0, 4, 0 };
	static const uint8_t bad_op[] = { 0, 9, 0, 0 };
	uint8_t long_err[200];
	(void)state;
	assert_int_equal(tftp_parse(err_no_nul, sizeof(err_no_nul), &k), 0);
	assert_int_equal(k.opcode, TFTP_ERROR);
	assert_int_equal(k.code, 1);
	assert_string_equal(k.msg, "no");
	assert_int_equal(tftp_parse(short_ack, sizeof(short_ack), &k), -1);
	assert_int_equal(tftp_parse(bad_op, sizeof(bad_op), &k), -1);
	memset(long_err, 'A', sizeof(long_err));
	long_err[0] = 0;
	long_err[1] = 5;
	assert_int_equal(tftp_parse(long_err, sizeof(long_err), &k), 0);
	assert_int_equal(strlen(k.msg), sizeof(k.msg) - 1);
}

/* Data that grows: whole blocks go as they come, the last once complete. */
static void test_growing_data(void **state)
{
	struct tftp_client t;
	uint8_t a[4];
	(void)state;
	setup_data();
	tftp_start(&t, "f", data, 700, false, TFTP_PORT, 1000, 3, 0);
	tftp_output(&t, 0, pkt, sizeof(pkt), &dport);
	tftp_input(&t, 40001, a, ack(a, 0), 1);
	assert_int_equal(tftp_output(&t, 1, pkt, sizeof(pkt), &dport), 4 + 512);
	tftp_input(&t, 40001, a, ack(a, 1), 2);
	/* 188 bytes left, not complete: nothing goes, and nothing times out. */
	assert_int_equal(tftp_output(&t, 2, pkt, sizeof(pkt), &dport), 0);
	assert_int_equal(tftp_output(&t, 90000, pkt, sizeof(pkt), &dport), 0);
	assert_int_equal(t.state, TFTP_SENDING);
	assert_int_equal(tftp_acked(&t), 512);
	tftp_more(&t, 1100, false);
	assert_int_equal(tftp_output(&t, 90001, pkt, sizeof(pkt), &dport), 4 + 512);
	tftp_input(&t, 40001, a, ack(a, 2), 90002);
	tftp_more(&t, 1110, true);
	assert_int_equal(tftp_output(&t, 90003, pkt, sizeof(pkt), &dport), 4 + 1110 - 1024);
	tftp_input(&t, 40001, a, ack(a, 3), 90004);
	assert_int_equal(t.state, TFTP_DONE);
	assert_int_equal(tftp_acked(&t), 1110);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lockstep),
		cmocka_unit_test(test_retransmit_and_give_up),
		cmocka_unit_test(test_duplicates_and_strays),
		cmocka_unit_test(test_error_packets),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_growing_data),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
