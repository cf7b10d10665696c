# cryptoqual: build the multiboot kernel, the host tools and the tests.
#
#   make            build build/cryptoqual.elf (and its flat image hash)
#   make run        install missing Debian packages, build, boot in QEMU -cpu max
#   make check      install missing packages, build, run every test through prove
#   make deps       only the package installation (scripts/install-deps.sh)
#
# Variables: BUILD (output folder), SHARED (the shared data folder, default
# ../shared), ARGS (kernel command line for `make run`), CPU (QEMU -cpu model
# for `make run`), MACHINE and FAULT (`make run` on an emulated machine,
# mk/emu.mk), NET (`make run NET=user`: the report over the network, mk/net.mk),
# QEMU_EXTRA (more QEMU arguments).

BUILD   ?= build
SHARED  ?= ../shared
CROSS   ?= i686-linux-gnu-
ARGS    ?=
CPU     ?= max
PROVE_JOBS ?= 2

KCC     := $(CROSS)gcc
OBJCOPY := $(CROSS)objcopy
HOSTCC  ?= gcc
I386CC  := $(CROSS)gcc

VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)

WARN    := -Wall -Wextra -Werror
# Kernel: i586-class code (a Pentium has no CMOV; the Geode LX has no long NOP and no SSE),
# tuned for the Geode LX. Cold code is built for size ($(KSIZE) below) with one section per
# function and object, so the linker drops what nothing uses (--gc-sections); the image must
# stay under the ceiling of tests/tools/image-size.t. The stack is 4-byte aligned: nothing
# outside .text_cpufeat uses SSE, and those functions realign their stack.
# The files in KHOT_SRC (the software AES rounds, the SHA compression) are built at -O2.
# Calling convention ($(KABI)): the first three integer arguments in EAX, EDX, ECX and the
# callee pops the rest. Variadic functions keep the stack convention. What assembly calls or
# implements is declared CQ_ASMLINKAGE (kernel/platform/exceptions.h) or AES_I386_ABI
# (lib/crypto/aes_tables.h): the i386 System V convention. libgcc is built for that
# convention, so the kernel does not link it: its 64-bit division is kernel/platform/divdi3.c.
# make bench-i386 reaches the kernel objects through cdecl entry points
# (tools/bench/bench-i386-abi.c).
KABI := -mregparm=3 -mrtd
KCFLAGS := -std=gnu11 -m32 -march=i586 -mtune=geode -Os -ffunction-sections -fdata-sections \
	-mpreferred-stack-boundary=2 $(KABI) \
	-ffreestanding -fno-pic -fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables -fno-unwind-tables \
	-fno-strict-aliasing -nostdinc -isystem $(shell $(KCC) -print-file-name=include 2>/dev/null) \
	-I. -Ikernel/platform/include -Wa,-march=i586 -ffile-prefix-map=$(CURDIR)=. $(WARN) \
	-DCQ_VERSION='"$(VERSION)"'
KASFLAGS := -m32 -march=i586 -Wa,-march=i586 -ffile-prefix-map=$(CURDIR)=.
KLDFLAGS := -m32 -nostdlib -static -no-pie -Wl,--build-id=none -Wl,-T,linker.ld -Wl,--gc-sections \
	-Wl,-z,noexecstack -Wl,--no-warn-rwx-segments

# Hot kernel code, compiled at -O2 ($(KOPT) follows KCFLAGS in the kernel rule): the
# software AES rounds and the SHA compression functions every hardware engine is measured
# against. The software modes (lib/crypto/aes.c) and the AES-NI driver are the measured code
# of KBENCH_SRC: built with $(KSIZE) but not $(KSIZE_COLD), so the passes that make their
# loops shorter stay on (make bench-i386 counts their instructions per byte against OpenSSL's).
KHOT_SRC := lib/crypto/aes_i386.c lib/crypto/sha_blocks.c
# Cold code (everything else): -Oz, no frame pointer (nothing walks EBP chains), a static
# function called once stays a function, and no sibling calls.
KSIZE := -Oz -fomit-frame-pointer -fno-inline-functions-called-once -fno-optimize-sibling-calls
# Passes off in cold code that make bench-i386 does not measure (not in KBENCH_SRC): they
# grow -Oz code here.
KSIZE_COLD := -fno-thread-jumps -fno-ipa-sra -fno-tree-tail-merge \
	-fno-jump-tables -fno-tree-dominator-opts -fno-tree-copy-prop
