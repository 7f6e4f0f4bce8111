/*
 * UEFI and the PE32+ file it loads applications from. The PE/COFF fields from Microsoft's
 * "PE Format" specification (the layout UEFI 2.10, section 2.1.1, requires of an image); the
 * EFI status codes from UEFI 2.10 Appendix D. Offsets are in bytes, all little-endian. The
 * container (tools/pack/container_efi.c) and the stub's EFI entry (boot/x86_64/efi_entry.S)
 * take them from here.
 */
#ifndef KSLIDE_PROTOCOL_UEFI_H
#define KSLIDE_PROTOCOL_UEFI_H

#include "include/protocol/number.h"

/* The DOS header: "MZ" at 0, the PE header's offset at 0x3c. */
#define PE_DOS_MAGIC  0x5a4d
#define PE_DOS_LFANEW 0x3c
#define PE_SIGNATURE  PROTOCOL_U(0x00004550) /* "PE\0\0" */

/* The COFF file header, right after the signature. */
#define PE_COFF_SIZE		 20
#define PE_MACHINE_AMD64	 0x8664
#define PE_FILE_EXECUTABLE_IMAGE 0x0002
#define PE_FILE_LARGE_ADDRESS	 0x0020
#define PE_FILE_DEBUG_STRIPPED	 0x0200

/* The PE32+ optional header, with its 16 data directories. */
#define PE_OPT_MAGIC_PE32PLUS	     0x020b
#define PE_OPT_SIZE		     240
#define PE_OPT_DIRECTORIES	     16
#define PE_OPT_CHECKSUM		     64 /* its offset in the optional header */
#define PE_SUBSYSTEM_EFI_APPLICATION 10
#define PE_IMAGE_BASE_ALIGN	     0x10000 /* "a multiple of 64 K" */
#define PE_FILE_ALIGN		     512     /* the smallest FileAlignment */
#define PE_SECTION_ALIGN	     4096
#define PE_OPT_SIZE_OF_HEADERS	     60  /* offsets in the optional header, PE32+ */
#define PE_OPT_DATA_DIRS	     112 /* the data directories: 8 bytes each */
#define PE_DIR_SIZE		     8	 /* an RVA (a file offset for the certificates), a size */
#define PE_DIR_SECURITY		     4	 /* the certificate table's entry */

/* The attribute certificate table (PE Format, "The Attribute Certificate Table"): at the
 * end of the file, not loaded, each entry a WIN_CERTIFICATE (dwLength, wRevision,
 * wCertificateType, then the certificate) starting on an 8-byte boundary. */
#define PE_WIN_CERT_HEADER	       8
#define PE_WIN_CERT_ALIGN	       8
#define PE_WIN_CERT_REVISION_2_0       0x0200
#define PE_WIN_CERT_TYPE_PKCS_SIGNED_DATA 0x0002

/* A section header. */
#define PE_SECTION_SIZE		40
#define PE_SCN_CODE		PROTOCOL_U(0x00000020)
#define PE_SCN_INITIALIZED_DATA PROTOCOL_U(0x00000040)
#define PE_SCN_EXECUTE		PROTOCOL_U(0x20000000)
#define PE_SCN_READ		PROTOCOL_U(0x40000000)
#define PE_SCN_WRITE		PROTOCOL_U(0x80000000)

/* EFI_STATUS: errors have the top bit set. */
#define EFI_SUCCESS	      0
#define EFI_ERROR_BIT	      PROTOCOL_U(0x8000000000000000)
#define EFI_LOAD_ERROR	      (EFI_ERROR_BIT | 1)
#define EFI_INVALID_PARAMETER (EFI_ERROR_BIT | 2)
#define EFI_UNSUPPORTED	      (EFI_ERROR_BIT | 3)
#define EFI_BUFFER_TOO_SMALL  (EFI_ERROR_BIT | 5)
#define EFI_NOT_FOUND	      (EFI_ERROR_BIT | 14)

