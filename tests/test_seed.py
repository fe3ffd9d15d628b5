"""Every number of the seed article (A(0,9) = 37 through ldmatrix.x4 into lane 0), via the public API."""
from oracle import atoms
from verifier.algebra import composition, parse_layout, right_inverse
from verifier.cute.copy import make_tiled_copy_for
from verifier.cute.mma import TiledMMA
from verifier.cute.tensor import Tensor

F_ATOM = parse_layout("((4,8),(2,2,2)):((32,1),(16,8,128))")  # MMA A layout, (thr,val) -> m + 16*k
SMEM = Tensor(0, parse_layout("(16,16):(16,1)"))


def seed_copy():
    mma = TiledMMA(atoms()["SM80_16x8x16_F16F16F16F16_TN"])
    copy = make_tiled_copy_for(atoms()["SM75_U32x4_LDSM_N"].with_value_bits(16), mma, "A")
    return mma, copy


def test_mma_slot_wants_A_0_9():
    q = F_ATOM(0, 5)
    assert q == 144
    assert (q % 16, q // 16) == (0, 9)


def test_copy_atom_layouts_in_half_units():
    _, copy = seed_copy()
    assert copy.atom.src == parse_layout("(32,8):(8,1)")
    assert copy.atom.dst == parse_layout("(32,(2,4)):(2,(1,64))")
    assert copy.atom.ref == copy.atom.dst
    assert copy.atom.dst(0, 5) == 129
    assert copy.atom.src(16, 1) == 129


def test_route_destination_0_5_comes_from_source_16_1():
    _, copy = seed_copy()
    e = copy.atom.dst(0, 5)
    src = [(t, v) for t in range(32) for v in range(8) if copy.atom.src(t, v) == e]
    assert src == [(16, 1)]


def test_right_inverse_of_ref_gives_reference_0_5():
    _, copy = seed_copy()
    rinv = right_inverse(copy.atom.ref)
    assert rinv(129) == 160
    assert (160 % 32, 160 // 32) == (0, 5)


def test_destination_meaning_matches_mma():
    _, copy = seed_copy()
    dst_to_q = composition(F_ATOM, composition(right_inverse(copy.atom.ref), copy.atom.dst))
    assert dst_to_q(0, 5) == 144
    assert copy.layout_D_tv()(0, 5) == 144


def test_source_meaning_and_addresses():
    _, copy = seed_copy()
    layout_s = copy.layout_S_tv()
    assert layout_s(16, 1) == 144
    assert layout_s(16, 0) == 128
    assert (128 % 16, 128 // 16) == (0, 8)
    smem = SMEM.layout
    assert smem(0, 9) == 9 and smem(0, 8) == 8
    base = 0x1000
    assert base + 2 * smem(0, 8) == 0x1010
    assert base + 2 * smem(0, 9) == 0x1012
    # partition_S of lane 16 starts at A(0,8): smem offset 8, and holds 8 contiguous halves
    part = copy.partition_S(SMEM, 16)
    assert part.offsets() == list(range(8, 16))


def test_fragments_alias():
    mma, copy = seed_copy()
    tCrA = mma.partition_fragment(SMEM, "A", 0)
    tXrA = copy.retile_tensor(tCrA)
    assert str(tCrA.layout) == "((_2,_2,_2),_1,_1):((_1,_2,_4),_0,_0)"
    assert str(tXrA.layout) == "((_8,_1),_1,_1):((_1,_0),_0,_0)"
    assert tCrA.layout == parse_layout("((2,2,2),1,1):((1,2,4),0,0)")
    assert tCrA(5, 0, 0) == tXrA(5, 0, 0) == 5
