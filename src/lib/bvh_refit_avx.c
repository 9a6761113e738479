/* bvh_refit_avx.c: the refit of a wide tree (bvh_refit.h) compiled with
   AVX (-mavx, /arch:AVX: src/lib/meson.build): a half's SAH sum takes its
   four slots' areas in one 256-bit double operation (bvh_refit.h's
   refit_rows_area), and every other step is the SSE2 refit in three-operand
   encoding. Called only when simd.c has found AVX on the CPU. The same
   operations per slot, summed in the same order, as rp_bvh_refit_base:
   the same boxes and the same sum, bit for bit. */
#include "bvh_refit.h"

#if RP_SIMD_DISPATCH && !RP_SIMD_BUILT_AVX
#error "bvh_refit_avx.c is a run-time kernel: compile it with -mavx (MSVC: /arch:AVX)"
#endif

#if RP_SIMD_DISPATCH
double rp_bvh_refit_avx(rp_bvh4_node *nodes, uint32_t halves, uint32_t from, uint32_t to,
                        const uint32_t *prims, const rp_bvh_box *boxes)
{
    return rp_bvh_refit_loop(nodes, halves, from, to, prims, boxes, rp_bvh_refit_node_simd);
}
#endif /* RP_SIMD_DISPATCH */
