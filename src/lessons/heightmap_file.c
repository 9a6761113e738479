/* heightmap_file.c: image sizes from headers (heightmap_file.h). */
#include "heightmap_file.h"
#include "file_open.h"

#include <stdio.h>
#include <string.h>

#define HEAD_BYTES 512      /* enough for every header read here, comments included */

static unsigned long be32(const unsigned char *p)
{
    return ((unsigned long)p[0] << 24) | ((unsigned long)p[1] << 16) | ((unsigned long)p[2] << 8) | p[3];
}

static long le32(const unsigned char *p)
{
    unsigned long u = (unsigned long)p[0] | ((unsigned long)p[1] << 8) | ((unsigned long)p[2] << 16) |
                      ((unsigned long)p[3] << 24);
    return u >= 0x80000000ul ? -(long)(0xfffffffful - u) - 1 : (long)u;
}

static void parse_png(const unsigned char *h, size_t n, heightmap_file_info *info)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n < 26 || memcmp(h, sig, 8) != 0 || memcmp(h + 12, "IHDR", 4) != 0)
        return;
    /* colour type -> channels as stb_image returns them (a palette: RGB) */
    static const int channels[7] = {1, 0, 3, 3, 2, 0, 4};
    int type = h[25];
    if (type > 6 || channels[type] == 0)
        return;
    info->known = true;
    info->format = "PNG";
    info->width = (long long)be32(h + 16);
    info->height = (long long)be32(h + 20);
    info->channels = channels[type];
    info->bits = h[24] == 16 ? 16 : 8;
}

/* The next PNM header number at *pos: skips whitespace and # comments;
   -1 when there is none (or it does not fit the bytes read). */
static long long pnm_number(const unsigned char *h, size_t n, size_t *pos)
{
    size_t i = *pos;
    for (;;) {
        while (i < n && (h[i] == ' ' || h[i] == '\t' || h[i] == '\r' || h[i] == '\n'))
            ++i;
        if (i < n && h[i] == '#') {
            while (i < n && h[i] != '\n')
                ++i;
            continue;
        }
        break;
    }
    if (i >= n || h[i] < '0' || h[i] > '9')
        return -1;
    long long v = 0;
    while (i < n && h[i] >= '0' && h[i] <= '9') {
        if (v < 1000000000)
            v = v * 10 + (h[i] - '0');
        ++i;
    }
    *pos = i;
    return i < n ? v : -1;
}

static void parse_pnm(const unsigned char *h, size_t n, heightmap_file_info *info)
{
    if (n < 3 || h[0] != 'P' || (h[1] != '5' && h[1] != '6'))
        return;
    size_t pos = 2;
    long long w = pnm_number(h, n, &pos), ht = pnm_number(h, n, &pos), maxval = pnm_number(h, n, &pos);
    if (w < 0 || ht < 0 || maxval < 1)
        return;     /* malformed: the library says how */
    info->known = true;
    info->format = h[1] == '5' ? "PGM" : "PPM";
    info->width = w;
    info->height = ht;
    info->channels = h[1] == '5' ? 1 : 3;
    info->bits = maxval > 255 ? 16 : 8;
}

static void parse_bmp(const unsigned char *h, size_t n, heightmap_file_info *info)
{
    if (n < 26 || h[0] != 'B' || h[1] != 'M')
        return;
    /* OS/2 1.x: a 12-byte header of 16-bit sizes (the library reads it) */
    bool os2 = h[14] == 12 && h[15] == 0 && h[16] == 0 && h[17] == 0;
    if (!os2 && n < 30)
        return;
    long w = os2 ? (long)(h[18] | (h[19] << 8)) : le32(h + 18);
    long ht = os2 ? (long)(h[20] | (h[21] << 8)) : le32(h + 22);
    int bpp = os2 ? h[24] | (h[25] << 8) : h[28] | (h[29] << 8);
    info->known = true;
    info->format = "BMP";
    info->width = w;
    info->height = ht < 0 ? -(long long)ht : ht;    /* negative: stored top-down */
    info->channels = bpp == 32 ? 4 : 3;
    info->bits = 8;
}

void heightmap_file_parse(const unsigned char *head, size_t size, heightmap_file_info *info)
{
    memset(info, 0, sizeof *info);
    if (!head)
        return;
    parse_png(head, size, info);
    if (!info->known)
        parse_pnm(head, size, info);
    if (!info->known)
        parse_bmp(head, size, info);
}

bool heightmap_file_probe(const char *path, heightmap_file_info *info, char *err, size_t err_size)
{
    memset(info, 0, sizeof *info);
    if (!path) {
        snprintf(err, err_size, "(null): cannot open: no file name");
        return false;
    }
    long long bytes = 0;
    FILE *f = file_open_regular(path, "", &bytes, err, err_size);
    if (!f)
        return false;
    unsigned char head[HEAD_BYTES];
    size_t got = fread(head, 1, sizeof head, f);
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        snprintf(err, err_size, "%s: cannot read", path);
        return false;
    }
    heightmap_file_parse(head, got, info);
    info->file_bytes = bytes;
    return true;
}

long long heightmap_file_peak_bytes(const heightmap_file_info *info)
{
    if (!info || !info->known || info->width < 0 || info->height < 0)
        return 0;
    long long samples = info->width * info->height;
    /* raw pixels + their 16-bit copy + 4-byte heights + ~1 byte of pyramid */
    long long per_sample = (long long)info->channels * (info->bits / 8) + (long long)info->channels * 2 + 4 + 1;
    /* the file read whole, and a PNG's compressed pixels twice more (the
       checked copy handed to stb_image, and stb's own) */
    return samples * per_sample + 3 * info->file_bytes;
}

bool heightmap_file_fits(const char *path, const heightmap_file_info *info, long long budget,
                         char *err, size_t err_size)
{
    if (!info || !info->known)
        return true;
    /* before anything divides by the size (the spacing that fits the view) */
    if (info->width < 2 || info->height < 2) {
        snprintf(err, err_size, "%s: %s image is %lldx%lld, too small: a heightmap needs at least 2x2 "
                 "samples", path, info->format, info->width, info->height);
        return false;
    }
    if (info->width > HEIGHTMAP_FILE_MAX_SIDE || info->height > HEIGHTMAP_FILE_MAX_SIDE ||
        info->width * info->height > HEIGHTMAP_FILE_MAX_SAMPLES) {
        snprintf(err, err_size, "%s: %s image is %lldx%lld, above the library's limit (at most %d "
                 "samples a side and %lld in all)", path, info->format, info->width, info->height,
                 HEIGHTMAP_FILE_MAX_SIDE, HEIGHTMAP_FILE_MAX_SAMPLES);
        return false;
    }
    long long need = heightmap_file_peak_bytes(info);
    if (need > budget) {
        snprintf(err, err_size, "%s: %s image is %lldx%lld (%d-bit, %d channel%s): loading it takes "
                 "about %lld MiB, more than the %lld MiB the demo allows (--load-limit raises it)", path, info->format,
                 info->width, info->height, info->bits, info->channels, info->channels > 1 ? "s" : "",
                 need >> 20, budget >> 20);
        return false;
    }
    return true;
}
