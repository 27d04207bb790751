#pragma once

/* Which processor-specific builds of the encoder's per-pixel passes this machine may run. The
   passes over every pixel of a strip are compiled a second time for AVX2 (twice the pixels per
   compare and sum of baseline x86-64) and the checksum a third time for AVX-512 (sixteen pixels
   per sum); each is chosen at run time, so one binary runs on every x86-64 processor. Elsewhere
   only the baseline build exists. */

#if defined(__x86_64__) && defined(__clang__)
#define CELLHOST_CPU_VARIANTS 1

/* 1 when the processor has AVX2 and the OS saves the YMM registers; probed once. */
int cellhost_cpu_has_avx2(void);

/* 1 when the processor has AVX-512 F, BW and VL besides AVX2 and the OS saves the opmask and
   ZMM registers; probed once. */
int cellhost_cpu_has_avx512(void);
#endif
