#ifndef CALSA_SHIM_H
#define CALSA_SHIM_H
#include <alsa/asoundlib.h>

/* ALSA prints its own errors to standard error, which is the kiosk's text screen: the kiosk says what failed in
   its log instead. The handler is variadic, so it is made here, in C. */
static void calsa_ignore_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void calsa_silence_errors(void) { snd_lib_error_set_handler(calsa_ignore_error); }
#endif
