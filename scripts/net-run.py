#!/usr/bin/env python3
"""Boots a cryptoqual kernel in QEMU with its e1000 on a network, with the
collectors the report goes to, all on 127.0.0.1 and all stopped when the
boot ends (docs/network.md, "Trying it").

    scripts/net-run.py [options] -- KERNEL [kernel arguments...]

Networks (--net):
  user     QEMU's user network (slirp: its DHCP server gives 10.0.2.15; guest
           traffic to 10.0.2.2 reaches the host's loopback). A real rsyslogd
           (tools/collector/rsyslog-cryptoqual.conf) and a real in.tftpd
           (tftpd-hpa, -c -s DIR) listen on free ports of 127.0.0.1; the
           kernel gets net=dhcp syslog=10.0.2.2:P tftp=10.0.2.2:P.
           --loss PCT puts a relay that drops PCT % of the datagrams (both
           ways, seeded) between the box and each collector.
           --tftp absent|error: no TFTP server on its port, or in.tftpd
           without -c (it answers the write request with ERROR 1).
           --link-down: QEMU starts stopped, the NIC's link is set down
           over QMP, then the box runs. --static: the address as PXELINUX's
           IPAPPEND 3 passes it (ip=, BOOTIF=) instead of net=dhcp.
  lan      a socket netdev whose other end is this script, a small LAN of
           192.0.2.0/24 (RFC 5737): a DHCP server (192.0.2.1) that answers
           (--lan ok), never answers (silent), offers with options of
           wrong lengths and a host name and TFTP server name holding
           control bytes (garbage), or answers while flooding the box with
           broadcast ARP requests and UDP broadcasts (flood). Its syslog
           receiver keeps what arrives in the rsyslog per-box form.

Output: --out DIR (default: a temporary folder, removed) holds serial.log,
syslog/BOX.log, tftp/FILE, and summary.json: the boot's verdict line,
boot-qemu's exit status, the files, the lan's counters. Exit status: that
of scripts/boot-qemu.sh (0 PASS, 1 FAIL, 2 crash or hang)."""

import argparse
import json
import os
import random
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sbin(name):
    """A daemon's path: on PATH, else in /usr/sbin (not on a user's PATH on Debian)."""
    return shutil.which(name) or os.path.join("/usr/sbin", name)


def free_udp_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Daemons:
    """The processes started here, each stopped (by its own pid) at the end."""

    def __init__(self):
        self.procs = []

    def start(self, argv, log):
        p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.procs.append(p)
        return p

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def start_rsyslogd(d, out, port):
    folder = os.path.join(out, "syslog")
    os.makedirs(folder, exist_ok=True)
    work = os.path.join(out, "rsyslog-work")
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(ROOT, "tools/collector/rsyslog-cryptoqual.conf")) as f:
        conf = f.read()
    conf = conf.replace("/var/log/cryptoqual", folder)
    conf = conf.replace('input(type="imudp" port="514"', 'input(type="imudp" address="127.0.0.1" port="%d"' % port)
    assert folder in conf and str(port) in conf
    path = os.path.join(out, "rsyslog.conf")
    with open(path, "w") as f:
        f.write('global(workDirectory="%s")\n' % work + conf)
    log = open(os.path.join(out, "rsyslogd.out"), "w")
    d.start([sbin("rsyslogd"), "-n", "-f", path, "-iNONE"], log)


def start_tftpd(d, out, port, create=True):
    folder = os.path.join(out, "tftp")
    os.makedirs(folder, exist_ok=True)
    os.chmod(folder, 0o777)    # in.tftpd drops to user tftp (or nobody)
    log = open(os.path.join(out, "tftpd.out"), "w")
    d.start([sbin("in.tftpd"), "-L", "-v", "-p", "-U", "022"] + (["-c"] if create else []) +
            ["-s", folder, "-a", "127.0.0.1:%d" % port], log)


def wait_udp_listening(port, timeout=5.0):
    """Waits at most timeout seconds until something is bound to
    127.0.0.1:port (binding it fails), with a last look after the deadline."""
    end = time.time() + timeout
    while True:
        late = time.time() >= end
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return True
        finally:
            s.close()
        if late:
            return False
        time.sleep(0.1)


