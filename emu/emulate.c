/*
 * emulate: sets up the emulated machine a profile describes (see
 * kernel/platform/emulate.h, emu/emu.h and docs/emulation.md), says in the
 * report what comes from the profile and what from the real machine, and
 * runs the models' own checks at the end.
 */
#include "kernel/platform/emulate.h"

#include <stdarg.h>
#include <string.h>

#include "drivers/geode_sb/geode_sb.h"
#include "drivers/geode_sb/geode_sb_reg.h"
#include "drivers/padlock/padlock.h"
#include "drivers/rhine/rhine_reg.h"
#include "lib/util/fmt.h"
#include "lib/platform/pci_enum.h"
#include "lib/host/pci_listing.h"
#include "kernel/run/report.h"
#include "emu/emu.h"
#include "emu/hw_emu.h"
#include "emu/hw_real.h"

#define QEMU_SUBSYS_VENDOR	0x1AF4	/* QEMU's PCI subsystem vendor (hw/pci/pci.c) */
#define PCI_SUBSYS		0x2C	/* subsystem vendor (15:0), subsystem (31:16), type 0 */
#define GEODE_MSR_LAST		(GEODE_SB_MSR_CAP + 0xFF)	/* the block's GeodeLink MSRs go to the model */
/* The Geode LX host bridge every board has at 00:01.0 (the ALIX.2D3 listing
 * shows it: 1022:2080, class 06.00.00, rev 33); comBIOS's table omits it. */
#define GEODE_HB_DEV		1
#define GEODE_HB_VENDOR		0x1022
#define GEODE_HB_DEVICE		0x2080
#define GEODE_HB_CLASS_REV	0x06000033u

struct emu_state emu;

/* Bus 0 of the real configuration space, before a profile hides it. */
static bool real_pci_is_qemu(void)
{
	unsigned dev;
	uint32_t id, sub;

	for (dev = 0; dev < 32; dev++) {
		hw_real_outl(PCI_CFG_ADDR_PORT, pci_mech1_address(0, dev, 0, PCI_ID));
		id = hw_real_inl(PCI_CFG_DATA_PORT);
		if ((id & 0xFFFF) == 0xFFFF)
			continue;
		hw_real_outl(PCI_CFG_ADDR_PORT, pci_mech1_address(0, dev, 0, PCI_SUBSYS));
		sub = hw_real_inl(PCI_CFG_DATA_PORT);
		if ((sub & 0xFFFF) == QEMU_SUBSYS_VENDOR)
			return true;
	}
	return false;
}

#define E1000_VENDOR		0x8086
#define E1000_DEVICE		0x100E	/* QEMU's -M pc default NIC, -nic model=e1000 */
#define E1000_RAL0		0x5400	/* receive address low (Linux e1000_hw.h E1000_RA) */
#define E1000_RAH0		0x5404
#define  E1000_RAH_AV		0x80000000u	/* address valid */
#define QEMU_DEFAULT_MAC	"\x52\x54\x00\x12\x34\x56"	/* every QEMU NIC without mac= */

/*
 * The station address QEMU's -nic mac= gave the machine's first e1000
 * (RAL0/RAH0 in its memory BAR0), read before a profile hides the QEMU
 * machine's devices. False when there is none, its BAR0 or memory
 * decoding is off, RAH0's address-valid bit is clear, or it is QEMU's
 * default 52:54:00:12:34:56 (the same in every virtual machine).
 */
static bool real_nic_mac(uint8_t mac[6])
{
	unsigned dev, i;
	uint32_t id, bar, cmd, lo, hi;

	for (dev = 0; dev < 32; dev++) {
		hw_real_outl(PCI_CFG_ADDR_PORT, pci_mech1_address(0, dev, 0, PCI_ID));
		id = hw_real_inl(PCI_CFG_DATA_PORT);
		if (id != ((uint32_t)E1000_DEVICE << 16 | E1000_VENDOR))
			continue;
		hw_real_outl(PCI_CFG_ADDR_PORT, pci_mech1_address(0, dev, 0, PCI_BAR0));
		bar = hw_real_inl(PCI_CFG_DATA_PORT);
		hw_real_outl(PCI_CFG_ADDR_PORT, pci_mech1_address(0, dev, 0, PCI_CMD));
		cmd = hw_real_inl(PCI_CFG_DATA_PORT);
		if ((bar & 1) || (bar & ~0xFu) == 0 || !(cmd & PCI_CMD_MEM))
			return false;
		lo = hw_real_mmio_read32((uintptr_t)(bar & ~0xFu) + E1000_RAL0);
		hi = hw_real_mmio_read32((uintptr_t)(bar & ~0xFu) + E1000_RAH0);
		if (!(hi & E1000_RAH_AV))
			return false;
		for (i = 0; i < 4; i++)
			mac[i] = (uint8_t)(lo >> (8 * i));
		mac[4] = (uint8_t)hi;
		mac[5] = (uint8_t)(hi >> 8);
		return memcmp(mac, QEMU_DEFAULT_MAC, 6) != 0;
	}
	return false;
}

