#!/bin/bash
# The tree's layout rules (README "Layout"), checked on the
# tracked files and the built images:
# - no file under tests/ is linked into an image (the images' dependency
#   files name every source they were built from);
# - no driver source includes the report header, and the run names drivers
#   only in its table (kernel/run/driver_table.c);
# - no two tracked source files share a basename;
# - every repository path a comment or a doc names exists, and no
#   "issue N" of this project is left in them;
# - lib/ has no .c file at its top level, and nothing of lib/host/ is in the
#   release image;
# - the release image and the emulation image carry no test-only switch
#   (padlock_quirks exists only in the PadLock harness's build).
. tests/tap-lib.sh
set -u
NM=i686-linux-gnu-nm
tap_begin
files=$(git ls-files 2>/dev/null)
[ -n "$files" ] || tap_skip_all "not a git checkout: the rules are about tracked files"

# Sources of each image, from the compiler's dependency files.
for img in kernel emu; do
	dir="$CQ_BUILD/$img"
	if [ ! -d "$dir" ]; then
		echo "# $dir not built: its dependency check is skipped"
		continue
	fi
	bad=$(find "$dir" -name '*.d' -exec cat {} + | tr ' \\' '\n\n' | grep -E '^(\./)?tests/' | sort -u)
	[ -z "$bad" ]
	ok $? "$img image: no source or header under tests/ is compiled into it" "$bad"
done

bad=$(printf '%s\n' "$files" | grep -E '^drivers/.*\.[ch]$' | xargs grep -l 'kernel/run/report\.h' 2>/dev/null)
[ -z "$bad" ]
ok $? "no driver source includes the report header (kernel/run/report.h)" "$bad"

bad=$(grep -nE 'drivers/|geode|padlock|aesni|rdrand' kernel/run/main.c)
[ -z "$bad" ]
ok $? "kernel/run/main.c names no driver (the table in kernel/run/driver_table.c does)" "$bad"

dups=$(printf '%s\n' "$files" | grep -E '\.(c|h|S|t|sh|pl|py|mk)$' | xargs -n1 basename | sort | uniq -d)
[ -z "$dups" ]
ok $? "no two tracked source files share a basename" "$dups"

stale=$(python3 tests/tools/stale_paths.py)
[ -z "$stale" ]
ok $? "comments and docs name only repository paths that exist (tests/tools/stale_paths.py)" "$stale"

hist=$(printf '%s\n' "$files" | grep -vE '^(\.issues|tests/fuzz/corpus_)' | xargs grep -nIiE '\<issue #?[0-9]+' 2>/dev/null |
	grep -viE '(openssl|gnutls|memtest86plus|linux|qemu|grub|ipxe|syslinux) (issue|bug) ')
[ -z "$hist" ]
ok $? "no \"issue N\" of this project in code, tests or docs (history is in git log)" "$hist"

top=$(printf '%s\n' "$files" | grep -E '^lib/[^/]+\.c$')
[ -z "$top" ]
ok $? "lib/ has no .c file at its top level (one folder per subsystem)" "$top"

if [ -f "$CQ_BUILD/cryptoqual.elf" ]; then
	syms=$($NM "$CQ_BUILD/cryptoqual.elf")
	host=$(find lib/host -name '*.c' -exec sh -c 'grep -hvE "^static" "$1" | grep -oE "^[a-z_][a-z0-9_ *]*[ *]([a-z_][a-z0-9_]*)\\(" | sed -E "s/.*[ *]([a-z_][a-z0-9_]*)\(/\1/"' _ {} \; | sort -u)
	found=""
	for s in $host; do
		printf '%s\n' "$syms" | grep -qE " [TtDdBbRr] $s\$" && found="$found $s"
	done
	[ -z "$found" ]
	ok $? "release image: no function of lib/host/ ($(printf '%s\n' $host | wc -l) checked)" "$found"
	! printf '%s\n' "$syms" | grep -qw padlock_quirks
	ok $? "release image: no test switch (padlock_quirks)"
else
	echo "# $CQ_BUILD/cryptoqual.elf not built: symbol checks skipped"
fi
if [ -f "$CQ_BUILD/cryptoqual-emu.elf" ]; then
	! $NM "$CQ_BUILD/cryptoqual-emu.elf" | grep -qw padlock_quirks
	ok $? "emulation image: no test switch (padlock_quirks)"
fi
tap_end
