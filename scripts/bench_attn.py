#!/usr/bin/env python3
"""Fused attention forward benchmark: attn_fwd_kernel of
test/lang_apps/kernels/attention.py compiled by mytritonc at -O2 (the
attention path of compiler/src/emit_cuda_attn.c: on sm_90a wgmma for both
dots, elsewhere mma.sync m16n8k16 in FlashAttention-2's layout) for a few
tile configs and run through its
generated launcher (nvcc -arch sm_90a, a .so called through ctypes), Triton
3.6 on the same source file with the same configs, and torch's
scaled_dot_product_attention beside. Batch 4, 32 heads, N_CTX 4096 (--batch,
--heads, --n-ctx), HEAD_DIM 128 and 64, causal and not, fp16. Prints ms (the
median of --reps timed launches after warm-up, CUDA events), TFLOP/s (4 B H N
N D flops, half that when causal) and the largest absolute difference of each
result from torch's.

On the GPU machine (Triton 3.6, torch, nvcc, the repository's build):
    python3 scripts/bench_attn.py                        # everything
    python3 scripts/bench_attn.py --head-dims 128 --causal 0 --reps 20
    python3 scripts/bench_attn.py --no-triton --configs 0,1
Compile-only check anywhere (no GPU): python3 scripts/bench_attn.py --compile-only"""
import argparse
import ctypes
import importlib.util
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "test", "lang_apps", "kernels", "attention.py")

# (BLOCK_M, BLOCK_N, num_warps, num_stages): mytriton's path splits BLOCK_M
# over the warps (16 rows or more each); Triton runs the same configs.
CONFIGS = [
    (128, 64, 8, 3),
    (64, 64, 4, 3),
    (128, 128, 8, 3),
    (128, 32, 8, 3),
    (64, 64, 4, 4),
    (128, 64, 8, 4),
]

sys.path.insert(0, os.path.join(ROOT, "scripts"))
from mtlib import dump_triton, find_cc, find_mytritonc, find_nvcc, run, time_ms  # noqa: E402
from mtlib import build_runtime as runtime_objects  # noqa: E402


