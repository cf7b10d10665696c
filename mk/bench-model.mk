# The kernel's benchmark (kernel/run/bench*.c) built for the host over model
# engines of known cost: build/host/bench-model, run by
# tests/kernel/run/bench-model.t (see tests/kernel/run/test_bench_model.c).

BENCH_MODEL := $(BUILD)/host/bench-model
BENCH_MODEL_SRC := tests/kernel/run/test_bench_model.c kernel/run/bench.c kernel/run/bench_aes.c kernel/run/bench_units.c \
	kernel/run/bench_print.c kernel/run/bench_time.c

$(BENCH_MODEL): $(BENCH_MODEL_SRC) kernel/run/bench.h kernel/run/bench_int.h $(BUILD)/host/libcq.a
	@mkdir -p $(@D)
	$(HOSTCC) $(HCFLAGS) $(BENCH_MODEL_SRC) $(BUILD)/host/libcq.a -o $@

tools: $(BENCH_MODEL)
