/*
 * padlock_emu: the emulated VIA CPU of the host tests. See padlock_emu.h.
 * The instruction semantics, CPUID and MSRs are emu/models/padlock_model.c
 * (shared with the kernel's emulation build); this file is the qemu-i386
 * harness around it: SIGILL hands it the instruction with the register
 * context, SIGTRAP the driver's key-reload sites, SIGSEGV the guard page,
 * and emu_guard() turns an emulated exception into a return code.
 */
#define _GNU_SOURCE
#include "tests/drivers/padlock/padlock_emu.h"

#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "lib/host/cpuid_dump.h"
#include "tests/host/hw_host.h"
#include "emu/models/padlock_model.h"

#define EFLAGS_USER	0x40DD5u	/* CF PF AF ZF SF TF DF OF AC: what popfl may change here */
#define DUMP_MAX_BYTES	(256 * 1024)
#define MAX_SITES	256

/* The host API's enums are the model's (padlock_emu.h keeps its names). */
_Static_assert((int)EMU_PROFILES == (int)PADLOCK_CPUS, "profiles match the model's CPUs");
_Static_assert((int)EMU_ZHAOXIN == (int)PADLOCK_CPU_ZHAOXIN, "profiles match the model's CPUs");
_Static_assert((int)EMU_SHANGHAI == (int)PADLOCK_CPU_SHANGHAI, "profiles match the model's CPUs");
_Static_assert((int)EMU_EXC_PF == (int)PADLOCK_EXC_PF, "exceptions match the model's");

/* Sites of pushfl; popfl in the driver (padlock_insn.h, -DPADLOCK_EMU_SITES). */
extern const uint32_t __start_padlock_reload_sites[] __attribute__((weak));
extern const uint32_t __stop_padlock_reload_sites[] __attribute__((weak));

static struct {
	char shared[512];
	struct cpuid_dump dump;
	struct padlock_model m;
	bool selected;
	uint32_t cr0;
	char fault[256];
	unsigned long pf_faults;
	struct emu_stats st;
	uint32_t sites[MAX_SITES];	/* popfl bytes patched to int3: reloads */
	unsigned nsites;
	uint32_t pushf[MAX_SITES];	/* pushfl bytes patched to int3: bit-30 reads */
	unsigned npushf;
	uint32_t cpuid[MAX_SITES];	/* cpuid's 0F patched to int3 (A2 to nop) */
	unsigned ncpuid;
} E;

static sigjmp_buf *guard_jb;

const char *emu_profile_name(enum emu_profile p)
{
	return padlock_model_cpu_name((enum padlock_model_cpu)p);
}

const char *emu_profile_cpu(enum emu_profile p)
{
	return padlock_model_cpu_desc((enum padlock_model_cpu)p);
}

enum emu_profile emu_profile_by_name(const char *s)
{
	return (enum emu_profile)padlock_model_cpu_by_name(s);
}

const char *emu_last_fault(void) { return E.fault; }
uint32_t emu_cr0(void) { return E.cr0; }
void emu_set_cr0(uint32_t v) { E.cr0 = v; }
void emu_flush_key(void) { E.m.key_loaded = false; }
uint32_t emu_centaur_edx(void) { return padlock_model_centaur_edx(&E.m); }
uint32_t emu_eflags30(void) { return padlock_model_eflags30(&E.m); }
uint64_t emu_msr_rng(void) { return E.m.rng_msr; }
uint64_t emu_msr_fcr(void)
{
	uint64_t v;
	if (E.selected && padlock_model_msr_read(&E.m, MSR_ZHAOXIN_FCR57, &v) == 0)
		return v;	/* only the "  Shanghai  " profile has it */
	return E.m.fcr;
}

const struct emu_stats *emu_stats(void)
{
	const struct padlock_model_stats *s = &E.m.st;
	E.st.xcrypt = s->xcrypt;
	E.st.key_loads = s->key_loads;
	E.st.reloads = s->reloads;
	E.st.overread_bytes = s->overread_bytes;
	E.st.xstore = s->xstore;
	E.st.xstore_empty = s->xstore_empty;
	E.st.xsha = s->xsha;
	E.st.montmul = s->montmul;
	E.st.xsha_ecx0 = s->xsha_ecx0;
	E.st.stale_ecb = s->stale_ecb;
	memcpy(E.st.msr_writes, s->msr_writes, sizeof(E.st.msr_writes));
	E.st.faults = s->faults + E.pf_faults;
	return &E.st;
}

/* ---- exceptions ---- */

