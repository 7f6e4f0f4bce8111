/*
 * Which relocations of a zstd payload the stub may patch as soon as their block is decoded
 * (image format 6, lib/reloc_schedule.h), written as the table's runs, and the proof, at
 * pack time, that patching them so gives the kernel that decoding it whole and then
 * reloc_apply give.
 */
#ifndef KSLIDE_TOOLS_PACK_EARLY_RELOCS_H
#define KSLIDE_TOOLS_PACK_EARLY_RELOCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/pack/kernel_elf.h"

/*
 * Early runs shorter than this many fields are made late: each run costs the table about
 * two bytes, and with every early field its own run the 686 kernel's image grew by 16.7 KB,
 * past the size goal; at 16, 4.0 KB for 60 % of its fields early (docs/results.md 5b).
 */
#define EARLY_RUN_MIN 32

/*
 * Decode frame (frame_size bytes, a zstd payload of file_size bytes) with lib/'s decoder,
 * watching every match (tools/pack/zstd_observed.h), and set early[i] for each of the n
 * fixups none of whose decoded bytes a block after the one that writes it reads. A field
 * that straddles two blocks counts as read later when the second block reads its first
 * part: late, which is only ever safe. Fixups past file_size (the bss) are early.
 * 0, or -1 with a message.
 */
int early_relocs_classify(const uint8_t *frame, size_t frame_size, size_t file_size,
			  const struct fixup *fixups, size_t n, bool *early, char *err,
			  size_t err_cap);

/*
 * The stub's schedule simulated (lib/reloc_schedule.c, the stub's own code, over lib/'s
 * decoder) at slide, against decoding frame whole, clearing the bss up to mem_size and
 * reloc_apply of table. 0 when reloc_apply refuses the slide (nothing to compare: *compared
 * false) or both agree byte for byte (*compared true); -1 with a message naming the first
 * byte that differs, or the schedule's failure.
 */
int early_relocs_compare(const uint8_t *frame, size_t frame_size, size_t file_size,
			 size_t mem_size, const uint8_t *table, size_t table_size,
			 const uint8_t *runs, size_t runs_size, int64_t slide, bool *compared,
			 char *err, size_t err_cap);

/*
 * The runs for an image: classify k's fixups against frame, make early runs shorter than
 * EARLY_RUN_MIN late, encode the runs (lib/reloc.h, reloc_stream_runs) into a malloc'd
 * *runs of *runs_size bytes (*early_count fixups early), then prove them with
 * early_relocs_compare and table (k's, encoded) at the first of these slides reloc_apply
 * takes: 0x10101 steps (every byte above the lowest changes), one step up, one step down.
 * When it takes none, no runs (every field late, as before format 6). -1, with a message,
 * when the proof fails.
 */
int early_relocs_runs(const struct kernel_elf *k, const uint8_t *frame, size_t frame_size,
		      const uint8_t *table, size_t table_size, uint64_t step, uint8_t **runs,
		      size_t *runs_size, size_t *early_count, char *err, size_t err_cap);

#endif
