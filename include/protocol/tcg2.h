/*
 * Measured boot: the TCG EFI Protocol Specification (TPM 2.0, rev. 1.22: EFI_TCG2_PROTOCOL,
 * its event and the crypto-agile event log), the TCG PC Client Platform Firmware Profile
 * (event types, the log's first "Spec ID Event03" entry), and the two configuration tables by
 * which Linux finds the log when no EFI stub of its own ran (include/linux/efi.h,
 * include/linux/tpm_eventlog.h). Offsets in bytes, little-endian.
 */
#ifndef KSLIDE_PROTOCOL_TCG2_H
#define KSLIDE_PROTOCOL_TCG2_H

#include "include/protocol/number.h"

/* EFI_TCG2_PROTOCOL: GetCapability, GetEventLog, HashLogExtendEvent, ... (pointers). */
#define EFI_TCG2_GUID_LOW	     PROTOCOL_U(0x42be7455607f766c) /* 607f766c-7455-42be- */
#define EFI_TCG2_GUID_HIGH	     PROTOCOL_U(0x0f72b26dd7e40b93) /* 930b-e4d76db2720f */
#define EFI_TCG2_GET_EVENT_LOG	     8
#define EFI_TCG2_HASH_LOG_EXTEND     16
#define EFI_TCG2_LOG_FORMAT_TCG_2    2 /* the crypto-agile log */

/* EFI_TCG2_EVENT: Size (u32, the whole structure), then a packed header of HeaderSize (u32),
 * HeaderVersion (u16), PCRIndex (u32), EventType (u32), then the event data. */
#define EFI_TCG2_EVENT_HEADER_AT      4
#define EFI_TCG2_EVENT_HEADER_SIZE    14
#define EFI_TCG2_EVENT_HEADER_VERSION 1
#define EFI_TCG2_EVENT_DATA_AT	      (EFI_TCG2_EVENT_HEADER_AT + EFI_TCG2_EVENT_HEADER_SIZE)

/* Event types (PC Client PFP, 10.4.1). */
#define TCG_EV_NO_ACTION PROTOCOL_U(0x00000003)
#define TCG_EV_EVENT_TAG PROTOCOL_U(0x00000006)
#define TCG_EV_IPL	 PROTOCOL_U(0x0000000d)

/* Linux's EFI stub measures its initrd and its load options into PCR 9 as tagged events:
 * TCG_PCClientTaggedEvent, an ID and the size of the data that follows (the names below,
 * their NUL included). */
#define TCG_LINUX_PCR		    9
#define TCG_TAG_LINUX_INITRD	    PROTOCOL_U(0x8f3b22ec)
#define TCG_TAG_LINUX_LOAD_OPTIONS  PROTOCOL_U(0x8f3b22ed)
#define TCG_TAG_LINUX_INITRD_NAME   "Linux initrd"
#define TCG_TAG_LINUX_OPTIONS_NAME  "LOADED_IMAGE::LoadOptions"

/* The crypto-agile log: a first event in the SHA-1 format (TCG_PCR_EVENT: PCR, type, a
 * 20-byte digest, the data's size, the data), whose data is the Spec ID event naming each
 * algorithm's digest size; then TCG_PCR_EVENT2 entries (PCR, type, the digests' count, each
 * digest an algorithm ID and its bytes, the data's size, the data). */
#define TCG_PCR_EVENT_DIGEST_AT	   8
#define TCG_PCR_EVENT_DATA_SIZE_AT 28
#define TCG_PCR_EVENT_DATA_AT	   32
#define TCG_SPEC_ID_SIGNATURE	   "Spec ID Event03" /* 16 bytes with its NUL */
#define TCG_SPEC_ID_SIGNATURE_SIZE 16
#define TCG_SPEC_ID_ALGORITHMS_AT  24 /* numberOfAlgorithms, then {u16 id, u16 size} each */
#define TCG_PCR_EVENT2_COUNT_AT	   8
#define TCG_PCR_EVENT2_DIGESTS_AT  12

/* Linux's own configuration tables for the log: LINUX_EFI_TPM_EVENT_LOG_GUID holds struct
 * linux_efi_tpm_eventlog (size, final_events_preboot_size, version, the log's bytes); the
 * firmware's final-events table (EFI_TCG2_FINAL_EVENTS_TABLE_GUID: version u64, the events'
 * count u64, the events) holds what was logged after the first GetEventLog. */
#define LINUX_EFI_TPM_EVENT_LOG_GUID_LOW  PROTOCOL_U(0x4943eca2b7799cb0) /* b7799cb0-eca2-4943- */
#define LINUX_EFI_TPM_EVENT_LOG_GUID_HIGH PROTOCOL_U(0xfa47b707ae1f6796) /* 9667-1fae07b747fa */
#define LINUX_TPM_LOG_HEADER		  9
#define EFI_TCG2_FINAL_EVENTS_GUID_LOW	  PROTOCOL_U(0x425430e21e2ed096) /* 1e2ed096-30e2-4254- */
#define EFI_TCG2_FINAL_EVENTS_GUID_HIGH	  PROTOCOL_U(0x2523f8be3b8689bd) /* bd89-863bbef82325 */
#define EFI_TCG2_FINAL_EVENTS_COUNT_AT	  8
#define EFI_TCG2_FINAL_EVENTS_AT	  16

#endif
