/* Compressing a packed image's payload with the real libraries (kslide-pack --compress). */
#ifndef KSLIDE_TOOLS_PACK_COMPRESS_H
#define KSLIDE_TOOLS_PACK_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

/*
 * --compress auto (the default) stores payloads below this many bytes as they are: a small
 * kernel gains a few KiB at most, while the stub's decoder workspace and its second pass over
 * the relocations cost the same whatever the size. The reference kernels (tens of KiB) stay
 * uncompressed; every distribution kernel (megabytes) gets zstd.
 */
#define PACK_COMPRESS_AUTO_MIN (1u << 20)

/* --compress auto; no --compress at all (then the container's default, container.h);
 * otherwise a KSLIDE_CODEC_*. */
enum { PACK_CODEC_AUTO = -1, PACK_CODEC_DEFAULT = -2 };

/* "zstd", "lz4", "none" or "auto" into *codec; -1 for an unknown name. */
int pack_codec_parse(const char *name, int *codec);

/* The --compress name of a codec (KSLIDE_CODEC_* or PACK_CODEC_AUTO), "?" for another. */
const char *pack_codec_name(int codec);

/* The codec 'auto' means for a payload of size bytes. */
uint32_t pack_codec_auto(uint64_t size);

/* The codec a payload of size bytes is stored with: --compress's choice, or without one
 * (PACK_CODEC_DEFAULT) the container's default; 'auto' by the size. */
uint32_t pack_codec_choose(int chosen, int container_default, uint64_t size);

/*
 * Compress src[0, size) with codec (zstd or lz4) at the library's highest level, without a
 * content checksum (the image's own checks cover the stored frame), into a malloc'd *out of
 * *out_size bytes. The zstd window is capped at what the stub's decoder accepts (lib/zstd.h).
 * 0, or -1 with a message in err.
 */
int pack_compress(uint32_t codec, const uint8_t *src, size_t size, uint8_t **out, size_t *out_size,
		  char *err, size_t err_cap);

#endif
