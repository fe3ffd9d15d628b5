// The prelude `import-kernel --compile` includes before a kernel source (the verifier writes it; it is not
// CUTLASS's): CUDA's built-in variables and barriers, so that a kernel's body compiles as host code (the compile
// checks syntax only: nothing is generated, nothing runs), and the VERIFIER_NOTE the instrumented source writes
// after each declaration: a call of a deprecated function whose warning names the declared type.
#pragma once

struct verifier_uint3 { unsigned x = 0, y = 0, z = 0; };
inline verifier_uint3 threadIdx{}, blockIdx{}, blockDim{}, gridDim{}, clusterIdx{};
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
template <class T, class U> inline T atomicAdd(T* p, U v) { T old = *p; *p += v; return old; }

namespace verifier_record {
// a note: the compiler's diagnostic for this deprecated function spells its template arguments, the declared type
// among them, as CuTe's templates computed it
template <int Line, int Column, class Tag, class T>
[[deprecated("verifier-note")]] constexpr bool note() { return true; }
}  // namespace verifier_record

#define VERIFIER_NOTE(LINE, COLUMN, ...) (void)::verifier_record::note<LINE, COLUMN, verifier_tag_, __VA_ARGS__>()
