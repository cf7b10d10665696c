/*
 * The constants of the vector-permute AES (drivers/vperm): 16-byte tables
 * that PSHUFB indexes with the nibbles of every state byte at once, after
 * M. Hamburg, "Accelerating AES with Vector Permute Instructions", CHES
 * 2009. lib/crypto/vperm_tables.c derives every one of them from the
 * field arithmetic at first use (nothing is typed in); the derivation and
 * what each table holds are explained there.
 *
 * vperm_tab.t[VT_x] is table x, 16 bytes, 16-byte aligned (the SSE
 * instructions take them as aligned memory operands); the assembly of
 * drivers/vperm/vperm.c addresses table x as vperm_tab + 16 * VT_x.
 */
#ifndef CQ_LIB_VPERM_TABLES_H
#define CQ_LIB_VPERM_TABLES_H

#include <stdint.h>

/* Nibble and byte-position tables. */
#define VT_MASK		0	/* 0x0f in every byte */
#define VT_INV		1	/* 1/x in GF(16); 1/0 = 0x80 (PSHUFB then gives 0) */
#define VT_INVA		2	/* a/x in GF(16); a/0 = 0x80 */
#define VT_IPT_LO	3	/* encryption's state basis T: byte x's low nibble */
#define VT_IPT_HI	4	/* ... its high nibble */
#define VT_DIPT_LO	5	/* decryption's state basis U = T after the inverse affine map */
#define VT_DIPT_HI	6
#define VT_SB1U		7	/* encryption rounds: T(S-box without its constant), from io */
#define VT_SB1T		8	/* ... from jo */
#define VT_SB2U		9	/* T(2 S-box ...), from io */
#define VT_SB2T		10
#define VT_SBOU		11	/* last encryption round: the S-box without its constant */
#define VT_SBOT		12
#define VT_D9U		13	/* decryption rounds: U(9 InvSubBytes ...) */
#define VT_D9T		14
#define VT_DDU		15	/* U(13 ...) */
#define VT_DDT		16
#define VT_DBU		17	/* U(11 ...) */
#define VT_DBT		18
#define VT_DEU		19	/* U(14 ...) */
#define VT_DET		20
#define VT_DOU		21	/* last decryption round: InvSubBytes */
#define VT_DOT		22
#define VT_SR		23	/* ShiftRows as a byte shuffle */
#define VT_ISR		24	/* InvShiftRows */
#define VT_ROT1		25	/* each column's rows rotated by one: row r takes row r + 1 */
#define VT_ROT3		26	/* ... by three */
#define VT_K63		27	/* T(0x63) in every byte: the S-box constant in basis T */
#define VT_K05		28	/* T(0x05) in every byte: the inverse S-box's constant */
#define VT_COUNT	29

struct vperm_tables {
	uint8_t t[VT_COUNT][16] __attribute__((aligned(16)));
};
extern struct vperm_tables vperm_tab;

/* Computes the tables (idempotent; later calls return at once). */
void vperm_tables_init(void);

#endif
