#!/usr/bin/perl
# build/host/rngtest-host against Debian's rngtest (rng-tools5) and ent on the
# same bytes: the FIPS 140-2 counts must be identical, and ent's figures
# identical as ent prints them (normal and terse output, byte and bit mode).
# Inputs: a fixed-seed PRNG file, /dev/urandom, a 55 %-ones generator, the
# self-check sources (all-zero, fixed word, 16-bit LFSR, replayed 2 KiB
# block) and blocks on which rngtest's counting differs from FIPS 140-2's
# description (rngtest.h), plus a few tiny files for ent.
# Sizes: 4 bytes (rngtest's seed word) + whole 2500-byte blocks + a tail,
# chosen so no denominator of ent's figures is made of 2s and 5s only (then
# no exact decimal ties; see lib/rng/ent.h).
# Env: CQ_BUILD (build dir, default "build").
use strict;
use warnings;
use File::Temp qw(tempdir);

BEGIN { $| = 1; print "TAP version 13\n"; }
use Test::More;

my $build = $ENV{CQ_BUILD} // 'build';
my $tool = "$build/host/rngtest-host";

sub have { my ($p) = @_; return system("command -v $p >/dev/null 2>&1") == 0 }
plan skip_all => "rngtest (Debian rng-tools5) not installed" unless have('rngtest');
plan skip_all => "ent (Debian ent) not installed" unless have('ent');
die "$tool not built\n" unless -x $tool;

my $dir = tempdir(CLEANUP => 1);

sub run {   # command -> output (stdout and stderr)
	my ($cmd) = @_;
	my $out = `$cmd 2>&1`;
	return $out;
}

sub gen {
	my ($name, $args) = @_;
	my $f = "$dir/$name.bin";
	system("$tool --gen $args > $f") == 0 or die "generator $args failed\n";
	return $f;
}

my %in;
$in{prng} = gen('prng', 'prng --bytes 2501241 --seed 12345');
$in{urandom} = "$dir/urandom.bin";
system("head -c 2501241 /dev/urandom > $in{urandom}") == 0 or die "no /dev/urandom\n";
$in{biased55} = gen('biased55', 'biased55 --bytes 2501241 --seed 99');
$in{zero} = gen('zero', 'bad-zero --bytes 250004');
$in{pattern32} = gen('pattern32', 'bad-pattern32 --bytes 250104');
$in{lfsr16} = gen('lfsr16', 'bad-lfsr16 --bytes 500004');
$in{repeat2k} = gen('repeat2k', 'bad-repeat2k --bytes 500017');
$in{edge} = gen('edge', 'fips-edge --bytes 500004 --seed 7');
my @files = qw(prng urandom biased55 zero pattern32 lfsr16 repeat2k edge);

# ---- rngtest ----

sub counters {   # the counter lines of rngtest's report, in order
	my ($text) = @_;
	return join("\n", grep { /^rngtest: (bits received from input|FIPS 140-2 (successes|failures)|FIPS 140-2\(2001-10-10\) [A-Za-z ]+): \d+$/ }
		split /\n/, $text) . "\n";
}

my %ours;
for my $name (@files) {
	my $f = $in{$name};
	my $want = counters(run("rngtest < $f"));
	$ours{$name} = run("$tool < $f");
	my $got = counters($ours{$name});
	like($want, qr/successes: \d+/, "$name: rngtest printed its counters");
	is($got, $want, "$name: FIPS 140-2 counts identical to rngtest");
}

# The edge file is only a test if counting as FIPS 140-2 describes gives other numbers.
isnt(counters(run("$tool --strict < $in{edge}")), counters(run("rngtest < $in{edge}")),
	'fips-edge: strict FIPS 140-2 counting differs from rngtest on these blocks');
# rngtest -c N stops after N blocks; so does a file cut to 4 + N * 2500 bytes.
is(counters(run("head -c 250004 $in{urandom} | $tool")), counters(run("rngtest -c 100 < $in{urandom}")),
	'urandom: first 100 blocks identical to rngtest -c 100');
like($ours{biased55}, qr/Monobit: 1000$/m, 'biased55: every block fails monobit');
like($ours{zero}, qr/Continuous run: 100$/m, 'zero: every block fails the continuous test');

# ---- ent ----

sub ent_fields {   # ent's normal output -> figures as printed
	my ($text) = @_;
	my %f;
	($f{entropy}, $f{unit}) = $text =~ /Entropy = (\S+) bits per (byte|bit)\./;
	($f{compression}) = $text =~ /by (\d+) percent\./;
	($f{samples}, $f{chisq}) = $text =~ /Chi square distribution for (\d+) samples is (-?nan|\d+\.\d+)/;
	($f{mean}) = $text =~ /Arithmetic mean value of data \w+ is (\S+) /;
	($f{pi}, $f{pi_error}) = $text =~ /Monte Carlo value for Pi is (\S+) \(error (\S+) percent\)/;
	($f{scc}) = $text =~ /Serial correlation coefficient is (\S+)/;
	return \%f;
}

sub terse {   # the data line of ent -t
	my ($text) = @_;
	my ($line) = $text =~ /^(?:ent-terse: )?(1,.*)$/m;
	return $line // '(none)';
}

my @tiny;
for my $t ([ 'empty', '' ], [ 'one', 'a' ], [ 'five', 'abcde' ], [ 'six', 'abcdef' ],
	   [ 'equal', "\xff" x 4099 ], [ 'counter', join('', map { chr } 0 .. 255) x 41 ],
	   # exact decimal ties of the mean: 127.03125 (a double: printed to even),
	   # 127.01875 (not a double: printed as its nearest double, 127.0187)
	   [ 'tie32', ("\x7f" x 31) . "\x80" ], [ 'tie160', ("\x7f" x 159) . "\x82" ]) {
	my $f = "$dir/$t->[0].bin";
	open(my $fh, '>:raw', $f) or die;
	print $fh $t->[1];
	close $fh;
	$in{$t->[0]} = $f;
	push @tiny, $t->[0];
}

for my $name (@files, @tiny) {
	my $f = $in{$name};
	for my $mode ('', '-b') {
		my $label = $mode ? "$name (ent -b)" : $name;
		my $flag = $mode ? ' --bits' : '';
		my $ours = ($mode || !$ours{$name}) ? run("$tool$flag < $f") : $ours{$name};
		my $want = ent_fields(run("ent $mode $f"));
		my $got = ent_fields(join("\n", map { s/^ent: //r } grep { /^ent: / } split /\n/, $ours));
		ok(defined $want->{entropy}, "$label: ent printed its figures");
		is_deeply($got, $want, "$label: entropy, compression, chi-square, mean, pi, serial correlation as ent prints them");
		is(terse($ours), terse(run("ent -t $mode $f")), "$label: ent -t line identical");
	}
}

done_testing();
