// Miniature GMMA shared-memory layout atoms for tests/test_importer.py (written for the tests, in CuTe's style).
#pragma once

namespace cute {
namespace SM90::GMMA {

// K-major 128-byte swizzle atom in bits: (8 rows, 1024 bits) -> bit, as the verifier's fact has it
using Layout_K_SW128_Atom_Bits  = ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag, Layout<Shape<_8,_1024>,Stride<_1024,_1>>>;
// an MN-major 64-byte atom with a wrong K stride (256 bits where the fact says 512): the import must say so
using Layout_MN_SW64_Atom_Bits  = ComposedLayout<Swizzle<2,4,3>, smem_ptr_flag, Layout<Shape< _512,_8>,Stride<_1, _256>>>;

} // end namespace SM90::GMMA
} // end namespace cute
