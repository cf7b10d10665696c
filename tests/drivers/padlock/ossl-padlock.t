#!/bin/bash
# A third-party caller on the PadLock model: Debian's i386 OpenSSL 3 PadLock
# engine (engines-3/padlock.so of libssl3:i386) runs its own rep xcrypt code
# on the instruction emulator under qemu-i386 for the Nehemiah, C7, Nano and
# KX-7000 profiles, every result compared with OpenSSL's software AES
# (build/i386/ossl_padlock_test, tests/drivers/padlock/test_ossl_padlock.c).
# A failure is a model or emulator bug until the sources show otherwise.
#
# The package is fetched with `apt-get download` and unpacked with
# `dpkg-deb -x` into $CQ_BUILD/ossl (never installed, never committed); the
# test SKIPs with the reason when it cannot be had. The engine's cpuid,
# pushfl and popfl instructions are located with objdump and patched by the
# program so that it sees the emulated CPU and its EFLAGS bit 30.
#
# Last, the same test with the model's old strict checks (not documented
# behaviour: the whole fetch group read past the input in every mode, #GP
# on the upper control-word bits, EFLAGS bit 30 never shown) must fail:
# that shows the test depends on the model's behaviour.
. tests/tap-lib.sh
shared="$CQ_SHARED"
prog="$CQ_BUILD/i386/ossl_padlock_test"
dir="$CQ_BUILD/ossl"
lib="$dir/usr/lib/i386-linux-gnu"

tap_begin
need_qemu_i386
command -v objdump >/dev/null 2>&1 || tap_skip_all "objdump (binutils) is not installed"
[ -d "$shared/data/cpuid" ] || tap_skip_all "no CPUID dumps in $shared/data/cpuid"
need_program "$prog"
if [ ! -f "$lib/engines-3/padlock.so" ]; then
	mkdir -p "$dir/deb"
	if ! (cd "$dir/deb" && apt-get download libssl3:i386 >download.log 2>&1); then
		tap_skip_all "libssl3:i386 cannot be had: apt-get download failed ($(tail -1 "$dir/deb/download.log" | tr -d '\n' | cut -c1-120))"
	fi
	deb=$(ls "$dir"/deb/libssl3_*_i386.deb 2>/dev/null | head -1)
	[ -n "$deb" ] && dpkg-deb -x "$deb" "$dir" || tap_skip_all "libssl3:i386: dpkg-deb -x failed"
fi
engine=$(cd "$lib/engines-3" && pwd)/padlock.so
[ -f "$engine" ] && [ -f "$lib/libcrypto.so.3" ] || tap_skip_all "libssl3:i386 has no engines-3/padlock.so or libcrypto.so.3"
version=$(basename "$(ls "$dir"/deb/libssl3_*_i386.deb 2>/dev/null | head -1)" .deb)
echo "# OpenSSL PadLock engine: $engine (${version:-libssl3:i386})"

# Offsets of the instructions the program patches, from the engine's code.
# cpuid: all. pushfl: those that save EFLAGS for padlock_verify_context's
# bit-30 test (not followed by pop or popf: the EFLAGS.ID probe of
# padlock_capability stays native, since a signal return cannot set ID).
# popfl: those of pushfl; popfl (the forced reload).
dis=$(objdump -d --no-show-raw-insn "$engine" | awk '/^ *[0-9a-f]+:\t/ { sub(/:$/, "", $1); print $1, $2 }')
pick() { printf '%s\n' "$dis" | awk -v want="$1" '
	{ a[NR] = $1; op[NR] = $2 }
	END { for (i = 1; i <= NR; i++) {
		hit = 0
		if (want == "cpuid" && op[i] == "cpuid") hit = 1
		if (want == "pushf" && op[i] == "pushf" && op[i + 1] != "pop" && op[i + 1] != "popf") hit = 1
		if (want == "popf" && op[i] == "popf" && op[i - 1] == "pushf") hit = 1
		if (hit) { printf "%s%s", sep, a[i]; sep = "," } } }'; }
export CQ_OSSL_CPUID=$(pick cpuid) CQ_OSSL_PUSHF=$(pick pushf) CQ_OSSL_POPF=$(pick popf)
export CQ_OSSL_LIBCRYPTO="$(cd "$lib" && pwd)/libcrypto.so.3" CQ_OSSL_ENGINE="$engine" CQ_SHARED="$shared"
export OPENSSL_ENGINES="$(dirname "$engine")" OPENSSL_CONF=/dev/null
echo "# cpuid at $CQ_OSSL_CPUID; pushfl at $CQ_OSSL_PUSHF; popfl at $CQ_OSSL_POPF"

run() {	# profile [strict]
	CQ_OSSL_PROFILES="$1" CQ_OSSL_STRICT="${2:-0}" \
		qemu-i386 -L /usr/i686-linux-gnu -E LD_LIBRARY_PATH="$(cd "$lib" && pwd)" "$prog" 2>&1
}

for p in nehemiah esther isaiah zhaoxin; do
	out=$(run "$p")
	rc=$?
	good=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+ - '"$p"': padlock engine aes-')
	bad=$(printf '%s\n' "$out" | grep -cE '^not ok ')
	[ $rc -eq 0 ] && [ "$good" -eq 15 ] && [ "$bad" -eq 0 ]
	ok $? "$p: OpenSSL's padlock engine on the model matches OpenSSL's software AES in all 15 ciphers ($good ok, $bad not ok)" \
		"exit $rc" "$(printf '%s\n' "$out" | grep -E '^(not ok|# )' )"
	printf '%s\n' "$out" | grep -E '^ok [0-9]+ - ' | sed "s/^ok [0-9]* - /#   ok: /" | head -3
done

# The model's old strict behaviour must make the same test fail.
out=$(run esther 1)
rc=$?
bad=$(printf '%s\n' "$out" | grep -cE '^not ok [0-9]+ - esther: padlock engine aes-')
[ $rc -ne 0 ] && [ "$bad" -gt 0 ]
ok $? "esther, model with its old strict checks (not documented behaviour): the engine test fails ($bad ciphers)" \
	"exit $rc" "$(printf '%s\n' "$out" | head -30)"
printf '%s\n' "$out" | grep -E '^not ok' | head -6 | sed 's/^/#   strict: /'
tap_end
