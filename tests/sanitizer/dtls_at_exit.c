/* dtls_at_exit.c: the sanitizer suite's leak check survives a thread whose
   dynamic TLS block starts 16 bytes into a page (see
   src/app/sanitizer_keep.c: GCC 12's runtime misreads such a block, and
   LeakSanitizer's tracer crashed at the exit of a GL program now and then).
   Threads touch a dlopen'ed library's TLS until one gets a block at that
   offset; that one stays alive while main returns and LeakSanitizer runs.
   Passing: exit 0. Under the suite's ASAN_OPTIONS without
   intercept_tls_get_addr=0 it exits 1 ("Tracer caught signal 11").

       dtls_at_exit PATH_OF_libdtls_module.so */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static char *(*touch)(void);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;

typedef struct slot {
    uintptr_t block;
    int decided;
    int keep;
} slot;

static void *touch_and_maybe_stay(void *arg)
{
    slot *s = arg;
    uintptr_t b = (uintptr_t)touch();
    pthread_mutex_lock(&lock);
    s->block = b;
    s->keep = b % 4096 == 16;
    s->decided = 1;
    pthread_cond_broadcast(&changed);
    while (s->keep)     /* alive, holding its block, until the process ends */
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: dtls_at_exit LIBDTLS_MODULE\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "dtls_at_exit: %s\n", dlerror());
        return 1;
    }
    *(void **)&touch = dlsym(lib, "dtls_module_touch");
    if (!touch) {
        fprintf(stderr, "dtls_at_exit: no dtls_module_touch in %s\n", argv[1]);
        return 1;
    }
    static slot slots[4000];
    for (int i = 0; i < 4000; ++i) {
        pthread_t t;
        if (pthread_create(&t, NULL, touch_and_maybe_stay, &slots[i]) != 0) {
            fprintf(stderr, "dtls_at_exit: pthread_create failed\n");
            return 1;
        }
        pthread_mutex_lock(&lock);
        while (!slots[i].decided)
            pthread_cond_wait(&changed, &lock);
        int keep = slots[i].keep;
        pthread_mutex_unlock(&lock);
        if (keep) {
            printf("thread %d holds a TLS block at %#lx (page offset 16) while the leak check runs\n", i,
                   (unsigned long)slots[i].block);
            return 0;
        }
        pthread_join(t, NULL);
    }
    fprintf(stderr, "dtls_at_exit: no TLS block at page offset 16 in 4000 threads: "
            "the case this test is for did not happen\n");
    return 1;
}
