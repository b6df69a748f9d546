"""The ``tapegrad`` command.

    tapegrad warmup            compile (or load from Numba's cache) the kernels, print the time
                               (--forward adds forward mode's, --float32 the float32 sweep)
    tapegrad bench [--quick]   a quick run of the workloads against the installed peers
    tapegrad --version         the installed version

Peers are imported by ``tapegrad.bench`` only when ``bench`` runs.
"""
import argparse
import importlib.metadata
import subprocess
import sys
import threading
import time

from . import __version__
from ._kernels import _warmup_command


def version():
    """The installed distribution's version; ``tapegrad.__version__`` in a source tree that
    was never installed."""
    try:
        return importlib.metadata.version("tapegrad")
    except importlib.metadata.PackageNotFoundError:
        return __version__


def groups(float32=False, forward=False):
    """The kernel groups (tapegrad/warmup.py) ``tapegrad warmup`` builds, one process each."""
    return ["sweep", "replay"] + ["forward"] * forward + ["float32"] * float32


def warmup(float32=False, forward=False):
    """Compile or load the kernels, each group in its own process side by side
    (tapegrad/warmup.py), printing each kernel as it starts and ends."""
    import numba
    if numba.config.DISABLE_JIT:
        print("tapegrad warmup: NUMBA_DISABLE_JIT=1, so the kernels run as Python and there "
              "is nothing to compile", flush=True)
        return 0
    t0 = time.perf_counter()
    where = numba.config.CACHE_DIR or "__pycache__ next to tapegrad's sources"
    todo = groups(float32, forward)
    print(f"tapegrad warmup: compiling (or loading) the kernels, {len(todo)} processes "
          f"side by side; Numba cache: {where}", flush=True)
    lock = threading.Lock()

    def relay(proc):
        for line in proc.stdout:
            event, label, seconds = line.rstrip("\n").split("\t")
            with lock:
                if event == "start":
                    print(f"  {label} ...", flush=True)
                else:
                    print(f"  {label:26s} {float(seconds):7.2f} s", flush=True)

    procs = [subprocess.Popen(_warmup_command(g), stdout=subprocess.PIPE, text=True)
             for g in todo]
    relays = [threading.Thread(target=relay, args=(p,)) for p in procs]
    for r in relays:
        r.start()
    for p, r in zip(procs, relays):
        r.join()
        if p.wait() != 0:
            print(f"tapegrad warmup: {p.args[3]} failed ({p.returncode})",
                  file=sys.stderr)
            return 1
    print(f"total                        {time.perf_counter() - t0:7.2f} s (wall)")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="tapegrad", description="tapegrad: warm the Numba kernels, or quick benchmarks")
    parser.add_argument("--version", action="version", version=f"tapegrad {version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    warm = sub.add_parser("warmup", help="compile and cache every Numba kernel, printing the "
                          "time")
    warm.add_argument("--float32", action="store_true",
                      help="also the float32 sweep (else compiled when first needed)")
    warm.add_argument("--forward", action="store_true",
                      help="also forward mode's tangent and forward-over-reverse (HVP) sweeps "
                           "(else compiled when first needed)")
    bench = sub.add_parser("bench", help="quick benchmarks against the installed peers")
    bench.add_argument("--quick", action="store_true",
                       help="shorter rounds and one start-up run per library (~15 s)")
    bench.add_argument("--libraries", metavar="A,B",
                       help="only these, e.g. tapegrad,numba,jax (default: all installed)")
    bench.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    if args.command == "warmup":
        return warmup(args.float32, args.forward)
    from . import bench as _bench
    libs = set(args.libraries.split(",")) if args.libraries else None
    return _bench.main(quick=args.quick, libraries=libs, json_path=args.json)


if __name__ == "__main__":
    sys.exit(main())
