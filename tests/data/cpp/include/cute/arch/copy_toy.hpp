// Miniature arch header for tests/test_importer.py: copy Ops and their instructions.
#pragma once

namespace cute
{

struct TOY_U32x4_LDSM_N
{
  CUTE_HOST_DEVICE static void
  copy(uint128_t const& smem_src, uint32_t& dst0, uint32_t& dst1, uint32_t& dst2, uint32_t& dst3)
  {
    uint32_t smem_int_ptr = cast_smem_ptr_to_uint(&smem_src);
    asm volatile ("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n"
        : "=r"(dst0), "=r"(dst1), "=r"(dst2), "=r"(dst3)
        :  "r"(smem_int_ptr));
  }
};

struct TOY_U32x4_STSM_N
{
  CUTE_HOST_DEVICE static void
  copy(uint32_t const& src0, uint32_t const& src1, uint32_t const& src2, uint32_t const& src3, uint128_t& smem_dst)
  {
    uint32_t smem_int_ptr = cast_smem_ptr_to_uint(&smem_dst);
    asm volatile ("stmatrix.sync.aligned.x4.m8n8.shared.b16 [%0], {%1, %2, %3, %4};\n"
        :: "r"(smem_int_ptr), "r"(src0), "r"(src1), "r"(src2), "r"(src3));
  }
};

struct TOY_U32x1_MOVM_T
{
  CUTE_HOST_DEVICE static void
  copy(uint32_t const& src, uint32_t& dst)
  {
    asm volatile ("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;\n" : "=r"(dst) : "r"(src));
  }
};

/// cp.async: sizes the instruction cannot move are refused by the Op itself
template <class TS, class TD = TS>
struct TOY_CP_ASYNC_CACHEALWAYS
{
  using SRegisters = TS[1];
  using DRegisters = TD[1];

  static_assert(sizeof(TS) == sizeof(TD), "cp.async requires sizeof(src_value_type) == sizeof(dst_value_type)");
  static_assert(sizeof(TS) == 4 || sizeof(TS) == 8 || sizeof(TS) == 16, "cp.async sizeof(TS) is not supported");

  CUTE_HOST_DEVICE static void
  copy(TS const& gmem_src, TD& smem_dst)
  {
    TS const* gmem_ptr    = &gmem_src;
    uint32_t smem_int_ptr = cast_smem_ptr_to_uint(&smem_dst);
    asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], %2;\n"
        :: "r"(smem_int_ptr), "l"(gmem_ptr), "n"(sizeof(TS)));
  }
};

// A warp shuffle of 64-bit values: no asm (the instruction is the Op's name)
struct TOY_U64x1_SHFL { };

struct TOY_TMA_LOAD { };

} // end namespace cute
