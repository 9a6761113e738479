/*
 * heightmap_file.h: a heightmap image's size from its header, read before
 * loading it, for two reasons: lesson 4 fits the map to its view (the
 * spacing depends on the size, and rp_heightmap_load needs the spacing), and
 * a map too large for the memory the demo allows is refused before anything
 * is decoded. Knows the formats rp_heightmap_load documents: PNG, binary
 * PGM/PPM, BMP. No GL, no SDL.
 */
#ifndef RAYPICK_HEIGHTMAP_FILE_H
#define RAYPICK_HEIGHTMAP_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* rp_heightmap_load's limits (include/raypick/heightmap.h) */
#define HEIGHTMAP_FILE_MAX_SIDE 16384
#define HEIGHTMAP_FILE_MAX_SAMPLES ((long long)64 << 20)

/* The memory the demo allows one map's loading to take (its estimated
   peak, heightmap_file_peak_bytes): 1 GiB. */
#define HEIGHTMAP_FILE_BUDGET ((long long)1 << 30)

typedef struct heightmap_file_info {
    bool known;             /* a header this file understands was found */
    const char *format;     /* "PNG", "PGM", "PPM", "BMP" */
    long long width, height;
    int channels;           /* samples per pixel in the file: 1 .. 4 */
    int bits;               /* bits per channel: 8 or 16 */
    long long file_bytes;   /* the file's size (probe only; 0 from parse) */
} heightmap_file_info;

/* Reads the header at path. true with info->known = false for a file whose
   header is none of the four formats (the library then decides); false
   with a message naming the file when it cannot be opened or read, or is
   not a regular file (a FIFO, device, socket or directory: refused before
   it is opened for reading). */
bool heightmap_file_probe(const char *path, heightmap_file_info *info, char *err, size_t err_size);

/* The same on the first bytes of a file (size bytes at head). */
void heightmap_file_parse(const unsigned char *head, size_t size, heightmap_file_info *info);

/* Estimated peak bytes rp_heightmap_load takes for a known image: the
   decoder's raw pixels and its 16-bit copy, the float heights, the
   library's min/max pyramid, and three times the file (read whole; a
   PNG's compressed pixels checked and copied for the decoder). The
   library's checks keep the decoding to what the header says. 0 when
   info is not known. */
long long heightmap_file_peak_bytes(const heightmap_file_info *info);

/* true when a known image is at least 2x2, fits rp_heightmap_load's side
   and sample limits and the budget (bytes); otherwise false with a
   message naming the file, its size and the limit it breaks. An unknown
   header passes. */
bool heightmap_file_fits(const char *path, const heightmap_file_info *info, long long budget,
                         char *err, size_t err_size);

#endif /* RAYPICK_HEIGHTMAP_FILE_H */
