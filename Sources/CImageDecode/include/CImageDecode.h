#ifndef CIMAGEDECODE_H
#define CIMAGEDECODE_H

// PNG and JPEG files decoded from memory to 8-bit RGBA, over Debian's libpng (its simplified
// png_image API) and libjpeg (libjpeg62-turbo). The caller reads the file itself (through its
// store) and hands over the bytes; nothing here opens a path, prints, or exits: libjpeg's
// error_exit, which would call exit(), is replaced by a longjmp back to the caller of the
// decoder, and its warnings are kept quiet.
//
// Decoding takes two calls so that the caller owns the pixel buffer and no pixel is copied:
// cimage_read_info reads the header, checks the size against the limits before anything big
// is allocated, and says how many bytes to allocate; cimage_decode_into reads the header again
// (it is small) and decodes into that buffer.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a decode call came to.
typedef enum cimage_status {
  CIMAGE_OK = 0,
  /// No signature this decoder knows (also empty input and input shorter than a signature).
  CIMAGE_NOT_AN_IMAGE = 1,
  /// A known image format, or a variant of PNG or JPEG, that this decoder does not read.
  CIMAGE_UNSUPPORTED = 2,
  /// A PNG or JPEG signature, but the rest does not decode (truncated, bad CRC, bad data).
  CIMAGE_CORRUPT = 3,
  /// The header declares a size beyond the caller's limits; nothing was allocated for it.
  CIMAGE_TOO_LARGE = 4,
  /// The library could not allocate its working memory.
  CIMAGE_OUT_OF_MEMORY = 5,
  /// The caller's buffer does not have width × height × 4 bytes.
  CIMAGE_BAD_BUFFER = 6,
} cimage_status;

/// The format named by the first bytes; only PNG and JPEG are decoded, the others are named so
/// that an error can say what the file is.
typedef enum cimage_format {
  CIMAGE_FORMAT_UNKNOWN = 0,
  CIMAGE_FORMAT_PNG = 1,
  CIMAGE_FORMAT_JPEG = 2,
  CIMAGE_FORMAT_GIF = 3,
  CIMAGE_FORMAT_WEBP = 4,
  CIMAGE_FORMAT_TIFF = 5,
  CIMAGE_FORMAT_HEIF = 6,
  CIMAGE_FORMAT_AVIF = 7,
} cimage_format;

/// The largest image the caller accepts; checked against the header before decoding. A zero
/// field means no limit of that kind.
typedef struct cimage_limits {
  uint32_t max_width;
  uint32_t max_height;
  uint64_t max_pixels;
  /// Progressive JPEG scans; a file with thousands of tiny scans costs minutes of CPU.
  uint32_t max_scans;
} cimage_limits;

#define CIMAGE_MESSAGE_CAPACITY 200

/// What the header says, and the library's words when something failed.
typedef struct cimage_info {
  cimage_format format;
  /// Stored size (before the EXIF orientation is applied); set for CIMAGE_OK and
  /// CIMAGE_TOO_LARGE.
  uint32_t width;
  uint32_t height;
  /// EXIF orientation 1...8 of a JPEG (1 when there is none or it is malformed).
  uint8_t orientation;
  /// The library's message for CIMAGE_CORRUPT and CIMAGE_UNSUPPORTED, NUL-terminated, one line.
  char message[CIMAGE_MESSAGE_CAPACITY];
} cimage_info;

/// The format named by the first bytes (magic numbers), without decoding anything.
cimage_format cimage_sniff_format(const uint8_t *bytes, size_t length);

/// Reads the header of a PNG or JPEG file in memory and checks its size against `limits`.
/// On CIMAGE_OK, `info->width * info->height * 4` is the size of the buffer to pass to
/// cimage_decode_into.
cimage_status cimage_read_info(const uint8_t *bytes, size_t length, cimage_limits limits,
                               cimage_info *info);

/// Decodes a PNG or JPEG file in memory into `pixels` as 8-bit RGBA, rows top to bottom, in
/// stored orientation. `capacity` must be width × height × 4 of what cimage_read_info reported.
cimage_status cimage_decode_into(const uint8_t *bytes, size_t length, cimage_limits limits,
                                 uint8_t *pixels, size_t capacity, cimage_info *info);

// MARK: For tests only
//
// Fixture encoders, so that tests can make PNG and JPEG files of known pixels instead of
// carrying binary files. Not used by the decoder. Each returns 0 on success and a malloc'd
// buffer in *out that the caller frees with cimage_test_free.

/// Writes a PNG with libpng's png_image API. `channels`: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.
int cimage_test_encode_png(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                           uint8_t **out, size_t *out_length);

/// Writes a JPEG with libjpeg. `components`: 1 gray, 3 RGB, 4 CMYK (written with an Adobe
/// marker, as libjpeg does for CMYK). `app1`, when not NULL, is written as an APP1 marker
/// (an EXIF block, for orientation tests).
int cimage_test_encode_jpeg(const uint8_t *pixels, uint32_t width, uint32_t height,
                            int components, int quality, int progressive, const uint8_t *app1,
                            size_t app1_length, uint8_t **out, size_t *out_length);

/// Frees a buffer returned by an encoder above.
void cimage_test_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
