#!/usr/bin/perl
# Boot test: under `qemu -icount shift=0,sleep=off` the TSC counts guest
# instructions (1 GHz of virtual time), so two boots must print identical
# benchmark figures: cycles per byte and, the calibration being exact,
# kB/s too. bench_ms=1 keeps both boots short; the counts are what matter.
# Tracked: the software AES-128-CBC encryption cycles (= instructions) per
# byte at 8192 bytes.
use strict;
use warnings;

require "./tests/boot/bench_shape.pl";

my $build = $ENV{CQ_BUILD} // 'build';
my $kernel = $ENV{CQ_KERNEL} // "$build/cryptoqual.elf";

print "TAP version 13\n";
unless (-f $kernel) {
	print "1..0 # SKIP no kernel at $kernel (run make)\n";
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

# The benchmark's part of a log: records, tables and its results.
sub bench_part {
	my @lines = @_;
	my ($first) = grep { $lines[$_] =~ /^# bench: clock:/ } 0 .. $#lines;
	return () unless defined $first;
	# Times since start (t=, stage durations, heartbeats) follow the CMOS
	# clock reads and the host, not the benchmark: left out of the comparison.
	return map { s/ t=[0-9.]+$//r }
		grep { !/^# (\@stage |\@run |summary: run |heartbeat: )/ }
		grep { /^# / || /^(not )?ok \d+ - bench: / } @lines[$first .. $#lines];
}

my (@boots, @log1);
for my $i (1, 2) {
	my ($status, $verdict, @log) = bench_boot($kernel, '--cpu max --icount --timeout 240', 'bench_ms=1');
	print "# boot $i: $verdict\n";
	ok($status == 0, "icount boot $i ends in PASS (boot-qemu exit $status)");
	push @boots, [bench_part(@log)];
	@log1 = @log if $i == 1;
}
my @a = @{$boots[0]};
my @b = @{$boots[1]};
my @ca = grep { /^# \@cipher / } @a;
my @cb = grep { /^# \@cipher / } @b;
ok(@ca >= 15, 'boot 1 printed the cipher records, one per table row (' . scalar(@ca) . ')');
ok("@ca" eq "@cb", 'the @cipher records (kB/s, spread and operation counts per size) are identical in both boots',
   map { "boot 1: $ca[$_]\nboot 2: " . ($cb[$_] // '(none)') } grep { ($cb[$_] // '') ne $ca[$_] } 0 .. $#ca);
my @diff = grep { $a[$_] ne ($b[$_] // '') } 0 .. $#a;
ok(@a > 0 && @a == @b && !@diff, 'the whole benchmark output (tables, cost model, hash, RNG) is identical',
   map { "line $_:\n  boot 1: $a[$_]\n  boot 2: " . ($b[$_] // '(none)') } @diff[0 .. ($#diff < 4 ? $#diff : 4)]);
my @cells = bench_records(\@log1);	# with the @calibration record
my ($sw) = grep { ($_->[0] // '') eq 'cipher' && $_->[1]{engine} eq 'software' && $_->[1]{alg} eq 'aes-128-cbc' &&
		  $_->[1]{dir} eq 'encrypt' && $_->[1]{variant} eq 'separate-aligned' && $_->[1]{bytes} == 8192 } @cells;
my $cpb = $sw ? $sw->[1]{cpb} : undef;
ok(defined $cpb, 'software aes-128-cbc encrypt 8192-byte cell present (cycles per byte from kB/s and tsc_hz)');
print "# software aes-128-cbc encrypt 8192 bytes: " . ($cpb // 'none') . " cycles/byte\n";
print "1..$n\n";
