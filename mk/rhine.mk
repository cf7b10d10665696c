# VIA Rhine NIC driver against its device model, on the host. Built for
# i386 and run under qemu-i386 (pointers are 32-bit bus addresses, as in
# the kernel):
#
#   $(BUILD)/i386/rhine_test   tests/drivers/rhine/test_rhine.c: the driver
#                              (drivers/rhine, unchanged) against
#                              emu/models/rhine_model.c through
#                              tests/host/hw_host.c, and emu/nic_wire.c over
#                              a test double of a real NIC; run by
#                              tests/drivers/rhine/rhine.t

RHINE_I386_SRC := $(sort $(wildcard drivers/rhine/*.c)) emu/models/rhine_model.c emu/nic_wire.c \
	$(sort $(wildcard tests/host/*.c)) kernel/platform/pci_bus.c kernel/platform/timer.c \
	kernel/platform/kprintf.c
RHINE_I386_OBJS := $(patsubst %,$(BUILD)/i386/obj/%.o,$(RHINE_I386_SRC))
RHINE_TEST := $(BUILD)/i386/rhine_test

# The driver as the kernel builds it (-ffreestanding implies -fno-builtin): its
# frame copies are calls to memcpy, which the harness's concurrency test replaces.
$(BUILD)/i386/obj/drivers/rhine/rhine.c.o: I386CFLAGS += -fno-builtin

$(RHINE_TEST): tests/drivers/rhine/test_rhine.c $(RHINE_I386_OBJS) $(BUILD)/i386/libcq.a
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $< $(RHINE_I386_OBJS) $(BUILD)/i386/libcq.a $(I386LDFLAGS) -o $@

tools: $(RHINE_TEST)
