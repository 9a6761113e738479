/*
 * font.h: the HUD's fonts, found on the system at run time and read with
 * stb_truetype (TrueType and OpenType/CFF outlines, single files and
 * collections such as Noto Sans CJK's .ttc). No GL: the renderer's text
 * room (text.c) draws with them, the app asks whether they cover a
 * language's texts before it chooses that language.
 *
 * A font set is a chain of faces: for each character the first face that
 * has it. By default a Latin face (DejaVu Sans, Segoe UI, Helvetica) and
 * then a CJK one (Noto Sans CJK SC or WenQuanYi Micro Hei, Microsoft
 * YaHei, PingFang), each the first of its list that exists; the CJK file
 * (about 20 MB) is opened only when a character needs it, and mapped, not
 * read, where the system can map files. FONT_PATH_ENV (a list of files,
 * ':'-separated, ';' on Windows) replaces the system's lists.
 */
#ifndef RAYPICK_FONT_H
#define RAYPICK_FONT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The environment variable naming the font files to use instead of the
   system's (e.g. RAYPICK_FONT=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc). */
#define FONT_PATH_ENV "RAYPICK_FONT"
/* At most this many faces in a set. */
#define FONT_MAX_FACES 8

typedef struct font_set font_set;

/* A glyph of a set: which face, and its index in that face. */
typedef struct font_glyph {
    int face;           /* 0 .. FONT_MAX_FACES-1 */
    int index;          /* the face's glyph index; 0 is its "missing" box */
} font_glyph;

/* A glyph's image at some size: where it lies from the pen on the
   baseline (y down), in whole pixels. */
typedef struct font_box {
    int x0, y0, x1, y1;
} font_box;

/*!
 * @brief the fonts to draw with: the files in `paths` (a FONT_PATH_ENV
 *        list) when paths is not NULL, else the system's (above).
 *
 * Files that do not exist are passed over; a file that exists but is no
 * font stb_truetype can read (or whose table directory reaches past its
 * end) is refused with a message. Only the first face is opened here.
 *
 * @returns the set, or NULL with the reason in err when no face opens
 *          ("no font found: install fonts-dejavu-core ..." or the file's
 *          problem); err may be NULL.
 */
font_set *font_set_open(const char *paths, char *err, size_t err_size);
void font_set_close(font_set *f);

/* The glyph for a Unicode code point: the first face that has it (opening
   faces as needed). false, and the first face's missing box in out, when
   none has it. */
bool font_set_find(font_set *f, uint32_t codepoint, font_glyph *out);
/* The first code point of UTF-8 text that no face has ('\n' aside), 0
   when every one is there. Ill-formed UTF-8 counts as U+FFFD. */
uint32_t font_set_missing(font_set *f, const char *utf8);

/* Horizontal advance of g at an em of `em` pixels (fractional). */
float font_set_advance(const font_set *f, font_glyph g, float em);
/* The box of g's image at an em of `em` pixels; all 0 for a blank glyph. */
font_box font_set_box(const font_set *f, font_glyph g, float em);
/* Rasterises g at an em of `em` into out (box's width x height bytes,
   `stride` bytes a row), 0..255 coverage. */
void font_set_render(const font_set *f, font_glyph g, float em, unsigned char *out, int stride);

/* The path of face i and, for a collection, the face's family name
   ("Noto Sans CJK SC"); NULL for a face that is not open. */
const char *font_set_face_path(const font_set *f, int face);
const char *font_set_face_name(const font_set *f, int face);
/* Face i's index in its file (0 for a single font, the face chosen in a
   collection); -1 for a face that is not open. */
int font_set_face_index(const font_set *f, int face);

/* The next code point of UTF-8 text at *p, advancing *p; U+FFFD for an
   ill-formed sequence (one byte consumed), 0 at the end. */
uint32_t font_utf8_next(const char **p);

/* What to install for fonts that cover `language` ("zh", "de", ...) on
   this system, for a message: "fonts-noto-cjk (Debian/Ubuntu: apt install
   fonts-noto-cjk)" and the like. */
const char *font_install_hint(const char *language);

#endif /* RAYPICK_FONT_H */
