# The i386 benchmark against OpenSSL: what the image runs (lib/crypto/aes and
# drivers/aesni as the kernel objects, built with KCFLAGS) against Debian's
# i386 libcrypto 3, in instructions per byte (qemu-i386 with the insn-count
# plugin) and, where the kernel runs i386 programs, in wall-clock time.
#
#   make bench-i386   print the table (tools/bench/bench-i386.sh)
#   make bench-models the cycle models of the software AES against aes-586
#                     (tools/bench/bench-models.py: llvm-mca of Debian's llvm-14
#                     and an in-order model; models, not measurements)
#
# libssl3:i386 is fetched with `apt-get download` and unpacked with
# dpkg-deb -x under $(BUILD)/bench-i386/openssl: nothing is installed over
# the system and nothing of it enters the repository.

BI_DIR     := $(BUILD)/bench-i386
BI_OSSL    := $(BI_DIR)/openssl/usr/lib/i386-linux-gnu
BI_BIN     := $(BI_DIR)/bench-i386
BI_PLUGIN  := $(BI_DIR)/insn-count.so
BI_K_OBJS  := $(KOBJ_DIR)/lib/crypto/aes.c.o $(KOBJ_DIR)/lib/crypto/aes_tables.c.o \
	$(KOBJ_DIR)/drivers/aesni/aesni.c.o $(KOBJ_DIR)/drivers/vperm/vperm.c.o
# The kernel's C library and 64-bit division: the objects above call them in
# the kernel's calling convention (Makefile KABI), not glibc's or libgcc's.
BI_K_LIBC  := $(KOBJ_DIR)/kernel/platform/libc.c.o $(KOBJ_DIR)/kernel/platform/divdi3.c.o
BI_ABI_OBJ := $(BI_DIR)/bench-i386-abi.o
BI_KERNEL  := $(BI_DIR)/kernel-code.o

.PHONY: bench-i386 bench-models

$(BI_OSSL)/libcrypto.so.3:
	@mkdir -p $(BI_DIR)/deb
	rm -f $(BI_DIR)/deb/*.deb
	cd $(BI_DIR)/deb && apt-get download libssl3:i386
	dpkg-deb -x $(BI_DIR)/deb/libssl3_*_i386.deb $(BI_DIR)/openssl
	@test -f $@

$(BI_PLUGIN): tools/bench/insn-count.c
	@mkdir -p $(@D)
	$(HOSTCC) -shared -fPIC -fvisibility=hidden -O2 $(WARN) $< -o $@

# The cdecl entry points (tools/bench/bench-i386-abi.c), with the kernel's flags.
$(BI_ABI_OBJ): tools/bench/bench-i386-abi.c tools/bench/bench-i386-abi.h $(BUILD)/kflags.txt
	@mkdir -p $(@D)
	$(KCC) $(KCFLAGS) $(KSIZE) -c $< -o $@

# The kernel objects themselves, so the code measured is the image's: linked
# with the entry points into one object (ld -r) whose every symbol but the
# bi_* entry points is made local, so nothing of the kernel's (memcpy, the
# 64-bit division) stands in for glibc's or libcrypto's, nor the reverse.
# Without the LTO sections of the fat objects of lib/ (Makefile KLTO): the
# object code is what the program links (what it measures is not LTO code).
$(BI_KERNEL): $(BI_ABI_OBJ) $(BI_K_OBJS) $(BI_K_LIBC) $(KOBJ_DIR)/libcq.a
	$(CROSS)ld -m elf_i386 -r -o $@.tmp $(BI_ABI_OBJ) $(BI_K_OBJS) $(BI_K_LIBC) $(KOBJ_DIR)/libcq.a
	$(OBJCOPY) -w --keep-global-symbol='bi_*' -R '.gnu.lto_*' -R '.gnu.debuglto_*' $@.tmp $@
	rm -f $@.tmp

$(BI_BIN): tools/bench/bench-i386.c tools/bench/bench-i386-abi.h $(BI_KERNEL) $(BI_OSSL)/libcrypto.so.3
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $< $(BI_KERNEL) $(BI_OSSL)/libcrypto.so.3 \
		-no-pie -Wl,-rpath,$(abspath $(BI_OSSL)) -o $@

bench-i386: $(BI_BIN) $(BI_PLUGIN)
	tools/bench/bench-i386.sh $(BI_BIN) $(BI_PLUGIN)

bench-models: $(BI_BIN) $(BI_PLUGIN)
	tools/bench/bench-models.py $(BI_BIN) $(BI_PLUGIN)
