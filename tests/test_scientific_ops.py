"""matrix_exp, the LU family (lu_factor, lu, lu_unpack, lu_solve), scatter_reduce, cov,
corrcoef, histogram, tril_indices/triu_indices and Tensor.H/mH against PyTorch: values,
first gradients, and second gradients where the op is composed of differentiable ops."""
import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")
RNG = np.random.default_rng(0)
A3 = RNG.normal(size=(3, 3))
B32 = RNG.normal(size=(3, 2))
BATCH = RNG.normal(size=(2, 4, 4)) * 2


def _grads(lib, f, arrays, second=True):
    """f's outputs, the gradient of a weighted sum of them, and (second) the gradient of
    that gradient's squared norm."""
    xs = [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in arrays]
    ys = f(lib, *xs)
    ys = ys if isinstance(ys, tuple) else (ys,)
    total = sum((y * lib.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)),
                                dtype=lib.float64)).sum() for y in ys if y.dtype == lib.float64)
    gs = lib.autograd.grad(total, xs, create_graph=second)
    out = [y.detach().numpy() for y in ys] + [g.detach().numpy() for g in gs]
    if second:
        out += [g.numpy() for g in lib.autograd.grad(sum((g ** 2).sum() for g in gs), xs)]
    return out


LINALG = {
    "matrix_exp": (lambda lib, a: lib.linalg.matrix_exp(a), [A3]),
    "matrix_exp_scaled": (lambda lib, a: lib.matrix_exp(a * 10), [A3]),
    "matrix_exp_batch": (lambda lib, a: a.matrix_exp(), [BATCH]),
    "lu_factor": (lambda lib, a: lib.linalg.lu_factor(a), [A3]),
    "lu": (lambda lib, a: lib.linalg.lu(a), [A3]),
    "lu_batch": (lambda lib, a: lib.linalg.lu(a), [BATCH]),
    "lu_unpack": (lambda lib, a: lib.lu_unpack(*lib.linalg.lu_factor(a)), [A3]),
    "lu_solve": (lambda lib, a, b: lib.linalg.lu_solve(*lib.linalg.lu_factor(a), b), [A3, B32]),
    "lu_solve_adjoint": (lambda lib, a, b: lib.linalg.lu_solve(*lib.linalg.lu_factor(a), b,
                                                               adjoint=True), [A3, B32]),
    "lu_solve_right": (lambda lib, a, b: lib.linalg.lu_solve(*lib.linalg.lu_factor(a), b.mT,
                                                             left=False), [A3, B32]),
}


@pytest.mark.parametrize("name", sorted(LINALG))
def test_linalg_against_torch(name):
    f, arrays = LINALG[name]
    ours, theirs = _grads(tg, f, arrays), _grads(torch, f, arrays)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-11)


def test_lu_factor_outputs_and_errors():
    LU, piv = tg.linalg.lu_factor(tg.tensor(A3))
    tLU, tpiv = torch.linalg.lu_factor(torch.tensor(A3))
    assert piv.dtype == tg.int32 and piv.tolist() == tpiv.tolist()
    assert not piv.requires_grad
    P, L, U = tg.linalg.lu(tg.tensor(A3))
    np.testing.assert_allclose((P @ L @ U).numpy(), A3, atol=1e-14)
    with pytest.raises(RuntimeError, match="linalg.lu_factor"):
        tg.linalg.lu_factor(tg.ones(3))
    np.testing.assert_allclose(tg.linalg.matrix_exp(tg.zeros(2, 2)).numpy(), np.eye(2))


