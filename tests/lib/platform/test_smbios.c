/* Unit tests for lib/platform/smbios_parse.c, with hostile tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lib/platform/smbios_parse.h"

static void fix_sum(uint8_t *p, size_t n, size_t at)
{
	uint8_t s = 0;
	size_t i;
	p[at] = 0;
	for (i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	p[at] = (uint8_t)(0x100 - s);
}

static uint8_t seg[4096];

static void put_ep2(size_t off, uint32_t addr, uint16_t len, uint16_t count)
{
	uint8_t *p = seg + off;
	memset(p, 0, 0x1F);
	memcpy(p, "_SM_", 4);
	p[5] = 0x1F; p[6] = 2; p[7] = 8;
	memcpy(p + 0x10, "_DMI_", 5);
	p[0x16] = (uint8_t)len; p[0x17] = (uint8_t)(len >> 8);
	p[0x18] = (uint8_t)addr; p[0x19] = (uint8_t)(addr >> 8);
	p[0x1A] = (uint8_t)(addr >> 16); p[0x1B] = (uint8_t)(addr >> 24);
	p[0x1C] = (uint8_t)count; p[0x1D] = (uint8_t)(count >> 8);
	fix_sum(p + 0x10, 15, 5);
	fix_sum(p, 0x1F, 4);
}

static void entry_point_2x_and_3x(void **state)
{
	struct smbios_ep ep;
	uint8_t *p;
	(void)state;
	memset(seg, 0xAA, sizeof(seg));
	assert_int_equal(smbios_find_entry(seg, sizeof(seg), &ep), -1);
	put_ep2(0x230, 0x000F1000, 0x1A3, 9);
	assert_int_equal(smbios_find_entry(seg, sizeof(seg), &ep), 0x230);
	assert_false(ep.v3);
	assert_int_equal(ep.major, 2);
	assert_int_equal(ep.minor, 8);
	assert_int_equal(ep.table_addr, 0xF1000);
	assert_int_equal(ep.table_len, 0x1A3);
	assert_int_equal(ep.count, 9);
	/* A bad checksum is no entry point. */
	seg[0x230 + 0x0A] ^= 1;
	assert_int_equal(smbios_find_entry(seg, sizeof(seg), &ep), -1);
	seg[0x230 + 0x0A] ^= 1;
	/* A bad intermediate anchor checksum neither. */
	seg[0x230 + 0x1E] ^= 1;
	fix_sum(seg + 0x230, 0x1F, 4);
	assert_int_equal(smbios_find_entry(seg, sizeof(seg), &ep), -1);
	put_ep2(0x230, 0x000F1000, 0x1A3, 9);
	/* Not on a 16-byte boundary: not found. */
	memset(seg, 0xAA, sizeof(seg));
	put_ep2(0x238, 0x000F1000, 0x1A3, 9);
	assert_int_equal(smbios_find_entry(seg, sizeof(seg), &ep), -1);
	/* 3.x is preferred, even after a 2.x one. */
	memset(seg, 0xAA, sizeof(seg));
	put_ep2(0x100, 0xF1000, 0x100, 3);
	p = seg + 0x400;
	memset(p, 0, 0x18);
	memcpy(p, "_SM3_", 5);
	p[6] = 0x18; p[7] = 3; p[8] = 0;
	p[0x0C] = 0x00; p[0x0D] = 0x02;          /* 512 bytes */
	p[0x10] = 0x00; p[0x11] = 0x00; p[0x12] = 0xFE; p[0x13] = 0x07; p[0x14] = 1;   /* 0x1_07FE_0000 */
	fix_sum(p, 0x18, 5);
	assert_int_equal(smbios_find_entry(seg, sizeof(seg), &ep), 0x400);
	assert_true(ep.v3);
	assert_int_equal(ep.major, 3);
	assert_int_equal(ep.table_len, 512);
	assert_true(ep.table_addr == 0x107FE0000ull);
	/* An entry point cut off by the end of the copy is not read past it. */
	assert_int_equal(smbios_find_entry(seg, 0x400 + 16, &ep), 0x100);
	/* A hostile length byte (> 32) is refused. */
	p[6] = 0xFF;
	fix_sum(p, 0x18, 5);
	assert_int_equal(smbios_find_entry(seg, sizeof(seg), &ep), 0x100);
}

/* Appends a structure: formatted area (type, len, 2-byte handle, body), then strings. */
static size_t put(uint8_t *t, size_t off, uint8_t type, const uint8_t *body, uint8_t blen,
		  const char *strings, size_t slen)
{
	t[off] = type;
	t[off + 1] = (uint8_t)(4 + blen);
	t[off + 2] = 0x34; t[off + 3] = 0x12;
	if (blen)
		memcpy(t + off + 4, body, blen);
	memcpy(t + off + 4 + blen, strings, slen);
	return off + 4 + blen + slen;
}

static uint8_t tbl[1024];

