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

    def test_kernel_order(self):
        """the key is asset=, else a real serial, else the first MAC, as lib/util/boxkey.c makes it"""
        nic = "# @nic pci=00:06.0 id=1106:3053 kind=via-rhine mac=00:00:24:CB:55:01 t=0.2"
        self.assertEqual(identity.box_identity(boots(nic)), ("mac", "mac-000024cb5501"))
        self.assertEqual(identity.box_identity(boots(nic, "# @identity sys_serial=To\\x20be\\x20filled\\x20by"
                                                          "\\x20O.E.M. board_serial=BRD\\x201 t=0.1")),
                         ("board_serial", "BRD_1"))
        self.assertEqual(identity.box_identity(boots(nic, "# @identity sys_serial=SN-7 asset=absent t=0.1")),
                         ("serial", "SN-7"))
        self.assertEqual(identity.box_identity(boots(nic, "# @identity sys_serial=SN-7 asset=R7/U12 t=0.1")),
                         ("asset", "R7_U12"))
        self.assertEqual(identity.box_identity(boots("# @identity sys_serial=SN-7 asset=absent box=SN-7 t=0.1")),
                         ("serial", "SN-7"))

    def test_model(self):
        info = {"emulate": "net5501,fault=dma-timeout"}
        ident = {"cpu": {"vendor": "AuthenticAMD", "family": 5, "model": 10}, "record": {"sys_product": "absent"}}
        m = identity.model_of(ident, info)
        self.assertEqual(m, {"cpu.vendor": "AuthenticAMD", "cpu.family": 5, "cpu.model": 10,
                             "product": "emulated net5501"})
        self.assertEqual(identity.model_name(m), "emulated net5501 (AuthenticAMD family 5 model 10)")
        ident["record"] = {"sys_product": "To be filled by O.E.M.", "board_product": "ALIX.2D3"}
        self.assertEqual(identity.model_of(ident, {})["product"], "ALIX.2D3")

    def test_emulation(self):
        self.assertIsNone(identity.emulation(boots("# @identity emulate=none t=0.1")))
        self.assertEqual(identity.emulation(boots("# @identity emulate=c7,fault=rng-stuck t=0.1"))["profile"],
                         "c7,fault=rng-stuck")


if __name__ == "__main__":
    unittest.main()
