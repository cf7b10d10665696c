#!/bin/bash
# The i386 benchmark against OpenSSL (make bench-i386, mk/bench-i386.mk):
#  1-3: the instruction counter (tools/bench/insn-count.c, a qemu-i386
#       plugin) counts exactly: 1000 NOPs, and a loop of 1 + 2 x 500
#       instructions, between two markers;
#  4:   the in-order cycle model (tools/bench/inorder-model.py) times a
#       snippet by its stated rules: an address-generation interlock, a
#       load-use delay, a taken branch, no stall for ESP after PUSH;
#  5-7: when the harness is built (make bench-i386: it needs libssl3:i386
#       from the package archive), its table has every cell, and the
#       software engine (lib/crypto/aes as the kernel builds it) takes at most as
#       many instructions per byte as OpenSSL's aes-586 on the Geode LX's
#       path for CBC encryption, CBC decryption and ECB;
#  8-9: AES-NI CTR takes at most as many instructions per byte as OpenSSL's
#       aesni-x86, and one 16-byte CTR call at most 1.3 times one 16-byte
#       ECB call (the fixed cost per call);
#  10:  the vector-permute engine (drivers/vperm) takes at most as many
#       instructions per byte as OpenSSL's vpaes-x86 in every cell;
#  11:  a 1024-bit Montgomery multiplication takes at most as many
#       instructions as OpenSSL's bn_mul_mont, integer and SSE2 paths;
#  12:  every row names the OpenSSL path it ran against;
#  13:  the cycle models (make bench-models, llvm-mca and the in-order
#       model) put the software AES at or below aes-586 on every model,
#       CBC encrypt and decrypt and ECB (SKIP without llvm-mca-14).
# Env: CQ_BUILD (build dir, default "build").
set -u
. tests/tap-lib.sh
build=$CQ_BUILD
tap_begin
tap_tmpdir

gcc -shared -fPIC -fvisibility=hidden -O2 -Wall -Wextra -Werror tools/bench/insn-count.c \
	-o "$tmp/insn-count.so" 2>"$tmp/err"
ok $? "the insn-count plugin builds" "$(cat "$tmp/err")"
cat > "$tmp/probe.c" <<'C'
#include <unistd.h>
#include <sys/syscall.h>
#define MARK(a, b) syscall(0x7ffe, a, b)
int main(void)
{
	MARK(1, 0);
	__asm__ volatile(".rept 1000\n\tnop\n\t.endr");
	MARK(1, 1);
	MARK(2, 0);
	__asm__ volatile("movl $500, %%ecx\n1:\tdecl %%ecx\n\tjnz 1b" : : : "ecx");
	MARK(2, 1);
	MARK(3, 0);
	MARK(3, 1);
	return 0;
}
C
if i686-linux-gnu-gcc -O1 "$tmp/probe.c" -o "$tmp/probe" 2>"$tmp/err" &&
	qemu-i386 -L /usr/i686-linux-gnu -plugin "$tmp/insn-count.so,out=$tmp/marks" "$tmp/probe" &&
	[ -s "$tmp/marks" ]; then
	# Interval k: count at mark (k,1) - count at (k,0); interval 3 is the markers' own cost.
	read -r nops loop <<<"$(awk '$1 == "mark" { at[$2 "," $3] = $4 }
		END { base = at["3,1"] - at["3,0"]; print at["1,1"] - at["1,0"] - base, at["2,1"] - at["2,0"] - base }' "$tmp/marks")"
	[ "$nops" = 1000 ]; ok $? "1000 NOPs count 1000" "got $nops"
	[ "$loop" = 1001 ]; ok $? "a 500-pass loop counts 1001" "got $loop"
else
	ok 1 "1000 NOPs count 1000" "the probe does not run under qemu-i386 with the plugin:" "$(cat "$tmp/err")"
	ok 1 "a 500-pass loop counts 1001" "the probe does not run under qemu-i386 with the plugin"
fi

# Cycles by the model's rules: movzbl 0; xorl waits for %esi as an address
# (ready at 1, needed one cycle early: issues at 2, its load result at 4);
# movzbl 3; xorl 5; shrl 6; a taken jb 7 (two cycles); pushl 9 and 10 (ESP
# never stalls a push); movl 4(%esp) 11; the end is cycle 12. Then a load
# feeding an ALU operation: movl 0; addl waits for the load (2); 3 in all.
cat > "$tmp/model.s" <<'S'
movzbl %al, %esi
xorl 134516736(,%esi,4), %ebx
movzbl %ah, %esi
xorl 134517760(,%esi,4), %ecx
shrl $16, %eax
jb .Lx # taken
.Lx:
pushl %ebx
pushl %ecx
movl 4(%esp), %eax
S
printf 'movl 8(%%esp), %%eax\naddl %%eax, %%edx\n' > "$tmp/load.s"
got=$(python3 tools/bench/inorder-model.py "$tmp/model.s" "$tmp/load.s" | awk '{ printf "%s ", $3 }')
[ "$got" = "12 3 " ]
ok $? "the in-order model times a known snippet by its rules (an AGI, a load-use delay, a taken branch: 12 and 3 cycles)" \
	"got: $got"

