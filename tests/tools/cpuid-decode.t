#!/usr/bin/perl
# cpuid-decode over every dump in $CQ_SHARED/data/cpuid, checked against what
# the CPUs' documentation says, plus its error handling (usage, unreadable,
# malformed and unusable dumps) and --help.
# Env: CQ_BUILD (build dir, default "build"), CQ_SHARED (default ../shared).
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Temp qw(tempfile);

BEGIN { $| = 1; print "TAP version 13\n"; }
use Test::More;

my $build = $ENV{CQ_BUILD} // 'build';
my $shared = $ENV{CQ_SHARED} // abs_path('../shared') // '../shared';
my $tool = "$build/host/cpuid-decode";
my $dir = "$shared/data/cpuid";

plan skip_all => "no dumps in $dir" unless -d $dir;

# The keys cpuid_kv() must print first, in this order.
my @required = qw(vendor family model stepping brand cmov sse2 aesni rdrand
	rdseed padlock.rng padlock.ace padlock.ace2 padlock.phe padlock.pmm
	padlock.phe2);

my %none = map { ("padlock.$_" => 'absent') } qw(rng ace ace2 phe pmm phe2);

# Expected values per dump file. Sources:
# - Geode LX: AMD Geode LX Processors Data Book, CPUID chapter (signature
#   0x5A2 = family 5 model 10; CMOV and MMX, no SSE; brand "Geode(TM)
#   Integrated Processor by AMD PCS").
# - VIA: PadLock Programming Guide (CPUID 0xC0000001 EDX); Linux /proc/cpuinfo
#   of a C7 6.10.9 reads "rng rng_en ace ace_en ace2 ace2_en phe phe_en pmm
#   pmm_en". Samuel 2 (C5B) has no PadLock and no CMOV; Nehemiah stepping 8
#   has the RNG and ACE; Nano has RNG, AES and SHA (no PMM); its ACE2 is
#   reported present but not enabled.
# - Ivy Bridge: Intel SDM vol. 4 (06_3AH); AES-NI and RDRAND, RDSEED only
#   from Broadwell on, no SHA extensions.
# - Zhaoxin KaiXian KX-7000: a real part reports vendor CentaurHauls and
#   family 7 (shared/notes/via-padlock.md); signature 0x607B1 gives model
#   0x6B = 107 (the extended model counts from family 6 on: Linux
#   arch/x86/lib/cpu.c x86_model()), stepping 1. Its brand string is
#   right-aligned ("ZHAOXIN KaiXian KX-7000" after the leading blanks).
#   CPUID 0xC0000001 EDX 0x1EC03DFF: RNG, ACE, PHE, PMM present and enabled,
#   ACE2 present but not enabled (bit 9 clear), PHE2 (bits 25/26, Zhaoxin)
#   present and enabled. Leaf 1 ECX has AES-NI and RDRAND, leaf 7 EBX RDSEED
#   and SHA.
my %expect = (
	'AuthenticAMD00005A2_GeodeLX_CPUID.txt' => {
		vendor => 'AuthenticAMD', family => 5, model => 10,
		stepping => 2,
		brand => 'Geode(TM) Integrated Processor by AMD PCS',
		cmov => 1, mmx => 1, sse => 0, sse2 => 0, tsc => 1, msr => 1,
		aesni => 0, rdrand => 0, rdseed => 0, %none,
	},
	'CentaurHauls0000673_C5B_Samuel2_CPUID.txt' => {
		vendor => 'CentaurHauls', family => 6, model => 7,
		stepping => 3, brand => 'VIA Samuel 2',
		cmov => 0, mmx => 1, sse => 0, sse2 => 0,
		aesni => 0, rdrand => 0, rdseed => 0, %none,
	},
	'CentaurHauls0000698_C5P_Nehemiah_CPUID.txt' => {
		vendor => 'CentaurHauls', family => 6, model => 9,
		stepping => 8, brand => 'VIA Nehemiah',
		cmov => 1, sse => 1, sse2 => 0, aesni => 0, rdrand => 0,
		%none, 'padlock.rng' => 'enabled', 'padlock.ace' => 'enabled',
	},
	'CentaurHauls00006A9_C5J_Esther_CPUID.txt' => {
		vendor => 'CentaurHauls', family => 6, model => 10,
		stepping => 9, brand => 'VIA Esther processor 1500MHz',
		cmov => 1, sse2 => 1, aesni => 0, rdrand => 0,
		'padlock.rng' => 'enabled', 'padlock.ace' => 'enabled',
		'padlock.ace2' => 'enabled', 'padlock.phe' => 'enabled',
		'padlock.pmm' => 'enabled', 'padlock.phe2' => 'absent',
	},
	'CentaurHauls00006F2_CNA_Isaiah_CPUID.txt' => {
		vendor => 'CentaurHauls', family => 6, model => 15,
		stepping => 2, brand => 'VIA CNA processor 1800MHz',
		cmov => 1, sse2 => 1, aesni => 0, rdrand => 0, rdseed => 0,
		sha => 0,
		'padlock.rng' => 'enabled', 'padlock.ace' => 'enabled',
		'padlock.ace2' => 'present', 'padlock.phe' => 'enabled',
		'padlock.pmm' => 'absent', 'padlock.phe2' => 'absent',
	},
	'GenuineIntel00306A9_IvyBridge_CPUID.txt' => {
		vendor => 'GenuineIntel', family => 6, model => 58,
		stepping => 9,
		brand => 'Intel(R) Core(TM) i7-3770K CPU @ 3.50GHz',
		cmov => 1, sse2 => 1, aesni => 1, pclmulqdq => 1, rdrand => 1,
		rdseed => 0, sha => 0, hypervisor => 0, %none,
	},
	'CentaurHauls00607B1_KX7000_CPUID.txt' => {
		vendor => 'CentaurHauls', family => 7, model => 107,
		stepping => 1, brand => 'ZHAOXIN KaiXian KX-7000',
		cmov => 1, sse2 => 1, aesni => 1, rdrand => 1, rdseed => 1,
		sha => 1, hypervisor => 0,
		'padlock.rng' => 'enabled', 'padlock.ace' => 'enabled',
		'padlock.ace2' => 'present', 'padlock.phe' => 'enabled',
		'padlock.pmm' => 'enabled', 'padlock.phe2' => 'enabled',
	},
);

