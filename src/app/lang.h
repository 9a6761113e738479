/*
 * lang.h: the language the program speaks (the message catalogue's,
 * src/lessons/msg.h) and the fonts it draws it with (src/render/font.h).
 * No SDL, no GL: unit tested in tests/test_lang.c.
 *
 * --lang CODE chooses; without it the locale does (LC_ALL, LC_MESSAGES,
 * LANG), and English where the locale names no language the catalogue
 * has. A language is shown only when the fonts found have every character
 * of its texts; else the program says which package to install and shows
 * English.
 */
#ifndef RAYPICK_APP_LANG_H
#define RAYPICK_APP_LANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "font.h"

/* The language to use: `option` (--lang's value; NULL when not given)
   when the catalogue has it, else the locale's language
   (msg_locale_language). */
const char *app_lang_choose(const char *option, const char *lc_all, const char *lc_messages, const char *lang);

/*!
 * @brief whether `fonts` can show every text of language `code`.
 *
 * @param[in]  fonts  NULL: the built-in font, ASCII only
 * @param[out] why    when false: which character of which text is
 *                    missing ("U+62FE in hud.pick.none"); may be NULL
 * @returns true when every character of every text of the language is in
 *          some face of fonts ('\n' aside); false for an unknown code
 */
bool app_lang_fonts_cover(font_set *fonts, const char *code, char *why, size_t why_size);

/*!
 * @brief the fonts for the HUD and the language they can show.
 *
 * Opens the fonts (FONT_PATH_ENV's files when `font_paths` is not NULL,
 * else the system's) and keeps msg's current language when they cover it;
 * otherwise writes why and what to install to `warn` (one line, no
 * newline) and switches msg to English. An English run without fonts is
 * no warning: the built-in font draws ASCII.
 *
 * @returns the fonts (the caller hands them to the renderer), NULL for
 *          the built-in font
 */
font_set *app_lang_fonts(const char *font_paths, char *warn, size_t warn_size);

#endif /* RAYPICK_APP_LANG_H */
