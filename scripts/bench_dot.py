#!/usr/bin/env python3
"""tl.dot benchmark (issue 15): the tutorial matmul of
test/lang_dot/kernels/dot.py (matmul_kernel) compiled by mytritonc at -O2 for
several tile configs and run through its generated launcher, Triton 3.6 on
the same source with the same configs, and torch (torch.matmul; int8:
torch._int_mm; fp8: torch._scaled_mm), on M = N = K = 4096 (--size) for fp16, bf16,
fp32 with TF32, fp32 tf32x3, fp32 ieee, int8 (int32 accumulator and output) and
fp8 e4m3 / e5m2 (f32 accumulator, fp16 output). Prints ms (the median of
--reps timed launches after warm-up, CUDA events) and TFLOP/s (TOP/s for
int8: 2 M N K / time) per config, the best config of each, and the largest
relative difference of mytriton's result from torch's (int8: exact, 0).

On the GPU machine (Triton 3.6, torch, nvcc, the repository's build):
    python3 scripts/bench_dot.py                       # everything
    python3 scripts/bench_dot.py --dtypes fp16 --size 2048 --reps 20
    python3 scripts/bench_dot.py --dtypes fp32-tf32,int8 --configs 0,2,3
    python3 scripts/bench_dot.py --no-triton           # mytriton and torch only
Compile-only check anywhere (no GPU): python3 scripts/bench_dot.py --compile-only

mytriton's -O2 CUDA for tl.dot kernels of the tutorial's shape (one dot in a
runtime K loop) is the tensor-core path of compiler/src/emit_cuda_mma.c for
fp16/bf16 (f32 accumulator, mma.sync m16n8k16; built for sm_90a, the default
--arch, the wgmma body of compiler/src/emit_cuda_wgmma.c), fp32 with
input_precision tf32 (m16n8k8; tf32x3: three per step, warp tiles of at most
2048 elements), int8 (int32 accumulator, m16n8k32) and fp8 (m16n8k32, sm_89
and later), mma.sync only:
the configs' tiles up to 128 x 256 with 4 or 8 warps, num_stages cp.async
stages (fewer where the mma.sync stages would exceed 163 KiB of shared
memory: fp32 128 x 256 x 64 gets one). A config whose warp tiles do not fit
the path (fp32 and int8: each warp's columns a multiple of 32, e.g. 32 x 32
with 4 warps) takes the one-thread-per-element path (at most 1024
elements). fp32 ieee dots take the same tiles, stages and epilogue with
CUDA-core fmaf from the shared-memory stages instead of mma.sync. The pointers are
passed as 16-byte aligned (*fp16:16, Triton's own specialization); --jobs
builds the configs in parallel first."""
import argparse
import ctypes
import importlib.util
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mtlib import dump_triton, find_cc, find_mytritonc, find_nvcc, run, time_ms  # noqa: E402,F401
from mtlib import build_runtime as runtime_objects  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "test", "lang_dot", "kernels", "dot.py")

# (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages): Triton's
# tutorial configs (the large ones: mytriton's tensor-core path for
# fp16/bf16, fp32-tf32 and int8) and a small one the one-thread-per-element
# path accepts (fp32 ieee).
CONFIGS = [
    (128, 256, 64, 8, 8, 3),
    (256, 128, 64, 8, 8, 3),
    (128, 128, 64, 8, 4, 3),
    (128, 128, 32, 8, 4, 4),
    (128, 128, 64, 8, 8, 3),
    (128, 256, 32, 8, 8, 4),
    (64, 128, 32, 8, 4, 4),
    (64, 64, 32, 8, 4, 4),
    (32, 32, 32, 8, 4, 4),
    (128, 256, 128, 8, 8, 3),  # 9, 10: the K depth of Triton's fp8 tutorial configs
    (128, 128, 128, 8, 4, 4),
]
# dtype: (signature element, c dtype, ACC, PRECISION, torch dtype name, allow_tf32 for torch,
#         torch dtype name of C)
DTYPES = {
    "fp16": ("fp16", "fp16", "float32", "tf32", "float16", False, "float16"),
    "bf16": ("bf16", "bf16", "float32", "tf32", "bfloat16", False, "bfloat16"),
    "fp32-tf32": ("fp32", "fp32", "float32", "tf32", "float32", True, "float32"),
    "fp32-tf32x3": ("fp32", "fp32", "float32", "tf32x3", "float32", False, "float32"),
    "fp32-ieee": ("fp32", "fp32", "float32", "ieee", "float32", False, "float32"),
    "int8": ("i8", "i32", "int32", "tf32", "int8", False, "int32"),
    "fp8e4": ("fp8e4nv", "fp16", "float32", "tf32", "float8_e4m3fn", False, "float16"),
    "fp8e5": ("fp8e5", "fp16", "float32", "tf32", "float8_e5m2", False, "float16"),
}


