#!/usr/bin/python3
"""The testbed's wide-area delay: holds every IP packet that a host sends to another cluster for a
fixed time, then sends it on.

Written out and started by 'bin/koala testbed up' (the kernel here has no netem). In each network
namespace it serves, the addresses of the other clusters are routed into a TUN device (DEVICE); this
process reads each packet from that device, keeps it for --delay-us microseconds, and writes it, as
it is, to a raw IP socket of the same namespace whose packets carry the firewall mark --mark. A
policy rule of the namespace ('fwmark MARK lookup TABLE') routes marked packets out through the
real interface, so they do not come back into the TUN device. The delay is paid on the sending
side, once for each direction: a round trip between clusters takes twice the delay.

One process serves every namespace: a short-lived thread enters each namespace (setns) and opens
its TUN device and raw socket there; the descriptors stay bound to that namespace. One loop then
waits on all devices with select() (microsecond timeouts). Each device has a FIFO: with one fixed
delay, packets leave in the order they came. A namespace whose file under /run/netns goes away or
is replaced is dropped (its descriptors closed, so that the namespace can be freed).

Standard library only. Usage:
  wan-delay.py --delay-us 5000 --mark 0x4b --device kwan [--pid-file F] NAMESPACE...
"""
import argparse
import collections
import ctypes
import errno
import fcntl
import os
import select
import signal
import socket
import struct
import sys
import threading
import time

CLONE_NEWNET = 0x40000000
TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000
SO_MARK = 36
BATCH = 256  # packets read from one device before looking at the others
MAX_QUEUE = 4096  # packets held for one device; beyond, new ones are dropped (as a full link does)


class Link:
    """One namespace's TUN device, raw socket and queue of held packets."""

    def __init__(self, namespace, tun, raw, inode):
        self.namespace = namespace
        self.tun = tun
        self.raw = raw
        self.inode = inode
        self.queue = collections.deque()
        self.forwarded = 0
        self.dropped = 0

    def close(self):
        os.close(self.tun)
        self.raw.close()


def netns_inode(namespace):
    return os.stat(os.path.join("/run/netns", namespace)).st_ino


def open_link(namespace, device, mark):
    """Opens the device and the socket inside the namespace, on a thread of their own."""
    result = {}

    def enter():
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            fd = os.open(os.path.join("/run/netns", namespace), os.O_RDONLY)
            try:
                if libc.setns(fd, CLONE_NEWNET) != 0:
                    e = ctypes.get_errno()
                    raise OSError(e, "setns: " + os.strerror(e))
                inode = os.fstat(fd).st_ino
            finally:
                os.close(fd)
            tun = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
            fcntl.ioctl(tun, TUNSETIFF, struct.pack("16sH", device.encode(), IFF_TUN | IFF_NO_PI))
            raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
            raw.setsockopt(socket.SOL_SOCKET, SO_MARK, mark)
            raw.setblocking(False)
            result["link"] = Link(namespace, tun, raw, inode)
        except OSError as e:
            result["error"] = e

    thread = threading.Thread(target=enter, name="enter " + namespace)
    thread.start()
    thread.join()
    if "error" in result:
        raise SystemExit("wan-delay: %s: cannot open %s: %s" % (namespace, device, result["error"]))
    return result["link"]


def read_some(link, now, delay):
    """Moves what the device holds into the link's queue, due at now + delay."""
    due = now + delay
    for _ in range(BATCH):
        try:
            packet = os.read(link.tun, 65535)
        except BlockingIOError:
            return
        if len(packet) < 20 or packet[0] >> 4 != 4:
            continue  # IPv4 only (the testbed has no IPv6)
        if len(link.queue) >= MAX_QUEUE:
            link.dropped += 1
            continue
        link.queue.append((due, packet))


def send_due(link, now):
    """Sends every packet of the link whose time has come; returns when the next one is due, or None."""
    queue = link.queue
    while queue:
        due, packet = queue[0]
        if due > now:
            return due
        queue.popleft()
        try:
            link.raw.sendto(packet, (socket.inet_ntoa(packet[16:20]), 0))
            link.forwarded += 1
        except OSError as e:
            link.dropped += 1  # as a lossy link: the sender's TCP sends it again
            if e.errno not in (errno.ENOBUFS, errno.EAGAIN, errno.EHOSTUNREACH, errno.ENETUNREACH,
                               errno.EMSGSIZE, errno.EINVAL, errno.EPERM):
                log("%s: %s" % (link.namespace, e))
    return None


def still_there(link):
    try:
        return netns_inode(link.namespace) == link.inode
    except OSError:
        return False


def log(message):
    print(time.strftime("%Y-%m-%d %H:%M:%S ") + message, flush=True)


def main():
    parser = argparse.ArgumentParser(description="Delays the packets routed into DEVICE in each namespace.")
    parser.add_argument("--delay-us", type=int, required=True, help="delay of each packet, microseconds")
    parser.add_argument("--mark", type=lambda s: int(s, 0), required=True, help="firewall mark of sent packets")
    parser.add_argument("--device", default="kwan", help="the TUN device in each namespace")
    parser.add_argument("--pid-file", help="written once every device is open")
    parser.add_argument("namespaces", nargs="+")
    args = parser.parse_args()
    delay = args.delay_us / 1e6
    links = {}
    for namespace in args.namespaces:
        link = open_link(namespace, args.device, args.mark)
        links[link.tun] = link
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(True))
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    if args.pid_file:
        with open(args.pid_file + ".tmp", "w") as f:
            f.write("%d\n" % os.getpid())
        os.replace(args.pid_file + ".tmp", args.pid_file)
    log("READY delay %d us on %d namespaces (device %s, mark %#x)"
        % (args.delay_us, len(links), args.device, args.mark))
    next_check = time.monotonic() + 1.0
    while not stopping and links:
        now = time.monotonic()
        wake = next_check
        for link in links.values():
            due = send_due(link, now)
            if due is not None and due < wake:
                wake = due
        try:
            readable, _, _ = select.select(list(links), [], [], max(0.0, wake - time.monotonic()))
        except InterruptedError:
            continue
        now = time.monotonic()
        for fd in readable:
            read_some(links[fd], now, delay)
        if now >= next_check:
            next_check = now + 1.0
            for fd, link in list(links.items()):
                if not still_there(link):
                    log("%s: namespace gone; no longer served (forwarded %d, dropped %d)"
                        % (link.namespace, link.forwarded, link.dropped))
                    link.close()
                    del links[fd]
    for link in links.values():
        log("%s: forwarded %d, dropped %d" % (link.namespace, link.forwarded, link.dropped))
    if args.pid_file:
        try:
            with open(args.pid_file) as f:
                if f.read().strip() == str(os.getpid()):
                    os.remove(args.pid_file)
        except OSError:
            pass
    log("stopped")


if __name__ == "__main__":
    sys.exit(main())
