/* dtls_module.c: a shared library with thread-local storage, so each thread
   that touches it gets a dynamic TLS block (tests/sanitizer/dtls_at_exit.c). */
char *dtls_module_touch(void);

static __thread char block[40];

char *dtls_module_touch(void)
{
    block[0] = 1;
    return block;
}