/* EFI_SYSTEM_TABLE (UEFI 2.10, 4.3): its signature "IBI SYST" and the boot services' table. */
#define EFI_ST_SIGNATURE     PROTOCOL_U(0x5453595320494249)
#define EFI_ST_RUNTIME_SERVICES 88
#define EFI_ST_BOOT_SERVICES 96
#define EFI_ST_TABLE_ENTRIES 104 /* NumberOfTableEntries */
#define EFI_ST_CONFIG_TABLE  112 /* EFI_CONFIGURATION_TABLE[]: a GUID, then a pointer */
#define EFI_CONFIG_ENTRY_SIZE 24

/* The configuration table's ACPI entries (UEFI 2.10, 4.6.1): the RSDP, 2.0 preferred. */
#define EFI_ACPI_20_GUID_LOW  PROTOCOL_U(0x11d3e4f18868e871) /* 8868e871-e4f1-11d3- */
#define EFI_ACPI_20_GUID_HIGH PROTOCOL_U(0x81883cc7800022bc) /* bc22-0080c73c8881 */
#define EFI_ACPI_10_GUID_LOW  PROTOCOL_U(0x11d32d88eb9d2d30) /* eb9d2d30-2d88-11d3- */
#define EFI_ACPI_10_GUID_HIGH PROTOCOL_U(0x4dc13f279000169a) /* 9a16-0090273fc14d */

/* EFI_BOOT_SERVICES (UEFI 2.10, 4.4): offsets of the functions the stub calls, each a
 * pointer after the 24-byte table header. */
#define EFI_BS_ALLOCATE_PAGES	  40
#define EFI_BS_GET_MEMORY_MAP	  56
#define EFI_BS_ALLOCATE_POOL	  64
#define EFI_BS_HANDLE_PROTOCOL	  152
#define EFI_BS_LOCATE_DEVICE_PATH 184
#define EFI_BS_INSTALL_CONFIG_TABLE 192
#define EFI_BS_EXIT_BOOT_SERVICES 232
#define EFI_BS_LOCATE_PROTOCOL	  320

/* EFI_RUNTIME_SERVICES (UEFI 2.10, 4.5): GetVariable(Name, VendorGuid, Attributes, DataSize,
 * Data) after the header and six functions; the global variables' vendor (3.3). */
#define EFI_RT_GET_VARIABLE	      72
#define EFI_GLOBAL_VARIABLE_GUID_LOW  PROTOCOL_U(0x11d293ca8be4df61) /* 8be4df61-93ca-11d2- */
#define EFI_GLOBAL_VARIABLE_GUID_HIGH PROTOCOL_U(0x8c2b0398e0000daa) /* aa0d-00e098032b8c */

/* EFI_RNG_PROTOCOL (UEFI 2.10, 37.5): GetRNG(This, Algorithm, Length, Value) after GetInfo;
 * Algorithm NULL takes the firmware's default. */
#define EFI_RNG_GUID_LOW  PROTOCOL_U(0x433deade3152bca5) /* 3152BCA5-EADE-433D- */
#define EFI_RNG_GUID_HIGH PROTOCOL_U(0x441f29dc1cc02e86) /* 862E-C01CDC291F44 */
#define EFI_RNG_GET_RNG	  8

/* EFI_LOADED_IMAGE_PROTOCOL (UEFI 2.10, 9.1): where the firmware loaded the image, and its
 * size (SizeOfImage), by the image's handle. */
#define EFI_LOADED_IMAGE_GUID_LOW  PROTOCOL_U(0x11d295625b1b31a1) /* 5B1B31A1-9562-11d2- */
#define EFI_LOADED_IMAGE_GUID_HIGH PROTOCOL_U(0x3b7269c9a0003f8e) /* 8E3F-00A0C969723B */
#define EFI_LI_DEVICE_HANDLE	   24
#define EFI_LI_LOAD_OPTIONS_SIZE   48 /* u32, in bytes */
#define EFI_LI_LOAD_OPTIONS	   56 /* UTF-16LE, not necessarily NUL-terminated */
#define EFI_LI_IMAGE_BASE	   64
#define EFI_LI_IMAGE_SIZE	   72

