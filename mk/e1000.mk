# The e1000 NIC driver on the host: tests/drivers/e1000/test_e1000.c with its
# register-level model, over tests/host/hw_host.c and the PCI configuration
# model, built for i386 (run by tests/drivers/e1000/e1000-host.t).
E1000_I386_SRC := drivers/e1000/e1000.c $(sort $(wildcard tests/host/*.c)) \
	kernel/platform/pci_bus.c kernel/platform/timer.c kernel/platform/kprintf.c
E1000_I386_OBJS := $(patsubst %,$(BUILD)/i386/obj/%.o,$(E1000_I386_SRC))
E1000_TEST := $(BUILD)/i386/e1000_test

$(E1000_TEST): tests/drivers/e1000/test_e1000.c $(E1000_I386_OBJS) $(BUILD)/i386/libcq.a
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $< $(E1000_I386_OBJS) $(BUILD)/i386/libcq.a $(I386LDFLAGS) -o $@

tools: $(E1000_TEST)
