# The vector-permute AES engine (drivers/vperm) built for i386 and run under
# qemu-i386 -cpu max (SSSE3) by tests/drivers/vperm/vperm-i386.t: the
# assembly the kernel runs (it is 32-bit x86 only).

VPERM_I386_OBJ  := $(BUILD)/i386/obj/drivers/vperm/vperm.c.o
VPERM_TEST_I386 := $(BUILD)/i386/vperm_test

$(VPERM_TEST_I386): tests/drivers/vperm/test_vperm.c $(VPERM_I386_OBJ) $(BUILD)/i386/libcq.a
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $< $(VPERM_I386_OBJ) $(BUILD)/i386/libcq.a $(I386LDFLAGS) -o $@

tools: $(VPERM_TEST_I386)
