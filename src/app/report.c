/* report.c: --report, --print-layout and --list-lessons JSON for every lesson. */
#include "report.h"

#include <math.h>

#include "lessons.h"
#include "msg.h"

void report_vec3(FILE *out, const vec3 v)
{
    fprintf(out, "[%.6g,%.6g,%.6g]", (double)v[0], (double)v[1], (double)v[2]);
}

static void write_field(FILE *out, const lesson_field *f)
{
    fprintf(out, ",\"%s\":", f->name);
    switch (f->type) {
    case LESSON_FIELD_BOOL:
        fputs(f->value.b ? "true" : "false", out);
        break;
    case LESSON_FIELD_INT:
        fprintf(out, "%d", f->value.i);
        break;
    case LESSON_FIELD_FLOAT:
        fprintf(out, "%.*g", f->digits, (double)f->value.f);
        break;
    case LESSON_FIELD_VEC3:
        fprintf(out, "[%.*g,%.*g,%.*g]", f->digits, (double)f->value.v[0], f->digits,
                (double)f->value.v[1], f->digits, (double)f->value.v[2]);
        break;
    case LESSON_FIELD_INTS:
        fputc('[', out);
        for (int i = 0; i < f->count; ++i)
            fprintf(out, "%s%d", i ? "," : "", f->value.ints[i]);
        fputc(']', out);
        break;
    }
}

void report_pick(FILE *out, const report_click_info *info, const lesson_click *c, const lesson_pick *p)
{
    fprintf(out, "{\"lesson\":%d,\"frame\":%d,\"x\":%g,\"y\":%g,\"px\":%g,\"py\":%g,"
            "\"viewport\":[%g,%g],\"method\":\"%s\",\"ray_method\":\"%s\",\"pick_origin\":",
            info->lesson, info->frame, (double)info->window_x, (double)info->window_y, (double)c->px,
            (double)c->py, (double)c->viewport.width, (double)c->viewport.height, p->method,
            lesson_method_name(c->method));
    report_vec3(out, c->ray.origin);
    if (info->event)
        fprintf(out, ",\"event\":\"%s\"", info->event);
    fprintf(out, ",\"pick_dir\":");
    report_vec3(out, c->ray.dir);
    fprintf(out, ",\"origin\":");
    report_vec3(out, p->ray.origin);
    fprintf(out, ",\"dir\":");
    report_vec3(out, p->ray.dir);
    fprintf(out, ",\"hit\":%s,\"id\":%d,\"what\":\"%s\"", p->hit ? "true" : "false", p->id, p->what);
    if (p->hit) {
        fprintf(out, ",\"t\":%.7g,\"point\":", (double)p->t);
        report_vec3(out, p->point);
    } else {
        fprintf(out, ",\"t\":null,\"point\":null");
    }
    fprintf(out, ",\"us\":%.2f", info->us);
    for (int i = 0; i < p->field_count; ++i)
        write_field(out, &p->fields[i]);
    if (info->gpu) {
        const report_gpu *g = info->gpu;
        fprintf(out, ",\"gpu\":{\"hit\":%s,\"id\":%d,\"depth\":%.9g,\"point\":", g->hit ? "true" : "false",
                g->id, (double)g->depth);
        if (g->hit)
            report_vec3(out, g->point);
        else
            fputs("null", out);
        fprintf(out, ",\"agree\":%s,\"distance\":%.6g,\"read_ms\":%.4f}", g->agree ? "true" : "false",
                (double)g->distance, g->read_ms);
    }
    fprintf(out, "}\n");
    fflush(out);
}

static bool equal_radii(const rp_ellipsoid *e)
{
    return e->radii[0] == e->radii[1] && e->radii[1] == e->radii[2];
}

static const char *kind_name(const lesson_object *o)
{
    switch (o->kind) {
    case LESSON_OBJECT_SPHERE: return "sphere";
    case LESSON_OBJECT_ELLIPSOID: return equal_radii(&o->shape.ellipsoid) ? "sphere" : "ellipsoid";
    case LESSON_OBJECT_TURRET: return "turret";
    case LESSON_OBJECT_MAP: return "map";
    case LESSON_OBJECT_SPIRE: return "spire";
    case LESSON_OBJECT_POINT: return "point";
    }
    return "unknown";
}

