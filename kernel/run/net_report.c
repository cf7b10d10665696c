/* net_report: the report on the wire. See net_report.h and docs/network.md. */
#include "kernel/run/net_report.h"

#include <string.h>

#include "kernel/platform/console.h"
#include "kernel/platform/hw.h"
#include "kernel/platform/pci_bus.h"
#include "kernel/platform/rtc.h"
#include "kernel/platform/timer.h"
#include "kernel/run/identity.h"
#include "kernel/run/report.h"
#include "lib/net/dhcp.h"
#include "lib/net/inet.h"
#include "lib/net/netif.h"
#include "lib/net/syslog_msg.h"
#include "lib/net/tftp.h"
#include "lib/util/escape.h"
#include "lib/util/fmt.h"
#include "lib/util/wait.h"

#define NET_LOG_BYTES	(512u * 1024)	/* the log kept for the TFTP upload; a soak can outgrow it */
#define LINK_WAIT_MS	5000u		/* QEMU's e1000 autonegotiates for 500 ms; room for a real PHY's */
#define DHCP_LIMIT_MS	30000u		/* a bound over the client's own retries */
#define ARP_TRIES	3
#define ARP_INTERVAL_MS	1000u
#define RX_PER_PUMP	16		/* frames read per pump: a flood cannot keep the run here */
#define TFTP_TIMEOUT_MS	1000u
#define TFTP_TRIES	8		/* sends of one packet: 1 + 7 retransmissions (10 % loss each way fails a block 1 time in 600000) */
#define TFTP_LIMIT_MS	120000u		/* a bound over a transfer that trickles */
#define TFTP_SPORT_BASE	49152u		/* our TID: a dynamic port (RFC 6335) */

enum tftp_outcome { TFTP_NONE, TFTP_SENDING_LAST, TFTP_GAVE_UP, TFTP_TOO_BIG };

static struct {
	bool wanted, up, holding, busy, warned_send;
	const struct cq_options *opt;
	char log[NET_LOG_BYTES];
	size_t len;			/* bytes kept */
	size_t sent;			/* the first byte not yet sent by syslog (a line start) */
	bool shifted;			/* the log's head was dropped to make room: no upload */
	unsigned long lost;		/* bytes not kept at all */
	struct netdev dev;
	struct net_if nif;
	uint32_t xid;
	uint64_t ms_div;		/* TSC ticks per millisecond */
	uint32_t server;		/* the DHCP server, 0 for a static address */
	uint32_t syslog_ip, tftp_ip;
	uint16_t syslog_port, tftp_port, tftp_sport;
	uint8_t syslog_mac[6], tftp_mac[6];
	bool syslog_on, tftp_on;
	unsigned long seq, sent_lines, send_failed, cut;
	int first_error;
	struct tftp_client tftp;
	bool tftp_started;
	enum tftp_outcome tftp_outcome;
	char file[TFTP_FILE_MAX + 1];
	struct dhcp_client dhcp;
	uint8_t rx[NETDEV_MAX_FRAME];
	char msg[UDP_MAX_PAYLOAD];
} nr;

static const uint8_t eth_broadcast[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };

static uint32_t now_ms(void)
{
	return (uint32_t)(hw_rdtsc() / nr.ms_div);
}

/* ---- Sending the lines ---- */

static void send_line(const char *line, size_t len)
{
	bool cut;
	size_t m = syslog_format(nr.msg, sizeof(nr.msg), identity_box_key(), ++nr.seq, line, len, &cut);
	int rc = netif_udp_send(&nr.nif, nr.syslog_mac, nr.syslog_ip, SYSLOG_PORT, nr.syslog_port, nr.msg, m);

	nr.cut += cut;
	if (rc == 0) {
		nr.sent_lines++;
		return;
	}
	if (nr.send_failed++ == 0)
		nr.first_error = rc;
}

/* Reads at most max frames; the UDP datagrams go to take (NULL: none wanted). */
static void poll_rx(unsigned max, void (*take)(const struct udp_datagram *d))
{
	struct udp_datagram d;
	unsigned i;
	int n;

	for (i = 0; i < max; i++) {
		n = nr.dev.poll(&nr.dev, nr.rx, sizeof(nr.rx));
		if (n <= 0)
			break;
		if (netif_input(&nr.nif, nr.rx, (size_t)n, &d) == 1 && take)
			take(&d);
	}
}

static void take_tftp(const struct udp_datagram *d);

