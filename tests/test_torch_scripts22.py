"""Differences from PyTorch found by the scripts s387-s433 (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch: in-place writes to an expanded tensor,
randint's empty range, the state_dict / load_state_dict hooks, assert_close's None pairs
and class names, linalg.eig / eigvals of real matrices, lobpcg and Module.to_empty."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- in-place ops on a tensor whose elements share memory (an expand) ----------------------
WRITES = [
    lambda e, L: e.add_(1), lambda e, L: e.mul_(2), lambda e, L: e.exp_(),
    lambda e, L: e.clamp_(0), lambda e, L: e.sigmoid_(), lambda e, L: e.copy_(L.zeros(3, 4)),
    lambda e, L: e.__iadd__(1), lambda e, L: e.addcmul_(L.ones(3, 4), L.ones(3, 4)),
    lambda e, L: e.uniform_(), lambda e, L: e.normal_(), lambda e, L: e[0].sub_(1),
    lambda e, L: e.t().div_(2), lambda e, L: e.lerp_(L.zeros(3, 4), 0.5),
]


@pytest.mark.parametrize("write", WRITES)
def test_inplace_on_an_expanded_tensor_is_refused_as_pytorchs(write, raises_as_torch):
    raises_as_torch(lambda L: write(L.ones(3, 1).expand(3, 4), L))


@pytest.mark.parametrize("write", [
    lambda e, L: e.fill_(2.0), lambda e, L: e.zero_(),
    lambda e, L: e[:, 0].add_(1),  # (a column of the expand: no element shared)
    lambda e, L: L.ones(3, 1).expand(3, 1).mul_(2),  # (expanded to its own shape)
    lambda e, L: L.ones(1, 4).expand(3, 4)[1].add_(1),  # (a row: stride 1)
])
def test_writes_pytorch_allows_on_an_expanded_tensor(write, torch_float64):
    ours = write(tg.ones(3, 1).expand(3, 4), tg)
    theirs = write(torch_float64.ones(3, 1).expand(3, 4), torch_float64)
    np.testing.assert_array_equal(np.asarray(ours), theirs.numpy())


def test_expanded_with_grad_is_refused_before_recording():
    x = tg.ones(3, 1, requires_grad=True)
    e = x * 1
    with pytest.raises(RuntimeError, match="Please clone"):
        e.expand(3, 4).mul_(2)
    e.expand(3, 4).clone().mul_(2).sum().backward()  # the fix the message names works
    assert x.grad.tolist() == [[8.0]] * 3


# ---- randint / randint_like: an empty range is PyTorch's RuntimeError ----------------------
@pytest.mark.parametrize("call", [
    lambda L: L.randint(5, 2, (3,)), lambda L: L.randint(0, (2,)), lambda L: L.randint(3, 3, (0,)),
    lambda L: L.randint_like(L.ones(2), 3, 1), lambda L: L.randint_like(L.ones(2), 0),
])
def test_randint_empty_range_refused_as_pytorchs(call, raises_as_torch):
    raises_as_torch(call)


def test_randint_draws_in_its_range():
    v = tg.randint(-2, 3, (200,), generator=tg.Generator().manual_seed(0))
    assert v.dtype == tg.int64 and set(v.tolist()) == {-2, -1, 0, 1, 2}


# ---- state_dict and load_state_dict hooks ----------------------------------------------------
def _state_hooks(L):
    nn, log = L.nn, []
    net = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Linear(2, 1)))
    with L.no_grad():
        for p in net.parameters():
            p.fill_(0.5)
    for m in (net, net[0], net[1], net[1][0]):
        m.register_state_dict_pre_hook(
            lambda mod, prefix, keep: log.append(("pre", type(mod).__name__, prefix, keep)))
        m.register_state_dict_post_hook(
            lambda mod, sd, prefix, meta: log.append(("post", prefix, list(sd), meta)))
    net.state_dict(prefix="m.", keep_vars=True)

    def rename(mod, sd, prefix, meta, strict, missing, unexpected, errors):
        log.append(("load-pre", prefix, sorted(sd), meta, strict))
        if prefix + "old_weight" in sd:  # (an old checkpoint's name)
            sd[prefix + "weight"] = sd.pop(prefix + "old_weight")

    net[0].register_load_state_dict_pre_hook(rename)

    def forgive(mod, keys):
        log.append(("load-post", type(mod).__name__, list(keys.missing_keys),
                    list(keys.unexpected_keys)))
        keys.unexpected_keys.clear()

    handle = net.register_load_state_dict_post_hook(forgive)
    old = dict(net.state_dict())
    old["0.old_weight"] = old.pop("0.weight") * 2
    old["extra"] = L.ones(1)
    res = net.load_state_dict(old)
    log.append(("result", res.missing_keys, res.unexpected_keys, net[0].weight.tolist()))
    handle.remove()
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict({"extra": L.ones(1)})
    log.append(str(info.value))
    net.register_load_state_dict_post_hook(lambda mod, keys: keys)
    with pytest.raises(AssertionError):
        net.load_state_dict(net.state_dict())
    return log


def test_state_dict_hooks_run_as_pytorchs(torch_float64):
    assert _state_hooks(tg) == _state_hooks(torch_float64)


def test_state_dict_hook_handles_remove():
    m, seen = tg.nn.Linear(1, 1), []
    h = m.register_state_dict_pre_hook(lambda mod, prefix, keep: seen.append(prefix))
    m.state_dict()
    h.remove()
    m.state_dict()
    assert seen == [""]


# ---- testing.assert_close: None pairs, and PyTorch's class names in its TypeError ----------
@pytest.mark.parametrize("pair", [
    lambda L: (L.ones(1), [1.0]), lambda L: (L.nn.Parameter(L.ones(1)), "x"),
    lambda L: (np.ones(1), L.ones(1)), lambda L: ({"a": 1}, [1]),
    lambda L: (None, L.ones(1)), lambda L: (1, None), lambda L: ([L.ones(1)], [None]),
])
def test_assert_close_refusals_say_what_pytorchs_say(pair, raises_as_torch):
    raises_as_torch(lambda L: L.testing.assert_close(*pair(L)))


def test_assert_close_takes_none_for_none():
    tg.testing.assert_close(None, None)
    tg.testing.assert_close({"a": [None, tg.ones(1)]}, {"a": [None, tg.ones(1)]})


# ---- linalg.eig / eigvals of real matrices: complex results, as PyTorch's -----------------
EIG_A = np.array([[0.0, -1.0, 0.3], [1.0, 0.2, 0.5], [0.1, 0.4, 1.5]])


def _eig_losses(L, a):
    w, V = L.linalg.eig(a)
    # (losses that do not depend on each eigenvector's phase, which LAPACK builds may differ in)
    return [(w.real * L.tensor([1.0, 2.0, 3.0])).sum() + (w.imag ** 2).sum(),
            (V.abs() ** 3).sum(), L.linalg.eigvals(a).abs().sum(),
            (V * V.conj()).real[0].sum() + (w * w).real.sum()]


@pytest.mark.parametrize("batch", [False, True])
def test_eig_values_and_gradients_as_pytorchs(batch, torch_float64):
    A = np.stack([EIG_A, 2 * EIG_A.T]) if batch else EIG_A
    a, b = tg.tensor(A, requires_grad=True), torch_float64.tensor(A, requires_grad=True)
    w, V = tg.linalg.eig(a)
    wt, Vt = torch_float64.linalg.eig(b)
    assert w.dtype == tg.complex128 and type(w.grad_fn).__name__ == type(wt.grad_fn).__name__
    np.testing.assert_allclose(np.asarray(tg.view_as_real(w).detach()),
                               torch_float64.view_as_real(wt).detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(np.asarray(V.abs().detach()), Vt.abs().detach().numpy(),
                               atol=1e-12)
    for ours, theirs in zip(_eig_losses(tg, a), _eig_losses(torch_float64, b), strict=True):
        g, = tg.autograd.grad(ours, a, retain_graph=True)
        gt, = torch_float64.autograd.grad(theirs, b, retain_graph=True)
        np.testing.assert_allclose(np.asarray(g), gt.numpy(), atol=1e-10)


def test_eigvals_gradient_matches_finite_differences():
    a = tg.tensor(EIG_A, requires_grad=True)
    c = tg.tensor([1.0, -2.0, 0.5])
    assert tg.autograd.gradcheck(
        lambda t: tg.stack([(tg.linalg.eigvals(t).real * c).sum(),
                            (tg.linalg.eigvals(t).imag ** 2).sum(),
                            (tg.linalg.eig(t)[1].abs() ** 2 * c).sum()]), (a,))


def test_eig_refusals():
    a = tg.tensor(EIG_A, requires_grad=True)
    w, V = tg.linalg.eig(a)
    with pytest.raises(RuntimeError, match="specified up to multiplication by e"):
        (V.real * V.imag).sum().backward()  # (depends on the phases: PyTorch refuses too)
    g, = tg.autograd.grad(tg.linalg.eigvals(a).abs().sum(), a, create_graph=True)
    with pytest.raises(RuntimeError, match="differentiate"):
        g.sum().backward()
    assert tg.linalg.eigvals(tg.tensor(EIG_A, dtype=tg.float32)).dtype == tg.complex64
    with pytest.raises(RuntimeError, match="square"):
        tg.linalg.eig(tg.ones(2, 3))


# ---- torch.lobpcg: the extreme eigenpairs of a symmetric matrix (the dense solver's) -------
LOB_R = np.random.default_rng(0).standard_normal((9, 9))
LOB_A, LOB_B = LOB_R @ LOB_R.T + np.eye(9), np.diag(np.linspace(1.0, 2.0, 9)) + 0.1


def _lobpcg(L):
    a = L.tensor(LOB_A, requires_grad=True)
    E, V = L.lobpcg(a, k=2, tol=1e-12, niter=300)
    g, = L.autograd.grad(E.sum() + (V[:, 0] ** 2 * L.arange(9.0)).sum(), a)
    ad = a.detach()
    return [E, V.abs(), g, L.lobpcg(ad, k=2, largest=False, tol=1e-12, niter=500)[0],
            L.lobpcg(ad, k=1, B=L.tensor(LOB_B), tol=1e-12, niter=500)[0],
            L.lobpcg(L.stack([ad, 2 * ad]), k=1, tol=1e-12, niter=300)[0]]


def test_lobpcg_converges_to_pytorchs_eigenpairs(torch_float64):
    for ours, theirs in zip(_lobpcg(tg), _lobpcg(torch_float64), strict=True):
        np.testing.assert_allclose(np.asarray(ours.detach()), theirs.detach().numpy(),
                                   rtol=1e-7, atol=1e-8)


def test_lobpcg_gradient_matches_finite_differences():
    a = tg.tensor(LOB_A[:6, :6], requires_grad=True)
    b = tg.tensor(LOB_B[:6, :6], requires_grad=True)
    sym = (lambda t: (t + t.mT) / 2)
    assert tg.autograd.gradcheck(lambda t, u: tg.lobpcg(sym(t), k=2, B=sym(u))[0], (a, b))


def test_lobpcg_refuses_too_many_pairs_as_pytorch(raises_as_torch):
    raises_as_torch(lambda L: L.lobpcg(L.eye(8), k=3))


# ---- Module.to_empty: new storage of the same shapes and dtypes, then loaded -----------------
def _emptied(L):
    m = L.nn.Sequential(L.nn.Linear(3, 2), L.nn.BatchNorm1d(2))
    saved = {k: v.clone() for k, v in m.state_dict().items()}
    w = m[0].weight
    out = m.to_empty(device="cpu")
    shapes = [(k, tuple(v.shape), str(v.dtype)) for k, v in m.state_dict().items()]
    m.load_state_dict(saved)
    return [out is m, m[0].weight is w, isinstance(m[0].weight, L.nn.Parameter),
            m[0].weight.requires_grad, shapes,
            all(L.equal(m.state_dict()[k], v) for k, v in saved.items())]


def test_to_empty_keeps_shapes_dtypes_and_parameters_as_pytorchs(torch_float64):
    assert _emptied(tg) == _emptied(torch_float64)
    with pytest.raises(AssertionError, match="CUDA"):
        tg.nn.Linear(1, 1).to_empty(device="cuda")


# ---- complex prod, isfinite, isnan, isinf -------------------------------------------------
def _complex_prod(L):
    z = L.tensor([[1 + 2j, -0.5 + 0.25j, 3 - 1j], [0j, 2 + 0j, 1j]], requires_grad=True)
    outs = [z.prod(), L.prod(z, 1), z.prod(0, keepdim=True), z.prod(-1, dtype=L.complex128)]
    (outs[1].abs().sum() + outs[0].real + outs[2].imag.sum()).backward()
    b = L.tensor([complex("nan"), complex(1, float("inf")), 1j, complex(-float("inf"), 0)])
    return outs + [z.grad, L.isfinite(b), b.isnan(), L.isinf(b), b.isfinite(),
                   L.ones(0, 2, dtype=L.complex128).prod(0)], \
        [type(o.grad_fn).__name__ for o in outs]


def test_complex_prod_and_predicates_as_pytorchs(torch_float64):
    (ours, names), (theirs, tnames) = _complex_prod(tg), _complex_prod(torch_float64)
    assert names == tnames
    for a, b in zip(ours, theirs, strict=True):
        assert str(a.dtype) == str(b.dtype)
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), atol=1e-12)


def test_complex_prod_gradient_matches_finite_differences():
    re = tg.tensor([[1.0, -0.5, 3.0], [0.2, 2.0, 0.0]], requires_grad=True)
    im = tg.tensor([[2.0, 0.25, -1.0], [0.0, 0.5, 1.0]], requires_grad=True)
    assert tg.autograd.gradcheck(
        lambda r, i: tg.view_as_real(tg.complex(r, i).prod(1)), (re, im))
