# AES-NI engine and RDRAND/RDSEED sources on the host: the test program
# tests/drivers/aesni/test_aesni.c, built native (run by tests/drivers/aesni/aesni-host.t)
# and for i386 (run under qemu-i386 -cpu max by tests/drivers/aesni/aesni-i386.t,
# which exercises the 32-bit code the kernel runs), and the object the host
# benchmark links. The AES-NI functions carry their own target attribute,
# so no -maes is needed anywhere.
#
#   AESNI_HOST_OBJ   drivers/aesni/aesni.c for x86_64 (generic host rule)

AESNI_HOST_OBJ  := $(BUILD)/host/obj/drivers/aesni/aesni.c.o
RDRAND_HOST_OBJ := $(BUILD)/host/obj/drivers/rdrand/rdrand.c.o
AESNI_TEST      := $(BUILD)/host/aesni_test
AESNI_I386_OBJS := $(BUILD)/i386/obj/drivers/aesni/aesni.c.o $(BUILD)/i386/obj/drivers/rdrand/rdrand.c.o
AESNI_TEST_I386 := $(BUILD)/i386/aesni_test

$(AESNI_TEST): tests/drivers/aesni/test_aesni.c $(AESNI_HOST_OBJ) $(RDRAND_HOST_OBJ) $(BUILD)/host/libcq.a
	@mkdir -p $(@D)
	$(HOSTCC) $(HCFLAGS) $< $(AESNI_HOST_OBJ) $(RDRAND_HOST_OBJ) $(BUILD)/host/libcq.a -o $@

$(AESNI_TEST_I386): tests/drivers/aesni/test_aesni.c $(AESNI_I386_OBJS) $(BUILD)/i386/libcq.a
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $< $(AESNI_I386_OBJS) $(BUILD)/i386/libcq.a $(I386LDFLAGS) -o $@

tools: $(AESNI_TEST) $(AESNI_TEST_I386)
