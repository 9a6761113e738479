/* pick_xna.c: an XNA 4.0 picking function ported to raypick.
 *
 * The original (the flow of XNA's triangle-accuracy picking sample):
 *
 *     camera: Matrix.CreatePerspectiveFieldOfView, Matrix.CreateLookAt
 *             (right-handed, depth [0, 1])
 *     CalculateCursorRay(x, y): Viewport.Unproject at depth 0 and 1 (the
 *             mouse's integer position), direction = Normalize(far - near)
 *     for each model: the mesh's BoundingSphere (from the content pipeline,
 *             BoundingSphere.CreateFromPoints) .Transform(bone * world);
 *             ray.Intersects(sphere) == null: skip; otherwise the model is
 *             "inside the bounding sphere"
 *             Matrix.Invert(bone * world); Vector3.Transform(ray.Position,
 *             inverse), Vector3.TransformNormal(ray.Direction, inverse);
 *             every triangle through the sample's RayIntersectsTriangle;
 *             the closest distance wins
 *
 * The port: glm_perspective_rh_zo + glm_lookat (the same floats, RP_D3D),
 * rp_pick_ray_unproject, rp_sphere_transform, rp_intersect_ray_sphere (the
 * float? is "hit.inside ? 0 : hit.t"), rp_ray_transform and
 * rp_intersect_ray_triangle. docs/porting-d3d11-xna.md quotes it; the
 * meson test example-pick-xna runs it. */
#define CGLM_CLIPSPACE_INCLUDE_ALL   /* glm_perspective_rh_zo */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <raypick/raypick.h>

typedef struct xna_model {
    const char *name;
    const float (*vertices)[3];   /* a triangle list, three vertices each */
    size_t triangle_count;
    rp_sphere bounds;             /* ModelMesh.BoundingSphere, model space */
    mat4 world;                   /* bone * world */
} xna_model;

/* ray.Intersects(BoundingSphere) as XNA answers it: null, 0 from inside,
   else the distance (for a unit direction) */
static bool xna_ray_intersects_sphere(const rp_ray *ray, const rp_sphere *s, float *dist)
{
    rp_hit hit;
    if (!rp_intersect_ray_sphere(ray, s, &hit))
        return false;   /* null */
    *dist = hit.inside ? 0.0f : hit.t;
    return true;
}

/* RayIntersectsModel: the closest triangle of one model, or -1. */
static int ray_intersects_model(const rp_ray *ray, const xna_model *model, bool *inside_sphere, float *dist)
{
    rp_sphere world_sphere;   /* BoundingSphere.Transform(bone * world) */
    float sphere_dist;
    *inside_sphere = rp_sphere_transform(&model->bounds, (vec4 *)model->world, &world_sphere) &&
                     xna_ray_intersects_sphere(ray, &world_sphere, &sphere_dist);
    if (!*inside_sphere)
        return -1;
    /* Matrix.Invert(transform); Vector3.Transform / TransformNormal */
    mat4 inverse;
    glm_mat4_inv((vec4 *)model->world, inverse);
    rp_ray local;
    if (!rp_ray_transform(ray, inverse, &local))
        return -1;
    int closest = -1;
    float best = FLT_MAX;
    for (size_t i = 0; i < model->triangle_count; i++) {
        rp_hit hit;
        if (rp_intersect_ray_triangle(&local, model->vertices[3 * i], model->vertices[3 * i + 1],
                                      model->vertices[3 * i + 2], &hit, NULL) &&
            hit.t < best) {
            best = hit.t;   /* in units of the world ray's (unit) direction: the transform keeps t */
            closest = (int)i;
        }
    }
    *dist = best;
    return closest;
}

