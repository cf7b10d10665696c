"""The TAP writer of the Python tests (tests/tap-lib.sh is the shell one):
TAP version 13, one `ok`/`not ok` line per result with its failure detail
as `#` lines, SKIPs, the plan at the end and the exit status.

    import taplib as tap
    tap.start()
    tap.ok(value == 3, "the value is 3", value)   # detail printed on failure
    tap.skip("chromium part", "no chromium")
    tap.skip_all("no kernel at build/cryptoqual.elf")  # 1..0 # SKIP, exit 0
    tap.done()                                     # the plan; exit 1 on any failure

A unittest suite reports through run_unittest(suite): one TAP line per test
method, named after it, with the traceback of a failure as detail."""

import atexit
import sys
import unittest

N = 0
FAILED = 0
_cleanups = []


def start():
    print("TAP version 13")
    sys.stdout.flush()


def ok(cond, name, why=None):
    """One result; returns cond. why (any object) is printed, at most 20
    lines, under a failing result."""
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
    sys.stdout.flush()


def skip_all(reason):
    """Nothing to test here: the plan 1..0 with the reason, exit 0."""
    print("1..0 # SKIP %s" % reason)
    sys.stdout.flush()
    sys.exit(0)


def diag(text):
    for line in str(text).splitlines():
        print("# " + line)
    sys.stdout.flush()


def at_done(fn):
    """fn() runs once at the end (removing temporary folders): in done()
    before the plan, in skip_all(), or at exit after an uncaught error."""
    _cleanups.append(fn)


def _run_cleanups():
    while _cleanups:
        _cleanups.pop(0)()


atexit.register(_run_cleanups)


def done():
    """The plan, then exit: 1 when any result failed."""
    _run_cleanups()
    print("1..%d" % N)
    sys.stdout.flush()
    sys.exit(1 if FAILED else 0)


class _TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self._bad = None

    def startTest(self, test):
        super().startTest(test)
        self._bad = None

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._bad = self._exc_info_to_string(err, test)

    def addError(self, test, err):
        super().addError(test, err)
        self._bad = self._exc_info_to_string(err, test)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._bad = ("skip", reason)

    def stopTest(self, test):
        super().stopTest(test)
        parts = test.id().split(".")
        name = "%s: %s" % (parts[0].replace("test_", "", 1), parts[-1].replace("test_", "", 1).replace("_", " "))
        doc = test.shortDescription()
        if doc:
            name += ": " + doc
        if isinstance(self._bad, tuple):
            skip(name, self._bad[1])
        else:
            ok(self._bad is None, name, self._bad)


def run_unittest(suite):
    """Runs a unittest suite, one TAP result per test method."""
    suite.run(_TapResult())