/* Records why the profile could not be set up; returns false. */
static bool set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool set_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fmt_vsnprintf(emu.error, sizeof(emu.error), fmt, ap);
	va_end(ap);
	return false;
}

static bool load_cpuid(const struct emu_profile *p)
{
	const struct emu_blob *b = emu_blob_find("cpuid", p->cpuid);
	unsigned line = 0;
	int rc;

	if (!b)
		return set_error("the CPUID dump %s was not embedded at build time", p->cpuid);
	rc = cpuid_dump_parse(&emu.dump, b->data, b->len, &line);
	if (rc != 0)
		return set_error("the CPUID dump %s: %s", p->cpuid, cpuid_dump_strerror(rc));
	return true;
}

static bool load_pci(const struct emu_profile *p)
{
	const struct emu_blob *b = emu_blob_find("pci", p->pci);
	struct pci_listing_result res;

	memset(&res, 0, sizeof(res));
	if (!b)
		return set_error("the PCI listing %s was not embedded at build time", p->pci);
	if (pci_listing_load(&emu.pci, b->data, b->len, &res) != 0)
		return set_error("the PCI listing %s: %s", p->pci, res.msg);
	emu.pci_listed = res.nlisted;
	if (p->add_host_bridge && !pci_model_find(&emu.pci, 0, GEODE_HB_DEV, 0)) {
		if (!pci_model_add(&emu.pci, 0, GEODE_HB_DEV, 0, GEODE_HB_VENDOR, GEODE_HB_DEVICE,
				   GEODE_HB_CLASS_REV, PCI_HDR_NORMAL))
			return set_error("the PCI listing %s: no room for the host bridge", p->pci);
		emu.host_bridge_added = true;
	}
	return true;
}

/*
 * Station addresses behind the listing's network controllers (or the
 * overlaid Rhine), in order: with QEMU's -nic mac=ADDR (qemu_mac, 6 bytes,
 * or NULL), ADDR and the addresses after it (its last three bytes counted
 * up, as a board's consecutive NICs), so that every emulated box booted
 * with its own mac= is its own box; without, the profile's made-up ones.
 * *n: how many.
 */
static const uint8_t (*station_macs(const struct emu_profile *p, const uint8_t *qemu_mac, unsigned *n))[6]
{
	static uint8_t from_qemu[EMU_RHINES][6];
	unsigned i, nmacs;
	const uint8_t (*macs)[6] = emu_profile_macs(p->name, &nmacs);
	uint32_t low;

	*n = nmacs;
	if (!qemu_mac || !nmacs)
		return macs;
	low = (uint32_t)qemu_mac[3] << 16 | (uint32_t)qemu_mac[4] << 8 | qemu_mac[5];
	if (nmacs > EMU_RHINES)
		nmacs = EMU_RHINES;
	for (i = 0; i < nmacs; i++, low++) {
		memcpy(from_qemu[i], qemu_mac, 3);
		from_qemu[i][3] = (uint8_t)(low >> 16);
		from_qemu[i][4] = (uint8_t)(low >> 8);
		from_qemu[i][5] = (uint8_t)low;
	}
	emu.macs_from_qemu = true;
	*n = nmacs;
	return (const uint8_t (*)[6])from_qemu;
}

/* Whether the listing has a VIA Rhine (a model then stands behind each). */
static bool listing_has_rhine(void)
{
	int i;
	for (i = 0; i < emu.pci.nfn; i++) {
		uint32_t id = pci_model_peek32(&emu.pci.fns[i], PCI_ID);
		if ((id & 0xFFFF) == RHINE_VENDOR && pci_model_peek32(&emu.pci.fns[i], PCI_CLASS) >> 24 == 0x02)
			return true;
	}
	return false;
}

