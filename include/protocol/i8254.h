/*
 * Intel 8254 Programmable Interval Timer (datasheet 231164, "Control Word Format" and
 * "Counter Latch Command"). Channel 0 runs free at 1.193182 MHz; the BIOS programs it for
 * low-byte-then-high-byte access, which lib/entropy.c and lib/jitter.c assume.
 *
 *	control word  7 6 | 5 4 | 3 2 1 | 0
 *	              SC  | RW  |   M   | BCD     SC=00 channel 0, RW=00 counter latch command
 */
#ifndef KSLIDE_PROTOCOL_I8254_H
#define KSLIDE_PROTOCOL_I8254_H

#define PIT_HZ 1193182u
#define PIT_PORT_CH0 0x40u  /* channel 0 data */
#define PIT_PORT_CMD 0x43u  /* mode/command register, write only */
#define PIT_LATCH_CH0 0x00u /* SC=00, RW=00: latch channel 0's count */

#endif
