# VIA PadLock driver host tests on the instruction emulator (tests/drivers/padlock/).
#
#   build/i386/padlock_test   the driver against the emulated C3 Nehemiah,
#                             C7 Esther and Nano Isaiah (tests/drivers/padlock/padlock-emu.t)
#   build/i386/ossl_padlock_test  Debian's i386 OpenSSL PadLock engine on the
#                             emulator (tests/drivers/padlock/ossl-padlock.t; it
#                             opens libcrypto with dlopen, so it builds without
#                             the package, which the .t extracts into build/)
#   build/i386/cavp-padlock   tools/host/cavp.c with the driver and the emulator:
#                             CQ_PADLOCK_PROFILE=nehemiah|esther|isaiah
#                             (tests/drivers/padlock/cavp-padlock.t)
#
# Both are i386 programs run under qemu-i386, which delivers the PadLock
# opcodes as SIGILL to the emulator (tests/drivers/padlock/padlock_emu.c, around the
# instruction model emu/models/padlock_model.c that the kernel's
# emulation build shares). The driver files are compiled with
# -DPADLOCK_EMU_SITES (its key reload sites recorded for the emulator) and
# linked with the emulator's virtual CR0 instead of padlock_cr0.c.

# Harness sources come from the tree: every .c of tests/drivers/padlock/
# except the programs' mains (test_*.c, cavp_*.c).
PADLOCK_T := tests/drivers/padlock
PADLOCK_MAINS := $(wildcard $(PADLOCK_T)/test_*.c $(PADLOCK_T)/cavp_*.c)
PADLOCK_EMU_SRC := $(filter-out drivers/padlock/padlock_cr0.c,$(sort $(wildcard drivers/padlock/*.c))) \
	$(filter-out $(PADLOCK_MAINS),$(sort $(wildcard $(PADLOCK_T)/*.c))) \
	$(sort $(wildcard emu/models/padlock_*.c)) kernel/platform/kprintf.c kernel/run/report.c kernel/run/driver_run.c tests/host/hw_host.c \
	tests/host/console_host.c
PADLOCK_EMU_OBJ := $(patsubst %.c,$(BUILD)/i386/padlock/%.o,$(PADLOCK_EMU_SRC))
PADLOCK_EMU_CFLAGS := $(I386CFLAGS) -DPADLOCK_EMU_SITES -DPADLOCK_TEST_QUIRKS

$(BUILD)/i386/padlock/%.o: %.c
	@mkdir -p $(@D)
	@echo "  I386CC  $< (padlock emulator build)"
	@$(I386CC) $(PADLOCK_EMU_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/i386/padlock_test: $(PADLOCK_EMU_OBJ) $(BUILD)/i386/padlock/$(PADLOCK_T)/test_padlock.o $(BUILD)/i386/libcq.a
	$(I386CC) $(I386CFLAGS) $^ $(I386LDFLAGS) -o $@

$(BUILD)/i386/cavp-padlock: $(PADLOCK_EMU_OBJ) $(BUILD)/i386/padlock/$(PADLOCK_T)/cavp_padlock.o \
		$(BUILD)/i386/padlock/tools/host/cavp.o $(BUILD)/i386/libcq.a
	$(I386CC) $(I386CFLAGS) $^ $(I386LDFLAGS) -o $@

$(BUILD)/i386/ossl_padlock_test: $(PADLOCK_EMU_OBJ) $(BUILD)/i386/padlock/$(PADLOCK_T)/test_ossl_padlock.o $(BUILD)/i386/libcq.a
	$(I386CC) $(I386CFLAGS) $^ $(I386LDFLAGS) -ldl -o $@

.PHONY: padlock-emu
padlock-emu: $(BUILD)/i386/padlock_test $(BUILD)/i386/cavp-padlock $(BUILD)/i386/ossl_padlock_test

tools: $(BUILD)/i386/padlock_test $(BUILD)/i386/cavp-padlock $(BUILD)/i386/ossl_padlock_test
