/*
 * Unsigned constants that assembler can use too: PROTOCOL_U(0x1BADB002) is 0x1BADB002u in C
 * and 0x1BADB002 in a .S file (GNU as takes no suffix).
 */
#ifndef KSLIDE_PROTOCOL_NUMBER_H
#define KSLIDE_PROTOCOL_NUMBER_H

#ifdef __ASSEMBLER__
#define PROTOCOL_U(x) x
#else
#define PROTOCOL_U(x) x##u
#endif

#endif
