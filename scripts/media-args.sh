# The options every scripts/mk-*.sh boot-media builder takes; sourced by
# each (not run):
#
#   --kernel ELF  --serial BAUD  [--timeout S]  [--append OPTS]  -o OUT
#
# A builder's loop:
#   while [ $# -gt 0 ]; do
#       media_need_value "$PROG" "$@"
#       media_common_opt "$1" "$2" || case "$1" in ...its own options... esac
#       shift 2
#   done
#   media_require "$PROG" "$USAGE"
kernel=""
serial=""
timeout=5
append=""
out=""

# media_need_value PROG OPT [VALUE...]: exit 2 when OPT has no value.
media_need_value() {
	[ $# -ge 3 ] || { echo "$1: $2 needs a value" >&2; exit 2; }
}

# media_common_opt OPT VALUE: sets a shared option; returns 1 for any other.
media_common_opt() {
	case "$1" in
	--kernel) kernel="$2" ;;
	--serial) serial="$2" ;;
	--timeout) timeout="$2" ;;
	--append) append="$2" ;;
	-o) out="$2" ;;
	*) return 1 ;;
	esac
}

# media_require PROG USAGE: the checks every builder makes after parsing.
media_require() {
	[ -n "$out" ] && [ -n "$kernel" ] || { echo "usage: $2" >&2; exit 2; }
	[ -f "$kernel" ] || { echo "$1: no kernel at $kernel" >&2; exit 2; }
}
