/* CPU identity from the CPUID instruction, through the hardware layer. */
#include "kernel/platform/cpu.h"

#include <stddef.h>

#include "kernel/platform/hw.h"
#include "kernel/platform/console.h"

static struct cpu_info g_cpu;

static bool cpuid_from_hw(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	(void)ctx;
	hw_cpuid(leaf, subleaf, out);
	return true;
}

void cpu_init(void)
{
	cpuid_decode(&g_cpu, cpuid_from_hw, NULL);
}

const struct cpu_info *cpu(void)
{
	return &g_cpu;
}

static void emit_kv(void *ctx, const char *key, const char *value)
{
	(void)ctx;
	console_diag("cpu.%s=%s", key, value);
}

void cpu_report(void)
{
	cpuid_kv(&g_cpu, emit_kv, NULL);
}

static void dump_range(uint32_t first, uint32_t last)
{
	uint32_t leaf;
	struct cpuid_regs r;
	if (last < first || last - first > 0x40)
		return;     /* implausible maximum: do not walk garbage */
	for (leaf = first; leaf <= last; leaf++) {
		hw_cpuid(leaf, 0, &r);
		console_diag("CPUID %08X: %08X-%08X-%08X-%08X", leaf, r.eax, r.ebx, r.ecx, r.edx);
	}
}

void cpu_dump_leaves(void)
{
	dump_range(0, g_cpu.max_leaf);
	if (g_cpu.max_ext_leaf >= 0x80000000u)
		dump_range(0x80000000u, g_cpu.max_ext_leaf);
	if (g_cpu.max_centaur_leaf >= 0xC0000000u)
		dump_range(0xC0000000u, g_cpu.max_centaur_leaf);
}
