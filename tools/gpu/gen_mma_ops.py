#!/usr/bin/env python3
"""Generate tools/gpu/mma_ops.inc: one C++ struct per mma.sync variant.

Only the PTX ISA's register *counts* per operand (and element width) are used
here; no fragment layouts.  Run:  python3 tools/gpu/gen_mma_ops.py
(the output is checked in, so building needs no Python).

Variants that ptxas (CUDA 13.0) refuses for sm_90 are listed in SKIPPED with the
ptxas message and are not emitted as code (the binary reports them in JSON).
"""
from pathlib import Path

# type -> (element bits, asm constraint of its registers, bit pattern of "one")
ITYPES = {
    "f16": (16, "r", 0x3C00),
    "bf16": (16, "r", 0x3F80),
    "tf32": (32, "r", 0x3F800000),
    "s8": (8, "r", 1),
    "u8": (8, "r", 1),
    "s4": (4, "r", 1),
    "u4": (4, "r", 1),
    "e4m3": (8, "r", 0x38),  # 1.0 = 0 0111 000
    "e5m2": (8, "r", 0x3C),  # 1.0 = 0 01111 00
    "b1": (1, "r", 1),
    "f64": (64, "d", 0x3FF0000000000000),
}
# accumulator type -> (asm constraint, elements per register, kind id, zero literal)
DTYPES = {
    "f16": ("r", 2, "DK_F16", "0u"),
    "f32": ("f", 1, "DK_F32", "0.0f"),
    "s32": ("r", 1, "DK_S32", "0u"),
    "f64": ("d", 1, "DK_F64", "0.0"),
}

OPS = []  # (id, family, instr, shape, layout, (d,a,b,c), a_regs, b_regs, c_regs, d_regs, bitop)


def add(shape, d, a, b, c, a_regs, b_regs, d_regs, c_regs=None, layout="row.col", bitop="", family="mma_sync"):
    m, n, k = (int(x) for x in shape[1:].replace("n", " ").replace("k", " ").split())
    instr = f"mma.sync.aligned.{shape}.{layout}.{d}.{a}.{b}.{c}{bitop}"
    ident = f"{shape}_{layout.replace('.', '')}_{d}_{a}_{b}_{c}{bitop.replace('.', '_')}"
    OPS.append(dict(id=ident, family=family, instr=instr, shape=(m, n, k), layout=layout,
                    d=d, a=a, b=b, c=c, a_regs=a_regs, b_regs=b_regs,
                    c_regs=c_regs if c_regs is not None else d_regs, d_regs=d_regs, bitop=bitop))


# --- f16 / bf16 ---
add("m16n8k16", "f16", "f16", "f16", "f16", 4, 2, 2)
add("m16n8k16", "f32", "f16", "f16", "f32", 4, 2, 4)
add("m16n8k16", "f32", "bf16", "bf16", "f32", 4, 2, 4)
add("m16n8k8", "f16", "f16", "f16", "f16", 2, 1, 2)
add("m16n8k8", "f32", "f16", "f16", "f32", 2, 1, 4)
add("m16n8k8", "f32", "bf16", "bf16", "f32", 2, 1, 4)
# --- tf32 ---
add("m16n8k8", "f32", "tf32", "tf32", "f32", 4, 2, 4)
add("m16n8k4", "f32", "tf32", "tf32", "f32", 2, 1, 4)
# --- 8-bit integers ---
for a, b in (("s8", "s8"), ("u8", "u8"), ("s8", "u8"), ("u8", "s8")):
    add("m16n8k32", "s32", a, b, "s32", 4, 2, 4)
