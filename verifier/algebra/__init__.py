"""CuTe's layout algebra, concrete and exact: the same layouts CuTe's C++ computes, in Python."""
from .functions import (blocked_product, coalesce, complement, composition, cosize, depth, downcast, filter,
                        flat_divide, flat_product, left_inverse, logical_divide, logical_product, rank,
                        raked_product, recast_layout, right_inverse, size, tile_to_shape, tiled_divide,
                        tiled_product, upcast, zipped_divide, zipped_product)
from .inttuple import AlgebraError, Dyn, PortLimit, Underscore, fmt, fmt_plain
from .layout import Layout, make_layout, make_ordered_layout
from .swizzle import ComposedLayout, MixedBits, SmemPtrFlag, Swizzle, make_swizzle
from .syntax import ParseError, parse_expression, parse_inttuple, parse_layout
from .types import type_bits

_ = Underscore

__all__ = [
    "AlgebraError", "ComposedLayout", "PortLimit", "Dyn", "Layout", "MixedBits", "ParseError", "SmemPtrFlag", "Swizzle",
    "Underscore", "_", "blocked_product", "coalesce", "complement", "composition", "cosize", "depth",
    "downcast", "filter", "flat_divide", "flat_product", "fmt", "fmt_plain", "left_inverse", "logical_divide",
    "logical_product", "make_layout", "make_ordered_layout", "make_swizzle", "parse_expression",
    "parse_inttuple", "parse_layout", "rank", "raked_product", "recast_layout", "right_inverse", "size",
    "tile_to_shape", "tiled_divide", "tiled_product", "type_bits", "upcast", "zipped_divide", "zipped_product",
]
