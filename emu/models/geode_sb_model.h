/*
 * geode_sb_model: a register-level model of the AMD Geode LX security
 * block, for host tests and the kernel's emulation build (emu/).
 *
 * What it models (facts: drivers/geode_sb/geode_sb_reg.h and its sources;
 * every [A] is an assumption where the sources are silent, also listed in
 * docs/emulation.md):
 *   - PCI function 1022:2082 at 00:01.2, class 10.10.00, BAR0 16 KiB of
 *     32-bit memory, in a lib/host/pci_model.c machine; command register 0x0006
 *     at reset (memory + bus master, as the net5501 comBIOS listing and
 *     OLPC's vsapci.fth leave it). MMIO answers only while memory decoding
 *     is on (else reads all-ones, writes dropped). DMA is NOT gated on bus
 *     mastering: no source says it is, and Linux and NetBSD never set it
 *     (a start without it is only counted, no_master).
 *   - Registers CTL_A/CTL_B, AES_INT (masks; completion flags bits 16/17
 *     write 1 to clear), SOURCE/DEST/LENGTH A and B, WKEY0..3 (write only:
 *     read 0 [DB p.511]) and CBC_IV0..3 shared by both contexts, CBC_IV
 *     updated to the next IV after a CBC operation (Linux reads it back),
 *     RANDOM_NUM and RANDOM_NUM_STATUS, EEPROM_SEC_STATE; EEPROM_COMM, ADDR
 *     and DATA only count writes (a qualification image must make none).
 *   - GeodeLink MSRs 0x58002000 (CAP, read only) to 0x58002006 (CTRL);
 *     any other MSR raises #GP. CTRL at reset: ctrl_reset [A], default
 *     GEODE_SB_MODEL_CTRL_RESET = T_NE only: firmware leaves the noise
 *     generator on, because Linux's geode-rng writes no MSR and delivers
 *     data on an ALIX; T_SEL 0 and the divisor 0 are guesses (coreboot
 *     never writes CTRL, OLPC's firmware writes 0x503).
 *   - An operation starts when CTL_A or CTL_B is written with ST: control,
 *     addresses, length, key (WKEY with WK, else the hidden key) and IV are
 *     latched then [A]. It completes after done_polls reads of CTL_A,
 *     CTL_B or AES_INT (each read advances every running operation): then
 *     it DMAs LENGTH bytes (rounded down to blocks) from SOURCE to DEST
 *     (low 4 bits forced to 0) through hw_bus_to_virt, ciphered by lib/crypto/aes,
 *     clears ST and sets its flag. Contexts A and B run independently and
 *     at once [A]: an operation that hangs on one leaves the other usable.
 *   - The TRNG: RANDOM_NUM_STATUS bit 0 becomes 1 after rng_polls reads
 *     while CTRL.T_NE is set (never without noise); reading RANDOM_NUM
 *     takes the word and clears it. Output per T_SEL [A] (nobody published
 *     the modes' statistics, so the model makes the unconditioned ones
 *     plausibly imperfect): raw noise bits are ones with probability
 *     raw_p256/256 (default 154/256 = 0.60) and repeat the previous bit
 *     with probability 1/8 (raw_sticky8): about 5-6 bits of min-entropy
 *     per byte; T_SEL 0 gives them as they are, T_SEL 2 ("whitener") XORs
 *     raw bits in pairs (still biased), T_SEL 1 XORs them with a 32-bit
 *     LFSR, T_SEL 3 XORs the whitened bits with the LFSR. In test mode
 *     (T_TM) the words count up from 0 [A].
 *   - SBI/SBY [A]: with SBY the bytes of each 32-bit data word are
 *     reversed going in and out, with SBI the bits of each byte.
 * Faults and variants, chosen by name (the names the emulated QEMU
 * profiles use, fault=NAME):
 *   dma-timeout      operations never complete
 *   wrong-data       the last byte of every DMA output is flipped
 *   dma-overrun      16 bytes past the destination are written too
 *   ignore-key       the hidden key is used even with WK set
 *   rng-never-valid  RANDOM_NUM_STATUS never says valid
 *   rng-stuck        RANDOM_NUM always reads stuck_value
 *   bar-unassigned   BAR0 reads 0 (no address)
 *   msr-gp           every MSR access raises #GP: a non-Geode CPU behind a
 *                    Geode's CPUID dump and PCI listing (kept for that)
 *   busy-at-start    firmware left an operation running: CTL_A has ST set
 *                    at reset and it never completes
 *   noise-dead       the noise source is dead while STATUS still says
 *                    valid: RANDOM_NUM repeats 4 words
 *   no-vsa           firmware without VSA: no PCI header (00:01.2's ID
 *                    reads all ones), the MSRs and registers still answer
 *   stale-key        each operation uses the previous operation's key
 *   cbc-iv-stale     CBC_IV is not updated after a CBC operation
 *   swap-bits        firmware left SBY set in MSR CTRL at reset
 *   hidden-key-hang  an operation with the hidden key (WK = 0) never completes
 *   poor-noise       raw noise with 4 bits of min-entropy per byte (ones with
 *                    probability 181/256, no stickiness): a variant, not a fault
 *   poor-noise-tsel3 the same, and T_SEL 3 delivers it unprocessed
 *   tsel0-dead       T_SEL 0 (raw noise) never becomes valid; T_SEL 1-3 and
 *                    test mode as usual: a variant (T_SEL 0 is characterised)
 *   tsel1-biased     T_SEL 1 (LFSR only) delivers ones with probability 3/4:
 *                    a variant (T_SEL 1 is characterised)
 *   trng-mode-stuck  writes to CTRL's T_SEL and T_NE do not stick: they keep
 *                    their reset values (noise on, T_SEL 0)
 * Counters record every protocol slip of the driver (a write while busy,
 * a misaligned address, a start without bus mastering, an EEPROM write...)
 * so tests can assert there were none.
 *
 * Freestanding: no allocation, no stdio, only lib/ and kernel/platform/hw.h
 * (hw_bus_to_virt). The glue that installs it in a host program is
 * tests/drivers/geode_sb/geode_sb_host.c; in the emulation image, emu/emulate.c.
 */
