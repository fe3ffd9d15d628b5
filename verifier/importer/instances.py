"""Which types and values a templated MMA_Traits / Copy_Traits is imported for (data, not logic).

A parameter the atom's layouts and value types do not mention (GMMA's Major and ScaleIn, the alignment of
AutoVectorizingCopy) is not instantiated at all: the atom is imported once under the template's name.
The others are instantiated with the types CuTe's atoms are commonly used with:
"""
from __future__ import annotations

# class parameters of an MMA Op, per template name: one tuple of types per instance
MMA_CLASS_ARGS: dict[str, list[tuple[str, ...]]] = {
    "UniversalFMA": [("float", "float", "float", "float"), ("half_t", "half_t", "half_t", "half_t"),
                     ("double", "double", "double", "double"), ("int32_t", "int8_t", "int8_t", "int32_t")],
}

# class parameters of a copy Op (the register / vector type it moves): each is tried, and those the Op's
# own static_asserts refuse (cp.async.cg moves 16 bytes only) are reported as not instantiated
COPY_CLASS_ARGS: list[str] = ["uint8_t", "uint16_t", "uint32_t", "uint64_t", "uint128_t"]

# members that define an atom; a template parameter none of them mentions does not change the atom
MMA_MEMBERS = ("ValTypeD", "ValTypeA", "ValTypeB", "ValTypeC", "Shape_MNK", "ThrID", "ALayout", "BLayout",
               "CLayout")
COPY_MEMBERS = ("ThrID", "SrcLayout", "DstLayout", "RefLayout")
