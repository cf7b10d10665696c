# libFuzzer target for the command-line parser (Debian clang).
FUZZ_CC ?= clang
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -Ilib

$(BUILD)/host/fuzz_cmdline: tests/fuzz/fuzz_cmdline.c lib/cmdline.c lib/cmdline.h lib/fmt.c lib/fmt.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) lib/cmdline.c lib/fmt.c tests/fuzz/fuzz_cmdline.c -o $@

tools: $(BUILD)/host/fuzz_cmdline
