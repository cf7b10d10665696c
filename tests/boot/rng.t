#!/bin/bash
# Boot test: RNG quality in the image under -cpu max. The self-check's
# deliberately bad sources are all caught, RDRAND passes every statistic,
# and the summary table and the @rng record are printed.
. tests/boot/lib.sh
echo "TAP version 13"
boot "rng" --cpu max --timeout 240 -- bench=off
check_report_shape "rng"
expect_status 0 "rng: the run ends in PASS"
for b in "bad-zero detects stuck source" "bad-pattern32" "bad-biased55" "bad-lfsr16" "bad-repeat2k"; do
	expect_line "^ok [0-9]+ - rng self-check: $b" "rng: self-check catches $b"
done
for t in fips-monobit fips-poker fips-runs fips-long-run fips-continuous 90b-rct 90b-apt 90b-mcv 90b-markov \
	ent-chi-square ent-serial-correlation repeat linear-complexity; do
	expect_line "^ok [0-9]+ - rng: rdrand $t\$" "rng: rdrand passes $t (its figures are in the @rng record)"
done
expect_line '^# source +bytes/s blocks +mono +poker +runs +long +cont +H_mcv +H_mkv +shannon +chi2 verdict$' "rng: summary table header"
expect_line '^# rdrand +[0-9]+ +[0-9]+ .* pass$' "rng: summary row for rdrand with its rate and verdict"
expect_line '^# @rng source=rdrand bytes=250000 bytes_per_s=[0-9]+ fips_blocks=99 .* rct_longest=[0-9]+ .* serial_corr=-?[0-9.]+ .* lc_min=[0-9]+ outside=none claim=full verdict=pass emulated=0 t=[0-9.]+$' "rng: @rng record for rdrand with every statistic's figure"
expect_line '^ok [0-9]+ - rng: rdseed source # SKIP ' "rng: RDSEED absent from QEMU 7.2 TCG is a SKIP with its reason"
finish