/* The Geode LX security block model behind the listed 1022:2082. */
static bool install_geode(const char *fault)
{
	struct geode_sb_model *m = &emu.geode;
	struct pci_model_fn *f = pci_model_find(&emu.pci, 0, 1, 2);

	geode_sb_model_init(m);
	if (fault[0]) {
		m->faults = geode_sb_model_fault(fault);
		if (!m->faults)
			return false;	/* not offered: setup() says so */
	}
	if (!f || pci_model_peek32(f, PCI_ID) != ((uint32_t)GEODE_SB_DEVICE << 16 | GEODE_SB_VENDOR))
		return set_error("the listing has no 1022:2082 at 00:01.2");
	if (m->faults & GEODE_SB_FAULT_BAR_UNASSIGNED)
		pci_model_poke32(f, PCI_BAR0, 0);
	m->pci_fn = f;
	m->bar0 = pci_model_peek32(f, PCI_BAR0) & ~0xFu;
	/* The listing's command register stays as listed; the reset state after the faults. */
	geode_sb_model_power_on(m);
	geode_sb_model_hide_if_no_vsa(m);
	if (emu_hw_add_bar(f, 0, GEODE_SB_BAR_SIZE, geode_sb_model_mmio_read,
			   geode_sb_model_mmio_write, m) != 0 ||
	    emu_hw_add_msrs(GEODE_SB_MSR_CAP, GEODE_MSR_LAST, geode_sb_model_msr_read,
			    geode_sb_model_msr_write, m) != 0)
		return set_error("no room in the hardware layer for the Geode model");
	engine_mark_emulated("geode-");
	emu.geode_on = true;
	return true;
}

/* The PadLock model's faults that can show on this CPU (hash-wrong needs a PHE). */
static uint32_t padlock_faults_offered(void)
{
	uint32_t edx = padlock_model_centaur_edx(&emu.padlock), all = 0;
	unsigned i;

	if (!(edx & (PADLOCK_EDX_ACE | PADLOCK_EDX_RNG)))
		return 0;		/* no PadLock (C3 Samuel 2) */
	for (i = 0; i < PADLOCK_MODEL_NFAULTS; i++)
		all |= 1u << i;
	if (!(edx & PADLOCK_EDX_PHE))
		all &= ~PADLOCK_MODEL_FAULT_HASH_WRONG;
	if (!(edx & PADLOCK_EDX_RNG))
		all &= ~(PADLOCK_MODEL_FAULT_RNG_STUCK | PADLOCK_MODEL_FAULT_XSTORE_DIV0_BIASED);
	/* The hardware CTR probe runs only with ACE2 enabled (the C7; the Nano's is disabled). */
	if (!(edx & PADLOCK_EDX_ACE2_EN))
		all &= ~PADLOCK_MODEL_FAULT_CTR_PROBE_HANG;
	/*
	 * Status bits on the C3 and C7 copy RNG MSR 0x110B and are judged
	 * there: the fault is offered on the Nano and the KX-7000 only.
	 */
	if (emu.prof->padlock == PADLOCK_CPU_NEHEMIAH || emu.prof->padlock == PADLOCK_CPU_ESTHER ||
	    !(edx & PADLOCK_EDX_RNG))
		all &= ~PADLOCK_MODEL_FAULT_XSTORE_STATUS_BITS;
	return all;
}

