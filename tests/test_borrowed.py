"""``_jit.borrowed``: an array without its reference count (a null meminfo), for the
one-point replay's hot loops (``_point._replay_point``): the same memory, and none of the
atomic NRT reference counts Numba leaves around rules with branchy bodies (the softmax
point rule's: 3 increfs and 3 decrefs a row in the point interpreters)."""
import numpy as np
import pytest

from tapegrad import _jit, _point
from tapegrad._jit import borrowed, njit
from tapegrad.ops import nn as N


def _plain(vals, meta, o, a, k):
    for _ in range(3):
        N.softmax_point_fwd(vals, meta, o, a, k, False)
    vals[0] = -1.0


_plain_rule = _jit.rule(_plain, inline=True)


def _lent_compiled(vals, meta, o, a, k):
    _plain_rule(borrowed(vals), borrowed(meta), o, a, k)


def test_borrowed_is_the_array_itself():
    a = np.arange(10.0)
    assert borrowed(a) is a  # (as Python runs it: interpreted sweeps, NUMBA_DISABLE_JIT=1)


@pytest.mark.skipif(_jit.DISABLED, reason="compiled code only")
def test_borrowed_arrays_compile_without_reference_counts():
    meta = np.array([1, 4, 1])  # one group of 4
    plain = njit(lambda v, m, o, a, k: _plain_rule(v, m, o, a, k), cache=False)
    lent = njit(_lent_compiled, cache=False)
    want, got = np.arange(8.0), np.arange(8.0)
    _plain(want, meta, 4, 0, 0)  # (Python: the rule's own code)
    for f, v in ((plain, got), (lent, got.copy())):
        f(v, meta, np.uint64(4), np.uint64(0), 0)
        np.testing.assert_array_equal(v, want)  # the writes land in the caller's array
    # the arrays' own meminfos: increfs stay; null ones: LLVM folds the counts' null test
    asm = {f: next(iter(f.dispatcher.inspect_asm().values())) for f in (plain, lent)}
    assert asm[plain].count("NRT_incref") > 0
    assert asm[lent].count("NRT_incref") == 0


def test_borrowed_code_generator_is_in_the_kernels_digest(monkeypatch):
    """Editing the intrinsic's code generator empties the caches of the kernels using it
    (``_jit.compiled_digest``, as for an edited rule)."""
    before = _jit.compiled_digest(_point._replay_point)
    monkeypatch.setattr(_jit.borrowed, "_make", _jit.njit)  # (any other function)
    assert _jit.compiled_digest(_point._replay_point) != before
