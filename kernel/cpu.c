/* CPU identity from the CPUID instruction, through the hardware layer. */
#include "cpu.h"

#include <stddef.h>

#include "hw.h"
#include "report.h"

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
	tap_diag("cpu.%s=%s", key, value);
}

void cpu_report(void)
{
	cpuid_kv(&g_cpu, emit_kv, NULL);
}
