"""tools/cqreport/identity.py: the box key and emulation."""

import unittest

from helpers import log, report
from cqreport import identity, parse


def boots(*records):
    d = log(report(records=list(records)))
    b = parse.Boot(1, 1)
    for l in parse.split_lines(d)[1:]:
        b.take(l)
    return [b]


class IdentityTest(unittest.TestCase):
    def test_placeholders(self):
        for s in ("To be filled by O.E.M.", "Default string", "0123456789", "absent", "0000", "System Serial Number"):
            self.assertTrue(identity.is_placeholder(s), s)
        self.assertFalse(identity.is_placeholder("CQ-TEST-42"))

    def test_emulation(self):
        self.assertIsNone(identity.emulation(boots("# @identity emulate=none t=0.1")))
        self.assertEqual(identity.emulation(boots("# @identity emulate=c7,fault=rng-stuck t=0.1"))["profile"],
                         "c7,fault=rng-stuck")


if __name__ == "__main__":
    unittest.main()
