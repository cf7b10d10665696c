/*
 * geode_sb_reg.h: registers of the AMD Geode LX security block (AES engine,
 * true random number generator, EEPROM ID interface).
 *
 * Sources, cited per group below:
 *   [DB]  AMD Geode LX Processors Data Book, publication 33234H:
 *         6.11 (security block), 6.12.1 (GeodeLink MSRs), 6.12.3 (registers).
 *   [OBSD] OpenBSD sys/arch/i386/pci/glxsb.c (register and MSR names,
 *         GLD_MSR_CAP identity check, CTRL bits, 0x810-byte window).
 *   [LNX] Linux drivers/crypto/geode-aes.h and geode-aes.c (AES_INT
 *         completion flag at bit 16, CBC_IV read back after an operation).
 * Where the sources disagree it is said so at the definition.
 */
#ifndef CQ_DRIVERS_GEODE_SB_REG_H
#define CQ_DRIVERS_GEODE_SB_REG_H

/* PCI identity [DB 6.12.1; OBSD glxsb_match]. VSA firmware emulates the header. */
#define GEODE_SB_VENDOR		0x1022	/* AMD */
#define GEODE_SB_DEVICE		0x2082	/* Geode LX AES Security Block */
#define GEODE_SB_BAR_SIZE		0x4000	/* BAR0: 32-bit memory, 16 KiB (mask 0xffffc000) */
#define GEODE_SB_MEM_SIZE		0x0810	/* bytes of BAR0 with registers [OBSD SB_MEM_SIZE] */

/* GeodeLink device MSRs of the security block [DB 6.12.1; OBSD SB_GLD_MSR_*]. */
#define GEODE_SB_MSR_CAP		0x58002000	/* RO: GLD capabilities */
#define  GEODE_SB_CAP_ID_MASK	0x00FFFF00u	/*  bits 23:8 device ID ... */
#define  GEODE_SB_CAP_ID		0x00130400u	/*  ... of the security block [OBSD attach] */
#define  GEODE_SB_CAP_REV_MASK	0x000000FFu	/*  bits 7:0 revision */
#define GEODE_SB_MSR_CONFIG	0x58002001	/* RW: GLD master config */
#define GEODE_SB_MSR_SMI		0x58002002	/* RW: GLD SMI */
#define GEODE_SB_MSR_ERROR	0x58002003	/* RW: GLD error */
#define GEODE_SB_MSR_PM		0x58002004	/* RW: GLD power management */
#define GEODE_SB_MSR_DIAG		0x58002005	/* RW: GLD diagnostic */
#define GEODE_SB_MSR_CTRL		0x58002006	/* RW: security block control */
#define  GEODE_SB_CTRL_DIV_MASK	0x0003	/*  AES clock divisor (left as found) */
#define  GEODE_SB_CTRL_SBI	0x0004	/*  AES swap bits (every driver leaves it 0) */
#define  GEODE_SB_CTRL_SBY	0x0008	/*  AES swap bytes (every driver leaves it 0) */
#define  GEODE_SB_CTRL_TW		0x0010	/*  EEPROM write timing */
#define  GEODE_SB_CTRL_T_SEL_SHIFT 8
#define  GEODE_SB_CTRL_T_SEL_MASK	0x0300	/*  RNG post-processing: */
#define   GEODE_SB_T_SEL_NONE	0	/*   raw noise */
#define   GEODE_SB_T_SEL_LFSR	1	/*   LFSR */
#define   GEODE_SB_T_SEL_WHITEN	2	/*   whitener */
#define   GEODE_SB_T_SEL_BOTH	3	/*   LFSR and whitener (the BSDs' choice) */
#define  GEODE_SB_CTRL_T_NE	0x0400	/*  noise generator enable */
#define  GEODE_SB_CTRL_T_TM	0x0800	/*  RNG test mode: deterministic output */

