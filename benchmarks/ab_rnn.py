"""Interleaved A/B of bench_rnn.py's layers and cell loops (issue 20's shapes, float32): torch,
tapegrad with every step composed from primitives (``nn.rnn.FUSE_CELLS = False``: the path
before the fused cell rows) and tapegrad with the fused LSTM_CELL / GRU_CELL rows, one
process, the order reversed every other round; CPU-time medians in ms and their ratios.

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 python benchmarks/ab_rnn.py [rounds]
"""
import os
import pathlib
import sys
import time

import numpy as np
import torch

# kernels load in this process at their first call (the warm-up's), not in a background
# thread while the first timed calls run interpreted (~30x slower: the first case's figures)
os.environ.setdefault("TAPEGRAD_BACKGROUND", "0")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_rnn as B  # noqa: E402

import tapegrad.nn.rnn as R  # noqa: E402


def _timed(fn, fuse, calls):
    R.FUSE_CELLS = fuse
    out = []
    for _ in range(calls):
        t0 = time.process_time()
        fn()
        out.append(time.process_time() - t0)
    return out


def main(rounds=7):
    torch.set_num_threads(1)
    print(f"{'case':30s} {'torch':>8s} {'composed':>9s} {'fused':>8s}   composed/torch  "
          "fused/torch  fused/composed")
    cases = [(k, s, False) for k in B.KINDS for s in B.LAYER_SHAPES] + \
        [(k, s, True) for k in B.KINDS for s in B.CELL_SHAPES]
    for kind, shape, cell in cases:
        tg_fwd, tg_both, _ = B._layer("tapegrad", kind, shape, cell)
        th_fwd, th_both, _ = B._layer("torch", kind, shape, cell)
        for which, ours, theirs in (("fwd", tg_fwd, th_fwd), ("fwd+bwd", tg_both, th_both)):
            for fuse in (True, False):  # (warm: the sweep, torch's allocator)
                _timed(ours, fuse, 1)
            t0 = time.process_time()
            ours()
            calls = int(min(20, max(1, 0.2 / max(time.process_time() - t0, 1e-4))))
            times = ([], [], [])
            for r in range(rounds):
                for i in ((0, 1, 2) if r % 2 == 0 else (2, 1, 0)):
                    fn, fuse = ((theirs, True), (ours, False), (ours, True))[i]
                    times[i].extend(_timed(fn, fuse, calls))
            t, c, f = (float(np.median(x)) * 1e3 for x in times)
            name = f"{kind}{'Cell x50' if cell else ''} {','.join(map(str, shape))} {which}"
            print(f"{name:30s} {t:8.3f} {c:9.3f} {f:8.3f}   {c / t:14.2f} {f / t:12.2f} "
                  f"{f / c:15.2f}", flush=True)
    R.FUSE_CELLS = True


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