bin=$build/bench-i386/bench-i386
names="make bench-i386's table runs (ours and OpenSSL agree in every cell)
60 cells: 4 OpenSSL paths x 5 modes x 3 key sizes
software AES <= OpenSSL aes-586 (Geode LX path) in instructions per byte: CBC encrypt, CBC decrypt, ECB
AES-NI CTR <= OpenSSL aesni-x86 in instructions per byte (128, 192, 256)
one 16-byte AES-NI CTR call costs at most 1.3 ECB calls in instructions
vector-permute AES <= OpenSSL vpaes-x86 in instructions per byte (15 cells)
1024-bit montmul <= OpenSSL bn_mul_mont in instructions (integer and SSE2 paths)
every row names its OpenSSL path (aes-586, aes-586+sse, vpaes-x86, aesni-x86, bn_mul_mont integer and sse2)
software AES <= aes-586 on every cycle model (make bench-models)"
if [ ! -x "$bin" ]; then
	while IFS= read -r name; do
		tap_skip "$name" "$bin not built (make bench-i386 downloads libssl3:i386)"
	done <<<"$names"
	tap_end
fi
tools/bench/bench-i386.sh "$bin" "$tmp/insn-count.so" > "$tmp/table" 2>"$tmp/err"
ok $? "make bench-i386's table runs (ours and OpenSSL agree in every cell)" "$(cat "$tmp/err")"
sed 's/^/# /' "$tmp/table"
cells=$(grep -c -E '^  (ecb-encrypt|ecb-decrypt|cbc-encrypt|cbc-decrypt|ctr) (128|192|256) +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+x' "$tmp/table")
[ "$cells" = 60 ]; ok $? "60 cells: 4 OpenSSL paths x 5 modes x 3 key sizes" "got $cells"
over=$(awk '/^geode-lx/ { on = 1; next } /^[a-z]/ { on = 0 }
	on && $1 ~ /^(cbc-encrypt|cbc-decrypt|ecb-encrypt|ecb-decrypt)$/ && $3 > $4 { print }' "$tmp/table")
geode=$(grep -c '^geode-lx .* on aes-586 ' "$tmp/table")
[ "$geode" = 1 ] && [ -z "$over" ]
ok $? "software AES <= OpenSSL aes-586 (Geode LX path) in instructions per byte: CBC encrypt, CBC decrypt, ECB" \
	"$(printf '%s\n' "$over" | sed 's/^/over: /')"
over=$(awk '/^aes-ni/ { on = 1; next } /^[a-z]/ { on = 0 } on && $1 == "ctr" && $3 > $4 { print }' "$tmp/table")
n_ctr=$(awk '/^aes-ni/ { on = 1; next } /^[a-z]/ { on = 0 } on && $1 == "ctr" { n++ } END { print n + 0 }' "$tmp/table")
[ "$n_ctr" = 3 ] && [ -z "$over" ]
ok $? "AES-NI CTR <= OpenSSL aesni-x86 in instructions per byte (128, 192, 256)" \
	"$(printf '%s\n' "$over" | sed 's/^/over: /')"
ratio=$(sed -nE 's/.*ctr\/ecb ours ([0-9.]+)x.*/\1/p' "$tmp/table")
[ -n "$ratio" ] && awk -v r="$ratio" 'BEGIN { exit !(r <= 1.3) }'
ok $? "one 16-byte AES-NI CTR call costs at most 1.3 ECB calls in instructions (${ratio:-no figure}x)"
over=$(awk '/^nano/ { on = 1; next } /^[a-z]/ { on = 0 } on && $1 ~ /^(ecb|cbc|ctr)/ && $3 > $4 { print }' "$tmp/table")
n_vp=$(awk '/^nano .* on vpaes-x86 / { on = 1; next } /^[a-z]/ { on = 0 } on && $1 ~ /^(ecb|cbc|ctr)/ { n++ } END { print n + 0 }' "$tmp/table")
[ "$n_vp" = 15 ] && [ -z "$over" ]
ok $? "vector-permute AES <= OpenSSL vpaes-x86 in instructions per byte (15 cells)" \
	"got $n_vp cells" "$(printf '%s\n' "$over" | sed 's/^/over: /')"
mont=$(awk '/^  (integer|sse2) / && $NF ~ /^[0-9]+$/ { n++; if ($(NF - 3) > $(NF - 2)) bad = bad " " $1 } END { print n + 0, bad }' "$tmp/table")
[ "$mont" = "2 " ]
ok $? "1024-bit montmul <= OpenSSL bn_mul_mont in instructions (integer and SSE2 paths)" "rows, over: $mont"
paths=$(grep -cE '^(geode-lx .* on aes-586 |c3 .* on aes-586\+sse |nano .* on vpaes-x86 |aes-ni .* on aesni-x86 )' "$tmp/table")
mpaths=$(grep -cE '^  (integer|sse2) .* bn_mul_mont (integer|sse2) ' "$tmp/table")
[ "$paths" = 4 ] && [ "$mpaths" = 2 ]
ok $? "every row names its OpenSSL path (aes-586, aes-586+sse, vpaes-x86, aesni-x86, bn_mul_mont integer and sse2)" \
	"$paths AES paths, $mpaths montmul paths"
if ! command -v llvm-mca-14 >/dev/null 2>&1 || ! command -v llvm-mc-14 >/dev/null 2>&1; then
	tap_skip "software AES <= aes-586 on every cycle model (make bench-models)" \
		"llvm-mca-14 not installed (scripts/install-deps.sh installs llvm-14)"
else
	tools/bench/bench-models.py "$bin" "$tmp/insn-count.so" > "$tmp/models" 2>"$tmp/err"
	ok $? "software AES <= aes-586 on every cycle model (make bench-models)" "$(cat "$tmp/models" "$tmp/err")"
	sed 's/^/# /' "$tmp/models"
fi
tap_end