/* The PadLock model: CPUID, its MSRs, the instructions from #UD. */
static bool install_padlock(const struct emu_profile *p, const char *fault)
{
	struct padlock_model_options o;
	static const uint32_t msrs[] = { MSR_VIA_FCR, MSR_VIA_RNG, MSR_ZHAOXIN_FCR57 };
	enum padlock_model_cpu cpu = (enum padlock_model_cpu)p->padlock;
	unsigned i;
	int n;

	memset(&o, 0, sizeof(o));
	padlock_model_init(&emu.padlock, cpu, &emu.dump, &o);
	if (fault[0]) {
		o.faults = padlock_model_fault(fault) & padlock_faults_offered();
		if (!o.faults)
			return false;	/* not offered: setup() says so */
		padlock_model_init(&emu.padlock, cpu, &emu.dump, &o);
	}
	emu_hw_set_cpuid(padlock_model_cpuid, &emu.padlock);
	for (i = 0; i < sizeof(msrs) / sizeof(msrs[0]); i++)
		if (emu_hw_add_msrs(msrs[i], msrs[i], padlock_model_msr_read,
				    padlock_model_msr_write, &emu.padlock) != 0)
			return set_error("no room in the hardware layer for the PadLock MSRs");
	n = emu_patch_reload_sites();
	if (n < 0)
		return set_error("a PadLock key-reload site is not pushfl; popfl");
	emu.reload_sites = (unsigned)n;
	engine_mark_emulated("padlock-");
	emu.padlock_on = true;
	return true;
}

/* Lists the faults of the profile's models into buf. */
static void fault_list(const struct emu_profile *p, char *buf, size_t n)
{
	size_t k = 0;
	unsigned i;

	buf[0] = '\0';
	if (p->geode)
		for (i = 0; i < GEODE_SB_NFAULTS; i++)
			k += fmt_snprintf(buf + k, n - k, "%s%s", k ? " " : "", geode_sb_model_fault_name(i));
	if (p->padlock != EMU_NO_PADLOCK)
		for (i = 0; i < PADLOCK_MODEL_NFAULTS; i++)
			if (padlock_faults_offered() & (1u << i))
				k += fmt_snprintf(buf + k, n - k, "%s%s", k ? " " : "",
						  padlock_model_fault_name(i));
	if (emu.nrhine)
		for (i = 0; i < RHINE_NFAULTS; i++)
			k += fmt_snprintf(buf + k, n - k, "%s%s", k ? " " : "", rhine_model_fault_name(i));
	if (!k)
		fmt_snprintf(buf, n, "none");
}

static void setup(const struct emu_profile *p, const char *fault)
{
	char list[400];
	bool fault_ok = true, rhines;
	uint32_t nic_fault = 0;
	const char *why = NULL;
	uint8_t qemu_mac[6];
	const uint8_t (*macs)[6];
	unsigned nmacs;

	if (!load_cpuid(p))
		return;
	emu_hw_set_cpuid(cpuid_dump_query, &emu.dump);
	/* read before the profile hides the QEMU machine's devices */
	macs = station_macs(p, real_nic_mac(qemu_mac) ? qemu_mac : NULL, &nmacs);
	if (p->pci && !load_pci(p))
		return;
	rhines = p->pci ? listing_has_rhine() : p->rhine_dev != 0;
	if (rhines && fault[0])
		nic_fault = rhine_model_fault(fault);
	emu.nic_fault = nic_fault;
	if (p->pci) {
		emu_hw_set_pci(&emu.pci);
		why = emu_nic_install_listed(macs, nmacs, nic_fault);
	} else if (rhines) {
		why = emu_nic_install_overlay(p, macs, nmacs, nic_fault);
	}
	if (why)
		set_error("%s", why);	/* the crypto models are still set up */
	if (nic_fault)
		fault = "";	/* the NIC's fault: the crypto models run without one */
	if (p->geode)
		fault_ok = install_geode(fault);
	else if (p->padlock != EMU_NO_PADLOCK)
		fault_ok = install_padlock(p, fault);
	else
		fault_ok = fault[0] == '\0';
	if (emu.error[0] || fault_ok)
		return;
	fault_list(p, list, sizeof(list));
	set_error("fault %s is not one of the faults of profile %s (%s)", fault, p->name, list);
	/* The profile runs without it: the `not ok` makes the run a FAIL. */
	emu.fault = "";
	if (p->geode && !emu.geode_on)
		install_geode("");
	if (p->padlock != EMU_NO_PADLOCK && !emu.padlock_on)
		install_padlock(p, "");
}

#define FROM_PASS	"-from-pass-"

/*
 * FAULT-from-pass-N: the fault's name into base (cap bytes) and N, or 0
 * when the name has no such ending (N from 1 to 9999).
 */
