/* test_steady_math.c: src/render/steady_math.c, the sine and cosine that give
   the same bits on every platform. Checked against the C library's double
   precision functions (within 1 ulp of float), and against bits recorded
   once: the Windows suite runs this test under Wine, so a build whose
   results differ from the Linux build's fails here, not only in a
   screenshot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <float.h>
#include <math.h>
#include <cmocka.h>

#include "steady_math.h"

/* distance in float ulps between a float and a double reference */
static double ulps(float got, double want)
{
    float near = (float)want;
    float next = nextafterf(near, want > (double)near ? INFINITY : -INFINITY);
    double ulp = fabs((double)next - (double)near);
    if (ulp == 0.0)
        ulp = (double)FLT_TRUE_MIN;
    return fabs((double)got - want) / ulp;
}

/* a small xorshift: the same inputs on every platform */
static uint32_t next_u32(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static float random_angle(uint32_t *s, float range)
{
    return ((float)(next_u32(s) >> 8) / 16777216.0f * 2.0f - 1.0f) * range;
}

static void within_one_ulp_of_libm(void **state)
{
    (void)state;
    uint32_t s = 12345u;
    const float ranges[] = {1.0f, 4.0f, 100.0f, 5000.0f, 1e6f};
    double worst = 0.0;
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; ++r) {
        for (int i = 0; i < 20000; ++i) {
            float x = random_angle(&s, ranges[r]);
            float sn, cs;
            steady_sincosf(x, &sn, &cs);
            double e = fmax(ulps(sn, sin((double)x)), ulps(cs, cos((double)x)));
            if (e > worst)
                worst = e;
            assert_true(sn == steady_sinf(x));
            assert_true(cs == steady_cosf(x));
        }
    }
    /* rounding the double result to float: at most half an ulp plus the
       polynomial's and the reduction's error, far below one */
    assert_true(worst <= 1.0);
}

static void exact_where_it_must_be(void **state)
{
    (void)state;
    float sn, cs;
    steady_sincosf(0.0f, &sn, &cs);
    assert_true(sn == 0.0f && cs == 1.0f);
    /* odd and even: sin(-x) = -sin(x), cos(-x) = cos(x), bit for bit */
    uint32_t s = 99u;
    for (int i = 0; i < 10000; ++i) {
        float x = random_angle(&s, 50.0f);
        assert_true(steady_sinf(-x) == -steady_sinf(x));
        assert_true(steady_cosf(-x) == steady_cosf(x));
    }
}

static void tangent_and_non_finite_inputs(void **state)
{
    (void)state;
    assert_true(fabsf(steady_tanf(0.785398163f) - 1.0f) < 1e-6f);
    assert_true(isnan(steady_sinf(NAN)));
    assert_true(isnan(steady_cosf(INFINITY)));
    assert_true(isnan(steady_tanf(-INFINITY)));
    /* near pi/2 the tangent is huge but finite */
    assert_true(isfinite(steady_tanf(1.57079637f)));
}

static void quaternion_and_perspective_match_cglm(void **state)
{
    (void)state;
    uint32_t s = 7u;
    for (int i = 0; i < 1000; ++i) {
        float angle = random_angle(&s, 10.0f);
        vec3 axis = {random_angle(&s, 1.0f), random_angle(&s, 1.0f), random_angle(&s, 1.0f)};
        versor mine, theirs;
        steady_quatv(angle, axis, mine);
        glm_quatv(theirs, angle, axis);
        for (int k = 0; k < 4; ++k)
            assert_true(fabsf(mine[k] - theirs[k]) < 2e-6f);
    }
    versor q;
    steady_quatv(1.0f, (vec3){0.0f, 0.0f, 0.0f}, q);
    assert_true(q[0] == 0.0f && q[1] == 0.0f && q[2] == 0.0f && q[3] == 1.0f);

    mat4 mine, theirs;
    steady_perspective(0.8f, 16.0f / 9.0f, 0.1f, 500.0f, mine);
    glm_perspective(0.8f, 16.0f / 9.0f, 0.1f, 500.0f, theirs);
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            assert_true(fabsf(mine[c][r] - theirs[c][r]) <= 1e-6f * fmaxf(1.0f, fabsf(theirs[c][r])));
}

/* FNV-1a over the bits of every result */
static uint32_t fnv(uint32_t h, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    for (int i = 0; i < 4; ++i) {
        h ^= (bits >> (8 * i)) & 0xffu;
        h *= 16777619u;
    }
    return h;
}

/* The point of the module: these bits are the same on Linux, under Wine,
   in the browser, on Intel and on AMD. The constant was recorded from the
   Linux build; any platform, compiler or CPU that gives another value
   draws lesson 1's moving belt differently. */
static void same_bits_everywhere(void **state)
{
    (void)state;
    uint32_t s = 2026u, h = 2166136261u;
    for (int i = 0; i < 100000; ++i) {
        float x = random_angle(&s, 300.0f), sn, cs;
        steady_sincosf(x, &sn, &cs);
        h = fnv(fnv(fnv(h, sn), cs), steady_tanf(x));
    }
    print_message("steady_math bits: 0x%08x\n", (unsigned)h);
    assert_int_equal(h, 0xf979e8a6u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(within_one_ulp_of_libm),
        cmocka_unit_test(exact_where_it_must_be),
        cmocka_unit_test(tangent_and_non_finite_inputs),
        cmocka_unit_test(quaternion_and_perspective_match_cglm),
        cmocka_unit_test(same_bits_everywhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
