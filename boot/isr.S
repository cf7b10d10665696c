/*
 * Exception entry stubs for vectors 0-31 (Intel SDM Vol. 3A, 6.3.1).
 * Each stub makes the stack look the same (a zero is pushed where the CPU
 * pushes no error code), pushes the vector and jumps to the common path,
 * which saves the general registers and calls exception_dispatch() with a
 * pointer to the struct trap_frame (kernel/platform/exceptions.h) it built.
 * If the handler returns, the (possibly modified) frame is restored.
 */
	.text

#define STUB_NOERR(n) \
	.globl isr_stub_##n; isr_stub_##n: pushl $0; pushl $n; jmp isr_common
#define STUB_ERR(n) \
	.globl isr_stub_##n; isr_stub_##n: pushl $n; jmp isr_common

STUB_NOERR(0)
STUB_NOERR(1)
STUB_NOERR(2)
STUB_NOERR(3)
STUB_NOERR(4)
STUB_NOERR(5)
STUB_NOERR(6)
STUB_NOERR(7)
STUB_ERR(8)
STUB_NOERR(9)
STUB_ERR(10)
STUB_ERR(11)
STUB_ERR(12)
STUB_ERR(13)
STUB_ERR(14)
STUB_NOERR(15)
STUB_NOERR(16)
STUB_ERR(17)
STUB_NOERR(18)
STUB_NOERR(19)
STUB_NOERR(20)
STUB_ERR(21)
STUB_NOERR(22)
STUB_NOERR(23)
STUB_NOERR(24)
STUB_NOERR(25)
STUB_NOERR(26)
STUB_NOERR(27)
STUB_NOERR(28)
STUB_ERR(29)
STUB_ERR(30)
STUB_NOERR(31)

isr_common:
	pushal
	cld                           /* C code expects DF=0 */
	movl %esp, %eax
	pushl %eax
	call exception_dispatch
	addl $4, %esp
	popal
	addl $8, %esp                 /* vector and error code */
	iretl

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
