#include "cpu_features.h"

#ifdef CELLHOST_CPU_VARIANTS
#include <cpuid.h>

enum { CPU_AVX2 = 1, CPU_AVX512 = 2 };

/* The CPU_ bits this processor and OS support. Racing first calls probe alike and store the same
   value, so a relaxed atomic is enough. */
static int cpu_features(void) {
    static int known = -1;
    int value = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (value < 0) {
        unsigned a, b, c, d;
        value = 0;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
            unsigned lo, hi;
            __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            /* XMM and YMM state saved by the OS. */
            if ((lo & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2)) {
                value |= CPU_AVX2;
                /* Opmask and both halves of the ZMM registers saved too. */
                if ((lo & 0xE6) == 0xE6 && (b & bit_AVX512F) && (b & bit_AVX512BW) && (b & bit_AVX512VL)) {
                    value |= CPU_AVX512;
                }
            }
        }
        __atomic_store_n(&known, value, __ATOMIC_RELAXED);
    }
    return value;
}

int cellhost_cpu_has_avx2(void) { return (cpu_features() & CPU_AVX2) != 0; }
int cellhost_cpu_has_avx512(void) { return (cpu_features() & CPU_AVX512) != 0; }
#endif
