/* Compiled with -std=c11 -pedantic-errors -Werror: the public header must
   stand alone. Running it checks that the library links from plain C. */
#include <raypick/raypick.h>

int main(void)
{
    rp_ray ray = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, -1.0f}};
    vec3 p;
    rp_ray_at(&ray, 2.0f, p);
    return p[2] == -2.0f ? 0 : 1;
}
