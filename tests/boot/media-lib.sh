# Helpers for the boot-media tests (sourced by tests/boot/media-*.t): boot a
# medium that `make check-media` built (mk/media.mk: $CQ_BUILD/check-media,
# fixed settings, apart from the user's `make media` in $CQ_BUILD/media;
# CQ_MEDIA=build/media tests those instead) through scripts/boot-media.sh,
# then check the report with tests/boot/lib.sh's checks and with
# tools/qualreport. The raw serial logs (loader noise, \r\n) are kept in
# $CQ_BUILD/logs/media-NAME.log for the lab and for a look after a failure.
. tests/boot/lib.sh

CQ_MEDIA=${CQ_MEDIA:-$CQ_BUILD/check-media}
CQ_LOGS=${CQ_LOGS:-$CQ_BUILD/logs}
QUALREPORT=${QUALREPORT:-tools/qualreport}
RAW_LOG=""
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

# need_medium PATH: a missing medium is a failure, not a skip: `make check`
# builds the test media (mk/media.mk hooks check-media onto `make tools`).
need_medium() {
	[ -e "$1" ] && return 0
	ok 1 "$1 exists (run: make check-media)"
	tap_end
}

# report_of RAW: the report as lib.sh's checks expect it: CRs removed, the
# loader's output before `TAP version 13` (also on the same line) dropped.
report_of() {
	tr -d '\r' < "$1" | awk 'found { print; next } /TAP version 13$/ { found = 1; print "TAP version 13" }'
}

# boot_medium LABEL NAME [scripts/boot-media.sh options]
boot_medium() {
	label=$1; name=$2; shift 2
	mkdir -p "$CQ_LOGS"
	RAW_LOG="$CQ_LOGS/media-$name.log"
	BOOT_LOG=$(mktemp)
	said=$(scripts/boot-media.sh "$@" --log "$RAW_LOG")
	BOOT_STATUS=$?
	report_of "$RAW_LOG" > "$BOOT_LOG"
	diag "$label: $said (raw log: $RAW_LOG)"
}

# serial_of GRUB_CFG: the speed the menu programs.
serial_of() {
	sed -n 's/^serial --unit=0 --speed=\([0-9]*\) .*/\1/p' "$1"
}

# check_grub_cfg LABEL GRUB_CFG KERNEL_PATH SERIAL: the menu's shape.
check_grub_cfg() {
	label=$1; cfg=$2; kpath=$3; speed=$4
	grub-script-check "$cfg" >/dev/null 2>&1; ok $? "$label: grub-script-check accepts grub.cfg"
	grep -qx "serial --unit=0 --speed=$speed --word=8 --parity=no --stop=1" "$cfg" &&
		grep -qx "terminal_input serial" "$cfg" && grep -qx "terminal_output serial" "$cfg"
	ok $? "$label: GRUB's menu is on the serial port at $speed 8N1"
	quick=$(awk '/--id quick/ { f = 1 } f && /multiboot/ { print; exit }' "$cfg")
	full=$(awk '/--id full/ { f = 1 } f && /multiboot/ { print; exit }' "$cfg")
	case "$quick" in
	"	multiboot $kpath console=ttyS0,$speed"|"	multiboot $kpath console=ttyS0,$speed "*)
		case "$quick" in *bench=*) false ;; *) true ;; esac ;;
	*) false ;;
	esac
	ok $? "$label: the quick entry boots $kpath with console=ttyS0,$speed ($quick)"
	case "$full" in
	"	multiboot $kpath console=ttyS0,$speed bench=full"|"	multiboot $kpath console=ttyS0,$speed bench=full "*) true ;;
	*) false ;;
	esac
	ok $? "$label: the full entry adds bench=full ($full)"
	grep -q '^set default=quick$' "$cfg"; ok $? "$label: the quick run is the default entry"
}

# check_boot LABEL LOADER_REGEX SERIAL: the boot ended in PASS, through the
# expected loader, on the expected console speed, with the built image.
check_boot() {
	label=$1; loader=$2; speed=$3
	check_report_shape "$label"
	relay_kernel_results "$label"
	expect_status 0 "$label: the run ends in PASS with QEMU status 33"
	expect_line "^# loader: $loader" "$label: the kernel was loaded by $loader"
	expect_line "^# console: ttyS0 io=0x3f8 $speed 8N1" "$label: the kernel's console runs at $speed"
	expect_line "^# options: console=ttyS0,$speed bench=quick " "$label: quick run with console=ttyS0,$speed"
	expect_line '^# pci: 00:00\.0 8086:1237 ' "$label: PCI table lists the i440FX host bridge"
	want=$(cat "$CQ_BUILD/cryptoqual.sha256" 2>/dev/null)
	expect_line "^# cryptoqual [^ ]+ image-sha256=$want\$" "$label: image hash equals build/cryptoqual.sha256 ($want)"
}

# check_qualreport LABEL: tools/qualreport reads the raw log (loader noise,
# \r\n) as a PASS of this image, and compare passes it against itself.
check_qualreport() {
	label=$1
	want=$(cat "$CQ_BUILD/cryptoqual.sha256" 2>/dev/null)
	json="$TMPD/$label.json"
	"$QUALREPORT" parse "$RAW_LOG" > "$json" 2> "$TMPD/err"
	ok $? "$label: qualreport parse reads the raw log$( [ -s "$TMPD/err" ] && echo " ($(head -c 200 "$TMPD/err"))")"
	python3 - "$json" "$want" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))[0]
problems = []
if d["verdict"] != "PASS" or not d["complete"]:
    problems.append("verdict %s complete %s" % (d["verdict"], d["complete"]))
if d["identity"]["image_sha256"] != sys.argv[2]:
    problems.append("image %s" % d["identity"]["image_sha256"])
if "8086:1237" not in [p["id"] for p in d["identity"]["pci"]]:
    problems.append("no 8086:1237 in pci")
s = d["summary"]
if len(d["tests"]) != s["ok"] + s["not_ok"] + s["skipped"] or d["problems"]:
    problems.append("tests %d, summary %s, problems %s" % (len(d["tests"]), s, d["problems"]))
print("# qualreport: %s, %d tests, %d noise lines before the report, problems: %s"
      % (d["verdict"], len(d["tests"]), d["integrity"]["noise_lines_before_report"], problems or "none"))
sys.exit(1 if problems else 0)
EOF
	ok $? "$label: qualreport: PASS, complete, this image, PCI and every result found, no problems"
	"$QUALREPORT" baseline --same-image "$RAW_LOG" -o "$TMPD/$label.base.json" &&
		"$QUALREPORT" compare "$TMPD/$label.base.json" "$RAW_LOG" > "$TMPD/$label.table"
	ok $? "$label: qualreport compare passes the box against a baseline made from it"
	sed 's/^/#   /' "$TMPD/$label.table"
	# plot needs @cipher/@hash records: with none (bench=off), it says so.
	if grep -aq '^# @\(cipher\|hash\) ' "$RAW_LOG"; then
		"$QUALREPORT" plot "$RAW_LOG" -o "$TMPD/$label.png" > "$TMPD/$label.plot" 2>&1 &&
			[ "$(head -c 4 "$TMPD/$label.png" | od -An -tx1 | tr -d ' ')" = 89504e47 ] &&
			[ "$(stat -c %s "$TMPD/$label.png")" -gt 10000 ]
		ok $? "$label: qualreport plot draws the throughput figures ($(tail -n 1 "$TMPD/$label.plot"))"
	fi
}