class LossyRelay(threading.Thread):
    """Relays UDP from the box (arriving at listen_port) to 127.0.0.1:target
    from one socket of its own, and the answers back to the box: from
    listen_port when they come from target, else from a relay port that
    stands for the server's port (so a TFTP server's new TID stays
    visible, and the box's packets to it reach the TID). Drops loss_pct %
    of the datagrams each way (seeded)."""

    def __init__(self, listen_port, target, loss_pct, seed):
        super().__init__(daemon=True)
        self.rng = random.Random(seed)
        self.loss = loss_pct / 100.0
        self.target = target
        self.front = self.sock(listen_port)
        self.srv = self.sock(0)
        self.faces = {}
        self.port_of = {self.front: target}     # relay socket -> the server port it stands for
        self.client = None
        self.passed = self.dropped = 0
        self.stop_flag = False
        self.lock = threading.Lock()

    @staticmethod
    def sock(port):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", port))
        s.settimeout(0.2)
        return s

    def drop(self):
        with self.lock:
            d = self.rng.random() < self.loss
            if d:
                self.dropped += 1
            else:
                self.passed += 1
            return d

    def upstream(self, face):
        """What the box sends to a relay port goes on to the server port it stands for."""
        while not self.stop_flag:
            try:
                data, addr = face.recvfrom(65535)
            except socket.timeout:
                continue
            except OSError:
                return
            self.client = addr
            if not self.drop():
                self.srv.sendto(data, ("127.0.0.1", self.port_of[face]))

    def downstream(self):
        while not self.stop_flag:
            try:
                data, addr = self.srv.recvfrom(65535)
            except socket.timeout:
                continue
            except OSError:
                return
            face = self.front if addr[1] == self.target else self.face_for(addr[1])
            if self.client and not self.drop():
                face.sendto(data, self.client)

    def face_for(self, sport):
        if sport not in self.faces:
            s = self.sock(0)
            self.port_of[s] = sport
            self.faces[sport] = s
            threading.Thread(target=self.upstream, args=(s,), daemon=True).start()
        return self.faces[sport]

    def run(self):
        threading.Thread(target=self.downstream, daemon=True).start()
        self.upstream(self.front)

    def stop(self):
        self.stop_flag = True


# ---- the small LAN of --net lan ----

LAN_MAC = bytes.fromhex("020000000001")
LAN_IP = bytes([192, 0, 2, 1])
BOX_IP = bytes([192, 0, 2, 15])
BCAST = b"\xff" * 6


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def udp_frame(dst_mac, src_ip, dst_ip, sport, dport, payload):
    u = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
    c = csum(src_ip + dst_ip + struct.pack("!BBH", 0, 17, len(u)) + u) or 0xFFFF
    u = u[:6] + struct.pack("!H", c) + u[8:]
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(u), 0, 0, 64, 17, 0, src_ip, dst_ip)
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return dst_mac + LAN_MAC + b"\x08\x00" + h + u


def arp_frame(dst_mac, op, sha, spa, tha, tpa):
    p = struct.pack("!HHBBH", 1, 0x0800, 6, 4, op) + sha + spa + tha + tpa
    return dst_mac + sha + b"\x08\x06" + p