/* The point a learner would click to pick the object: its centre (the
   spire's top); false for an object without one (the map). */
static bool object_anchor(const lesson_object *o, vec3 out)
{
    switch (o->kind) {
    case LESSON_OBJECT_SPHERE: glm_vec3_copy((float *)o->shape.sphere.center, out); return true;
    case LESSON_OBJECT_ELLIPSOID: glm_vec3_copy((float *)o->shape.ellipsoid.center, out); return true;
    case LESSON_OBJECT_TURRET: glm_vec3_copy((float *)o->shape.turret.center, out); return true;
    case LESSON_OBJECT_POINT: glm_vec3_copy((float *)o->shape.point.center, out); return true;
    case LESSON_OBJECT_SPIRE: glm_vec3_copy((float *)o->shape.spire.center, out); return true;
    case LESSON_OBJECT_MAP: return false;
    }
    return false;
}

bool report_window_position(const render_view *v, int window_w, int window_h, const vec3 p,
                            float *wx, float *wy, bool *on_screen)
{
    if (!v || window_w <= 0 || window_h <= 0 || v->width <= 0 || v->height <= 0)
        return false;
    rp_viewport vp = {0.0f, 0.0f, (float)v->width, (float)v->height};
    vec3 pixel;
    if (!rp_project_point(p, &vp, (vec4 *)v->proj, (vec4 *)v->view, RP_GL, pixel))
        return false;     /* at or behind the camera: no window position */
    /* drawable pixels to window coordinates (they differ on high-DPI
       displays): the inverse of app_window_to_pixels */
    float x = pixel[0] * (float)window_w / (float)v->width;
    float y = pixel[1] * (float)window_h / (float)v->height;
    if (wx)
        *wx = x;
    if (wy)
        *wy = y;
    if (on_screen)
        *on_screen = x >= 0.0f && y >= 0.0f && x < (float)window_w && y < (float)window_h &&
                     pixel[2] >= 0.0f && pixel[2] <= 1.0f;
    return true;
}

/* "window": where the anchor appears, in window coordinates (top-left
   origin, what SDL's mouse events and --click use); "click": the integer
   mouse position whose pixel centre is nearest it; "on_screen": inside the
   window and between the near and far planes. */
static void write_window_position(FILE *out, const lesson_object *o, const render_view *v, int window_w,
                                  int window_h)
{
    vec3 anchor;
    float x, y;
    bool on_screen;
    if (!object_anchor(o, anchor))
        return;
    if (!report_window_position(v, window_w, window_h, anchor, &x, &y, &on_screen)) {
        fprintf(out, ",\"window\":null,\"click\":null,\"on_screen\":false");
        return;
    }
    fprintf(out, ",\"window\":[%.6g,%.6g],\"click\":[%d,%d],\"on_screen\":%s", (double)x, (double)y,
            (int)floorf(x), (int)floorf(y), on_screen ? "true" : "false");
}

static void write_object(FILE *out, const lesson_object *o)
{
    fprintf(out, "{\"id\":%d,\"name\":\"%s\",\"kind\":\"%s\"", o->id, o->name, kind_name(o));
    switch (o->kind) {
    case LESSON_OBJECT_SPHERE:
        fprintf(out, ",\"center\":");
        report_vec3(out, o->shape.sphere.center);
        fprintf(out, ",\"radius\":%.6g", (double)o->shape.sphere.radius);
        break;
    case LESSON_OBJECT_ELLIPSOID: {
        const rp_ellipsoid *e = &o->shape.ellipsoid;
        fprintf(out, ",\"center\":");
        report_vec3(out, e->center);
        fprintf(out, ",\"radius\":%.6g,\"radii\":", (double)e->radii[0]);
        report_vec3(out, e->radii);
        fprintf(out, ",\"orientation\":[%.7g,%.7g,%.7g,%.7g]", (double)e->orientation[0],
                (double)e->orientation[1], (double)e->orientation[2], (double)e->orientation[3]);
        break;
    }
    case LESSON_OBJECT_TURRET:
        fprintf(out, ",\"center\":");
        report_vec3(out, o->shape.turret.center);
        break;
    case LESSON_OBJECT_MAP:
        fprintf(out, ",\"cols\":%d,\"rows\":%d,\"spacing\":%.9g,\"height_scale\":%.9g,\"origin\":",
                o->shape.map.cols, o->shape.map.rows, (double)o->shape.map.spacing,
                (double)o->shape.map.height_scale);
        report_vec3(out, o->shape.map.origin);
        break;
    case LESSON_OBJECT_SPIRE:
        fprintf(out, ",\"center\":");
        report_vec3(out, o->shape.spire.center);
        fprintf(out, ",\"base\":");
        report_vec3(out, o->shape.spire.base);
        break;
    case LESSON_OBJECT_POINT:
        fprintf(out, ",\"center\":");
        report_vec3(out, o->shape.point.center);
        break;
    }
}