KBENCH_SRC := lib/crypto/aes.c drivers/aesni/aesni.c
# Link-time optimisation of the cold code. Not in it (KNOLTO): the hot and measured code; the
# files with CPUFEAT_FN functions (target attributes and .text_cpufeat: the LTO partitioner
# would mix them with i586 code); the C library and the 64-bit division (GCC calls them
# behind LTO's back, so LTO would drop them). Fat objects: the emulation image and make
# bench-i386 link the same objects without LTO. One partition, so the result does not depend
# on how LTRANS jobs are split. -Wno-maybe-uninitialized: GCC 12 sees a false one across
# files at the link (kat_hash_run's dlen, set by every path that reads it); every file is
# still compiled with -Werror.
KLTO := -flto -ffat-lto-objects
KNOLTO := $(KHOT_SRC) $(KBENCH_SRC) kernel/platform/fpu.c kernel/run/selftest.c \
	drivers/rdrand/rdrand.c drivers/vperm/vperm.c kernel/platform/libc.c kernel/platform/divdi3.c
KLTOLINK := -flto -flto-partition=one $(KSIZE) -Wno-maybe-uninitialized
KOPT = $(if $(filter $<,$(KHOT_SRC)),-O2,$(KSIZE) $(if $(filter $<,$(KBENCH_SRC)),,$(KSIZE_COLD))) \
	$(if $(filter $<,$(KNOLTO)),,$(KLTO))

HCFLAGS := -std=gnu11 -O2 -g $(WARN) -I.
# No PIE: lib/crypto/aes_i386.c addresses its tables absolutely (as in the
# kernel), and the i386 tests should run the code the kernel runs.
I386CFLAGS := -std=gnu11 -O2 -g -m32 -march=i686 -fno-pie $(WARN) -I. -idirafter /usr/include
I386LDFLAGS := -no-pie -L/usr/lib/i386-linux-gnu -Wl,-rpath-link,/usr/lib/i386-linux-gnu

