/*
 * The exception vectors 0..31 and whether the CPU pushes an error code for each (Intel SDM
 * Vol. 3A, table 6-1), as an X-macro for the entry stubs of both arches:
 * TRAP_VECTORS(V) expands to V(vector, cpu_pushes_error) once per vector.
 */
#ifndef KSLIDE_KERNEL_CPU_TRAP_VECTORS_H
#define KSLIDE_KERNEL_CPU_TRAP_VECTORS_H

#define TRAP_VECTOR_COUNT 32

#define TRAP_VECTORS(V)                                                                     \
	V(0, 0) V(1, 0) V(2, 0) V(3, 0) V(4, 0) V(5, 0) V(6, 0) V(7, 0) V(8, 1) V(9, 0)      \
	V(10, 1) V(11, 1) V(12, 1) V(13, 1) V(14, 1) V(15, 0) V(16, 0) V(17, 1) V(18, 0)     \
	V(19, 0) V(20, 0) V(21, 1) V(22, 0) V(23, 0) V(24, 0) V(25, 0) V(26, 0) V(27, 0)     \
	V(28, 0) V(29, 1) V(30, 1) V(31, 0)

#endif
