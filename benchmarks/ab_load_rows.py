"""Interleaved A/B of tapegrad.load's CPU time on profile_load_rows.py's crafted files of many
rows (plain, sqsum, wide), two trees' tapegrad, each load in its own process (its _LOAD
child: process_time of tg.load only), medians and their ratio B / A:

    python benchmarks/ab_load_rows.py /work/main . --reps 5
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profile_load_rows as P  # noqa: E402

CASES = (("plain", 1000000), ("sqsum", 200000), ("wide", 100000))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a", help="tree A (its tapegrad is imported from there)")
    ap.add_argument("b", help="tree B")
    ap.add_argument("--reps", type=int, default=5)
    o = ap.parse_args()
    trees = {"A": os.path.abspath(o.a), "B": os.path.abspath(o.b)}
    with tempfile.TemporaryDirectory() as d:
        for kind, n in CASES:
            p = os.path.join(d, f"{kind}{n}.npz")
            with open(p, "wb") as fh:
                fh.write(P.crafted(kind, n))
            times = {k: [] for k in trees}
            for _ in range(o.reps):
                for k, root in trees.items():  # (interleaved: the machine's drift hits both)
                    r = subprocess.run([sys.executable, "-c", P._LOAD, p], cwd=root,
                                       env=dict(os.environ, PYTHONPATH=root),
                                       capture_output=True, text=True)
                    t, _, res = r.stdout.split()
                    times[k].append(float(t))
            m = {k: statistics.median(v) for k, v in times.items()}
            print(f"{kind:5} rows {n:>8}  file {os.path.getsize(p):>8} B  A {m['A']:.2f} s  "
                  f"B {m['B']:.2f} s  B/A {m['B'] / m['A']:.3f}  ({res})", flush=True)


if __name__ == "__main__":
    main()
