// Miniature arch header for tests/test_importer.py (written for the tests, in CuTe's style; not CUTLASS).
// The Ops' asm strings give the atoms' instructions.
#pragma once

#include <cute/config.hpp>

#if (defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800))
#  define TOY_MMA_ENABLED
#endif

namespace cute {

struct TOY_16x8x8_F16F16F16F16_TN
{
  using DRegisters = uint32_t[2];
  using ARegisters = uint32_t[2];
  using BRegisters = uint32_t[1];
  using CRegisters = uint32_t[2];

  CUTE_HOST_DEVICE static void
  fma(uint32_t& d0, uint32_t& d1, uint32_t const& a0, uint32_t const& a1,
      uint32_t const& b0, uint32_t const& c0, uint32_t const& c1)
  {
#if defined(TOY_MMA_ENABLED)
    asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 "
      "{%0, %1},"
      "{%2, %3},"
      "{%4},"
      "{%5, %6};\n"
      : "=r"(d0), "=r"(d1)
      :  "r"(a0),  "r"(a1), "r"(b0), "r"(c0),  "r"(c1));
#else
    CUTE_INVALID_CONTROL_PATH("Attempting to use TOY_16x8x8_F16F16F16F16_TN without TOY_MMA_ENABLED");
#endif
  }
};

struct TOY_16x8x8_F32F16F16F32_TN
{
  CUTE_HOST_DEVICE static void
  fma(float& d0, uint32_t const& a0, uint32_t const& b0, float const& c0)
  {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};\n"
      : "=f"(d0) : "r"(a0), "r"(b0), "f"(c0));
  }
};

struct TOY_16x8x8_F32F16F16F32_TN_SATURATE
{
  CUTE_HOST_DEVICE static void
  fma(float& d0, uint32_t const& a0, uint32_t const& b0, float const& c0)
  {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32.satfinite {%0, %1, %2, %3},"
                 "{%4, %5}, {%6}, {%7, %8, %9, %10};\n" : "=f"(d0) : "r"(a0), "r"(b0), "f"(c0));
  }
};

struct TOY_8x8x4_F64F64F64F64_TN
{
  CUTE_HOST_DEVICE static void
  fma(double& d0, double& d1, double const& a0, double const& b0, double const& c0, double const& c1)
  {
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};\n"
      : "=d"(d0), "=d"(d1) : "d"(a0), "d"(b0), "d"(c0), "d"(c1));
  }
};

// Complex MMA built from four real ones: no asm of its own, and a value type that is a struct
struct TOY_8x8x4_GC64_TN
{
  struct Gauss {
    double t0, t1, t2;
    CUTE_HOST_DEVICE operator double() const { return t0 - t1; }
  };
  CUTE_HOST_DEVICE static void fma(Gauss& d, double const& a) { TOY_8x8x4_F64F64F64F64_TN::fma(d.t0, d.t1, a, a, a, a); }
};

namespace TOY {

enum class Major {
  K  = 0,
  MN = 1
};

template <Major tnspA, Major tnspB>
struct MMA_64x16x16_F16F16F16_SS
{
  static_assert(tnspA == Major::K || tnspA == Major::MN, "Major is K or MN.");

  CUTE_HOST_DEVICE static void
  fma(uint64_t const& desc_a, uint64_t const& desc_b, uint32_t& d00, uint32_t& d01, int scale_D)
  {
    asm volatile(
    "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %4, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16 "
      "{%0, %1},"
      " %2,"
      " %3,"
      " p, %5, %6, %7, %8;\n"
    "}\n"
      : "+r"(d00), "+r"(d01)
      :  "l"(desc_a), "l"(desc_b), "r"(scale_D), "n"(1), "n"(1), "n"(int32_t(tnspA)), "n"(int32_t(tnspB)));
  }
};

} // namespace TOY

template <class D, class A = D, class B = A, class C = D>
struct UniversalFMA
{
  CUTE_HOST_DEVICE static constexpr void fma(D& d, A const& a, B const& b, C const& c) { d = a * b + c; }
};

template <class a_type, int N>
struct TOY_UMMA { };

} // namespace cute
