/* code_panel.c: the code panel's and the inset's layout (code_panel.h). */
#include "code_panel.h"

#include <math.h>
#include <string.h>

#define COLUMN_SHARE 0.42f
#define COLUMN_MAX_SHARE 0.6f
#define COLUMN_MIN 300.0f
#define FIGURE_SHARE 0.34f
#define MIN_WIDTH 560
#define MIN_HEIGHT 240

static float clampf(float x, float lo, float hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

static bool metrics_ok(const code_panel_metrics *m)
{
    return isfinite(m->line_h) && isfinite(m->digit_w) && isfinite(m->widest_w) && m->line_h > 0.0f &&
           m->digit_w > 0.0f && m->widest_w >= 0.0f;
}

static int digits(int n)
{
    int d = 1;
    while (n >= 10) {
        n /= 10;
        ++d;
    }
    return d;
}

bool code_panel_compute(int width, int height, float hud_scale, const code_panel_metrics *m,
                        const code_panel_content *c, code_panel_layout *out)
{
    if (!m || !c || !out || width < MIN_WIDTH || height < MIN_HEIGHT || !metrics_ok(m) ||
        !(hud_scale >= 1.0f) || !isfinite(hud_scale) || c->line_count < 0 || c->text_lines < 0)
        return false;
    code_panel_layout o;
    memset(&o, 0, sizeof o);
    float w = (float)width, h = (float)height, s = hud_scale;
    float margin = 6.0f * s, pad = 6.0f * s, gap = 4.0f * s;
    float column_w = clampf(COLUMN_SHARE * w, COLUMN_MIN, COLUMN_MAX_SHARE * w);
    float column_x = w - column_w;
    o.room_w = column_x;

    /* the inset under the code */
    float figure_h = c->figure ? FIGURE_SHARE * h : 0.0f;
    if (c->figure)
        o.figure = (hud_rect){column_x, h - margin - figure_h, column_w - margin, figure_h};
    float code_bottom = c->figure ? o.figure.y - gap : h - margin;
    o.code = (hud_rect){column_x, margin, column_w - margin, code_bottom - margin};

    /* the code's scale: the widest line fits beside the numbers, never
       above the HUD's scale or below 1 */
    int nd = digits(c->line_count > 0 ? c->line_count : 1);
    float text_room = o.code.w - 2.0f * pad;
    float per_unit = m->widest_w + (float)(nd + 2) * m->digit_w;
    o.scale = per_unit > 0.0f ? clampf(text_room / per_unit, 1.0f, s) : s;
    o.line_h = m->line_h * o.scale;
    o.number_x = o.code.x + pad;
    o.code_x = o.number_x + (float)(nd + 2) * m->digit_w * o.scale;
    o.clip_right = o.code.x + o.code.w - pad;
    o.code_y = o.code.y + pad;

    /* the lines below the code, then as many code lines as fit above them */
    float text_h = (float)c->text_lines * o.line_h;
    float code_room = o.code.h - 2.0f * pad - text_h - gap;
    int fit = code_room > 0.0f ? (int)floorf(code_room / o.line_h) : 0;
    o.visible_lines = fit < c->line_count ? fit : c->line_count;
    if (o.visible_lines < 1 && c->line_count > 0)
        o.visible_lines = 0;    /* no room for code: only the text below */
    o.first_line = 1;
    if (c->lit_line >= 1 && c->lit_line <= c->line_count && o.visible_lines > 0) {
        int first = c->lit_line - o.visible_lines / 2;
        int last_first = c->line_count - o.visible_lines + 1;
        o.first_line = first < 1 ? 1 : first > last_first ? last_first : first;
        o.lit = (hud_rect){o.code.x + 2.0f, o.code_y + (float)(c->lit_line - o.first_line) * o.line_h - 1.0f,
                           o.code.w - 4.0f, o.line_h};
    }
    o.text_y = o.code_y + (float)o.visible_lines * o.line_h + gap;
    *out = o;
    return true;
}

int code_panel_line_at(const code_panel_layout *l, float y)
{
    if (!l || l->line_h <= 0.0f || y < l->code_y)
        return 0;
    int row = (int)floorf((y - l->code_y) / l->line_h);
    return row < l->visible_lines ? l->first_line + row : 0;
}

/* Appends n bytes to out (used *len); false when it does not fit. */
static bool append(char *out, size_t size, size_t *len, const char *s, size_t n)
{
    if (*len + n + 1 > size)
        return false;
    memcpy(out + *len, s, n);
    *len += n;
    out[*len] = '\0';
    return true;
}

/* Bytes of the UTF-8 character at p (1 for a stray byte). */
static size_t char_len(const char *p)
{
    unsigned char c = (unsigned char)*p;
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    for (size_t i = 1; i < n; ++i)
        if (((unsigned char)p[i] & 0xC0) != 0x80)
            return i;
    return n;
}

/* A character of three or four bytes: CJK (and other scripts without
   spaces), where a line may break before and after each character. */
static bool breaks_around(const char *p)
{
    return (unsigned char)*p >= 0xE0;
}

/* CJK punctuation that must not start a line: 、。，：；！？）」 */
static bool closing_punctuation(const char *p)
{
    static const char *const marks[] = {"\xe3\x80\x81", "\xe3\x80\x82", "\xef\xbc\x8c", "\xef\xbc\x9a",
                                        "\xef\xbc\x9b", "\xef\xbc\x81", "\xef\xbc\x9f", "\xef\xbc\x89",
                                        "\xe3\x80\x8d"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; ++i)
        if (strncmp(p, marks[i], 3) == 0)
            return true;
    return false;
}

/* The next unit the wrap keeps whole: a run of characters up to a space,
   a line break or a CJK character, or one CJK character with the closing
   punctuation after it. */
static size_t word_len(const char *word)
{
    size_t n = 0;
    if (*word && breaks_around(word)) {
        n = char_len(word);
        while (word[n] && closing_punctuation(word + n))
            n += char_len(word + n);
        return n;
    }
    while (word[n] && word[n] != ' ' && word[n] != '\n' && !breaks_around(word + n))
        n += char_len(word + n);
    return n;
}

int code_panel_wrap(const char *text, float max_w, code_panel_measure_fn measure, void *user, char *out,
                    size_t out_size)
{
    if (!out || out_size == 0)
        return 0;
    out[0] = '\0';
    if (!text || !measure)
        return 0;
    size_t len = 0, line_start = 0;
    int lines = 1;
    const char *p = text;
    while (*p) {
        if (*p == '\n') {
            if (!append(out, out_size, &len, "\n", 1))
                goto full;
            line_start = len;
            ++lines;
            ++p;
            continue;
        }
        size_t spaces = strspn(p, " ");
        const char *word = p + spaces;
        size_t n = word_len(word);
        size_t before = len;
        bool first = len == line_start;
        if (!append(out, out_size, &len, p, first ? 0 : spaces) || !append(out, out_size, &len, word, n))
            goto full;
        if (!first && measure(out + line_start, user) > max_w) {
            /* the word goes to a new line */
            len = before;
            out[len] = '\0';
            if (!append(out, out_size, &len, "\n", 1) || !append(out, out_size, &len, word, n))
                goto full;
            line_start = before + 1;
            ++lines;
        }
        p = word + n;
    }
    return lines;
full:
    out[0] = '\0';
    return 0;
}
