# Geode LX security block driver against its device model, on the host.
# Built for i386 and run under qemu-i386 (pointers are 32-bit bus
# addresses, as in the kernel):
#
#   $(BUILD)/i386/geode_sb_test   tests/host/geode_sb_test.c: the driver
#                                 (drivers/geode_sb, unchanged) against
#                                 tests/models/geode_sb_model.c through
#                                 tests/host/hw_host.c; run by
#                                 tests/tools/geode-sb.t
#   $(BUILD)/i386/cavp-geode      tools/host/cavp.c with the model engine:
#                                 `cavp-geode --engine geode-sb FILE.rsp`;
#                                 run by tests/tools/cavp-geode.t
#
# cavp.c calls its weak hook cavp_register_model_engines() after the
# software engines are registered; tests/host/cavp_geode.c defines it.

GEODE_I386_SRC := $(sort $(wildcard drivers/geode_sb/*.c)) kernel/pci.c kernel/report.c \
	kernel/timer.c tests/host/hw_host.c tests/host/console_host.c kernel/kprintf.c tests/host/kernel_stubs.c \
	tests/host/geode_sb_host.c tests/models/geode_sb_model.c
GEODE_I386_OBJS := $(patsubst %,$(BUILD)/i386/obj/%.o,$(GEODE_I386_SRC))
GEODE_SB_TEST := $(BUILD)/i386/geode_sb_test
CAVP_GEODE := $(BUILD)/i386/cavp-geode

$(GEODE_SB_TEST): tests/host/geode_sb_test.c $(GEODE_I386_OBJS) $(BUILD)/i386/libcq.a
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $< $(GEODE_I386_OBJS) $(BUILD)/i386/libcq.a $(I386LDFLAGS) -o $@

$(CAVP_GEODE): $(BUILD)/i386/obj/tools/host/cavp.c.o $(BUILD)/i386/obj/tests/host/cavp_geode.c.o \
		$(GEODE_I386_OBJS) $(BUILD)/i386/libcq.a
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $^ $(I386LDFLAGS) -o $@

tools: $(GEODE_SB_TEST) $(CAVP_GEODE)
