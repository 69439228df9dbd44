#!/usr/bin/env python3
"""Regenerates the committed seed corpus in Fuzz/corpus/ (each file a few hundred bytes, under 100 KB in all).

PNGs are written here (zlib); JPEGs by libturbojpeg through ctypes, so nothing beyond the kiosk's own build
dependencies is needed. Regression seeds (reproducers of fixed crashes, named regression-*) are left alone.
Usage: Fuzz/make-seeds.py
"""
import ctypes
import ctypes.util
import pathlib
import struct
import zlib

ROOT = pathlib.Path(__file__).resolve().parent
CORPUS = ROOT / "corpus"
W, H = 12, 9


def write(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data.encode() if isinstance(data, str) else data)


def gray(x, y):
    """A gradient with a dark square: every row differs, so filters and predictors have work to do."""
    return 70 if 2 <= x <= 6 and 2 <= y <= 6 else (x * 255) // (W - 1)


def rgb(x, y):
    g = gray(x, y)
    return (255, 0, 0) if (x, y) == (1, 1) else (g, (g + 40) % 256, 255 - g)


# --- kiosk.conf -------------------------------------------------------------------------------------------
shipped = (ROOT.parent / "kiosk.conf").read_text().splitlines()
write("config", "shipped.conf", "".join(l + "\n" for l in shipped if l.strip() and not l.startswith("#")))
write("config", "minimal.conf", "trusted_key = 1 keys/a.pem\n")
write("config", "every-key.conf", """# a door
door = "North gate"   # quoted, with a comment
tenant = 7
event = 4711
trusted_key = 1 keys/issuer-1.pub.pem
trusted_key = 2 ed25519:AAAA
database = state/kiosk.db
mode = confirm
source = camera:/dev/kiosk-camera
display = framebuffer
repeat_window = 2.5s
replay_fps = 0.2
idle_fps = 10
active_fps = 25
motion_threshold = 6
quiet_time = 4s
capture_size = 1280x720
decoder_passes = full, half, inverted
decoder_max_side = 1600
verdict_seconds = 0.5s
log_level = debug
""")
write("config", "crlf.conf", "door = Side\r\ntrusted_key = 1 keys/a.pem\r\nmode = auto\r\n")
write("config", "broken.conf",
      "idle_fps = 30\nactive_fps = 15\ntrusted_key = 1 k.pem\ntrusted_key = 1 k.pem\ncolour = red\n")

# --- roster CSV -------------------------------------------------------------------------------------------
write("roster-csv", "plain.csv", "guest_id,name,email,party_size,status,notes\n"
      "NOU3WYMHOVZQ4Q2T,Sven García,sven.garcia0@example.org,1,active,\n"
      "HHQ5P4QJWF4W4XCA,Wen Papadopoulos,wen.papadopoulos1@example.org,2,cancelled,Speaker\n")
write("roster-csv", "quoted-crlf.csv", "name,Guest_ID,party_size,notes,email\r\n"
      "\"Smith, Anna\",NOU3-WYMH-OVZQ-4Q2T,2,\"said \"\"hi\"\"\",anna@example.org\r\n"
      "Bob Jones,HHQ5P4QJWF4W4XCA,,\"wheelchair,\nramp at side door\",\r\n")
write("roster-csv", "bom-blank-line.csv", "\ufeffguest_id,name\n\nJOXPRAMQ6JIQCU23,\"Uma \"\"U\"\" Jensen\"\n")
write("roster-csv", "unclosed-quote.csv", "guest_id,name,status\nN7LGY622EZPKEFYS,\"unclosed,active\n")
write("roster-csv", "bad-rows.csv", "guest_id,name,party_size\nN7LGY622EZPKEFYS,Mateo,0\n"
      "N7LGY622EZPKEFYS,Mateo,1,extra\n")

# --- pass payloads ----------------------------------------------------------------------------------------
write("pass-parser", "pass-url", "HTTPS://PASS.EXAMPLE.ORG/P/C" + "A" * 135)
write("pass-parser", "bare-token", "C" + "A" * 135)
write("pass-parser", "other-url", "https://example.com/index.html")