# Runs the tool; returns (exit status, stdout lines, stderr text).
sub run_tool {
	my @args = @_;
	my (undef, $errfile) = tempfile(UNLINK => 1);
	my $pid = open(my $out, '-|') // die "fork: $!";
	if ($pid == 0) {
		open(STDERR, '>', $errfile) or die "$errfile: $!";
		exec($tool, @args) or die "exec $tool: $!";
	}
	my @lines = <$out>;
	close($out);
	my $status = $? >> 8;
	chomp @lines;
	open(my $e, '<', $errfile) or die "$errfile: $!";
	local $/;
	my $err = <$e> // '';
	return ($status, \@lines, $err);
}

sub check_dump {
	my ($file) = @_;
	my $want = $expect{$file};
	my ($status, $lines, $err) = run_tool('--kv', "$dir/$file");
	is($status, 0, "$file: exit status") or diag($err);
	my @keys = map { (split /=/, $_, 2)[0] } @$lines;
	is_deeply([@keys[0 .. $#required]], \@required, "$file: key order")
		or diag(join("\n", @$lines));
	my %got = map { split /=/, $_, 2 } @$lines;
	for my $key (sort keys %$want) {
		is($got{$key}, $want->{$key}, "$file: $key");
	}
}

sub write_temp {
	my ($text) = @_;
	my ($fh, $path) = tempfile(UNLINK => 1);
	print $fh $text;
	close($fh);
	return $path;
}

sub check_fails {
	my ($name, $stderr_re, @args) = @_;
	my ($status, $lines, $err) = run_tool(@args);
	is($status, 2, "$name: exit status 2");
	like($err, $stderr_re, "$name: message") or diag("stderr: $err");
}

if (!-x $tool) {
	fail("$tool is built");
	done_testing();
	exit;
}

opendir(my $dh, $dir) or die "$dir: $!";
my @files = sort grep { -f "$dir/$_" } readdir($dh);
closedir($dh);
ok(@files > 0, "dumps found in $dir");
my %present = map { $_ => 1 } @files;
for my $file (@files) {
	if (!$expect{$file}) {
		fail("$file has expectations in this test");
		next;
	}
	check_dump($file);
}
for my $file (sort keys %expect) {
	ok($present{$file}, "$file is in $dir");
}

check_fails('no arguments', qr/usage/);
check_fails('no --kv', qr/usage/, "$dir/$files[0]");
check_fails('missing file', qr/nonexistent.*No such file/,
	'--kv', "$dir/nonexistent");
check_fails('malformed line', qr/:3: malformed CPUID line/, '--kv',
	write_temp("x\nCPUID 00000000: 00000001-68747541-444D4163-69746E65\n"
		. "CPUID 00000001: 000005A2-00000400-00000000\n"));
check_fails('no CPUID lines', qr/no CPUID lines/, '--kv',
	write_temp("just text\n"));
# Leaf 0 or leaf 1 missing: nothing to decode, not family=0 with exit 0.
my $only0 = write_temp("CPUID 00000000: 00000001-68747541-444D4163-69746E65\n");
check_fails('a dump without leaf 1', qr/^cpuid-decode: \Q$only0\E: no CPUID leaf 1: not a usable dump$/m,
	'--kv', $only0);
my $only1 = write_temp("CPUID 00000001: 000005A2-00000400-00000000-0088A93D\n");
check_fails('a dump without leaf 0', qr/^cpuid-decode: \Q$only1\E: no CPUID leaf 0: not a usable dump$/m,
	'--kv', $only1);
{
	my ($status, $lines, $err) = run_tool('--kv', $only0);
	ok(!@$lines, 'a dump without leaf 1: no KEY=VALUE lines') or diag(join("\n", @$lines));
}
for my $opt ('--help', '-h') {
	my ($status, $lines, $err) = run_tool($opt);
	is($status, 0, "$opt: exit status 0");
	like($lines->[0] // '', qr/^usage: cpuid-decode --kv DUMP$/, "$opt: the usage on stdout");
	is($err, '', "$opt: nothing on stderr");
}

done_testing();
