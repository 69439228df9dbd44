#ifndef CV4L2_SHIM_H
#define CV4L2_SHIM_H
#include <linux/videodev2.h>
#include <libv4l2.h>

// v4l2_open is variadic (optional mode argument): Swift cannot call variadic C functions.
static inline int CV4L2_open(const char *path, int flags) { return v4l2_open(path, flags); }
// v4l2_ioctl is variadic: Swift cannot call variadic C functions.
static inline int CV4L2_ioctl(int fd, unsigned long request, void *arg) { return v4l2_ioctl(fd, request, arg); }

// The VIDIOC_* request codes are function-like _IOR/_IOW/_IOWR macros that Swift cannot import.
static inline unsigned long CV4L2_VIDIOC_QUERYCAP(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long CV4L2_VIDIOC_ENUM_FMT(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long CV4L2_VIDIOC_G_FMT(void) { return VIDIOC_G_FMT; }
static inline unsigned long CV4L2_VIDIOC_S_FMT(void) { return VIDIOC_S_FMT; }
static inline unsigned long CV4L2_VIDIOC_REQBUFS(void) { return VIDIOC_REQBUFS; }
static inline unsigned long CV4L2_VIDIOC_QUERYBUF(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long CV4L2_VIDIOC_QBUF(void) { return VIDIOC_QBUF; }
static inline unsigned long CV4L2_VIDIOC_DQBUF(void) { return VIDIOC_DQBUF; }
static inline unsigned long CV4L2_VIDIOC_STREAMON(void) { return VIDIOC_STREAMON; }
static inline unsigned long CV4L2_VIDIOC_STREAMOFF(void) { return VIDIOC_STREAMOFF; }
static inline unsigned long CV4L2_VIDIOC_G_PARM(void) { return VIDIOC_G_PARM; }
static inline unsigned long CV4L2_VIDIOC_S_PARM(void) { return VIDIOC_S_PARM; }
#endif
