# Checks of the benchmark's output shape, shared by tests/boot/bench-tables.t
# and tests/kernel/run/bench-model.t (`require "tests/boot/bench_shape.pl"`).
# The layout and records are those of docs/report-format.md and
# kernel/run/bench.h; the expectations are written here independently of the
# kernel's code.
use strict;
use warnings;

our $BENCH_HEADER = 'type 16 bytes 64 bytes 256 bytes 1024 bytes 8192 bytes 16384 bytes';
# openssl speed's columns: "%7d bytes", 13 characters each.
our $BENCH_HEADER_RE =
	qr/^# type {9,}16 bytes {5}64 bytes {4}256 bytes {3}1024 bytes {3}8192 bytes {2}16384 bytes$/;

# The keys each record type must carry (docs/report-format.md). @cipher and
# @hash are one record per table row: bytes, kbps, spread_pct and ops are
# comma-separated lists, one entry per measured size.
our %BENCH_KEYS = (
	calibration => [qw(tsc_hz pit_hz pmtimer_hz disagreement_ppm)],
	cipher => [qw(engine alg dir variant emulated reps bytes kbps spread_pct ops)],
	cost => [qw(engine alg dir fixed_cycles fixed_err cycles_per_byte cpb_err breakeven_bytes vs fit emulated)],
	hash => [qw(engine alg emulated reps bytes kbps spread_pct ops)],
	rng => [qw(source bytes bytes_per_s emulated)],
	montmul => [qw(engine bits ops_per_s cycles_per_op emulated)],
);
our @BENCH_LISTS = qw(bytes kbps spread_pct ops);