add("m16n8k16", "s32", "s8", "s8", "s32", 2, 1, 4)
add("m16n8k16", "s32", "u8", "u8", "s32", 2, 1, 4)
add("m8n8k16", "s32", "s8", "s8", "s32", 1, 1, 2)
add("m8n8k16", "s32", "u8", "u8", "s32", 1, 1, 2)
# --- 4-bit integers ---
add("m16n8k64", "s32", "s4", "s4", "s32", 4, 2, 4)
add("m16n8k64", "s32", "u4", "u4", "s32", 4, 2, 4)
add("m16n8k32", "s32", "s4", "s4", "s32", 2, 1, 4)
add("m16n8k32", "s32", "u4", "u4", "s32", 2, 1, 4)
add("m8n8k32", "s32", "s4", "s4", "s32", 1, 1, 2)
add("m8n8k32", "s32", "u4", "u4", "s32", 1, 1, 2)
# --- f64 ---
add("m8n8k4", "f64", "f64", "f64", "f64", 1, 1, 2)
add("m16n8k4", "f64", "f64", "f64", "f64", 2, 1, 4)
add("m16n8k8", "f64", "f64", "f64", "f64", 4, 2, 4)
add("m16n8k16", "f64", "f64", "f64", "f64", 8, 4, 4)
# --- fp8 ---
for a, b in (("e4m3", "e4m3"), ("e5m2", "e5m2"), ("e4m3", "e5m2"), ("e5m2", "e4m3")):
    add("m16n8k32", "f32", a, b, "f32", 4, 2, 4)
add("m16n8k32", "f16", "e4m3", "e4m3", "f16", 4, 2, 2)
add("m16n8k16", "f32", "e4m3", "e4m3", "f32", 2, 1, 4)
# --- SM70 quad-pair m8n8k4 f16, all four operand layouts ---
for lay in ("row.col", "row.row", "col.col", "col.row"):
    add("m8n8k4", "f16", "f16", "f16", "f16", 2, 2, 4, layout=lay)
    add("m8n8k4", "f32", "f16", "f16", "f32", 2, 2, 8, layout=lay)
# --- b1 ---
for bitop in (".and.popc", ".xor.popc"):
    add("m8n8k128", "s32", "b1", "b1", "s32", 1, 1, 2, bitop=bitop, family="mma_sync_b1")
    add("m16n8k128", "s32", "b1", "b1", "s32", 2, 1, 4, bitop=bitop, family="mma_sync_b1")
    add("m16n8k256", "s32", "b1", "b1", "s32", 4, 2, 4, bitop=bitop, family="mma_sync_b1")

# Filled in from ptxas (CUDA 13.0, -arch=sm_90) output: id -> message.
SKIPPED = {
}


