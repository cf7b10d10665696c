"""Helpers of the network boot tests (tests/boot/net-*.t): a boot through
scripts/net-run.py (QEMU's e1000 with real collectors, or a small LAN, all
on 127.0.0.1 and stopped when the boot ends), its files read back, and
the report's lines as the serial log has them (CR removed). make_run()
gives the boot `make run MACHINE=... NET=user` does on an emulated
machine, taken from `make -n`."""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import taplib as tap  # noqa: E402

BUILD = os.environ.get("CQ_BUILD", "build")
KERNEL = os.environ.get("CQ_KERNEL", os.path.join(BUILD, "cryptoqual.elf"))
EMU_KERNEL = os.path.join(BUILD, "cryptoqual-emu.elf")
SHARED = os.environ.get("CQ_SHARED", os.path.join(ROOT, "..", "shared"))
TMP = tempfile.mkdtemp(prefix="cq-net-t.")
tap.at_done(lambda: shutil.rmtree(TMP, ignore_errors=True))
QUICK = ["bench=off", "rng_bytes=2500"]   # the network is what is tested: a short run
RE_SYSLOG = re.compile(rb'^\[meta sequenceId="([0-9]+)"\](?: (.*))?$')


def missing_tools():
    """What the network tests need and the machine lacks ("" for nothing)."""
    need = []
    if not os.path.isfile(KERNEL):
        need.append("no kernel at %s (run make)" % KERNEL)
    for tool in ("rsyslogd", "in.tftpd", "qemu-system-i386"):
        if shutil.which(tool) is None and not os.path.exists("/usr/sbin/" + tool):
            need.append("no %s (scripts/install-deps.sh installs it)" % tool)
    return "; ".join(need)


def emu_missing_data():
    """Why there is no emulation build here ("" when there can be one)."""
    for d in ("cpuid", "pci"):
        if not os.path.isdir(os.path.join(SHARED, "data", d)):
            return "%s/data not found: no emulation build without the CPUID dumps and PCI listings" % SHARED
    return ""


def start(emu=False):
    """The TAP header, then the plan 1..0 and exit when the machine lacks
    what the boots need (missing_tools; with emu, emu_missing_data too);
    with emu, a failed result and the plan when the emulation image is not
    built."""
    tap.start()
    why = missing_tools() or (emu and emu_missing_data())
    if why:
        tap.skip_all(why)
    if emu and not tap.ok(os.path.isfile(EMU_KERNEL), "the emulation image exists at %s (run make emu)" % EMU_KERNEL):
        tap.done()


def make_run(machine, args, fault=None):
    """The boot of `make run MACHINE=machine [FAULT=fault] NET=user ARGS=args`
    as make would run it (`make -n`: nothing is built or booted here), as
    (opts, kernel, args) for Boot; the output folder is the test's and
    --show is left out. None when make names no scripts/net-run.py boot."""
    cmd = ["make", "-n", "--no-print-directory", "run", "MACHINE=" + machine, "NET=user",
           "ARGS=" + " ".join(args), "BUILD=" + BUILD, "SHARED=" + SHARED] + (["FAULT=" + fault] if fault else [])
    # Not the flags of a make check around this test (its jobserver, its -j).
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
    lines = [ln for ln in r.stdout.splitlines() if "scripts/net-run.py " in ln]
    if r.returncode != 0 or not lines:
        tap.diag("make -n: %s%s" % (r.stdout[-500:], r.stderr[-500:]))
        return None
    argv = shlex.split(lines[-1].split("&&")[-1])
    sep = argv.index("--")
    opts, rest = argv[1:sep], argv[sep + 1:]
    if "--out" in opts:
        i = opts.index("--out")
        del opts[i:i + 2]
    opts = [o for o in opts if o != "--show"]
    return opts, rest[0], rest[1:]


class Boot:
    def __init__(self, label, opts, args, kernel=None):
        self.out = os.path.join(TMP, label)
        cmd = [os.path.join(ROOT, "scripts/net-run.py"), "--out", self.out] + opts + \
              ["--", kernel or KERNEL] + args
        env = dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
        self.status = r.returncode
        self.stdout = r.stdout + r.stderr
        # A run that stopped before the boot (a collector that never listened)
        # leaves neither file: its results fail with its output, not a traceback.
        try:
            with open(os.path.join(self.out, "summary.json")) as f:
                self.summary = json.load(f)
        except (OSError, ValueError):
            self.summary = {}
        try:
            with open(os.path.join(self.out, "serial.log"), "rb") as f:
                self.serial = f.read().replace(b"\r", b"")
        except OSError:
            self.serial = b""
        self.lines = self.serial.split(b"\n")[:-1]
        tap.diag("%s: %s" % (label, self.summary.get("boot_qemu")))

    def verdict(self):
        v = [ln for ln in self.lines if ln.startswith(b"# cryptoqual: ")]
        return v[-1].decode() if v else None

    def grep(self, pattern):
        return [ln.decode("ascii", "replace") for ln in self.lines if re.search(pattern.encode(), ln)]

    def files(self, kind):
        folder = os.path.join(self.out, kind)
        return [os.path.join(folder, f) for f in self.summary.get(kind + "_files", [])]

    def syslog_records(self, path):
        """(sequenceId, line) in file order from a per-box file."""
        recs = []
        with open(path, "rb") as f:
            for raw in f.read().split(b"\n"):
                m = RE_SYSLOG.match(raw)
                if m:
                    recs.append((int(m.group(1)), m.group(2) or b""))
        return recs

    def daemons_gone(self):
        alive = []
        for pid in self.summary.get("daemon_pids", []):
            try:
                os.kill(pid, 0)
                alive.append(pid)
            except OSError:
                pass
        return alive


def qualreport_verdict(path):
    r = subprocess.run([os.path.join(ROOT, "tools/qualreport"), "parse", path], capture_output=True, text=True)
    try:
        return json.loads(r.stdout)[0]["verdict"]
    except (ValueError, IndexError, KeyError):
        return "unreadable: " + r.stderr.strip()