# lib/<subsystem>/: freestanding, hardware-free code. lib/host/ (CAVP files,
# CPUID dumps, PCI listings, the config-space model) is built for the host
# programs and the emulation image, never for the release kernel.
LIB_SRC      := $(sort $(filter-out lib/host/%,$(wildcard lib/*/*.c)))
LIB_HOST_SRC := $(sort $(wildcard lib/host/*.c))
KERNEL_SRC := $(sort $(wildcard boot/*.S boot/*.c kernel/*/*.c drivers/*/*.c))
TOOLS_SRC  := $(sort $(wildcard tools/host/*.c))
# Unit tests live with the subsystem they test: tests/lib/<subsystem>/test_*.c.
UNIT_SRC   := $(sort $(wildcard tests/lib/*/test_*.c))

KOBJ_DIR   := $(BUILD)/kernel
K_OBJS     := $(patsubst %,$(KOBJ_DIR)/%.o,$(KERNEL_SRC))
K_LIB_OBJS := $(patsubst %,$(KOBJ_DIR)/%.o,$(LIB_SRC))
K_HOSTLIB_OBJS := $(patsubst %,$(KOBJ_DIR)/%.o,$(LIB_HOST_SRC))
H_LIB_OBJS := $(patsubst %,$(BUILD)/host/obj/%.o,$(LIB_SRC) $(LIB_HOST_SRC))
I_LIB_OBJS := $(patsubst %,$(BUILD)/i386/obj/%.o,$(LIB_SRC) $(LIB_HOST_SRC))
TOOLS      := $(patsubst tools/host/%.c,$(BUILD)/host/%,$(TOOLS_SRC))
UNIT_HOST  := $(patsubst tests/lib/%.c,$(BUILD)/host/unit/%,$(UNIT_SRC))
UNIT_I386  := $(patsubst tests/lib/%.c,$(BUILD)/i386/unit/%,$(UNIT_SRC))
UNIT_I386_T := $(addsuffix .t,$(UNIT_I386))
# Every prove script of the tree, by subject (tests/<subject>/.../*.t).
TESTS_T    := $(sort $(shell find tests -name '*.t' -not -path 'tests/boot/*'))
BOOT_T     := $(sort $(wildcard tests/boot/*.t))

KERNEL := $(BUILD)/cryptoqual.elf

.PHONY: all kernel tools unit run check deps clean FORCE
.DELETE_ON_ERROR:
.SECONDARY:

all: kernel

kernel: $(KERNEL) $(BUILD)/cryptoqual.sha256

# The version string is part of the image: rebuild when it changes.
$(BUILD)/version.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@

# The compiler flags are part of the objects: rebuild when they change.
$(BUILD)/kflags.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(KCFLAGS) $(KHOT_SRC) $(KSIZE) $(KSIZE_COLD) $(KBENCH_SRC) $(KLTO) $(KNOLTO) $(KLTOLINK)' | \
		cmp -s - $@ || \
		echo '$(KCFLAGS) $(KHOT_SRC) $(KSIZE) $(KSIZE_COLD) $(KBENCH_SRC) $(KLTO) $(KNOLTO) $(KLTOLINK)' > $@

$(KOBJ_DIR)/%.c.o: %.c $(BUILD)/version.txt $(BUILD)/kflags.txt
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(KCC) $(KCFLAGS) $(KOPT) -MMD -MP -c $< -o $@

$(KOBJ_DIR)/%.S.o: %.S
	@mkdir -p $(@D)
	@echo "  AS      $<"
	@$(KCC) $(KASFLAGS) -MMD -MP -c $< -o $@

# gcc-ar: the archive's index then names the LTO objects' symbols too.
$(KOBJ_DIR)/libcq.a: $(K_LIB_OBJS)
	rm -f $@
	$(CROSS)gcc-ar rcsD $@ $^

# lib/host/ with the kernel's flags: only the emulation image links it.
$(KOBJ_DIR)/libcq-host.a: $(K_HOSTLIB_OBJS)
	rm -f $@
	$(CROSS)ar rcsD $@ $^

$(KERNEL): $(K_OBJS) $(KOBJ_DIR)/libcq.a linker.ld
	$(KCC) $(KCFLAGS) $(KLDFLAGS) $(KLTOLINK) -o $@ $(K_OBJS) $(KOBJ_DIR)/libcq.a

# The flat image the kernel hashes at boot (see kernel/run/main.c hash_image).
$(BUILD)/cryptoqual.bin: $(KERNEL)
	$(OBJCOPY) -O binary -R .bss $< $@

$(BUILD)/cryptoqual.sha256: $(BUILD)/cryptoqual.bin
	sha256sum $< | cut -d' ' -f1 > $@
	@echo "image-sha256=$$(cat $@) version=$(VERSION)"

# ---- host builds of lib/ (native for tools and tests, i386 for qemu-i386) ----

$(BUILD)/host/obj/%.c.o: %.c
	@mkdir -p $(@D)
	@echo "  HOSTCC  $<"
	@$(HOSTCC) $(HCFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/host/libcq.a: $(H_LIB_OBJS)
	rm -f $@
	ar rcsD $@ $^

$(BUILD)/host/%: tools/host/%.c $(BUILD)/host/libcq.a
	@mkdir -p $(@D)
	$(HOSTCC) $(HCFLAGS) $< $(BUILD)/host/libcq.a -o $@

$(BUILD)/host/unit/%: tests/lib/%.c $(BUILD)/host/libcq.a
	@mkdir -p $(@D)
	$(HOSTCC) $(HCFLAGS) $< $(BUILD)/host/libcq.a -lcmocka -o $@

$(BUILD)/i386/obj/%.c.o: %.c
	@mkdir -p $(@D)
	@echo "  I386CC  $<"
	@$(I386CC) $(I386CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/i386/libcq.a: $(I_LIB_OBJS)
	rm -f $@
	$(CROSS)ar rcsD $@ $^

$(BUILD)/i386/unit/%: tests/lib/%.c $(BUILD)/i386/libcq.a
	@mkdir -p $(@D)
	$(I386CC) $(I386CFLAGS) $< $(BUILD)/i386/libcq.a $(I386LDFLAGS) -lcmocka -o $@

# prove runs each i386 test through this one-line wrapper (qemu-user).
$(BUILD)/i386/%.t: $(BUILD)/i386/%
	printf '#!/bin/sh\nexec qemu-i386 -L /usr/i686-linux-gnu %s\n' '$<' > $@
	chmod +x $@

tools: $(TOOLS)
unit: $(UNIT_HOST) $(UNIT_I386_T)

# ---- commands ----

deps:
	@scripts/install-deps.sh

# make run MACHINE=<profile> [FAULT=<fault>]: mk/emu.mk sets these to boot
# the emulation build on an emulated machine.
RUN_BUILD  = kernel
RUN_KERNEL = $(KERNEL)
RUN_CPU    = $(CPU)
RUN_ARGS   = $(ARGS)
RUN_OPTS   =
RUN_BOOT   = scripts/boot-qemu.sh

run: deps
	$(MAKE) $(RUN_BUILD)
	$(RUN_BOOT) --cpu '$(RUN_CPU)' $(RUN_OPTS) $(if $(LOG),--log '$(LOG)') --show -- $(RUN_KERNEL) $(RUN_ARGS)

check: deps
	$(MAKE) kernel tools unit
	CMOCKA_MESSAGE_OUTPUT=TAP CQ_BUILD='$(BUILD)' CQ_SHARED='$(abspath $(SHARED))' CQ_KERNEL='$(KERNEL)' \
		prove -j$(PROVE_JOBS) --timer $(UNIT_HOST) $(UNIT_I386_T) \
		$(TESTS_T) $(BOOT_T)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Feature fragments (each mk/*.mk adds its own targets and variables).
-include $(sort $(wildcard mk/*.mk))
