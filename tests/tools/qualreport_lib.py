"""Helpers shared by tests/tools/qualreport-*.t: TAP output (tests/taplib.py),
the tool's package (tools/cqreport) loaded, and real serial logs from booting the kernel in QEMU
(scripts/boot-qemu.sh), made once per test file in a temporary folder."""

import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import taplib as tap  # noqa: E402
from taplib import start, ok, skip, skip_all, diag, done  # noqa: E402,F401


def debian_python(module):
    """Re-runs this test under Debian's python3 when module (a Debian
    package's, such as python3-jsonschema's) is missing from the python3
    first in PATH (a virtualenv, pyenv)."""
    try:
        __import__(module)
    except ImportError:
        if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and \
                os.path.exists("/usr/bin/python3"):
            if globals().get("TMP"):
                shutil.rmtree(TMP, ignore_errors=True)     # the exec'd test makes its own
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        raise


debian_python("jsonschema")

TOOL = "tools/qualreport"
BUILD = os.environ.get("CQ_BUILD", "build")
KERNEL = os.environ.get("CQ_KERNEL", os.path.join(BUILD, "cryptoqual.elf"))
EMU_KERNEL = os.path.join(BUILD, "cryptoqual-emu.elf")

TMP = tempfile.mkdtemp(prefix="qualreport-t.")
tap.at_done(lambda: shutil.rmtree(TMP, ignore_errors=True))


MODULES = ("common", "identity", "verdict", "parse", "schema", "baseline", "compare", "plot", "html", "db", "cli")


def load_tool():
    """The names of every tools/cqreport module in one namespace
    (QR.parse_log, QR.judge, ...), as the tests call them."""
    ns = types.SimpleNamespace()
    for m in MODULES:
        mod = importlib.import_module("cqreport." + m)
        for k, v in vars(mod).items():
            if not k.startswith("_"):
                setattr(ns, k, v)
    return ns


def write(name, data):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def run(*args):
    r = subprocess.run([TOOL] + list(args), capture_output=True)
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def boot(label, args, cpu="max", kernel=None, icount=False):
    """Boots the kernel (or the emulation kernel) and returns the raw serial
    log as bytes, or None when the kernel is not built."""
    kernel = kernel or KERNEL
    if not os.path.exists(kernel):
        return None
    log = os.path.join(TMP, label + ".raw")
    cmd = ["scripts/boot-qemu.sh", "--cpu", cpu, "--timeout", "240", "--log", log]
    if icount:
        cmd.append("--icount")
    r = subprocess.run(cmd + ["--", kernel] + list(args), capture_output=True, text=True)
    diag("boot %s (%s %s): %s" % (label, cpu, " ".join(args), r.stdout.strip()))
    with open(log, "rb") as f:
        return f.read()
