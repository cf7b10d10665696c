/*
 * kjmp_set / kjmp_long: setjmp/longjmp for the kernel (no signal masks).
 * struct kjmp { ebx, esi, edi, ebp, esp, eip } (kernel/platform/exceptions.h).
 * Used to leave a test that faulted: the exception handler jumps back to the
 * test runner, which records the test as `not ok` and carries on.
 */
	.text
	.globl kjmp_set
	.type kjmp_set, @function
kjmp_set:
	movl 4(%esp), %eax
	movl %ebx, 0(%eax)
	movl %esi, 4(%eax)
	movl %edi, 8(%eax)
	movl %ebp, 12(%eax)
	leal 4(%esp), %ecx            /* caller's ESP after our return */
	movl %ecx, 16(%eax)
	movl (%esp), %ecx             /* return address */
	movl %ecx, 20(%eax)
	xorl %eax, %eax
	ret
	.size kjmp_set, . - kjmp_set

	.globl kjmp_long
	.type kjmp_long, @function
kjmp_long:
	movl 4(%esp), %edx
	movl 8(%esp), %eax
	testl %eax, %eax
	jnz 1f
	incl %eax
1:	movl 0(%edx), %ebx
	movl 4(%edx), %esi
	movl 8(%edx), %edi
	movl 12(%edx), %ebp
	movl 16(%edx), %esp
	jmp *20(%edx)
	.size kjmp_long, . - kjmp_long
