/* program.c: the renderer's GLSL programs: built from the embedded shaders
   (shaders.h) with the platform's #version line, their uniforms looked up
   once when linked. */
#include "render_internal.h"

#include <stdio.h>

#include "gl_program.h"
#include "shaders.h"

static const char *const UNIFORM_NAMES[U_COUNT] = {
    "u_beam",
    "u_bottom",
    "u_box",
    "u_color",
    "u_emissive",
    "u_eye",
    "u_fog_color",
    "u_ground",
    "u_ground_y",
    "u_height_range",
    "u_impact_count",
    "u_impacts",
    "u_inv_view_proj",
    "u_lifetime",
    "u_light_dir",
    "u_model",
    "u_normal_matrix",
    "u_quads",
    "u_ray_base",
    "u_ray_dx",
    "u_ray_dy",
    "u_ripple_speed",
    "u_round_points",
    "u_screen",
    "u_time",
    "u_top",
    "u_view_proj",
};

GLuint render_link_program_defined(const char *defines, const char *vs, const char *fs, const char *name, char *err,
                                   size_t err_size)
{
    const char *const vs_parts[3] = {gl_platform_shader_header(), defines, gl_platform_shader_body(vs)};
    const char *const fs_parts[3] = {gl_platform_shader_header(), defines, gl_platform_shader_body(fs)};
    return gl_program_link(vs_parts, fs_parts, 3, name, err, err_size);
}

GLuint render_link_program(const char *vs, const char *fs, const char *name, char *err, size_t err_size)
{
    return render_link_program_defined("", vs, fs, name, err, err_size);
}

bool render_program_build(render_program *out, const char *defines, const char *vs, const char *fs, const char *name,
                          char *err, size_t err_size)
{
    out->id = render_link_program_defined(defines, vs, fs, name, err, err_size);
    if (!out->id)
        return false;
    for (int i = 0; i < U_COUNT; ++i)
        out->loc[i] = glGetUniformLocation(out->id, UNIFORM_NAMES[i]);
    return true;
}

/* Programs that only some lessons draw with (lesson 2's shields, instanced
   copies and their impostors) are built when first used: a start that
   never draws them (lesson 4 with a large map) does not hold them, about
   1.4 MB each under llvmpipe (issue 16). One that does not build is
   reported on stderr once, and what it would draw is skipped. */
bool render_program_ready(render_program *p, const char *defines, const char *vs, const char *fs, const char *name)
{
    if (p->id)
        return true;
    if (p->failed)
        return false;
    char err[1100];
    if (render_program_build(p, defines, vs, fs, name, err, sizeof err))
        return true;
    p->failed = true;
    fprintf(stderr, "raypick: %s (not drawn)\n", err);
    return false;
}

bool render_programs_build(renderer *r, char *err, size_t err_size)
{
    /* the shields' and the instanced copies' programs come when first
       drawn (render_program_ready) */
    return render_program_build(&r->text_prog, "", shader_text_vert, shader_text_frag, "text", err, err_size) &&
           render_program_build(&r->bg_prog, "", shader_background_vert, shader_background_frag, "background", err,
                                err_size) &&
           render_program_build(&r->flat_prog, "", shader_flat_vert, shader_flat_frag, "flat", err, err_size) &&
           render_program_build(&r->lit_prog, "", shader_lit_vert, shader_lit_frag, "lit", err, err_size) &&
           render_program_build(&r->line_prog, "", shader_line_vert, shader_line_frag, "line", err, err_size) &&
           render_program_build(&r->terrain_prog, "", shader_terrain_vert, shader_terrain_frag, "terrain", err,
                                err_size);
}

void render_programs_free(renderer *r)
{
    render_program *all[] = {&r->bg_prog,   &r->flat_prog,    &r->lit_prog,      &r->line_prog,
                             &r->shield_prog, &r->terrain_prog, &r->text_prog,     &r->inst_prog,
                             &r->impostor_prog, &r->impostor_point_prog, &r->figure_prog,
                             &r->figure_layer_prog, &r->glass_prog};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        glDeleteProgram(all[i]->id);
}
