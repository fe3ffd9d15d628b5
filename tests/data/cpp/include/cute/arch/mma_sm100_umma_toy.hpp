// Miniature SM100 UMMA arch header for tests/test_importer.py (written for the tests in CuTe's spelling; not
// CUTLASS's file).  Two Ops with the names instances.py has rules for: M and N go to the instruction
// descriptor, so the asm names neither.
#pragma once

#include <cute/config.hpp>

namespace cute {

namespace UMMA {
enum class Major : uint8_t { K = 0, MN = 1 };
enum class ScaleIn : uint8_t { One = 0, Neg = 1 };
} // namespace UMMA

// A from tensor memory, one CTA
template <class a_type, class b_type, class c_type, int M, int N,
          UMMA::Major a_major, UMMA::Major b_major,
          UMMA::ScaleIn a_neg = UMMA::ScaleIn::One, UMMA::ScaleIn b_neg = UMMA::ScaleIn::One>
struct SM100_MMA_F16BF16_TS
{
  static_assert(M == 64 || M == 128, "toy: M is 64 or 128 for one CTA");
  static_assert((M == 64 && N % 8 == 0 && 8 <= N && N <= 256) || (M == 128 && N % 16 == 0 && 16 <= N && N <= 256),
                "toy: N steps by 8 (M = 64) or 16 (M = 128)");

  CUTE_HOST_DEVICE static void
  fma(uint32_t const& tmem_a, uint64_t const& desc_b, uint32_t const& tmem_c, uint32_t const& scale_c, uint64_t const& idesc)
  {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], [%1], %2, %3, p; \n\t}\n"
                 :: "r"(tmem_c), "r"(tmem_a), "l"(desc_b), "r"(uint32_t(idesc >> 32)), "r"(scale_c));
  }
};

// A and B from shared memory, a CTA pair
template <class a_type, class b_type, class c_type, int M, int N,
          UMMA::Major a_major, UMMA::Major b_major,
          UMMA::ScaleIn a_neg = UMMA::ScaleIn::One, UMMA::ScaleIn b_neg = UMMA::ScaleIn::One>
struct SM100_MMA_F16BF16_2x1SM_SS
{
  static_assert(M == 128 || M == 256, "toy: M is 128 or 256 for a CTA pair");
  static_assert(N % 16 == 0 && 16 <= N && N <= 256, "toy: N steps by 16");

  CUTE_HOST_DEVICE static void
  fma(uint64_t const& desc_a, uint64_t const& desc_b, uint32_t const& tmem_c, uint32_t const& scale_c, uint64_t const& idesc)
  {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, p; \n\t}\n"
                 :: "r"(tmem_c), "l"(desc_a), "l"(desc_b), "r"(uint32_t(idesc >> 32)), "r"(scale_c));
  }
};

} // namespace cute
