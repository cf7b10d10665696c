"""Who a box is: the one key it is known by across logs (the kernel's
box key, docs/report-format.md "Box key"), what it is (model, BIOS, image,
date) and whether a log came from the emulation image (docs/qualreport.md,
"Boxes")."""

import re

# lib/util/boxkey.c's placeholders: serials that firmware prints when
# nobody set one, compared without case and surrounding blanks.
PLACEHOLDERS = {
    "to be filled by o.e.m.", "to be filled by oem", "default string", "system serial number",
    "base board serial number", "chassis serial number", "serial number", "not specified",
    "not applicable", "not available", "none", "n/a", "na", "0123456789", "123456789",
    "1234567890", "01234567890", "oem", "o.e.m.", "empty", "unknown", "invalid"}
PLAIN_PLACEHOLDERS = {re.sub(r"[^a-z0-9]", "", p) for p in PLACEHOLDERS}
# What the kernel prints for a string the firmware does not have.
ABSENT = "absent"
# Products that name no model: SMBIOS templates nobody filled in.
NOT_A_PRODUCT = {"to be filled by o.e.m.", "to be filled by oem", "default string", "system product name",
                 "not specified", "not applicable", "none", "n/a", "unknown", "empty", "invalid"}
RE_MAC = re.compile(r"^[0-9a-f]{2}([:-])[0-9a-f]{2}(?:\1[0-9a-f]{2}){4}$")
IDENTITY_TYPES = ("identity", "nic", "smbios", "board", "system", "bios")
# Station addresses that name no box: all zeros, broadcast, and QEMU's
# default (hw/net: 52:54:00:12:34:56, the same in every virtual machine
# started without mac=).
NOT_A_MAC = ("00:00:00:00:00:00", "ff:ff:ff:ff:ff:ff", "52:54:00:12:34:56")
SERIAL_KEYS = ("sys_serial", "system_serial", "smbios_system_serial", "board_serial",
               "baseboard_serial", "smbios_board_serial", "serial")
KEY_MAX = 64        # characters of a key (lib/util/boxkey.h BOXKEY_MAX)
RE_ESCAPED = re.compile(r"\\x([0-9a-fA-F]{2})")


def unescape(text):
    """A value the kernel escaped (lib/util/escape.c: \\xNN for a byte
    outside 0x20-0x7e, for '\\' and, in a record value, for a space; \\#
    for '#' in a test name) as the text it was."""
    return RE_ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), str(text).replace("\\#", "#"))


def is_placeholder(serial):
    """Whether a serial says nothing about the box (lib/util/boxkey.c
    boxkey_placeholder): empty, one character repeated, a vendor
    placeholder, or the kernel's `absent`."""
    plain = re.sub(r"[^a-z0-9]", "", str(serial).lower())
    if not plain or len(set(plain)) == 1:
        return True
    # Compared on letters and digits only, so that a log whose record
    # printed spaces as '_' (older images) reads the same.
    return plain in PLAIN_PLACEHOLDERS or plain == ABSENT


