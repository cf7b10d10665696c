# The kernel's benchmark (kernel/bench*.c) built for the host over model
# engines of known cost: build/host/bench-model, run by
# tests/tools/bench-model.t (see tests/host/bench_model.c).

BENCH_MODEL := $(BUILD)/host/bench-model
BENCH_MODEL_SRC := tests/host/bench_model.c kernel/bench.c kernel/bench_aes.c kernel/bench_units.c kernel/bench_print.c

$(BENCH_MODEL): $(BENCH_MODEL_SRC) kernel/bench.h kernel/bench_int.h $(BUILD)/host/libcq.a
	@mkdir -p $(@D)
	$(HOSTCC) $(HCFLAGS) $(BENCH_MODEL_SRC) $(BUILD)/host/libcq.a -o $@

tools: $(BENCH_MODEL)
