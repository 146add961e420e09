#!/usr/bin/env python3
"""The shared-memory layout of -O2's wgmma bodies (compiler/src/emit_cuda_wgmma.c,
docs/dot.md "wgmma on sm_90a"; the attention body of emit_cuda_attn.c)
checked without a GPU.

For each tile below, mytritonc compiles the tutorial matmul of
test/lang_dot/kernels/dot.py; from the generated .cu this script reads the
copies' destination index expressions, the descriptors (start, leading and
stride byte offsets, swizzle mode), the warpgroup grid and every wgmma's
offsets, and checks, for every wgmma of every warpgroup, that the byte the
PTX ISA's canonical layouts say the hardware reads for each A[m][k] and
B[k][n] (K-major A, MN-major B or, for a column-major B (`stride_bk`
fixed by `i32:1`), K-major B; f16 and fp8 elements; 128/64/32-byte swizzles: the XOR of
address bits 4.. with bits 7..) is the byte the copy code wrote that
element to. The same for the fused attention forward of
test/lang_apps/kernels/attention.py: q (K-major A) and k (K-major B) of the
first dot, v (MN-major B) of the second. It checks the generated code against the layout rules, not the
rules against the hardware (that is the GPU tests' job).

    python3 scripts/wgmma_layout_check.py --mytritonc build/bin/mytritonc
    python3 scripts/wgmma_layout_check.py --cu FILE.cu     # one generated file
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "test", "lang_dot", "kernels", "dot.py")
# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages[, warp_specialize]): 128B,
# 64B and 32B swizzles, several K columns, warpgroups along M and along N,
# the warp-specialized body's producer copies
TILES = [(128, 256, 64, 8, 3), (256, 128, 64, 8, 3), (128, 128, 32, 4, 3), (64, 64, 128, 4, 3),
         (64, 256, 32, 8, 3), (64, 16, 16, 4, 2), (128, 128, 128, 8, 3), (64, 128, 64, 4, 1),
         (128, 256, 64, 8, 3, True), (128, 128, 32, 4, 3, True), (64, 256, 32, 8, 4, True)]
# k-major B (column-major, strides fixed to 1): (dtype, BLOCK_M, BLOCK_N, BLOCK_K, num_warps,
# num_stages[, warp_specialize]): f16 and fp8 (wgmma k32), 128B and 64B swizzles, two K columns
BT_TILES = [("fp16", 128, 256, 64, 8, 3), ("fp16", 128, 128, 128, 8, 3), ("bf16", 64, 256, 32, 8, 4, True),
            ("fp8e4nv", 128, 256, 128, 8, 3), ("fp8e4nv", 64, 64, 64, 4, 3), ("fp8e5", 128, 128, 256, 4, 2)]
ATTN_KERNELS = os.path.join(ROOT, "test", "lang_apps", "kernels", "attention.py")
# (HEAD_DIM, BLOCK_M, BLOCK_N, num_warps, num_stages): 128B and 64B swizzles,
# one and two 64-row blocks per warpgroup, one and two warpgroups
ATTN_TILES = [(128, 128, 64, 8, 3), (64, 64, 64, 4, 3), (64, 128, 64, 4, 2), (128, 128, 128, 8, 3),
              (32, 64, 32, 4, 3), (128, 128, 32, 8, 3)]
# descriptor swizzle mode: (row bytes, XOR mask)
MODES = {1: (128, 7), 2: (64, 3), 3: (32, 1)}


def swz(o, mask):
    return o ^ (((o >> 7) & mask) << 4)


def index_at(expr, gr, gc):
    """The .cu's index expression (ints, + - * / %, mt_swz) at (gr, gc)."""
    e = expr.replace("mt_gr", str(gr)).replace("mt_gc", str(gc)).replace("/", "//")
    return eval(e, {"__builtins__": {}, "mt_swz": swz})


def field(pattern, text):
    m = re.search(pattern, text)
    if not m:
        raise SystemExit("not found in the wgmma body: " + pattern)
    return [int(g) for g in m.groups()]


