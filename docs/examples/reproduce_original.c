/* reproduce_original.c: what it takes to reproduce a D3D or XNA picking
 * program's answers exactly, measured. docs/porting-d3d11-xna.md
 * ("Reproducing the original exactly") quotes its output; the meson test
 * example-reproduce-original runs it and checks the figures stay in the
 * ranges the guide states.
 *
 *   1. integer vs pixel-centre coordinates: the original passes the
 *      mouse's integer position, the guide's GL code adds 0.5. How many
 *      clicks pick another triangle?
 *   2. bounding-sphere rules: the smallest sphere (rp_sphere_from_points)
 *      against D3DX's centroid sphere and DirectXMath's / MonoGame's
 *      Ritter spheres: at how many cursor positions does "inside the
 *      bounding sphere" change?
 *   3. float vs double: the original's Moller-Trumbore test in float
 *      (TriangleTests::Intersects, the XNA sample's RayIntersectsTriangle)
 *      looped over every triangle, against rp_intersect_ray_mesh
 *      (watertight, double where it matters): how many clicks differ, and
 *      how many of those slip through a shared edge?
 *   4. Ritter in float (the original's arithmetic) against
 *      rp_sphere_from_points_rule in double: how far apart are the spheres?
 *
 * Every input is generated here from fixed seeds: the figures are the
 * same on every IEEE-754 machine whose libm rounds sin and cos alike. */
#define CGLM_CLIPSPACE_INCLUDE_ALL
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <raypick/raypick.h>

enum { VIEW_W = 640, VIEW_H = 480 };

/* ---- meshes ------------------------------------------------------------- */

typedef struct tri_mesh {
    float (*v)[3];
    uint32_t *idx;
    size_t vertex_count, triangle_count;
} tri_mesh;

static bool mesh_alloc(tri_mesh *m, size_t vertices, size_t triangles)
{
    m->v = malloc(vertices * sizeof *m->v);
    m->idx = malloc(3 * triangles * sizeof *m->idx);
    m->vertex_count = vertices, m->triangle_count = triangles;
    return m->v && m->idx;
}

static void mesh_free(tri_mesh *m)
{
    free(m->v);
    free(m->idx);
}

/* a latitude-longitude sphere: shared edges everywhere */
static bool uv_sphere(tri_mesh *m, int slices, int stacks, float radius)
{
    if (!mesh_alloc(m, (size_t)(slices + 1) * (stacks + 1), (size_t)2 * slices * stacks))
        return false;
    size_t k = 0, t = 0;
    for (int j = 0; j <= stacks; j++)
        for (int i = 0; i <= slices; i++, k++) {
            double th = GLM_PI * j / stacks, ph = 2 * GLM_PI * i / slices;
            m->v[k][0] = (float)(radius * sin(th) * cos(ph));
            m->v[k][1] = (float)(radius * cos(th));
            m->v[k][2] = (float)(radius * sin(th) * sin(ph));
        }
    for (int j = 0; j < stacks; j++)
        for (int i = 0; i < slices; i++) {
            uint32_t a = (uint32_t)(j * (slices + 1) + i), b = a + 1, c = a + (uint32_t)slices + 1, d = c + 1;
            uint32_t *q = &m->idx[3 * t];
            q[0] = a, q[1] = c, q[2] = b, q[3] = b, q[4] = c, q[5] = d;
            t += 2;
        }
    return true;
}

/* a flat grid of n x n unit squares at integer coordinates (y = 0) */
static bool grid(tri_mesh *m, int n)
{
    if (!mesh_alloc(m, (size_t)(n + 1) * (n + 1), (size_t)2 * n * n))
        return false;
    for (int j = 0, k = 0; j <= n; j++)
        for (int i = 0; i <= n; i++, k++)
            m->v[k][0] = (float)(i - n / 2), m->v[k][1] = 0.0f, m->v[k][2] = (float)(j - n / 2);
    for (int j = 0, t = 0; j < n; j++)
        for (int i = 0; i < n; i++, t += 2) {
            uint32_t a = (uint32_t)(j * (n + 1) + i), b = a + 1, c = a + (uint32_t)n + 1, d = c + 1;
            uint32_t *q = &m->idx[3 * t];
            q[0] = a, q[1] = c, q[2] = b, q[3] = b, q[4] = c, q[5] = d;
        }
    return true;
}

/* a box of 4 x 1.5 x 2 whose front half is finely tessellated and back
   half coarse: the vertices crowd at one end, as in a model with a
   detailed front (the centroid rule's worst case) */