static void write_rect(FILE *out, const char *name, const hud_rect *r)
{
    fprintf(out, "\"%s\":[%.6g,%.6g,%.6g,%.6g]", name, (double)r->x, (double)r->y, (double)r->w, (double)r->h);
}

/* the faces opened so far: [{"path":..,"name":..,"index":n}, ...] */
static void write_fonts(FILE *out, const font_set *fonts)
{
    fputs(",\"fonts\":[", out);
    int n = 0;
    for (int i = 0; fonts && i < FONT_MAX_FACES; ++i) {
        const char *path = font_set_face_path(fonts, i);
        if (!path)
            continue;
        fputs(n++ ? ",{\"path\":" : "{\"path\":", out);
        report_string(out, path);
        fputs(",\"name\":", out);
        report_string(out, font_set_face_name(fonts, i));
        fprintf(out, ",\"index\":%d}", font_set_face_index(fonts, i));
    }
    fputc(']', out);
}

/* "hud": the panels the next frame draws, in drawable pixels, and its text */
static void write_hud(FILE *out, const report_hud *hud)
{
    const hud_layout *h = &hud->layout;
    fprintf(out, ",\"hud\":{\"scale\":%.6g,\"title_scale\":%.6g,\"show_status\":%s,\"full_pick\":%s,"
            "\"full_help\":%s,", (double)h->scale, (double)h->title_scale, h->show_status ? "true" : "false",
            h->full_pick ? "true" : "false", h->full_help ? "true" : "false");
    write_rect(out, "top", &h->top);
    fputc(',', out);
    write_rect(out, "bottom", &h->bottom);
    fprintf(out, ",\"text_x\":%.6g,\"title_y\":%.6g,\"title\":", (double)h->text_x, (double)h->title_y);
    report_string(out, hud->title);
    fputs(",\"language\":", out);
    report_string(out, hud->language);
    write_fonts(out, hud->fonts);
    fputc('}', out);
}

void report_screenshot(FILE *out, const char *path, int frame, int width, int height, const hud_layout *hud)
{
    fprintf(out, "{\"screenshot\":{\"frame\":%d,\"width\":%d,\"height\":%d,\"path\":", frame, width, height);
    report_string(out, path);
    if (hud) {
        fputs(",\"hud\":{", out);
        write_rect(out, "top", &hud->top);
        fputc(',', out);
        write_rect(out, "bottom", &hud->bottom);
        fputc('}', out);
    }
    fprintf(out, "}}\n");
}

void report_layout(FILE *out, int lesson, const render_view *v, int window_w, int window_h, const report_hud *hud,
                   const lesson_object *objects, int count)
{
    const lessons_entry *e = lessons_get(lesson);
    fprintf(out, "{\"lesson\":%d,\"name\":", lesson);
    report_string(out, e ? e->name : NULL);
    fprintf(out, ",\"width\":%d,\"height\":%d,\"window_width\":%d,\"window_height\":%d,\"eye\":",
            v->width, v->height, window_w, window_h);
    report_vec3(out, v->eye);
    fprintf(out, ",\"view\":[");
    for (int i = 0; i < 16; ++i)
        fprintf(out, "%s%.9g", i ? "," : "", (double)v->view[i / 4][i % 4]);
    fprintf(out, "],\"proj\":[");
    for (int i = 0; i < 16; ++i)
        fprintf(out, "%s%.9g", i ? "," : "", (double)v->proj[i / 4][i % 4]);
    fprintf(out, "],\"objects\":[");
    for (int i = 0; i < count; ++i) {
        if (i)
            fputc(',', out);
        write_object(out, &objects[i]);
        write_window_position(out, &objects[i], v, window_w, window_h);
        fputc('}', out);
    }
    fputc(']', out);
    if (hud)
        write_hud(out, hud);
    fprintf(out, "}\n");
}