def k_major_reads(start, sbo, mode, rows, k):
    """Byte read for (row, k) of a K-major operand: rows of sw bytes, 8-row groups at SBO."""
    sw, mask = MODES[mode]
    return swz(start + rows % 8 * sw + rows // 8 * sbo + 2 * k, mask)


def check_attn(src):
    body = src[src.index("// sm_90a: two wgmma"):src.index("#else", src.index("// sm_90a: two wgmma"))]
    BM, BN, D = field(r"S \((\d+), (\d+)\) = \(\d+, (\d+)\)", body)
    groups, rows = field(r"; (\d+) warpgroups? of (\d+) rows", body)
    mblocks = rows // 64
    q_elems, = field(r"mt_kv = mt_sq \+ (\d+);", body)
    stage_elems, = field(r"mt_dk = mt_kv \+ mt_b \* (\d+);", body)
    k_elems, = field(r"mt_dv = mt_dk \+ (\d+);", body)
    dst = {n: re.search(r"mt_dst = &%s\[(.*)\];" % n, body).group(1) for n in ("mt_sq", "mt_dk", "mt_dv")}
    q_wg, _q_lbo, q_sbo, q_mode = field(
        r"mt_dq = mt_wgmma_desc\(\(unsigned\)__cvta_generic_to_shared\(mt_sq\) \+ \(mt_warp >> 2\) \* (\d+)u, "
        r"(\d+), (\d+), (\d+)\)", body)
    _k_lbo, k_sbo, k_mode = field(r"mt_dk0 = mt_wgmma_desc\(mt_s0, (\d+), (\d+), (\d+)\)", body)
    v_base, v_lbo, v_sbo, v_mode = field(r"mt_dv0 = mt_wgmma_desc\(mt_s0 \+ (\d+)u, (\d+), (\d+), (\d+)\)", body)
    slots, slot16 = field(r"mt_so = \(unsigned\)\(mt_t % (\d+)\) \* (\d+)u", body)
    dot1 = [tuple(int(x) for x in c) for c in re.findall(
        r"mt_wgmma_kb_n(\d+)_\w+\(mt_s\[(\d+)\], mt_dq \+ (\d+)u, mt_dk \+ (\d+)u\)", body)]
    dot2 = [tuple(int(x) for x in c) for c in re.findall(
        r"mt_wgmma_rs_n(\d+)_\w+\(mt_o\[(\d+)\], mt_pa\[(\d+)\]\[(\d+)\], mt_dv \+ (\d+)u\)", body)]
    errors = []
    if (q_elems * 2 % 1024 or stage_elems * 2 % 1024 or k_elems * 2 % 1024 or v_base != k_elems * 2
            or slot16 * 16 != stage_elems * 2 or groups * rows != BM):
        errors.append("buffer sizes or alignment")
    if len(dot1) != mblocks * D // 16 or len(dot2) != mblocks * BN // 16:
        errors.append("%d and %d wgmma's" % (len(dot1), len(dot2)))

    def where(expr, nrows, base):
        w = {}
        for r in range(nrows):
            for c in range(0, D, 8):
                b = base + index_at(expr, r, c) * 2
                for e in range(8):
                    w[b + 2 * e] = (r, c + e)
        if len(w) != nrows * D:
            errors.append("two elements copied to one place")
        return w
    wq, wk, wv = where(dst["mt_sq"], BM, 0), where(dst["mt_dk"], BN, 0), where(dst["mt_dv"], BN, v_base)
    if max(wq) >= q_elems * 2 or max(wk) >= v_base or max(wv) >= stage_elems * 2:
        errors.append("a copy outside its buffer")
    sw_v = MODES[v_mode][0]
    per_v = sw_v // 2
    for g in range(groups):
        for i, (n, mi, q_off, k_off) in enumerate(dot1):
            kk = i // mblocks * 16
            if n != BN:
                errors.append("first dot's N %d, BLOCK_N %d" % (n, BN))
            for m in range(64):
                for k in range(16):
                    got = wq.get(k_major_reads(g * q_wg + q_off * 16, q_sbo, q_mode, m, k))
                    if got != (g * rows + mi * 64 + m, kk + k):
                        errors.append("q: warpgroup %d, wgmma %d, (%d, %d) reads %s" % (g, i, m, k, got))
            for c in range(n):  # B[k][c] = k[c][kk + k]
                for k in range(16):
                    got = wk.get(k_major_reads(k_off * 16, k_sbo, k_mode, c, k))
                    if got != (c, kk + k):
                        errors.append("k: wgmma %d, (%d, %d) reads %s" % (i, k, c, got))
        for i, (n, mi, pm, pk, v_off) in enumerate(dot2):
            if n != D or pm != mi:
                errors.append("second dot's N %d or registers of block %d" % (n, pm))
            for k in range(16):  # B[k][c] = v[16 pk + k][c], MN-major
                for c in range(n):
                    o = v_base + v_off * 16 + c % per_v * 2 + c // per_v * v_lbo + k % 8 * sw_v + k // 8 * v_sbo
                    got = wv.get(swz(o, MODES[v_mode][1]))
                    if got != (16 * pk + k, c):
                        errors.append("v: wgmma %d, (%d, %d) reads %s" % (i, k, c, got))
    what = "attention (%d, %d, %d), %d warpgroup(s) of %d rows, %dB swizzle, %d buffers" % (
        BM, BN, D, groups, rows, MODES[q_mode][0], slots)
    if errors:
        return what + ": %d errors, first %s" % (len(errors), errors[0])
    return "ok " + what


def fast_path_errors(body, rows):
    """The steady-state copies put group s of a thread at its group 0's
    offset plus s steps (mt_q<k> + mt_s * step): the same place as the
    element-wise fallback's index of that group, for every thread."""
    errors = []
    for k, buf in ((0, "mt_sa"), (1, "mt_sb")):
        m = re.search(r"for \(int mt_s = 0; mt_s < (\d+); mt_s\+\+\) \{\n\s*(?:if \(mt_s \* \d+ \+ .*\n\s*)?"
                      r"mt_cp_async16\(&%s\[mt_q%d \+ mt_s \* (\d+)\]" % (buf, k), body)
        if not m:
            continue  # offsets held per group
        per, step = int(m.group(1)), int(m.group(2))
        T, gpr, G, q0 = re.search(
            r"const int mt_g = mt_s \* (\d+) \+ [^\n]*\n\s*const int mt_gr = mt_g / (\d+), "
            r"mt_gc = \(mt_g %% \d+\) \* (\d+);\n\s*mt_q%d = (.*);" % k, body).groups()
        T, gpr, G = int(T), int(gpr), int(G)
        fallback = re.search(r"mt_dst = &%s\[(.*)\];" % buf, body).group(1)
        for tid in range(T):
            base = index_at(q0, tid // gpr, tid % gpr * G)
            for s_ in range(per):
                g = s_ * T + tid
                if g // gpr >= rows[k]:
                    break
                want = index_at(fallback, g // gpr, g % gpr * G)
                if want != base + s_ * step:
                    errors.append("operand %d: thread %d's group %d at %d, not %d" % (
                        k, tid, s_, base + s_ * step, want))
    if "mt_q0 + mt_s" not in body and "mt_q1 + mt_s" not in body:
        errors.append("no copy from a group 0 offset and a step")
    return errors


def check(cu):
    src = open(cu).read()
    if "// sm_90a: two wgmma" in src:
        return check_attn(src)
    if "// sm_90a:" not in src:
        return "no wgmma body"
    body = src[src.index("// sm_90a:"):src.index("#else", src.index("// sm_90a:"))]
    # a warp-specialized body's copies are its producer function's (before the kernel)
    producer = re.search(r"static __device__ __noinline__ void \w+_producer\(.*?\n#endif", src, re.S)
    if producer:
        body = producer.group(0) + body
    groups, = field(r"// sm_90a: (\d+) warpgroup", body)
    wm, wn = field(r"each a \((\d+), (\d+)\) accumulator", body)
    kstep, = field(r"accumulator of m64n\d+k(\d+) wgmma", body)  # elements per instruction
    eb = 32 // kstep  # bytes per element (32 bytes of k per instruction)
    bt = "(K-major)" in re.search(r"// sm_90a: .*", body).group(0)
    gn, = field(r"mt_wr = mt_wg / (\d+)", body)
    stage, = field(r"mt_stages \+ mt_st \* (\d+);", body)  # elements
    a_elems, = field(r"mt_sb = mt_sa \+ (\d+);", body)
    dst_a = re.search(r"mt_dst = &mt_sa\[(.*)\];", body).group(1)
    dst_b = re.search(r"mt_dst = &mt_sb\[(.*)\];", body).group(1)
    a_gn, a_wr, _a_lbo, a_sbo, a_mode = field(
        r"mt_da = mt_wgmma_desc\(mt_s0 \+ \(mt_wu / (\d+)\) \* (\d+), (\d+), (\d+), (\d+)\)", body)
    b_base, b_gn, b_wc, b_lbo, b_sbo, b_mode = field(
        r"mt_db = mt_wgmma_desc\(mt_s0 \+ (\d+) \+ \(mt_wu % (\d+)\) \* (\d+), (\d+), (\d+), (\d+)\)", body)
    if producer:
        slots, = field(r"const int mt_st = mt_t % (\d+);", body)
        slot16, = field(r"mt_so = \(unsigned\)mt_st \* (\d+)u", body)
    else:
        slots, slot16 = field(r"mt_so = \(unsigned\)\(mt_t % (\d+)\) \* (\d+)u", body)
    calls = [tuple(int(x) for x in c) for c in re.findall(
        r"mt_wgmma%s_n(\d+)_\w+\(mt_acc\[(\d+)\], mt_da \+ \(mt_so \+ (\d+)u\), mt_db \+ \(mt_so \+ (\d+)u\)\)"
        % ("_kb" if bt else ""), body)]
    mblocks = wm // 64
    gm = groups // gn
    BM, BN, BK = wm * gm, wn * gn, len(calls) // mblocks * kstep
    G = 16 // eb  # elements per 16-byte copy group
    errors = []
    if a_gn != gn or b_gn != gn:
        errors.append("descriptors' warpgroup grid %d, %d, not %d" % (a_gn, b_gn, gn))
    errors += fast_path_errors(body, {0: BM, 1: BN if bt else BK})
    if (slot16 * 16 != stage * eb or stage * eb % 1024 or a_elems * eb % 1024
            or b_base != a_elems * eb):
        errors.append("stage sizes or alignment")
    # where the copies put each element (byte offsets in a stage); B's
    # stage is (BN, BK) where k-major: copy group (n, k .. k + G - 1)
    where_a, where_b = {}, {}
    for r in range(BM):
        for c in range(0, BK, G):
            base = index_at(dst_a, r, c) * eb
            for q in range(G):
                where_a[base + eb * q] = (r, c + q)
    for r in range(BN if bt else BK):
        for c in range(0, BK if bt else BN, G):
            base = (a_elems + index_at(dst_b, r, c)) * eb
            for q in range(G):
                where_b[base + eb * q] = (c + q, r) if bt else (r, c + q)
    if len(where_a) != BM * BK or len(where_b) != BK * BN:
        errors.append("two elements copied to one place")
    if max(where_a) >= a_elems * eb or max(where_b) >= stage * eb:
        errors.append("a copy outside its block")
    sw_a, mask_a = MODES[a_mode]
    sw_b, mask_b = MODES[b_mode]
    per_b = sw_b // eb
    for wg in range(groups):
        wr, wc = wg // gn, wg % gn
        for i, (n, mi, a_off, b_off) in enumerate(calls):
            kk = i // mblocks * kstep
            if n != wn:
                errors.append("instruction N %d, warpgroup columns %d" % (n, wn))
            start_a = wr * a_wr + a_off * 16
            start_b = b_base + wc * b_wc + b_off * 16
            for m in range(64):  # K-major: 8-row groups at SBO, rows of sw_a bytes
                for k in range(kstep):
                    got = where_a.get(swz(start_a + m % 8 * sw_a + m // 8 * a_sbo + eb * k, mask_a))
                    if got != (wr * wm + mi * 64 + m, kk + k):
                        errors.append("A: warpgroup %d, wgmma %d, (%d, %d) reads %s" % (wg, i, m, k, got))
            for k in range(kstep):
                for c in range(n):
                    if bt:  # K-major as A: row c (of n), 8-row groups at SBO
                        o = start_b + c % 8 * sw_b + c // 8 * b_sbo + eb * k
                    else:  # MN-major: sw_b columns at LBO, 8-row groups at SBO
                        o = start_b + c % per_b * eb + c // per_b * b_lbo + k % 8 * sw_b + k // 8 * b_sbo
                    got = where_b.get(swz(o, mask_b))
                    if got != (kk + k, wc * wn + c):
                        errors.append("B: warpgroup %d, wgmma %d, (%d, %d) reads %s" % (wg, i, k, c, got))
    what = "(%d, %d, %d)%s, %d-byte elements, %d warpgroup(s) as %d x %d, %dB/%dB swizzle, %d buffers" % (
        BM, BN, BK, " k-major B" if bt else "", eb, groups, gm, gn, sw_a, sw_b, slots)
    if errors:
        return what + ": %d errors, first %s" % (len(errors), errors[0])
    return None if what is None else "ok " + what


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mytritonc")
    ap.add_argument("--python", help="passed to mytritonc --python")
    ap.add_argument("--cu", nargs="*", default=[])
    args = ap.parse_args()
    files = list(args.cu)
    work = tempfile.mkdtemp(prefix="mytriton-wgmma-layout-")

    def compile_one(src, kernel, sig, grid, name, warps, stages, defs, extra=()):
        cmd = [args.mytritonc, src, "--kernel", kernel, "--signature", sig, "--name", name, "-O2",
               "--num-warps", str(warps), "--num-stages", str(stages), "--grid", grid, *extra,
               "-o", os.path.join(work, name)]
        if args.python:
            cmd += ["--python", args.python]
        for k, v in defs:
            cmd += ["-D", "%s=%s" % (k, v)]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode:
            print("mytritonc failed for %s:\n%s" % (name, p.stdout))
            return False
        files.append(os.path.join(work, name, name + ".cu"))
        return True
    if args.mytritonc:
        for bm, bn, bk, warps, stages, *ws in TILES:
            if not compile_one(KERNELS, "matmul_kernel",
                               "*fp16, *fp16, *fp16, i32, i32, i32, i32, i32, i32, i32, i32, i32",
                               "cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)",
                               "wg_%d_%d_%d_w%d_s%d%s" % (bm, bn, bk, warps, stages, "_ws" if ws else ""),
                               warps, stages,
                               (("BLOCK_M", bm), ("BLOCK_N", bn), ("BLOCK_K", bk), ("GROUP_M", 8),
                                ("ACC", "float32"), ("PRECISION", "tf32"), ("PLUS", "False"),
                                ("ACTIVATION", "none"), ("WARP_SPECIALIZE", "True" if ws else "False"))):
                return 1
        for dt, bm, bn, bk, warps, stages, *ws in BT_TILES:
            if not compile_one(KERNELS, "matmul_kernel",
                               "*%s, *%s, *fp16, i32, i32, i32, i32, i32:1, i32:1, i32, i32, i32:1" % (dt, dt),
                               "cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)",
                               "wg_bt_%s_%d_%d_%d_w%d_s%d%s" % (dt, bm, bn, bk, warps, stages, "_ws" if ws else ""),
                               warps, stages,
                               (("BLOCK_M", bm), ("BLOCK_N", bn), ("BLOCK_K", bk), ("GROUP_M", 8),
                                ("ACC", "float32"), ("PRECISION", "tf32"), ("PLUS", "False"),
                                ("ACTIVATION", "none"), ("WARP_SPECIALIZE", "True" if ws else "False"))):
                return 1
        for d, bm, bn, warps, stages in ATTN_TILES:
            if not compile_one(ATTN_KERNELS, "attn_fwd_kernel", "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32",
                               "cdiv(N_CTX, BLOCK_M), BH", "attn_d%d_%d_%d_w%d_s%d" % (d, bm, bn, warps, stages),
                               warps, stages,
                               (("HEAD_DIM", d), ("BLOCK_M", bm), ("BLOCK_N", bn), ("CAUSAL", "False")),
                               ("--grid-param", "BH")):
                return 1
    bad = 0
    for cu in files:
        r = check(cu)
        ok = r is not None and r.startswith("ok ")
        bad += not ok
        print("%s: %s" % (os.path.basename(cu), r))
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
