// The prelude `import-kernel --compile` includes before a kernel source (the verifier writes it; it is not
// CUTLASS's): CUDA's built-in variables and barriers, so that a kernel's body compiles as host code (the compile
// checks syntax only: nothing is generated, nothing runs), and the VERIFIER_NOTE the instrumented source writes
// after each declaration: a call of a deprecated function whose warning names the declared type.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector_types.h>   // CUDA's uint3 and dim3, the types of the built-ins (CUTLASS converts them)
// const, as cuRAND's host declarations of them (`extern const dim3 blockDim;`) have it
inline const uint3 threadIdx{}, blockIdx{}, clusterIdx{};
inline const dim3 blockDim{}, gridDim{};
inline void __syncthreads() {}
inline int __syncthreads_count(int) { return 0; }
inline int __syncthreads_and(int) { return 0; }
inline int __syncthreads_or(int) { return 0; }
inline void __syncwarp(unsigned = 0xffffffffu) {}
inline void __threadfence() {}
inline void __threadfence_block() {}
inline long long clock64() { return 0; }
inline void __nanosleep(unsigned) {}
template <class T> inline T __shfl_sync(unsigned, T v, int, int = 32) { return v; }
template <class T> inline T __shfl_xor_sync(unsigned, T v, int, int = 32) { return v; }
template <class T> inline T __shfl_down_sync(unsigned, T v, unsigned, int = 32) { return v; }
template <class T> inline T __shfl_up_sync(unsigned, T v, unsigned, int = 32) { return v; }
template <class T> inline T __ldg(T const* p) { return *p; }
inline std::size_t __cvta_generic_to_shared(const void*) { return 0; }
inline std::size_t __cvta_generic_to_global(const void*) { return 0; }
inline void* __cvta_shared_to_generic(std::size_t) { return nullptr; }
inline void* __cvta_global_to_generic(std::size_t) { return nullptr; }
template <class T, class U> inline T atomicAdd(T* p, U v) { T old = *p; *p += v; return old; }
template <class T, class U> inline T atomicSub(T* p, U v) { T old = *p; *p -= v; return old; }
inline unsigned __ballot_sync(unsigned, int) { return 0; }
inline int __any_sync(unsigned, int) { return 0; }
inline int __all_sync(unsigned, int) { return 0; }
inline unsigned __activemask() { return 0xffffffffu; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline int __ffs(int) { return 0; }
inline int __popc(unsigned) { return 0; }
inline int __clz(int) { return 0; }

// CUDA's runtime API for kernels (cuda_runtime.h declares its C++ templates only for nvcc): taking a kernel, as
// CUTLASS's adapters pass `device_kernel<GemmKernel>`
#include <cuda_runtime_api.h>
template <class T> cudaError_t cudaFuncSetAttribute(T*, enum cudaFuncAttribute, int);
template <class T> cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes*, T*);
template <class T> cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int*, T, int, size_t);
template <class T> cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int*, T, int, size_t, unsigned);
template <class T> cudaError_t cudaOccupancyMaxPotentialBlockSize(int*, int*, T, size_t = 0, int = 0);
template <class T> cudaError_t cudaLaunchKernel(T*, dim3, dim3, void**, size_t = 0, cudaStream_t = 0);
template <class... Expected, class... Actual>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t*, void (*)(Expected...), Actual&&...);

// CUDA's WMMA API (<mma.h> declares it only for nvcc): what CUTLASS's wmma wrappers name, declared for the host
namespace nvcuda { namespace wmma {
struct row_major {}; struct col_major {}; struct matrix_a {}; struct matrix_b {}; struct accumulator {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision { struct tf32 {}; }
namespace experimental {
namespace precision { struct u4 {}; struct s4 {}; struct b1 {}; }
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
}  // namespace experimental
template <class Use, int M, int N, int K, class T, class Layout = void>
struct fragment { static constexpr int num_elements = 1; T x[1]; };
template <class... A> inline void load_matrix_sync(A&&...) {}
template <class... A> inline void store_matrix_sync(A&&...) {}
template <class... A> inline void mma_sync(A&&...) {}
template <class... A> inline void bmma_sync(A&&...) {}
template <class... A> inline void fill_fragment(A&&...) {}
}}  // namespace nvcuda::wmma

namespace verifier_record {
// a note: the compiler's diagnostic for this deprecated function spells its template arguments, the declared type
// among them, as CuTe's templates computed it
template <int Line, int Column, class Tag, class T>
[[deprecated("verifier-note")]] constexpr bool note() { return true; }
}  // namespace verifier_record

#define VERIFIER_NOTE(LINE, COLUMN, ...) (void)::verifier_record::note<LINE, COLUMN, verifier_tag_, __VA_ARGS__>()

// A type alias at namespace scope (`using CollectiveMainloop = ...::CollectiveOp;`, `using GemmKernel = ...`): its
// note spells the members a CUTLASS collective mainloop declares — of the type itself, or of its CollectiveMainloop
// — each wrapped in m_<Member> (absent where it has none), so that a kernel whose body is CUTLASS's own is read.
namespace verifier_scope { struct verifier_tag_ {}; }
namespace verifier_record {
struct absent {};
template <class T, class = void> struct mainloop_of { using type = T; };
template <class T> struct mainloop_of<T, std::void_t<typename T::CollectiveMainloop>> {
  using type = typename T::CollectiveMainloop;
};
#define VERIFIER_MEMBER(NAME)                                                                                   \
  template <class M> struct m_##NAME {};                                                                        \
  template <class T, class = void> struct has_##NAME { using type = absent; };                                  \
  template <class T> struct has_##NAME<T, std::void_t<typename T::NAME>> { using type = m_##NAME<typename T::NAME>; };
VERIFIER_MEMBER(DispatchPolicy)
VERIFIER_MEMBER(TiledMma)
VERIFIER_MEMBER(ElementA)
VERIFIER_MEMBER(ElementB)
VERIFIER_MEMBER(StrideA)
VERIFIER_MEMBER(StrideB)
VERIFIER_MEMBER(SmemLayoutA)
VERIFIER_MEMBER(SmemLayoutB)
VERIFIER_MEMBER(GmemTiledCopyA)
VERIFIER_MEMBER(GmemTiledCopyB)
#undef VERIFIER_MEMBER
template <class... Members> struct collective {};
template <class T, class M = typename mainloop_of<T>::type>
using members_of = collective<typename has_DispatchPolicy<M>::type, typename has_TiledMma<M>::type,
                              typename has_ElementA<M>::type, typename has_ElementB<M>::type,
                              typename has_StrideA<M>::type, typename has_StrideB<M>::type,
                              typename has_SmemLayoutA<M>::type, typename has_SmemLayoutB<M>::type,
                              typename has_GmemTiledCopyA<M>::type, typename has_GmemTiledCopyB<M>::type>;
}  // namespace verifier_record

#define VERIFIER_SCOPE_NOTE(LINE, COLUMN, ...)                                                                  \
  static_assert(::verifier_record::note<LINE, COLUMN, ::verifier_scope::verifier_tag_,                        \
                                        ::verifier_record::members_of<__VA_ARGS__>>(), "")
