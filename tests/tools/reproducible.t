#!/bin/bash
# Two clean builds give byte-identical images: one here into a fresh build
# folder, one from a copy of the source tree at another path. The image
# carries its version and hash, so a lab can tell which build ran.
. tests/tap-lib.sh
set -u
tap_begin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src"
tar --exclude=./build -cf - . | (cd "$tmp/src" && tar xf -)

make -s BUILD="$tmp/a" kernel > "$tmp/a.log" 2>&1; ok $? "clean build A (in place, BUILD=$tmp/a)"
make -s -C "$tmp/src" BUILD="$tmp/b" kernel > "$tmp/b.log" 2>&1; ok $? "clean build B (copy of the tree at $tmp/src)"
cmp "$tmp/a/cryptoqual.elf" "$tmp/b/cryptoqual.elf"; ok $? "the two ELF images are byte-identical"
cmp "$tmp/a/cryptoqual.sha256" "$tmp/b/cryptoqual.sha256"; ok $? "the two image hashes agree ($(cat "$tmp/a/cryptoqual.sha256" 2>/dev/null))"
! grep -a -q "$tmp" "$tmp/b/cryptoqual.elf"; ok $? "no build path is embedded in the image"
tap_end
