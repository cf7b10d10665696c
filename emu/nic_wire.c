/* nic_wire: an emulated NIC's cable to a real NIC. See nic_wire.h. */
#include "emu/nic_wire.h"

#include <string.h>

#include "lib/util/fmt.h"

void nic_wire_init(struct nic_wire *w, int (*open)(struct nic_wire *w), void *owner)
{
	memset(w, 0, sizeof(*w));
	w->open = open;
	w->owner = owner;
	w->state = open ? NIC_WIRE_CLOSED : NIC_WIRE_NONE;
}

/* Opens the real NIC on first use. Returns whether the wire carries frames. */
static bool ready(struct nic_wire *w)
{
	if (w->state == NIC_WIRE_CLOSED) {
		memset(&w->nd, 0, sizeof(w->nd));
		if (w->open(w) == 0 && w->nd.send && w->nd.poll) {
			w->state = NIC_WIRE_OPEN;
		} else {
			w->state = NIC_WIRE_FAILED;
			fmt_snprintf(w->why, sizeof(w->why), "%s", w->nd.why[0] ? w->nd.why : "open failed");
		}
	}
	return w->state == NIC_WIRE_OPEN;
}

static void wire_send(void *ctx, const uint8_t *frame, size_t len)
{
	struct nic_wire *w = ctx;

	if (!ready(w))
		return;
	if (w->nd.send(&w->nd, frame, len) == 0)
		w->to_real++;
	else
		w->to_real_errors++;
}

static size_t wire_poll(void *ctx, uint8_t *buf, size_t cap)
{
	struct nic_wire *w = ctx;
	int n;

	if (!ready(w))
		return 0;
	n = w->nd.poll(&w->nd, buf, cap);
	if (n <= 0)
		return 0;
	w->from_real++;
	if ((size_t)n < NETDEV_MIN_FRAME && cap >= NETDEV_MIN_FRAME) {
		memset(buf + n, 0, NETDEV_MIN_FRAME - (size_t)n);
		w->padded++;
		n = NETDEV_MIN_FRAME;
	}
	return (size_t)n;
}

/* The far end's link: the real NIC's, once it is open. */
static bool wire_carrier(void *ctx)
{
	struct nic_wire *w = ctx;

	if (!ready(w))
		return false;
	return !w->nd.link_up || w->nd.link_up(&w->nd);
}

struct rhine_model_wire nic_wire_model_side(struct nic_wire *w)
{
	struct rhine_model_wire mw = { wire_send, wire_poll, wire_carrier, w };
	return mw;
}
