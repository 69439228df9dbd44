"""The kiosk on real kernel drivers: vivid (V4L2 capture with video loopback) and bochs-drm (/dev/fb0) in QEMU.

Streams pass images into vivid's output while the kiosk captures from vivid's capture device, photographs the
screen with QMP screendump, and checks verdict colours, the name area, the database, the frame rate after a
SIGHUP and capture resuming after the camera is taken away and brought back. Prints PASS/FAIL lines; exit
status 1 if any check failed. Usage: hil.py STAGE KERNEL INITRD OUT
"""
import collections, os, re, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vm import VM, notes, read_wav, write_png

STAGE, KERNEL, INITRD, OUT = sys.argv[1:5]
os.makedirs(OUT, exist_ok=True)
results = []
PALETTE = {"green": (0x1B, 0x7F, 0x3A), "amber": (0xFF, 0xB3, 0x00), "red": (0xC0, 0x26, 0x2D),
           "blue": (0x1F, 0x5F, 0xBF), "night": (0x12, 0x18, 0x20)}
GUESTS = dict(line.split("=", 1) for line in open(f"{STAGE}/guests.txt").read().split())


def check(ok, message):
    results.append(bool(ok))
    print(("PASS: " if ok else "FAIL: ") + message, flush=True)


def colour_share(rgb, colour):
    want = bytes(colour)
    counts = collections.Counter(rgb[i:i + 3] for i in range(0, len(rgb), 3 * 7))  # every 7th pixel
    return counts[want] / max(1, sum(counts.values()))


def name_band_ink(width, height, rgb, colour):
    """Share of pixels in the name band (upper middle of the screen) that are not the field colour."""
    want, other, total = bytes(colour), 0, 0
    for y in range(int(height * 0.18), int(height * 0.45), 3):
        row = y * width * 3
        for x in range(int(width * 0.1), int(width * 0.9), 3):
            total += 1
            other += rgb[row + 3 * x:row + 3 * x + 3] != want
    return other / max(1, total)


vm = VM(KERNEL, INITRD, f"{OUT}/run", log=f"{OUT}/serial.log")
shots = 0


def sh(command, timeout=120):
    return vm.sh(command, timeout)


def two_numbers(output):
    """The two numbers printed on separate lines by `cpu` below. The console may interleave kernel messages
    ("[  812.5] rcu: ..." when the host is loaded), so only lines that are a bare number count."""
    lines = [line.strip() for line in output.splitlines()]
    numbers = [float(line) for line in lines if re.fullmatch(r"[0-9]+(\.[0-9]+)?", line)]
    if len(numbers) < 2:
        raise RuntimeError(f"expected CPU ticks and uptime, got: {output!r}")
    return numbers[0], numbers[1]


def screen(name):
    global shots
    shots += 1
    ppm = f"{OUT}/run/shot.ppm"
    width, height, rgb = vm.screenshot(ppm)
    write_png(f"{OUT}/{shots:02d}-{name}.png", width, height, rgb)
    return width, height, rgb


def wait_for_screen(name, colour, timeout=40):
    """Screenshots until the field colour covers most of the screen; returns the last screenshot."""
    end = time.time() + timeout
    while True:
        width, height, rgb = screen(name)
        share = colour_share(rgb, PALETTE[colour])
        if share > 0.5 or time.time() > end:
            return width, height, rgb, share
        time.sleep(1)


def stream(frame):
    """Loops one 640x480 GREY frame into vivid's output (and so into its capture input)."""
    sh("[ -n \"$S\" ] && kill $S 2>/dev/null; wait $S 2>/dev/null; "
       f"v4l2-ctl -d /dev/video1 --stream-out-mmap --stream-from=/frames/{frame}.raw --stream-loop >/dev/null 2>&1 & S=$!")


def loopback_setup():
    return sh(" && ".join([
        "v4l2-ctl -d /dev/video0 --set-dv-bt-timings index=0",  # 640x480p59.94 on the HDMI input
        "v4l2-ctl -d /dev/video1 --set-dv-bt-timings index=0",
        "v4l2-ctl -d /dev/video0 --set-fmt-video=width=640,height=480,pixelformat=GREY",
        "v4l2-ctl -d /dev/video1 --set-fmt-video-out=width=640,height=480,pixelformat=GREY",
        "v4l2-ctl -d /dev/video0 -c loop_video=1,osd_text_mode=2"]))


def log_since(marker):
    rc, out = sh("cat /tmp/kiosk.log")
    return out.split(marker, 1)[-1] if marker in out else out


def rates(text):
    return [(float(a), float(b)) for a, b in re.findall(r"capture rate ([\d.]+) fps \(target ([\d.]+)\)", text)]


