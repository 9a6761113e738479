/* msg.c: the message catalogue (msg.h) over the tables po/po2c.py makes. */
#include "msg.h"

#include <stddef.h>
#include <string.h>

#include "msg_tables.h"

/* the language msg() answers in: an index into msg_table_languages (the
   one piece of global state, as a C locale is) */
static int current_language;

static int find_language(const char *code)
{
    if (!code)
        return -1;
    for (int i = 0; i < msg_table_language_count; ++i)
        if (strcmp(msg_table_languages[i].code, code) == 0)
            return i;
    return -1;
}

/* binary search in the sorted ids; -1 when absent */
static int find_id(const char *id)
{
    int lo = 0, hi = msg_table_count - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int c = strcmp(msg_table_ids[mid], id);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

const char *msg(const char *id)
{
    if (!id)
        return NULL;
    int i = find_id(id);
    if (i < 0)
        return id;
    const char *text = msg_table_languages[current_language].texts[i];
    return text && text[0] ? text : msg_table_languages[0].texts[i];
}

bool msg_exists(const char *id)
{
    return id && find_id(id) >= 0;
}

bool msg_set_language(const char *code)
{
    int i = find_language(code);
    if (i < 0)
        return false;
    current_language = i;
    return true;
}

const char *msg_language(void)
{
    return msg_table_languages[current_language].code;
}

const char *const *msg_languages(void)
{
    return msg_table_codes;
}

bool msg_has_language(const char *code)
{
    return find_language(code) >= 0;
}

const char *msg_in(const char *code, const char *id)
{
    int l = find_language(code), i = id ? find_id(id) : -1;
    return l >= 0 && i >= 0 ? msg_table_languages[l].texts[i] : NULL;
}

int msg_count(void)
{
    return msg_table_count;
}

const char *msg_id(int i)
{
    return i >= 0 && i < msg_table_count ? msg_table_ids[i] : NULL;
}

const char *msg_locale_language(const char *lc_all, const char *lc_messages, const char *lang)
{
    const char *value = lc_all && lc_all[0] ? lc_all : lc_messages && lc_messages[0] ? lc_messages : lang;
    if (!value)
        return "en";
    /* the language part: letters up to '_', '.', '@' or '-' ("de_DE.UTF-8") */
    char code[8];
    size_t n = 0;
    for (; value[n] && n < sizeof code - 1; ++n) {
        char c = value[n];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c < 'a' || c > 'z')
            break;
        code[n] = c;
    }
    code[n] = '\0';
    bool whole = value[n] == '\0' || value[n] == '_' || value[n] == '.' || value[n] == '@' || value[n] == '-';
    int i = whole ? find_language(code) : -1;
    return i >= 0 ? msg_table_languages[i].code : "en";
}
