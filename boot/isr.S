/*
 * Exception and IRQ entry stubs for vectors 0-47 (Intel SDM Vol. 3A, 6.3.1,
 * 6.12.1). Each stub first records its vector in isr_last_vector (a plain
 * byte store: no register changes), makes the stack look the same (a zero is
 * pushed where the CPU pushes no error code), pushes the vector and jumps to
 * the common path, which saves the general registers and calls
 * exception_dispatch() with a pointer to the struct trap_frame
 * (kernel/platform/exceptions.h) it built. If the handler returns, the
 * (possibly modified) frame is restored.
 *
 * Which vectors push an error code (Table 6-1): 8, 10-14, 17, 21, 29, 30.
 * exc_has_error_code() in exceptions.c holds the same table; the vector
 * self-tests (selftest=vectors) check both against what the CPU pushed.
 *
 * A stack pointer outside the kernel stack (a test that wrecked ESP) means
 * the frame went wherever ESP pointed: the common path then switches to a
 * rescue stack and calls exception_bad_stack(), which reports it and leaves
 * the test, instead of running the handler on a stack that may not exist.
 *
 * Vector 8 (#DF) arrives through a task gate at df_task_entry, on its own
 * TSS and stack: see df_task_handler() in exceptions.c.
 */
	.text

/*
 * A stub is 11 or 13 bytes: the vector goes to isr_last_vector as a byte
 * (vectors are below 48; the other bytes stay zero), and every eighth stub
 * is followed by the one long jump to isr_common that the stubs before it
 * reach with a short one (GAS picks the 2-byte form): 240 bytes less than
 * a 32-bit store and a long jump in every stub.
 */
#define STUB_NOERR(n) \
	.globl isr_stub_##n; isr_stub_##n: movb $n, isr_last_vector; pushl $0; pushl $n; jmp 9f
#define STUB_ERR(n) \
	.globl isr_stub_##n; isr_stub_##n: movb $n, isr_last_vector; pushl $n; jmp 9f
#define STUB_GROUP_END \
	9: jmp isr_common
STUB_NOERR(0)
STUB_NOERR(1)
STUB_NOERR(2)
STUB_NOERR(3)
STUB_NOERR(4)
STUB_NOERR(5)
STUB_NOERR(6)
STUB_NOERR(7)
STUB_GROUP_END
STUB_ERR(8)
STUB_NOERR(9)
STUB_ERR(10)
STUB_ERR(11)
STUB_ERR(12)
STUB_ERR(13)
STUB_ERR(14)
STUB_NOERR(15)
STUB_GROUP_END
STUB_NOERR(16)
STUB_ERR(17)
STUB_NOERR(18)
STUB_NOERR(19)
STUB_NOERR(20)
STUB_ERR(21)
STUB_NOERR(22)
STUB_NOERR(23)
STUB_GROUP_END
STUB_NOERR(24)
STUB_NOERR(25)
STUB_NOERR(26)
STUB_NOERR(27)
STUB_NOERR(28)
STUB_ERR(29)
STUB_ERR(30)
STUB_NOERR(31)
STUB_GROUP_END
STUB_NOERR(32)
STUB_NOERR(33)
STUB_NOERR(34)
STUB_NOERR(35)
STUB_NOERR(36)
STUB_NOERR(37)
STUB_NOERR(38)
STUB_NOERR(39)
STUB_GROUP_END
STUB_NOERR(40)
STUB_NOERR(41)
STUB_NOERR(42)
STUB_NOERR(43)
STUB_NOERR(44)
STUB_NOERR(45)
STUB_NOERR(46)
STUB_NOERR(47)
STUB_GROUP_END

isr_common:
	pushal
	cld                           /* C code expects DF=0 */
	cmpl $boot_stack_bottom, %esp
	jb 2f
	cmpl $boot_stack_top, %esp
	ja 2f
	movl %esp, %eax
	pushl %eax
	call exception_dispatch
	addl $4, %esp
	popal
	addl $8, %esp                 /* vector and error code */
	iretl
2:	/* ESP outside the kernel stack: the frame is wherever ESP pointed. */
	movl %esp, %eax
	movl $rescue_stack_top, %esp
	subl $12, %esp                /* keep the call 16-byte aligned */
	pushl %eax
	call exception_bad_stack      /* does not return */
3:	cli
	hlt
	jmp 3b

/*
 * The double-fault task. Entered through the task gate with the error code
 * (always 0) on its fresh stack; df_task_handler() reports the fault and
 * either rewrites the interrupted task's saved state in tss_main so that
 * IRET (NT is set: a return to the previous task) resumes in the test's
 * guard, or bails out. The CPU saves this task's EIP at the IRET, so the
 * next double fault continues at the jmp: back to the top, stack balanced.
 */
	.globl df_task_entry
df_task_entry:
	call df_task_handler          /* argument: the error code on the stack */
	addl $4, %esp
	iretl
	jmp df_task_entry

	.section .bss
	.p2align 4
rescue_stack:
	.skip 8192
rescue_stack_top:
	.globl isr_last_vector
	.p2align 2
isr_last_vector:
	.skip 4

	.section .rodata
	.p2align 2
	.globl isr_stub_table
isr_stub_table:
	.long isr_stub_0, isr_stub_1, isr_stub_2, isr_stub_3
	.long isr_stub_4, isr_stub_5, isr_stub_6, isr_stub_7
	.long isr_stub_8, isr_stub_9, isr_stub_10, isr_stub_11
	.long isr_stub_12, isr_stub_13, isr_stub_14, isr_stub_15
	.long isr_stub_16, isr_stub_17, isr_stub_18, isr_stub_19
	.long isr_stub_20, isr_stub_21, isr_stub_22, isr_stub_23
	.long isr_stub_24, isr_stub_25, isr_stub_26, isr_stub_27
	.long isr_stub_28, isr_stub_29, isr_stub_30, isr_stub_31
	.long isr_stub_32, isr_stub_33, isr_stub_34, isr_stub_35
	.long isr_stub_36, isr_stub_37, isr_stub_38, isr_stub_39
	.long isr_stub_40, isr_stub_41, isr_stub_42, isr_stub_43
	.long isr_stub_44, isr_stub_45, isr_stub_46, isr_stub_47