static size_t qemu_like_table(void)
{
	static const uint8_t b0[] = { 1, 2, 0, 0xE8, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t b1[21] = { 1, 2, 3, 4 };
	static const uint8_t b2[11] = { 1, 2, 0, 3 };
	size_t o = 0;
	/* sizeof counts the literal's own NUL: each set ends in a double NUL. */
#define SET(x) x, sizeof(x)
	o = put(tbl, o, 0, b0, sizeof(b0), SET("SeaBIOS\0rel-1.16.1\0" "04/01/2014\0"));
	o = put(tbl, o, 1, b1, sizeof(b1), SET("QEMU\0Standard PC (i440FX + PIIX, 1996)\0pc-i440fx-7.2\0CQ-TEST-42\0"));
	o = put(tbl, o, 2, b2, sizeof(b2), SET("Acme\0Board 1\0BRD-7\0"));
	o = put(tbl, o, 127, NULL, 0, SET("\0"));
	return o;
}

static void structures(void **state)
{
	struct smbios_facts f;
	size_t len = qemu_like_table();
	(void)state;
	assert_int_equal(smbios_parse_table(tbl, len, 0, &f), 4);
	assert_null(f.error);
	assert_string_equal(f.bios_vendor, "SeaBIOS");
	assert_string_equal(f.bios_version, "rel-1.16.1");
	assert_string_equal(f.bios_date, "04/01/2014");
	assert_string_equal(f.sys_vendor, "QEMU");
	assert_string_equal(f.sys_product, "Standard PC (i440FX + PIIX, 1996)");
	assert_string_equal(f.sys_serial, "CQ-TEST-42");
	assert_string_equal(f.board_vendor, "Acme");
	assert_string_equal(f.board_product, "Board 1");
	assert_string_equal(f.board_serial, "BRD-7");
	/* The count from the 2.x entry point limits the walk. */
	assert_int_equal(smbios_parse_table(tbl, len, 1, &f), 1);
	assert_false(f.have_system);
}

static void hostile_tables(void **state)
{
	struct smbios_facts f;
	size_t len = qemu_like_table(), cut;
	uint8_t bad[64];
	(void)state;
	/* Cut anywhere: never reads past len, keeps what came before. */
	for (cut = 0; cut < len; cut++) {
		smbios_parse_table(tbl, cut, 0, &f);
		assert_true(f.structures <= 4);
		assert_true(strlen(f.sys_serial) <= SMBIOS_STR_MAX);
	}
	/* A header claiming a length below 4: stop, said why. */
	memcpy(bad, "\x01\x02\x00\x00\0\0", 6);
	assert_int_equal(smbios_parse_table(bad, 6, 0, &f), 0);
	assert_non_null(f.error);
	/* A formatted area longer than the table. */
	memcpy(bad, "\x01\xF0\x00\x00\0\0", 6);
	assert_int_equal(smbios_parse_table(bad, 6, 0, &f), 0);
	assert_non_null(f.error);
	/* A string index beyond the set: "", not a neighbour's string. */
	memset(bad, 0, sizeof(bad));
	bad[0] = 1; bad[1] = 8; bad[4] = 9; bad[5] = 1; bad[7] = 200;
	memcpy(bad + 8, "only\0\0", 6);
	assert_int_equal(smbios_parse_table(bad, 14, 0, &f), 1);
	assert_string_equal(f.sys_vendor, "");
	assert_string_equal(f.sys_product, "only");
	assert_string_equal(f.sys_serial, "");
	/* A 200-byte serial with a newline is kept raw and cut (escaping is the printer's job). */
	{
		static uint8_t big[400];
		size_t o;
		static const uint8_t b1[4] = { 0, 0, 0, 1 };
		char s[210];
		memset(s, 'S', 200);
		s[5] = '\n';
		s[200] = 0; s[201] = 0;
		o = put(big, 0, 1, b1, 4, s, 202);
		assert_int_equal(smbios_parse_table(big, o, 0, &f), 1);
		assert_int_equal(strlen(f.sys_serial), SMBIOS_STR_MAX);
	}
	/* Random bytes: always terminates, strings bounded. */
	{
		static uint8_t rnd[2048];
		unsigned seed = 7, round, i;
		for (round = 0; round < 3000; round++) {
			for (i = 0; i < sizeof(rnd); i++)
				rnd[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16) & (round & 1 ? 0x07 : 0xFF);
			smbios_parse_table(rnd, sizeof(rnd), 0, &f);
			assert_true(strlen(f.bios_vendor) <= SMBIOS_STR_MAX);
		}
	}
}

static void banner(void **state)
{
	static uint8_t rom[256];
	char out[80];
	(void)state;
	memset(rom, 0xFF, sizeof(rom));
	memcpy(rom + 10, "BIOS", 4);                     /* too short a run */
	memcpy(rom + 40, "Copyright 2007", 14);          /* no BIOS in it */
	memcpy(rom + 100, "comBIOS ver. 1.33  20070103", 27);
	assert_true(bios_banner_find(rom, sizeof(rom), out, sizeof(out)));
	assert_string_equal(out, "comBIOS ver. 1.33  20070103");
	memset(rom, 0, sizeof(rom));
	assert_false(bios_banner_find(rom, sizeof(rom), out, sizeof(out)));
	assert_string_equal(out, "");
	/* A run to the end of the ROM is bounded. */
	memset(rom, 'A', sizeof(rom));
	memcpy(rom + 200, "BIOS", 4);
	assert_true(bios_banner_find(rom, sizeof(rom), out, sizeof(out)));
	assert_int_equal(strlen(out), SMBIOS_STR_MAX);
	assert_true(bios_banner_find(rom, sizeof(rom), out, 10));
	assert_int_equal(strlen(out), 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(entry_point_2x_and_3x),
		cmocka_unit_test(structures),
		cmocka_unit_test(hostile_tables),
		cmocka_unit_test(banner),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
