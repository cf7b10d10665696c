/*
 * insn-count: a QEMU TCG plugin (x86-64 shared object, loaded by
 * qemu-i386 -plugin) that counts the guest instructions an i386 program
 * executes and writes the running count whenever the program makes the
 * marker system call, so the program can delimit the code it wants counted
 * (tools/bench/bench-i386.c). It stands in for callgrind where the host
 * kernel cannot run i386 programs (valgrind's x86 tools need that); both
 * count executed guest instructions, deterministically.
 *
 *   qemu-i386 -plugin build/bench-i386/insn-count.so,out=FILE[,trace=FILE,
 *             trace_from=N][,calls=FILE] prog ...
 *
 * The marker is system call number INSN_MARK_SYSCALL (not a Linux system
 * call, so the kernel side answers ENOSYS); its first two arguments are
 * copied to the output, one line per marker: "mark A B COUNT". A segment
 * is the code run from one marker to the next, named by that marker's A B.
 *
 * trace=FILE (with trace_from=N): every instruction executed in a segment
 * whose A is at least N, in order: "seg A B" at each such marker, then
 * "i VADDR BYTES" (hex) per instruction (tools/bench/bench-models.py turns
 * that into the instruction stream the cycle models read).
 *
 * calls=FILE: the functions called in each segment: at exit one line
 * "func A B ENTRY CALLS INSNS LEAF" per (segment, entry address): CALLS
 * calls made in that segment, INSNS the instructions executed from the
 * call to the matching return (callees included, the call itself not,
 * the return counted), LEAF 1 when none of those calls called anything.
 * Calls are CALL rel32 and CALL r/m32 (FF /2); a CALL to the next
 * instruction (rel32 0, position-independent code reading its own address)
 * is not a call. Returns are RET and RET imm16.
 *
 * The API below is declared from QEMU's documented plugin interface
 * (docs/devel/tcg-plugins.rst, include/qemu/qemu-plugin.h, API version 1,
 * QEMU 7.2): Debian ships no header for it. Each instruction adds one to
 * the count as it executes (an inline add per instruction, not one per
 * translation block: QEMU 7.2 counted one instruction too many for every
 * run of a block that it cut short, which a loop of SSE instructions
 * crossing a page showed as one extra instruction per iteration).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INSN_MARK_SYSCALL	0x7ffe	/* tools/bench/bench-i386.c uses the same */

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;		/* not read */
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };

typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*syscall_cb)(qemu_plugin_id_t id, unsigned int vcpu, int64_t num,
			   uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
			   uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *userdata);
typedef void (*vcpu_udata_cb)(unsigned int vcpu, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op,
						void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, vcpu_udata_cb cb,
					  enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, vcpu_udata_cb cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id, syscall_cb cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb, void *userdata);

EXPORT int qemu_plugin_version = 1;

static uint64_t insns;		/* one vCPU: qemu-i386 runs a single-threaded program */
static FILE *out;
static uint64_t seg_a, seg_b;	/* the current segment: the last marker's arguments */
static int in_seg;		/* a marker has been seen */

/* ---- trace= ---- */

static FILE *trace;
static uint64_t trace_from = UINT64_MAX;
static int tracing;

struct insn_rec {
	uint64_t vaddr;
	unsigned len;
	uint8_t bytes[16];
};

static void on_insn_trace(unsigned int vcpu, void *p)
{
	const struct insn_rec *r = p;
	unsigned i;

	(void)vcpu;
	if (!tracing)
		return;
	fprintf(trace, "i %" PRIx64 " ", r->vaddr);
	for (i = 0; i < r->len; i++)
		fprintf(trace, "%02x", r->bytes[i]);
	fputc('\n', trace);
}

/* ---- calls= ---- */

static FILE *calls;

#define STACK_MAX	4096
#define FUNCS_MAX	4096

struct frame {
	uint64_t at_call, entry, a, b;
	int made_call, have_entry;
};
static struct frame stack[STACK_MAX];
static unsigned depth;
static int want_entry;		/* the next block to run is a callee's entry */

struct func {
	uint64_t a, b, entry, calls, insns;
	int used, leaf;
};
static struct func funcs[FUNCS_MAX];

static void func_add(const struct frame *f, uint64_t n)
{
	unsigned h = (unsigned)((f->entry * 2654435761u) ^ (f->a * 40503u) ^ f->b) % FUNCS_MAX, k;

	for (k = 0; k < FUNCS_MAX; k++, h = (h + 1) % FUNCS_MAX) {
		struct func *g = &funcs[h];
		if (!g->used) {
			g->used = 1;
			g->a = f->a;
			g->b = f->b;
			g->entry = f->entry;
			g->leaf = 1;
		} else if (g->a != f->a || g->b != f->b || g->entry != f->entry) {
			continue;
		}
		g->calls++;
		g->insns += n;
		if (f->made_call)
			g->leaf = 0;
		return;
	}
}