static bool lopsided_box(tri_mesh *m)
{
    const int fine = 24;
    if (!mesh_alloc(m, (size_t)(fine + 1) * 4 + 4, (size_t)fine * 8 + 12))
        return false;
    size_t k = 0;
    for (int i = 0; i <= fine; i++) {   /* rings of four vertices from x = 0 to x = 2 */
        float x = 2.0f * (float)i / fine;
        const float ring[4][2] = {{-0.75f, -1}, {0.75f, -1}, {0.75f, 1}, {-0.75f, 1}};
        for (int r = 0; r < 4; r++, k++)
            m->v[k][0] = x, m->v[k][1] = ring[r][0], m->v[k][2] = ring[r][1];
    }
    const float back[4][3] = {{-2, -0.75f, -1}, {-2, 0.75f, -1}, {-2, 0.75f, 1}, {-2, -0.75f, 1}};
    memcpy(m->v[k], back, sizeof back);
    size_t t = 0;
    for (int i = 0; i < fine; i++)
        for (int r = 0; r < 4; r++, t += 2) {
            uint32_t a = (uint32_t)(4 * i + r), b = (uint32_t)(4 * i + (r + 1) % 4), c = a + 4, d = b + 4;
            uint32_t *q = &m->idx[3 * t];
            q[0] = a, q[1] = b, q[2] = d, q[3] = a, q[4] = d, q[5] = c;
        }
    /* the coarse back half: x = 0 ring to the x = -2 ring, and both caps */
    uint32_t back0 = (uint32_t)k;
    for (int r = 0; r < 4; r++, t += 2) {
        uint32_t a = (uint32_t)r, b = (uint32_t)((r + 1) % 4), c = back0 + (uint32_t)r, d = back0 + (uint32_t)((r + 1) % 4);
        uint32_t *q = &m->idx[3 * t];
        q[0] = a, q[1] = c, q[2] = d, q[3] = a, q[4] = d, q[5] = b;
    }
    const uint32_t caps[12] = {back0, back0 + 1, back0 + 2, back0, back0 + 2, back0 + 3,
                               4 * (uint32_t)fine, 4 * (uint32_t)fine + 1, 4 * (uint32_t)fine + 2,
                               4 * (uint32_t)fine, 4 * (uint32_t)fine + 2, 4 * (uint32_t)fine + 3};
    memcpy(&m->idx[3 * t], caps, sizeof caps);
    return true;
}

/* ---- 1. integer vs pixel-centre ---------------------------------------- */

static void camera(mat4 proj, mat4 view, const vec3 eye)
{
    glm_perspective_rh_zo(glm_rad(45.0f), (float)VIEW_W / VIEW_H, 0.5f, 100.0f, proj);
    glm_lookat((float *)eye, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
}

/* the triangle under (x, y), or -1 */
static long pick(const rp_mesh *m, float x, float y, mat4 proj, mat4 view)
{
    rp_viewport vp = {0, 0, VIEW_W, VIEW_H};
    rp_ray ray;
    rp_triangle_hit tri;
    if (!rp_pick_ray_unproject(x, y, &vp, proj, view, RP_D3D, &ray) ||
        !rp_intersect_ray_mesh(m, &ray, NULL, &tri))
        return -1;
    return (long)tri.triangle;
}

static double measure_pixel_centre(const char *name, const tri_mesh *tm, const vec3 eye)
{
    rp_mesh *m = rp_mesh_create(&tm->v[0][0], tm->vertex_count, 0, tm->idx, tm->triangle_count);
    if (!m)
        return -1.0;
    mat4 proj, view;
    camera(proj, view, eye);
    long hits = 0, differ = 0;
    for (int y = 0; y < VIEW_H; y++)
        for (int x = 0; x < VIEW_W; x++) {
            long a = pick(m, (float)x, (float)y, proj, view), b = pick(m, x + 0.5f, y + 0.5f, proj, view);
            hits += a >= 0 || b >= 0;
            differ += a != b;
        }
    rp_mesh_destroy(m);
    double share = hits ? (double)differ / hits : 0.0;
    printf("  %-32s %6zu triangles: %6ld of %6ld clicks (%.2f%%) pick another triangle or nothing\n", name,
           tm->triangle_count, differ, hits, 100.0 * share);
    return share;
}

/* ---- 2. bounding-sphere rules -------------------------------------------- */

static double measure_sphere_rules(const char *name, const tri_mesh *tm, const vec3 eye)
{
    static const char *const rule_names[4] = {"smallest", "centroid (D3DX)", "Ritter (DirectXMath)",
                                              "Ritter (MonoGame)"};
    rp_sphere s[4];
    for (int r = 0; r < 4; r++)
        if (!rp_sphere_from_points_rule(&tm->v[0][0], tm->vertex_count, 0, (rp_sphere_rule)r, &s[r]))
            return -1.0;
    mat4 proj, view;
    camera(proj, view, eye);
    rp_viewport vp = {0, 0, VIEW_W, VIEW_H};
    long inside[4] = {0, 0, 0, 0}, differ[4] = {0, 0, 0, 0};
    for (int y = 0; y < VIEW_H; y++)
        for (int x = 0; x < VIEW_W; x++) {
            rp_ray ray;
            if (!rp_pick_ray_unproject((float)x, (float)y, &vp, proj, view, RP_D3D, &ray))
                continue;
            bool in[4];
            for (int r = 0; r < 4; r++) {
                in[r] = rp_test_ray_sphere(&ray, &s[r]);
                inside[r] += in[r];
                differ[r] += in[r] != in[0];
            }
        }
    printf("  %s (%zu vertices):\n", name, tm->vertex_count);
    double worst = 0.0;
    for (int r = 0; r < 4; r++) {
        double share = inside[0] ? (double)differ[r] / inside[0] : 0.0;
        worst = share > worst ? share : worst;
        printf("    %-22s radius %.4f: inside at %6ld cursor positions", rule_names[r], (double)s[r].radius, inside[r]);
        if (r > 0)
            printf(", %6ld (%.1f%% of the smallest's) differ", differ[r], 100.0 * share);
        printf("\n");
    }
    return worst;
}

/* ---- 3. float vs double ------------------------------------------------ */

/* The original's triangle test in float: Moller-Trumbore, both sides,
   det within 1e-20 of 0 is parallel (TriangleTests::Intersects). */
static bool float_ray_triangle(const float o[3], const float d[3], const float v0[3], const float v1[3],
                               const float v2[3], float *t_out)
{
    float e1[3], e2[3], p[3], s[3], q[3];
    for (int k = 0; k < 3; k++)
        e1[k] = v1[k] - v0[k], e2[k] = v2[k] - v0[k], s[k] = o[k] - v0[k];
    p[0] = d[1] * e2[2] - d[2] * e2[1], p[1] = d[2] * e2[0] - d[0] * e2[2], p[2] = d[0] * e2[1] - d[1] * e2[0];
    float det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (det > -1e-20f && det < 1e-20f)
        return false;
    float u = s[0] * p[0] + s[1] * p[1] + s[2] * p[2];
    q[0] = s[1] * e1[2] - s[2] * e1[1], q[1] = s[2] * e1[0] - s[0] * e1[2], q[2] = s[0] * e1[1] - s[1] * e1[0];
    float v = d[0] * q[0] + d[1] * q[1] + d[2] * q[2];
    float t = e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2];
    if (det > 0 && (u < 0 || u > det || v < 0 || u + v > det || t < 0))
        return false;
    if (det < 0 && (u > 0 || u < det || v > 0 || u + v < det || t > 0))
        return false;
    *t_out = t / det;
    return true;
}

