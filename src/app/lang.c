/* lang.c: the language and its fonts (lang.h). */
#include "lang.h"

#include <stdio.h>
#include <string.h>

#include "msg.h"

const char *app_lang_choose(const char *option, const char *lc_all, const char *lc_messages, const char *lang)
{
    if (option && msg_has_language(option)) {
        for (const char *const *code = msg_languages(); *code; ++code)
            if (!strcmp(*code, option))
                return *code;
    }
    return msg_locale_language(lc_all, lc_messages, lang);
}

/* the missing code point c (U+XXXX) of text id into why */
static void say_missing(uint32_t c, const char *id, char *why, size_t size)
{
    if (why && size)
        snprintf(why, size, "U+%04X in %s", (unsigned)c, id);
}

bool app_lang_fonts_cover(font_set *fonts, const char *code, char *why, size_t why_size)
{
    if (why && why_size)
        why[0] = '\0';
    if (!msg_has_language(code))
        return false;
    for (int i = 0; i < msg_count(); ++i) {
        const char *id = msg_id(i), *text = msg_in(code, id);
        if (!text)
            text = msg_in("en", id);    /* what msg() shows instead */
        if (fonts) {
            uint32_t c = font_set_missing(fonts, text);
            if (c) {
                say_missing(c, id, why, why_size);
                return false;
            }
            continue;
        }
        for (const char *p = text; *p;) {   /* the built-in font: ASCII */
            uint32_t c = font_utf8_next(&p);
            if (c != '\n' && (c < 32 || c > 126)) {
                say_missing(c, id, why, why_size);
                return false;
            }
        }
    }
    return true;
}

font_set *app_lang_fonts(const char *font_paths, char *warn, size_t warn_size)
{
    if (warn && warn_size)
        warn[0] = '\0';
    char err[600] = "";
    font_set *fonts = font_set_open(font_paths, err, sizeof err);
    const char *code = msg_language();
    char why[96];
    if (app_lang_fonts_cover(fonts, code, why, sizeof why)) {
        if (!fonts && font_paths && warn && warn_size)     /* asked for, not found: say so */
            snprintf(warn, warn_size, "%s: %s; the HUD uses its built-in ASCII font", FONT_PATH_ENV, err);
        return fonts;
    }
    if (warn && warn_size) {
        const char *name = msg_in(code, "language.name");
        if (fonts)
            snprintf(warn, warn_size, "the fonts found lack characters of %s (%s): %s; showing English", name,
                     why, font_install_hint(code));
        else
            snprintf(warn, warn_size, "%s needs a font (%s): %s; showing English", name, err,
                     font_install_hint(code));
    }
    msg_set_language("en");
    return fonts;
}
