// The decoder behind CImageDecode.h: format sniffing, size checks before allocation, libpng's
// png_image API for PNG and libjpeg for JPEG with its exit() replaced by a longjmp.
//
// setjmp discipline: every function that calls setjmp keeps all the state libjpeg changes in a
// struct owned by its caller and reached through a pointer parameter that is not changed after
// setjmp, so nothing the C standard calls indeterminate after a longjmp is read.

#include "CImageDecode.h"

#include <setjmp.h>
#include <stdio.h>  // jpeglib.h needs FILE and size_t declared first
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>
#include <png.h>

// MARK: Shared

/// Copies a library message into `info->message` as one line of printable ASCII: it ends up
/// on a terminal, where a control byte (or a C1 control in UTF-8) would be obeyed.
static void keep_message(cimage_info *info, const char *text) {
  size_t index = 0;
  if (text != NULL) {
    for (; text[index] != '\0' && index + 1 < CIMAGE_MESSAGE_CAPACITY; index++) {
      unsigned char c = (unsigned char)text[index];
      info->message[index] = (c < 0x20 || c >= 0x7F) ? '?' : (char)c;
    }
  }
  info->message[index] = '\0';
}

/// Whether a declared size is beyond the caller's limits, or beyond what one buffer (and
/// libpng's signed row stride) can address whatever the limits.
static int exceeds(cimage_limits limits, uint32_t width, uint32_t height) {
  uint64_t pixels = (uint64_t)width * height;
  if (limits.max_width != 0 && width > limits.max_width) return 1;
  if (limits.max_height != 0 && height > limits.max_height) return 1;
  if (limits.max_pixels != 0 && pixels > limits.max_pixels) return 1;
  if ((uint64_t)width * 4 > INT32_MAX) return 1;
  if (pixels > SIZE_MAX / 4) return 1;
  return 0;
}

static uint32_t big_endian_32(const uint8_t *bytes) {
  return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

cimage_format cimage_sniff_format(const uint8_t *bytes, size_t length) {
  static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (bytes == NULL) return CIMAGE_FORMAT_UNKNOWN;
  if (length >= 8 && memcmp(bytes, png_signature, 8) == 0) return CIMAGE_FORMAT_PNG;
  if (length >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) {
    return CIMAGE_FORMAT_JPEG;
  }
  if (length >= 6 && (memcmp(bytes, "GIF87a", 6) == 0 || memcmp(bytes, "GIF89a", 6) == 0)) {
    return CIMAGE_FORMAT_GIF;
  }
  if (length >= 12 && memcmp(bytes, "RIFF", 4) == 0 && memcmp(bytes + 8, "WEBP", 4) == 0) {
    return CIMAGE_FORMAT_WEBP;
  }
  if (length >= 4 && (memcmp(bytes, "II*\0", 4) == 0 || memcmp(bytes, "MM\0*", 4) == 0)) {
    return CIMAGE_FORMAT_TIFF;
  }
  if (length >= 12 && memcmp(bytes + 4, "ftyp", 4) == 0) {
    // ISO base media: the major brand says which codec (phones save HEIC, browsers AVIF).
    const uint8_t *brand = bytes + 8;
    if (memcmp(brand, "avif", 4) == 0 || memcmp(brand, "avis", 4) == 0) return CIMAGE_FORMAT_AVIF;
    static const char *heif_brands[] = {"heic", "heix", "hevc", "hevx", "heim", "heis", "mif1",
                                        "msf1"};
    for (size_t index = 0; index < sizeof heif_brands / sizeof heif_brands[0]; index++) {
      if (memcmp(brand, heif_brands[index], 4) == 0) return CIMAGE_FORMAT_HEIF;
    }
  }
  return CIMAGE_FORMAT_UNKNOWN;
}

// MARK: PNG

/// Reads the size from the IHDR chunk, which the PNG specification puts first, so that the
/// limits are checked before libpng allocates anything (libpng's own limit is a million pixels
/// a side, far beyond what a terminal shows).
static cimage_status png_header(const uint8_t *bytes, size_t length, cimage_limits limits,
                                cimage_info *info) {
  if (length < 24) {
    keep_message(info, "file ends inside the PNG header");
    return CIMAGE_CORRUPT;
  }
  if (big_endian_32(bytes + 8) != 13 || memcmp(bytes + 12, "IHDR", 4) != 0) {
    keep_message(info, "the first chunk is not a PNG header (IHDR)");
    return CIMAGE_CORRUPT;
  }
  uint32_t width = big_endian_32(bytes + 16);
  uint32_t height = big_endian_32(bytes + 20);
  if (width == 0 || height == 0 || width > 0x7FFFFFFF || height > 0x7FFFFFFF) {
    keep_message(info, "invalid PNG image size");
    return CIMAGE_CORRUPT;
  }
  info->width = width;
  info->height = height;
  return exceeds(limits, width, height) ? CIMAGE_TOO_LARGE : CIMAGE_OK;
}

/// libpng's simplified API reports failure as a message only; "out of memory" is the one
/// failure that is not about the file.
static cimage_status png_failure(png_image *image, cimage_info *info) {
  keep_message(info, image->message);
  return strstr(image->message, "memory") != NULL ? CIMAGE_OUT_OF_MEMORY : CIMAGE_CORRUPT;
}

static cimage_status decode_png(const uint8_t *bytes, size_t length, uint8_t *pixels,
                                size_t capacity, cimage_info *info) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, bytes, length)) {
    return png_failure(&image, info);  // libpng has freed its state already
  }
  if (image.width != info->width || image.height != info->height ||
      capacity != (size_t)info->width * info->height * 4) {
    png_image_free(&image);
    return CIMAGE_BAD_BUFFER;
  }
  image.format = PNG_FORMAT_RGBA;
  // Without gAMA or sRGB chunks libpng takes 16-bit samples as linear light and brightens
  // them on the way to 8 bits; image editors write them sRGB-encoded, as 8-bit ones are.
  image.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
  if (!png_image_finish_read(&image, NULL, pixels, (png_int_32)(info->width * 4), NULL)) {
    return png_failure(&image, info);
  }
  return CIMAGE_OK;  // png_image_finish_read frees libpng's state on success too
}

