"""Where one recorded small-tensor op's time goes (issue 20): timeit medians, in one
process, of ``y * a`` and ``y.sin()`` on float64 tensors of n values (chains of 100 ops
from a leaf ``a`` requiring grad, each graph dropped, as bench_eager_vector records), and
of the pieces each is made of::

    PYTHONPATH=. python benchmarks/profile_eager_op.py [n] [rounds]   # default 4, 15

CPU time (process_time). Pieces: the op recorded; under no_grad (dispatch, NumPy call, a leaf: the difference is
the recording); the NumPy call alone, and through the thread's quiet context; an empty
Python dunder (the dispatch floor); a Tensor made field by field; a row appended
(``rbuf.extend``); ``tape.token()``.  Absolute figures move with the machine's load:
read the shares.
"""
import sys
import time
import timeit

import numpy as np

import tapegrad as tg
from tapegrad._state import state
from tapegrad.tensor import Tensor, _new


CHAIN = 100  # ops per recorded graph, as bench_eager_vector's K


class _Dunder:
    def __mul__(self, other):
        return self


def main(n=4, rounds=15):
    a = tg.tensor(np.linspace(0.5, 0.6, n), requires_grad=True)
    y = a * a
    ad, yd = a._data, y._data
    quiet, mul, sin = state.quiet, np.multiply, np.sin
    dd = _Dunder()
    tape = state.tape

    def tensor():
        t = _new(Tensor)
        t._data = yd
        t._rg = True
        t._slot = 3
        t._gen = 1
        t._tok = None
        t._grad = None
        t._retains_grad = False

    rbuf = []
    y0 = tg.tensor(np.linspace(0.1, 0.9, n))

    def chain_mul():  # as bench_eager_vector records: a new graph each call, then dropped
        v = y0
        for _ in range(CHAIN):
            v = v * a

    def chain_sin():
        v = y0 * a
        for _ in range(CHAIN):
            v = v.sin()

    def chain_none():
        v = y0
        for _ in range(CHAIN):
            v = v

    pieces = {
        "y * a recorded": chain_mul,
        "y * a no_grad": None,
        "y.sin() recorded": chain_sin,
        "y.sin() no_grad": None,
        "np.multiply": lambda: mul(yd, ad),
        "quiet.run(np.multiply)": lambda: quiet.run(mul, yd, ad),
        "np.sin": lambda: sin(yd),
        "empty dunder": lambda: dd * dd,
        "Tensor field by field": tensor,
        "rbuf.extend row": lambda: rbuf.extend((1, 2, 3, 4, 5)),
        "tape.token()": lambda: tape.token(),
    }
    number = 20000
    out = {k: [] for k in pieces}
    for _ in range(rounds):
        for k, f in pieces.items():
            if f is None:
                with tg.no_grad():
                    f = chain_mul if k.startswith("y * a") else chain_sin
                    t = timeit.Timer(f, timer=time.process_time).timeit(number // CHAIN)
                    out[k].append(t / (number // CHAIN * CHAIN))
                continue
            if k.endswith("recorded"):
                t = timeit.Timer(f, timer=time.process_time).timeit(number // CHAIN)
                out[k].append(t / (number // CHAIN * CHAIN))
                continue
            out[k].append(timeit.Timer(f, timer=time.process_time).timeit(number) / number)
            rbuf.clear()
        timeit.timeit(lambda: None, number=1)
    loop = np.median(timeit.Timer(chain_none, timer=time.process_time).repeat(
        rounds, number // CHAIN)) / (number // CHAIN * CHAIN)
    base = np.median(timeit.Timer(lambda: None, timer=time.process_time).repeat(rounds, number)) / number
    print(f"n={n}: us per call, median of {rounds}; the timeit lambda's own "
          f"{base * 1e6:.3f} us is subtracted")
    for k, v in out.items():
        own = loop if k.startswith("y") else base  # (a chain's loop step, or the lambda)
        print(f"  {k:26s} {(np.median(v) - own) * 1e6:7.3f}")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))
