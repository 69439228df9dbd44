#!/bin/sh
# Called by 60-hil-vivid.rules as vivid's capture node is added: 640x480p59.94 on vivid's HDMI input and output,
# GREY on both, video loopback on. Prints HIL_LOOPBACK=ok or HIL_LOOPBACK=failed (a udev property).
setup() {
    v4l2-ctl -d /dev/video0 --set-dv-bt-timings index=0 &&
        v4l2-ctl -d /dev/video1 --set-dv-bt-timings index=0 &&
        v4l2-ctl -d /dev/video0 --set-fmt-video=width=640,height=480,pixelformat=GREY &&
        v4l2-ctl -d /dev/video1 --set-fmt-video-out=width=640,height=480,pixelformat=GREY &&
        v4l2-ctl -d /dev/video0 -c loop_video=1,osd_text_mode=2
}
i=0
while [ ! -e /dev/video1 ] && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if setup >/dev/null 2>&1; then echo HIL_LOOPBACK=ok; else echo HIL_LOOPBACK=failed; fi
