// The archive's gzip members by libdeflate (Debian's libdeflate-dev), a Node-API addon: gzip(bytes, level) -> Buffer.
// Built by scripts/native.mjs when `npm ci` runs; the generator uses Node's zlib where it is not (mirror/deflate.ts).
// On the shipped site's tar streams in members of 430 kB (2026-11-28, alternated, load 11-12): the root's 815 MB at
// level 4 in 5.5-6.2 s of CPU and 90.5 MB against zlib's 7.6-8.5 s and 93.3 MB; 2026's 639 MB at level 1 in 1.8-2.0 s
// and 65.1 MB against 2.6-3.5 s and 77.5 MB.
#define NAPI_VERSION 8
#include <node_api.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

// Bumped with any change of what the addon does: mirror/deflate.ts refuses an addon of another version (an old build left in .cache/).
#define ADDON_VERSION 1

// One compressor a level and one output buffer, per thread (each worker thread is its own Node-API environment): a
// compressor holds about a megabyte of tables, so it is made once, not a member.
typedef struct {
  struct libdeflate_compressor *at[13];
  void *out;
  size_t capacity;
} Cache;

static void free_cache(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  Cache *cache = data;
  for (int i = 0; i < 13; i++)
    if (cache->at[i] != NULL) libdeflate_free_compressor(cache->at[i]);
  free(cache->out);
  free(cache);
}

static napi_value fail(napi_env env, const char *what) {
  napi_throw_error(env, NULL, what);
  return NULL;
}

static napi_value gzip(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 2) return fail(env, "gzip(bytes, level): two arguments");
  bool typed = false;
  napi_is_typedarray(env, argv[0], &typed);
  if (!typed) return fail(env, "gzip(bytes, level): bytes must be a Uint8Array");
  napi_typedarray_type type;
  size_t length;
  void *data;
  if (napi_get_typedarray_info(env, argv[0], &type, &length, &data, NULL, NULL) != napi_ok || type != napi_uint8_array) return fail(env, "gzip(bytes, level): bytes must be a Uint8Array");
  int32_t level;
  if (napi_get_value_int32(env, argv[1], &level) != napi_ok || level < 0 || level > 12) return fail(env, "gzip(bytes, level): level must be 0 to 12");
  Cache *cache;
  if (napi_get_instance_data(env, (void **)&cache) != napi_ok || cache == NULL) return fail(env, "gzip: the addon was not set up");
  if (cache->at[level] == NULL && (cache->at[level] = libdeflate_alloc_compressor(level)) == NULL) return fail(env, "gzip: out of memory");
  size_t bound = libdeflate_gzip_compress_bound(cache->at[level], length);
  if (bound > cache->capacity) {
    void *grown = realloc(cache->out, bound);
    if (grown == NULL) return fail(env, "gzip: out of memory");
    cache->out = grown;
    cache->capacity = bound;
  }
  size_t written = libdeflate_gzip_compress(cache->at[level], data == NULL ? "" : data, length, cache->out, bound);
  if (written == 0) return fail(env, "gzip: libdeflate's output did not fit its bound");
  napi_value result;
  if (napi_create_buffer_copy(env, written, cache->out, NULL, &result) != napi_ok) return fail(env, "gzip: out of memory");
  return result;
}

NAPI_MODULE_INIT() {
  Cache *cache = calloc(1, sizeof(Cache));
  if (cache == NULL || napi_set_instance_data(env, cache, free_cache, NULL) != napi_ok) return fail(env, "deflate: out of memory");
  napi_value fn, version, addon;
  napi_create_function(env, "gzip", NAPI_AUTO_LENGTH, gzip, NULL, &fn);
  napi_set_named_property(env, exports, "gzip", fn);
  napi_create_string_utf8(env, "libdeflate " LIBDEFLATE_VERSION_STRING, NAPI_AUTO_LENGTH, &version);
  napi_set_named_property(env, exports, "compressor", version);
  napi_create_int32(env, ADDON_VERSION, &addon);
  napi_set_named_property(env, exports, "addonVersion", addon);
  return exports;
}
