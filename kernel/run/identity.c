/* identity: which box this report is from. See identity.h. */
#include "kernel/run/identity.h"

#include <stdint.h>

#include "kernel/platform/memmap.h"
#include "kernel/platform/nic.h"
#include "kernel/platform/rtc.h"
#include "kernel/platform/smbios.h"
#include "kernel/run/report.h"
#include "lib/util/boxkey.h"
#include "lib/util/escape.h"
#include "lib/util/fmt.h"

#define VALUE_MAX 96    /* characters of one escaped value */

static struct firmware_id fw;   /* about 1 KB: not on the stack */
static char box_key[BOXKEY_MAX + 1] = "unknown";

const char *identity_box_key(void)
{
	return box_key;
}

/* Appends " key=VALUE" (escaped, "absent" when empty) to line at *o. */
static void kv(char *line, size_t cap, size_t *o, const char *key, const char *raw)
{
	char v[VALUE_MAX + 1];
	esc_value(v, sizeof(v), raw, SMBIOS_STR_MAX, VALUE_MAX);
	if (*o < cap)
		*o += fmt_snprintf(line + *o, cap - *o, " %s=%s", key, v);
}

/*
 * The summary's box line: the key, then the model as SMBIOS names it
 * (system product, else board product, else the BIOS banner of a firmware
 * without SMBIOS), the BIOS version and the image version, escaped as text
 * (one line stays one line; spaces kept for the reader).
 */
static void box_line(const char *version)
{
	char key[VALUE_MAX + 1], model[VALUE_MAX + 1], bios[VALUE_MAX + 1], ver[VALUE_MAX + 1];
	const char *m = fw.f.sys_product[0] ? fw.f.sys_product
		      : fw.f.board_product[0] ? fw.f.board_product : fw.banner_text;

	esc_line(key, sizeof(key), box_key, sizeof(box_key), 40);
	esc_line(model, sizeof(model), m, SMBIOS_STR_MAX, 26);
	esc_line(bios, sizeof(bios), fw.f.bios_version, SMBIOS_STR_MAX, 16);
	esc_line(ver, sizeof(ver), version, 40, 16);
	report_box(key, model, bios, ver);
}

void identity_report(const char *version, const char *image_sha256, const char *emulate,
		     const char *asset, const char *tag)
{
	static char line[1200];
	char why[160], rtc[32], ver[16];
	struct rtc_time t;
	struct nic_info nics[NIC_MAX];
	unsigned n, i;
	uint64_t mem = memmap_total_available();
	size_t o;

	firmware_id_read(&fw);
	if (rtc_read(&t, why, sizeof(why)) == 0) {
		fmt_snprintf(rtc, sizeof(rtc), "%04u-%02u-%02uT%02u:%02u:%02u", t.year, t.mon, t.mday,
			     t.hour, t.min, t.sec);
	} else {
		fmt_snprintf(rtc, sizeof(rtc), "absent");
		tap_diag("identity: CMOS clock: %s", why);
	}
	n = nic_scan(nics, NIC_MAX);

	o = fmt_snprintf(line, sizeof(line), "@identity version=%s image_sha256=%s emulate=%s rtc=%s",
			 version, image_sha256, emulate, rtc);
	if (mem)
		o += fmt_snprintf(line + o, sizeof(line) - o, " mem_kib=%llu",
				  (unsigned long long)(mem / 1024));
	else
		o += fmt_snprintf(line + o, sizeof(line) - o, " mem_kib=absent");
	if (fw.smbios) {
		fmt_snprintf(ver, sizeof(ver), "%u.%u", fw.ep.major, fw.ep.minor);
		o += fmt_snprintf(line + o, sizeof(line) - o, " smbios=%s", ver);
	} else {
		o += fmt_snprintf(line + o, sizeof(line) - o, " smbios=absent");
	}
	kv(line, sizeof(line), &o, "sys_vendor", fw.f.sys_vendor);
	kv(line, sizeof(line), &o, "sys_product", fw.f.sys_product);
	kv(line, sizeof(line), &o, "sys_serial", fw.f.sys_serial);
	kv(line, sizeof(line), &o, "board_vendor", fw.f.board_vendor);
	kv(line, sizeof(line), &o, "board_product", fw.f.board_product);
	kv(line, sizeof(line), &o, "board_serial", fw.f.board_serial);
	kv(line, sizeof(line), &o, "bios_vendor", fw.f.bios_vendor);
	kv(line, sizeof(line), &o, "bios_version", fw.f.bios_version);
	kv(line, sizeof(line), &o, "bios_date", fw.f.bios_date);
	kv(line, sizeof(line), &o, "bios_banner", fw.banner_text);
	if (o < sizeof(line))
		o += fmt_snprintf(line + o, sizeof(line) - o, " nics=%u", n);
	boxkey_make(box_key, sizeof(box_key), asset, fw.f.sys_serial, fw.f.board_serial,
		    n > 0 && nics[0].have_mac ? nics[0].mac : NULL);
	box_line(version);
	kv(line, sizeof(line), &o, "asset", asset);
	kv(line, sizeof(line), &o, "tag", tag);
	kv(line, sizeof(line), &o, "box", box_key);
	if (!fw.smbios)
		tap_diag("identity: SMBIOS absent: %s%s", fw.why_absent,
			 fw.banner ? "; the BIOS banner stands in" : "");
	else if (fw.f.error)
		tap_diag("identity: SMBIOS table walk stopped after %u structures: %s",
			 fw.f.structures, fw.f.error);
	tap_diag("%s", line);
	for (i = 0; i < n && i < NIC_MAX; i++) {
		const struct nic_info *c = &nics[i];
		char mac[24];
		if (c->have_mac)
			fmt_snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", c->mac[0],
				     c->mac[1], c->mac[2], c->mac[3], c->mac[4], c->mac[5]);
		else
			fmt_snprintf(mac, sizeof(mac), "absent");
		tap_diag("@nic pci=%02x:%02x.%x id=%04x:%04x kind=%s mac=%s", c->bus, c->dev, c->fn,
			 c->vendor, c->device, c->kind, mac);
		if (!c->have_mac)
			tap_diag("identity: nic %02x:%02x.%x: no station address: %s", c->bus, c->dev,
				 c->fn, c->why);
	}
	if (n > NIC_MAX)
		tap_diag("identity: %u more network controllers not read", n - NIC_MAX);
}
