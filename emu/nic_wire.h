/*
 * nic_wire: the cable of an emulated NIC. A device model (the Rhine of
 * emu/models/rhine_model.h) transmits and receives through a struct
 * rhine_model_wire (send a frame, poll for a frame); nic_wire fills one so
 * that its far end is a NIC of the real machine behind lib/net/netdev.h:
 * in the emulation build QEMU's own NIC (its e1000 through e1000_nic_driver),
 * in the host tests a test double. Frames the model transmits go to the
 * real NIC's send(); frames the real NIC receives come back to the model.
 *
 * The cable's carrier is the real NIC's link (netdev link_up): the model
 * has a link only while the real NIC has one. The real NIC is opened on
 * first use (the model asks the wire only while its receiver runs, when
 * it transmits or reads its PHY's link), by the open callback the
 * owner sets: the emulation build opens it in the real machine's PCI
 * space. A frame from the real NIC shorter than 60 bytes is padded with
 * zeros to 60, as every frame on an Ethernet cable is (IEEE 802.3 minimum
 * frame, 64 bytes with the FCS). Nothing here waits: the real NIC's poll
 * never does, its send waits at most as its driver bounds it.
 */
#ifndef CQ_EMU_NIC_WIRE_H
#define CQ_EMU_NIC_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include "emu/models/rhine_model.h"
#include "lib/net/netdev.h"

enum nic_wire_state {
	NIC_WIRE_NONE,		/* no real NIC: the cable is unplugged */
	NIC_WIRE_CLOSED,	/* a real NIC, not opened yet */
	NIC_WIRE_OPEN,
	NIC_WIRE_FAILED,	/* its open failed: why */
};

struct nic_wire {
	enum nic_wire_state state;
	struct netdev nd;		/* the real NIC, once open */
	/* Opens nd (the owner's way to reach the real NIC); 0 or a NETDEV_E* error with nd.why. */
	int (*open)(struct nic_wire *w);
	void *owner;			/* for open */
	char why[160];			/* why the wire failed, "" when it did not */
	unsigned long to_real, to_real_errors, from_real, padded;
};

/* A wire whose far end open() reaches (state CLOSED), or none (open NULL: state NONE). */
void nic_wire_init(struct nic_wire *w, int (*open)(struct nic_wire *w), void *owner);

/* The model's side of w: send and poll to and from the real NIC (ctx = w). */
struct rhine_model_wire nic_wire_model_side(struct nic_wire *w);

#endif
