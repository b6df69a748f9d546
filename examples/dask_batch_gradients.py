"""Rosenbrock gradients at many points on a Dask cluster, checked against one process.

The function is ordinary tapegrad code written for one point.  ``f.value_and_grad_batch``
takes a dask array as well as a NumPy one: with X chunked along its points, it returns
lazy dask arrays chunked like X, and each worker replays the one traced tape (sent to
it once) on its blocks.  Here the cluster is a LocalCluster of worker processes on this
machine (loopback only); a real one is ``Client("scheduler-address:8786")``.
Needs the extra: ``pip install -e ".[dask]"``.
Run:  python examples/dask_batch_gradients.py [points] [n] [workers]
      (default 200,000 points, n = 10, 2 workers; 1000000 for a million)
"""
import statistics
import sys
import time

import dask
import dask.array as da
import numpy as np
from distributed import Client, LocalCluster, wait

import tapegrad as tg
import tapegrad.replay.dask


def rosen(x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


def _same(block):
    return block


def median_time(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(points=200_000, n=10, workers=2):
    chunk = -(-points // (4 * workers))  # four blocks per worker
    X = da.random.default_rng(0).uniform(-2, 2, size=(points, n), chunks=(chunk, n))
    Xn = X.compute(scheduler="threads")

    # one process: tapegrad's own threads over NumPy arrays
    f = tg.compile(rosen)
    f.grad(Xn[0])  # trace, and load (or compile, once) the replay kernels
    v1, g1 = f.value_and_grad_batch(Xn)
    t_one = median_time(lambda: f.value_and_grad_batch(Xn))
    print(f"1 process ({tg.replay._CORES} threads): {points:,} gradients of the {n}-dimensional "
          f"Rosenbrock function in {t_one:.3f} s ({points / t_one:,.0f} points/s)")

    t0 = time.perf_counter()
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address=None) as cluster, \
            Client(cluster) as client:
        print(f"cluster: {workers} worker processes, 1 thread each, up in "
              f"{time.perf_counter() - t0:.1f} s; X in {X.numblocks[0]} blocks of {chunk:,}")
        Xc = X.persist()  # the points live on the workers, as a real batch would
        wait(Xc)

        runs = iter(range(1000))

        def batch():  # lazy V, G; new keys each time (Dask would reuse results in memory)
            Xi = Xc.map_blocks(_same, name=f"points-{next(runs)}")
            return f.value_and_grad_batch(Xi)

        t0 = time.perf_counter()
        wait(client.persist(list(batch())))
        t_first = time.perf_counter() - t0
        for addr, st in sorted(client.run(tapegrad.replay.dask.worker_stats).items()):
            if st["first_block"]:
                npts, secs = st["first_block"]
                # the scheduler may give a worker one block only: no later blocks then
                later = (f"later blocks {st['median_s_per_point'] * npts:.3f} s each"
                         if st["median_s_per_point"] is not None else "no later blocks")
                print(f"  worker {addr}: first block {npts:,} points in {secs:.3f} s "
                      f"(loads the cached kernel); {later}")

        def on_workers():  # results stay on the workers (store them, or reduce them there)
            wait(client.persist(list(batch())))

        def gathered():  # results sent back to this process
            return dask.compute(*batch())

        t_kept = median_time(on_workers)
        t_back = median_time(gathered)
        v, g = gathered()
        assert np.array_equal(v, v1) and np.array_equal(g, g1), "cluster != one process"
        print(f"cluster, first run: {t_first:.3f} s (tape sent and kernel loaded once per "
              "worker)")
        print(f"cluster, results kept on the workers: {t_kept:.3f} s "
              f"({points / t_kept:,.0f} points/s)")
        print(f"cluster, results gathered here: {t_back:.3f} s ({points / t_back:,.0f} "
              "points/s)")
        print("cluster results equal the one-process results exactly (np.array_equal)")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