/* Delivers an exception the model raised: to the guard, or the end of the program. */
static void deliver(int exc) __attribute__((noreturn));
static void deliver(int exc)
{
	snprintf(E.fault, sizeof(E.fault), "%s", E.m.fault);
	if (guard_jb)
		siglongjmp(*guard_jb, exc);
	fprintf(stderr, "padlock-emu: unguarded %s\n", E.fault);
	abort();
}

int emu_guard(void (*fn)(void *ctx), void *ctx)
{
	sigjmp_buf jb, *prev = guard_jb;
	volatile int exc;

	E.fault[0] = '\0';
	exc = sigsetjmp(jb, 1);
	if (exc == 0) {
		guard_jb = &jb;
		fn(ctx);
	}
	guard_jb = prev;
	return exc;
}

static void on_sigsegv(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (guard_jb) {
		snprintf(E.fault, sizeof(E.fault), "#PF: access to %p", si->si_addr);
		E.pf_faults++;
		siglongjmp(*guard_jb, EMU_EXC_PF);
	}
	signal(sig, SIG_DFL);	/* return: the access faults again and ends the program */
}

/* ---- CPUID and MSRs (through hw_host) ---- */

static bool hw_query(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	(void)ctx;
	hw_cpuid(leaf, subleaf, out);
	return true;
}

void emu_cpu_info(struct cpu_info *ci)
{
	cpuid_decode(ci, hw_query, NULL);
}

static int load_dump(const char *file)
{
	static char text[DUMP_MAX_BYTES];
	char path[700];
	unsigned line = 0;
	size_t n;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/data/cpuid/%s", E.shared, file);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "padlock-emu: cannot open %s\n", path);
		return -1;
	}
	n = fread(text, 1, sizeof(text), f);
	fclose(f);
	memset(&E.dump, 0, sizeof(E.dump));
	rc = cpuid_dump_parse(&E.dump, text, n, &line);
	if (rc != 0) {
		fprintf(stderr, "padlock-emu: %s line %u: %s\n", path, line, cpuid_dump_strerror(rc));
		return -1;
	}
	return 0;
}

int emu_select(enum emu_profile p, const struct emu_options *opt)
{
	struct padlock_model_options mo;

	if ((unsigned)p >= EMU_PROFILES)
		return -1;
	if (load_dump(padlock_model_cpu_dump((enum padlock_model_cpu)p)) != 0)
		return -1;
	memset(&mo, 0, sizeof(mo));
	if (opt)
		mo = opt->model;
	padlock_model_init(&E.m, (enum padlock_model_cpu)p, &E.dump, &mo);
	E.selected = true;
	E.cr0 = opt ? opt->cr0 : 0;
	E.fault[0] = '\0';
	E.pf_faults = 0;
	hw_host_reset();
	hw_host_set_cpuid(padlock_model_cpuid, &E.m);
	hw_host_set_msr(padlock_model_msr_read, padlock_model_msr_write, &E.m);
	return 0;
}

/* ---- the handlers ---- */

static void on_sigill(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = uc->uc_mcontext.gregs;
	struct padlock_model_regs r = {
		(uint32_t)g[REG_EAX], (uint32_t)g[REG_EBX], (uint32_t)g[REG_ECX],
		(uint32_t)g[REG_EDX], (uint32_t)g[REG_ESI], (uint32_t)g[REG_EDI],
		(uint32_t)g[REG_EIP],
	};
	enum padlock_model_exc exc;

	(void)sig;
	(void)si;
	exc = padlock_model_exec(&E.m, &r, E.cr0);
	if (exc != PADLOCK_EXC_NONE)
		deliver(exc);
	g[REG_EAX] = (greg_t)r.eax;
	g[REG_EBX] = (greg_t)r.ebx;
	g[REG_ECX] = (greg_t)r.ecx;
	g[REG_EDX] = (greg_t)r.edx;
	g[REG_ESI] = (greg_t)r.esi;
	g[REG_EDI] = (greg_t)r.edi;
	g[REG_EIP] = (greg_t)r.eip;
}

static bool in_list(const uint32_t *list, unsigned n, uint32_t at)
{
	unsigned i;
	for (i = 0; i < n; i++)
		if (list[i] == at)
			return true;
	return false;
}

/*
 * int3 at a patched popfl: perform the popfl, drop the key cache. At a
 * patched pushfl (before btl $30,(%esp)): push EFLAGS with the model's
 * bit 30 (qemu-i386 keeps no bit 30 of its own).
 */
