#!/bin/sh
# The i386 benchmark table (make bench-i386; see tools/bench/bench-i386.c):
# runs build/bench-i386/bench-i386 under qemu-i386 with the insn-count
# plugin for instructions per byte, once per OpenSSL path, and natively for
# wall-clock time where this kernel runs i386 programs, then prints one
# table: ours / OpenSSL per cell, and the Montgomery multiplication.
#
#   tools/bench/bench-i386.sh BENCH_BINARY PLUGIN
#
# OpenSSL paths (OPENSSL_ia32cap(3): its first vector is CPUID leaf 1 EDX
# in bits 0-31 and ECX in bits 32-63, taken from the CPUID dumps in the
# shared data, cpuid/; each row names the path OpenSSL takes with it):
#   geode-lx  0x0088a93d:0   AMD Geode LX: no SSE, OpenSSL runs aes-586 on
#                            the integer registers
#   c3        0x0381b93f:0   VIA C3 Nehemiah: SSE (MMX-register code in
#                            aes-586), no SSE2
#   nano      0x00006389afc9fbff:0
#                            VIA Nano: SSSE3, no AES-NI: OpenSSL runs
#                            vpaes-x86; ours is the vector-permute engine
#                            (drivers/vperm)
#   aes-ni    unset          qemu -cpu max's own CPUID: aesni-x86
#   montmul   0x0088a93d:0 (integer) and the C7's 0x00000181a7c9bbff:0
#             (SSE2): bn_mul_mont's two paths, 1024-bit operands
# Exit status: 0, or 1 when a run failed (including a mismatch between our
# output and OpenSSL's), 2 on a usage error.
set -u
[ $# -eq 2 ] || { echo "usage: bench-i386.sh BENCH_BINARY PLUGIN" >&2; exit 2; }
bin=$1
plugin=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
QEMU="qemu-i386 -cpu max -L /usr/i686-linux-gnu"

# name engine ia32cap
runs="geode-lx soft 0x0088a93d:0
c3 soft 0x0381b93f:0
nano vperm 0x00006389afc9fbff:0
aes-ni aesni -
integer montmul 0x0088a93d:0
sse2 montmul 0x00000181a7c9bbff:0"

native=no
if "$bin" --probe-native >/dev/null 2>&1; [ $? -eq 2 ]; then
	native=yes	# the usage error came from the program itself: it ran
fi

status=0
echo "$runs" | while read -r name engine cap; do
	if [ "$cap" = - ]; then set -- env -u OPENSSL_ia32cap; else set -- env OPENSSL_ia32cap="$cap"; fi
	"$@" $QEMU -plugin "$plugin,out=$tmp/$name.count,calls=$tmp/$name.calls" "$bin" "$engine" \
		> "$tmp/$name.out" || { echo "bench-i386: the $name run failed" >&2; exit 1; }
	if [ $native = yes ] && [ "$engine" != montmul ]; then
		"$@" "$bin" "$engine" --time > "$tmp/$name.time" ||
			{ echo "bench-i386: the timed $name run failed" >&2; exit 1; }
	else
		: > "$tmp/$name.time"
	fi
done || status=1
[ $status -eq 0 ] || exit 1

echo "$runs" | while read -r name engine cap; do
	[ "$engine" = montmul ] && continue
	awk -v name="$name" -v native=$native '
	FILENAME ~ /\.out$/ && $1 == "openssl" { path = $NF; ver = $3; capv = $(NF - 2) }
	FILENAME ~ /\.out$/ && $1 == "cell" { what[$2] = $4 " " $5; bytes[$2] = $6 * $7; n = $2 }
	FILENAME ~ /\.out$/ && $1 == "call16" { c16[$2] = $3; calls[$2] = $4 }
	FILENAME ~ /\.count$/ && $1 == "mark" { at[$2 "," $3] = $4 }
	FILENAME ~ /\.time$/ && $1 == "time" { to[$2] = $3; tt[$2] = $4 }
	END {
		base = at["0,1"] - at["0,0"]
		printf "%-9s OpenSSL %s on %s (OPENSSL_ia32cap %s)\n", name, ver, path, capv
		for (i = 1; i <= n; i++) {
			io = (at[i ",1"] - at[i ",0"] - base) / bytes[i]
			it = (at[i ",2"] - at[i ",1"] - base) / bytes[i]
			if (native == "yes" && (i in to))
				tcol = sprintf("%8.3f %8.3f %6.2fx", to[i], tt[i], to[i] / tt[i])
			else
				tcol = sprintf("%8s %8s %7s", "-", "-", "-")
			printf "  %-16s %8.2f %8.2f %6.2fx   %s\n", what[i], io, it, io / it, tcol
		}
		if ((101 in c16) && (102 in c16)) {
			for (i = 101; i <= 102; i++) {
				po[i] = (at[i ",1"] - at[i ",0"] - base) / calls[i]
				pt[i] = (at[i ",2"] - at[i ",1"] - base) / calls[i]
			}
			printf "  one 16-byte call, instructions (ours, OpenSSL): ecb-encrypt 128 %.0f, %.0f; ctr 128 %.0f, %.0f; ctr/ecb ours %.2fx (OpenSSL %.2fx)\n", po[101], pt[101], po[102], pt[102], po[102] / po[101], pt[102] / pt[101]
		}
	}' "$tmp/$name.out" "$tmp/$name.count" "$tmp/$name.time"
done > "$tmp/table"

# Montgomery multiplication: ours per operation, bn_mul_mont per call (the
# leaf function that ran the most instructions inside BN_mod_mul_montgomery,
# from the plugin's calls= output), and BN_mod_mul_montgomery per call.
echo "$runs" | while read -r name engine cap; do
	[ "$engine" = montmul ] || continue
	awk -v name="$name" '
	FILENAME ~ /\.out$/ && $1 == "openssl" { ver = $3; capv = $(NF - 2) }
	FILENAME ~ /\.out$/ && $1 == "mont" { id = $2; path = $3; reps = $4; ours = $5 }
	FILENAME ~ /\.count$/ && $1 == "mark" { at[$2 "," $3] = $4 }
	FILENAME ~ /\.calls$/ && $1 == "func" && $7 == 1 && $2 == id && $3 == 1 &&
		$6 + 0 > best { best = $6 + 0; bcalls = $5 }
	END {
		base = at["0,1"] - at["0,0"]
		o = (at[id ",1"] - at[id ",0"] - base) / reps
		t = (at[id ",2"] - at[id ",1"] - base) / reps
		m = bcalls ? best / bcalls : 0
		printf "  %-7s %-20s %-44s %7.0f %7.0f %6.2fx  %7.0f\n", name, ours, "bn_mul_mont " path " (" capv ")", o, m, m ? o / m : 0, t
	}' "$tmp/$name.out" "$tmp/$name.count" "$tmp/$name.calls"
done > "$tmp/mont"

printf '%-18s %8s %8s %7s   %8s %8s %7s\n' "" "insn/B" "insn/B" "" "ns/B" "ns/B" ""
printf '%-18s %8s %8s %7s   %8s %8s %7s\n' "cell (8 KiB)" "ours" "OpenSSL" "ratio" "ours" "OpenSSL" "ratio"
cat "$tmp/table"
echo "montmul   1024-bit Montgomery multiplication, instructions per operation: ours (product, reduction, final subtraction) against OpenSSL $(awk '$1 == "openssl" { print $3; exit }' "$tmp/integer.out")'s bn_mul_mont; last column: BN_mod_mul_montgomery around it"
printf '  %-7s %-20s %-44s %7s %7s %7s  %7s\n' "path" "ours" "OpenSSL (OPENSSL_ia32cap)" "ours" "OpenSSL" "ratio" "BN_mod"
cat "$tmp/mont"
echo "insn/B: guest instructions per byte, qemu-i386 with tools/bench/insn-count.c (exact, deterministic)."
if [ $native = yes ]; then
	echo "ns/B: wall clock, the minimum of 300 runs of each, natively on this CPU."
else
	echo "ns/B: not measured: this kernel does not run i386 programs natively (run make bench-i386 on one that does)."
fi