// MARK: JPEG

/// libjpeg's error manager with a way back: error_exit longjmps here instead of exiting.
struct jpeg_guard {
  struct jpeg_error_mgr manager;  // first, so that cinfo->err can be cast back
  jmp_buf jump;
  cimage_status status;
  cimage_info *info;
};

/// A progress monitor that stops a progressive JPEG with too many scans.
struct jpeg_watch {
  struct jpeg_progress_mgr manager;  // first, so that cinfo->progress can be cast back
  uint32_t max_scans;
};

/// Everything libjpeg changes while it runs, owned by the function that does not call setjmp.
struct jpeg_job {
  struct jpeg_decompress_struct cinfo;
  struct jpeg_guard guard;
  struct jpeg_watch watch;
  const uint8_t *bytes;
  size_t length;
  cimage_limits limits;
  uint8_t *pixels;  // NULL: read the header only
  size_t capacity;
  int cmyk;
};

/// error_exit: keep the message, sort it, and jump back; never returns, never exits.
static void jpeg_fail(j_common_ptr cinfo) {
  struct jpeg_guard *guard = (struct jpeg_guard *)cinfo->err;
  char text[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, text);
  keep_message(guard->info, text);
  switch (cinfo->err->msg_code) {
    case JERR_OUT_OF_MEMORY:
      guard->status = CIMAGE_OUT_OF_MEMORY;
      break;
    case JERR_BAD_PRECISION:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_NOT_COMPILED:
      guard->status = CIMAGE_UNSUPPORTED;
      break;
    default:
      guard->status = CIMAGE_CORRUPT;
  }
  longjmp(guard->jump, 1);
}

/// emit_message: nothing is printed. A file that ends early is an error, not a warning: libjpeg
/// would fill the rest with gray and go on decoding rows that are not there. Other warnings
/// (stray bytes before a marker, as many cameras write) let decoding go on.
static void jpeg_note(j_common_ptr cinfo, int level) {
  if (level < 0) {
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) jpeg_fail(cinfo);
    cinfo->err->num_warnings++;
  }
}

/// output_message: libjpeg's default writes to stderr, which belongs to the full-screen view.
static void jpeg_quiet(j_common_ptr cinfo) { (void)cinfo; }