static unsigned split_from_pass(const char *fault, char *base, size_t cap)
{
	size_t len = strlen(fault), k = sizeof(FROM_PASS) - 1, d = 0;
	unsigned n = 0;

	while (d < len && fault[len - 1 - d] >= '0' && fault[len - 1 - d] <= '9')
		d++;
	fmt_snprintf(base, cap, "%s", fault);
	if (d == 0 || d > 4 || len < d + k + 1 || memcmp(fault + len - d - k, FROM_PASS, k) != 0)
		return 0;
	for (size_t i = len - d; i < len; i++)
		n = n * 10 + (unsigned)(fault[i] - '0');
	if (n == 0)
		return 0;
	base[len - d - k < cap ? len - d - k : cap - 1] = '\0';
	return n;
}

void emulate_init(const char *profile, const char *fault)
{
	static char base[40];
	const struct emu_profile *p;

	memset(&emu, 0, sizeof(emu));
	emu.on_qemu = real_pci_is_qemu();
	emu.fault = fault;
	if (!profile[0])
		return;
	emu_nic_find_wire();
	p = emu_profile_find(profile);
	if (!p) {
		fmt_snprintf(emu.error, sizeof(emu.error), "no profile %s (profiles: %s)", profile,
			     emu_profile_list());
		return;
	}
	emu.prof = p;
	emu.fault_from_pass = split_from_pass(fault, base, sizeof(base));
	setup(p, base);
	if (emu.fault_from_pass && emu.fault[0]) {
		/* The models run clean until soak pass N (emulate_soak_pass). */
		emu.geode_pending = emu.geode.faults;
		emu.geode.faults = 0;
		emu.padlock_pending = emu.padlock.opt.faults;
		emu.padlock.opt.faults = 0;
	}
}

void emulate_soak_pass(unsigned pass)
{
	if (!emu.fault_from_pass || pass != emu.fault_from_pass)
		return;
	emu.geode.faults |= emu.geode_pending;
	emu.padlock.opt.faults |= emu.padlock_pending;
	tap_diag("warning: emulate: fault %s injected into the model from soak pass %u on", emu.fault, pass);
}

bool emulate_on_qemu(void)
{
	return emu.on_qemu;
}

/* ---- the report ---- */

static void report_pci(const struct emu_profile *p)
{
	if (!p->pci && emu.overlay_on && emu.wire_drv) {
		tap_diag("emulate: pci: the QEMU machine's own devices (there is no listing of a %s board), plus its VIA Rhine at 00:%02x.0; the QEMU NIC at %02x:%02x.%x is hidden (it is the Rhine's cable)",
			 p->name, p->rhine_dev, emu.wire_dev.bus, emu.wire_dev.dev, emu.wire_dev.fn);
		return;
	}
	if (p->pci)
		tap_diag("emulate: pci: configuration space from the listing %s (%d functions)%s; the QEMU machine's own devices are hidden",
			 p->pci, emu.pci_listed,
			 emu.host_bridge_added ? ", plus the Geode LX host bridge 1022:2080 at 00:01.0, which the listing omits" : "");
	else if (emu.overlay_on)
		tap_diag("emulate: pci: the QEMU machine's own devices (there is no listing of a %s board), plus its VIA Rhine at 00:%02x.0",
			 p->name, p->rhine_dev);
	else {
		tap_diag("emulate: pci: the QEMU machine's own devices (there is no listing of a %s board)",
			 p->name);
		return;
	}
	if (emu.macs_from_qemu)
		tap_diag("emulate: nic: the emulated NICs take QEMU's -nic mac= and the addresses after it");
	else
		tap_diag("emulate: nic: the emulated NICs take the profile's made-up addresses (QEMU -nic model=e1000,mac=ADDR gives the box its own)");
}

/*
 * Why the injected fault is a variant the run should PASS (a behaviour no
 * verdict may depend on: docs/emulation.md, "Faults"), or NULL for a fault
 * the run must FAIL on.
 */
