/*
 * netdev: the one small interface between the network stack (lib/net/) and
 * a NIC driver (one folder per NIC under drivers/), as lib/engine/driver.h is
 * for the crypto engines. A NIC driver sends one Ethernet frame, polls for
 * one received frame, and tells its station address and link state;
 * everything above Ethernet is the stack's. Every NIC is polled: no
 * interrupt is ever unmasked for it, and every wait inside a driver is
 * bounded.
 */
#ifndef CQ_LIB_NET_NETDEV_H
#define CQ_LIB_NET_NETDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pci_dev;

#define NETDEV_MIN_FRAME	60	/* without the FCS: shorter frames are padded (IEEE 802.3 minimum 64 with FCS) */
#define NETDEV_MAX_FRAME	1514	/* without the FCS: 14-byte header + 1500-byte payload */

/* Errors a driver returns (negative). */
enum {
	NETDEV_EINVAL = -1,	/* bad length or argument */
	NETDEV_EBUSY = -2,	/* no free transmit descriptor within the driver's bounded wait */
	NETDEV_ETIMEOUT = -3,	/* the device did not answer within a bounded wait */
	NETDEV_EHW = -4,	/* the device reported an error (see why) */
};

/* Counters a driver keeps (the network stage prints them). */
struct netdev_stats {
	unsigned long tx_frames, tx_errors;
	unsigned long rx_frames, rx_dropped;	/* dropped: ring overflow, bad length or an error status */
};

struct netdev {
	const char *kind;		/* "e1000", "via-rhine" */
	char bdf[8];			/* "BB:DD.F" */
	uint8_t mac[6];			/* station address */
	struct netdev_stats stats;
	char why[160];			/* the last error's detail (register state), "" when none */
	void *priv;			/* the driver's own state */

	/*
	 * Sends one frame of len bytes (14..NETDEV_MAX_FRAME, destination,
	 * source and EtherType included, no FCS: the NIC appends it). A frame
	 * shorter than NETDEV_MIN_FRAME is padded with zeros by the driver.
	 * Returns 0 once the NIC owns the frame, or a NETDEV_E* error.
	 */
	int (*send)(struct netdev *d, const void *frame, size_t len);
	/*
	 * Polls for one received frame: copies it (without its FCS) into buf
	 * (cap bytes) and returns its length, 0 when none is waiting, or a
	 * NETDEV_E* error. A frame longer than cap is dropped and counted.
	 * Never waits.
	 */
	int (*poll)(struct netdev *d, void *buf, size_t cap);
	/* Whether the PHY reports a link (read now, no waiting). */
	bool (*link_up)(struct netdev *d);
};

/*
 * A driver's error return: writes the reason into d->why (fmt: one whole
 * format string at each call site, the register state in its arguments;
 * cut to the size of why) and returns err, a NETDEV_E* code.
 */
int netdev_fail(struct netdev *d, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * A NIC driver: the PCI IDs it drives and how to bring one up.
 * open() resets the NIC (bounded waits), sets up its descriptor rings and
 * fills d (kind, bdf, mac, the three functions); it returns 0, or a
 * NETDEV_E* error with the reason in d->why. It never prints.
 */
struct nic_driver {
	const char *kind;		/* as netdev.kind */
	bool (*match)(uint16_t vendor, uint16_t device);
	int (*open)(const struct pci_dev *pci, struct netdev *d);
};

#endif
