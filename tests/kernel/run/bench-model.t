#!/usr/bin/perl
# The kernel's benchmark (kernel/run/bench*.c) run on the host by
# build/host/bench-model over model engines whose cost is known (see
# tests/kernel/run/test_bench_model.c): every figure below is worked out by hand from
# the models at 1 GHz, and the failure paths must give `not ok`.
use strict;
use warnings;

require "./tests/boot/bench_shape.pl";

my $build = $ENV{CQ_BUILD} // 'build';
my $tool = "$build/host/bench-model";

print "TAP version 13\n";
unless (-x $tool) {
	print "1..0 # SKIP no $tool (make tools)\n";
	exit 0;
}

my $n = 0;
sub ok {
	my ($cond, $name, @diag) = @_;
	$n++;
	print(($cond ? "ok" : "not ok") . " $n - $name\n");
	print "# $_\n" for $cond ? () : map { split /\n/ } @diag;
	return $cond;
}

sub run {
	my ($mode) = @_;
	my @out = `$tool $mode`;
	my $status = $?;
	chomp @out;
	return ($status, @out);
}

# The record of type $type whose keys include every pair of %want.
sub find_record {
	my ($recs, $type, %want) = @_;
	for my $r (@$recs) {
		next unless ($r->[0] // '') eq $type;
		return $r->[1] unless grep { ($r->[1]{$_} // '') ne $want{$_} } keys %want;
	}
	return undef;
}

sub has {
	my ($recs, $type, $want, $name) = @_;
	my $r = find_record($recs, $type, %$want);
	ok(defined $r, $name, "no \@$type record with " .
	   join(' ', map { "$_=$want->{$_}" } sort keys %$want));
}

# ---- good: every model engine ----
my ($st, @out) = run('good');
ok($st == 0, "good: bench-model exits 0");
my @results = grep { /^(not )?ok \d+ - / } @out;
ok(@results == 4 && !grep({ /^not ok/ } @results), "good: four results, all ok", @results);
ok(scalar(grep { /^ok \d+ - bench: cipher table measured for 3 AES engines \(19 rows, 104 cells\)$/ } @out),
   "good: cipher result names 3 engines, 19 rows, 104 cells (bench=quick: AES-128, and AES-256 in CBC)");
my @recs = bench_shape(\@out, \&ok, 'good');
my @cipher = grep { ($_->[0] // '') eq 'cipher' } @recs;
ok(@cipher == 104, "good: the \@cipher records hold one entry per cell (" . scalar(@cipher) . ")");
my @cipher_lines = grep { /^# \@cipher / } @out;
ok(@cipher_lines == 19, "good: one \@cipher record per table row (" . scalar(@cipher_lines) . ")");
ok(scalar(grep { $_ eq '# @cipher engine=software alg=aes-128-cbc dir=encrypt variant=separate-unaligned emulated=0 reps=3 bytes=8192 kbps=49847.88 spread_pct=0.0 ops=2' } @out),
   'good: a row measured at one size lists that size alone', grep { /separate-unaligned / } @cipher_lines);
ok(!grep({ $_->[1]{alg} =~ /^aes-256-(?!cbc$)/ } @cipher) && grep({ $_->[1]{alg} eq 'aes-256-cbc' } @cipher),
   'good: bench=quick measures AES-256 in CBC only');

has(\@recs, 'calibration', { tsc_hz => 1000000000, pit_hz => 1000000000,
			     pmtimer_hz => 1000005000, disagreement_ppm => 5 },
    'good: @calibration gives the clock in force and both calibrations');
# software: 500 + 20 x cycles at 1 GHz. 16 bytes: 820 cycles = 51.25 c/B, 16e9/820 B/s.
has(\@recs, 'cipher', { engine => 'software', alg => 'aes-128-cbc', mode => 'cbc', key_bits => 128,
			dir => 'encrypt', variant => 'separate-aligned', bytes => 16,
			kbps => '19512.20', cpb => '51.25', spread_pct => '0.0', reps => 3, emulated => 0 },
    'good: software aes-128-cbc 16 bytes: 19512.20 kB/s, 51.25 cycles/byte');
# 8192 bytes: 164340 cycles = 20.06 c/B; 8192e9/164340 = 49847.88 kB/s.
has(\@recs, 'cipher', { engine => 'software', alg => 'aes-128-cbc', dir => 'encrypt',
			variant => 'separate-aligned', bytes => 8192, kbps => '49847.88', cpb => '20.06' },
    'good: software aes-128-cbc 8192 bytes: 49847.88 kB/s, 20.06 cycles/byte');
# dmadev: 5000 + 2 x; 16 bytes: 5032 cycles = 314.50 c/B, 3179.65 kB/s; emulated.
has(\@recs, 'cipher', { engine => 'dmadev', alg => 'aes-128-cbc', dir => 'encrypt',
			variant => 'separate-aligned', bytes => 16, kbps => '3179.65', cpb => '314.50',
			emulated => 1 },
    'good: emulated dmadev aes-128-cbc 16 bytes: 3179.65 kB/s, 314.50 cycles/byte, emulated=1');
# Both DMA contexts: two 16-byte requests in 5032 cycles.
has(\@recs, 'cipher', { engine => 'dmadev', variant => 'dual-context', bytes => 16,
			kbps => '6359.30', cpb => '157.25' },
    'good: dual-context row counts both requests (6359.30 kB/s at 16 bytes)');
# Unaligned input to a 16-byte-aligned engine: bounced by the benchmark, every size.
my @bounced = grep { $_->[1]{engine} eq 'dmadev' && $_->[1]{variant} eq 'separate-unaligned-bounced' } @cipher;
ok(@bounced == 6, "good: dmadev (align 16) has a bounced unaligned row at all six sizes");
ok(scalar(grep { $_ eq '# model: dmadev misaligned=0 longest=16384' } @out),
   'good: the aligned engine never saw a misaligned buffer');
my @unal = grep { $_->[1]{engine} eq 'software' && $_->[1]{variant} eq 'separate-unaligned' } @cipher;
ok(@unal == 1 && $unal[0][1]{bytes} == 8192, 'good: software (any alignment) has one unaligned cell, at 8192 bytes');
my @inpl = grep { $_->[1]{engine} eq 'software' && $_->[1]{variant} eq 'inplace-aligned' } @cipher;
ok(@inpl == 6, 'good: software has an in-place row at all six sizes');
# chunky: requests of at most 1024 bytes, 100 + x cycles each: 8192 bytes = 8992 cycles.
has(\@recs, 'cipher', { engine => 'chunky', alg => 'aes-128-ctr', bytes => 8192,
			kbps => '911032.03', cpb => '1.10' },
    'good: max_len 1024: 8192 bytes go as 8 requests (911032.03 kB/s)');
ok(scalar(grep { $_ eq '# model: chunky longest=1024' } @out), 'good: no request over max_len');
# OFB/CTR decryption is the same operation: no decrypt rows for ctr; ECB/CBC have them.
ok(!grep({ $_->[1]{mode} eq 'ctr' && $_->[1]{dir} eq 'decrypt' } @cipher), 'good: no CTR decrypt rows');
ok(scalar(grep { $_->[1]{engine} eq 'dmadev' && $_->[1]{alg} eq 'aes-128-ecb' && $_->[1]{dir} eq 'decrypt' } @cipher) == 6,
   'good: ECB decrypt rows');
ok(!grep({ $_->[1]{key_bits} == 192 } @cipher), 'good: no row for a key size nobody claims');

# Cost model: the fit recovers the models; break-even (5000 - 500) / (20 - 2) = 250 -> 251.
has(\@recs, 'cost', { engine => 'software', alg => 'aes-128-cbc', dir => 'encrypt', fixed_cycles => 500,
		      cycles_per_byte => '20.00', breakeven_bytes => 'none', vs => 'none' },
    'good: @cost software: 500 cycles + 20.00/byte, the reference');
has(\@recs, 'cost', { engine => 'dmadev', alg => 'aes-128-cbc', dir => 'encrypt', fixed_cycles => 5000,
		      cycles_per_byte => '2.00', breakeven_bytes => 251, vs => 'software', emulated => 1 },
    'good: @cost dmadev: 5000 cycles + 2.00/byte, faster from 251 bytes');
has(\@recs, 'cost', { engine => 'chunky', alg => 'aes-128-ctr', breakeven_bytes => 'always' },
    'good: @cost chunky: always faster');
ok(scalar(grep { /^# dmadev:aes-128-cbc +encrypt +5000 +3 +2\.00 +0\.00  from 251 bytes \(emulated\)$/ } @out),
   'good: cost table row for dmadev says "from 251 bytes" and (emulated)');

# Hashes: software 300 + 10 x; phe 2000 + x, at most 8192 bytes (no 16384 cell).
has(\@recs, 'hash', { engine => 'software', alg => 'sha1', bytes => 1024, kbps => '97153.70', cpb => '10.29' },
    'good: software sha1 1024 bytes: 97153.70 kB/s, 10.29 cycles/byte');
ok(!find_record(\@recs, 'hash', engine => 'phe', bytes => 16384) &&
   find_record(\@recs, 'hash', engine => 'phe', bytes => 8192, cpb => '1.24', emulated => 1),
   'good: phe sha1 measured up to its max_len only');
has(\@recs, 'cost', { engine => 'phe', alg => 'sha1', dir => 'digest', fixed_cycles => 2000,
		      cycles_per_byte => '1.00', breakeven_bytes => 189 },
    'good: @cost phe sha1: faster from 189 bytes (1700 / 9 = 188.9)');
my @hrows = bench_table(\@out, qr/^# bench: hashes.*1000s of bytes per second/);
ok(@hrows == 3 && $hrows[1][0] eq 'phe:sha1(emulated)' && $hrows[1][1][5] eq '-',
   'good: hash table rows algorithm-major, emulated labelled, - past max_len',
   map { "$_->[0] @{$_->[1]}" } @hrows);

# RNG: 4 cycles per byte at 1 GHz. Montmul: 1000 cycles per 256 bits.
has(\@recs, 'rng', { source => 'modelrng', bytes_per_s => 250000000, emulated => 0 },
    'good: @rng modelrng 250000000 bytes/s');
has(\@recs, 'montmul', { engine => 'pmm', bits => 1024, ops_per_s => 250000, cycles_per_op => '4000.00',
			 emulated => 1 },
    'good: @montmul pmm 1024 bits: 250000 ops/s, 4000.00 cycles/op');

ok(!grep({ ($_->[0] // '') eq 'cost' && ($_->[1]{fit} // '') ne 'ok' } @recs),
   'good: every @cost says fit=ok (exact models)');
my @good_recs = grep { /^# @/ } @out;

# ---- interruptions while the counts are chosen ----
# tests/kernel/run/test_bench_model.c stretches single operations of software SHA-1
# and SHA-256 at 8192 bytes (82220 cycles each; the cell target is 333333
# cycles, reached by 4 operations after doubling to 8).
($st, @out) = run('stretched');
@results = grep { /^(not )?ok \d+ - / } @out;
ok($st == 0 && @results == 4 && !grep({ /^not ok/ } @results), 'stretched: four results, all ok', @results);
my @st_cells = bench_records(\@out);
# SHA-1: the 4-operation run (true 328880) is stretched to 528880; timed
# once, it would end the doubling and leave 3 operations (246660 cycles).
has(\@st_cells, 'hash', { engine => 'software', alg => 'sha1', bytes => 8192, kbps => '99635.13', cpb => '10.04',
			  spread_pct => '0.0', ops => 4 },
    'stretched: a run stretched past the target is timed again: sha1 8192 bytes keeps 4 operations');
# SHA-256: the 2-operation run and its second timing both take 10 ms more;
# the count falls to 1 and the short repetitions (82220 cycles) scale it up.
has(\@st_cells, 'hash', { engine => 'software', alg => 'sha256', bytes => 8192, kbps => '99635.13', cpb => '10.04',
			  spread_pct => '0.0', ops => 4 },
    'stretched: repetitions far shorter than the target are scaled up: sha256 8192 bytes keeps 4 operations');
my @st_recs = grep { /^# @/ } @out;
my @diff = grep { ($st_recs[$_] // '') ne $good_recs[$_] } 0 .. $#good_recs;
ok(@st_recs == @good_recs && !@diff, 'stretched: every record is the same as without the interruptions',
   map { "good:      $good_recs[$_]\nstretched: " . ($st_recs[$_] // '(none)') } @diff[0 .. ($#diff < 3 ? $#diff : 3)]);

# ---- fits that do not deserve a break-even ----
($st, @out) = run('noisy');
@recs = bench_shape(\@out, \&ok, 'noisy');
# Software SHA-1 16 bytes: one repetition of 725 x 460 = 333500 cycles takes 1e6 more.
has(\@recs, 'hash', { engine => 'software', alg => 'sha1', bytes => 16, spread_pct => '299.9', ops => 725 },
    'noisy: software sha1 16 bytes spreads 299.9 %');
has(\@recs, 'cost', { engine => 'software', alg => 'sha1', fixed_cycles => 300, cycles_per_byte => '10.00',
		      breakeven_bytes => 'none', vs => 'none', fit => 'unreliable' },
    'noisy: @cost software sha1: fit=unreliable (a cell spreads over 25 %)');
ok(scalar(grep { /^# software:sha1 +digest +300 +1 +10\.00 +0\.00  \(the reference, unreliable: spread 299\.9 %\)$/ } @out),
   'noisy: cost table says the reference is unreliable and why', grep { /^# software:sha1 / } @out);
has(\@recs, 'cost', { engine => 'phe', alg => 'sha1', fixed_cycles => 2000, breakeven_bytes => 'unknown',
		      vs => 'software', fit => 'ok' },
    'noisy: @cost phe sha1: its own fit is ok, the break-even against an unreliable reference unknown');
ok(scalar(grep { /^# phe:sha1 +digest +2000 +1 +1\.00 +0\.00  \(unknown: the software fit is unreliable: spread 299\.9 %\) \(emulated\)$/ } @out),
   'noisy: cost table gives no break-even for phe sha1, and says why', grep { /^# phe:sha1 / } @out);
# kinky: 3 cycles per byte, 4 from 8192 bytes. Each cell weighted by 1 / (0.1 % of its
# cycles)^2 (no spread: the floor), the line is -6.4 +- 8.2 cycles + 3.32 +- 0.23 per byte
# (worked out in floating point; the kernel's integer weights round each sigma to a
# centicycle: -7 +- 9, 3.33 +- 0.23).
has(\@recs, 'cost', { engine => 'kinky', alg => 'aes-128-cbc', dir => 'encrypt', fixed_cycles => -7,
		      fixed_err => 9, cycles_per_byte => '3.33', cpb_err => '0.23', breakeven_bytes => 'unknown', vs => 'software',
		      fit => 'unreliable' },
    'noisy: @cost kinky: a negative fixed cost makes the fit unreliable, the break-even unknown');
ok(scalar(grep { /^# kinky:aes-128-cbc +encrypt +-7 +9 +3\.33 +0\.23  \(unreliable: negative fixed cost\)$/ } @out),
   'noisy: cost table row for kinky says unreliable, not a break-even', grep { /^# kinky:aes-128-cbc / } @out);
has(\@recs, 'cost', { engine => 'dmadev', alg => 'aes-128-cbc', dir => 'encrypt', breakeven_bytes => 251,
		      fit => 'ok' },
    'noisy: the other fits keep their break-even (dmadev from 251 bytes)');

# ---- the cost of choosing the operation counts ----
# bench_ms=1 at 1 GHz: 1e6 cycles of repetitions per cell. Doubling from 1
# costs about as much again per cell; predicting each AES cell from the
# row's smaller sizes leaves about one extra run of the three.
($st, @out) = run('good');
my @grecs = bench_records(\@out);
my $cells = grep { my $t = $_->[0] // ''; $t =~ /^(cipher|hash|montmul)$/ || $t eq 'rng' } @grecs;
my ($clock) = map { /^# model: clock=(\d+)$/ ? $1 : () } @out;
ok(defined $clock && $cells > 100 && $clock <= 1.5 * $cells * 1e6,
   "good: the whole run takes at most 1.5 budgets per cell ($cells cells, " . ($clock // 'no') . ' cycles)');

# Hash rows are predicted from their smaller sizes as the AES rows are: software SHA-1 at
# 1024 bytes (10540 cycles, 31 operations per run) is timed in exactly its 3 runs, the
# predicted run counting as the first (doubling from 1 would add 1 + 2 + ... + 32 calls).
my ($c1024) = map { /^# model: software sha1 calls_1024=(\d+)$/ ? $1 : () } @out;
ok(defined $c1024 && $c1024 == 3 * 31, 'good: the sha1 1024-byte cell costs its 3 runs of 31 digests, no doubling (' . ($c1024 // 'none') . ' calls)');

# ---- scope: bench=quick measures AES-128 and AES-256 CBC; bench=full every key size ----
($st, @out) = run('wide');
my @wrecs = bench_records(\@out);
my @w192 = grep { ($_->[0] // '') eq 'cipher' && $_->[1]{key_bits} == 192 } @wrecs;
my @w256 = grep { ($_->[0] // '') eq 'cipher' && $_->[1]{engine} eq 'wide' && $_->[1]{key_bits} == 256 } @wrecs;
ok($st == 0 && !@w192 && @w256 == 6, 'wide: bench=quick measures the AES-256 CBC row (6 cells) but not AES-192',
   map { $_->[2] } @w192);
ok(scalar(grep { /^# bench: scope: bench=quick: AES-128 in every mode .*AES-256 in CBC; bench=full adds AES-192 / } @out),
   'wide: the scope line says what bench=quick leaves out and that bench=full measures it');
($st, @out) = run('full');
my @frecs = bench_records(\@out);
my @f192 = grep { ($_->[0] // '') eq 'cipher' && $_->[1]{engine} eq 'wide' && $_->[1]{key_bits} == 192 } @frecs;
ok($st == 0 && @f192 == 6, 'full: bench=full measures the AES-192 row too (6 cells)');
ok(scalar(grep { $_ eq '# bench: scope: every key size, mode and direction each engine claims' } @out),
   'full: the scope line says every key size');

# ---- failures ----
($st, @out) = run('engine-error');
ok(scalar(grep { /^not ok 1 - bench: cipher table measured for 4 AES engines/ } @out),
   'engine-error: an engine error makes the cipher result not ok', grep { /^(not )?ok/ } @out);
ok(scalar(grep { $_ eq '# bench: broken:aes-128-cbc encrypt 1024 bytes failed: engine error -4 (hardware timeout)' } @out),
   'engine-error: the failing cell is named with the error');
my @brow = grep { $_->[0] eq 'broken:aes-128-cbc' } bench_table(\@out, qr/^# bench: AES.*1000s of bytes per second/);
ok(@brow == 1 && "@{$brow[0][1]}" =~ /^\S+k \S+k \S+k failed failed failed$/,
   'engine-error: the table shows the measured cells and "failed"', map { "@{$_->[1]}" } @brow);
ok(scalar(grep { /^ok 2 - bench: hash table/ } @out), 'engine-error: the other results stay ok');
ok(scalar(grep { $_ eq '# @cipher engine=broken alg=aes-128-cbc dir=encrypt variant=separate-aligned emulated=0 reps=3 bytes=16,64,256 kbps=137931.03,390243.90,719101.12 spread_pct=0.0,0.0,0.0 ops=2874,2033,936' } @out),
   'engine-error: the row record lists the sizes measured before the failure, and only those',
   grep { /^# \@cipher engine=broken / } @out);

# Running two DMA contexts at once is documented by no source: a failing
# :dual-context row is a finding, never the table's failure.
($st, @out) = run('dual-error');
ok(scalar(grep { /^ok 1 - bench: cipher table measured for / } @out),
   'dual-error: a failing :dual-context row leaves the cipher result ok', grep { /^(not )?ok/ } @out);
ok(scalar(grep { $_ eq '# bench: dmadev:aes-128-cbc:dual-context(emulated): finding, not judged: engine error -4 (hardware timeout) (two DMA contexts at once is documented by no source; the driver\'s log says why)' } @out),
   'dual-error: one line says the row is a finding, with the first error', grep { /dual-context/ } @out);
ok(scalar(grep { /^# \@finding driver=dmadev test=dmadev:aes-128-cbc:dual-context\(emulated\) outcome=failed detail=engine\\x20error\\x20-4/ } @out),
   'dual-error: and a @finding record');

($st, @out) = run('zero-cycles');
ok(scalar(grep { /^not ok 1 - bench: cipher table/ } @out), 'zero-cycles: a run of zero cycles makes the result not ok');
ok(scalar(grep { /^# bench: frozen:aes-128-ecb encrypt 16 bytes failed: a timed run took zero cycles/ } @out),
   'zero-cycles: the cell says it took zero cycles');
ok(!grep({ /^# \@cipher engine=frozen / } @out) && grep({ /^# \@cipher engine=software / } @out),
   'zero-cycles: a row with no measured size has no record (the others keep theirs)');

($st, @out) = run('off');
my @r = grep { /^(not )?ok/ } @out;
ok(@r == 1 && $r[0] =~ /^ok 1 - bench: .* # SKIP bench=off$/ && !grep({ /^# (bench:|\@(cipher|hash|cost|rng))/ } @out),
   'off: bench=off gives one SKIP and no tables or records', @r);

print "1..$n\n";
