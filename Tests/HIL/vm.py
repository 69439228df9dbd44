"""A QEMU guest driven over its serial console (one shell line per command) with QMP for screenshots."""
import json, math, os, re, socket, struct, subprocess, time, zlib


class VM:
    def __init__(self, kernel, initrd, workdir, append="console=ttyS0 quiet loglevel=2 panic=-1 vt.global_cursor_default=0",
                 memory=1024, log=None, drive=None):
        os.makedirs(workdir, exist_ok=True)
        self.serial_path, self.qmp_path = f"{workdir}/serial.sock", f"{workdir}/qmp.sock"
        for p in (self.serial_path, self.qmp_path):
            if os.path.exists(p):
                os.unlink(p)
        self.started = time.time()
        # Software emulation: the host's /dev/kvm is nested and a stock kernel crawls on it.
        cmd = ["qemu-system-x86_64", "-accel", "tcg,thread=multi", "-cpu", "max", "-m", str(memory), "-smp", "2",
               "-kernel", kernel, "-initrd", initrd, "-append", append, "-display", "none", "-no-reboot",
               "-vga", "std",
               # A sound card whose output QEMU writes to a WAV file: what the kiosk plays, as a speaker would.
               "-audiodev", f"wav,id=snd0,path={workdir}/audio.wav", "-device", "intel-hda",
               "-device", "hda-output,audiodev=snd0",
               "-chardev", f"socket,id=s0,path={self.serial_path},server=on,wait=on", "-serial", "chardev:s0",
               "-qmp", f"unix:{self.qmp_path},server=on,wait=off"]
        if drive:
            # The guest's root disk (a throwaway copy made for the run: written in place, never synced to disk).
            cmd += ["-drive", f"file={drive},if=virtio,format=raw,cache=unsafe"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.serial = self._connect(self.serial_path)
        self.buffer = b""
        self.log = open(log, "ab") if log else None
        self.count = 0

    def _connect(self, path):
        for _ in range(600):
            if self.proc.poll() is not None:
                raise RuntimeError("qemu exited: " + self.proc.stdout.read().decode(errors="replace"))
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(path)
                return s
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("cannot connect to " + path)

    def expect(self, pattern, timeout=60):
        rx = re.compile(pattern.encode())
        end = time.time() + timeout
        while True:
            m = rx.search(self.buffer)
            if m:
                out, self.buffer = self.buffer[:m.end()], self.buffer[m.end():]
                return out.decode(errors="replace")
            left = end - time.time()
            if left <= 0:
                raise TimeoutError(f"no {pattern!r} within {timeout}s; last output: "
                                   + self.buffer[-1500:].decode(errors="replace"))
            self.serial.settimeout(left)
            try:
                data = self.serial.recv(65536)
            except socket.timeout:
                continue
            if not data:
                raise EOFError("serial console closed")
            if self.log:
                self.log.write(data)
                self.log.flush()
            self.buffer += data

    def sh(self, command, timeout=120):
        """Runs one shell line in the guest; returns (exit status, output)."""
        self.count += 1
        tag = f"{os.getpid()}_{self.count}"
        self.serial.sendall(f"printf '%s%s\\n' __B {tag}; {command}; printf '%s%s:%d\\n' __E {tag} $?\n".encode())
        self.expect(rf"__B{tag}\r?\n", timeout)
        out = self.expect(rf"__E{tag}:(\d+)\r?\n", timeout)
        m = re.search(rf"__E{tag}:(\d+)\r?\n$", out)
        return int(m.group(1)), out[:m.start()].replace("\r", "")

    def qmp(self, command, **arguments):
        if not hasattr(self, "qmp_file"):
            self.qmp_socket = self._connect(self.qmp_path)
            self.qmp_file = self.qmp_socket.makefile("rwb")
            json.loads(self.qmp_file.readline())
            self._qmp_send({"execute": "qmp_capabilities"})
        return self._qmp_send({"execute": command, **({"arguments": arguments} if arguments else {})})

    def _qmp_send(self, message):
        self.qmp_file.write(json.dumps(message).encode() + b"\n")
        self.qmp_file.flush()
        while True:
            reply = json.loads(self.qmp_file.readline())
            if "return" in reply or "error" in reply:
                return reply

    def screenshot(self, ppm_path):
        """The guest's screen as QEMU shows it: (width, height, RGB bytes)."""
        reply = self.qmp("screendump", filename=ppm_path)
        if "error" in reply:
            raise RuntimeError(reply)
        return read_ppm(ppm_path)

    def close(self):
        if self.proc.poll() is None:
            try:
                self.qmp("quit")
            except Exception:
                pass
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def read_wav(path):
    """The first channel of a 16-bit WAV file that QEMU may still be writing (its sizes in the header are then
    not final): (rate, samples)."""
    data = open(path, "rb").read()
    if b"fmt " not in data or b"data" not in data:
        return 44100, []
    fmt = data.index(b"fmt ")
    channels, rate = struct.unpack_from("<HI", data, fmt + 10)
    start = data.index(b"data") + 8
    count = (len(data) - start) // 2
    samples = struct.unpack_from(f"<{count}h", data, start)
    return rate, samples[::channels]


def notes(samples, rate, candidates):
    """The notes of a recording, in order: every 20 ms window is silence or the candidate frequency strongest in
    it by Goertzel's algorithm; a note is a run of at least two windows of one frequency. (QEMU records only
    while the guest plays, so two tones may follow each other without a silence between them.)"""
    size = rate // 50
    def power(part, hertz):
        c = 2 * math.cos(2 * math.pi * hertz / rate)
        s1 = s2 = 0.0
        for v in part:
            s1, s2 = v + c * s1 - s2, s1
        return s1 * s1 + s2 * s2 - c * s1 * s2
    labels = []
    for start in range(0, len(samples) - size + 1, size):
        part = samples[start:start + size]
        loud = sum(1 for v in part if abs(v) > 300) > size // 2
        labels.append(max(candidates, key=lambda hertz: power(part, hertz)) if loud else None)
    found, previous, run = [], None, 0
    for label in labels + [None]:
        if label == previous:
            run += 1
            continue
        if previous is not None and run >= 2:
            found.append(previous)
        previous, run = label, 1
    return found


def read_ppm(path):
    data = open(path, "rb").read()
    parts = data.split(maxsplit=4)
    assert parts[0] == b"P6", "not a binary PPM"
    return int(parts[1]), int(parts[2]), parts[4]


def write_png(path, width, height, rgb):
    rows = b"".join(b"\x00" + rgb[y * width * 3:(y + 1) * width * 3] for y in range(height))
    chunk = lambda kind, body: (struct.pack(">I", len(body)) + kind + body
                                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


def read_grey_png(path):
    """Decodes an 8-bit grey, non-interlaced PNG (as the project's test images are): (width, height, bytes)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour == 0 and interlace == 0, f"{path}: not 8-bit grey"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, out, prev = zlib.decompress(idat), bytearray(), bytearray(width)
    for y in range(height):
        kind, line = raw[y * (width + 1)], bytearray(raw[y * (width + 1) + 1:(y + 1) * (width + 1)])
        for x in range(width):
            a = line[x - 1] if x else 0
            b = prev[x]
            c = prev[x - 1] if x else 0
            if kind == 1:
                line[x] = (line[x] + a) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + b) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        out += line
        prev = line
    return width, height, bytes(out)
