#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H
#include <png.h>

// PNG_IMAGE_SIZE is a function-like macro that Swift cannot import.
static inline size_t CPNG_IMAGE_SIZE(png_image image) { return PNG_IMAGE_SIZE(image); }
#endif
