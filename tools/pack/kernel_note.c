/*
 * Reading the kslide note (include/kslide/kernel.h) with libelf: any SHT_NOTE section whose
 * note has owner "kslide" and type KSLIDE_NOTE_KERNEL; usually `.kslide.note`. Version 1 names
 * the handoff, version 2 the kernel's limits too.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "include/kslide/kernel.h"
#include "lib/unaligned.h"
#include "tools/pack/kernel_note.h"

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)load_le32(p) | (uint64_t)load_le32(p + 4) << 32;
}

static int read_desc(const uint8_t *desc, size_t size, struct kernel_note *note, char *err,
		     size_t err_cap)
{
	if (size < KSLIDE_NOTE_DESC_SIZE_V1) {
		snprintf(err, err_cap, "its kslide note is %zu bytes, too short", size);
		return -1;
	}
	uint32_t version = load_le32(desc + KSLIDE_NOTE_DESC_VERSION);
	size_t want = version == KSLIDE_NOTE_VERSION_HANDOFF ? KSLIDE_NOTE_DESC_SIZE_V1
		      : version == KSLIDE_NOTE_VERSION	     ? KSLIDE_NOTE_DESC_SIZE
							     : 0;
	if (!want) {
		snprintf(err, err_cap, "its kslide note is version %u; this kslide-pack reads %u and %u",
			 (unsigned)version, (unsigned)KSLIDE_NOTE_VERSION_HANDOFF,
			 (unsigned)KSLIDE_NOTE_VERSION);
		return -1;
	}
	if (size < want) {
		snprintf(err, err_cap, "its kslide note (version %u) is %zu bytes; that version has %zu",
			 (unsigned)version, size, want);
		return -1;
	}
	note->present = true;
	note->version = version;
	note->handoff = load_le32(desc + KSLIDE_NOTE_DESC_HANDOFF);
	if (version == KSLIDE_NOTE_VERSION_HANDOFF)
		return 0;
	note->phys_end = get64(desc + KSLIDE_NOTE_DESC_PHYS_END);
	note->align = get64(desc + KSLIDE_NOTE_DESC_ALIGN);
	note->virt_min = get64(desc + KSLIDE_NOTE_DESC_VIRT_MIN);
	note->virt_end = get64(desc + KSLIDE_NOTE_DESC_VIRT_END);
	return 0;
}

bool kernel_note_has_limits(const struct kernel_note *note)
{
	return note->phys_end || note->align || note->virt_min || note->virt_end;
}

int kernel_note_read(const uint8_t *file, size_t len, struct kernel_note *note, char *err,
		     size_t err_cap)
{
	memset(note, 0, sizeof(*note));
	elf_version(EV_CURRENT);
	Elf *e = elf_memory((char *)file, len);
	if (!e)
		return 0; /* not ELF at all: the kernel reader says so */
	int rc = 0;
	Elf_Scn *scn = NULL;
	while (rc == 0 && !note->present && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		GElf_Nhdr nh;
		size_t at = 0, name_at, desc_at, next;
		while (d && (next = gelf_getnote(d, at, &nh, &name_at, &desc_at)) > 0) {
			const char *owner = (const char *)d->d_buf + name_at;
			if (nh.n_type == KSLIDE_NOTE_KERNEL &&
			    nh.n_namesz == sizeof(KSLIDE_NOTE_OWNER) &&
			    memcmp(owner, KSLIDE_NOTE_OWNER, sizeof(KSLIDE_NOTE_OWNER)) == 0) {
				rc = read_desc((const uint8_t *)d->d_buf + desc_at, nh.n_descsz, note,
					       err, err_cap);
				break;
			}
			at = next;
		}
	}
	elf_end(e);
	return rc;
}