/* Sends every whole line not yet sent (answering ARP on the way); prints one warning at the first failure. */
static void pump(void)
{
	const char *nl;
	bool warn;

	if (!nr.up || nr.holding || nr.busy)
		return;
	nr.busy = true;
	poll_rx(RX_PER_PUMP, nr.tftp_started ? take_tftp : NULL);	/* an upload's ACK is not lost here */
	while (nr.sent < nr.len && (nl = memchr(nr.log + nr.sent, '\n', nr.len - nr.sent)) != NULL) {
		if (nr.syslog_on)
			send_line(nr.log + nr.sent, (size_t)(nl - (nr.log + nr.sent)));
		nr.sent = (size_t)(nl + 1 - nr.log);
	}
	warn = nr.send_failed && !nr.warned_send;
	nr.warned_send |= warn;
	nr.busy = false;
	if (warn)
		tap_diag("warning: net: syslog: sending line %lu failed (error %d: %s); the run goes on, failures are counted in @netreport",
			 nr.seq, nr.first_error, nr.dev.why[0] ? nr.dev.why : "driver error");
}

/* The console's bytes (kernel/platform/console.h console_set_tee): kept, and sent at each line end. */
static void tee(const char *s, size_t n)
{
	size_t room;

	if (nr.len + n > sizeof(nr.log) && !nr.tftp_started && nr.sent > 0) {
		/* Full: the lines syslog has sent make room; the whole log can no longer be uploaded. */
		memmove(nr.log, nr.log + nr.sent, nr.len - nr.sent);
		nr.len -= nr.sent;
		nr.sent = 0;
		nr.shifted = true;
	}
	room = sizeof(nr.log) - nr.len;
	if (n > room) {
		nr.lost += n - room;
		n = room;
	}
	memcpy(nr.log + nr.len, s, n);
	nr.len += n;
	if (n && s[n - 1] == '\n')
		pump();
}

void net_report_hold(bool hold)
{
	nr.holding = hold;
	if (!hold)
		pump();
}

/* ---- The end of the run ---- */

static void take_tftp(const struct udp_datagram *d)
{
	if (d->src_ip == nr.tftp_ip && d->dport == nr.tftp_sport)
		tftp_input(&nr.tftp, d->sport, d->data, d->len, now_ms());
}

/*
 * Runs the upload until it ends, or (until_waiting: before the plan) until
 * every whole block so far is acknowledged. Before the plan a long wait
 * gets its heartbeat lines; after the verdict nothing may be printed.
 */
static void run_tftp(bool until_waiting)
{
	uint32_t t0 = now_ms();
	uint16_t dport;
	size_t n;

	while (nr.tftp.state == TFTP_REQUESTING || nr.tftp.state == TFTP_SENDING) {
		if (until_waiting && nr.tftp.state == TFTP_SENDING && !nr.tftp.in_flight && !nr.tftp.due)
			return;
		if ((uint32_t)(now_ms() - t0) > TFTP_LIMIT_MS) {
			fmt_snprintf(nr.tftp.why, sizeof(nr.tftp.why), "still not done after %u s", TFTP_LIMIT_MS / 1000);
			nr.tftp.state = TFTP_FAILED;
			return;
		}
		if (until_waiting)
			report_tick();
		poll_rx(RX_PER_PUMP, take_tftp);
		n = tftp_output(&nr.tftp, now_ms(), (uint8_t *)nr.msg, sizeof(nr.msg), &dport);
		if (n)
			netif_udp_send(&nr.nif, nr.tftp_mac, nr.tftp_ip, nr.tftp_sport, dport, nr.msg, n);
	}
}

static void hostport(char *out, size_t cap, bool on, uint32_t ip, uint16_t port)
{
	char a[INET_ADDR_TEXT];

	if (on)
		fmt_snprintf(out, cap, "%s:%u", inet_format_ip4(ip, a), (unsigned)port);
	else
		fmt_snprintf(out, cap, "none");
}

static const char *const outcome_name[] = {
	[TFTP_NONE] = "none", [TFTP_SENDING_LAST] = "last-block-after-verdict",
	[TFTP_GAVE_UP] = "failed", [TFTP_TOO_BIG] = "log-too-large",
};

