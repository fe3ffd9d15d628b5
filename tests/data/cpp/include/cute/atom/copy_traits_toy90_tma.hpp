// Miniature TMA copy traits for tests/test_importer.py (written for the tests, in CuTe's style).
#pragma once

namespace cute {

struct SM90_TMA_LOAD_OP : SM90_TMA_LOAD {};

// The tiled TMA load: its layouts depend on the tensor map, not on a warp's registers
template <class NumBitsPerTMA, class AuxParams_>
struct Copy_Traits<SM90_TMA_LOAD, NumBitsPerTMA, AuxParams_>
{
  using ThrID = Layout<_1>;
};

// Another bulk copy the verifier does not model
template <class NumBitsPerTMA>
struct Copy_Traits<SM90_BULK_TOY, NumBitsPerTMA>
{
  using ThrID = Layout<_1>;
};

} // end namespace cute