static double measure_float_ties(const char *name, const tri_mesh *tm, const vec3 eye)
{
    rp_mesh *m = rp_mesh_create(&tm->v[0][0], tm->vertex_count, 0, tm->idx, tm->triangle_count);
    if (!m)
        return -1.0;
    mat4 proj, view;
    camera(proj, view, eye);
    rp_viewport vp = {0, 0, VIEW_W, VIEW_H};
    long clicks = 0, hits = 0, differ = 0, slipped = 0;
    for (int y = 0; y < VIEW_H; y += 2)
        for (int x = 0; x < VIEW_W; x += 2) {
            rp_ray ray;
            if (!rp_pick_ray_unproject((float)x, (float)y, &vp, proj, view, RP_D3D, &ray))
                continue;
            glm_vec3_normalize(ray.dir);   /* the original's unit direction */
            clicks++;
            long original = -1;
            float tmin = FLT_MAX;
            for (size_t i = 0; i < tm->triangle_count; i++) {
                float t;
                if (float_ray_triangle(ray.origin, ray.dir, tm->v[tm->idx[3 * i]], tm->v[tm->idx[3 * i + 1]],
                                       tm->v[tm->idx[3 * i + 2]], &t) &&
                    t < tmin)
                    tmin = t, original = (long)i;
            }
            rp_triangle_hit tri;
            long ours = rp_intersect_ray_mesh(m, &ray, NULL, &tri) ? (long)tri.triangle : -1;
            hits += ours >= 0 || original >= 0;
            differ += ours != original;
            slipped += original < 0 && ours >= 0;
        }
    rp_mesh_destroy(m);
    printf("  %-32s %6ld of %6ld hit clicks differ (%ld: the float test found no triangle)\n", name, differ, hits,
           slipped);
    (void)clicks;
    return hits ? (double)differ / hits : 0.0;
}

/* ---- 4. Ritter in float ------------------------------------------------ */