/* Before the plan: the lines so far by syslog, the log's whole blocks by TFTP, and the @netreport record. */
static void finish_before_plan(void)
{
	char sl[24], tf[24];

	if (!nr.wanted)
		return;
	if (!nr.up) {
		tap_diag("@netreport status=no-network syslog=none sent=0 failed=0 cut=0 tftp=none file=none acked=0 tftp_status=none rx=%lu rx_dropped=%lu rx_ignored=%lu",
			 nr.dev.stats.rx_frames, nr.dev.stats.rx_dropped,
			 nr.nif.cnt.rx_other + nr.nif.cnt.rx_malformed + nr.nif.cnt.rx_fragments);
		return;
	}
	pump();
	if (nr.tftp_on && (nr.shifted || nr.lost)) {
		nr.tftp_outcome = TFTP_TOO_BIG;
	} else if (nr.tftp_on) {
		nr.tftp_started = true;
		tftp_start(&nr.tftp, nr.file, (const uint8_t *)nr.log, nr.len, false, nr.tftp_port, TFTP_TIMEOUT_MS,
			   TFTP_TRIES, now_ms());
		run_tftp(true);
		nr.tftp_outcome = nr.tftp.state == TFTP_SENDING ? TFTP_SENDING_LAST : TFTP_GAVE_UP;
		if (nr.tftp_outcome == TFTP_GAVE_UP)
			tap_diag("warning: net: tftp: the upload of %s failed: %s; the report stays on the console", nr.file,
				 nr.tftp.why);
	}
	if (nr.tftp_outcome == TFTP_TOO_BIG)
		tap_diag("warning: net: tftp: the log outgrew its %u KiB buffer (%lu bytes not kept): not uploaded",
			 NET_LOG_BYTES / 1024, nr.lost);
	hostport(sl, sizeof(sl), nr.syslog_on, nr.syslog_ip, nr.syslog_port);
	hostport(tf, sizeof(tf), nr.tftp_on, nr.tftp_ip, nr.tftp_port);
	/* sent/failed count the lines up to this record; the record itself, the plan and the verdict follow. */
	tap_diag("@netreport status=up syslog=%s sent=%lu failed=%lu cut=%lu tftp=%s file=%s acked=%lu tftp_status=%s rx=%lu rx_dropped=%lu rx_ignored=%lu",
		 sl, nr.sent_lines, nr.send_failed, nr.cut, tf, nr.tftp_on ? nr.file : "none",
		 (unsigned long)tftp_acked(&nr.tftp), outcome_name[nr.tftp_outcome], nr.dev.stats.rx_frames,
		 nr.dev.stats.rx_dropped, nr.nif.cnt.rx_other + nr.nif.cnt.rx_malformed + nr.nif.cnt.rx_fragments);
}

/* After the verdict (nothing printed here): the last lines by syslog are out; the upload's last block. */
static void finish_after_verdict(void)
{
	if (!nr.up || nr.busy)
		return;
	pump();
	if (!nr.tftp_on || nr.shifted || nr.lost)
		return;
	if (!nr.tftp_started) {
		/* A bail-out: the run never reached the plan. */
		nr.tftp_started = true;
		tftp_start(&nr.tftp, nr.file, (const uint8_t *)nr.log, nr.len, true, nr.tftp_port, TFTP_TIMEOUT_MS,
			   TFTP_TRIES, now_ms());
	}
	tftp_more(&nr.tftp, nr.len, true);
	run_tftp(false);
}

/* ---- Bringing the network up ---- */

void net_report_begin(const struct cq_options *opt, const char *loader_name)
{
	nr.opt = opt;
	nr.wanted = cmdline_net_wanted(opt, loader_name, NULL);
	if (!nr.wanted)
		return;
	console_set_tee(tee);
	report_set_finish_hooks(finish_before_plan, finish_after_verdict);
}

static bool link_done(void *ctx)
{
	struct netdev *d = ctx;
	return d->link_up(d);
}

