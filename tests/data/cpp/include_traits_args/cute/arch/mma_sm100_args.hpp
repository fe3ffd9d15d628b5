// Miniature SM100 UMMA arch header for tests/test_importer.py (written for the tests in CuTe's spelling; not
// CUTLASS's file).  An Op that is no template, as CUTLASS 4.2 writes SM100_MMA_F8F6F4_SS: its types, M and N are
// the traits' template arguments and go to the instruction descriptor, so the asm names none of them.
#pragma once

#include <cute/config.hpp>

namespace cute {

namespace UMMA {
enum class Major : uint8_t { K = 0, MN = 1 };
enum class ScaleIn : uint8_t { One = 0, Neg = 1 };
} // namespace UMMA

struct SM100_MMA_F8F6F4_SS
{
  CUTE_HOST_DEVICE static void
  fma(uint64_t const& desc_a, uint64_t const& desc_b, uint32_t const& tmem_c, uint32_t const& scale_c, uint64_t const& idesc)
  {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f8f6f4 [%0], %1, %2, %3, p; \n\t}\n"
                 :: "r"(tmem_c), "l"(desc_a), "l"(desc_b), "r"(uint32_t(idesc >> 32)), "r"(scale_c));
  }
};

} // namespace cute