static const char *variant_why(void)
{
	uint32_t g = emu.geode_on ? emu.geode.faults : 0;
	uint32_t p = emu.padlock_on ? emu.padlock.opt.faults : 0;

	if (g & GEODE_SB_FAULT_POOR_NOISE)
		return "poor raw noise is characterised, not judged; T_SEL 3 stays conditioned";
	if (g & GEODE_SB_FAULT_HKEY_HANG)
		return "the hidden-key probe on context B is a finding, not a verdict; context A goes on";
	if (g & GEODE_SB_FAULT_TSEL0_DEAD)
		return "T_SEL 0 (raw noise) is characterised, its wait information; T_SEL 1-3 stay healthy";
	if (g & GEODE_SB_FAULT_TSEL1_BIASED)
		return "T_SEL 1 (LFSR only) is characterised, not judged; T_SEL 3 stays conditioned";
	if (p & PADLOCK_MODEL_FAULT_XSTORE_DIV0_BIASED)
		return "xstore divisor 0 is characterised, not judged; divisor 3 (Linux via-rng's) stays healthy";
	if (p & PADLOCK_MODEL_FAULT_CTR_PROBE_HANG)
		return "the hardware CTR probe is a finding, its hang too; padlock-ace builds CTR from ECB";
	if (p & PADLOCK_MODEL_FAULT_XSTORE_STATUS_BITS)
		return "the status bits of a part without RNG MSR are reported, not judged; the data is good";
	return NULL;
}

static void report_models(void)
{
	if (emu.geode_on)
		tap_diag("emulate: model: Geode LX security block (emu/models/geode_sb_model.c) behind 00:01.2 BAR0 (0x%08x as listed), GeodeLink MSRs 0x%08x-0x%08x; its DMA reads and writes real memory",
			 emu.geode.bar0, GEODE_SB_MSR_CAP, GEODE_MSR_LAST);
	if (emu.padlock_on && emu.prof->padlock == PADLOCK_CPU_SAMUEL2)
		tap_diag("emulate: model: %s (emu/models/padlock_model.c): no PadLock unit; MSRs 0x1107 0x110B 0x1257 raise #GP, PadLock opcodes stay #UD",
			 padlock_model_cpu_desc(PADLOCK_CPU_SAMUEL2));
	else if (emu.padlock_on)
		tap_diag("emulate: model: %s PadLock (emu/models/padlock_model.c): CPUID leaf 0xC0000001 enable bits, the MSRs of this CPU among 0x1107 0x110B 0x1257, xstore/xcrypt/xsha/montmul from the #UD trap; key-reload sites patched to int3: %u",
			 padlock_model_cpu_desc((enum padlock_model_cpu)emu.prof->padlock),
			 emu.reload_sites);
	emu_nic_report();
	if (emu.fault[0] && emu.nic_fault && emu_nic_fault_is_variant(emu.nic_fault))
		tap_diag("warning: emulate: fault %s injected into the Rhine model: a variant the driver works through, the run should PASS",
			 emu.fault);
	else if (emu.fault[0] && emu.nic_fault)
		tap_diag("warning: emulate: fault %s injected into the Rhine model: what became of the network report says so; the network never changes the verdict",
			 emu.fault);
	else if (emu.fault[0] && variant_why())
		tap_diag("warning: emulate: fault %s injected into the model: a variant the run should PASS (%s)",
			 emu.fault, variant_why());
	else if (emu.fault[0])
		tap_diag("warning: emulate: fault %s injected into the model: the tests that use it are meant to fail",
			 emu.fault);
}

/* The real CPU under the emulation, from its own CPUID. */
static void report_real(void)
{
	struct cpuid_regs r;
	char vendor[13];
	unsigned sig;

	hw_real_cpuid(CPUID_LEAF_VENDOR, 0, &r);
	memcpy(vendor, &r.ebx, 4);
	memcpy(vendor + 4, &r.edx, 4);
	memcpy(vendor + 8, &r.ecx, 4);
	vendor[12] = '\0';
	hw_real_cpuid(CPUID_LEAF_FEATURES, 0, &r);
	sig = r.eax;
	tap_diag("emulate: real: the QEMU machine's memory, TSC, PIT, ACPI PM timer, serial port, other I/O ports and MSRs; its CPU (%s signature 0x%08x) runs every instruction but PadLock's",
		 vendor, sig);
	tap_diag("emulate: real: QEMU recognised by its own PCI space, read before the profile hid it (so the exit device is used): %s",
		 emu.on_qemu ? "yes" : "no");
}

