"""Where ADBench ba1's plain ``jacobian_batch(*inputs)`` (bench_ba.py's ``tapegrad stacked
inputs``) spends its time beside the hand-written Numba Jacobian: each part of the call
alone, all interleaved in one process (the order reversed every other round), CPU time
(``time.process_time``: both cores' threads) and minor page faults (``getrusage``) per
call, medians:

- ``hand``: the hand-written call (CSR data, kernel on one core, CSR matrix); ``handk``
  its kernel alone;
- ``index``: ``jacobian_batch(index=, out=)`` (the direct kernel writes the CSR data);
- ``plain``: the whole plain call (gather the inputs, ``jacobian_batch``, ``from_blocks``);
  its parts ``inputs`` (``cams[ci]``, ``pts[pi]``), ``jacobian_batch`` (on gathered
  inputs), ``from_blocks`` (the blocks copied into the CSR data, the CSR matrix);
- ``dense 2 cores`` / ``dense 1 core``: the plain call's direct kernel alone on
  preallocated outputs.

    TAPEGRAD_ADBENCH=/work/shared/adbench python benchmarks/profile_ba.py [ROUNDS]
"""
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_ba as BA  # noqa: E402

from tapegrad.replay import fused, gather  # noqa: E402


def main(rounds):
    prob = BA.Problem(BA.DATA)
    plain = BA._stacked(prob)  # (compiles or loads the dense kernel, untimed)
    f = next(c.cell_contents for c in plain.__closure__
             if hasattr(c.cell_contents, "jacobian_batch"))
    ins = prob.inputs()
    blocks = f.jacobian_batch(*ins)
    t = next(iter(f.traces.values()))[0]
    at = gather.dense_offsets(t, "dense")
    k = fused.direct_kernel(t, at, kind="dense")
    spec = gather.Spec(t, list(ins), None, None)
    G, V = np.empty((prob.p, 3, at.shape[1])), np.empty((prob.p, 3))
    bad = np.zeros(prob.p, np.int64)
    data, rows, wrows = prob.data()

    def dense(serial):
        return lambda: k.run_direct(spec.srcs, spec.idxs, G.reshape(-1), gather._NO_START, at,
                                    bad, serial=serial, V=V)
    cases = {
        "hand": BA._numba(prob),
        "handk": lambda: BA._ba_blocks(prob.cams, prob.pts, prob.w, prob.feat, prob.ci,
                                       prob.pi, rows, wrows),
        "index": BA._tapegrad(prob),
        "plain": plain,
        "inputs": prob.inputs,
        "jacobian_batch": lambda: f.jacobian_batch(*ins),
        "from_blocks": lambda: prob.from_blocks(*blocks),
        "dense 2 cores": dense(False),
        "dense 1 core": dense(True),
    }
    for call in cases.values():
        call()
        call()
    ts = {name: [] for name in cases}
    faults = {name: [] for name in cases}
    for r in range(rounds):
        for name, call in (cases.items() if r % 2 else reversed(cases.items())):
            f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            t0 = time.process_time()
            call()
            ts[name].append(time.process_time() - t0)
            faults[name].append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
    hand = np.median(ts["hand"])
    print("| part | CPU ms median | min | / hand | page faults |\n|---|---:|---:|---:|---:|")
    for name in cases:
        m = np.median(ts[name])
        print(f"| {name} | {m * 1e3:.3f} | {min(ts[name]) * 1e3:.3f} | {m / hand:.2f} | "
              f"{int(np.median(faults[name]))} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