/* AllocatePages (UEFI 2.10, 7.2): below a maximum address, as loader data. */
#define EFI_ALLOCATE_MAX_ADDRESS 1

/* Linux's initrd device path (drivers/firmware/efi/libstub/efi-stub-helper.c): a vendor
 * media node (UEFI 2.10, 10.3.5.3: type 4, subtype 3, a GUID) of LINUX_EFI_INITRD_MEDIA_GUID
 * and the end node, on a handle with EFI_LOAD_FILE2_PROTOCOL, whose LoadFile(This, FilePath,
 * BootPolicy, *BufferSize, Buffer) is its first member (UEFI 2.10, 13.2). */
#define EFI_LOAD_FILE2_GUID_LOW	      PROTOCOL_U(0x403efcb34006c0c1) /* 4006c0c1-fcb3-403e- */
#define EFI_LOAD_FILE2_GUID_HIGH      PROTOCOL_U(0x6de024876c4a6d99) /* 996d-4a6c8724e06d */
#define LINUX_EFI_INITRD_MEDIA_GUID_LOW  PROTOCOL_U(0x4f3d68fc5568e427) /* 5568e427-68fc-4f3d- */
#define LINUX_EFI_INITRD_MEDIA_GUID_HIGH PROTOCOL_U(0x68cc315255ca74ac) /* ac74-ca555231cc68 */
#define EFI_DP_MEDIA		      4
#define EFI_DP_MEDIA_VENDOR	      3
#define EFI_DP_END		      0x7f
#define EFI_DP_END_ENTIRE	      0xff
#define EFI_DP_HEADER_SIZE	      4
#define EFI_LOAD_FILE2_LOAD_FILE      0

/* EFI_SIMPLE_FILE_SYSTEM_PROTOCOL (UEFI 2.10, 13.4): OpenVolume after the revision; and the
 * EFI_FILE_PROTOCOL it opens (13.5), each member a pointer after the revision. */
#define EFI_SIMPLE_FS_GUID_LOW	 PROTOCOL_U(0x11d26459964e5b22) /* 964e5b22-6459-11d2- */
#define EFI_SIMPLE_FS_GUID_HIGH	 PROTOCOL_U(0x3b7269c9a000398e) /* 8e39-00a0c969723b */
#define EFI_SFS_OPEN_VOLUME	 8
#define EFI_FILE_OPEN		 8
#define EFI_FILE_CLOSE		 16
#define EFI_FILE_READ		 32
#define EFI_FILE_GET_POSITION	 48
#define EFI_FILE_SET_POSITION	 56
#define EFI_FILE_MODE_READ	 1
#define EFI_FILE_POSITION_END	 PROTOCOL_U(0xffffffffffffffff) /* SetPosition: the end */

/* EFI_MEMORY_DESCRIPTOR (UEFI 2.10, 7.2 GetMemoryMap): the firmware's descriptor size may be
 * larger than these 40 bytes, and the map is read by that size. */
#define EFI_MD_TYPE		 0
#define EFI_MD_PHYSICAL_START	 8
#define EFI_MD_NUMBER_OF_PAGES	 24
#define EFI_MD_SIZE		 40
#define EFI_PAGE_SIZE		 4096
#define EFI_LOADER_CODE		 1
#define EFI_LOADER_DATA		 2
#define EFI_BOOT_SERVICES_CODE	 3
#define EFI_BOOT_SERVICES_DATA	 4
#define EFI_CONVENTIONAL_MEMORY	 7
#define EFI_UNUSABLE_MEMORY	 8
#define EFI_ACPI_RECLAIM_MEMORY	 9
#define EFI_ACPI_MEMORY_NVS	 10

/* kslide's own: the x86-64 stub names its EFI entry (a 64-bit address as linked) after these
 * 8 bytes (boot/x86_64/efi_header.S), for kslide-pack to point the PE's entry at it. */
#define KSLIDE_EFI_MARK	     "KSEFI64"
#define KSLIDE_EFI_MARK_SIZE 8 /* with its NUL */

#endif
