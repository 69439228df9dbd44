#ifndef CZXING_H
#define CZXING_H
// zxing-cpp (Debian's libzxing-dev) is a C++ library: this target compiles the few lines that call it and gives
// Swift a C interface, so no C++ type crosses into Swift.
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Called once per QR code read, with its raw bytes, its text as zxing-cpp renders it (UTF-8: the code's ECI or
/// guessed character set converted; NULL and 0 unless `with_text`), and its four corners as x0, y0, ... x3, y3 in
/// pixels (all valid only during the call).
typedef void (*CZXing_FoundCode)(void *context, const uint8_t *bytes, size_t length, const char *text,
                                 size_t text_length, const int *corners);

/// Reads the QR codes (Model 1 and 2, not Micro QR) in an 8-bit grey image of `width` x `height` pixels, rows
/// `width` bytes apart; `binarizer` 0 local average, 1 global histogram; `try_downscale` also looks at
/// zxing-cpp's own downscaled copies. Only codes whose error correction succeeded are reported. Returns the number
/// reported, or -1 if zxing-cpp threw (the message, if any, is copied into `error`, `error_size` bytes at most).
int CZXing_readQRCodes(const uint8_t *pixels, int width, int height, int binarizer, int try_downscale,
                       int with_text, void *context, CZXing_FoundCode found, char *error, size_t error_size);

/// Draws `text` as a barcode of `format` (0 EAN-13, 1 Data Matrix, 2 PDF417, 3 Code 128) at one pixel per module
/// and no quiet zone, dark 0 and light 255, into `out` (`capacity` bytes); `width` and `height` receive its size.
/// Returns 0, or -1 if zxing-cpp refused the text or the barcode does not fit (the message copied into `error`).
/// For test scenes: other barcodes beside a pass.
int CZXing_writeBarcode(int format, const char *text, uint8_t *out, size_t capacity, int *width, int *height,
                        char *error, size_t error_size);

#ifdef __cplusplus
}
#endif
#endif
