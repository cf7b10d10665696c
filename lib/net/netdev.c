/* netdev: what every NIC driver shares. See netdev.h. */
#include "lib/net/netdev.h"

#include <stdarg.h>

#include "lib/util/fmt.h"

int netdev_fail(struct netdev *d, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(d->why, sizeof(d->why), fmt, ap);
	va_end(ap);
	return err;
}