SCATTER_X = np.round(RNG.normal(size=(4, 3)) * 2) / 2  # halves: ties for amax/amin
SCATTER_S = np.round(RNG.normal(size=(5, 3)) * 2) / 2
SCATTER_I = RNG.integers(0, 4, size=(5, 3))


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_against_torch(reduce, include_self):
    def f(lib, x, s):
        return x.scatter_reduce(0, lib.tensor(SCATTER_I), s, reduce, include_self=include_self)

    for s in (SCATTER_S, np.where(SCATTER_S == 0, 0.5, SCATTER_S)):  # with zeros, without
        ours = _grads(tg, f, [SCATTER_X, s], second=False)
        theirs = _grads(torch, f, [SCATTER_X, s], second=False)
        for a, b in zip(ours, theirs, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_scatter_reduce_ints_larger_src_and_errors():
    idx = [0, 1, 0]
    for lib in (tg, torch):  # integer means round down; src's extra element is not read
        y = lib.zeros(3, dtype=lib.int64).scatter_reduce(0, lib.tensor(idx),
                                                          lib.tensor([4, 5, 6, 7]), "mean")
        assert y.tolist() == [3, 2, 0]
        y = lib.zeros(3, dtype=lib.int64).scatter_reduce(0, lib.tensor(idx),
                                                          lib.tensor([4, 5, 6, 7]), "mean",
                                                          include_self=False)
        assert y.tolist() == [5, 5, 0]
    x = tg.zeros(2)
    x.scatter_reduce_(0, tg.tensor([1, 1]), tg.tensor([2.0, 3.0]), "sum")
    assert x.tolist() == [0.0, 5.0]
    with pytest.raises(RuntimeError, match="reduce argument must be"):
        tg.zeros(2).scatter_reduce(0, tg.tensor([0]), tg.ones(1), "max")


STATS = {
    "cov": lambda lib, x: lib.cov(x),
    "cov_1d": lambda lib, x: lib.cov(x[0]),
    "cov_method_c0": lambda lib, x: x.cov(correction=0),
    "cov_weights": lambda lib, x: lib.cov(x, correction=2, fweights=lib.tensor([1, 2, 1, 3, 1]),
                                          aweights=lib.tensor([0.5, 1.0, 0.2, 0.7, 1.5],
                                                              dtype=lib.float64)),
    "corrcoef": lambda lib, x: lib.corrcoef(x),
    "corrcoef_1d": lambda lib, x: x[1].corrcoef(),
}


@pytest.mark.parametrize("name", sorted(STATS))
def test_cov_corrcoef_against_torch(name):
    x = RNG.normal(size=(3, 5))
    ours, theirs = _grads(tg, STATS[name], [x]), _grads(torch, STATS[name], [x])
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_histogram_and_triangle_indices_against_torch():
    data = RNG.normal(size=17)
    for kw in (dict(bins=4), dict(bins=3, range=(-1.0, 1.0)), dict(bins=3, density=True),
               dict(bins=2, weight=np.full(17, 2.0))):
        res = []
        for lib in (tg, torch):
            k = {a: (lib.tensor(v) if isinstance(v, np.ndarray) else v) for a, v in kw.items()}
            h = lib.histogram(lib.tensor(data), **k)
            res.append((h.hist.numpy(), h.bin_edges.numpy()))
        for a, b in zip(*res, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-12)
    edges = [-2.0, 0.0, 0.5, 3.0]
    h, e = tg.tensor(data).histogram(tg.tensor(edges))
    th, te = torch.tensor(data).histogram(torch.tensor(edges, dtype=torch.float64))
    assert h.tolist() == th.tolist() and e.tolist() == te.tolist()
    for args in ((3, 4, 1), (4, 3, -1), (3, 3)):
        assert tg.tril_indices(*args).tolist() == torch.tril_indices(*args).tolist()
        assert tg.triu_indices(*args).tolist() == torch.triu_indices(*args).tolist()
    assert tg.tril_indices(2, 2).dtype == tg.int64


def test_conjugate_transposes_of_real_tensors():
    x = tg.tensor(RNG.normal(size=(2, 3)))
    assert x.H.tolist() == x.T.tolist() and x.mH.shape == (3, 2)
    assert tg.ones(4, 2, 3).mH.shape == (4, 3, 2) and x.adjoint().shape == (3, 2)
    with pytest.raises(RuntimeError, match="only supported on matrices"):
        tg.ones(3).H


X37 = RNG.normal(size=(3, 7))
MORE = {
    "unfold_dim1": (lambda lib, x: x.unfold(1, 3, 2), [X37]),
    "unfold_dim0": (lambda lib, x: x.unfold(0, 2, 1), [X37]),
    "unfold_1d": (lambda lib, x: x[0].unfold(0, 4, 3), [X37]),
    "index_put": (lambda lib, x, v: x.index_put((lib.tensor([0, 2]), lib.tensor([1, 1])), v),
                  [X37, np.array([1.0, 2.0])]),
    "index_put_accumulate": (lambda lib, x, v: x.index_put(
        (lib.tensor([0, 2, 0]), lib.tensor([1, 1, 1])), v, accumulate=True),
        [X37, np.array([1.0, 2.0, 3.0])]),
    "index_put_rows": (lambda lib, x, v: lib.index_put(x, (lib.tensor([2, 0]),), v, True),
                       [X37, RNG.normal(size=7)]),
    # (other gets no gradient: PyTorch's is zeros, tapegrad's graph has no edge to it)
    "copysign": (lambda lib, x: lib.copysign(x, lib.tensor(np.cos(np.arange(21)).reshape(3, 7))),
                 [X37]),
    "copysign_number": (lambda lib, x: x.copysign(-1.0), [X37]),
}


@pytest.mark.parametrize("name", sorted(MORE))
def test_windows_puts_and_signs_against_torch(name):
    f, arrays = MORE[name]
    ours, theirs = _grads(tg, f, arrays, second=False), _grads(torch, f, arrays, second=False)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_in_place_puts_and_unfold_errors():
    for lib in (tg, torch):
        y = lib.zeros(3, 3)
        y.index_put_((lib.tensor([0, 0]), lib.tensor([1, 1])), lib.tensor([1.0, 2.0]),
                     accumulate=True)
        assert y[0, 1].item() == 3.0
        z = lib.ones(2)
        z.copysign_(lib.tensor([-1.0, 0.0]))
        assert z.tolist() == [-1.0, 1.0]
    with pytest.raises(RuntimeError, match="maximum size for tensor at dimension 1 is 7"):
        tg.ones(3, 7).unfold(1, 8, 1)
    with pytest.raises(RuntimeError, match="step is 0"):
        tg.ones(3, 7).unfold(1, 2, 0)
