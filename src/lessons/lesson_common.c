/* lesson_common.c: small helpers every lesson uses, and drawing helpers
   any lesson may (boxes, labels in the scene). */
#include "lesson.h"

#include <stdio.h>
#include <string.h>

#include "msg.h"

const char *lesson_method_name(lesson_method m)
{
    return m == LESSON_PICK_D3D9 ? "d3d9" : "unproject";
}

const char *lesson_display_name(const char *prefix, const char *name, char *buf, size_t size)
{
    if (!buf || size == 0)
        return buf;
    buf[0] = '\0';
    if (!prefix || !name)
        return buf;
    /* "face 12": the word, then the number kept as it is */
    size_t len = strlen(name), word = len;
    while (word > 0 && name[word - 1] >= '0' && name[word - 1] <= '9')
        --word;
    if (word == len || word < 2 || name[word - 1] != ' ')
        word = len;
    else
        --word;
    /* the id: prefix, '.', the word's letters and digits, any run of
       other characters one '-' ("sphere (false positive)" ->
       name.sphere-false-positive) */
    char id[96];
    int n = snprintf(id, sizeof id, "%s.", prefix);
    for (size_t i = 0; i < word && n > 0 && (size_t)n + 2 < sizeof id; ++i) {
        char c = name[i];
        bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (keep)
            id[n++] = c;
        else if (id[n - 1] != '-' && id[n - 1] != '.')
            id[n++] = '-';
    }
    while (n > 0 && id[n - 1] == '-')
        --n;
    id[n > 0 ? n : 0] = '\0';
    if (n <= 0 || !msg_exists(id))
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "%s%s", msg(id), name + word);
    return buf;
}

void lesson_progress(const lesson_env *env, const char *what)
{
    if (env && env->progress)
        env->progress(env->progress_user, what);
}

void lesson_pick_miss(lesson_pick *out, const rp_ray *ray, const char *method)
{
    memset(out, 0, sizeof *out);
    out->hit = false;
    out->id = -1;
    snprintf(out->what, sizeof out->what, "miss");
    out->ray = *ray;
    snprintf(out->method, sizeof out->method, "%s", method);
}

/* the next free field, NULL when the pick has no room left */
static lesson_field *add_field(lesson_pick *out, const char *name, lesson_field_type type)
{
    if (out->field_count >= LESSON_PICK_FIELDS)
        return NULL;
    lesson_field *f = &out->fields[out->field_count++];
    memset(f, 0, sizeof *f);
    f->name = name;
    f->type = type;
    return f;
}

void lesson_pick_bool(lesson_pick *out, const char *name, bool value)
{
    lesson_field *f = add_field(out, name, LESSON_FIELD_BOOL);
    if (f)
        f->value.b = value;
}

void lesson_pick_int(lesson_pick *out, const char *name, int value)
{
    lesson_field *f = add_field(out, name, LESSON_FIELD_INT);
    if (f)
        f->value.i = value;
}

void lesson_pick_float(lesson_pick *out, const char *name, float value, int digits)
{
    lesson_field *f = add_field(out, name, LESSON_FIELD_FLOAT);
    if (!f)
        return;
    f->value.f = value;
    f->digits = digits;
}

void lesson_pick_vec3(lesson_pick *out, const char *name, const vec3 value, int digits)
{
    lesson_field *f = add_field(out, name, LESSON_FIELD_VEC3);
    if (!f)
        return;
    glm_vec3_copy((float *)value, f->value.v);
    f->digits = digits;
}

void lesson_pick_ints(lesson_pick *out, const char *name, const int *values, int count)
{
    lesson_field *f = add_field(out, name, LESSON_FIELD_INTS);
    if (!f)
        return;
    f->count = count < LESSON_FIELD_INTS_MAX ? count : LESSON_FIELD_INTS_MAX;
    for (int i = 0; i < f->count; ++i)
        f->value.ints[i] = values[i];
}

