# Host benchmark of lib/aes and drivers/aesni against OpenSSL libcrypto, and
# the generator of lib/crypto/aes_tables.c.
#
#   make bench-host   build and run build/host/bench-host (needs libssl-dev):
#                     cycles/byte of lib/aes and drivers/aesni beside
#                     OpenSSL, and cross-checks (exit 1 on a mismatch)
#   make aes-tables   regenerate lib/crypto/aes_tables.c from tools/gen/aes-tables.c

BENCH_HOST       := $(BUILD)/host/bench-host
BENCH_AESNI_OBJ  := $(BUILD)/host/obj/drivers/aesni/aesni.c.o
GEN_AES_TABLES   := $(BUILD)/host/gen-aes-tables

.PHONY: bench-host aes-tables

# Not under tools/host/: those are linked without -lcrypto. The AES-NI
# driver object comes from the generic host rule of the Makefile.
$(BENCH_HOST): tools/bench/bench-host.c $(BENCH_AESNI_OBJ) $(BUILD)/host/libcq.a
	@mkdir -p $(@D)
	$(HOSTCC) $(HCFLAGS) $< $(BENCH_AESNI_OBJ) $(BUILD)/host/libcq.a -lcrypto -o $@

bench-host: $(BENCH_HOST)
	$(BENCH_HOST)

$(GEN_AES_TABLES): tools/gen/aes-tables.c
	@mkdir -p $(@D)
	$(HOSTCC) $(HCFLAGS) $< -o $@

aes-tables: $(GEN_AES_TABLES)
	$(GEN_AES_TABLES) > lib/crypto/aes_tables.c.tmp
	mv lib/crypto/aes_tables.c.tmp lib/crypto/aes_tables.c
