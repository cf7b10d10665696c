# libFuzzer target for the command-line parser (Debian clang).
FUZZ_CC ?= clang
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -I.

$(BUILD)/host/fuzz_cmdline: tests/fuzz/fuzz_cmdline.c lib/platform/cmdline.c lib/platform/cmdline.h lib/util/fmt.c lib/util/fmt.h lib/util/hex.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) lib/platform/cmdline.c lib/util/fmt.c lib/util/hex.c tests/fuzz/fuzz_cmdline.c -o $@

tools: $(BUILD)/host/fuzz_cmdline