const lesson_field *lesson_pick_field(const lesson_pick *p, const char *name)
{
    for (int i = 0; i < p->field_count; ++i)
        if (strcmp(p->fields[i].name, name) == 0)
            return &p->fields[i];
    return NULL;
}

void lesson_model(const vec3 position, const versor rotation, const vec3 scale, mat4 out)
{
    glm_translate_make(out, (float *)position);
    bool has_rotation = rotation && (rotation[0] != 0.0f || rotation[1] != 0.0f ||
                                     rotation[2] != 0.0f || rotation[3] != 0.0f);
    if (has_rotation)
        glm_quat_rotate(out, (float *)rotation, out);
    if (scale)
        glm_scale(out, (float *)scale);
}

/* ------------------------------------------------------------ drawing */

void lesson_list_box(render_list *list, const rp_obb *box, const vec4 color)
{
    vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const float *q = box->orientation;
    if (q[0] != 0.0f || q[1] != 0.0f || q[2] != 0.0f || q[3] != 0.0f)
        for (int k = 0; k < 3; ++k)
            glm_quat_rotatev((float *)q, axes[k], axes[k]);
    vec3 corner[8];     /* corner c: bit k set = the +half side of axis k */
    for (int c = 0; c < 8; ++c) {
        glm_vec3_copy((float *)box->center, corner[c]);
        for (int k = 0; k < 3; ++k)
            glm_vec3_muladds(axes[k], (c >> k & 1) ? box->half_extents[k] : -box->half_extents[k], corner[c]);
    }
    for (int c = 0; c < 8; ++c)
        for (int k = 0; k < 3; ++k)
            if (!(c >> k & 1))
                render_list_line(list, corner[c], corner[c | 1 << k], color);
}

void lesson_list_label(render_list *list, const vec3 p, const char *text, float px_height, const vec4 color)
{
    /* segments a..g as bits 0..6 */
    static const char glyphs[] = "0123456789ABL";
    static const unsigned char masks[] = {0x3f, 0x06, 0x5b, 0x4f, 0x66, 0x6d, 0x7d, 0x07, 0x7f, 0x6f, 0x77, 0x7c, 0x38};
    /* each segment's ends in a 1 x 2 cell, y up */
    static const float seg[7][4] = {{0, 2, 1, 2}, {1, 2, 1, 1}, {1, 1, 1, 0}, {0, 0, 1, 0},
                                    {0, 0, 0, 1}, {0, 1, 0, 2}, {0, 1, 1, 1}};
    const render_view *v = &list->view;
    float dist = glm_vec3_distance((float *)p, (float *)v->eye);
    if (v->height <= 0 || v->proj[1][1] == 0.0f || dist <= 0.0f)
        return;
    float unit = 2.0f * dist / (v->proj[1][1] * (float)v->height) * px_height * 0.5f;   /* half the height */
    vec3 right = {v->view[0][0], v->view[1][0], v->view[2][0]};
    vec3 up = {v->view[0][1], v->view[1][1], v->view[2][1]};
    vec3 origin;
    /* above and right of the point, clear of its dot */
    glm_vec3_copy((float *)p, origin);
    glm_vec3_muladds(right, unit * 0.8f, origin);
    glm_vec3_muladds(up, unit * 0.8f, origin);
    for (const char *c = text; *c; ++c) {
        const char *g = strchr(glyphs, *c);
        if (g) {
            unsigned mask = masks[g - glyphs];
            for (int k = 0; k < 7; ++k) {
                if (!(mask >> k & 1))
                    continue;
                vec3 a, b;
                glm_vec3_copy(origin, a);
                glm_vec3_muladds(right, seg[k][0] * unit, a);
                glm_vec3_muladds(up, seg[k][1] * unit, a);
                glm_vec3_copy(origin, b);
                glm_vec3_muladds(right, seg[k][2] * unit, b);
                glm_vec3_muladds(up, seg[k][3] * unit, b);
                render_list_line(list, a, b, color);
                /* twice, a pixel apart: bolder than one-pixel lines */
                glm_vec3_muladds(right, unit * 0.12f, a);
                glm_vec3_muladds(right, unit * 0.12f, b);
                render_list_line(list, a, b, color);
            }
        }
        glm_vec3_muladds(right, unit * 1.7f, origin);
    }
}

