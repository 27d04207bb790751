#pragma once
/* zlib, as the system has it: the PNG strip deflater's checksums and inflate (CPNGStripDeflate),
   and tests that inflate its output. */
#include <zlib.h>