/* DirectXMath's BoundingSphere::CreateFromPoints as it runs: in float */
static void float_ritter(const float (*p)[3], size_t n, float c[3], float *r)
{
    size_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (size_t i = 1; i < n; i++)
        for (int a = 0; a < 3; a++) {
            if (p[i][a] < p[lo[a]][a])
                lo[a] = i;
            if (p[i][a] > p[hi[a]][a])
                hi[a] = i;
        }
    float dist[3];
    for (int a = 0; a < 3; a++) {
        float dx = p[hi[a]][0] - p[lo[a]][0], dy = p[hi[a]][1] - p[lo[a]][1], dz = p[hi[a]][2] - p[lo[a]][2];
        dist[a] = sqrtf(dx * dx + dy * dy + dz * dz);
    }
    int a = dist[0] > dist[1] ? (dist[0] > dist[2] ? 0 : 2) : (dist[1] > dist[2] ? 1 : 2);
    for (int k = 0; k < 3; k++)
        c[k] = p[hi[a]][k] + 0.5f * (p[lo[a]][k] - p[hi[a]][k]);
    *r = 0.5f * dist[a];
    for (size_t i = 0; i < n; i++) {
        float delta[3] = {p[i][0] - c[0], p[i][1] - c[1], p[i][2] - c[2]};
        float d = sqrtf(delta[0] * delta[0] + delta[1] * delta[1] + delta[2] * delta[2]);
        if (d > *r) {
            *r = 0.5f * (*r + d);
            for (int k = 0; k < 3; k++)
                c[k] += (1.0f - *r / d) * delta[k];
        }
    }
}

static double measure_ritter_float(void)
{
    static float pts[2000][3];
    uint64_t state = 0x2545F4914F6CDD1DULL;
    double worst = 0.0;
    for (int cloud = 0; cloud < 200; cloud++) {
        size_t n = 10 + (size_t)cloud * 9;
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++) {
                state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
                pts[i][k] = (float)((double)(state * 0x2545F4914F6CDD1DULL >> 11) * 0x1p-53 * 20.0 - 10.0 + cloud);
            }
        float c[3], r;
        float_ritter((const float (*)[3])pts, n, c, &r);
        rp_sphere s;
        if (!rp_sphere_from_points_rule(&pts[0][0], n, 0, RP_SPHERE_RITTER, &s))
            return -1.0;
        double dc = sqrt(pow(s.center[0] - c[0], 2) + pow(s.center[1] - c[1], 2) + pow(s.center[2] - c[2], 2));
        double rel = (dc + fabs(s.radius - r)) / r;
        worst = rel > worst ? rel : worst;
    }
    printf("  200 clouds of 10 to 1801 points: centre and radius differ by at most %.1e of the radius\n", worst);
    return worst;
}

static void print_cpu(void)
{
    char line[256], model[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                snprintf(model, sizeof model, "%s", colon + 2);
                model[strcspn(model, "\n")] = '\0';
            }
            break;
        }
    if (f)
        fclose(f);
    printf("CPU: %s; viewport %d x %d, 45 degree camera, rays through every pixel\n", model, VIEW_W, VIEW_H);
}

int main(void)
{
    tri_mesh coarse, fine, floor_grid, box;
    if (!uv_sphere(&coarse, 24, 12, 2.0f) || !uv_sphere(&fine, 96, 48, 2.0f) || !grid(&floor_grid, 16) ||
        !lopsided_box(&box))
        return 1;
    const vec3 eye = {1.0f, 2.5f, 6.0f}, high = {0.0f, 12.0f, 0.01f};
    print_cpu();

    printf("1. integer (x, y) against the pixel's centre (x + 0.5, y + 0.5):\n");
    double c1 = measure_pixel_centre("sphere, 24 x 12", &coarse, eye);
    double c2 = measure_pixel_centre("sphere, 96 x 48", &fine, eye);

    printf("2. \"inside the bounding sphere\" by rule:\n");
    double s1 = measure_sphere_rules("sphere, 24 x 12", &coarse, eye);
    double s2 = measure_sphere_rules("lopsided box", &box, eye);

    printf("3. the original's float test against raypick, every other pixel:\n");
    double f1 = measure_float_ties("sphere, 24 x 12", &coarse, eye);
    double f2 = measure_float_ties("grid 16 x 16 seen from above", &floor_grid, high);

    printf("4. Ritter's sphere in float against rp_sphere_from_points_rule:\n");
    double r1 = measure_ritter_float();

    mesh_free(&coarse), mesh_free(&fine), mesh_free(&floor_grid), mesh_free(&box);
    /* the ranges docs/porting-d3d11-xna.md states */
    bool ok = c1 > 0.0 && c1 < 0.10 && c2 > c1 && c2 < 0.20 && s1 >= 0.0 && s2 > 0.05 &&
              f1 >= 0.0 && f1 < 0.01 && f2 >= 0.0 && f2 < 0.01 && r1 >= 0.0 && r1 < 1e-5;
    printf("%s\n", ok ? "figures within the guide's ranges" : "FIGURES OUTSIDE THE GUIDE'S RANGES");
    return ok ? 0 : 1;
}
