/*
 * Applying a kslide relocation table to an image that was moved by 'delta' bytes.
 *
 * The table is a sequence of groups; each group names a kind and lists the image offsets
 * of the fields to patch, ascending, as ULEB128 gaps (docs/format.md):
 *
 *   group := kind:u8  count:uleb128  gap:uleb128 * count
 *   offset[0] = gap[0],  offset[i] = offset[i-1] + gap[i]
 *
 * reloc_validate and reloc_apply check the whole table before the first byte is written, so a
 * bad table changes nothing; reloc_move checks each field as it goes and undoes its patches on
 * error (see there); reloc_stream patches as the image arrives and leaves the undoing to its
 * caller.
 */
#ifndef KSLIDE_LIB_RELOC_H
#define KSLIDE_LIB_RELOC_H

#include <stddef.h>
#include <stdint.h>

#include "lib/word_sums.h"

enum reloc_kind {
	RELOC_ADD32 = 1,  /* 32-bit field += delta, must not wrap (R_386_32, R_X86_64_32) */
	RELOC_ADD32S = 2, /* 32-bit field is sign-extended; result must stay in int32 (R_X86_64_32S) */
	RELOC_ADD64 = 3,  /* 64-bit field += delta (R_X86_64_64, R_X86_64_RELATIVE) */
	/* 32-bit signed field -= delta; result must stay in int32. A PC-relative reference from
	 * the moving image to something that stays put (Linux's x86-64 per-CPU area, linked at
	 * virtual 0): Linux's "inverse 32-bit" relocations. */
	RELOC_SUB32S = 4,
	RELOC_KIND_LAST = RELOC_SUB32S,
};

struct reloc_summary {
	uint64_t count[RELOC_KIND_LAST + 1]; /* indexed by reloc_kind */
	uint64_t total;
};

/* Decode and bounds-check the table against an image of image_size bytes; writes nothing. */
int reloc_validate(const uint8_t *table, size_t table_size, uint64_t image_size,
		   struct reloc_summary *summary);

/*
 * Add delta to every field the table names. Validates everything (bounds and overflow of the
 * patched values) first; on any error returns it with the image untouched.
 */
int reloc_apply(uint8_t *image, uint64_t image_size, const uint8_t *table, size_t table_size,
		int64_t delta);

/*
 * The stub's move and relocation in one: copy file_size bytes from src to dst (which must
 * not overlap), zero dst up to size, and apply the table to those size bytes, with
 * reloc_apply's checks and results. The copy runs a block ahead of the patching (a
 * reloc_stream), so each field is patched while it is in cache: one pass over the image
 * instead of three (docs/results.md). On error dst holds the plain copy, nothing patched: the
 * outcome is always that of memcpy, memset, then reloc_apply. If sums is not NULL it receives
 * the word sums (lib/word_sums.h) of src[0, file_size), taken during the copy, whenever the
 * arguments were valid.
 */
int reloc_move(uint8_t *dst, const uint8_t *src, uint64_t file_size, uint64_t size,
	       const uint8_t *table, size_t table_size, int64_t delta, struct word_sums *sums);

/* How reloc_move fills the image: the copy with its sums, and the zeros past file_size. */
struct move_routines {
	word_sums_copy_fn *copy;
	void (*zero)(uint8_t *dst, size_t n);
};

/* The plain ones: word_sums_copy and memset. */
extern const struct move_routines move_routines_plain;

/* reloc_move with other routines in the plain ones' place (the stub's AVX2 ones). */
int reloc_move_with(uint8_t *dst, const uint8_t *src, uint64_t file_size, uint64_t size,
		    const uint8_t *table, size_t table_size, int64_t delta, struct word_sums *sums,
		    const struct move_routines *with);

/* What a group of one 32-bit kind does under a slide (lib/reloc.c, op32_for); private. */
struct reloc_op32 {
	uint8_t possible;   /* 0 when |d| >= 2^32: no field can take it */
	uint8_t signed_add; /* a signed kind whose d fits int32: overflow is the addition's own */
	uint32_t add, shift, span;
};

/*
 * Relocation as the image's bytes arrive (reloc_move's copy, the stub's decoders): after
 * reloc_stream_init, call reloc_stream_patch(s, limit) each time the bytes [0, limit) are
 * complete, limit never decreasing. Each call patches the fields lying wholly below limit that
 * earlier calls did not, checking each as reloc_apply does (bounds, overflow, overlap); a call
 * with limit = image_size finishes the table or fails. The groups must follow one another in
 * the image, as kslide-pack writes them; a group that starts before the previous one ends
 * gives KS_EORDER (reloc_apply takes any order). Unlike reloc_apply, a failure leaves the
 * fields before it patched: a caller that must undo them starts again from the original
 * bytes. After a failure every call returns it again. An image_size beyond the address space
 * (only possible in 32-bit code) is KS_EINVAL.
 *
 * The fields are private to lib/reloc.c. Offsets are machine words: the stub's i386 code runs
 * this over every relocation of the kernel at every boot.
 */
struct reloc_stream {
	const uint8_t *at, *end; /* the table not yet read */
	uint8_t *image;
	size_t image_size;
	int64_t delta;
	size_t prev_end; /* one past the last field of the last group done */
	/* The group in progress: */
	size_t left;	 /* its fields not yet patched, a pending one included */
	size_t offset;	 /* its last field read */
	size_t room;	 /* how far its next field may lie past offset */
	size_t min_gap;	 /* the least gap to its next field: 0 before its first */
	uint32_t add, shift, span; /* what its 32-bit fields add, and which values may take it */
	uint8_t width;	 /* its fields' width in bytes */
	uint8_t pending; /* offset is read, checked for bounds, but lies beyond the limit */
	uint8_t signed_add; /* its 32-bit kind is signed and the slide fits int32 (op32_for) */
	int status;	 /* the first failure, sticky */
	/* The runs (reloc_stream_runs), or none (runs == NULL): every field is patched. */
	const uint8_t *runs, *runs_end; /* the runs not yet read */
	size_t run_left;		/* fields left in the current run */
	uint8_t run_late;		/* the current run is a late one */
	uint8_t patches_late;		/* this stream patches the late runs, not the early */
	struct reloc_op32 op32[RELOC_KIND_LAST + 1]; /* each kind's, by reloc_stream_init */
};

void reloc_stream_init(struct reloc_stream *s, uint8_t *image, uint64_t image_size,
		       const uint8_t *table, size_t table_size, int64_t delta);
int reloc_stream_patch(struct reloc_stream *s, uint64_t limit);

/*
 * Patch only some of the table's fields (after reloc_stream_init, before the first patch):
 * runs[0, runs_size) counts the fields, in table order, in alternate late and early runs,
 * late first, each a ULEB128; fields past the last run are late. The stream patches the
 * fields of the late runs (patch_late) or of the early ones, and walks over the others,
 * checking their bounds and order but never touching them, wherever the limit stands. Runs
 * left when the table ends are ignored; a malformed count is KS_EFORMAT. Two streams over
 * one table, one for each half, patch every field once (lib/reloc_schedule.h).
 */
void reloc_stream_runs(struct reloc_stream *s, const uint8_t *runs, size_t runs_size,
		       int patch_late);

/* Encoding helpers used by the packer and tests. Return bytes written, or 0 if out too small. */
size_t reloc_put_uleb128(uint8_t *out, size_t cap, uint64_t value);

#endif