int main(void)
{
    /* three models: a tetrahedron, a flat triangle pair (a sign) and a
       tall thin pyramid, as triangle lists */
    static const float tetra[12][3] = {
        {0, 1, 0}, {-1, -1, 1}, {1, -1, 1},   {0, 1, 0}, {1, -1, 1}, {0, -1, -1},
        {0, 1, 0}, {0, -1, -1}, {-1, -1, 1},  {-1, -1, 1}, {0, -1, -1}, {1, -1, 1},
    };
    static const float sign[6][3] = {
        {-1, -1, 0}, {1, -1, 0}, {1, 1, 0},   {-1, -1, 0}, {1, 1, 0}, {-1, 1, 0},
    };
    static const float pyramid[12][3] = {
        {0, 3, 0}, {-0.3f, 0, 0.3f}, {0.3f, 0, 0.3f},    {0, 3, 0}, {0.3f, 0, 0.3f}, {0.3f, 0, -0.3f},
        {0, 3, 0}, {0.3f, 0, -0.3f}, {-0.3f, 0, -0.3f},  {0, 3, 0}, {-0.3f, 0, -0.3f}, {-0.3f, 0, 0.3f},
    };
    xna_model models[3] = {
        {"tetrahedron", tetra, 4, {{0, 0, 0}, 0}, GLM_MAT4_IDENTITY_INIT},
        {"sign", sign, 2, {{0, 0, 0}, 0}, GLM_MAT4_IDENTITY_INIT},
        {"pyramid", pyramid, 4, {{0, 0, 0}, 0}, GLM_MAT4_IDENTITY_INIT},
    };
    /* the content pipeline's spheres: BoundingSphere.CreateFromPoints (as
       MonoGame builds it; RP_SPHERE_RITTER for DirectXMath's rule) */
    for (int i = 0; i < 3; i++)
        if (!rp_sphere_from_points_rule(&models[i].vertices[0][0], 3 * models[i].triangle_count, 0,
                                        RP_SPHERE_RITTER_MONOGAME, &models[i].bounds))
            return 1;
    /* Matrix.CreateScale(1.5f) * Matrix.CreateTranslation(-3, 0, 0) is
       cglm's translate * scale: XNA multiplies row vectors */
    glm_translate_make(models[0].world, (vec3){-3, 0, 0});
    glm_scale_uni(models[0].world, 1.5f);
    glm_rotate_make(models[1].world, glm_rad(30.0f), (vec3){0, 1, 0});
    glm_translate_make(models[2].world, (vec3){3, -1, 0});

    /* Matrix.CreatePerspectiveFieldOfView(MathHelper.PiOver4, aspect, 1, 100),
       Matrix.CreateLookAt((0, 2, 10), Vector3.Zero, Vector3.Up) */
    mat4 proj, view;
    glm_perspective_rh_zo(GLM_PI_4f, 800.0f / 600.0f, 1.0f, 100.0f, proj);
    glm_lookat((vec3){0, 2, 10}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    rp_viewport vp = {0, 0, 800, 600};   /* GraphicsDevice.Viewport */

    /* the cursor over each model's centre, at integer pixels as
       Mouse.GetState() gives them; then a position that is inside the
       pyramid's bounding sphere but beside its thin body */
    int status = 0;
    const vec3 aim[4] = {{-3, 0, 0}, {0, 0, 0}, {3, 0.5f, 0}, {3.9f, 0.5f, 0}};
    const int expect[4] = {0, 1, 2, -1};
    for (int c = 0; c < 4; c++) {
        vec3 pixel;
        if (!rp_project_point(aim[c], &vp, proj, view, RP_D3D, pixel))
            return 1;
        int x = (int)pixel[0], y = (int)pixel[1];
        /* CalculateCursorRay: Unproject at depth 0 and 1, Normalize */
        rp_ray ray;
        if (!rp_pick_ray_unproject((float)x, (float)y, &vp, proj, view, RP_D3D, &ray))
            return 1;
        glm_vec3_normalize(ray.dir);
        int picked = -1, triangle = -1;
        float closest = FLT_MAX;
        printf("cursor (%d, %d): inside bounding sphere of", x, y);
        for (int i = 0; i < 3; i++) {
            bool in_sphere;
            float dist;
            int t = ray_intersects_model(&ray, &models[i], &in_sphere, &dist);
            if (in_sphere)
                printf(" %s", models[i].name);
            if (t >= 0 && dist < closest)
                closest = dist, picked = i, triangle = t;
        }
        printf("; picked %s", picked >= 0 ? models[picked].name : "nothing");
        if (picked >= 0)
            printf(" (triangle %d, distance %.3f)", triangle, closest);
        printf("\n");
        status |= picked != expect[c];
    }
    return status;
}
