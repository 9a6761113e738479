/*
 * msg.h: the message catalogue. Every text a learner reads (the HUD, the
 * key help, --help's lesson titles, the lessons' status lines, tours and
 * code-panel comments) is looked up here by id, in the language chosen
 * with msg_set_language: English ("en"), German ("de") or Chinese ("zh").
 * English is the fallback for anything a language lacks.
 *
 * The texts live in po/ (gettext's layout: po/raypick.pot in English,
 * po/de.po, po/zh.po; po/README.md says how to add a text or a language)
 * and are compiled into the program at build time. Every text is a
 * printf format: "%%" for a percent sign, and the same conversions in the
 * same order in every language (tests/test_msg.c checks), so
 *
 *     snprintf(buf, size, msg("hud.pick.hit"), name, t);
 *
 * is safe whatever the language. Texts are UTF-8. No SDL, no GL: lessons,
 * the app and tests call it alike.
 *
 * One language for the whole program (like a locale): set it at start-up,
 * before any thread that calls msg() runs.
 */
#ifndef RAYPICK_MSG_H
#define RAYPICK_MSG_H

#include <stdbool.h>

/* The text of `id` in the current language; the English text where the
   language has none; `id` itself for an id the catalogue does not know
   (a typo then shows on screen instead of crashing). NULL for NULL. */
const char *msg(const char *id);

/* true when the catalogue has `id` (in English, hence in every language
   through the fallback); false for NULL. */
bool msg_exists(const char *id);

/* Chooses the language of msg(): "en", "de" or "zh" (msg_languages()).
   false, and the language unchanged, for NULL or any other code. */
bool msg_set_language(const char *code);
/* The current language's code ("en" until msg_set_language says else). */
const char *msg_language(void);
/* The languages' codes, English first, then NULL. */
const char *const *msg_languages(void);
/* true when code is one of msg_languages(). */
bool msg_has_language(const char *code);

/* The text of `id` in language `code`, without fallback: NULL when the
   language or the id is unknown or the language has no translation of it
   (tests; what a language lacks). */
const char *msg_in(const char *code, const char *id);
/* How many ids there are, and the i-th (0-based, sorted; NULL outside
   0..msg_count()-1). */
int msg_count(void);
const char *msg_id(int i);

/* The catalogue's language a POSIX locale asks for: the first non-empty
   of lc_all, lc_messages, lang (their precedence: LC_ALL, LC_MESSAGES,
   LANG), its language part ("de" of "de_DE.UTF-8@euro"), when the
   catalogue has it; "en" otherwise (also for "C" and "POSIX"). Any
   argument may be NULL. */
const char *msg_locale_language(const char *lc_all, const char *lc_messages, const char *lang);

#endif /* RAYPICK_MSG_H */