static void mac_text(char *out, size_t cap, const uint8_t *m)
{
	fmt_snprintf(out, cap, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

/* Opens the first NIC with a driver and a link (the BOOTIF= one when given); why says what was found. */
static bool open_nic(char *why, size_t cap)
{
	int n, i;
	const struct pci_dev *d = pci_devices(&n);

	fmt_snprintf(why, cap, "no network controller (PCI class 02)");
	for (i = 0; i < n; i++) {
		const struct nic_driver *drv;
		char m[20];

		if (d[i].class_code != 0x02 || d[i].header_type != PCI_HDR_NORMAL)
			continue;
		drv = nic_driver_for(d[i].vendor, d[i].device);
		if (!drv) {
			fmt_snprintf(why, cap, "%02x:%02x.%x %04x:%04x: no driver for this NIC", d[i].bus, d[i].dev, d[i].fn,
				     d[i].vendor, d[i].device);
			continue;
		}
		memset(&nr.dev, 0, sizeof(nr.dev));
		if (drv->open(&d[i], &nr.dev) != 0) {
			fmt_snprintf(why, cap, "%02x:%02x.%x %s: %s", d[i].bus, d[i].dev, d[i].fn, drv->kind, nr.dev.why);
			continue;
		}
		if (nr.opt->has_bootif && memcmp(nr.dev.mac, nr.opt->bootif, 6) != 0) {
			mac_text(m, sizeof(m), nr.dev.mac);
			fmt_snprintf(why, cap, "%s %s: mac %s is not the BOOTIF= NIC", nr.dev.bdf, drv->kind, m);
			continue;
		}
		if (!wait_poll(link_done, &nr.dev, hw_rdtsc, tsc_ticks_for_us(LINK_WAIT_MS * 1000ull), NULL, NULL)) {
			fmt_snprintf(why, cap, "%s %s: no link after %u s", nr.dev.bdf, drv->kind, LINK_WAIT_MS / 1000);
			continue;
		}
		return true;
	}
	return false;
}

static void take_dhcp(const struct udp_datagram *d)
{
	if (d->sport == DHCP_SERVER_PORT && d->dport == DHCP_CLIENT_PORT)
		dhcp_input(&nr.dhcp, d->data, d->len, now_ms());
}

/* Mask of the address's class (RFC 791 3.2) when none was given. */
static uint32_t classful(uint32_t ip)
{
	return ip < 0x80000000u ? 0xFF000000u : ip < 0xC0000000u ? 0xFFFF0000u : 0xFFFFFF00u;
}

static bool dhcp(char *why, size_t cap)
{
	uint32_t t0 = now_ms();
	size_t n;

	dhcp_start(&nr.dhcp, nr.dev.mac, nr.xid, t0);
	while (nr.dhcp.state == DHCP_SELECTING || nr.dhcp.state == DHCP_REQUESTING) {
		if ((uint32_t)(now_ms() - t0) > DHCP_LIMIT_MS) {
			fmt_snprintf(nr.dhcp.why, sizeof(nr.dhcp.why), "not bound after %u s", DHCP_LIMIT_MS / 1000);
			nr.dhcp.state = DHCP_FAILED;
			break;
		}
		report_tick();	/* a heartbeat line when DHCP takes 10 s */
		poll_rx(RX_PER_PUMP, take_dhcp);
		n = dhcp_output(&nr.dhcp, now_ms(), (uint8_t *)nr.msg, sizeof(nr.msg));
		if (n)
			netif_udp_send(&nr.nif, eth_broadcast, INET_BROADCAST, DHCP_CLIENT_PORT, DHCP_SERVER_PORT,
				       nr.msg, n);
	}
	if (nr.dhcp.state != DHCP_BOUND) {
		fmt_snprintf(why, cap, "%s %s: DHCP: %s (%u replies ignored)", nr.dev.bdf, nr.dev.kind, nr.dhcp.why,
			     nr.dhcp.ignored);
		return false;
	}
	return true;
}

/* Resolves the next hop of ip into mac (answering ARP and reading frames meanwhile). */
static bool resolve(uint32_t ip, uint8_t mac[6])
{
	struct net_resolve r;
	int rc;

	netif_resolve_start(&r, &nr.nif, ip, ARP_TRIES, ARP_INTERVAL_MS);
	while ((rc = netif_resolve(&nr.nif, &r, now_ms(), mac)) == 0) {
		report_tick();
		poll_rx(RX_PER_PUMP, NULL);
	}
	return rc == 1;
}

static void target_down(const char *what, uint32_t ip)
{
	char a[INET_ADDR_TEXT];
	tap_diag("warning: net: %s: %s did not answer ARP (%u requests, %u ms apart) or has no route: nothing sent there",
		 what, inet_format_ip4(ip, a), ARP_TRIES, ARP_INTERVAL_MS);
}

static void file_name(void)
{
	struct rtc_time t;
	char why[80];

	if (rtc_read(&t, why, sizeof(why)) == 0)
		fmt_snprintf(nr.file, sizeof(nr.file), "cryptoqual-%s-%04u%02u%02uT%02u%02u%02u.log", identity_box_key(),
			     t.year, t.mon, t.mday, t.hour, t.min, t.sec);
	else
		fmt_snprintf(nr.file, sizeof(nr.file), "cryptoqual-%s-%08x.log", identity_box_key(), (unsigned)nr.xid);
}

/* The one warning of a network that could not be had. */
static void net_down(const char *why)
{
	tap_diag("warning: net: %s; the report stays on the console", why);
}

void net_report_up(void)
{
	const struct cq_options *o = nr.opt;
	char why[200], a[5][INET_ADDR_TEXT], mac[20], sl[24], tf[24], tftp66[2 * DHCP_TEXT_MAX + 1];
	uint32_t next = 0, log_server = 0, ip66;
	bool by_dhcp;

	if (!nr.wanted)
		return;
	if (!tsc_hz()) {
		tap_diag("warning: net: no calibrated clock (TSC) to time the network by; the report stays on the console");
		return;
	}
	nr.ms_div = tsc_hz() / 1000;
	if (!open_nic(why, sizeof(why))) {
		net_down(why);
		return;
	}
	nr.xid = (uint32_t)hw_rdtsc() ^ (uint32_t)nr.dev.mac[2] << 24 ^ (uint32_t)nr.dev.mac[3] << 16 ^
		 (uint32_t)nr.dev.mac[4] << 8 ^ nr.dev.mac[5];
	nr.tftp_sport = (uint16_t)(TFTP_SPORT_BASE + (nr.xid & 0x3FFF));
	netif_init(&nr.nif, &nr.dev);
	by_dhcp = !o->ip || o->net == CQ_NET_DHCP;
	if (by_dhcp) {
		if (!dhcp(why, sizeof(why))) {
			net_down(why);
			return;
		}
		nr.nif.ip = nr.dhcp.lease.ip;
		nr.nif.mask = nr.dhcp.lease.mask;
		nr.nif.gw = nr.dhcp.lease.router;
		nr.server = nr.dhcp.lease.server_id;
		log_server = nr.dhcp.lease.log_server;
		next = nr.dhcp.lease.siaddr;
		if (!next && nr.dhcp.lease.tftp_server[0]) {
			if (inet_parse_ip4(nr.dhcp.lease.tftp_server, strlen(nr.dhcp.lease.tftp_server), &ip66)) {
				next = ip66;
			} else {
				esc_value(tftp66, sizeof(tftp66), nr.dhcp.lease.tftp_server, DHCP_TEXT_MAX + 1, 2 * DHCP_TEXT_MAX);
				tap_diag("net: DHCP option 66 names the TFTP server '%s', not an address: not used (no name service here)",
					 tftp66);
			}
		}
		if (nr.dhcp.bad_options)
			tap_diag("net: DHCP: %u options of a wrong length ignored", nr.dhcp.bad_options);
	} else {
		nr.nif.ip = o->ip;
		nr.nif.mask = o->netmask;
		nr.nif.gw = o->gateway;
	}
	if (!nr.nif.mask || nr.nif.mask == INET_BROADCAST)
		nr.nif.mask = classful(nr.nif.ip);
	if (o->next_server)
		next = o->next_server;
	/* Targets: the options first, then what DHCP said. */
	nr.syslog_ip = o->syslog_ip ? o->syslog_ip : log_server;
	nr.syslog_port = o->syslog_ip && o->syslog_port ? o->syslog_port : SYSLOG_PORT;
	nr.tftp_ip = o->tftp_ip ? o->tftp_ip : next;
	nr.tftp_port = o->tftp_ip && o->tftp_port ? o->tftp_port : TFTP_PORT;
	nr.syslog_on = nr.syslog_ip && resolve(nr.syslog_ip, nr.syslog_mac);
	if (nr.syslog_ip && !nr.syslog_on)
		target_down("syslog", nr.syslog_ip);
	nr.tftp_on = nr.tftp_ip && resolve(nr.tftp_ip, nr.tftp_mac);
	if (nr.tftp_ip && !nr.tftp_on)
		target_down("tftp", nr.tftp_ip);
	file_name();
	mac_text(mac, sizeof(mac), nr.dev.mac);
	hostport(sl, sizeof(sl), nr.syslog_on, nr.syslog_ip, nr.syslog_port);
	hostport(tf, sizeof(tf), nr.tftp_on, nr.tftp_ip, nr.tftp_port);
	tap_diag("@net nic=%s kind=%s mac=%s ip=%s netmask=%s gateway=%s config=%s server=%s syslog=%s tftp=%s file=%s",
		 nr.dev.bdf, nr.dev.kind, mac, inet_format_ip4(nr.nif.ip, a[0]), inet_format_ip4(nr.nif.mask, a[1]),
		 inet_format_ip4(nr.nif.gw, a[2]), by_dhcp ? "dhcp" : "static",
		 nr.server ? inet_format_ip4(nr.server, a[3]) : "none", sl, tf, nr.tftp_on ? nr.file : "none");
	if (!nr.syslog_on && !nr.tftp_on) {
		tap_diag("warning: net: no syslog= or tftp= given and DHCP named no log server (option 7) or next server: nothing to send the report to; it stays on the console");
		return;
	}
	nr.up = true;
	pump();
}