# --- PNG --------------------------------------------------------------------------------------------------
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png(color_type, depth, pixel, extra=b"", interlace=False):
    """`pixel(x, y)` gives the bytes of one pixel; every row uses filter 0 (None)."""
    def rows(xs, ys):
        out = b""
        for y in ys:
            line = b"".join(pixel(x, y) for x in xs)
            out += b"\x00" + line
        return out

    if interlace:  # Adam7: seven passes of the same picture
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        raw = b"".join(rows(range(x0, W, dx), range(y0, H, dy))
                       for x0, y0, dx, dy in passes if x0 < W and y0 < H)
    else:
        raw = rows(range(W), range(H))
    header = struct.pack(">IIBBBBB", W, H, depth, color_type, 0, 0, 1 if interlace else 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


write("png", "gray8.png", png(0, 8, lambda x, y: bytes([gray(x, y)])))
write("png", "gray16.png", png(0, 16, lambda x, y: struct.pack(">H", gray(x, y) * 257)))
write("png", "rgb.png", png(2, 8, lambda x, y: bytes(rgb(x, y))))
write("png", "rgba.png", png(6, 8, lambda x, y: bytes(rgb(x, y) + ((x * 23) % 256,))))
write("png", "gray-alpha.png", png(4, 8, lambda x, y: bytes([gray(x, y), 255 - y * 20])))
palette = chunk(b"PLTE", bytes([0, 0, 0, 90, 90, 90, 200, 0, 0, 255, 255, 255])) + chunk(b"tRNS", b"\xff\x80")
write("png", "palette-trns.png", png(3, 8, lambda x, y: bytes([gray(x, y) // 64]), extra=palette))
write("png", "interlaced.png", png(0, 8, lambda x, y: bytes([gray(x, y)]), interlace=True))
write("png", "gamma-text.png", png(0, 8, lambda x, y: bytes([gray(x, y)]),
                                    extra=chunk(b"gAMA", struct.pack(">I", 45455)) + chunk(b"tEXt", b"Comment\0seed")))

# --- JPEG (libturbojpeg) ----------------------------------------------------------------------------------
tj = ctypes.CDLL(ctypes.util.find_library("turbojpeg") or "libturbojpeg.so.0")
tj.tjInitCompress.restype = ctypes.c_void_p
TJPF_RGB, TJPF_GRAY = 0, 6
TJSAMP_444, TJSAMP_422, TJSAMP_420, TJSAMP_GRAY = 0, 1, 2, 3
TJFLAG_PROGRESSIVE = 16384


def jpeg(pixels, pixel_format, subsampling, quality, flags=0):
    handle = ctypes.c_void_p(tj.tjInitCompress())
    out = ctypes.POINTER(ctypes.c_ubyte)()
    size = ctypes.c_ulong(0)
    buffer = (ctypes.c_ubyte * len(pixels)).from_buffer_copy(pixels)
    pitch = W * (1 if pixel_format == TJPF_GRAY else 3)
    status = tj.tjCompress2(handle, buffer, W, pitch, H, pixel_format, ctypes.byref(out), ctypes.byref(size),
                            subsampling, quality, flags)
    assert status == 0, "tjCompress2 failed"
    data = ctypes.string_at(out, size.value)
    tj.tjFree(out)
    tj.tjDestroy(handle)
    return data


gray_pixels = bytes(gray(x, y) for y in range(H) for x in range(W))
rgb_pixels = b"".join(bytes(rgb(x, y)) for y in range(H) for x in range(W))
write("jpeg", "gray.jpg", jpeg(gray_pixels, TJPF_GRAY, TJSAMP_GRAY, 80))
write("jpeg", "color-420.jpg", jpeg(rgb_pixels, TJPF_RGB, TJSAMP_420, 75))
write("jpeg", "color-422.jpg", jpeg(rgb_pixels, TJPF_RGB, TJSAMP_422, 60))
write("jpeg", "color-444.jpg", jpeg(rgb_pixels, TJPF_RGB, TJSAMP_444, 90))
write("jpeg", "progressive.jpg", jpeg(gray_pixels, TJPF_GRAY, TJSAMP_GRAY, 80, TJFLAG_PROGRESSIVE))
write("jpeg", "progressive-420.jpg", jpeg(rgb_pixels, TJPF_RGB, TJSAMP_420, 70, TJFLAG_PROGRESSIVE))

# --- PGM --------------------------------------------------------------------------------------------------
write("pgm", "maxval-255.pgm", f"P5\n{W} {H}\n255\n".encode() + gray_pixels)
write("pgm", "maxval-65535.pgm", f"P5\n{W} {H}\n65535\n".encode()
      + b"".join(struct.pack(">H", p * 257) for p in gray_pixels))
write("pgm", "maxval-15-comment.pgm", b"P5 # a comment\n4\t3\n15\r" + bytes([0, 3, 7, 15, 1, 2, 4, 8, 15, 0, 16, 0]))
write("pgm", "two-images.pgm", b"P5\n2 2\n255\n\x00\x40\x80\xffP5\n1 1\n255\n\x10")

# --- a device's upload (the server's direct reader) -----------------------------------------------------------
item = ('{"key":{"deviceId":"dev-1","epoch":"e1","sequence":7},"guestId":"AAAAAAAAAAAAAAAA","kind":"check_in",'
        '"scannedAt":"2026-11-23T10:30:00.123Z","clockOffsetMs":-1234,"arrived":2,"door":"North","source":"camera"}')
write("upload-json", "one-item.json", '{"items":[' + item + ']}')
write("upload-json", "revert-unknown-keys.json",
      '{"extra":[1,{"a":null}],"items":[{"key":{"deviceId":"d","epoch":"e","sequence":2},"guestId":"x",'
      '"kind":"revert","scannedAt":"2026-11-23T10:30:00Z","clockOffsetMs":null,"arrived":0,"door":"N\\u00e9\\/",'
      '"source":"keyboard","reverts":{"deviceId":"d","epoch":"e","sequence":1}}]}')
write("upload-json", "empty.json", '{"items":[]}')
write("upload-json", "edges.json", '{"items":[' + item.replace('"sequence":7', '"sequence":-9223372036854775808')
      .replace('"arrived":2', '"arrived":9223372036854775807') + ']}')
# The crash the depth limit fixed: an unknown key's value nested deeper than the reader allows (the stack
# overflowed at some tens of thousands, past the fuzzer's -max_len: CheckInBatchJSONTests has half a million).
write("upload-json", "regression-deep-nesting.json", '{"extra":' + "[" * 4000 + "]" * 4000 + ',"items":[]}')

# --- enrolment and heartbeat bodies (first byte: even an enrolment, odd a heartbeat) ----------------------
write("device-bodies", "enrolment.json",
      b"\x00" + b'{"code":"AAAA-BBBB-CCCC-DDDD","door":"North","kioskVersion":"1.4.0","nonce":"0123456789abcdef"}')
write("device-bodies", "enrolment-peer-key.json",
      b"\x00" + b'{"code":"x","door":"\\u00c9ast","kioskVersion":"1","replacesToken":"kt_1","peerKey":"BAAA"}')
write("device-bodies", "heartbeat.json",
      b"\x01" + b'{"door":"North","kioskVersion":"1.4.0","pending":3,"oldestPendingAt":"2026-11-23T10:30:00.000Z",'
      b'"rosterCursor":"x2:10:12:11","rosterFetchedAt":"2026-11-23T10:29:00.000Z","camera":"ok",'
      b'"clockOffsetMs":-250,"deviceTime":"2026-11-23T10:30:01.000Z","lanPeers":["dev-2"]}')
write("device-bodies", "regression-heartbeat-edges.json",
      b"\x01" + b'{"door":"North","kioskVersion":"1","pending":-9223372036854775808,"rosterCursor":'
      b'"x1:9223372036854775807:9223372036854775807","camera":"ok","clockOffsetMs":-9223372036854775808,'
      b'"deviceTime":"9999-12-31T23:59:59.999Z"}')

# --- the request edge: a query line, then a webhook's id, timestamp and signature lines, then its body -----
body = '{"type":"guest.created","data":{"eventId":1,"reference":"r-1","name":"Ada"}}'
write("request-edge", "pages.txt", "q=ada+lovelace&sort=name&page=2\nmsg_1\n1614265330\nv1,AAAA\n" + body)
write("request-edge", "signed.txt",
      "page=3\nmsg_p5jXN8AQM9LWM0D4loKWxJek\n1614265330\n"
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=\n" + '{"test": 2432232314}')
write("request-edge", "regression-page-int64-max.txt", "page=9223372036854775807&notice=imported&count=-1\n\n\n\n")
write("request-edge", "regression-timestamp-int64-min.txt",
      "page=%41%ZZ\nmsg_1\n-9223372036854775808\nv1,AAAA v2,BBBB\n{}")

# --- doors' messages (first byte even) and announcements (odd) ------------------------------------------
write("peer-message", "hello.json",
      b"\x00" + b'{"hello":{"vector":{"entries":[{"stream":{"device":"dev-b","epoch":"e1"},"from":1,"through":9}]},'
      b'"sentAt":1795431795000,"passesOn":true}}')
write("peer-message", "later-kind.json", b"\x00" + b'{"later":{"_0":[1,2]}}')
write("peer-message", "regression-hello-int64-min.json",
      b"\x00" + b'{"hello":{"vector":{"entries":[]},"sentAt":-9223372036854775808,"passesOn":true}}')
# A credential of the right shape (a 65-byte P-256 point, a 64-byte signature): the harness's verifier takes any
# signature, so the fuzzer starts past the server's.
peer_key = ",".join(["4"] + ["1"] * 64)
signature = ",".join(["0"] * 64)
announcement = ('{"credential":{"version":1,"keyID":1,"tenant":7,"event":42,"deviceId":"dev-a","door":"North",'
                '"peerKey":[' + peer_key + '],"notBefore":1795431000,"notAfter":1795517000,"signature":['
                + signature + ']},"port":7447,"sentAt":1795431795000}')
for name, text in [("announcement.bin", announcement),
                   ("regression-announcement-int64-min.bin",
                    announcement.replace("1795431795000", "-9223372036854775808"))]:
    raw = text.encode()
    write("peer-message", name, b"\x01" + bytes([len(raw) >> 8, len(raw) & 0xFF]) + raw + b"0E\x02\x01\x01")

total = sum(f.stat().st_size for f in CORPUS.rglob("*") if f.is_file())
print(f"{sum(1 for f in CORPUS.rglob('*') if f.is_file())} seeds, {total} bytes in {CORPUS}")