static void on_sigtrap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = uc->uc_mcontext.gregs;
	uint32_t at = (uint32_t)g[REG_EIP] - 1, v, esp = (uint32_t)g[REG_ESP];

	(void)si;
	if (in_list(E.cpuid, E.ncpuid, at)) {
		struct cpuid_regs r;
		/* ECX matters only for leaves with subleaves: else the dump's subleaf 0. */
		if (!padlock_model_cpuid(&E.m, (uint32_t)g[REG_EAX], (uint32_t)g[REG_ECX], &r) &&
		    !padlock_model_cpuid(&E.m, (uint32_t)g[REG_EAX], 0, &r))
			memset(&r, 0, sizeof(r));
		g[REG_EAX] = (greg_t)r.eax;
		g[REG_EBX] = (greg_t)r.ebx;
		g[REG_ECX] = (greg_t)r.ecx;
		g[REG_EDX] = (greg_t)r.edx;
		return;		/* resumes at the nop that was 0xA2 */
	}
	if (in_list(E.pushf, E.npushf, at)) {
		v = ((uint32_t)g[REG_EFL] & ~PADLOCK_MODEL_EFLAGS_KEY) | padlock_model_eflags30(&E.m);
		esp -= 4;
		memcpy((void *)(uintptr_t)esp, &v, 4);
		g[REG_ESP] = (greg_t)esp;
		return;
	}
	if (!in_list(E.sites, E.nsites, at)) {
		fprintf(stderr, "padlock-emu: SIGTRAP at 0x%08x is no patched site\n", at);
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	memcpy(&v, (void *)(uintptr_t)esp, 4);
	g[REG_ESP] = (greg_t)(esp + 4);
	g[REG_EFL] = (greg_t)(((uint32_t)g[REG_EFL] & ~EFLAGS_USER) | (v & EFLAGS_USER));
	padlock_model_reload(&E.m);
}

/* Writes v (int3 unless said) over the byte at code. */
static int patch_byte_to(uint8_t *code, uint8_t v)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t base = (uintptr_t)code & ~(uintptr_t)(page - 1);
	size_t span = (((uintptr_t)code + 1 + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1)) - base;

	if (mprotect((void *)base, span, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
		return -1;
	code[0] = v;
	mprotect((void *)base, span, PROT_READ | PROT_EXEC);
	return 0;
}

static int patch_byte(uint8_t *code)
{
	return patch_byte_to(code, 0xCC);	/* int3 */
}

static int patch_sites(void)
{
	const uint32_t *s;

	E.nsites = 0;
	if (!__start_padlock_reload_sites)
		return 0;
	for (s = __start_padlock_reload_sites; s < __stop_padlock_reload_sites; s++) {
		uint8_t *code = (uint8_t *)(uintptr_t)*s;
		if (E.nsites == MAX_SITES)
			return -1;
		if (code[0] != 0x9C || code[1] != 0x9D) {	/* pushfl; popfl */
			fprintf(stderr, "padlock-emu: reload site %p holds %02x %02x, not pushfl; popfl\n",
				(void *)code, code[0], code[1]);
			return -1;
		}
		if (patch_byte(code + 1) != 0)
			return -1;
		E.sites[E.nsites++] = *s + 1;
	}
	return (int)E.nsites;
}

int emu_patch_site(void *addr, enum emu_site kind)
{
	uint8_t *p = addr;
	uint32_t at = (uint32_t)(uintptr_t)p;

	switch (kind) {
	case EMU_SITE_POPF:
		if (p[0] != 0x9D || E.nsites == MAX_SITES || patch_byte(p) != 0)
			return -1;
		E.sites[E.nsites++] = at;
		return 0;
	case EMU_SITE_PUSHF:
		if (p[0] != 0x9C || E.npushf == MAX_SITES || patch_byte(p) != 0)
			return -1;
		E.pushf[E.npushf++] = at;
		return 0;
	case EMU_SITE_CPUID:
		if (p[0] != 0x0F || p[1] != 0xA2 || E.ncpuid == MAX_SITES ||
		    patch_byte_to(p + 1, 0x90) != 0 || patch_byte(p) != 0)
			return -1;
		E.cpuid[E.ncpuid++] = at;
		return 0;
	}
	return -1;
}

int emu_init(const char *shared)
{
	static uint8_t altstack[128 * 1024];
	struct sigaction sa;
	stack_t ss;

	snprintf(E.shared, sizeof(E.shared), "%s", shared);
	/* The handlers run on their own stack: the pushfl they perform
	 * writes below the interrupted ESP. */
	ss.ss_sp = altstack;
	ss.ss_size = sizeof(altstack);
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL) != 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_sigill;
	if (sigaction(SIGILL, &sa, NULL) != 0)
		return -1;
	sa.sa_sigaction = on_sigtrap;
	if (sigaction(SIGTRAP, &sa, NULL) != 0)
		return -1;
	sa.sa_sigaction = on_sigsegv;
	if (sigaction(SIGSEGV, &sa, NULL) != 0)
		return -1;
	return patch_sites();
}