try:
    vm.expect(r"READY", 240)
    print(f"INFO: guest booted in {time.time() - vm.started:.1f}s", flush=True)
    rc, out = sh("modprobe vivid n_devs=1 node_types=0x101 num_inputs=1 input_types=3 num_outputs=1 output_types=1 "
                 "no_error_inj=1 && modprobe bochs && sleep 1 && ls /dev/video0 /dev/video1 /dev/fb0")
    check(rc == 0, "vivid (/dev/video0 capture, /dev/video1 output) and bochs (/dev/fb0) loaded")
    # The codec's driver first: the controller binds its codec while it probes, and the guest has no modprobe
    # helper for the kernel to load the driver then.
    rc, out = sh("modprobe snd-hda-codec-generic && modprobe snd-hda-intel; "
                 "for i in 1 2 3 4 5 6 7 8 9 10; do [ -e /dev/snd/pcmC0D0p ] && break; sleep 1; done; ls /dev/snd")
    if "pcmC0D0p" not in out:
        out += " " + sh("dmesg | grep -iE 'hda|snd' | tail -n 8")[1]
    check(rc == 0 and "pcmC0D0p" in out, f"QEMU's sound card (Intel HDA) has a playback device: {out.split()}")
    # A sound card's driver starts muted; Debian's alsa-utils unmutes it at boot (alsactl init), here by hand.
    rc, out = sh("amixer -q -c 0 sset Master 100% unmute 2>&1; amixer -q -c 0 sset PCM 100% unmute 2>&1; "
                 "amixer -c 0 scontents | grep -E 'Simple|Playback' | head -n 8")
    print("INFO: mixer: " + " | ".join(line.strip() for line in out.splitlines()), flush=True)
    rc, _ = loopback_setup()
    check(rc == 0, "vivid HDMI loopback set to 640x480 GREY")
    stream("empty")
    # The kiosk opens /dev/kiosk-camera, the stable name udev gives the door camera (here a link made by hand,
    # after the loopback is set up, as udev makes it when the device appears).
    sh("ln -sf /dev/video0 /dev/kiosk-camera")
    sh("cd /kiosk && (kiosk --config /kiosk/kiosk.conf < /dev/null > /tmp/kiosk.out 2>> /tmp/kiosk.log & echo $! > /tmp/kiosk.pid)")
    time.sleep(8)
    w, h, rgb = screen("ready")
    check(colour_share(rgb, PALETTE["night"]) > 0.2, f"ready screen with the live picture drawn ({w}x{h})")

    # 1. Verdicts on screen.
    for frame, colour, what, guest in (("admitted", "green", "admitted pass", GUESTS["admitted"]),
                                       ("empty", None, "pass out of sight", None),
                                       ("admitted", "amber", "the same pass again: already checked in", GUESTS["admitted"]),
                                       ("empty", None, "pass out of sight", None),
                                       ("forged", "red", "forged pass: not valid here", None)):
        stream(frame)
        if colour is None:
            # Longer than repeat_window, so the same pass shown again is decided again. A verdict stays up for
            # verdict_seconds (10 s in this kiosk.conf), long enough for wait_for_screen's screenshots to see it
            # however slowly a loaded host runs them; the next verdict replaces it.
            time.sleep(4)
            continue
        w, h, rgb, share = wait_for_screen(frame + "-" + colour, colour)
        check(share > 0.5, f"{what}: {share * 100:.0f}% of the screen is the {colour} field")
        ink = name_band_ink(w, h, rgb, PALETTE[colour])
        check(ink > 0.03, f"{what}: the name/headline area is drawn ({ink * 100:.1f}% of its pixels are text)")
    rc, out = sh("kioskctl status --config /kiosk/kiosk.conf --last 10")
    check(re.search(r"\b1 checked in\b", out) is not None and GUESTS["admitted"] in out,
          "the database holds exactly one check-in, of the admitted guest")
    check("not_valid_here" in out and "signature does not verify" in out, "the forged scan is in the audit log with its reason")

    # 2. Frame rates follow kiosk.conf after SIGHUP (still scene: idle rate).
    stream("empty")
    time.sleep(12)
    sh("echo '# MARK-IDLE' >> /tmp/kiosk.log")
    cpu = "awk '{print $14 + $15}' /proc/$(cat /tmp/kiosk.pid)/stat; cut -d' ' -f1 /proc/uptime"
    _, first = sh(cpu)
    time.sleep(11)
    _, second = sh(cpu)
    (t0, u0), (t1, u1) = [two_numbers(x) for x in (first, second)]
    print(f"INFO: idle kiosk in the VM (software-emulated CPU, so inflated): "
          f"{(t1 - t0) / 100 / (u1 - u0) * 100:.1f}% of one core at 15 fps", flush=True)
    before = rates(log_since("MARK-IDLE"))[-1:]
    check(before and all(abs(t - 15) < 0.01 and 10 <= r <= 16.5 for r, t in before),
          f"still scene captured at idle_fps 15: {before}")
    sh("sed -i 's/^idle_fps = 15/idle_fps = 5/; s/^active_fps = 30/active_fps = 10/' /kiosk/kiosk.conf && "
       "echo '# MARK-HUP' >> /tmp/kiosk.log && kill -HUP $(cat /tmp/kiosk.pid)")
    time.sleep(13)
    after = rates(log_since("MARK-HUP"))[-1:]
    check(after and all(abs(t - 5) < 0.01 and 3.5 <= r <= 5.6 for r, t in after),
          f"after SIGHUP with idle_fps 5 the capture rate follows: {after}")
    sh("echo 'idle_fps = oops' >> /kiosk/kiosk.conf && kill -HUP $(cat /tmp/kiosk.pid)")
    time.sleep(2)
    rc, out = sh("grep -c 'kiosk.conf not applied' /tmp/kiosk.log")
    check(out.strip() not in ("", "0"), "a broken kiosk.conf on SIGHUP is refused with a log line, the kiosk runs on")
    sh("sed -i '$d' /kiosk/kiosk.conf")

    # 3. The camera taken away and brought back.
    sh("echo '# MARK-UNPLUG' >> /tmp/kiosk.log; kill $S 2>/dev/null; wait $S 2>/dev/null; S=; "
       "echo vivid.0 > /sys/bus/platform/drivers/vivid/unbind")
    time.sleep(3)
    text = log_since("MARK-UNPLUG")
    check("camera disconnected" in text.lower(), "unplugged: the kiosk says the camera is disconnected")
    w, h, rgb = screen("camera-disconnected")
    dark = colour_share(rgb, PALETTE["night"]) + colour_share(rgb, (0, 0, 0))
    check(dark > 0.85, f"unplugged: the ready screen shows no camera picture ({dark * 100:.0f}% night and black)")
    rc, out = sh("kioskctl status --config /kiosk/kiosk.conf --last 1 >/dev/null && kill -0 $(cat /tmp/kiosk.pid) && echo alive")
    check("alive" in out, "unplugged: the kiosk keeps running (manual entry stays available)")
    sh("rm -f /dev/kiosk-camera; echo '# MARK-REPLUG' >> /tmp/kiosk.log; echo vivid.0 > /sys/bus/platform/drivers/vivid/bind")
    t_bind = time.time()
    loopback_setup()
    sh("ln -sf /dev/video0 /dev/kiosk-camera")
    t_link = time.time()
    stream("second")
    resumed = None
    while time.time() - t_bind < 20:
        if "streaming" in log_since("MARK-REPLUG"):
            resumed = time.time() - t_bind
            break
        time.sleep(0.5)
    check(resumed is not None and resumed < 2 + (t_link - t_bind),
          f"camera back: capture resumes by itself ({resumed and round(resumed, 1)} s after bind; "
          f"the device was ready {t_link - t_bind:.1f} s after bind)")
    w, h, rgb, share = wait_for_screen("second-guest-green", "green")
    check(share > 0.5, "camera back: the next guest's pass is admitted (green screen)")
    rc, out = sh("kioskctl status --config /kiosk/kiosk.conf --last 3")
    check(re.search(r"\b2 checked in\b", out) is not None and GUESTS["second"] in out, "the second guest is in the database")

    sh("kill $(cat /tmp/kiosk.pid); sleep 3; kill -0 $(cat /tmp/kiosk.pid) 2>/dev/null || echo stopped")
    rc, out = sh("tail -n 3 /tmp/kiosk.log")
    check("kiosk stopping" in out, "SIGTERM stops the kiosk gracefully")
finally:
    try:
        rc, out = vm.sh("cat /tmp/kiosk.log", 30)
        open(f"{OUT}/kiosk.log", "w").write(out)
    except Exception as error:
        print("INFO: could not fetch the kiosk log:", error)
    vm.close()
# Each verdict sounded on the sound card, in order: admitted rises 880 -> 1320 Hz, already checked in beeps twice at
# 660 Hz, a refusal is one 220 Hz tone; then the second guest is admitted. QEMU's WAV file is complete once QEMU has
# exited.
rate, samples = read_wav(f"{OUT}/run/audio.wav")
heard = notes(samples, rate, [220, 660, 880, 1320])
check(heard == [880, 1320, 660, 660, 220, 880, 1320],
      f"the verdicts' tones came out of the sound card, in order: {heard[:12]} ({len(samples) / rate:.2f} s recorded)")
print(f"{sum(results)} passed, {len(results) - sum(results)} failed", flush=True)
sys.exit(0 if results and all(results) else 1)
