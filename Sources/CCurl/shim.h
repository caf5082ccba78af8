#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call; each wrapper
// below fixes one argument type and names the C function it calls.

static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode ccurl_setopt_data_callback(
  CURL *handle, CURLoption option, ccurl_data_callback callback
) {
  return curl_easy_setopt(handle, option, callback);
}

typedef int (*ccurl_progress_callback)(
  void *context, curl_off_t download_total, curl_off_t download_now, curl_off_t upload_total,
  curl_off_t upload_now);

static inline CURLcode ccurl_setopt_progress_callback(CURL *handle, ccurl_progress_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

// The authentication bits are macros with casts, which Swift does not import.
static inline long ccurl_auth_basic(void) { return (long)CURLAUTH_BASIC; }
static inline long ccurl_auth_digest(void) { return (long)CURLAUTH_DIGEST; }

#endif
