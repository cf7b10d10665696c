/* driver: the units a probe records and a driver's log. See driver.h. */
#include "lib/engine/driver.h"

#include <stdarg.h>
#include <string.h>

#include "lib/util/fmt.h"

static void unit_record(struct driver_probe *p, const char *name, bool promised,
			const char *reason_fmt, va_list ap)
{
	struct driver_unit *u;

	if (p->n >= DRIVER_UNITS)
		return;
	u = &p->unit[p->n++];
	u->name = name;
	u->present = reason_fmt == NULL;
	u->promised = promised && reason_fmt != NULL;
	u->reason[0] = '\0';
	if (reason_fmt)
		fmt_vsnprintf(u->reason, sizeof(u->reason), reason_fmt, ap);
}

void driver_unit(struct driver_probe *p, const char *name, const char *reason_fmt, ...)
{
	va_list ap;

	va_start(ap, reason_fmt);
	unit_record(p, name, false, reason_fmt, ap);
	va_end(ap);
}

void driver_unit_promised(struct driver_probe *p, const char *name, const char *reason_fmt, ...)
{
	va_list ap;

	va_start(ap, reason_fmt);
	unit_record(p, name, true, reason_fmt, ap);
	va_end(ap);
}

void drv_log(struct drv_log *l, const char *fmt, ...)
{
	va_list ap;

	if (!l)
		return;
	if (l->n >= DRV_LOG_LINES) {
		l->dropped++;
		return;
	}
	va_start(ap, fmt);
	fmt_vsnprintf(l->line[l->n], DRV_LOG_LINE_BYTES, fmt, ap);
	va_end(ap);
	l->n++;
}

void drv_log_reset(struct drv_log *l)
{
	memset(l, 0, sizeof(*l));
}