#ifndef CQ_TESTS_GEODE_SB_MODEL_H
#define CQ_TESTS_GEODE_SB_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/crypto/aes.h"
#include "lib/host/pci_model.h"

#define GEODE_SB_MODEL_BAR0	0xA0000000u	/* where net5501 comBIOS puts it */
#define GEODE_SB_MODEL_SEC_UNLOCKED 0x00003F3Fu	/* every SEC_STATE field all ones */
#define GEODE_SB_MODEL_NMSR	7		/* 0x58002000 .. 0x58002006 */

#define GEODE_SB_FAULT_DMA_TIMEOUT	(1u << 0)
#define GEODE_SB_FAULT_WRONG_DATA	(1u << 1)
#define GEODE_SB_FAULT_DMA_OVERRUN	(1u << 2)
#define GEODE_SB_FAULT_IGNORE_KEY	(1u << 3)
#define GEODE_SB_FAULT_RNG_NEVER_VALID	(1u << 4)
#define GEODE_SB_FAULT_RNG_STUCK	(1u << 5)
#define GEODE_SB_FAULT_BAR_UNASSIGNED	(1u << 6)
#define GEODE_SB_FAULT_MSR_GP		(1u << 7)
#define GEODE_SB_FAULT_BUSY_AT_START	(1u << 8)
#define GEODE_SB_FAULT_NOISE_DEAD	(1u << 9)
#define GEODE_SB_FAULT_NO_VSA		(1u << 10)
#define GEODE_SB_FAULT_STALE_KEY	(1u << 11)
#define GEODE_SB_FAULT_CBC_IV_STALE	(1u << 12)
#define GEODE_SB_FAULT_SWAP_BITS	(1u << 13)
#define GEODE_SB_FAULT_HKEY_HANG	(1u << 14)
#define GEODE_SB_FAULT_POOR_NOISE	(1u << 15)
#define GEODE_SB_FAULT_POOR_NOISE_TSEL3	(1u << 16)
#define GEODE_SB_FAULT_TSEL0_DEAD	(1u << 17)
#define GEODE_SB_FAULT_TSEL1_BIASED	(1u << 18)
#define GEODE_SB_FAULT_TRNG_MODE_STUCK	(1u << 19)
#define GEODE_SB_NFAULTS		20
#define GEODE_SB_MODEL_CONTEXTS		2	/* DMA contexts A and B */
#define GEODE_SB_MODEL_PCI_CMD		0x0006	/* command register at reset (comBIOS, OLPC) */
#define GEODE_SB_MODEL_CTRL_RESET	0x0400	/* MSR CTRL at reset: T_NE [assumption] */
#define GEODE_SB_MODEL_RAW_P256		154	/* raw noise: P(1) = 154/256 [assumption] */
#define GEODE_SB_MODEL_POOR_P256	181	/* poor-noise: 4 bits of min-entropy per byte */
#define GEODE_SB_OVERRUN_BYTES		16	/* what dma-overrun writes past the end */

