#!/usr/bin/perl
# Boot test: the benchmark under QEMU -cpu max (software, AES-NI, RDRAND,
# RDSEED): openssl-speed tables, cost model with break-even sizes, hash and
# RNG tables, parseable records; and bench=off skips it all. The figures
# themselves are not judged (TCG timing says nothing about hardware).
use strict;
use warnings;
use Time::HiRes qw(time);

require "./tests/boot/bench_shape.pl";

my $build = $ENV{CQ_BUILD} // 'build';
my $kernel = $ENV{CQ_KERNEL} // "$build/cryptoqual.elf";

print "TAP version 13\n";
unless (-f $kernel) {
	print "1..0 # SKIP no kernel at $kernel (run make)\n";
	exit 0;
}

my $n = 0;
my @failed_logs;
sub ok {
	my ($cond, $name, @diag) = @_;
	$n++;
	print(($cond ? "ok" : "not ok") . " $n - $name\n");
	print "# $_\n" for $cond ? () : map { split /\n/ } @diag;
	return $cond;
}

my $all_ok = 1;
sub check {
	my $r = ok(@_);
	$all_ok = 0 unless $r;
	return $r;
}

my $t0 = time;
my ($status, $verdict, @log) = bench_boot($kernel, '--cpu max --timeout 240', 'verbose');   # every grid: verbose
my $secs = sprintf('%.1f', time - $t0);
print "# bench (verbose): $verdict, $secs s\n";
check($status == 0, "bench: the -cpu max boot ends in PASS (boot-qemu exit $status)");
check(scalar(grep { /^# bench: clock: TSC at \d+\.\d{3} MHz/ } @log), 'bench: the clock line gives the TSC in MHz');
my @res = grep { /^(not )?ok \d+ - bench: / } @log;
check(scalar(grep { /^ok \d+ - bench: cipher table measured for 3 AES engines / } @res),
   'bench: cipher table measured for 3 AES engines (software, aesni, vperm)', @res);
check(scalar(grep { /^ok \d+ - bench: hash table measured for \d+ hash engines/ } @res), 'bench: hash table ok', @res);
# QEMU's TCG has RDRAND; RDSEED only in some versions: expect what CPUID said.
my @sources = ('rdrand', grep({ $_ eq '# cpu.rdseed=1' } @log) ? ('rdseed') : ());
my $nsrc = @sources;
check(scalar(grep { /^ok \d+ - bench: RNG throughput measured for $nsrc sources?$/ } @res),
   "bench: RNG throughput for $nsrc source" . ($nsrc == 1 ? '' : 's') . " (@sources)", @res);
my @recs = bench_shape(\@log, \&check, 'max');

my @kb = bench_table(\@log, qr/^# bench: AES.*1000s of bytes per second/);
my %rows = map { ($_->[0] => $_->[1]) } @kb;
for my $row (qw(software:aes-128-cbc aesni:aes-128-cbc software:aes-256-cbc aesni:aes-256-cbc
		software:aes-128-ctr aesni:aes-128-ctr
		software:aes-128-cbc:decrypt aesni:aes-128-cbc:decrypt software:aes-128-cbc:inplace)) {
	my $c = $rows{$row};
	check($c && !grep({ !/^\d+\.\d\dk$/ } @$c), "bench: row $row has six NNNN.NNk figures",
	   $c ? "@$c" : 'no such row');
}
check(!grep({ $_->[0] =~ /^aesni:aes-\d+-(cfb|ofb)/ } @kb),
   'bench: no aesni row for a mode it does not claim (CFB, OFB)');
my @hash = bench_table(\@log, qr/^# bench: hashes.*1000s of bytes per second/);
check(scalar(grep { $_->[0] eq 'software:sha1' } @hash) && scalar(grep { $_->[0] eq 'software:sha256' } @hash),
   'bench: hash table has software:sha1 and software:sha256');
my ($cost) = grep { ($_->[0] // '') eq 'cost' && $_->[1]{engine} eq 'aesni' &&
		    $_->[1]{alg} eq 'aes-128-cbc' && $_->[1]{dir} eq 'encrypt' } @recs;
# TCG timing is noisy: the fit may be unreliable, and then says so instead.
check($cost && ($cost->[1]{breakeven_bytes} =~ /^(\d+|always|never|below_\d+)$/ && $cost->[1]{fit} eq 'ok' ||
		$cost->[1]{breakeven_bytes} eq 'unknown'),
   'bench: @cost aesni aes-128-cbc encrypt has a break-even against the software baseline (or unknown)');
print "$cost->[2]\n" if $cost;
check(scalar(grep { /^# aesni:aes-128-cbc +encrypt +-?\d+ +(\d+|unknown) +-?\d+\.\d\d +(\d+\.\d\d|unknown)  (always|never|from \d+ bytes|below \d+ bytes only|\((unreliable|unknown): [^)]+\))/ } @log),
   'bench: cost table row for aesni:aes-128-cbc with its break-even in words (or why there is none)');
for my $src (@sources) {
	my ($r) = grep { ($_->[0] // '') eq 'rng' && $_->[1]{source} eq $src } @recs;
	check($r && $r->[1]{bytes_per_s} =~ /^[1-9]\d*$/, "bench: \@rng $src in bytes per second");
}
check(!grep({ $_->[0] =~ /^[a-z0-9-]+:aes-(192-|256-(ecb|cfb|ofb|ctr))/ } @kb),
   'bench: bench=quick leaves out AES-192 and AES-256 outside CBC (bench=full measures them)',
   map { $_->[0] } grep { $_->[0] =~ /^[a-z0-9-]+:aes-(192-|256-(ecb|cfb|ofb|ctr))/ } @kb);
for my $l (grep { /^# \@cipher engine=(software|aesni) alg=aes-128-cbc dir=encrypt variant=separate-aligned / } @log) {
	print "$l\n";
}

($status, $verdict, my @off) = bench_boot($kernel, '--cpu max --timeout 240', 'bench=off');
ok($status == 0, "bench=off: the boot ends in PASS (boot-qemu exit $status)");
my @skip = grep { /^ok \d+ - bench: .* # SKIP bench=off$/ } @off;
ok(@skip == 1, 'bench=off: one SKIP line for the benchmark', grep { /bench/ } @off);
# The RNG statistics' own @rng record (with fips_blocks=) is not the benchmark's.
my @leak = grep { /^# (bench: |\@(cipher|hash|cost|montmul) )/ || /^# \@rng (?!.*fips_blocks=)/
		  || /^(not )?ok \d+ - bench: (?!.*# SKIP)/ } @off;
ok(!@leak, 'bench=off: no benchmark tables, records or results', @leak);

unless ($all_ok) {
	print "# serial log of the default boot:\n";
	print "#   | $_\n" for @log;
}
print "1..$n\n";
