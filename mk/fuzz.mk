# libFuzzer targets (Debian clang, ASan + UBSan) for every parser of outside
# input: the kernel command line, the CPUID dump reader, the PCI listing
# reader, the CAVP .rsp reader, and the received-packet parsers of lib/net
# (Ethernet/ARP/IPv4/UDP, DHCP, TFTP) (tests/fuzz/fuzz_<name>.c, seed corpus
# tests/fuzz/corpus_<name>/). lib/ is built once more with the sanitizers
# and coverage into $(BUILD)/fuzz/.
#
#   make fuzz                         build every target ($(BUILD)/host/fuzz_*)
#   make fuzz-long [FUZZ_SECONDS=600] fuzz each for FUZZ_SECONDS (default 300),
#                                     corpus growing in $(BUILD)/fuzz/corpus/<name>/
#   make fuzz-long FUZZ_RUNS=10000000 [FUZZ_NAMES="dhcp tftp"]
#                                     each for a number of executions instead
# make check runs a short replay and fuzz of each (tests/fuzz/*.t). Crash
# files always go to $(BUILD)/fuzz/artifacts/, never into the tree.
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -g -O1 $(FUZZ_SAN) -I.
FUZZ_NAMES := cmdline cpuid_dump pci_listing cavp_rsp net_frame dhcp tftp
FUZZ_BINS := $(patsubst %,$(BUILD)/host/fuzz_%,$(FUZZ_NAMES))
FUZZ_LIB_OBJS := $(patsubst %,$(BUILD)/fuzz/obj/%.o,$(LIB_SRC) $(LIB_HOST_SRC))
FUZZ_SECONDS ?= 300
FUZZ_RUNS ?=
FUZZ_LIMIT = $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_SECONDS))

$(BUILD)/fuzz/obj/%.c.o: %.c
	@mkdir -p $(@D)
	@echo "  FUZZCC  $<"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(BUILD)/fuzz/libcq.a: $(FUZZ_LIB_OBJS)
	rm -f $@
	ar rcsD $@ $^

$(BUILD)/host/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(BUILD)/fuzz/libcq.a
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(BUILD)/fuzz/libcq.a -o $@

.PHONY: fuzz fuzz-long
fuzz: $(FUZZ_BINS)
tools: $(FUZZ_BINS)

fuzz-long: $(FUZZ_BINS)
	@mkdir -p $(BUILD)/fuzz/artifacts
	@set -e; for n in $(FUZZ_NAMES); do \
		mkdir -p $(BUILD)/fuzz/corpus/$$n; \
		dict=""; [ -f tests/fuzz/$$n.dict ] && dict="-dict=tests/fuzz/$$n.dict"; \
		log=$(BUILD)/fuzz/$$n.log; rc=0; \
		echo "fuzz-long: $$n $(FUZZ_LIMIT) (log $$log)"; \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(BUILD)/host/fuzz_$$n \
			$(FUZZ_LIMIT) $$dict -print_final_stats=1 \
			-artifact_prefix=$(BUILD)/fuzz/artifacts/$$n- \
			$(BUILD)/fuzz/corpus/$$n tests/fuzz/corpus_$$n >$$log 2>&1 || rc=$$?; \
		grep -E '^(Done|stat::number_of_executed_units|stat::average_exec_per_sec|==|SUMMARY|.*ERROR)' $$log || true; \
		if [ $$rc -ne 0 ]; then echo "fuzz-long: fuzz_$$n exited $$rc: a crash or a sanitizer report, see $$log"; exit 1; fi; \
	done
