/* padlock_int.h: state and functions shared by the driver's files. */
#ifndef CQ_DRIVERS_PADLOCK_INT_H
#define CQ_DRIVERS_PADLOCK_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/platform/cpuid.h"
#include "lib/engine/driver.h"
#include "drivers/padlock/padlock.h"

/* The driver's log (lib/engine/driver.h): the run stage prints it. */
extern struct drv_log padlock_log;

/*
 * Switches that turn the driver's handling of each documented quirk off,
 * so a host test can show that the handling is needed (the emulator in
 * tests/drivers/padlock/ then produces wrong output or a fault). They
 * exist only in the host harness's build of the driver
 * (-DPADLOCK_TEST_QUIRKS, mk/padlock.mk), which defines padlock_quirks;
 * in the kernel and the emulation image PADLOCK_QUIRK() is constant false.
 */
#ifdef PADLOCK_TEST_QUIRKS
struct padlock_quirks {
	bool no_reload;		/* no EFLAGS write when key or control word changes */
	bool no_bounce_unaligned; /* hand unaligned caller buffers to xcrypt (#GP) */
	bool no_page_tail_bounce; /* let the prefetch run past a page end (#PF) */
	bool no_xstore_slack;	/* xstore straight into the caller's buffer */
	bool no_cr0_ts;		/* leave CR0.TS/EM as they are (#NM) */
	bool no_pmm_final_sub;	/* skip the final conditional subtraction of montmul */
	bool no_wipe_iv;	/* leave the IV/counter work buffer as it is after use */
	bool no_wipe_bounce;	/* leave the bounce buffer (data, keystream) after use */
};
extern struct padlock_quirks padlock_quirks;
#define PADLOCK_QUIRK(name) (padlock_quirks.name)
#else
#define PADLOCK_QUIRK(name) false
#endif

#define PADLOCK_NOTE_MAX	240
#define PADLOCK_UNITS		6	/* RNG, ACE, ACE2, PHE, PMM, PHE2 */

/* One attempt to enable a present but disabled unit through its MSR. */
struct padlock_enable {
	const char *unit;		/* "ACE" or "RNG" */
	uint32_t msr, bit;		/* the enable MSR and its bit (a mask) */
	uint64_t before, after;		/* the MSR before the write, and read back after it */
	bool wrote;			/* the wrmsr went through: judged after CPUID is read again */
	bool read_back;			/* ... and the read-back did not fault */
};

/* What the probe found. */
struct padlock_dev {
	bool probed;
	const char *absent;		/* NULL when the Centaur leaf reports units */
	char absent_buf[PADLOCK_NOTE_MAX];
	char vendor[13];
	unsigned family, model, stepping;
	bool zhaoxin;			/* "  Shanghai  " or CentaurHauls family 7 */
	bool shanghai;			/* vendor "  Shanghai  ": MSR 0x1257 enables [LCEN zhaoxin.c] */
	uint32_t edx_at_boot;		/* leaf 0xC0000001 EDX before enabling */
	uint32_t edx;			/* ... after enabling */
	union {
		struct {
			enum padlock_state rng, ace, ace2, phe, pmm, phe2;
		};
		enum padlock_state unit[PADLOCK_UNITS];	/* the same, in this order */
	};
	bool enable_tried;
	char enable_note[2][PADLOCK_NOTE_MAX];	/* ACE, RNG: what enabling did */
	struct padlock_enable enable[2];	/* ACE, RNG: the MSR write, if one was made */
	bool phe_block_mode;		/* Nano and later: EAX = -1, software padding */
	bool rng_has_msr;		/* C3/C7: MSR 0x110B */
	bool rng_msr_ok;		/* it could be read */
	uint64_t rng_msr_boot, rng_msr;	/* as found, and after set-up */
	bool pmm_finding;		/* Zhaoxin: montmul undocumented, its known answer a finding */
	bool pmm_registered;		/* padlock-pmm is in the engine registry */
	unsigned engines;		/* AES + RNG + hash engines registered */
	int register_error;		/* first engine_register_* error, 0 if none */
};
extern struct padlock_dev padlock_dev;


/* padlock_unit.c */
/*
 * Whether a self-test of a unit (state st, named unit: "ACE", "RNG",
 * "PMM") skips: true with the reason in d (cap bytes), the driver's absent
 * reason or "PadLock <unit> absent on this CPU" / "... present but
 * disabled"; false when the unit is enabled.
 */
bool padlock_unit_skip(enum padlock_state st, const char *unit, char *d, size_t cap);

/*
 * Around every PadLock instruction: clears CR0.TS and CR0.EM (unless the
 * no_cr0_ts test switch is set) and returns what to restore.
 */
uint32_t padlock_enter(void);
void padlock_leave(uint32_t saved);

/* padlock_cr0.c in the kernel, the emulator's virtual CR0 in host tests. */
uint32_t padlock_cr0_enter(void);
void padlock_cr0_leave(uint32_t saved);

/* padlock_ace.c */
int padlock_ace_register(void);	/* padlock-ace: ECB CBC CFB128 OFB, CTR from ECB */
void padlock_ace_forget(void);		/* the unit's key is unknown: reload next */
/* Self-tests: the work buffers wiped after use; the hardware CTR probe
 * (ACE2: information about the CPU, never a verdict on the engine). */
enum drv_status padlock_t_ace_wipe(const void *ctx, char *detail, size_t cap);
enum drv_status padlock_t_ctr_probe(const void *ctx, char *detail, size_t cap);

/* padlock_rng.c */
void padlock_rng_setup(void);		/* RNG MSR report and set-up (C3/C7) */
int padlock_rng_register(void);
enum drv_status padlock_t_xstore(const void *ctx, char *detail, size_t cap);

/* padlock_phe.c */
int padlock_phe_register(void);

/* padlock_pmm.c */
/* Registers the Montgomery multiplier "padlock-pmm" (once per probe). Returns 0 or ENGINE_E*. */
int padlock_pmm_register(void);
enum drv_status padlock_t_pmm_kat(const void *ctx, char *detail, size_t cap);

#endif
