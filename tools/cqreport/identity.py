"""Who a box is: the key it is known by across logs, and whether a log
came from the emulation image (docs/qualreport.md, "Boxes")."""

import re

# Serials that firmware prints when nobody set one (letters and digits only).
NOT_A_SERIAL = {"", "absent", "none", "na", "unknown", "defaultstring", "default", "tobefilledbyoem",
                "systemserialnumber", "serialnumber", "chassisserialnumber", "notspecified",
                "notapplicable", "0123456789", "123456789", "ffffffff"}
RE_MAC = re.compile(r"^[0-9a-f]{2}([:-])[0-9a-f]{2}(?:\1[0-9a-f]{2}){4}$")
IDENTITY_TYPES = ("identity", "nic", "smbios", "board", "system", "bios")
# Station addresses that name no box: all zeros, broadcast, and QEMU's
# default (hw/net: 52:54:00:12:34:56, the same in every virtual machine
# started without mac=).
NOT_A_MAC = ("00:00:00:00:00:00", "ff:ff:ff:ff:ff:ff", "52:54:00:12:34:56")
SERIAL_KEYS = ("sys_serial", "system_serial", "smbios_system_serial", "board_serial",
               "baseboard_serial", "smbios_board_serial", "serial")


def is_placeholder(serial):
    plain = re.sub(r"[^a-z0-9]", "", serial.lower())
    return plain in NOT_A_SERIAL or re.match(r"^0*$", plain) is not None


def box_identity(boots):
    """The key a box is known by across logs: the first NIC station address
    (MAC) in its identity records, else its SMBIOS system or baseboard serial
    (placeholders such as 'To be filled by O.E.M.' skipped), else None. Any
    `@identity`, `@nic`, `@smbios`, `@board`, `@system` or `@bios` record of
    any boot counts (docs/qualreport.md, "Boxes")."""
    macs, serials = [], []
    for b in boots:
        for rtype in IDENTITY_TYPES:
            for r in b.records.get(rtype, []):
                for k, v in r.items():
                    v = str(v).lower()
                    if RE_MAC.match(v) and v.replace("-", ":") not in NOT_A_MAC:
                        macs.append(v.replace("-", ":"))
                    elif (k in SERIAL_KEYS or k.endswith("_serial")) and not is_placeholder(v):
                        serials.append((SERIAL_KEYS.index(k) if k in SERIAL_KEYS else len(SERIAL_KEYS),
                                        str(r[k])))
    if macs:
        return "mac", macs[0]
    if serials:
        return "serial", sorted(serials, key=lambda x: x[0])[0][1]
    return None


def emulation(boots):
    """How a log says it came from the emulation image: the @identity
    record's emulate= (anything but 'none') or a record with emulated=1.
    None for a real box."""
    profile = None
    records = 0
    for b in boots:
        for rtype, rs in b.records.items():
            for r in rs:
                if rtype == "identity" and str(r.get("emulate", "none")) != "none":
                    profile = str(r["emulate"])
                if r.get("emulated") == 1:
                    records += 1
    if profile is None and not records:
        return None
    return {"profile": profile, "records": records}