class Lan(threading.Thread):
    def __init__(self, mode, out, my_port, qemu_port):
        super().__init__(daemon=True)
        self.mode, self.out = mode, out
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", my_port))
        self.sock.settimeout(0.2)
        self.qemu = ("127.0.0.1", qemu_port)
        self.stop_flag = False
        self.count = {"frames_in": 0, "dhcp_in": 0, "offers": 0, "acks": 0, "arp_answered": 0,
                      "syslog_in": 0, "flood_sent": 0}
        self.box_mac = None
        self.syslog_lines = []

    def send(self, frame):
        try:
            self.sock.sendto(frame, self.qemu)
        except OSError:
            pass

    def dhcp_reply(self, req, mtype):
        xid, chaddr = req[4:8], req[28:34]
        # siaddr 0: no next server, so the box tries no TFTP upload on this LAN
        b = struct.pack("!BBBB", 2, 1, 6, 0) + xid + b"\0" * 8 + BOX_IP + b"\0" * 4 + b"\0" * 4
        b += chaddr + b"\0" * 10 + b"\0" * 192 + struct.pack("!I", 0x63825363)
        b += bytes([53, 1, mtype, 54, 4]) + LAN_IP
        if self.mode == "garbage":
            b += bytes([1, 3, 255, 255, 255])                       # mask of 3 bytes
            b += bytes([3, 6, 192, 0, 2, 1, 9, 9])                  # router list of 6
            b += bytes([7, 5, 192, 0, 2, 1, 7])                     # log server of 5
            name, tftp = b"evil\nline\x1b[\\x", b"tftp\r\nhost"
            b += bytes([12, len(name)]) + name                      # host name with control bytes
            b += bytes([66, len(tftp)]) + tftp                      # TFTP server name, not an address
            b += bytes([200, 4, 1, 2, 3, 4, 0, 0, 250, 0])          # unknown, pads, empty unknown
        else:
            b += bytes([1, 4, 255, 255, 255, 0, 3, 4]) + LAN_IP + bytes([7, 4]) + LAN_IP
        b += b"\xff"
        b += b"\0" * max(0, 300 - len(b))
        return udp_frame(chaddr[:6] if mtype else BCAST, LAN_IP, BOX_IP, 67, 68, b)

    def handle(self, f):
        self.count["frames_in"] += 1
        if len(f) < 14:
            return
        self.box_mac = f[6:12]
        etype = struct.unpack("!H", f[12:14])[0]
        if etype == 0x0806 and len(f) >= 42:
            op = struct.unpack("!H", f[20:22])[0]
            if op == 1 and f[38:42] == LAN_IP and self.mode != "silent":
                self.count["arp_answered"] += 1
                self.send(arp_frame(f[22:28], 2, LAN_MAC, LAN_IP, f[22:28], f[28:32]))
            return
        if etype != 0x0800 or len(f) < 42 or f[23] != 17:
            return
        ihl = (f[14] & 15) * 4
        u = f[14 + ihl:]
        sport, dport = struct.unpack("!HH", u[:4])
        payload = u[8:]
        if dport == 67:
            self.count["dhcp_in"] += 1
            if self.mode == "silent" or len(payload) < 243:
                return
            mtype = None
            i = 240
            while i + 1 < len(payload) and payload[i] != 255:
                if payload[i] == 0:
                    i += 1
                    continue
                if payload[i] == 53:
                    mtype = payload[i + 2]
                i += 2 + payload[i + 1]
            if mtype == 1:
                self.count["offers"] += 1
                self.send(self.dhcp_reply(payload, 2))
            elif mtype == 3:
                self.count["acks"] += 1
                self.send(self.dhcp_reply(payload, 5))
        elif dport == 514:
            self.count["syslog_in"] += 1
            self.syslog_lines.append(payload)

    def flood(self):
        rng = random.Random(7)
        end = time.time() + 600
        while not self.stop_flag and time.time() < end:
            for _ in range(8):
                ip = bytes([192, 0, 2, rng.randrange(100, 250)])
                self.send(arp_frame(BCAST, 1, bytes([2, 0, 0, 0, 0, rng.randrange(2, 250)]), ip, b"\0" * 6,
                                    bytes([192, 0, 2, rng.randrange(100, 250)])))
                self.send(udp_frame(BCAST, ip, b"\xff" * 4, 9, 9, b"flood" * 40))
                self.count["flood_sent"] += 2
            time.sleep(0.001)

    def run(self):
        if self.mode == "flood":
            threading.Thread(target=self.flood, daemon=True).start()
        while not self.stop_flag:
            try:
                f, _ = self.sock.recvfrom(65535)
            except socket.timeout:
                continue
            except OSError:
                return
            self.handle(f)

    def stop(self):
        self.stop_flag = True
        folder = os.path.join(self.out, "syslog")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "lan.log"), "wb") as f:
            for m in self.syslog_lines:
                # the rsyslog per-box form: [meta sequenceId="N"] LINE
                sd = m.find(b"[meta ")
                f.write(m[sd:] if sd >= 0 else m)
                f.write(b"\n")


