"""Loaded traces, round 33: the replay tiers must agree on everything ``Traced.run`` returns.

A point off the traced branch (a guard fails: ``bad``) got NaN in G from every tier, but V
held the interpreter's value of the traced branch there, and a fused kernel's V nothing at
all (it stops at the failed guard: the memory np.empty gave, 4.9e-323 in the case
tests/fuzz_fused_loaded.py --seed 3305 found, a loaded trace whose guard a meta edit
changed).  V is NaN there now, from every tier.
"""
import os

import numpy as np
import pytest

import tapegrad as tg


def _guarded(x):
    return (x * x).sum() * 2.0 if x[0] > 0 else x.sum()


X = np.array([[0.5, 1.0, 2.0], [-0.5, 1.0, 2.0], [1.5, -1.0, 0.0], [-2.0, 0.0, 1.0]])


def _check(V, G, bad):
    assert bad.tolist() == [0, 1, 0, 1]
    np.testing.assert_array_equal(V[::2], [2 * (x * x).sum() for x in X[::2]])
    assert np.isnan(V[1::2]).all() and np.isnan(G[1::2]).all()


def test_interpreter_gives_nan_values_off_the_traced_branch(tmp_path):
    tg.jit.trace(_guarded, X[0]).save(tmp_path / "t.npz")
    t = tg.jit.load(tmp_path / "t.npz")
    _check(*t.run(X, grad=True))
    _check(*t.run(X, grad=True, progress=True))


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT", "0") == "1",
                    reason="fused kernels are off under NUMBA_DISABLE_JIT=1")
def test_fused_kernel_gives_the_interpreters_values_off_the_traced_branch(tmp_path):
    tg.jit.trace(_guarded, X[0]).save(tmp_path / "t.npz")
    t = tg.jit.load(tmp_path / "t.npz")
    want = [a.copy() for a in t.run(X, grad=True)]
    assert t.compile_fused(wait=True) == "fused"
    got = t.run(X, grad=True)
    for w, g in zip(want, got, strict=True):
        np.testing.assert_array_equal(w, g)
    _check(*got)
