/*
 * cmdline: parser for the kernel command line handed over by a multiboot
 * loader (Multiboot Specification 0.6.96, section 3.3: the "cmdline" field
 * of the boot information, valid when flags bit 2 is set, is a NUL-terminated
 * C string).
 *
 * What loaders put in that string differs:
 *   GRUB 2  multiboot /boot/cq.elf a=b   ->  "a=b"             (arguments only)
 *   QEMU    -kernel cq.elf -append "a=b" ->  "cq.elf a=b"      (image path first)
 *   iPXE    kernel http://h/cq.elf a=b   ->  "http://h/cq.elf a=b" (URL first)
 * so a leading path or URL is recognised, skipped and kept in loader_image.
 *
 * Syntax: tokens separated by blanks (space, tab, CR, LF, VT, FF); each token
 * is NAME=VALUE or a bare flag NAME. Quotes and backslashes are not special.
 * The last valid occurrence of an option wins. Unknown or malformed options
 * are reported through the warning callback and otherwise ignored. The options
 * themselves are documented in docs/cmdline.md.
 */
#ifndef CQ_LIB_CMDLINE_H
#define CQ_LIB_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CMDLINE_MAX		1024	/* bytes of the line parsed; the rest is dropped */
#define CMDLINE_WARN_MAX	160	/* size of a warning line, NUL included */
#define CMDLINE_DESCRIBE_MAX	752	/* buffer size that always fits cmdline_describe() */

#define CQ_EMULATE_MAX		15	/* emulate= profile name, characters */
#define CQ_FAULT_MAX		31	/* ,fault= name, characters */
#define CQ_ONLY_MAX		63	/* only= pattern, characters */
#define CQ_LOADER_IMAGE_MAX	63	/* loader_image, characters kept */
#define CQ_EXPECT_MAX		95	/* expect= list, characters */
#define CQ_ASSET_MAX		63	/* asset= and tag=, characters */

enum cq_on_finish {
	CQ_FINISH_HALT,		/* default */
	CQ_FINISH_REBOOT,
};

enum cq_bench {
	CQ_BENCH_QUICK,		/* default */
	CQ_BENCH_FULL,
	CQ_BENCH_OFF,
};

/* net=: whether the report goes out over the network (docs/network.md). */
enum cq_net {
	CQ_NET_AUTO,		/* default: on when the boot was a network boot (cmdline_net_wanted()) */
	CQ_NET_OFF,
	CQ_NET_DHCP,		/* on, and DHCP even when ip= gave an address */
};

/* selftest=: provoke a real failure so the boot tests see the failure paths. */
enum cq_selftest {
	CQ_SELFTEST_NONE,		/* default */
	CQ_SELFTEST_FAULT_IN_TEST,	/* a counted test executes UD2: not ok, run goes on */
	CQ_SELFTEST_FAULT_OUTSIDE,	/* UD2 outside any test: Bail out! */
	CQ_SELFTEST_VECTORS,		/* raise every exception vector QEMU can raise, each caught */
	CQ_SELFTEST_HANG,		/* a test that spins forever: the watchdog ends it */
	CQ_SELFTEST_STACK_SMASH,	/* tests that point ESP outside the stack, then fault or spin */
	CQ_SELFTEST_DOUBLE_FAULT_OUTSIDE, /* a #DF outside any test: reported, Bail out! */
};

