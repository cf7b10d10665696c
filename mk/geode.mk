# Geode LX security block driver against its device model, on the host.
# Built for i386 and run under qemu-i386 (pointers are 32-bit bus
# addresses, as in the kernel):
#
#   $(BUILD)/i386/geode_sb_test   tests/drivers/geode_sb/test_geode_sb.c: the driver
#                                 (drivers/geode_sb, unchanged) against
#                                 emu/models/geode_sb_model.c through
#                                 tests/host/hw_host.c; run by
#                                 tests/drivers/geode_sb/geode-sb.t
#   $(BUILD)/i386/cavp-geode      tools/host/cavp.c with the model engine:
#                                 `cavp-geode --engine geode-sb FILE.rsp`;
#                                 run by tests/drivers/geode_sb/cavp-geode.t
#
# cavp.c calls its weak hook cavp_register_model_engines() after the
# software engines are registered; tests/drivers/geode_sb/cavp_geode.c defines it.

# Harness sources come from the tree: the driver, every .c of
# tests/drivers/geode_sb/ except the programs' mains (test_*.c, cavp_*.c),
# the Geode model, the host hardware layer and the kernel code the driver
# calls.
GEODE_T := tests/drivers/geode_sb
GEODE_MAINS := $(wildcard $(GEODE_T)/test_*.c $(GEODE_T)/cavp_*.c)
GEODE_I386_SRC := $(sort $(wildcard drivers/geode_sb/*.c)) \
	$(filter-out $(GEODE_MAINS),$(sort $(wildcard $(GEODE_T)/*.c))) \
	$(sort $(wildcard emu/models/geode_sb_*.c)) $(sort $(wildcard tests/host/*.c)) \
	kernel/platform/pci_bus.c kernel/platform/timer.c kernel/platform/kprintf.c kernel/run/report.c \
	kernel/run/driver_run.c
GEODE_I386_OBJS := $(patsubst %,$(BUILD)/i386/obj/%.o,$(GEODE_I386_SRC))
GEODE_SB_TEST := $(BUILD)/i386/geode_sb_test
CAVP_GEODE := $(BUILD)/i386/cavp-geode

$(GEODE_SB_TEST): tests/drivers/geode_sb/test_geode_sb.c $(GEODE_I386_OBJS) $(BUILD)/i386/libcq.a
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $< $(GEODE_I386_OBJS) $(BUILD)/i386/libcq.a $(I386LDFLAGS) -o $@

$(CAVP_GEODE): $(BUILD)/i386/obj/tools/host/cavp.c.o $(BUILD)/i386/obj/tests/drivers/geode_sb/cavp_geode.c.o \
		$(GEODE_I386_OBJS) $(BUILD)/i386/libcq.a
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $^ $(I386LDFLAGS) -o $@

tools: $(GEODE_SB_TEST) $(CAVP_GEODE)
