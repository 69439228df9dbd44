// The C interface to zxing-cpp: one call, no state (a DecodeHints value is cheap to build).
#include "CZXing.h"

#include <ZXing/BitMatrix.h>
#include <ZXing/MultiFormatWriter.h>
#include <ZXing/ReadBarcode.h>
#include <ZXing/TextUtfEncoding.h>

#include <cstring>
#include <string>
#include <exception>

int CZXing_readQRCodes(const uint8_t *pixels, int width, int height, int binarizer, int try_downscale,
                       int with_text, void *context, CZXing_FoundCode found, char *error, size_t error_size) {
    try {
        ZXing::DecodeHints hints;
        hints.setFormats(ZXing::BarcodeFormat::QRCode);
        hints.setTryHarder(true);
        hints.setTryRotate(false);
        hints.setTryDownscale(try_downscale != 0);
        hints.setBinarizer(binarizer == 1 ? ZXing::Binarizer::GlobalHistogram : ZXing::Binarizer::LocalAverage);
        hints.setReturnErrors(false);
        ZXing::ImageView image(pixels, width, height, ZXing::ImageFormat::Lum);
        int reported = 0;
        for (const auto &result : ZXing::ReadBarcodes(image, hints)) {
            if (!result.isValid() || result.format() != ZXing::BarcodeFormat::QRCode) continue;
            const auto &bytes = result.bytes();
            const auto &position = result.position();
            int corners[8];
            for (int i = 0; i < 4; i++) {
                corners[2 * i] = position[i].x;
                corners[2 * i + 1] = position[i].y;
            }
            // The text only when asked (kioskctl decode): the door decides on the bytes, 30 frames a second.
            if (with_text) {
                const std::string text = ZXing::TextUtfEncoding::ToUtf8(result.text());
                found(context, bytes.data(), bytes.size(), text.data(), text.size(), corners);
            } else {
                found(context, bytes.data(), bytes.size(), nullptr, 0, corners);
            }
            reported += 1;
        }
        return reported;
    } catch (const std::exception &e) {
        if (error && error_size > 0) {
            std::strncpy(error, e.what(), error_size - 1);
            error[error_size - 1] = '\0';
        }
        return -1;
    } catch (...) {
        if (error && error_size > 0) error[0] = '\0';
        return -1;
    }
}

int CZXing_writeBarcode(int format, const char *text, uint8_t *out, size_t capacity, int *width, int *height,
                        char *error, size_t error_size) {
    static const ZXing::BarcodeFormat formats[] = {ZXing::BarcodeFormat::EAN13, ZXing::BarcodeFormat::DataMatrix,
                                                   ZXing::BarcodeFormat::PDF417, ZXing::BarcodeFormat::Code128};
    if (format < 0 || format > 3) return -1;
    try {
        auto matrix = ZXing::MultiFormatWriter(formats[format]).setMargin(0).encode(std::string(text), 0, 0);
        if (size_t(matrix.width()) * size_t(matrix.height()) > capacity) {
            if (error && error_size > 0) {
                std::strncpy(error, "barcode larger than the buffer", error_size - 1);
                error[error_size - 1] = '\0';
            }
            return -1;
        }
        for (int y = 0; y < matrix.height(); y++)
            for (int x = 0; x < matrix.width(); x++) out[y * matrix.width() + x] = matrix.get(x, y) ? 0 : 255;
        *width = matrix.width();
        *height = matrix.height();
        return 0;
    } catch (const std::exception &e) {
        if (error && error_size > 0) {
            std::strncpy(error, e.what(), error_size - 1);
            error[error_size - 1] = '\0';
        }
        return -1;
    }
}