def qmp_link_down(path, device, timeout=20):
    """Over QMP: the NIC's link down, then the stopped guest started."""
    end = time.time() + timeout
    while not os.path.exists(path) and time.time() < end:
        time.sleep(0.05)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    f = s.makefile("rw")
    f.readline()

    def cmd(c, **a):
        f.write(json.dumps({"execute": c, "arguments": a} if a else {"execute": c}) + "\n")
        f.flush()
        while True:
            r = json.loads(f.readline())
            if "return" in r or "error" in r:
                return r

    cmd("qmp_capabilities")
    r = cmd("set_link", name=device, up=False)
    cmd("cont")
    s.close()
    return "error" not in r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--net", choices=("user", "lan"), default="user")
    ap.add_argument("--lan", choices=("ok", "silent", "garbage", "flood"), default="ok")
    ap.add_argument("--loss", type=float, default=0.0, metavar="PCT")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--tftp", choices=("ok", "absent", "error"), default="ok")
    ap.add_argument("--no-syslog", action="store_true")
    ap.add_argument("--link-down", action="store_true")
    ap.add_argument("--static", action="store_true",
                    help="--net user: the address as PXELINUX passes it (ip=10.0.2.15:10.0.2.2:10.0.2.2:255.255.255.0 "
                         "BOOTIF=01-52-54-00-12-34-56) instead of net=dhcp")
    ap.add_argument("--nic", default="e1000", help="QEMU NIC model (default e1000)")
    ap.add_argument("--cpu", default="max")
    ap.add_argument("--icount", action="store_true")
    ap.add_argument("--timeout", default="300")
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--out", help="keep everything in this folder")
    ap.add_argument("--log", help="also copy the serial log to this file")
    ap.add_argument("kernel")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()

    out = os.path.abspath(a.out or tempfile.mkdtemp(prefix="cq-net."))
    os.makedirs(out, exist_ok=True)
    d = Daemons()
    threads = []
    extra = []
    kargs = list(a.args)
    summary = {"out": out}
    try:
        if a.net == "user":
            sys_port, tftp_port = free_udp_port(), free_udp_port()
            box_sys, box_tftp = sys_port, tftp_port
            if not a.no_syslog:
                start_rsyslogd(d, out, sys_port)
            if a.tftp != "absent":
                start_tftpd(d, out, tftp_port, create=a.tftp == "ok")
            else:
                os.makedirs(os.path.join(out, "tftp"), exist_ok=True)
            if a.loss > 0:
                box_sys, box_tftp = free_udp_port(), free_udp_port()
                for i, (front, back) in enumerate(((box_sys, sys_port), (box_tftp, tftp_port))):
                    r = LossyRelay(front, back, a.loss, a.seed + i)
                    r.start()
                    threads.append(r)
            for p in ([] if a.no_syslog else [sys_port]) + ([tftp_port] if a.tftp != "absent" else []):
                if not wait_udp_listening(p):
                    print("net-run: nothing listens on 127.0.0.1:%d (see %s)" % (p, out), file=sys.stderr)
                    return 2
            extra += ["-netdev", "user,id=n0", "-device", "%s,netdev=n0,id=nic0" % a.nic]
            how = ["ip=10.0.2.15:10.0.2.2:10.0.2.2:255.255.255.0", "BOOTIF=01-52-54-00-12-34-56"] \
                if a.static else ["net=dhcp"]
            kargs = how + ([] if a.no_syslog else ["syslog=10.0.2.2:%d" % box_sys]) + \
                ["tftp=10.0.2.2:%d" % box_tftp] + kargs
            summary.update(syslog_port=sys_port, tftp_port=tftp_port)
        else:
            if a.loss > 0 or a.tftp != "ok" or a.no_syslog:
                ap.error("--loss, --tftp and --no-syslog are for --net user")
            lan_port, qemu_port = free_udp_port(), free_udp_port()
            lan = Lan(a.lan, out, lan_port, qemu_port)
            lan.start()
            threads.append(lan)
            extra += ["-netdev", "socket,id=n0,udp=127.0.0.1:%d,localaddr=127.0.0.1:%d" % (lan_port, qemu_port),
                      "-device", "%s,netdev=n0,id=nic0" % a.nic]
            kargs = ["net=dhcp"] + kargs
        qmp = None
        if a.link_down:
            qmp = os.path.join(out, "qmp.sock")
            extra += ["-S", "-qmp", "unix:%s,server=on,wait=off" % qmp]
        env = dict(os.environ)
        env["QEMU_EXTRA"] = (env.get("QEMU_EXTRA", "") + " " + " ".join(extra)).strip()
        serial = os.path.join(out, "serial.log")
        cmd = [os.path.join(ROOT, "scripts/boot-qemu.sh"), "--cpu", a.cpu, "--timeout", a.timeout,
               "--log", serial] + (["--icount"] if a.icount else []) + (["--show"] if a.show else []) + \
              ["--", a.kernel] + kargs
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True)
        if qmp:
            summary["link_down_set"] = qmp_link_down(qmp, "nic0")
        verdict_line = p.communicate()[0].strip()
        status = p.returncode
        if a.log:
            shutil.copyfile(serial, a.log)
        time.sleep(1.0)   # the last datagrams reach the collectors
        print(verdict_line)
    finally:
        for t in threads:
            t.stop()
        d.stop()
    summary["daemon_pids"] = [p.pid for p in d.procs]
    summary["boot_qemu"] = verdict_line
    summary["status"] = status
    for k in ("syslog", "tftp"):
        folder = os.path.join(out, k)
        summary[k + "_files"] = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    for t in threads:
        if isinstance(t, Lan):
            summary["lan"] = t.count
        if isinstance(t, LossyRelay):
            summary.setdefault("relays", []).append({"passed": t.passed, "dropped": t.dropped})
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    if a.show:
        print("net-run: syslog per-box files in %s/syslog: %s" % (out, " ".join(summary["syslog_files"]) or "none"))
        print("net-run: TFTP uploads in %s/tftp: %s" % (out, " ".join(summary["tftp_files"]) or "none"))
    if not a.out:
        shutil.rmtree(out, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
