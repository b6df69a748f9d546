"""tapegrad.autograd.forward_ad against torch.autograd.forward_ad: tangents of dual tensors
through elementwise ops, matmul and reductions, the namedtuple, levels, and the errors.
(Forward mode here is computed by transposing the reverse graph: forward_ad.py.)"""
import numpy as np
import pytest

import tapegrad as tg
import tapegrad.autograd.forward_ad as fwAD

torch = pytest.importorskip("torch")
tfwAD = torch.autograd.forward_ad
pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(1)
A = RNG.standard_normal((3, 3))
P = RNG.standard_normal(3)
T = RNG.standard_normal(3)

FUNCS = {
    "elementwise": lambda x, lib: x.sin() * x.exp(),
    "matmul": lambda x, lib: lib.tensor(A) @ x.tanh(),
    "reduction": lambda x, lib: (x * x).sum() / x.cos().sum(),
    "chain_of_views": lambda x, lib: x.reshape(3, 1).expand(3, 2).T.sum(0) ** 2,
}


def _tangent(fw, lib, f, p=P, t=T):
    with fw.dual_level():
        d = fw.make_dual(lib.tensor(p), lib.tensor(t))
        y = f(d, lib)
        primal, tangent = fw.unpack_dual(y)
        return np.asarray(primal.detach()), np.asarray(tangent.detach())


@pytest.mark.parametrize("name", FUNCS)
def test_tangent_matches_torch(name):
    got = _tangent(fwAD, tg, FUNCS[name])
    want = _tangent(tfwAD, torch, FUNCS[name])
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def test_two_duals_and_a_constant():
    def run(fw, lib):
        with fw.dual_level():
            a = fw.make_dual(lib.tensor(P), lib.tensor(T))
            b = fw.make_dual(lib.tensor(T), lib.ones(3, dtype=lib.float64))
            c = lib.tensor(A[0])
            y = (a * b).sin() + c * a
            return [np.asarray(v.detach()) for v in fw.unpack_dual(y)]
    for g, w in zip(run(fwAD, tg), run(tfwAD, torch), strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-10)


def test_unpack_dual_namedtuple_and_levels():
    x = tg.tensor(P)
    assert fwAD.UnpackedDualTensor._fields == tfwAD.UnpackedDualTensor._fields
    with fwAD.dual_level():
        d = fwAD.make_dual(x, tg.tensor(T))
        p, t = fwAD.unpack_dual(d)  # a dual itself: its primal and tangent
        assert p is x and np.allclose(np.asarray(t), T)
        assert fwAD.unpack_dual(x).tangent is None  # not a dual
        assert fwAD.unpack_dual(tg.ones(3) * 2).tangent is None  # depends on no dual
        u = fwAD.unpack_dual(d * 2)
        assert isinstance(u, fwAD.UnpackedDualTensor) and u.tangent is not None
    assert fwAD.unpack_dual(d * 2).tangent is None  # the level is gone
    assert fwAD.enter_dual_level() == 0
    fwAD.exit_dual_level()


ERRORS = {
    "no_level": lambda fw, lib: fw.make_dual(lib.ones(3), lib.ones(3)),
    "shape": lambda fw, lib: _in_level(fw, lambda: fw.make_dual(lib.ones(3), lib.ones(2))),
    "int_primal": lambda fw, lib: _in_level(fw, lambda: fw.make_dual(lib.arange(3),
                                                                     lib.arange(3))),
    "dual_of_a_dual": lambda fw, lib: _in_level(fw, lambda: fw.make_dual(
        fw.make_dual(lib.ones(3), lib.ones(3)), lib.ones(3))),
    "nested_levels": lambda fw, lib: _in_level(fw, lambda: fw.dual_level().__enter__()),
    "unpack_not_a_tensor": lambda fw, lib: _in_level(fw, lambda: fw.unpack_dual(1.0)),
}


def _in_level(fw, run):
    with fw.dual_level():
        return run()


@pytest.mark.parametrize("case", ERRORS)
def test_errors_match_torch(case):
    caught = []
    for fw, lib in ((fwAD, tg), (tfwAD, torch)):
        with pytest.raises(Exception) as info:
            ERRORS[case](fw, lib)
        caught.append((type(info.value), str(info.value).replace("tapegrad", "torch")))
    assert caught[0] == caught[1]
    assert fwAD._state.level is None  # every level left again


def test_func_jvp_is_forward_ad_by_transposition():
    """func.jvp and forward_ad agree, and both equal J t from the Jacobian."""
    f = FUNCS["matmul"]
    _, jt = tg.func.jvp(lambda x: f(x, tg), (tg.tensor(P),), (tg.tensor(T),))
    J = tg.func.jacrev(lambda x: f(x, tg))(tg.tensor(P))
    np.testing.assert_allclose(np.asarray(jt), np.asarray(J) @ T, rtol=1e-12)
    np.testing.assert_allclose(_tangent(fwAD, tg, f)[1], np.asarray(jt), rtol=1e-12)
