/*
 * insn-count: a QEMU TCG plugin (x86-64 shared object, loaded by
 * qemu-i386 -plugin) that counts the guest instructions an i386 program
 * executes and writes the running count whenever the program makes the
 * marker system call, so the program can delimit the code it wants counted
 * (tools/bench/bench-i386.c). It stands in for callgrind where the host
 * kernel cannot run i386 programs (valgrind's x86 tools need that); both
 * count executed guest instructions, deterministically.
 *
 *   qemu-i386 -plugin build/bench-i386/insn-count.so,out=FILE prog ...
 *
 * The marker is system call number INSN_MARK_SYSCALL (not a Linux system
 * call, so the kernel side answers ENOSYS); its first two arguments are
 * copied to the output, one line per marker: "mark A B COUNT".
 *
 * The API below is declared from QEMU's documented plugin interface
 * (docs/devel/tcg-plugins.rst, include/qemu/qemu-plugin.h, API version 1,
 * QEMU 7.2): Debian ships no header for it. Counts are added when a
 * translation block starts, so an instruction that faults mid-block would
 * be over-counted; the benchmark's code does not fault.
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
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*syscall_cb)(qemu_plugin_id_t id, unsigned int vcpu, int64_t num,
			   uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
			   uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id, syscall_cb cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb, void *userdata);

EXPORT int qemu_plugin_version = 1;

static uint64_t insns;		/* one vCPU: qemu-i386 runs a single-threaded program */
static FILE *out;

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insns,
						 qemu_plugin_tb_n_insns(tb));
}

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1,
		       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
		       uint64_t a7, uint64_t a8)
{
	(void)id, (void)vcpu, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7, (void)a8;
	if (num == INSN_MARK_SYSCALL)
		fprintf(out, "mark %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", a1, a2, insns);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	(void)id, (void)p;
	fprintf(out, "total %" PRIu64 "\n", insns);
	fflush(out);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	int i;

	(void)info;
	out = stderr;
	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "out=", 4) == 0) {
			out = fopen(argv[i] + 4, "w");
			if (!out) {
				perror(argv[i] + 4);
				return -1;
			}
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
