"""Helpers shared by tests/tools/qualreport-*.t: TAP output, the tool loaded
as a module, and real serial logs from booting the kernel in QEMU
(scripts/boot-qemu.sh), made once per test file in a temporary folder."""

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile

TOOL = "tools/qualreport"
BUILD = os.environ.get("CQ_BUILD", "build")
KERNEL = os.environ.get("CQ_KERNEL", os.path.join(BUILD, "cryptoqual.elf"))
EMU_KERNEL = os.path.join(BUILD, "cryptoqual-emu.elf")

N = 0
FAILED = 0
TMP = tempfile.mkdtemp(prefix="qualreport-t.")


def start():
    print("TAP version 13")
    sys.stdout.flush()


def ok(cond, name, why=None):
    global N, FAILED
    N += 1
    print("%sok %d - %s" % ("" if cond else "not ", N, name))
    if not cond:
        FAILED += 1
        if why is not None:
            for line in str(why).splitlines()[:20]:
                print("#   " + line)
    sys.stdout.flush()
    return cond


def skip(name, reason):
    global N
    N += 1
    print("ok %d - %s # SKIP %s" % (N, name, reason))


def diag(text):
    for line in str(text).splitlines():
        print("# " + line)


def done():
    import shutil
    shutil.rmtree(TMP, ignore_errors=True)
    print("1..%d" % N)
    sys.exit(1 if FAILED else 0)


def load_tool():
    loader = importlib.machinery.SourceFileLoader("qualreport", TOOL)
    spec = importlib.util.spec_from_loader("qualreport", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


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
