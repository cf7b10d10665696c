/*
 * emu_trap: the PadLock instructions in the emulation build. On QEMU they
 * raise #UD (0F A6 / 0F A7 are no instructions there); exception_dispatch()
 * asks emulate_trap() first, which runs them on the shared instruction
 * model (emu/models/padlock_model.h, as the host tests do from SIGILL)
 * with the trapped registers, and resumes after them.
 *
 * The key reload: the driver forces the unit to load key and control word
 * again by writing EFLAGS (pushfl; popfl at each site padlock_insn.h
 * records in the section padlock_reload_sites, compiled in with
 * -DPADLOCK_EMU_SITES). Paging is off, so the text is writable:
 * emu_patch_reload_sites() turns each pushfl into int3, and the #BP
 * handler here drops the model's key cache and resumes after the popfl.
 * Skipping the pair is exact: pushfl; popfl writes back the EFLAGS it read.
 *
 * An instruction the model refuses (a unit CPUID reports disabled, an
 * unaligned operand, CR0.TS set...) becomes the exception real hardware
 * raises: the reason is printed and the trap frame's vector changed, so
 * the normal path reports it and the test guard catches it.
 */
#include "kernel/platform/emulate.h"

#include <stddef.h>

#include "drivers/padlock/padlock_insn.h"
#include "kernel/platform/console.h"
#include "kernel/run/report.h"
#include "kernel/platform/x86.h"
#include "emu/emu.h"

#define EMU_EFLAGS_IF	(1u << 9)	/* interrupts enabled (Intel SDM vol. 1, 3.4.3) */

#define OP_INT3		0xCC
#define OP_PUSHFL	0x9C
#define OP_POPFL	0x9D
#define VEC_BP		3	/* breakpoint (int3), Intel SDM vol. 3A 6.15 */
#define VEC_UD		6	/* invalid opcode */

extern uint32_t __start_padlock_reload_sites[] __attribute__((weak));
extern uint32_t __stop_padlock_reload_sites[] __attribute__((weak));

int emu_patch_reload_sites(void)
{
	uint32_t *s;
	int n = 0;

	if (!__start_padlock_reload_sites)
		return 0;
	for (s = __start_padlock_reload_sites; s < __stop_padlock_reload_sites; s++) {
		uint8_t *code = (uint8_t *)(uintptr_t)*s;
		if (code[0] == OP_INT3 && code[1] == OP_POPFL) {
			n++;	/* patched already */
			continue;
		}
		if (code[0] != OP_PUSHFL || code[1] != OP_POPFL)
			return -1;
		code[0] = OP_INT3;
		n++;
	}
	return n;
}

static bool is_reload_site(uint32_t addr)
{
	const uint32_t *s;
	for (s = __start_padlock_reload_sites; s && s < __stop_padlock_reload_sites; s++)
		if (*s == addr)
			return true;
	return false;
}

bool emulate_trap(struct trap_frame *tf)
{
	struct padlock_model_regs r;
	enum padlock_model_exc exc;

	if (!emu.padlock_on)
		return false;
	if (tf->vector == VEC_BP && is_reload_site(tf->eip - 1)) {
		padlock_model_reload(&emu.padlock);
		emu.reload_traps++;
		tf->eip += 1;		/* past the popfl: the pair is done */
		return true;
	}
	if (tf->vector != VEC_UD || !padlock_model_is_insn((const uint8_t *)(uintptr_t)tf->eip))
		return false;
	r = (struct padlock_model_regs){ tf->eax, tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi,
					 tf->eip };
	exc = padlock_model_exec(&emu.padlock, &r, x86_read_cr0());
	if (exc != PADLOCK_EXC_NONE) {
		kprintf("# emulate: padlock: %s\n", emu.padlock.fault);
		tf->vector = padlock_model_exc_vector(exc);
		tf->error = 0;
		return false;
	}
	if (r.eip == tf->eip && (tf->eflags & EMU_EFLAGS_IF)) {
		/*
		 * The instruction did not complete (a model fault): it runs
		 * again on return. Wait for the next interrupt first, as the
		 * hardware would keep the CPU busy meanwhile: a trap per
		 * instruction is too slow for the watchdog's tick to arrive
		 * in time, and that tick (IRQ 0, nested here) is what ends a
		 * guarded test that never finishes.
		 */
		x86_sti();
		x86_hlt();
		x86_cli();
	}
	tf->eax = r.eax;
	tf->ebx = r.ebx;
	tf->ecx = r.ecx;
	tf->edx = r.edx;
	tf->esi = r.esi;
	tf->edi = r.edi;
	tf->eip = r.eip;
	return true;
}

/* ---- the disabled unit, seen from the kernel ---- */

static uint8_t probe_buf[3 * 16] __attribute__((aligned(16)));	/* cw, key, data */

static void xcrypt_one_block(void *ctx)
{
	(void)ctx;
	padlock_xcrypt_ecb(probe_buf + 32, probe_buf + 32, probe_buf + 16, probe_buf, NULL, 1);
}

void emu_check_disabled_ace(void)
{
	struct fault_info fi = { 0 };
	unsigned long declined = emu.padlock.st.faults;
	bool completed;

	tap_diag("emulate: running one rep xcrypt-ecb with the ACE %s, as a driver must not",
		 padlock_model_centaur_edx(&emu.padlock) & PADLOCK_EDX_ACE ? "disabled" : "absent");
	completed = guard_run("emulate: xcrypt with the ACE disabled", xcrypt_one_block, NULL, &fi);
	declined = emu.padlock.st.faults - declined;
	emu.padlock.st.faults -= declined;	/* provoked here: not the driver's */
	tap_result(!completed && fi.vector == VEC_UD && declined == 1,
		   "emulate: an xcrypt while CPUID reports the ACE not enabled raises #UD (%s, declined by the model: %s)",
		   completed ? "it completed" : exc_mnemonic(fi.vector), declined == 1 ? "yes" : "no");
}