# Parses "# @TYPE k=v ..." lines: a list of [type, {k => v}, line]; undef
# entries for lines that start "# @" but do not parse. A row record
# (@cipher, @hash) becomes one entry per cell, its lists split, with what
# the record leaves to the reader worked out: mode and key_bits from the
# alg (aes-128-cfb: cfb128), and cpb = tsc_hz / (kbps x 1000) when an
# @calibration record came first. A row whose lists differ in length does
# not parse.
sub bench_records {
	my ($lines) = @_;
	my @r;
	my $hz = 0;
	for my $l (@$lines) {
		next unless $l =~ /^# @/;
		if ($l =~ /^# @([a-z]+)((?: [a-z0-9_]+=[^ =]+)+)$/) {
			my ($type, $rest) = ($1, $2);
			my %kv;
			my $dup = 0;
			for my $p (split / /, substr($rest, 1)) {
				my ($k, $v) = split /=/, $p, 2;
				$dup = 1 if exists $kv{$k};
				$kv{$k} = $v;
			}
			if ($dup) {
				push @r, [undef, undef, $l];
				next;
			}
			$hz = $kv{tsc_hz} if $type eq 'calibration';
			unless ($type eq 'cipher' || $type eq 'hash') {
				push @r, [$type, \%kv, $l];
				next;
			}
			my %list = map { ($_ => [split /,/, $kv{$_} // '', -1]) } @BENCH_LISTS;
			my $n = @{$list{bytes}};
			if (!$n || grep { @{$list{$_}} != $n } @BENCH_LISTS) {
				push @r, [undef, undef, $l];
				next;
			}
			for my $i (0 .. $n - 1) {
				my %cell = %kv;
				$cell{$_} = $list{$_}[$i] for @BENCH_LISTS;
				if ($type eq 'cipher' && ($cell{alg} // '') =~ /^aes-(\d+)-([a-z0-9]+)$/) {
					$cell{key_bits} = $1;
					$cell{mode} = $2 eq 'cfb' ? 'cfb128' : $2;
				}
				$cell{cpb} = sprintf('%.2f', $hz / ($cell{kbps} * 1000))
					if $hz && $cell{kbps} =~ /^\d+\.\d+$/ && $cell{kbps} > 0;
				push @r, [$type, \%cell, $l];
			}
		} else {
			push @r, [undef, undef, $l];
		}
	}
	return @r;
}

# The rows of the table whose title line matches $title_re: a list of
# [name, [cells]] from the header to the first line that is not a row.
sub bench_table {
	my ($lines, $title_re) = @_;
	my @rows;
	for (my $i = 0; $i < @$lines; $i++) {
		next unless $lines->[$i] =~ $title_re;
		return () unless ($lines->[$i + 1] // '') =~ /^# type /;
		for (my $j = $i + 2; $j < @$lines; $j++) {
			my @f = split ' ', $lines->[$j];
			last unless @f == 8 && $f[0] eq '#' && $f[1] =~ /:/;
			push @rows, [$f[1], [@f[2 .. 7]]];
		}
		return @rows;
	}
	return ();
}

# Runs the shape checks over a log, reporting through $ok->(cond, name, diag...).
# Returns the parsed records.
sub bench_shape {
	my ($lines, $ok, $label) = @_;
	my @headers = grep { /^# type / } @$lines;
	$ok->(@headers >= 3, "$label: table headers present (" . scalar(@headers) . ")");
	my @bad = grep { my $h = $_; $h =~ s/^# //; $h =~ s/ +/ /g; $h ne $BENCH_HEADER } @headers;
	$ok->(!@bad, "$label: every header reads '$BENCH_HEADER'", @bad);
	@bad = grep { $_ !~ $BENCH_HEADER_RE } @headers;
	$ok->(!@bad, "$label: headers in openssl speed's 13-character columns", @bad);

	my @kb = bench_table($lines, qr/^# bench: AES.*1000s of bytes per second/);
	$ok->(@kb > 0, "$label: AES kB/s table has rows (" . scalar(@kb) . ")");
	my @main = grep { $_->[0] =~ /^[a-z0-9-]+:aes-(128|192|256)-(ecb|cbc|cfb|ofb|ctr)(\(emulated\))?$/ } @kb;
	@bad = map { "$_->[0] @{$_->[1]}" } grep { grep { !/^\d+\.\d\dk$/ } @{$_->[1]} } @main;
	$ok->(@main && !@bad, "$label: every engine:aes-NNN-mode row has six NNNN.NNk figures", @bad);
	@bad = map { "$_->[0] @{$_->[1]}" } grep { grep { !/^(\d+\.\d\dk|-|failed)$/ } @{$_->[1]} } @kb;
	$ok->(!@bad, "$label: every kB/s cell is NNNN.NNk, - or failed", @bad);
	my @cpb = bench_table($lines, qr/^# bench: AES.*cycles per byte/);
	$ok->(@cpb == @kb, "$label: cycles-per-byte table has the same rows");

	my @recs = bench_records($lines);
	@bad = map { $_->[2] } grep { !defined $_->[0] } @recs;
	$ok->(!@bad, "$label: every # \@ line parses as key=value pairs", @bad);
	my @missing;
	for my $r (grep { defined $_->[0] } @recs) {
		my $keys = $BENCH_KEYS{$r->[0]} or next;
		my @m = grep { !defined $r->[1]{$_} } @$keys;
		push @missing, "$r->[2] (missing @m)" if @m;
	}
	$ok->(!@missing, "$label: every record has its documented keys", @missing);

	my @cipher = grep { ($_->[0] // '') eq 'cipher' } @recs;
	@bad = ();
	for my $r (@cipher) {
		my %k = %{$r->[1]};
		push @bad, $r->[2] unless $k{kbps} =~ /^\d+\.\d\d$/ && $k{spread_pct} =~ /^\d+\.\d$/ &&
			$k{bytes} =~ /^(16|64|256|1024|8192|16384)$/ && $k{ops} =~ /^[1-9]\d*$/ &&
			$k{dir} =~ /^(encrypt|decrypt)$/ && $k{emulated} =~ /^[01]$/ && $k{reps} =~ /^[1-9]\d*$/;
	}
	$ok->(@cipher && !@bad, "$label: \@cipher cells are well formed (kbps, spread_pct, ops per size)", @bad);
	# One record per row: no two records for the same engine, alg, dir and variant.
	my %rows;
	$rows{"$_->[1]{engine} $_->[1]{alg} $_->[1]{dir} $_->[1]{variant}"}{$_->[2]} = 1 for @cipher;
	@bad = grep { keys %{$rows{$_}} > 1 } sort keys %rows;
	$ok->(!@bad, "$label: one \@cipher record per table row", @bad);

	# One @cost per separate-aligned (engine, alg, dir), with a break-even
	# (unknown when this fit or the reference's is unreliable).
	my %want = map { ("$_->[1]{engine} $_->[1]{alg} $_->[1]{dir}" => 1) }
		grep { $_->[1]{variant} eq 'separate-aligned' } @cipher;
	my %have = map { ("$_->[1]{engine} $_->[1]{alg} $_->[1]{dir}" => $_->[1]) }
		grep { ($_->[0] // '') eq 'cost' } @recs;
	my @nocost = grep { !$have{$_} } sort keys %want;
	$ok->(%want && !@nocost, "$label: a \@cost record per engine, algorithm and direction", @nocost);
	# The reference of (alg, dir): the software baseline, vperm where it has
	# the row (a CPU with SSSE3), else software (kernel/run/bench_print.c).
	my $baseline = sub {
		my (undef, $alg, $dir) = split / /, $_[0];
		return $have{"vperm $alg $dir"} ? 'vperm' : 'software';
	};
	@bad = map { "$_ breakeven_bytes=$have{$_}{breakeven_bytes} vs=$have{$_}{vs}" }
		grep { my $c = $have{$_}; my $b = $baseline->($_);
		       !($c->{breakeven_bytes} =~ /^(\d+|always|never|below_\d+|unknown)$/ && $c->{vs} eq $b ||
			 $c->{breakeven_bytes} eq 'none' && $c->{vs} eq 'none' && /^\Q$b\E /) } sort keys %have;
	$ok->(!@bad, "$label: every \@cost has a break-even against the software baseline (none for the baseline itself)", @bad);
	@bad = map { "$_ fit=" . ($have{$_}{fit} // '') . " breakeven_bytes=$have{$_}{breakeven_bytes}" }
		grep { my $c = $have{$_};
		       ($c->{fit} // '') !~ /^(ok|unreliable)$/ ||
		       $c->{fit} eq 'unreliable' && $c->{vs} ne 'none' && $c->{breakeven_bytes} ne 'unknown' } sort keys %have;
	$ok->(!@bad, "$label: every \@cost says fit=ok or fit=unreliable, and an unreliable fit has no break-even", @bad);
	# fit=ok only for a fixed cost of 0 or more known within max(fixed / 4, 16 x cycles per
	# byte) (docs/report-format.md); a break-even is never at or below the smallest size.
	@bad = map { "$_ fixed_cycles=$have{$_}{fixed_cycles} fixed_err=$have{$_}{fixed_err} cycles_per_byte=$have{$_}{cycles_per_byte}" }
		grep { my $c = $have{$_};
		       my $bound = $c->{fixed_cycles} / 4;
		       $bound = 16 * $c->{cycles_per_byte} if 16 * $c->{cycles_per_byte} > $bound;
		       $c->{fit} eq 'ok' &&
		       ($c->{fixed_cycles} < 0 || $c->{fixed_err} !~ /^\d+$/ || $c->{fixed_err} > $bound + 1) } sort keys %have;
	$ok->(!@bad, "$label: no \@cost with fit=ok has a negative or imprecise fixed cost", @bad);
	@bad = map { "$_ breakeven_bytes=$have{$_}{breakeven_bytes}" }
		grep { $have{$_}{breakeven_bytes} =~ /^(?:below_)?(\d+)$/ && $1 <= 16 } sort keys %have;
	$ok->(!@bad, "$label: no break-even at or below 16 bytes", @bad);
	return @recs;
}

# Boots the kernel through scripts/boot-qemu.sh: returns (boot-qemu exit
# status, its one-line verdict, the serial log's lines without CR).
sub bench_boot {
	my ($kernel, $opts, @args) = @_;
	my $log = `mktemp`;
	chomp $log;
	my $verdict = `scripts/boot-qemu.sh $opts --log $log -- $kernel @args`;
	my $status = $? >> 8;
	chomp $verdict;
	open(my $fh, '<', $log) or die "cannot read $log: $!";
	my @lines = map { s/\r?\n$//r } <$fh>;
	close $fh;
	unlink $log;
	return ($status, $verdict, @lines);
}

1;