def emit_op(o):
    abits, akind, aone = ITYPES[o["a"]]
    bbits, bkind, bone = ITYPES[o["b"]]
    dkind, dper, dk, _ = DTYPES[o["d"]]
    ckind, cper, _, czero = DTYPES[o["c"]]

    def n_elems(regs, bits):
        return regs if bits == 64 else regs * (32 // bits)

    def n_words(regs, bits):
        return regs * (2 if bits == 64 else 1)

    na, nb = n_elems(o["a_regs"], abits), n_elems(o["b_regs"], bbits)
    nd = o["d_regs"] * dper
    aw, bw = n_words(o["a_regs"], abits), n_words(o["b_regs"], bbits)
    dw = o["d_regs"] * (2 if o["d"] == "f64" else 1)
    L = []
    sid = "Op_" + o["id"]
    m, n, k = o["shape"]
    L.append(f"struct {sid} {{")
    L.append(f'  static constexpr const char* ID = "{o["id"]}";')
    L.append(f'  static constexpr const char* FAMILY = "{o["family"]}";')
    L.append(f'  static constexpr const char* INSTR = "{o["instr"]}";')
    L.append(f'  static constexpr const char* LAYOUT = "{o["layout"]}";')
    L.append(f'  static constexpr const char* TA = "{o["a"]}"; static constexpr const char* TB = "{o["b"]}";')
    L.append(f'  static constexpr const char* TC = "{o["c"]}"; static constexpr const char* TD = "{o["d"]}";')
    L.append(f"  static constexpr int M = {m}, N = {n}, K = {k};")
    L.append(f"  static constexpr int A_BITS = {abits}, A_REGS = {o['a_regs']}, NA = {na}, A_WORDS = {aw};")
    L.append(f"  static constexpr int B_BITS = {bbits}, B_REGS = {o['b_regs']}, NB = {nb}, B_WORDS = {bw};")
    L.append(f"  static constexpr int C_REGS = {o['c_regs']};")
    L.append(f"  static constexpr int D_KIND = {dk}, D_REGS = {o['d_regs']}, ND = {nd}, D_WORDS = {dw};")
    L.append(f"  static constexpr unsigned long long A_ONE = {aone:#x}ull, B_ONE = {bone:#x}ull;")
    L.append("  __device__ static void mma(const uint32_t (&a)[A_WORDS], const uint32_t (&b)[B_WORDS], uint32_t (&d)[D_WORDS]) {")
    outs, ins = [], []
    pre, post = [], []
    # outputs
    if dkind == "f":
        pre.append(f"    float dd[{o['d_regs']}];")
        outs = [f'"=f"(dd[{i}])' for i in range(o["d_regs"])]
        post += [f"    d[{i}] = __float_as_uint(dd[{i}]);" for i in range(o["d_regs"])]
    elif dkind == "d":
        pre.append(f"    double dd[{o['d_regs']}];")
        outs = [f'"=d"(dd[{i}])' for i in range(o["d_regs"])]
        for i in range(o["d_regs"]):
            post.append(f"    d[{2*i}] = (uint32_t)__double2loint(dd[{i}]); d[{2*i+1}] = (uint32_t)__double2hiint(dd[{i}]);")
    else:
        outs = [f'"=r"(d[{i}])' for i in range(o["d_regs"])]

    def in_ops(name, regs, kind):
        if kind == "d":
            return [f'"d"(__hiloint2double((int){name}[{2*i+1}], (int){name}[{2*i}]))' for i in range(regs)]
        return [f'"r"({name}[{i}])' for i in range(regs)]

    ins += in_ops("a", o["a_regs"], akind)
    ins += in_ops("b", o["b_regs"], bkind)
    ins += [f'"{ckind}"({czero})'] * o["c_regs"]
    idx = 0

    def grp(cnt):
        nonlocal idx
        s = "{" + ", ".join(f"%{idx + i}" for i in range(cnt)) + "}"
        idx += cnt
        return s

    gd = grp(o["d_regs"]); ga = grp(o["a_regs"]); gb = grp(o["b_regs"]); gc = grp(o["c_regs"])
    L += pre
    L.append(f'    asm volatile("{o["instr"]} {gd}, {ga}, {gb}, {gc};\\n"')
    L.append(f"        : {', '.join(outs)}")
    L.append(f"        : {', '.join(ins)});")
    L += post
    L.append("  }")
    L.append("};")
    return "\n".join(L)


def main():
    out = ["// GENERATED by tools/gpu/gen_mma_ops.py -- do not edit by hand.",
           "// One struct per mma.sync variant: register counts per operand from the PTX ISA;",
           "// C is always zero.", ""]
    for o in OPS:
        if o["id"] in SKIPPED:
            continue
        out.append(emit_op(o))
        out.append("")
    out.append("#define FOR_ALL_MMA_OPS(X) \\")
    live = [o for o in OPS if o["id"] not in SKIPPED]
    out.append(" \\\n".join(f"  X(Op_{o['id']})" for o in live))
    out.append("")
    out.append("struct SkippedOp { const char* id; const char* family; const char* instr; const char* reason; };")
    out.append("static const SkippedOp SKIPPED_OPS[] = {")
    for o in OPS:
        if o["id"] in SKIPPED:
            msg = SKIPPED[o["id"]].replace("\\", "\\\\").replace('"', '\\"')
            out.append(f'  {{"{o["id"]}", "{o["family"]}", "{o["instr"]}", "{msg}"}},')
    out.append('  {nullptr, nullptr, nullptr, nullptr}};')
    out.append("")
    Path(__file__).with_name("mma_ops.inc").write_text("\n".join(out))
    print(f"{len(live)} ops emitted, {len(OPS) - len(live)} skipped")


if __name__ == "__main__":
    main()
