/* alloc_large.c: allocations of many megabytes (a BVH's nodes, a
   heightmap's copy, a scene's arrays of every object) that are written
   right away or read at random.
 *
 * On Linux such a block is aligned to 2 MiB and marked for transparent
 * huge pages: the first write to each 4 KiB page otherwise costs a page
 * fault, and on virtual machines those faults can take longer than the
 * writes themselves (64 MiB = 16384 faults), and reads at random miss the
 * TLB on nearly every 4 KiB page. Smaller blocks, and any on other POSIX
 * systems, are aligned to 64 bytes; on Windows, plain malloc. Every block
 * is freed with free() (rp_free_large), whichever it was. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1   /* madvise, posix_memalign */
#elif !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200112L     /* posix_memalign */
#endif
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#if defined(__linux__)
#include <sys/mman.h>
#define RP_HUGE_PAGE ((size_t)2 << 20)
#endif

void *rp_alloc_large(size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= 2 * RP_HUGE_PAGE) {
        void *p = NULL;
        if (posix_memalign(&p, RP_HUGE_PAGE, bytes) != 0)
            return NULL;
        /* advice only: without huge pages the block works the same */
        (void)madvise(p, bytes & ~(RP_HUGE_PAGE - 1), MADV_HUGEPAGE);
        return p;
    }
#endif
#if defined(_WIN32)
    return malloc(bytes);   /* _aligned_malloc would want its own free, and free() must do */
#else
    /* aligned to a cache line: the builder's 32-byte records then never
       straddle two lines (malloc promises 16; a mesh build whose records
       fell 16 bytes off took half as long again to partition them) */
    void *p = NULL;
    return posix_memalign(&p, 64, bytes ? bytes : 1) == 0 ? p : NULL;
#endif
}

void *rp_realloc_large(void *p, size_t old_bytes, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* realloc would move the old pages over as they are (4 KiB): a fresh
       block takes huge pages for all of it */
    if (bytes >= 2 * RP_HUGE_PAGE && bytes > old_bytes) {
        void *q = rp_alloc_large(bytes);
        if (q == NULL)
            return NULL;
        if (p != NULL)
            memcpy(q, p, old_bytes);
        free(p);
        return q;
    }
#endif
    (void)old_bytes;
    return realloc(p, bytes);
}

void rp_free_large(void *p)
{
    free(p);
}