struct geode_sb_model_stats {
	unsigned long starts;		/* CTL_A or CTL_B written with ST */
	unsigned long completed;	/* operations that completed */
	unsigned long starts_b, completed_b;	/* ... of them on context B */
	unsigned long polls;		/* CTL_A/AES_INT reads while busy */
	unsigned long bytes;		/* bytes ciphered by DMA */
	unsigned long key_loads;	/* WKEY writes (loads and wipes alike) */
	unsigned long fresh_key_starts;	/* starts with WK whose 4 WKEY words were all written since the last start */
	unsigned long writes_while_busy;	/* a context's CTL/SOURCE/DEST/LENGTH written while it runs,
					 * WKEY (CBC_IV) while an operation with WK (CBC) runs */
	unsigned long unaligned;	/* start with SOURCE_A or DEST_A bits 3:0 set */
	unsigned long bad_len;		/* start with LENGTH_A 0 or not a multiple of 16 */
	unsigned long no_master;	/* start without bus mastering (information: not a slip) */
	unsigned long no_decode;	/* MMIO access with memory decoding off */
	unsigned long bad_size;		/* MMIO access not 32-bit or not aligned */
	unsigned long dma_errors;	/* DMA address 0 or wrapping past 4 GiB */
	unsigned long eeprom_writes;	/* writes to 0x800-0x80C */
	unsigned long ro_writes;	/* writes to RANDOM_NUM(_STATUS) or MSR CAP */
	unsigned long unknown;		/* accesses to offsets or MSRs the block lacks */
	unsigned long rng_words;	/* RANDOM_NUM reads that took a valid word */
	unsigned long rng_early;	/* RANDOM_NUM reads while not valid */
	unsigned long msr_reads, msr_writes, msr_faults;
	uint32_t last_ctl;		/* CTL_A of the last start */
};

/* One context's operation, as latched at its start. */
struct geode_sb_model_op {
	bool busy, hang;		/* running; never to complete (busy-at-start, hidden-key-hang) */
	unsigned polls;
	uint32_t ctl, src, dst, len;
	uint32_t key[4], iv[4];
};

struct geode_sb_model {
	/* Configuration: geode_sb_model_init() sets defaults; change before use,
	 * then geode_sb_model_power_on() (geode_sb_model_add_pci() calls it). */
	uint32_t bar0;			/* MMIO base (GEODE_SB_MODEL_BAR0) */
	uint16_t pci_cmd;		/* command register at reset (GEODE_SB_MODEL_PCI_CMD) */
	uint64_t ctrl_reset;		/* MSR CTRL at reset (GEODE_SB_MODEL_CTRL_RESET) */
	unsigned raw_p256;		/* raw noise: P(bit = 1) * 256 */
	unsigned raw_sticky8;		/* 1: a raw bit repeats the last with probability 1/8 */
	uint64_t ctrl_force_set;	/* test knobs: CTRL bits that read 1 / 0 whatever is */
	uint64_t ctrl_force_clear;	/* written (0 = none; nothing documents either) */
	unsigned done_polls;		/* polls until an operation completes (3) */
	unsigned rng_polls;		/* status reads until a word is valid (2) */
	bool st_sticky;			/* ST stays set after completion: only the AES_INT
					 * flag says done (what the Linux driver waits for) */
	uint32_t faults;		/* GEODE_SB_FAULT_* */
	uint32_t sec_state;		/* EEPROM_SEC_STATE (GEODE_SB_MODEL_SEC_UNLOCKED) */
	uint8_t hidden_key[16];		/* loaded from the EEPROM at reset (all ones) */
	uint64_t rng_seed;
	uint32_t stuck_value;		/* rng-stuck's word (0x5a5a5a5a) */

