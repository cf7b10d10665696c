# Host benchmark of lib/crypto/aes and drivers/aesni against OpenSSL libcrypto.
#
#   make bench-host   build and run build/host/bench-host (needs libssl-dev):
#                     cycles/byte of lib/crypto/aes and drivers/aesni beside
#                     OpenSSL, and cross-checks (exit 1 on a mismatch)

BENCH_HOST       := $(BUILD)/host/bench-host
BENCH_AESNI_OBJ  := $(BUILD)/host/obj/drivers/aesni/aesni.c.o

.PHONY: bench-host

# Not under tools/host/: those are linked without -lcrypto. The AES-NI
# driver object comes from the generic host rule of the Makefile.
$(BENCH_HOST): tools/bench/bench-host.c $(BENCH_AESNI_OBJ) $(BUILD)/host/libcq.a
	@mkdir -p $(@D)
	$(HOSTCC) $(HCFLAGS) $< $(BENCH_AESNI_OBJ) $(BUILD)/host/libcq.a -lcrypto -o $@

bench-host: $(BENCH_HOST)
	$(BENCH_HOST)

# make bench-loaded [BOOTS=30] [MACHINE=net5501]: the emulated machine booted
# BOOTS times without -icount on a host loaded with two spinning processes;
# prints how many runs ended in PASS (tools/bench/loaded-boots.sh).
BOOTS ?= 30
.PHONY: bench-loaded
bench-loaded: emu
	tools/bench/loaded-boots.sh --boots '$(BOOTS)' --machine '$(or $(MACHINE),net5501)'