def build(args, tools, head, causal, cfg):
    """mytritonc -O2 and nvcc: (path of the .so, launcher) or (None, message)."""
    bm, bn, warps, stages = cfg
    name = "attn_d%d_%s_%d_%d_w%d" % (head, "causal" if causal else "full", bm, bn, warps)
    d = os.path.join(tools["work"], name)
    os.makedirs(d, exist_ok=True)
    cmd = [tools["mytritonc"], KERNELS, "--kernel", "attn_fwd_kernel", "--signature",
           "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32", "--name", name, "-O2", "--num-warps", str(warps),
           "--num-stages", str(stages), "--grid", "cdiv(N_CTX, BLOCK_M), BH", "--grid-param", "BH", "-o", d]
    for k, v in (("HEAD_DIM", head), ("BLOCK_M", bm), ("BLOCK_N", bn), ("CAUSAL", causal)):
        cmd += ["-D", "%s=%s" % (k, v)]
    rc, out = run(cmd)
    if rc:
        return None, "mytritonc: " + out.strip().splitlines()[0]
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
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--n-ctx", type=int, default=4096)
    ap.add_argument("--head-dims", default="128,64")
    ap.add_argument("--causal", default="0,1", help="0 (not causal), 1 (causal) or both")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--no-triton", action="store_true")
    ap.add_argument("--compile-only", action="store_true")
    ap.add_argument("--configs", help="indices into CONFIGS, comma-separated (default: all)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--dump-triton", metavar="DIR", help="write Triton's TTGIR, PTX and SASS of each config there")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="mytriton-bench-attn-")
    tools = {"mytritonc": find_mytritonc(build_dir=args.build_dir, build=False), "work": work,
             "nvcc": find_nvcc(), "cc": find_cc()}
    tools["runtime"] = runtime_objects(work, tools["cc"])
    heads = [int(h) for h in args.head_dims.split(",") if h]
    causals = [c == "1" for c in args.causal.split(",") if c]
    configs = [CONFIGS[int(i)] for i in args.configs.split(",")] if args.configs else CONFIGS
    cases = [(h, c, cfg) for h in heads for c in causals for cfg in configs]
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        jobs = {k: ex.submit(build, args, tools, *k) for k in cases}
        built = {k: v.result() for k, v in jobs.items()}
    if args.compile_only:
        bad = 0
        for (h, c, cfg), (so, msg) in built.items():
            print("d%-4d %-7s %-18s %s" % (h, "causal" if c else "full", "%dx%d w%d s%d" % cfg,
                                           "built" if so else msg))
            bad += so is None
        return 1 if bad else 0
    import torch
    tl_mod = None
    if not args.no_triton:
        import triton  # noqa: F401
        spec = importlib.util.spec_from_file_location("bench_attn_kernels", KERNELS)
        tl_mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(tl_mod)
    B, H, N = args.batch, args.heads, args.n_ctx
    print("batch %d, %d heads, N_CTX %d, fp16; ms (median of %d), TFLOP/s, max abs diff from torch" %
          (B, H, N, args.reps))
    for head in heads:
        g = torch.Generator(device="cuda").manual_seed(0)
        q, k, v = (torch.randn((B, H, N, head), device="cuda", dtype=torch.float32, generator=g).to(torch.float16)
                   for _ in range(3))
        sm_scale = head ** -0.5
        for causal in causals:
            tag = "d%d %s" % (head, "causal" if causal else "full")
            flops = 4.0 * B * H * N * N * head * (0.5 if causal else 1.0)
            sdpa = torch.nn.functional.scaled_dot_product_attention
            ref = sdpa(q, k, v, is_causal=causal, scale=sm_scale)
            t = time_ms(torch, lambda: sdpa(q, k, v, is_causal=causal, scale=sm_scale), args.reps)
            print("%-12s torch sdpa %-16s %8.3f ms %7.1f TFLOP/s" % (tag, "", t, flops / t / 1e9))
            for cfg in configs:
                bm, bn, warps, stages = cfg
                label = "%dx%d w%d s%d" % cfg
                grid = ((N + bm - 1) // bm, B * H)
                so, launcher = built[(head, causal, cfg)]
                if so:
                    o = torch.empty_like(q)
                    fn = getattr(ctypes.CDLL(so), launcher)
                    fn.restype = ctypes.c_int
                    stream = torch.cuda.current_stream().cuda_stream

                    def go(fn=fn, o=o, launcher=launcher):
                        rc = fn(ctypes.c_void_p(stream), ctypes.c_void_p(q.data_ptr()), ctypes.c_void_p(k.data_ptr()),
                                ctypes.c_void_p(v.data_ptr()), ctypes.c_void_p(o.data_ptr()),
                                ctypes.c_float(sm_scale), ctypes.c_int(N), ctypes.c_int(B * H))
                        if rc:
                            raise RuntimeError("%s returned %d" % (launcher, rc))
                    t = time_ms(torch, go, args.reps)
                    err = (o.float() - ref.float()).abs().max().item()
                    print("%-12s mytriton   %-16s %8.3f ms %7.1f TFLOP/s  max abs diff %.2e" %
                          (tag, label, t, flops / t / 1e9, err))
                else:
                    print("%-12s mytriton   %-16s not compiled: %s" % (tag, label, launcher[:160]))
                if tl_mod is not None:
                    ot = torch.empty_like(q)

                    def tgo(ot=ot):
                        return tl_mod.attn_fwd_kernel[grid](q, k, v, ot, sm_scale, N, HEAD_DIM=head, BLOCK_M=bm,
                                                     BLOCK_N=bn, CAUSAL=causal, num_warps=warps, num_stages=stages)
                    try:
                        t = time_ms(torch, tgo, args.reps)
                        if args.dump_triton:
                            dump_triton(args.dump_triton, tgo(), "d%d_%s_%dx%d_w%d_s%d" %
                                        ((head, "causal" if causal else "full") + cfg))
                        err = (ot.float() - ref.float()).abs().max().item()
                        print("%-12s triton     %-16s %8.3f ms %7.1f TFLOP/s  max abs diff %.2e" %
                              (tag, label, t, flops / t / 1e9, err))
                    except Exception as e:  # out of resources for a config, ...
                        print("%-12s triton     %-16s failed: %s" % (tag, label, str(e).splitlines()[0][:160]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