	/* Registers (readable by tests). */
	uint32_t ctl[2], aes_int;
	uint32_t src[2], dst[2], len[2];
	uint32_t wkey[4], iv[4];
	uint32_t rnd;
	uint64_t msr[GEODE_SB_MODEL_NMSR];	/* [0] CAP .. [6] CTRL */

	/* Internal state. */
	struct geode_sb_model_op op[GEODE_SB_MODEL_CONTEXTS];
	uint32_t prev_key[4];		/* stale-key: the previous operation's key */
	bool have_prev_key;
	uint64_t raw_pool;
	unsigned raw_left, raw_last;
	uint32_t lfsr;
	bool rng_valid;
	unsigned rng_wait;
	uint64_t rng_state;
	uint32_t tm_count;
	unsigned wkey_written;		/* bit i: WKEY i written since the last start */
	struct pci_model_fn *pci_fn;
	struct aes_ctx aes;

	struct geode_sb_model_stats st;
};

/* Defaults: no fault, unlocked EEPROM, factory (all-ones) hidden key, the reset state. */
void geode_sb_model_init(struct geode_sb_model *m);

/*
 * The reset state after the configuration and faults are set: CTRL from
 * ctrl_reset (plus SBY with swap-bits), the raw noise of poor-noise, the
 * running operation of busy-at-start.
 */
void geode_sb_model_power_on(struct geode_sb_model *m);

/* no-vsa: makes 00:01.2 read as absent (ID all ones). A no-op without the fault. */
void geode_sb_model_hide_if_no_vsa(struct geode_sb_model *m);

/* GEODE_SB_FAULT_* of a name ("dma-timeout", ...), 0 if unknown. */
uint32_t geode_sb_model_fault(const char *name);

/* Name of fault bit i (0 .. GEODE_SB_NFAULTS-1). */
const char *geode_sb_model_fault_name(unsigned i);

/*
 * Adds the block to pm at 00:01.2 (BAR0 at m->bar0, or 0 with
 * bar-unassigned; command register m->pci_cmd; interrupt line 10, pin A as
 * on the ALIX). Returns the function, or NULL when pm has no room.
 */
struct pci_model_fn *geode_sb_model_add_pci(struct geode_sb_model *m, struct pci_model *pm);

/*
 * pci_model_init(pm), then a Geode LX machine as the ALIX.2D3 listing
 * shows it: host bridge 1022:2080 at 00:01.0 and the block at 00:01.2.
 * Returns the block's function or NULL.
 */
struct pci_model_fn *geode_sb_model_add_machine(struct geode_sb_model *m, struct pci_model *pm);

/* MMIO handlers for BAR0 (offset from BAR0; bytes 1, 2 or 4; ctx = the model). */
uint32_t geode_sb_model_mmio_read(void *ctx, uint32_t offset, unsigned bytes);
void geode_sb_model_mmio_write(void *ctx, uint32_t offset, uint32_t val, unsigned bytes);

/* MSR handlers: return 0, or HW_EFAULT to raise #GP (ctx = the model). */
int geode_sb_model_msr_read(void *ctx, uint32_t msr, uint64_t *val);
int geode_sb_model_msr_write(void *ctx, uint32_t msr, uint64_t val);

/* The key the next operation would use (WKEY as bytes), for tests. */
void geode_sb_model_wkey_bytes(const struct geode_sb_model *m, uint8_t key[16]);

#endif