void emulate_report(void)
{
	const struct emu_profile *p = emu.prof;

	if (!p && !emu.error[0]) {
		tap_diag("emulate: none (emulation build without emulate=: the real machine only)");
		return;
	}
	if (p) {
		tap_diag("emulate: profile %s: %s, fault %s", p->name, p->machine,
			 emu.fault[0] ? emu.fault : "none");
		tap_diag("emulate: cpuid: every leaf from the dump %s (%u records; a leaf it lacks reads 0), never the QEMU CPU's",
			 p->cpuid, emu.dump.n);
		report_pci(p);
		report_models();
		if (p->note)
			tap_diag("emulate: note: %s", p->note);
		report_real();
		if (emu.geode_on || emu.padlock_on)
			tap_diag("emulate: engines backed by a model are marked emulated, and so are their benchmark rows");
	}
	if (emu.error[0])
		tap_result(false, "emulate: profile %s set up: %s", p ? p->name : "?", emu.error);
	else if (p->pci)
		tap_result(true, "emulate: profile %s set up from its CPUID dump and PCI listing", p->name);
	else
		tap_result(true, "emulate: profile %s set up from its CPUID dump", p->name);
}

/* ---- the models' own checks ---- */

static void finish_geode(void)
{
	const struct geode_sb_model_stats *s = &emu.geode.st;

	tap_diag("emulate: geode-sb model: %lu operations started (%lu on context B), %lu completed, %lu bytes, %lu TRNG words, %lu MSR accesses, %lu starts without bus mastering (information)",
		 s->starts, s->starts_b, s->completed, s->bytes, s->rng_words,
		 s->msr_reads + s->msr_writes, s->no_master);
	tap_result(s->writes_while_busy == 0 && s->unaligned == 0 && s->bad_len == 0 &&
		   s->no_decode == 0 && s->bad_size == 0 &&
		   s->dma_errors == 0 && s->eeprom_writes == 0 && s->ro_writes == 0 &&
		   s->unknown == 0 && s->rng_early == 0,
		   "emulate: no protocol slip on the Geode model (busy writes %lu, unaligned %lu, bad length %lu, no decode %lu, size %lu, DMA errors %lu, EEPROM writes %lu, RO writes %lu, unknown %lu, early RNG reads %lu)",
		   s->writes_while_busy, s->unaligned, s->bad_len, s->no_decode,
		   s->bad_size, s->dma_errors, s->eeprom_writes, s->ro_writes, s->unknown,
		   s->rng_early);
}

static void finish_padlock(void)
{
	const struct padlock_model_stats *s = &emu.padlock.st;

	tap_diag("emulate: padlock model: %lu xcrypt, %lu key loads, %lu reloads, %lu xstore (%lu empty), %lu xsha, %lu montmul, %lu bytes prefetched past inputs",
		 s->xcrypt, s->key_loads, s->reloads, s->xstore, s->xstore_empty, s->xsha,
		 s->montmul, s->overread_bytes);
	tap_result(s->faults == 0 && s->key_loads <= s->reloads + 1 && s->stale_ecb == 0 &&
		   s->xsha_ecx0 == 0,
		   "emulate: PadLock driver reloaded the key before each key change (%lu loads, %lu reloads), ran no ECB on a key cached by CFB/OFB (%lu), issued no one-shot xsha with ECX = 0 (%lu) and raised no exception (%lu)",
		   s->key_loads, s->reloads, s->stale_ecb, s->xsha_ecx0, s->faults);
}

void emulate_finish(void)
{
	const struct emu_hw_stats *h = emu_hw_stats();

	if (!emu.prof)
		return;
	tap_diag("emulate: accesses served by the profile: cpuid %lu, pci config %lu, mmio %lu, io %lu, msr %lu (%lu refused)",
		 h->cpuid, h->pci_cfg, h->mmio, h->io, h->msr, h->msr_faults);
	if (emu.geode_on)
		finish_geode();
	emu_nic_finish();
	if (emu.padlock_on && emu.padlock.st.xcrypt + emu.padlock.st.xstore + emu.padlock.st.xsha +
			      emu.padlock.st.montmul + emu.padlock.st.faults > 0)
		finish_padlock();
	if (emu.padlock_on && !(padlock_model_centaur_edx(&emu.padlock) & PADLOCK_EDX_ACE_EN))
		emu_check_disabled_ace();
}

bool emulate_hides_firmware(void)
{
	return emu.prof != NULL;
}

const char *emulate_profile(void)
{
	return emu.prof ? emu.prof->name : "none";
}

const char *emulate_fault(void)
{
	return emu.prof && emu.fault ? emu.fault : "";
}