def build(args, tools, dtype, cfg, variant=None):
    """mytritonc -O2 and nvcc: (path of the .so, launcher) or (None, message).
    variant: (name, [(old, new), ...]), the generated .cu edited (each old
    replaced by its new) before nvcc, for experiments (--variant)."""
    el, cdt, acc, prec = DTYPES[dtype][:4]
    bm, bn, bk, gm, warps, _stages = cfg
    name = "mm_%s_%d_%d_%d_w%d_s%d" % (dtype.replace("-", "_"), bm, bn, bk, warps, _stages)
    if variant:
        name += "_" + variant[0]
    d = os.path.join(tools["work"], name)
    os.makedirs(d, exist_ok=True)
    # the strides that are 1 fixed as Triton's JIT fixes them (i32:1), unless --no-unit-strides
    one = "i32" if args.no_unit_strides else "i32:1"
    st = ["i32", one, one, "i32"] if args.b_col else ["i32", one, "i32", one]
    sig = "*%s:16, *%s:16, *%s:16, i32, i32, i32, %s, i32, %s" % (el, el, cdt, ", ".join(st), one)
    cmd = [tools["mytritonc"], KERNELS, "--kernel", args.kernel, "--signature", sig, "--name", name, "-O2",
           "--num-warps", str(warps), "--num-stages", str(_stages), "--grid", "cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)", "-o", d]
    for k, v in (("BLOCK_M", bm), ("BLOCK_N", bn), ("BLOCK_K", bk), ("GROUP_M", gm), ("ACC", acc),
                 ("PRECISION", prec), ("PLUS", "False"), ("ACTIVATION", "none"),
                 ("WARP_SPECIALIZE", str(args.warp_specialize))):
        cmd += ["-D", "%s=%s" % (k, v)]
    rc, out = run(cmd)
    if rc:
        return None, "mytritonc: " + out.strip().splitlines()[0]
    if variant:
        cu = os.path.join(d, name + ".cu")
        text = open(cu).read()
        for old, new in variant[1]:
            if old not in text:
                return None, "variant %s: %r is not in the generated code" % (variant[0], old)
            text = text.replace(old, new)
        open(cu, "w").write(text)
    so = os.path.join(d, "lib%s.so" % name)
    rc, out = run([tools["nvcc"], "-shared", "-Xcompiler", "-fPIC", "-O3", "-arch=" + args.arch, "-I",
                   os.path.join(ROOT, "runtime", "include"), "-I", d, os.path.join(d, name + ".cu")] +
                  tools["runtime"] + ["-o", so])
    if rc:
        return None, "nvcc: " + out.strip()[-2000:]
    return so, "launch_" + name


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir")
    ap.add_argument("--dump-triton", metavar="DIR", help="write Triton's TTGIR, PTX and SASS of each config there")
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--dtypes", default=",".join(DTYPES))
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--no-triton", action="store_true")
    ap.add_argument("--no-unit-strides", action="store_true",
                    help="no i32:1 on the strides that are 1 (Triton's JIT always fixes them)")
    ap.add_argument("--b-col", action="store_true",
                    help="B column-major (stride_bk 1), as Triton's tutorial passes fp8's B")
    ap.add_argument("--warp-specialize", action="store_true",
                    help="the K loop's tl.range(..., warp_specialize=True), for both compilers")
    ap.add_argument("--compile-only", action="store_true")
    ap.add_argument("--kernel", default="matmul_kernel",
                    help="the kernel of test/lang_dot/kernels/dot.py (matmul_bp_kernel: block pointers)")
    ap.add_argument("--configs", help="indices into CONFIGS, comma-separated (default: all)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--variant", action="append", default=[], metavar="NAME:OLD=>NEW[&&OLD=>NEW...]",
                    help="also time each config with each OLD replaced by its NEW in the generated .cu "
                    "(experiments)")
    args = ap.parse_args()
    variants = [None]
    for v in args.variant:
        vname, _, rest = v.partition(":")
        variants.append((vname, [tuple(e.partition("=>")[::2]) for e in rest.split("&&")]))
    work = tempfile.mkdtemp(prefix="mytriton-bench-dot-")
    tools = {"mytritonc": find_mytritonc(build_dir=args.build_dir, build=False), "work": work,
             "nvcc": find_nvcc(), "cc": find_cc()}
    tools["runtime"] = runtime_objects(work, tools["cc"])
    dtypes = [d for d in args.dtypes.split(",") if d]
    configs = [CONFIGS[int(i)] for i in args.configs.split(",")] if args.configs else CONFIGS
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        jobs = {(dt, cfg, v and v[0]): ex.submit(build, args, tools, dt, cfg, v)
                for dt in dtypes for cfg in configs for v in variants}
        built = {k: v.result() for k, v in jobs.items()}
    if args.compile_only:
        for dt in dtypes:
            for cfg in configs:
                for v in variants:
                    so, msg = built[(dt, cfg, v and v[0])]
                    print("%-10s %-22s %-10s %s" % (dt, "%dx%dx%d w%d" % (cfg[:3] + cfg[4:5]), v[0] if v else "",
                                                   "built" if so else msg))
        return 0
    import torch
    triton = tl_mod = None
    if not args.no_triton:
        import triton  # noqa: F401
        spec = importlib.util.spec_from_file_location("bench_dot_kernels", KERNELS)
        tl_mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(tl_mod)
    n = args.size
    flops = 2.0 * n * n * n
    print("M = N = K = %d; ms (median of %d), TFLOP/s" % (n, args.reps))
    for dt in dtypes:
        el, cdt, acc, prec, tname, allow, cname = DTYPES[dt]
        tdt, cdtype = getattr(torch, tname), getattr(torch, cname)
        g = torch.Generator(device="cuda").manual_seed(0)
        if tdt == torch.int8:
            a = torch.randint(-128, 128, (n, n), device="cuda", dtype=torch.int8, generator=g)
            b = torch.randint(-128, 128, (n, n), device="cuda", dtype=torch.int8, generator=g)
            mm, who = torch._int_mm, "torch._int_mm"
        else:
            a = torch.randn((n, n), device="cuda", dtype=torch.float32, generator=g).to(tdt)
            b = torch.randn((n, n), device="cuda", dtype=torch.float32, generator=g).to(tdt)
            mm, who = torch.matmul, "torch.matmul"
        if args.b_col:
            b = b.t().contiguous().t()  # the same values, column-major (stride_bk 1)
        torch.backends.cuda.matmul.allow_tf32 = allow
        if tdt.itemsize == 1 and tdt.is_floating_point:
            # fp8: the reference in f32 (exact products); cuBLAS's fp8 GEMM
            # (torch._scaled_mm, B column-major) timed where it takes the pair
            ref = torch.matmul(a.float(), b.float()).to(cdtype)
            one = torch.ones((), device="cuda", dtype=torch.float32)
            bc = b.t().contiguous().t()

            def mm(a, b, bc=bc, one=one):
                return torch._scaled_mm(a, bc, scale_a=one, scale_b=one, out_dtype=cdtype)
            who = "torch._scaled_mm"
            try:
                mm(a, b)
            except Exception as e:
                print("%-10s %-23s failed: %s" % (dt, who, str(e).splitlines()[0][:120]))
                mm = None
        else:
            ref = mm(a, b)
        if mm is not None:
            t = time_ms(torch, lambda: mm(a, b), args.reps)
            print("%-10s %-23s %8.3f ms %7.1f TFLOP/s" % (dt, who, t, flops / t / 1e9))
        sa, sb = a.stride(), b.stride()
        best = {}
        for cfg in configs:
            bm, bn, bk, gm, warps, stages = cfg
            label = "%dx%dx%d w%d s%d" % (bm, bn, bk, warps, stages)
            c = torch.empty((n, n), device="cuda", dtype=cdtype)
            grid = ((n + bm - 1) // bm * ((n + bn - 1) // bn),)
            for v in variants:
                so, launcher = built[(dt, cfg, v and v[0])]
                who = "mytriton" if v is None else "mytriton[%s]" % v[0]
                if not so:
                    print("%-10s %s %-14s not compiled: %s" % (dt, who, label, launcher[:160]))
                    continue
                fn = getattr(ctypes.CDLL(so), launcher)
                fn.restype = ctypes.c_int
                stream = torch.cuda.current_stream().cuda_stream

                def go(fn=fn, c=c, launcher=launcher):
                    rc = fn(ctypes.c_void_p(stream), ctypes.c_void_p(a.data_ptr()), ctypes.c_void_p(b.data_ptr()),
                            ctypes.c_void_p(c.data_ptr()), n, n, n, sa[0], sa[1], sb[0], sb[1], n, 1)
                    if rc:
                        raise RuntimeError("%s returned %d" % (launcher, rc))
                t = time_ms(torch, go, args.reps)
                err = ((c.double() - ref.double()).abs().max() / ref.double().abs().max()).item()
                print("%-10s %s %-14s %8.3f ms %7.1f TFLOP/s  max rel diff %.2e" %
                      (dt, who, label, t, flops / t / 1e9, err))
                best[who] = min(best.get(who, (1e30, "")), (t, label))
            if tl_mod is not None:
                ct = torch.empty((n, n), device="cuda", dtype=cdtype)

                def tgo(ct=ct):
                    return getattr(tl_mod, args.kernel)[grid](a, b, ct, n, n, n, sa[0], sa[1], sb[0], sb[1], n, 1,
                                               BLOCK_M=bm, BLOCK_N=bn,
                                               BLOCK_K=bk, GROUP_M=gm, ACC=acc, PRECISION=prec, PLUS=False,
                                               ACTIVATION="none", WARP_SPECIALIZE=args.warp_specialize,
                                               num_warps=warps, num_stages=stages)
                try:
                    t = time_ms(torch, tgo, args.reps)
                    err = ((ct.double() - ref.double()).abs().max() / ref.double().abs().max()).item()
                    print("%-10s triton   %-14s %8.3f ms %7.1f TFLOP/s  max rel diff %.2e" %
                          (dt, label, t, flops / t / 1e9, err))
                    if args.dump_triton:
                        dump_triton(args.dump_triton, tgo(), "triton_%s_%dx%dx%d_w%d_s%d" % ((dt,) + cfg[:3] + cfg[4:]))
                    best["triton"] = min(best.get("triton", (1e30, "")), (t, label))
                except Exception as e:  # out of resources for a config, ...
                    print("%-10s triton   %-14s failed: %s" % (dt, label, str(e).splitlines()[0][:160]))
        for who, (t, label) in sorted(best.items()):
            print("%-10s best %-8s %-14s %8.3f ms %7.1f TFLOP/s" % (dt, who, label, t, flops / t / 1e9))
    return 0


if __name__ == "__main__":
    sys.exit(main())
