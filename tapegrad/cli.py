"""The ``tapegrad`` command.

    tapegrad warmup            compile (or load from Numba's cache) every kernel, print the time
    tapegrad bench [--quick]   a quick run of the workloads against the installed peers
    tapegrad --version         the installed version

Peers are imported by ``tapegrad.bench`` only when ``bench`` runs.
"""
import argparse
import importlib.metadata
import sys
import time

from . import __version__


def version():
    """The installed distribution's version; ``tapegrad.__version__`` in a source tree that
    was never installed."""
    try:
        return importlib.metadata.version("tapegrad")
    except importlib.metadata.PackageNotFoundError:
        return __version__


def warmup():
    """Compile or load every Numba kernel and print how long each part took."""
    import numpy as np

    import tapegrad as tg
    t0 = time.perf_counter()
    eager = tg.warmup()
    t2 = time.perf_counter()
    # tapegrad.warmup() covers the eager sweep and the forward interpreter; one tiny batch
    # replay compiles (or loads) the batch kernel, which inlines both
    tg.trace(lambda x: (x * x).sum(), [1.0]).grad_batch(np.ones((2, 1)))
    t3 = time.perf_counter()
    import numba
    where = numba.config.CACHE_DIR or "__pycache__ next to tapegrad's sources"
    print(f"tapegrad.warmup()    {eager:7.2f} s  (reverse sweeps, float64 and float32; "
          "free; forward replay)")
    print(f"batch replay kernel  {t3 - t2:7.2f} s")
    print(f"total                {t3 - t0:7.2f} s  (Numba cache: {where})")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="tapegrad", description="tapegrad: warm the Numba kernels, or quick benchmarks")
    parser.add_argument("--version", action="version", version=f"tapegrad {version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("warmup", help="compile and cache every Numba kernel, printing the time")
    bench = sub.add_parser("bench", help="quick benchmarks against the installed peers")
    bench.add_argument("--quick", action="store_true",
                       help="shorter rounds and one start-up run per library (~15 s)")
    bench.add_argument("--libraries", metavar="A,B",
                       help="only these, e.g. tapegrad,numba,jax (default: all installed)")
    bench.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    if args.command == "warmup":
        return warmup()
    from . import bench as _bench
    libs = set(args.libraries.split(",")) if args.libraries else None
    return _bench.main(quick=args.quick, libraries=libs, json_path=args.json)


if __name__ == "__main__":
    sys.exit(main())
