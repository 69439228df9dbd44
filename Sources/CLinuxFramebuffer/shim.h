#ifndef CLINUXFRAMEBUFFER_SHIM_H
#define CLINUXFRAMEBUFFER_SHIM_H
#include <linux/fb.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

// ioctl is variadic, which Swift cannot call.
static inline int CLinuxFramebuffer_ioctl(int fd, unsigned long request, void *argument) {
    return ioctl(fd, request, argument);
}
#endif
