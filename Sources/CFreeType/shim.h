#ifndef CFREETYPE_SHIM_H
#define CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H

// FT_HAS_KERNING is a function-like macro that Swift cannot import.
static inline int CFreeType_HAS_KERNING(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }
// FT_LOAD_TARGET_LIGHT is a function-like macro that Swift cannot import.
static inline FT_Int32 CFreeType_LOAD_TARGET_LIGHT(void) { return FT_LOAD_TARGET_LIGHT; }
#endif
