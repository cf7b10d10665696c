/*
 * The PadLock driver's test switches (drivers/padlock/padlock_int.h,
 * PADLOCK_TEST_QUIRKS): defined only in the harness's build of the driver,
 * so the kernel and the emulation image carry none of them.
 */
#include "drivers/padlock/padlock_int.h"

struct padlock_quirks padlock_quirks;