/* Memory-mapped registers, offsets in BAR0 [DB 6.12.3; OBSD SB_*]. 32-bit access. */
#define GEODE_SB_CTL_A		0x000	/* RW: control, DMA context A */
#define GEODE_SB_CTL_B		0x004	/* RW: control, DMA context B (unused) */
#define  GEODE_SB_CTL_ST		0x01	/*  start; clears itself when done [OBSD] */
#define  GEODE_SB_CTL_ENC		0x02	/*  1 encrypt, 0 decrypt */
#define  GEODE_SB_CTL_WK		0x04	/*  1 writable key (WKEY), 0 hidden EEPROM key */
#define  GEODE_SB_CTL_DC		0x08	/*  destination coherent */
#define  GEODE_SB_CTL_SC		0x10	/*  source coherent */
#define  GEODE_SB_CTL_CBC		0x20	/*  1 CBC, 0 ECB */
#define GEODE_SB_AES_INT		0x008	/* RW: interrupt masks and completion flags */
#define  GEODE_SB_INT_MASK_A	0x00000001u	/*  mask AES A completion interrupt */
#define  GEODE_SB_INT_MASK_B	0x00000002u	/*  mask AES B completion interrupt */
#define  GEODE_SB_INT_MASK_EEPROM	0x00000004u	/*  mask EEPROM completion interrupt */
/*
 * Completion flags, write 1 to clear. Bit 16 and up per [LNX], [OBSD] and
 * FreeBSD; NetBSD's copy of the header has 0x100/0x200/0x400 instead. The
 * driver therefore never relies on the flag alone: an operation is done
 * when either ST has cleared or the A flag is set.
 */
#define  GEODE_SB_INT_DONE_A	0x00010000u
#define  GEODE_SB_INT_DONE_B	0x00020000u
#define  GEODE_SB_INT_DONE_EEPROM	0x00040000u
#define  GEODE_SB_INT_MASK_ALL	(GEODE_SB_INT_MASK_A | GEODE_SB_INT_MASK_B | GEODE_SB_INT_MASK_EEPROM)
#define  GEODE_SB_INT_DONE_ALL	(GEODE_SB_INT_DONE_A | GEODE_SB_INT_DONE_B | GEODE_SB_INT_DONE_EEPROM)
#define GEODE_SB_SOURCE_A		0x010	/* RW: source bus address; bits 3:0 forced 0 [DB] */
#define GEODE_SB_DEST_A		0x014	/* RW: destination bus address; bits 3:0 forced 0 */
#define GEODE_SB_LENGTH_A		0x018	/* RW: bytes */
#define GEODE_SB_SOURCE_B		0x020
#define GEODE_SB_DEST_B		0x024
#define GEODE_SB_LENGTH_B		0x028
#define GEODE_SB_WKEY(i)		(0x030 + 4 * (i))	/* WO, i = 0..3: key bytes 4i..4i+3, memory order */
#define GEODE_SB_CBC_IV(i)	(0x040 + 4 * (i))	/* RW, i = 0..3: IV bytes 4i..4i+3 */
#define GEODE_SB_RANDOM_NUM	0x050	/* RO: 32 bits of TRNG output */
#define GEODE_SB_RANDOM_NUM_STATUS 0x054	/* RO: */
#define  GEODE_SB_RNS_VALID	0x01	/*  RANDOM_NUM holds a new value [OBSD SB_RNS_TRNG_VALID] */
#define GEODE_SB_EEPROM_COMM	0x800	/* RW: EEPROM command: NEVER written by this driver */
#define GEODE_SB_EEPROM_ADDR	0x804	/* RW: EEPROM address: never written */
#define GEODE_SB_EEPROM_DATA	0x808	/* RW: EEPROM data: never written */
#define GEODE_SB_EEPROM_SEC_STATE	0x80C	/* RO: access control bits as loaded at reset [DB 6.12.3.23] */
/*
 * SEC_STATE fields, 3 bits each; all ones = unlocked, and any bit clear
 * locks [DB 6.12.3.23]. WPE and DBL are EEPROM byte 1 bits 5:3 and 2:0 as
 * the data book states; WPU and WPL are placed at bits 5:3 and 2:0 from
 * the register map's layout (byte 0 mirrored like byte 1), whose text was
 * not available: the raw value is always printed beside the decoding.
 */
#define  GEODE_SB_SEC_WPL_SHIFT	0	/*  write protect, lower addresses */
#define  GEODE_SB_SEC_WPU_SHIFT	3	/*  write protect, upper addresses */
#define  GEODE_SB_SEC_DBL_SHIFT	8	/*  debug lock */
#define  GEODE_SB_SEC_WPE_SHIFT	11	/*  write protect above 255 (no effect on 2 Kbit parts) */
#define  GEODE_SB_SEC_FIELD	0x7	/*  mask of one field after the shift */

/* DMA constraints [DB 6.11]: 16-byte aligned buffers, whole blocks, no scatter-gather. */
#define GEODE_SB_DMA_ALIGN	16
#define GEODE_SB_AES_BLOCK	16
#define GEODE_SB_KEY_BYTES	16	/* AES-128 only */

#endif