static void jpeg_watch_scans(j_common_ptr cinfo) {
  if (!cinfo->is_decompressor) return;
  struct jpeg_watch *watch = (struct jpeg_watch *)cinfo->progress;
  j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
  if (watch->max_scans != 0 && decompress->input_scan_number > 0 &&
      (uint32_t)decompress->input_scan_number > watch->max_scans) {
    struct jpeg_guard *guard = (struct jpeg_guard *)cinfo->err;
    char text[64];
    snprintf(text, sizeof text, "more than %u progressive scans", watch->max_scans);
    keep_message(guard->info, text);
    guard->status = CIMAGE_CORRUPT;
    longjmp(guard->jump, 1);
  }
}

static uint16_t exif_16(const uint8_t *bytes, int little) {
  return little ? (uint16_t)(bytes[0] | bytes[1] << 8) : (uint16_t)(bytes[0] << 8 | bytes[1]);
}

static uint32_t exif_32(const uint8_t *bytes, int little) {
  return little ? (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
                      (uint32_t)bytes[3] << 24
                : big_endian_32(bytes);
}

/// The Orientation tag (0x0112) of IFD0 in an EXIF APP1 block; 1 when absent or malformed.
/// Phones store photos as the sensor saw them and say in this tag how to turn them.
static uint8_t exif_orientation(jpeg_saved_marker_ptr marker) {
  for (; marker != NULL; marker = marker->next) {
    if (marker->marker != JPEG_APP0 + 1) continue;
    if (marker->data_length < 6 || memcmp(marker->data, "Exif\0\0", 6) != 0) continue;
    const uint8_t *tiff = marker->data + 6;
    size_t length = marker->data_length - 6;
    if (length < 8) return 1;
    int little;
    if (tiff[0] == 'I' && tiff[1] == 'I') {
      little = 1;
    } else if (tiff[0] == 'M' && tiff[1] == 'M') {
      little = 0;
    } else {
      return 1;
    }
    if (exif_16(tiff + 2, little) != 42) return 1;
    size_t directory = exif_32(tiff + 4, little);
    if (directory > length || length - directory < 2) return 1;
    uint16_t count = exif_16(tiff + directory, little);
    for (size_t index = 0; index < count; index++) {
      size_t entry = directory + 2 + 12 * index;
      if (entry > length || length - entry < 12) return 1;
      if (exif_16(tiff + entry, little) != 0x0112) continue;
      uint16_t type = exif_16(tiff + entry + 2, little);
      uint32_t values = exif_32(tiff + entry + 4, little);
      if (type != 3 || values != 1) return 1;  // SHORT, one value, stored in the entry itself
      uint16_t value = exif_16(tiff + entry + 8, little);
      return value >= 1 && value <= 8 ? (uint8_t)value : 1;
    }
    return 1;
  }
  return 1;
}

/// CMYK rows (as libjpeg returns them, four bytes a pixel) to RGBA in place. Adobe's files,
/// the usual source of CMYK JPEGs, store the channels inverted.
static void cmyk_to_rgba(uint8_t *pixels, size_t count, int inverted) {
  for (size_t index = 0; index < count; index++) {
    uint8_t *pixel = pixels + index * 4;
    unsigned c = pixel[0], m = pixel[1], y = pixel[2], k = pixel[3];
    if (!inverted) {
      c = 255 - c;
      m = 255 - m;
      y = 255 - y;
      k = 255 - k;
    }
    pixel[0] = (uint8_t)((c * k + 127) / 255);
    pixel[1] = (uint8_t)((m * k + 127) / 255);
    pixel[2] = (uint8_t)((y * k + 127) / 255);
    pixel[3] = 255;
  }
}

/// The part of a JPEG decode that libjpeg can jump out of.
static cimage_status run_jpeg(struct jpeg_job *job) {
  if (setjmp(job->guard.jump)) return job->guard.status;
  struct jpeg_decompress_struct *cinfo = &job->cinfo;
  jpeg_create_decompress(cinfo);
  jpeg_mem_src(cinfo, job->bytes, (unsigned long)job->length);
  jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
  if (job->limits.max_scans != 0) {
    job->watch.manager.progress_monitor = jpeg_watch_scans;
    job->watch.max_scans = job->limits.max_scans;
    cinfo->progress = &job->watch.manager;
  }
  jpeg_read_header(cinfo, TRUE);

  cimage_info *info = job->guard.info;
  info->width = cinfo->image_width;
  info->height = cinfo->image_height;
  info->orientation = exif_orientation(cinfo->marker_list);
  switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE:
    case JCS_YCbCr:
    case JCS_RGB:
      cinfo->out_color_space = JCS_EXT_RGBA;
      break;
    case JCS_CMYK:
    case JCS_YCCK:
      cinfo->out_color_space = JCS_CMYK;
      job->cmyk = 1;
      break;
    default: {
      char text[64];
      snprintf(text, sizeof text, "JPEG with %d colour components of unknown meaning",
               cinfo->num_components);
      keep_message(info, text);
      return CIMAGE_UNSUPPORTED;
    }
  }
  if (exceeds(job->limits, info->width, info->height)) return CIMAGE_TOO_LARGE;
  if (job->pixels == NULL) return CIMAGE_OK;
  size_t row_bytes = (size_t)info->width * 4;
  if (job->capacity != row_bytes * info->height) return CIMAGE_BAD_BUFFER;

  jpeg_start_decompress(cinfo);
  if (cinfo->output_width != info->width || cinfo->output_height != info->height ||
      cinfo->output_components != 4) {
    keep_message(info, "JPEG output does not match its header");
    return CIMAGE_CORRUPT;
  }
  while (cinfo->output_scanline < cinfo->output_height) {
    JSAMPROW row = job->pixels + (size_t)cinfo->output_scanline * row_bytes;
    if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
      keep_message(info, "JPEG decoder returned no row");  // a memory source never suspends
      return CIMAGE_CORRUPT;
    }
  }
  if (job->cmyk) {
    cmyk_to_rgba(job->pixels, (size_t)info->width * info->height, cinfo->saw_Adobe_marker);
  }
  jpeg_finish_decompress(cinfo);  // reads to the end marker: a file cut short fails here too
  return CIMAGE_OK;
}

