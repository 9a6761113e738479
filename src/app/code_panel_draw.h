/* code_panel_draw.h: the code panel (code_panel.h's layout) with its text,
   measured and drawn with the renderer's HUD text (render.h). */
#ifndef RAYPICK_APP_CODE_PANEL_DRAW_H
#define RAYPICK_APP_CODE_PANEL_DRAW_H

#include <stdbool.h>

#include "code_panel.h"
#include "lesson.h"
#include "render.h"

/* A frame's panel: where everything goes and the text under the code. */
typedef struct code_panel_frame {
    code_panel_layout layout;
    char text[1536];        /* the step's header, sentence and watches, one a line */
} code_panel_frame;

/* Lays out v's panel (and room for the inset when figure) in a drawable
   of width x height with the HUD's scale; false when there is no room or
   nothing to show. */
bool code_panel_plan(renderer *r, int width, int height, float hud_scale, const lesson_code_view *v, bool figure,
                     code_panel_frame *out);
/* Appends the panel to the frame's list as figure commands. */
void code_panel_draw(render_list *list, const code_panel_frame *p, const lesson_code_view *v);

#endif /* RAYPICK_APP_CODE_PANEL_DRAW_H */