void report_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *c = (const unsigned char *)s; *c; ++c) {
        if (*c == '"' || *c == '\\')
            fprintf(out, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(out, "\\u%04x", *c);
        else
            fputc(*c, out);     /* UTF-8 passes through */
    }
    fputc('"', out);
}

/* one lesson of --list-lessons */
static void write_lesson(FILE *out, const lessons_entry *e)
{
    char notes[256];
    fprintf(out, "{\"number\":%d,\"name\":", e->number);
    report_string(out, e->name);
    fputs(",\"title\":", out);
    report_string(out, lessons_title(e));
    fputs(",\"title_key\":", out);
    report_string(out, e->title_key);
    fprintf(out, ",\"pick_ids\":%s,\"files\":[", e->pick_ids ? "true" : "false");
    for (int i = 0; i < LESSONS_MAX_FILES && e->files[i]; ++i) {
        if (i)
            fputc(',', out);
        report_string(out, e->files[i]);
    }
    fputs("],\"object\":", out);
    report_string(out, e->object);
    fprintf(out, ",\"source\":\"src/lessons/%s.c\",\"unit_test\":\"tests/test_lesson%d.c\",\"notes\":",
            e->object, e->number);
    report_string(out, lessons_notes_path(e, notes, sizeof notes) ? notes : NULL);
    fputc('}', out);
}

void report_lessons(FILE *out)
{
    int count = lessons_count();
    fprintf(out, "{\"count\":%d,\"lessons\":[\n", count);
    for (int n = 1; n <= count; ++n) {
        write_lesson(out, lessons_get(n));
        fputs(n < count ? ",\n" : "\n", out);
    }
    fputs("]}\n", out);
    fflush(out);
}

void report_step(FILE *out, int lesson, int frame, const lesson_code_view *v)
{
    if (!v || !v->step || !v->code)
        return;
    int line = listing_display_line(v->code, v->step->source_line);
    fprintf(out, "{\"step\":{\"lesson\":%d,\"frame\":%d,\"index\":%d,\"count\":%d,\"line\":%d,"
            "\"source_line\":%d,\"listing\":", lesson, frame, v->index, v->count, line, v->step->source_line);
    report_string(out, v->code->path);
    fprintf(out, ",\"tag\":");
    report_string(out, v->step->msg_id);
    fprintf(out, ",\"sentence\":");
    report_string(out, msg(v->step->msg_id));
    char shown[LISTING_LINE_SHOWN_MAX];
    fprintf(out, ",\"code\":");
    report_string(out, listing_line_shown(v->code, line, shown, sizeof shown));
    fprintf(out, ",\"watches\":{");
    for (int i = 0; i < v->step->watch_count; ++i) {
        char value[96];
        report_string(out, v->step->watches[i].name);
        fputc(':', out);
        report_string(out, listing_watch_format(&v->step->watches[i], value, sizeof value));
        if (i + 1 < v->step->watch_count)
            fputc(',', out);
    }
    fprintf(out, "}}}\n");
    fflush(out);
}

void report_panel(FILE *out, int lesson, int frame, const code_panel_layout *panel)
{
    fprintf(out, "{\"panel\":{\"lesson\":%d,\"frame\":%d,\"shown\":%s", lesson, frame, panel ? "true" : "false");
    if (panel) {
        fputc(',', out);
        write_rect(out, "code", &panel->code);
        fputc(',', out);
        write_rect(out, "figure", &panel->figure);
        fputc(',', out);
        write_rect(out, "lit", &panel->lit);
        fprintf(out, ",\"first_line\":%d,\"visible_lines\":%d,\"line_h\":%.2f,\"code_y\":%.1f,\"text_y\":%.1f,"
                "\"scale\":%.4f,\"room_w\":%.1f",
                panel->first_line, panel->visible_lines, (double)panel->line_h, (double)panel->code_y,
                (double)panel->text_y, (double)panel->scale, (double)panel->room_w);
    }
    fprintf(out, "}}\n");
    fflush(out);
}