static cimage_status decode_jpeg(const uint8_t *bytes, size_t length, cimage_limits limits,
                                 uint8_t *pixels, size_t capacity, cimage_info *info) {
  struct jpeg_job job;
  memset(&job, 0, sizeof job);
  job.cinfo.err = jpeg_std_error(&job.guard.manager);
  job.guard.manager.error_exit = jpeg_fail;
  job.guard.manager.emit_message = jpeg_note;
  job.guard.manager.output_message = jpeg_quiet;
  job.guard.status = CIMAGE_CORRUPT;
  job.guard.info = info;
  job.bytes = bytes;
  job.length = length;
  job.limits = limits;
  job.pixels = pixels;
  job.capacity = capacity;
  cimage_status status = run_jpeg(&job);
  jpeg_destroy_decompress(&job.cinfo);  // safe on a half-made struct: it checks cinfo->mem
  return status;
}

// MARK: Entry points

/// Header, limits and (when `pixels` is not NULL) pixels, for both entry points.
static cimage_status decode(const uint8_t *bytes, size_t length, cimage_limits limits,
                            uint8_t *pixels, size_t capacity, cimage_info *info) {
  memset(info, 0, sizeof *info);
  info->orientation = 1;
  info->format = cimage_sniff_format(bytes, length);
  switch (info->format) {
    case CIMAGE_FORMAT_UNKNOWN:
      return CIMAGE_NOT_AN_IMAGE;
    case CIMAGE_FORMAT_PNG: {
      cimage_status status = png_header(bytes, length, limits, info);
      if (status != CIMAGE_OK || pixels == NULL) return status;
      return decode_png(bytes, length, pixels, capacity, info);
    }
    case CIMAGE_FORMAT_JPEG:
      return decode_jpeg(bytes, length, limits, pixels, capacity, info);
    default:
      return CIMAGE_UNSUPPORTED;
  }
}

cimage_status cimage_read_info(const uint8_t *bytes, size_t length, cimage_limits limits,
                               cimage_info *info) {
  return decode(bytes, length, limits, NULL, 0, info);
}

cimage_status cimage_decode_into(const uint8_t *bytes, size_t length, cimage_limits limits,
                                 uint8_t *pixels, size_t capacity, cimage_info *info) {
  if (pixels == NULL) return CIMAGE_BAD_BUFFER;
  return decode(bytes, length, limits, pixels, capacity, info);
}