/* Where p appears in the list's view (pixels, y down); false behind the eye. */
static bool screen_of(const render_list *list, const vec3 p, vec2 out)
{
    vec4 clip;
    glm_mat4_mulv((vec4 *)list->view.view_proj, (vec4){p[0], p[1], p[2], 1.0f}, clip);
    if (clip[3] <= 1e-6f)
        return false;
    out[0] = (clip[0] / clip[3] * 0.5f + 0.5f) * (float)list->view.width;
    out[1] = (0.5f - clip[1] / clip[3] * 0.5f) * (float)list->view.height;
    return true;
}

bool lesson_list_label_spaced(render_list *list, lesson_label_room *room, const vec3 p, const char *text,
                              float px_height, const vec4 color)
{
    vec2 at;
    if (!room || room->count >= LESSON_LABELS_MAX || !screen_of(list, p, at))
        return false;
    for (int i = 0; i < room->count; ++i)
        if (glm_vec2_distance(at, room->at[i]) < 3.0f * px_height)
            return false;
    glm_vec2_copy(at, room->at[room->count++]);
    lesson_list_label(list, p, text, px_height, color);
    return true;
}

/* ------------------------------------------------------------ step mode */

bool lesson_stepper_key(lesson_stepper *s, char key)
{
    switch (key) {
    case 'p':
        s->on = !s->on;
        s->current = 0;
        return true;
    case '.':
        if (s->on && s->current + 1 < s->count)
            ++s->current;
        return s->on;
    case ',':
        if (s->on && s->current > 0)
            --s->current;
        return s->on;
    default:
        return false;
    }
}

void lesson_stepper_restart(lesson_stepper *s, int count)
{
    s->count = count > 0 ? count : 0;
    s->current = 0;
}

bool lesson_stepper_active(const lesson_stepper *s)
{
    return s->on && s->count > 0;
}

const char *lesson_stepper_label(const lesson_stepper *s, char *buf, size_t size)
{
    if (size == 0)
        return buf;
    if (lesson_stepper_active(s))
        snprintf(buf, size, msg("lesson.step.label"), s->current + 1, s->count);
    else
        buf[0] = '\0';
    return buf;
}

/* ------------------------------------------------------------ tours */

bool lesson_tour_point(const lesson *l, const void *self, const lesson_tour_click *c, const vec3 eye, vec3 out)
{
    if (!l || !c)
        return false;
    if (c->aim == LESSON_AIM_WORLD) {
        glm_vec3_copy((float *)c->world, out);
        return true;
    }
    if (c->aim != LESSON_AIM_OBJECT || !l->objects)
        return false;
    enum { CAP = 64 };
    lesson_object o[CAP];
    int n = l->objects(self, eye, o, CAP);
    for (int i = 0; i < n && i < CAP; ++i) {
        if (o[i].id != c->object)
            continue;
        switch (o[i].kind) {
        case LESSON_OBJECT_SPIRE:
            glm_vec3_lerp(o[i].shape.spire.base, o[i].shape.spire.center, c->along, out);
            return true;
        case LESSON_OBJECT_SPHERE: glm_vec3_copy(o[i].shape.sphere.center, out); return true;
        case LESSON_OBJECT_ELLIPSOID: glm_vec3_copy(o[i].shape.ellipsoid.center, out); return true;
        case LESSON_OBJECT_TURRET: glm_vec3_copy(o[i].shape.turret.center, out); return true;
        case LESSON_OBJECT_POINT: glm_vec3_copy(o[i].shape.point.center, out); return true;
        case LESSON_OBJECT_MAP: return false;
        }
    }
    return false;
}

/* lesson_fig_lines' width of a character starting with byte c at scale ts
   (0 for a UTF-8 continuation byte) */
static float fig_char_w(unsigned char c, float ts)
{
    if ((c & 0xC0) == 0x80)
        return 0.0f;
    return (c >= 0xE0 ? 12.0f : 6.0f) * ts;
}

static float fig_width(const char *s, size_t n, float ts)
{
    float w = 0.0f;
    for (size_t i = 0; i < n; ++i)
        w += fig_char_w((unsigned char)s[i], ts);
    return w;
}

void lesson_fig_phrases(const char *text, float max_w, float ts, char *out, size_t size)
{
    if (!out || size == 0)
        return;
    out[0] = '\0';
    if (!text)
        return;
    size_t len = 0;
    float line_w = 0.0f;    /* the width of out's last line */
    for (const char *p = text; *p;) {
        /* the gap before the next phrase: spaces, and a newline among them
           (the text's own line break); then the phrase, up to the next run
           of two spaces or newline */
        size_t gap = strspn(p, " ");
        bool newline = p[gap] == '\n';
        if (newline)
            ++gap;
        const char *phrase = p + gap;
        size_t n = 0;
        while (phrase[n] && phrase[n] != '\n' && !(phrase[n] == ' ' && phrase[n + 1] == ' '))
            ++n;
        bool breaks = newline || (gap >= 2 && len > 0 &&
                                  line_w + fig_width(p, gap, ts) + fig_width(phrase, n, ts) > max_w);
        const char *from = breaks ? phrase : p;
        size_t take = breaks ? n : gap + n;
        if (breaks) {
            if (len + 1 >= size)
                return;
            out[len++] = '\n';
            out[len] = '\0';
            line_w = 0.0f;
        }
        for (size_t k = 0; k < take; ++k) {
            /* whole characters only: a lead byte goes in with room for its sequence */
            unsigned char c = (unsigned char)from[k];
            size_t seq = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            if ((c & 0xC0) != 0x80 && len + seq >= size) {
                out[len] = '\0';
                return;     /* full: cut short here */
            }
            out[len++] = from[k];
            line_w += fig_char_w(c, ts);
        }
        out[len] = '\0';
        p = phrase + n;
    }
}

float lesson_fig_phrase_text(render_list *list, const lesson_figure_area *area, float y, const vec4 color,
                             const char *text)
{
    char phrased[1024];
    lesson_fig_phrases(text, area->w - 12.0f * area->text_scale, area->text_scale, phrased, sizeof phrased);
    return lesson_fig_text(list, area, y, color, phrased);
}

float lesson_fig_width(const char *text, float ts)
{
    return text ? fig_width(text, strlen(text), ts) : 0.0f;
}

int lesson_fig_lines(const char *text, float max_w, float ts)
{
    if (!text)
        return 0;
    float w = 0.0f;
    int lines = 1;
    for (const unsigned char *p = (const unsigned char *)text; *p; ++p) {
        if (*p == '\n') {
            ++lines;
            w = 0.0f;
            continue;
        }
        if ((*p & 0xC0) == 0x80)
            continue;   /* a UTF-8 continuation byte */
        float cw = (*p >= 0xE0 ? 12.0f : 6.0f) * ts;
        w += cw;
        if (w > max_w && w > cw) {
            ++lines;
            w = cw;
        }
    }
    return lines;
}

float lesson_fig_text(render_list *list, const lesson_figure_area *area, float y, const vec4 color, const char *text)
{
    float ts = area->text_scale, max_w = area->w - 12.0f * ts;
    render_list_fig_text(list, area->x + 6.0f * ts, y, ts, RENDER_ALIGN_LEFT, max_w, color, text);
    return y + (float)lesson_fig_lines(text, max_w, ts) * LESSON_FIG_LINE * ts;
}
