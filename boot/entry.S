/*
 * Multiboot (v1) header and kernel entry.
 * Multiboot Specification 0.6.96, section 3.1: the header is 4-byte aligned
 * within the first 8 KiB of the image; EAX holds 0x2BADB002 and EBX the
 * physical address of the multiboot information structure at entry.
 */
#define MB_MAGIC        0x1BADB002
#define MB_FLAG_ALIGN   (1 << 0)  /* modules page-aligned */
#define MB_FLAG_MEMINFO (1 << 1)  /* we want mem_* and the memory map */
#define MB_FLAGS        (MB_FLAG_ALIGN | MB_FLAG_MEMINFO)

#define STACK_SIZE      (64 * 1024)

	.section .multiboot, "a"
	.p2align 2
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	.section .text.entry, "ax"
	.globl _start
	.type _start, @function
_start:
	cli
	cld
	movl %eax, %esi               /* loader magic */
	movl %ebx, %ebp               /* multiboot info pointer */
	/* Zero .bss ourselves: not every loader does. No stack needed. */
	movl $__bss_start, %edi
	movl $__bss_end, %ecx
	subl %edi, %ecx
	xorl %eax, %eax
	rep stosb
	movl $boot_stack_top, %esp
	xorl %eax, %eax
	pushl %eax                    /* clean EFLAGS: IF=0, DF=0, AC=0 */
	popfl
	/* The i386 System V ABI (as GCC applies it) wants ESP 16-byte aligned
	 * at every call: SSE code keeps aligned locals on the stack. */
	subl $8, %esp
	pushl %ebp
	pushl %esi
	call kmain
	/* kmain does not return; if it does, stop here. */
1:	cli
	hlt
	jmp 1b
	.size _start, . - _start

	.section .bss
	.p2align 4
	.globl boot_stack_bottom
boot_stack_bottom:
	.skip STACK_SIZE
	.globl boot_stack_top
boot_stack_top:
