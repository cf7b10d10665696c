# kernel/platform/memmap.c on the host (i386 under qemu-i386: multiboot addresses
# are 32-bit), run by tests/kernel/platform/memmap.t.
MEMMAP_I386_SRC := kernel/platform/memmap.c kernel/run/report.c kernel/platform/kprintf.c tests/host/console_host.c \
	tests/host/hw_host.c tests/host/kernel_stubs.c
MEMMAP_I386_OBJS := $(patsubst %,$(BUILD)/i386/obj/%.o,$(MEMMAP_I386_SRC))
MEMMAP_TEST := $(BUILD)/i386/memmap_test

$(MEMMAP_TEST): tests/kernel/platform/test_memmap.c $(MEMMAP_I386_OBJS) $(BUILD)/i386/libcq.a
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $< $(MEMMAP_I386_OBJS) $(BUILD)/i386/libcq.a $(I386LDFLAGS) -o $@

tools: $(MEMMAP_TEST)

# kernel/platform/acpi.c's table walk on the host (i386), run by tests/kernel/platform/acpi.t.
ACPI_TEST := $(BUILD)/i386/acpi_test

$(ACPI_TEST): tests/kernel/platform/test_acpi.c $(BUILD)/i386/obj/kernel/platform/acpi.c.o
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $^ $(I386LDFLAGS) -o $@

tools: $(ACPI_TEST)

# kernel/platform/timer.c against disagreeing timer models (i386), run by tests/kernel/platform/timer.t.
TIMER_TEST := $(BUILD)/i386/timer_test
TIMER_TEST_OBJS := $(patsubst %,$(BUILD)/i386/obj/%.o,kernel/platform/timer.c tests/host/hw_host.c)

$(TIMER_TEST): tests/kernel/platform/test_timer.c $(TIMER_TEST_OBJS) $(BUILD)/i386/libcq.a
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $< $(TIMER_TEST_OBJS) $(BUILD)/i386/libcq.a $(I386LDFLAGS) -o $@

tools: $(TIMER_TEST)

# kernel/platform/divdi3.c (64-bit division, renamed cq_*) against libgcc (i386),
# run by tests/kernel/platform/divdi3.t.
DIVDI3_TEST := $(BUILD)/i386/divdi3_test

$(BUILD)/i386/obj/divdi3-test.o: kernel/platform/divdi3.c
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) -DCQ_DIVDI3_TEST -c $< -o $@

$(DIVDI3_TEST): tests/kernel/platform/test_divdi3.c $(BUILD)/i386/obj/divdi3-test.o
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $^ $(I386LDFLAGS) -o $@

tools: $(DIVDI3_TEST)

# kernel/platform/console.c's UART drain against a 16550 model (i386), run by tests/kernel/platform/uart-drain.t.
UART_DRAIN_TEST := $(BUILD)/i386/uart_drain_test
UART_DRAIN_TEST_OBJS := $(patsubst %,$(BUILD)/i386/obj/%.o,kernel/platform/console.c tests/host/hw_host.c)

$(UART_DRAIN_TEST): tests/kernel/platform/test_uart_drain.c $(UART_DRAIN_TEST_OBJS) $(BUILD)/i386/libcq.a
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $< $(UART_DRAIN_TEST_OBJS) $(BUILD)/i386/libcq.a $(I386LDFLAGS) -o $@

tools: $(UART_DRAIN_TEST)