def key_text(text):
    """text as a key (lib/util/boxkey.c copy_key): blanks around it
    dropped, characters other than A-Z a-z 0-9 . _ - as '_', at most 64."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", str(text).strip())[:KEY_MAX]


def mac_key(mac):
    return "mac-" + mac.replace(":", "").replace("-", "").lower()


def identity_records(boots):
    """The @identity records of every boot, last boot last."""
    return [r for b in boots for r in b.records.get("identity", [])]


def box_identity(boots):
    """(kind, name) of the key a box is known by across logs, or None:

    1. the kernel's own key, `@identity box=` (asset=, a real SMBIOS
       serial, the first NIC's MAC as mac-HEX), unless it is `unknown` or
       names QEMU's default MAC; kind asset, serial, board_serial or mac;
    2. for logs of older images, the same choice made here from the
       records: asset=, a real system serial, a real board serial, the
       first NIC station address (any @identity, @nic, @smbios, @board,
       @system or @bios record of any boot).
    None: the caller names the box after its log file."""
    ids = identity_records(boots)
    for r in reversed(ids):
        key = unescape(r.get("box", ""))
        if not key or key in ("unknown", ABSENT) or key == mac_key(NOT_A_MAC[2]):
            continue
        asset = unescape(r.get("asset", ABSENT))
        if asset != ABSENT and key == key_text(asset):
            return "asset", key
        for k in ("sys_serial", "board_serial"):
            v = unescape(r.get(k, ABSENT))
            if not is_placeholder(v) and key == key_text(v):
                return ("serial" if k == "sys_serial" else "board_serial"), key
        if key.startswith("mac-"):
            return "mac", key
        return "asset", key
    for r in ids:
        asset = unescape(r.get("asset", ABSENT))
        if asset not in ("", ABSENT):
            return "asset", key_text(asset)
    macs, serials = [], []
    for b in boots:
        for rtype in IDENTITY_TYPES:
            for r in b.records.get(rtype, []):
                for k, v in r.items():
                    v = unescape(v)
                    low = v.lower()
                    if RE_MAC.match(low) and low.replace("-", ":") not in NOT_A_MAC:
                        macs.append(low.replace("-", ":"))
                    elif (k in SERIAL_KEYS or k.endswith("_serial")) and not is_placeholder(v):
                        rank = SERIAL_KEYS.index(k) if k in SERIAL_KEYS else len(SERIAL_KEYS)
                        serials.append((rank, k, v))
    if serials:
        rank, k, v = sorted(serials, key=lambda x: x[0])[0]
        return ("board_serial" if "board" in k else "serial"), key_text(v)
    if macs:
        return "mac", mac_key(macs[0])
    return None


def real(value):
    """A record value as text, or None when the kernel said absent (or
    nothing)."""
    if value is None:
        return None
    v = unescape(value).strip()
    return None if v in ("", ABSENT) else v


def box_info(boots, chosen):
    """What names and describes the box in every view (docs/qualreport.md,
    "Boxes"): its asset and tag (kernel options), SMBIOS serial, first MAC,
    model (SMBIOS system product, else board product, else the BIOS
    banner), BIOS (vendor, version, date), the image version and the date
    of the run (the box's clock, @identity rtc=); null for what the log
    does not say. chosen: the reported boot (its @identity first)."""
    mine = chosen.records.get("identity", []) if chosen else []
    ids = mine or identity_records(boots)
    r = ids[-1] if ids else {}
    nic_macs = [real(n.get("mac")) for b in ([chosen] if chosen else boots) for n in b.records.get("nic", [])]
    nic_macs = [m for m in nic_macs if m and RE_MAC.match(m.lower())]
    serial = real(r.get("sys_serial"))
    board_serial = real(r.get("board_serial"))
    product = real(r.get("sys_product"))
    if product and product.lower() in NOT_A_PRODUCT:
        product = None
    board = real(r.get("board_product"))
    if board and board.lower() in NOT_A_PRODUCT:
        board = None
    bios = " ".join(x for x in (real(r.get("bios_vendor")), real(r.get("bios_version")),
                                real(r.get("bios_date"))) if x) or real(r.get("bios_banner"))
    return {
        "asset": real(r.get("asset")),
        "tag": real(r.get("tag")),
        "serial": serial if serial and not is_placeholder(serial) else None,
        "board_serial": board_serial if board_serial and not is_placeholder(board_serial) else None,
        "mac": nic_macs[0].lower() if nic_macs else None,
        "model": product or board or real(r.get("bios_banner")),
        "bios": bios,
        "version": (chosen.version if chosen else None) or real(r.get("version")),
        "date": real(r.get("rtc")),
        "emulate": real(r.get("emulate")) if real(r.get("emulate")) != "none" else None,
    }


def model_of(identity, info):
    """The model a baseline is chosen by (docs/qualreport.md, "Baseline
    sets"): CPU vendor, family and model (the # cpu. lines) and the product:
    the SMBIOS system or board product, for a run of the emulation image
    `emulated PROFILE` (its firmware tables are hidden), else null."""
    cpu = (identity or {}).get("cpu") or {}
    product = None
    if info.get("emulate"):
        product = "emulated " + info["emulate"].split(",")[0]
    else:
        rec = (identity or {}).get("record") or {}
        for k in ("sys_product", "board_product"):
            v = real(rec.get(k))
            if v and v.lower() not in NOT_A_PRODUCT:
                product = v
                break
    return {"cpu.vendor": cpu.get("vendor"), "cpu.family": cpu.get("family"), "cpu.model": cpu.get("model"),
            "product": product}


def model_name(model):
    """A model as one phrase: 'emulated net5501 (AuthenticAMD family 5
    model 10)', 'unknown model' when the log says nothing."""
    cpu = model.get("cpu.vendor")
    cpu_text = "%s family %s model %s" % (cpu, model.get("cpu.family"), model.get("cpu.model")) if cpu else None
    if model.get("product") and cpu_text:
        return "%s (%s)" % (model["product"], cpu_text)
    return model.get("product") or cpu_text or "unknown model"


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