static void on_call(unsigned int vcpu, void *p)
{
	(void)vcpu, (void)p;
	if (depth > 0)
		stack[depth - 1].made_call = 1;
	if (depth == STACK_MAX)
		return;
	stack[depth].at_call = insns;
	stack[depth].a = seg_a;
	stack[depth].b = seg_b;
	stack[depth].made_call = 0;
	stack[depth].have_entry = 0;
	depth++;
	want_entry = 1;
}

static void on_ret(unsigned int vcpu, void *p)
{
	(void)vcpu, (void)p;
	if (depth == 0)
		return;		/* returning from a function entered before the first call seen */
	depth--;
	if (in_seg && stack[depth].have_entry)
		func_add(&stack[depth], insns - stack[depth].at_call);
}

static void on_tb_exec(unsigned int vcpu, void *p)
{
	(void)vcpu;
	if (want_entry && depth > 0) {
		stack[depth - 1].entry = (uint64_t)(uintptr_t)p;
		stack[depth - 1].have_entry = 1;
	}
	want_entry = 0;
}

/* 1 for a call, 2 for a return, 0 otherwise (see the header). */
static int insn_kind(const uint8_t *b, size_t n)
{
	if (n == 5 && b[0] == 0xe8)
		return (b[1] | b[2] | b[3] | b[4]) ? 1 : 0;
	if (n >= 2 && b[0] == 0xff && ((b[1] >> 3) & 7) == 2)
		return 1;
	if ((n == 1 && b[0] == 0xc3) || (n == 3 && b[0] == 0xc2))
		return 2;
	return 0;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;

	(void)id;
	if (calls)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)qemu_plugin_tb_vaddr(tb));
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *b = qemu_plugin_insn_data(in);
		size_t len = qemu_plugin_insn_size(in);

		qemu_plugin_register_vcpu_insn_exec_inline(in, QEMU_PLUGIN_INLINE_ADD_U64, &insns, 1);
		if (trace) {
			struct insn_rec *r = calloc(1, sizeof(*r));
			if (r && len <= sizeof(r->bytes)) {
				r->vaddr = qemu_plugin_insn_vaddr(in);
				r->len = (unsigned)len;
				memcpy(r->bytes, b, len);
				qemu_plugin_register_vcpu_insn_exec_cb(in, on_insn_trace,
								       QEMU_PLUGIN_CB_NO_REGS, r);
			}
		}
		if (calls) {
			int k = insn_kind(b, len);
			if (k == 1)
				qemu_plugin_register_vcpu_insn_exec_cb(in, on_call, QEMU_PLUGIN_CB_NO_REGS, NULL);
			else if (k == 2)
				qemu_plugin_register_vcpu_insn_exec_cb(in, on_ret, QEMU_PLUGIN_CB_NO_REGS, NULL);
		}
	}
}

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1,
		       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
		       uint64_t a7, uint64_t a8)
{
	(void)id, (void)vcpu, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7, (void)a8;
	if (num != INSN_MARK_SYSCALL)
		return;
	fprintf(out, "mark %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", a1, a2, insns);
	seg_a = a1;
	seg_b = a2;
	in_seg = 1;
	tracing = trace && a1 >= trace_from;
	if (tracing)
		fprintf(trace, "seg %" PRIu64 " %" PRIu64 "\n", a1, a2);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	unsigned i;

	(void)id, (void)p;
	fprintf(out, "total %" PRIu64 "\n", insns);
	fflush(out);
	if (trace)
		fflush(trace);
	if (calls) {
		for (i = 0; i < FUNCS_MAX; i++)
			if (funcs[i].used)
				fprintf(calls, "func %" PRIu64 " %" PRIu64 " %" PRIx64 " %" PRIu64 " %" PRIu64 " %d\n",
					funcs[i].a, funcs[i].b, funcs[i].entry, funcs[i].calls,
					funcs[i].insns, funcs[i].leaf);
		fflush(calls);
	}
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		perror(path);
	return f;
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	int i;

	(void)info;
	out = stderr;
	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "out=", 4) == 0) {
			if (!(out = open_out(argv[i] + 4)))
				return -1;
		} else if (strncmp(argv[i], "trace=", 6) == 0) {
			if (!(trace = open_out(argv[i] + 6)))
				return -1;
		} else if (strncmp(argv[i], "trace_from=", 11) == 0) {
			trace_from = strtoull(argv[i] + 11, NULL, 0);
		} else if (strncmp(argv[i], "calls=", 6) == 0) {
			if (!(calls = open_out(argv[i] + 6)))
				return -1;
		} else {
			fprintf(stderr, "insn-count: unknown argument '%s'\n", argv[i]);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
