#!/usr/bin/perl
# pci-scan over the real PCI listings in $CQ_SHARED/data/pci: every function
# a listing shows must come out of the enumerator with the same address,
# IDs and class, and nothing else. The expectations are read from each
# listing here, independently of lib/host/pci_listing.c.
use strict;
use warnings;
use File::Temp qw(tempfile);

my $build = $ENV{CQ_BUILD} // 'build';
my $shared = $ENV{CQ_SHARED} // '../shared';
my $dir = "$shared/data/pci";
my $tool = "$build/host/pci-scan";

print "TAP version 13\n";
unless (-d $dir) {
	print "1..0 # SKIP no PCI listings in $dir\n";
	exit 0;
}
my @listings = sort glob("$dir/*.txt");
unless (@listings) {
	print "1..0 # SKIP no *.txt in $dir\n";
	exit 0;
}

my $n = 0;
my $failed = 0;
sub ok {
	my ($cond, $name, @diag) = @_;
	$n++;
	print(($cond ? "ok" : "not ok") . " $n - $name\n");
	unless ($cond) {
		$failed++;
		print "# $_\n" for map { split /\n/ } @diag;
	}
	return $cond;
}

# Functions a listing shows: [bdf, "vvvv:dddd", class prefix, rev or undef].
sub listed {
	my ($path) = @_;
	open(my $fh, '<', $path) or die "$path: $!";
	my @f;
	while (my $l = <$fh>) {
		$l =~ s/\r?\n$//;
		next if $l =~ /^\s*(#|$|Slot\b|-+$)/;
		if ($l =~ /^(\d+):(\d+):(\d+)\s+([0-9A-Fa-f]{4})\s+([0-9A-Fa-f]{4})\s+([0-9A-Fa-f]{8})\s/) {
			# comBIOS: Slot in decimal, ClassRev = class subclass prog-if rev
			my $cr = lc $6;
			push @f, [sprintf("%02x:%02x.%x", $1, $2, $3), lc "$4:$5",
			    join('.', unpack('(A2)3', $cr)), substr($cr, 6, 2)];
		} elsif ($l =~ /^(?:0000:)?([0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) .*?\[([0-9a-f]{2})([0-9a-f]{2})\]: .*?\[([0-9a-f]{4}:[0-9a-f]{4})\]/) {
			# lspci -nn: no prog-if unless "(prog-if pp" follows
			my ($bdf, $cls, $ids) = ($1, "$2.$3.", $4);
			my ($rev) = $l =~ /\(rev ([0-9a-f]{2})\)/;
			my ($pi) = $l =~ /\(prog-if ([0-9a-f]{2})/;
			push @f, [$bdf, $ids, $cls . ($pi // '00'), $rev // '00'];
		} else {
			die "$path: line $.: cannot read '$l'\n";
		}
	}
	return @f;
}

for my $path (@listings) {
	(my $name = $path) =~ s{.*/}{};
	my @want = listed($path);
	my ($efh, $efile) = tempfile(UNLINK => 1);
	my $out = `'$tool' '$path' 2>'$efile'`;
	my $rc = $? >> 8;
	my $err = do { local $/; <$efh> } // '';
	ok($rc == 0, "$name: pci-scan exits 0", "exit $rc", $err);
	ok($err eq '', "$name: no warnings", $err);
	my @lines = split /\n/, $out;
	my $header = shift(@lines) // '';
	ok($header =~ /^BB:DD\.F VVVV:DDDD CC\.SS\.PP REV/, "$name: header line",
	    $header);
	ok(@lines == @want, "$name: " . scalar(@want) . " rows, one per listed function",
	    "got " . scalar(@lines), $out);
	my %row = map { (split / /)[0] => $_ } @lines;
	for my $w (@want) {
		my ($bdf, $ids, $cls, $rev) = @$w;
		my $r = $row{$bdf} // '';
		ok($r =~ /^\Q$bdf $ids $cls\E rev \Q$rev\E /,
		    "$name: $bdf $ids $cls rev $rev", "row: '$r'");
	}
	# The Geode security block must show its 16 KiB memory BAR0.
	my @sb = grep { $_->[1] eq '1022:2082' } @want;
	for my $w (@sb) {
		my $r = $row{$w->[0]} // '';
		my ($base) = $r =~ / BAR0=mem32:(0x[0-9a-f]{8})\/16K /;
		ok(defined $base && hex($base) != 0,
		    "$name: $w->[0] 1022:2082 has BAR0 16K of memory", "row: '$r'");
	}
}

# Facts of the two boards, should the files change.
my %row_of;
for my $path (@listings) {
	my $out = `'$tool' '$path' 2>/dev/null`;
	(my $name = $path) =~ s{.*/}{};
	$row_of{$name}{(split / /)[0]} = $_ for split /\n/, $out;
}
if (my $net = $row_of{'net5501-combios-showpci.txt'}) {
	ok(($net->{'00:01.2'} // '') =~ /^00:01\.2 1022:2082 10\.10\.00 rev 00 BAR0=mem32:0xa0000000\/16K Entertainment encryption device$/,
	    "net5501: security block at 0xa0000000", $net->{'00:01.2'} // 'missing');
	ok(($net->{'00:14.0'} // '') =~ /^00:14\.0 1022:2090 06\.01\.00 rev 03 BAR0=io:0x6000\/8 BAR1=io:0x6100\/256 ISA bridge$/,
	    "net5501: Slot 0:20:0 (decimal) is 00:14.0", $net->{'00:14.0'} // 'missing');
	ok(($net->{'00:06.0'} // '') =~ / BAR0=io:0xe100\/256 BAR1=mem32:0xa0004000\/256 Ethernet controller$/,
	    "net5501: VT6105M BARs", $net->{'00:06.0'} // 'missing');
}
if (my $alix = $row_of{'alix2d3-lspci-nn.txt'}) {
	ok(($alix->{'00:01.2'} // '') =~ /^00:01\.2 1022:2082 10\.10\.00 rev 00 BAR0=mem32:0xefff4000\/16K Entertainment encryption device$/,
	    "alix2d3: security block at the default 0xefff4000", $alix->{'00:01.2'} // 'missing');
	ok(($alix->{'00:0f.2'} // '') =~ /^00:0f\.2 1022:209a 01\.01\.00 rev 01 IDE interface$/,
	    "alix2d3: IDE interface, no BARs", $alix->{'00:0f.2'} // 'missing');
}

print "1..$n\n";
exit($failed ? 1 : 0);
