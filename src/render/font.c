/* font.c: the HUD's fonts (font.h): found, mapped, checked, and read with
   stb_truetype. No GL. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L    /* open, fstat, mmap under -std=c11 */
#endif
#include "font.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#elif defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define FONT_MMAP 1
#endif

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wcast-qual"
#endif
#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
#include <stb_truetype.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* ------------------------------------------------------------ files */

/* A font file's bytes: mapped where the system maps files (only the
   tables and glyphs used become resident: a CJK collection is 20 MB),
   else read whole. */
typedef struct font_file {
    const unsigned char *data;
    size_t size;
    bool mapped;
#if defined(_WIN32)
    HANDLE file, mapping;
#endif
} font_file;

static bool file_read_whole(const char *path, font_file *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    unsigned char *data = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = malloc((size_t)size)) != NULL && fread(data, 1, (size_t)size, f) != (size_t)size) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (!data)
        return false;
    out->data = data;
    out->size = (size_t)size;
    out->mapped = false;
    return true;
}

static bool file_open(const char *path, font_file *out)
{
    memset(out, 0, sizeof *out);
#if defined(_WIN32)
    out->file = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    if (out->file == INVALID_HANDLE_VALUE)
        return false;
    LARGE_INTEGER size;
    if (GetFileSizeEx(out->file, &size) && size.QuadPart > 0 && (unsigned long long)size.QuadPart < SIZE_MAX &&
        (out->mapping = CreateFileMappingA(out->file, NULL, PAGE_READONLY, 0, 0, NULL)) != NULL &&
        (out->data = MapViewOfFile(out->mapping, FILE_MAP_READ, 0, 0, 0)) != NULL) {
        out->size = (size_t)size.QuadPart;
        out->mapped = true;
        return true;
    }
    if (out->mapping)
        CloseHandle(out->mapping);
    CloseHandle(out->file);
    memset(out, 0, sizeof *out);
    return file_read_whole(path, out);      /* no mapping: read it */
#elif defined(FONT_MMAP)
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
        close(fd);
        return false;   /* a directory, a device, an empty file */
    }
    void *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (data == MAP_FAILED)
        return file_read_whole(path, out);
    out->data = data;
    out->size = (size_t)st.st_size;
    out->mapped = true;
    return true;
#else
    return file_read_whole(path, out);
#endif
}

static void file_close(font_file *f)
{
    if (!f->data)
        return;
#if defined(_WIN32)
    if (f->mapped) {
        UnmapViewOfFile(f->data);
        CloseHandle(f->mapping);
        CloseHandle(f->file);
    } else {
        free((void *)f->data);
    }
#elif defined(FONT_MMAP)
    if (f->mapped)
        munmap((void *)f->data, f->size);
    else
        free((void *)f->data);
#else
    free((void *)f->data);
#endif
    memset(f, 0, sizeof *f);
}

static bool file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

