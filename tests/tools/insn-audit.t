#!/bin/bash
# The instruction audit: the kernel image passes it, and each kind of
# forbidden instruction in ordinary code makes it fail, while the same
# instructions in .text_cpufeat are accepted.
. tests/tap-lib.sh
set -u
AS=i686-linux-gnu-as
tap_begin
tap_tmpdir

if [ -f "$CQ_BUILD/cryptoqual.elf" ]; then
	out=$(scripts/insn-audit.sh "$CQ_BUILD/cryptoqual.elf" 2>&1); rc=$?
	ok $rc "the kernel image has no post-i586 instruction outside .text_cpufeat"
	[ $rc -eq 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
else
	ok 1 "the kernel image exists at $CQ_BUILD/cryptoqual.elf (run make)"
fi

bad() {  # bad NAME ASM: ASM in .text must be flagged
	printf '.text\n.globl f\nf:\n%s\nret\n' "$2" > "$tmp/$1.s"
	$AS --32 -o "$tmp/$1.o" "$tmp/$1.s" || { ok 1 "assemble $1"; return; }
	out=$(scripts/insn-audit.sh "$tmp/$1.o" 2>&1); rc=$?
	[ $rc -eq 1 ]; ok $? "audit rejects $1 in .text ($(printf '%s' "$out" | head -n 1 | sed 's/.*: //'))"
	printf '.section .text_cpufeat,"ax"\n.globl g\ng:\n%s\nret\n' "$2" > "$tmp/$1-feat.s"
	$AS --32 -o "$tmp/$1-feat.o" "$tmp/$1-feat.s"
	scripts/insn-audit.sh "$tmp/$1-feat.o" >/dev/null 2>&1
	ok $? "audit accepts $1 in .text_cpufeat"
}
bad nopl 'nopl 0(%eax)'
bad nopw 'nopw 0(%eax,%eax,1)'
bad endbr32 'endbr32'
bad cmov 'cmovne %eax, %ebx'
bad fcomi 'fcomi %st(1), %st'
bad sse 'movaps %xmm0, %xmm1'
bad sse2 'pxor %xmm0, %xmm0'
bad mmx 'movq %mm0, %mm1'
bad aesni 'aesenc %xmm1, %xmm0'
bad pclmul 'pclmulqdq $0, %xmm1, %xmm0'
bad rdrand 'rdrand %eax'
bad rdseed 'rdseed %eax'
bad avx 'vpxor %xmm0, %xmm1, %xmm2'

printf '.text\n.globl f\nf:\nnop\nmovl $1,%%eax\nrep movsl\nrdtsc\ncpuid\nbswap %%eax\ncmpxchg8b (%%esi)\nret\n' > "$tmp/good.s"
$AS --32 -o "$tmp/good.o" "$tmp/good.s"
scripts/insn-audit.sh "$tmp/good.o" >/dev/null 2>&1
ok $? "audit accepts plain i586 code (nop, rep movs, rdtsc, cpuid, bswap, cmpxchg8b)"
tap_end