struct cq_options {
	int console_port;		/* ttyS<N>, 0..3; -1 = unset (use the default UART) */
	uint32_t console_baud;		/* bits/s; 0 = unset (keep firmware speed or 115200) */
	enum cq_on_finish on_finish;
	enum cq_bench bench;
	uint32_t bench_ms;		/* ms per benchmark, 1..60000; 0 = built-in default */
	uint32_t rng_bytes;		/* bytes per RNG source, 2500..16 MiB; 0 = built-in default */
	uint32_t seed;			/* cross-check PRNG seed, valid when has_seed */
	bool has_seed;
	char emulate[CQ_EMULATE_MAX + 1];	/* profile name, "" = real hardware */
	char fault[CQ_FAULT_MAX + 1];		/* fault name, "" = none */
	char only[CQ_ONLY_MAX + 1];		/* test-name substring filter, "" = all */
	bool verbose;
	enum cq_selftest selftest;
	uint32_t passes;		/* soak: repeat the checks this many times, 1..10000; 0 = no soak */
	uint32_t duration_min;		/* soak: repeat for this many minutes, 1..10080; 0 = unset */
	char expect[CQ_EXPECT_MAX + 1];	/* "NAME,NAME" engines the box must have, "none", "" = unset */
	char asset[CQ_ASSET_MAX + 1];	/* the box's asset number (its key in every view), "" = unset */
	char tag[CQ_ASSET_MAX + 1];	/* free text carried into @identity, "" = unset */
	enum cq_net net;
	/* IPv4 addresses in host order, 0 = unset; ports 0 = the default. */
	uint32_t syslog_ip;		/* syslog=HOST[:PORT] */
	uint16_t syslog_port;
	uint32_t tftp_ip;		/* tftp=HOST[:PORT] */
	uint16_t tftp_port;
	uint32_t ip;			/* ip= (PXELINUX IPAPPEND 1 or iPXE ${ip}) */
	uint32_t netmask;		/* netmask=, or ip='s fourth field */
	uint32_t gateway;		/* gateway=, or ip='s third field */
	uint32_t next_server;		/* next-server=, or ip='s second field */
	bool has_bootif;		/* BOOTIF= (PXELINUX IPAPPEND 2) */
	uint8_t bootif[6];		/* the MAC of the NIC the loader booted from */
	char loader_image[CQ_LOADER_IMAGE_MAX + 1];	/* skipped path/URL, "" = none;
							   non-printable bytes become '?',
							   a cut one ends in "..." */
	unsigned warnings;		/* warnings issued by the last cmdline_parse() */
};

/*
 * Receives one warning: a complete line of printable ASCII, without newline,
 * shorter than CMDLINE_WARN_MAX, starting with "cmdline: ". Bytes of the
 * command line that are not printable (and '\') appear as \xNN.
 */
typedef void (*cmdline_warn_fn)(void *ctx, const char *msg);

/* Sets every option to its default (see struct cq_options). */
void cmdline_defaults(struct cq_options *opt);

/*
 * Sets *opt to the defaults, then applies the options in line, a
 * NUL-terminated string or NULL (no command line). Only the first CMDLINE_MAX
 * bytes are parsed, cut back to the last blank before that limit. warn may be
 * NULL. Returns the number of warnings issued (also in opt->warnings).
 */
int cmdline_parse(const char *line, struct cq_options *opt,
		  cmdline_warn_fn warn, void *ctx);

/*
 * Writes a one-line summary of the options in force into buf (size n bytes,
 * always NUL-terminated when n > 0; CMDLINE_DESCRIBE_MAX always suffices), e.g.
 * "console=ttyS0,115200 bench=quick bench_ms=default rng_bytes=default
 * seed=default on_finish=halt". emulate=, only=, verbose, selftest=, passes=,
 * duration=, expect=, asset= and tag= appear when set (asset and tag as
 * given: printable ASCII without blanks, which the parser alone accepts),
 * and so do net=, syslog=, tftp=, ip=, netmask=, gateway=, next-server=
 * and BOOTIF=.
 */
void cmdline_describe(const struct cq_options *opt, char *buf, size_t n);

/*
 * Whether the report goes out over the network: net=dhcp yes, net=off no;
 * net=auto (the default) yes when the boot was a network boot: the
 * loader passed ip= or BOOTIF=, or named itself iPXE or PXELINUX
 * (loader_name: the multiboot boot_loader_name, NULL or "" when none).
 * *why (NULL: not wanted) gets the reason, a constant string such as
 * "net=auto: the loader passed ip=".
 */
bool cmdline_net_wanted(const struct cq_options *opt, const char *loader_name, const char **why);

#endif