/* ------------------------------------------------------------ checks */

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t be16(const unsigned char *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

/* stb_truetype trusts the file's offsets: a face is used only when its
   table directory, and every table it lists, lies inside the file. */
static bool face_directory_ok(const unsigned char *data, size_t size, size_t offset)
{
    if (offset > size || size - offset < 12)
        return false;
    uint32_t tag = be32(data + offset);
    if (tag != 0x00010000u && tag != 0x4f54544fu /* OTTO */ && tag != 0x74727565u /* true */)
        return false;
    size_t tables = be16(data + offset + 4);
    if (tables == 0 || (size - offset - 12) / 16 < tables)
        return false;
    for (size_t i = 0; i < tables; ++i) {
        const unsigned char *rec = data + offset + 12 + 16 * i;
        uint64_t start = be32(rec + 8), length = be32(rec + 12);
        if (start + length > size)
            return false;
    }
    return true;
}

/* How many faces the file holds (1 for a single font), 0 when it is no
   font stb_truetype reads or its headers reach past its end. */
static int file_face_count(const unsigned char *data, size_t size)
{
    if (size < 12)
        return 0;
    if (be32(data) != 0x74746366u /* ttcf */)
        return face_directory_ok(data, size, 0) ? 1 : 0;
    uint32_t count = be32(data + 8);
    if (count == 0 || count > 1000 || (size - 12) / 4 < count)
        return 0;
    for (uint32_t i = 0; i < count; ++i)
        if (!face_directory_ok(data, size, be32(data + 12 + 4 * i)))
            return 0;
    return (int)count;
}

/* ------------------------------------------------------------ faces */

typedef struct font_face {
    char path[512];
    bool tried;             /* opened or failed: not tried again */
    bool open;
    font_file file;
    stbtt_fontinfo info;
    char name[64];          /* family name, ASCII part ("Noto Sans CJK SC") */
    int index;              /* the face's index in its file (a collection's) */
} font_face;

struct font_set {
    font_face faces[FONT_MAX_FACES];
    int count;
};

/* A name-table string (ID 1 family, 2 subfamily) as ASCII; "" when absent. */
static void face_name_string(const stbtt_fontinfo *info, int name_id, char *out, size_t size)
{
    int len = 0;
    const char *s = stbtt_GetFontNameString(info, &len, STBTT_PLATFORM_ID_MICROSOFT, STBTT_MS_EID_UNICODE_BMP,
                                            STBTT_MS_LANG_ENGLISH, name_id);
    size_t n = 0;
    for (int i = 0; s && i + 1 < len && n + 1 < size; i += 2)     /* UTF-16BE: the ASCII ones */
        if (s[i] == 0 && s[i + 1] >= 32 && s[i + 1] < 127)
            out[n++] = s[i + 1];
    out[n] = '\0';
}

/* In a collection, the face to use: simplified Chinese (" SC") over the
   other regions' shapes of the same characters, proportional over Mono,
   the regular weight over the others; the first among equals. */
static int face_score(const stbtt_fontinfo *info, char *family, size_t family_size)
{
    char style[64];
    face_name_string(info, 1, family, family_size);
    face_name_string(info, 2, style, sizeof style);
    size_t n = strlen(family);
    int score = 0;
    if ((n >= 3 && strcmp(family + n - 3, " SC") == 0) || strstr(family, " SC ") || strstr(family, " GB"))
        score += 4;
    if (strstr(family, "Mono"))
        score -= 2;
    if (!strcmp(style, "Regular") || !strcmp(style, "Book") || !strcmp(style, "Normal") || !strcmp(style, "W3"))
        score += 1;
    return score;
}

/* Opens face slot i once; false (and err, when not NULL) when it is no font. */
static bool face_open(font_face *face, char *err, size_t err_size)
{
    if (face->tried)
        return face->open;
    face->tried = true;
    if (!file_open(face->path, &face->file)) {
        if (err)
            snprintf(err, err_size, "%s: cannot open it", face->path);
        return false;
    }
    int faces = file_face_count(face->file.data, face->file.size);
    int best = -1, best_score = 0;
    for (int i = 0; i < faces; ++i) {
        stbtt_fontinfo info;
        char family[64];
        int offset = stbtt_GetFontOffsetForIndex(face->file.data, i);
        if (offset < 0 || !stbtt_InitFont(&info, face->file.data, offset))
            continue;
        int score = face_score(&info, family, sizeof family);
        if (best < 0 || score > best_score) {
            best = i;
            best_score = score;
            face->info = info;
            face->index = i;
            snprintf(face->name, sizeof face->name, "%s", family);
        }
    }
    if (best < 0) {
        if (err)
            snprintf(err, err_size, "%s: not a TrueType or OpenType font (or a damaged one)", face->path);
        file_close(&face->file);
        return false;
    }
    face->open = true;
    return true;
}

/* ------------------------------------------------------------ the system's */

#if defined(_WIN32)
static const char *const LATIN_FONTS[] = {"segoeui.ttf", "arial.ttf", "tahoma.ttf", NULL};
static const char *const CJK_FONTS[] = {"msyh.ttc", "msyh.ttf", "simsun.ttc", "simhei.ttf", NULL};
#elif defined(__APPLE__)
static const char *const LATIN_FONTS[] = {
    "/System/Library/Fonts/Helvetica.ttc", "/System/Library/Fonts/SFNS.ttf",
    "/Library/Fonts/Arial.ttf", "/System/Library/Fonts/Supplemental/Arial.ttf", NULL};
static const char *const CJK_FONTS[] = {
    "/System/Library/Fonts/PingFang.ttc", "/System/Library/Fonts/Hiragino Sans GB.ttc",
    "/System/Library/Fonts/STHeiti Light.ttc", "/Library/Fonts/Arial Unicode.ttf",
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf", NULL};
#else
/* Debian and Ubuntu first (scripts/deps.sh installs these), then where
   Fedora and Arch put the same packages */
static const char *const LATIN_FONTS[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf",
    NULL};
static const char *const CJK_FONTS[] = {
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/wenquanyi/wqy-microhei/wqy-microhei.ttc",
    "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc",
    NULL};
#endif

/* The first file of the list that exists, as a full path into out. */
static bool first_existing(const char *const *list, char *out, size_t size)
{
    for (; *list; ++list) {
#if defined(_WIN32)
        const char *windir = getenv("WINDIR");
        snprintf(out, size, "%s\\Fonts\\%s", windir && windir[0] ? windir : "C:\\Windows", *list);
#else
        snprintf(out, size, "%s", *list);
#endif
        if (file_exists(out))
            return true;
    }
    return false;
}

static void add_face(font_set *f, const char *path, size_t len)
{
    if (f->count < FONT_MAX_FACES && len > 0 && len < sizeof f->faces[0].path) {
        memcpy(f->faces[f->count].path, path, len);
        f->faces[f->count].path[len] = '\0';
        ++f->count;
    }
}

font_set *font_set_open(const char *paths, char *err, size_t err_size)
{
    char scratch[8];
    if (!err) {
        err = scratch;
        err_size = sizeof scratch;
    }
    err[0] = '\0';
    font_set *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    if (paths) {
#if defined(_WIN32)
        const char sep = ';';
#else
        const char sep = ':';
#endif
        for (const char *p = paths; *p;) {
            size_t n = strcspn(p, (char[]){sep, '\0'});
            add_face(f, p, n);
            p += n;
            if (*p == sep)
                ++p;
        }
        if (f->count == 0) {
            snprintf(err, err_size, "%s names no font file", FONT_PATH_ENV);
            free(f);
            return NULL;
        }
    } else {
        char path[512];
        if (first_existing(LATIN_FONTS, path, sizeof path))
            add_face(f, path, strlen(path));
        if (first_existing(CJK_FONTS, path, sizeof path))
            add_face(f, path, strlen(path));
        if (f->count == 0) {
            snprintf(err, err_size, "no font found (%s)", font_install_hint("en"));
            free(f);
            return NULL;
        }
    }
    /* the first face that opens comes first; the rest open when needed */
    for (int i = 0; i < f->count; ++i) {
        if (face_open(&f->faces[i], err, err_size)) {
            if (i > 0) {
                font_face first = f->faces[i];
                memmove(&f->faces[1], &f->faces[0], (size_t)i * sizeof f->faces[0]);
                f->faces[0] = first;
            }
            err[0] = '\0';
            return f;
        }
        if (paths)
            break;      /* the user's own list: its first file must be a font */
    }
    font_set_close(f);
    return NULL;
}

void font_set_close(font_set *f)
{
    if (!f)
        return;
    for (int i = 0; i < f->count; ++i)
        file_close(&f->faces[i].file);
    free(f);
}

bool font_set_find(font_set *f, uint32_t codepoint, font_glyph *out)
{
    out->face = 0;
    out->index = 0;
    if (!f || codepoint > 0x10ffff)
        return false;
    for (int i = 0; i < f->count; ++i) {
        if (!face_open(&f->faces[i], NULL, 0))
            continue;
        int index = stbtt_FindGlyphIndex(&f->faces[i].info, (int)codepoint);
        if (index > 0) {
            out->face = i;
            out->index = index;
            return true;
        }
    }
    return false;
}

uint32_t font_set_missing(font_set *f, const char *utf8)
{
    if (!utf8)
        return 0;
    for (const char *p = utf8;;) {
        uint32_t c = font_utf8_next(&p);
        font_glyph g;
        if (c == 0)
            return 0;
        if (c != '\n' && !font_set_find(f, c, &g))
            return c;
    }
}

float font_set_advance(const font_set *f, font_glyph g, float em)
{
    if (!f || g.face < 0 || g.face >= f->count || !f->faces[g.face].open)
        return 0.0f;
    int advance, bearing;
    const stbtt_fontinfo *info = &f->faces[g.face].info;
    stbtt_GetGlyphHMetrics(info, g.index, &advance, &bearing);
    return (float)advance * stbtt_ScaleForMappingEmToPixels(info, em);
}

font_box font_set_box(const font_set *f, font_glyph g, float em)
{
    font_box b = {0, 0, 0, 0};
    if (!f || g.face < 0 || g.face >= f->count || !f->faces[g.face].open)
        return b;
    const stbtt_fontinfo *info = &f->faces[g.face].info;
    if (stbtt_IsGlyphEmpty(info, g.index))
        return b;
    float s = stbtt_ScaleForMappingEmToPixels(info, em);
    stbtt_GetGlyphBitmapBox(info, g.index, s, s, &b.x0, &b.y0, &b.x1, &b.y1);
    return b;
}

void font_set_render(const font_set *f, font_glyph g, float em, unsigned char *out, int stride)
{
    font_box b = font_set_box(f, g, em);
    if (b.x1 <= b.x0 || b.y1 <= b.y0)
        return;
    const stbtt_fontinfo *info = &f->faces[g.face].info;
    float s = stbtt_ScaleForMappingEmToPixels(info, em);
    stbtt_MakeGlyphBitmap(info, out, b.x1 - b.x0, b.y1 - b.y0, stride, s, s, g.index);
}

const char *font_set_face_path(const font_set *f, int face)
{
    return f && face >= 0 && face < f->count && f->faces[face].open ? f->faces[face].path : NULL;
}

const char *font_set_face_name(const font_set *f, int face)
{
    return f && face >= 0 && face < f->count && f->faces[face].open ? f->faces[face].name : NULL;
}

int font_set_face_index(const font_set *f, int face)
{
    return f && face >= 0 && face < f->count && f->faces[face].open ? f->faces[face].index : -1;
}

/* ------------------------------------------------------------ text */

uint32_t font_utf8_next(const char **p)
{
    const unsigned char *s = (const unsigned char *)*p;
    uint32_t c = s[0];
    if (c == 0)
        return 0;
    int extra = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;
    if (extra < 0) {
        *p += 1;
        return 0xfffd;
    }
    if (extra)
        c &= 0x3fu >> extra;
    for (int i = 1; i <= extra; ++i) {
        if ((s[i] & 0xc0) != 0x80) {
            *p += 1;
            return 0xfffd;
        }
        c = (c << 6) | (s[i] & 0x3fu);
    }
    static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
    *p += extra + 1;
    if (c < least[extra] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0xfffd;
    return c;
}

const char *font_install_hint(const char *language)
{
    bool cjk = language && !strcmp(language, "zh");
#if defined(_WIN32)
    return cjk ? "Microsoft YaHei (msyh.ttc), part of Windows' Chinese language features; or set RAYPICK_FONT to a "
                 "font file"
               : "Segoe UI or Arial (C:\\Windows\\Fonts); or set RAYPICK_FONT to a font file";
#elif defined(__APPLE__)
    return cjk ? "PingFang (macOS 10.11 and later); or set RAYPICK_FONT to a font file"
               : "Helvetica; or set RAYPICK_FONT to a font file";
#else
    return cjk ? "install fonts-noto-cjk or fonts-wqy-microhei (Debian/Ubuntu: sudo apt install fonts-noto-cjk; "
                 "Fedora: google-noto-sans-cjk-fonts), or set RAYPICK_FONT to a font file"
               : "install fonts-dejavu-core (Debian/Ubuntu: sudo apt install fonts-dejavu-core; Fedora: "
                 "dejavu-sans-fonts), or set RAYPICK_FONT to a font file";
#endif
}
