// Typed wrappers over libcurl for Swift.
//
// Swift cannot call C variadic functions, and curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are
// variadic: each wrapper below pins one argument type. A few macros that Swift does not import (because they
// are expressions rather than literals) are re-exported as functions or constants.
#ifndef PARLEY_CCURL_SHIM_H
#define PARLEY_CCURL_SHIM_H

#include <curl/curl.h>

// MARK: - curl_easy_setopt

static inline CURLcode parley_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode parley_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode parley_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode parley_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode parley_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode parley_curl_easy_setopt_write_callback(
    CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

// MARK: - curl_easy_getinfo

static inline CURLcode parley_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode parley_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode parley_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode parley_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

// MARK: - curl_multi_setopt

static inline CURLMcode parley_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

static inline CURLMcode parley_curl_multi_setopt_pointer(CURLM *handle, CURLMoption option, void *value) {
    return curl_multi_setopt(handle, option, value);
}

// MARK: - Macros Swift does not import

/// Returned from a write callback to pause the transfer; libcurl delivers the same data again on unpause.
static const size_t parley_curl_writefunc_pause = CURL_WRITEFUNC_PAUSE;

/// curl_global_init(CURL_GLOBAL_DEFAULT).
static inline CURLcode parley_curl_global_init_default(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

/// Resumes a transfer paused by parley_curl_writefunc_pause (CURLPAUSE_CONT).
static inline CURLcode parley_curl_easy_unpause(CURL *handle) {
    return curl_easy_pause(handle, CURLPAUSE_CONT);
}

#endif
