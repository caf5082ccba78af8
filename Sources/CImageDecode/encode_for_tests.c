// Fixture encoders for the tests (see the end of CImageDecode.h): PNG and JPEG files of known
// pixels made at test time, so that no binary fixture is committed. The decoder never calls
// these.

#include "CImageDecode.h"

#include <setjmp.h>
#include <stdio.h>  // jpeglib.h needs FILE and size_t declared first
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

int cimage_test_encode_png(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                           uint8_t **out, size_t *out_length) {
  static const png_uint_32 formats[5] = {0, PNG_FORMAT_GRAY, PNG_FORMAT_GA, PNG_FORMAT_RGB,
                                         PNG_FORMAT_RGBA};
  if (channels < 1 || channels > 4 || out == NULL || out_length == NULL) return -1;
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = formats[channels];
  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&image, NULL, &size, 0, pixels, 0, NULL)) return -1;
  uint8_t *buffer = malloc(size);
  if (buffer == NULL) return -1;
  if (!png_image_write_to_memory(&image, buffer, &size, 0, pixels, 0, NULL)) {
    free(buffer);
    return -1;
  }
  *out = buffer;
  *out_length = size;
  return 0;
}

/// libjpeg's error manager with a way back, as in the decoder.
struct encode_guard {
  struct jpeg_error_mgr manager;  // first, so that cinfo->err can be cast back
  jmp_buf jump;
};

/// Everything libjpeg changes, owned by the function that does not call setjmp.
struct encode_job {
  struct jpeg_compress_struct cinfo;
  struct encode_guard guard;
  const uint8_t *pixels;
  uint32_t width;
  uint32_t height;
  int components;
  int quality;
  int progressive;
  const uint8_t *app1;
  size_t app1_length;
  unsigned char *buffer;  // malloc'd by libjpeg's memory destination
  unsigned long size;
};

static void encode_fail(j_common_ptr cinfo) {
  longjmp(((struct encode_guard *)cinfo->err)->jump, 1);
}

static void encode_quiet(j_common_ptr cinfo) { (void)cinfo; }

static int run_encode(struct encode_job *job) {
  if (setjmp(job->guard.jump)) return -1;
  struct jpeg_compress_struct *cinfo = &job->cinfo;
  jpeg_create_compress(cinfo);
  jpeg_mem_dest(cinfo, &job->buffer, &job->size);
  cinfo->image_width = job->width;
  cinfo->image_height = job->height;
  cinfo->input_components = job->components;
  cinfo->in_color_space =
      job->components == 1 ? JCS_GRAYSCALE : (job->components == 4 ? JCS_CMYK : JCS_RGB);
  jpeg_set_defaults(cinfo);
  jpeg_set_quality(cinfo, job->quality, TRUE);
  if (job->progressive) jpeg_simple_progression(cinfo);
  jpeg_start_compress(cinfo, TRUE);
  if (job->app1 != NULL) {
    jpeg_write_marker(cinfo, JPEG_APP0 + 1, job->app1, (unsigned int)job->app1_length);
  }
  size_t row_bytes = (size_t)job->width * (size_t)job->components;
  while (cinfo->next_scanline < cinfo->image_height) {
    JSAMPROW row = (JSAMPROW)(job->pixels + (size_t)cinfo->next_scanline * row_bytes);
    jpeg_write_scanlines(cinfo, &row, 1);
  }
  jpeg_finish_compress(cinfo);
  return 0;
}

int cimage_test_encode_jpeg(const uint8_t *pixels, uint32_t width, uint32_t height,
                            int components, int quality, int progressive, const uint8_t *app1,
                            size_t app1_length, uint8_t **out, size_t *out_length) {
  if ((components != 1 && components != 3 && components != 4) || out == NULL ||
      out_length == NULL) {
    return -1;
  }
  struct encode_job job;
  memset(&job, 0, sizeof job);
  job.cinfo.err = jpeg_std_error(&job.guard.manager);
  job.guard.manager.error_exit = encode_fail;
  job.guard.manager.output_message = encode_quiet;
  job.pixels = pixels;
  job.width = width;
  job.height = height;
  job.components = components;
  job.quality = quality;
  job.progressive = progressive;
  job.app1 = app1;
  job.app1_length = app1_length;
  int result = run_encode(&job);
  jpeg_destroy_compress(&job.cinfo);
  if (result != 0) {
    free(job.buffer);
    return result;
  }
  *out = job.buffer;
  *out_length = job.size;
  return 0;
}

void cimage_test_free(void *buffer) { free(buffer); }
