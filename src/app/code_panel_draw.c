/* code_panel_draw.c: the code panel (code_panel.h) as 2D figure commands
   (render_list_fig_*: the renderer keeps them in a layer while they stay
   the same), measured with the renderer's HUD text: the listing with its
   line numbers (its comments in the current language: listing_line_shown),
   the current step's line lit, then the step's header, its sentence (the catalogue's, in the current language) and its watched
   variables. */
#include "code_panel_draw.h"

#include <stdio.h>
#include <string.h>

#include "msg.h"

static float measure(const char *line, void *user)
{
    return render_text_width(user, line, 1.0f);
}

static float widest_line(renderer *r, const listing *l)
{
    float w = 0.0f;
    char shown[LISTING_LINE_SHOWN_MAX];
    for (int n = 1; n <= l->line_count; ++n) {
        float lw = render_text_width(r, listing_line_shown(l, n, shown, sizeof shown), 1.0f);
        w = lw > w ? lw : w;
    }
    return w;
}

/* The lines under the code: the header, the sentence wrapped to max_w,
   the watches. Returns how many lines. */
static int below_code(renderer *r, const lesson_code_view *v, float max_w, char *out, size_t size)
{
    char header[160], sentence[512], wrapped[768];
    if (v->step)
        snprintf(header, sizeof header, msg("teach.panel.step"), v->index + 1, v->count,
                 listing_display_line(v->code, v->step->source_line));
    else
        snprintf(header, sizeof header, "%s", msg("teach.panel.no-step"));
    size_t len = (size_t)snprintf(out, size, "%s\n", header);
    int lines = 1;
    if (!v->step || len >= size)
        return len < size ? lines : 0;
    snprintf(sentence, sizeof sentence, "%s", msg(v->step->msg_id));
    int n = code_panel_wrap(sentence, max_w, measure, r, wrapped, sizeof wrapped);
    if (n > 0 && len + strlen(wrapped) + 1 < size) {
        len += (size_t)snprintf(out + len, size - len, "%s\n", wrapped);
        lines += n;
    }
    for (int i = 0; i < v->step->watch_count && len < size; ++i) {
        char value[96];
        const listing_watch *w = &v->step->watches[i];
        len += (size_t)snprintf(out + len, size - len, "  %s = %s\n", w->name,
                                listing_watch_format(w, value, sizeof value));
        ++lines;
    }
    return len < size ? lines : 0;
}

bool code_panel_plan(renderer *r, int width, int height, float hud_scale, const lesson_code_view *v, bool figure,
                     code_panel_frame *out)
{
    if (!v || !v->code || !out)
        return false;
    code_panel_metrics m = {render_text_height(r, "0", 1.0f), render_text_width(r, "0", 1.0f), widest_line(r, v->code)};
    int lit = v->step ? listing_display_line(v->code, v->step->source_line) : 0;
    code_panel_content c = {v->code->line_count, lit, 0, figure};
    code_panel_layout first;
    if (!code_panel_compute(width, height, hud_scale, &m, &c, &first))
        return false;
    /* the text's width at the panel's scale, then the layout with its lines */
    float max_w = (first.clip_right - first.number_x) / first.scale;
    c.text_lines = below_code(r, v, max_w, out->text, sizeof out->text);
    return code_panel_compute(width, height, hud_scale, &m, &c, &out->layout);
}

void code_panel_draw(render_list *list, const code_panel_frame *p, const lesson_code_view *v)
{
    const code_panel_layout *l = &p->layout;
    static const vec4 panel = {0.02f, 0.03f, 0.06f, 1.0f}, lit_band = {0.35f, 0.32f, 0.1f, 1.0f};
    static const vec4 number = {0.5f, 0.55f, 0.65f, 1.0f}, text = {0.85f, 0.88f, 0.92f, 1.0f};
    static const vec4 lit_text = {1.0f, 0.95f, 0.55f, 1.0f}, below = {0.75f, 1.0f, 0.8f, 1.0f};
    render_list_fig_rect(list, l->code.x, l->code.y, l->code.w, l->code.h, panel);
    if (l->lit.h > 0.0f)
        render_list_fig_rect(list, l->lit.x, l->lit.y, l->lit.w, l->lit.h, lit_band);
    int lit = v->step ? listing_display_line(v->code, v->step->source_line) : 0;
    int nd = 1;
    for (int n = v->code->line_count; n >= 10; n /= 10)
        ++nd;
    for (int i = 0; i < l->visible_lines; ++i) {
        int n = l->first_line + i;
        float y = l->code_y + (float)i * l->line_h;
        char num[16], shown[LISTING_LINE_SHOWN_MAX];
        snprintf(num, sizeof num, "%*d", nd, n);
        render_list_fig_text(list, l->number_x, y, l->scale, RENDER_ALIGN_LEFT, 0.0f, number, num);
        render_list_fig_text_clipped(list, l->code_x, y, l->scale, l->clip_right, n == lit ? lit_text : text,
                                     listing_line_shown(v->code, n, shown, sizeof shown));
    }
    render_list_fig_text_clipped(list, l->number_x, l->text_y, l->scale, l->clip_right, below, p->text);
}
