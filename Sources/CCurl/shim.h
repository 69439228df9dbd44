#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt is variadic, which Swift cannot call: one typed wrapper per kind of argument passed.

// curl_easy_setopt with a `long` argument (flags, ports, timeouts, CURLOPT_USE_SSL).
static inline CURLcode CCurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

// curl_easy_setopt with a C string argument (CURLOPT_URL, CURLOPT_MAIL_FROM, CURLOPT_CAINFO...).
static inline CURLcode CCurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

// curl_easy_setopt with a data pointer argument (CURLOPT_READDATA, CURLOPT_ERRORBUFFER, CURLOPT_MAIL_RCPT...).
static inline CURLcode CCurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

// curl_easy_setopt(CURLOPT_READFUNCTION): a function pointer argument.
static inline CURLcode CCurl_easy_setopt_read_function(CURL *handle, curl_read_callback function) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, function);
}

// curl_easy_setopt(CURLOPT_DEBUGFUNCTION): a function pointer argument.
static inline CURLcode CCurl_easy_setopt_debug_function(CURL *handle, curl_debug_callback function) {
    return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, function);
}

// curl_easy_setopt(CURLOPT_XFERINFOFUNCTION): a function pointer argument.
static inline CURLcode CCurl_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback function) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

// curl_easy_setopt(CURLOPT_OPENSOCKETFUNCTION): a function pointer argument.
static inline CURLcode CCurl_easy_setopt_opensocket_function(CURL *handle, curl_opensocket_callback function) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, function);
}

// curl_easy_getinfo is variadic: the `long` answers (CURLINFO_RESPONSE_CODE).
static inline CURLcode CCurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

// CURL_GLOBAL_DEFAULT is a macro built from other macros.
static inline long CCurl_global_default(void) { return CURL_GLOBAL_DEFAULT; }

#endif
