"""Differences from PyTorch found by the scripts s320-s386 (tests/torch_scripts/), each
against PyTorch: transforms' cache_size, a fresh Generator's fixed seed, bitwise ops' and
view(dtype)'s errors, interpolate's antialias, forward AD through parameters, scatter's
deprecated reduce, constraint reprs, Binomial.enumerate_support and node names."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- transforms with cache_size=1 keep their last (x, y) pair ------------------------------
def _cached(L):
    T = L.distributions.transforms
    x = L.tensor([-30.0, -1.0, 0.0, 0.5, 25.0], requires_grad=True)
    th = T.TanhTransform(cache_size=1)
    y = th(x)
    back = th.inv(y)  # the kept x: exact where atanh(tanh(x)) is inf (|x| large)
    again = th.inv(y.detach().clone())  # a new tensor: recomputed
    comp = T.ComposeTransform([T.AffineTransform(0.5, 2.0), T.TanhTransform()], cache_size=1)
    yc = comp(x)
    d = L.distributions.TransformedDistribution(
        L.distributions.Normal(L.zeros(5), 1.0), [T.TanhTransform(cache_size=1)])
    s = d.transforms[0](x)
    lp = d.log_prob(s)  # x comes back from the cache, not atanh(±1)
    inv = T.ExpTransform(cache_size=1).inv
    u = L.tensor([1.0, 2.0])
    return [back is x, again, comp.inv(yc) is x, lp, th.with_cache(1) is th,
            th.with_cache(0)(x), inv(u) is inv(u), inv.inv(inv(u)) is u], x


def test_transform_cache_returns_the_kept_pair_as_pytorchs(torch_float64):
    (ours, x), (theirs, xt) = _cached(tg), _cached(torch_float64)
    for a, b in zip(ours, theirs, strict=True):
        if isinstance(b, bool):
            assert a is b
        else:
            np.testing.assert_allclose(np.asarray(a.detach()), b.detach().numpy(), rtol=1e-12)
    ours[3].sum().backward()
    theirs[3].sum().backward()
    np.testing.assert_allclose(np.asarray(x.grad), xt.grad.numpy(), rtol=1e-12)


def test_transform_cache_gradient_flows_through_the_kept_x():
    T = tg.distributions.transforms
    x = tg.tensor([-30.0, 0.5, 25.0], requires_grad=True)
    th = T.TanhTransform(cache_size=1)
    (th.inv(th(x)) * tg.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(ValueError, match="cache_size must be 0 or 1"):
        T.ExpTransform(cache_size=2)


# ---- Generator: a fresh one starts from PyTorch's fixed seed; seed() draws entropy ---------
def test_fresh_generator_seed_and_reseed_as_pytorchs(torch):
    for L in (tg, torch):
        g, h = L.Generator(), L.Generator()
        assert g.initial_seed() == 67280421310721
        assert L.equal(L.rand(3, generator=g), L.rand(3, generator=h))  # the same stream
        s = g.seed()
        assert type(s) is int and s >= 0 and g.initial_seed() == s
        assert L.equal(L.rand(3, generator=g),
                       L.rand(3, generator=L.Generator().manual_seed(s)))
    before = tg.initial_seed()
    assert tg.initial_seed() == before  # asking does not reseed the default stream
    state = tg.get_rng_state()
    a = tg.rand(2)
    tg.set_rng_state(state)
    tg.initial_seed()
    assert tg.equal(tg.rand(2), a)


# ---- bitwise ops on floats: PyTorch's message names the float dtype ------------------------
@pytest.mark.parametrize("call", [
    lambda L: L.tensor([1.5]) & L.tensor([1]),
    lambda L: L.tensor([1]) | L.tensor([1.5], dtype=L.float32),
    lambda L: L.bitwise_xor(L.tensor([3]), 2.5),
    lambda L: ~L.tensor([1.0]),
    lambda L: L.tensor([1.0], dtype=L.float16) ^ L.tensor([True]),
])
def test_bitwise_on_floats_says_what_pytorchs_says(call, torch_float64):
    """(float64 the default in both: PyTorch names the promoted float dtype)"""
    errors = []
    for L in (tg, torch_float64):
        with pytest.raises(Exception) as info:
            call(L)
        errors.append((info.type, str(info.value)))
    assert issubclass(errors[0][0], errors[1][0]) and errors[0][1] == errors[1][1]


# ---- interpolate(antialias=True): PIL's resampling filters, as PyTorch's --------------------
AA_CASES = [((2, 3, 7, 9), dict(scale_factor=0.5)), ((1, 1, 5, 6), dict(size=(3, 4))),
            ((1, 2, 9, 4), dict(size=(2, 11))), ((1, 1, 7, 9), dict(scale_factor=(0.3, 1.7))),
            ((1, 1, 5, 6), dict(size=(1, 1))), ((1, 1, 6, 5), dict(size=(4, 3), align_corners=True)),
            ((1, 1, 3, 4), dict(scale_factor=2.0)), ((1, 1, 4, 5), dict(size=(4, 5)))]
# (not (16, 3) -> (8, 1): PyTorch 2.13's kernel there returns one value for every row)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("shape, kw", AA_CASES)
def test_interpolate_antialias_as_pytorchs(mode, shape, kw, torch_float64):
    x = np.random.default_rng(1).standard_normal(shape)
    a, b = tg.tensor(x, requires_grad=True), torch_float64.tensor(x, requires_grad=True)
    y = tg.nn.functional.interpolate(a, mode=mode, antialias=True, **kw)
    yt = torch_float64.nn.functional.interpolate(b, mode=mode, antialias=True, **kw)
    assert type(y.grad_fn).__name__ == type(yt.grad_fn).__name__
    np.testing.assert_allclose(np.asarray(y.detach()), yt.detach().numpy(), atol=1e-12)
    g = np.cos(np.arange(yt.numel())).reshape(tuple(yt.shape))
    y.backward(tg.tensor(g))
    yt.backward(torch_float64.tensor(g))
    np.testing.assert_allclose(np.asarray(a.grad), b.grad.numpy(), atol=1e-12)


def test_interpolate_antialias_gradient_matches_finite_differences():
    x = tg.tensor(np.linspace(-1.0, 2.0, 30).reshape(1, 1, 5, 6), requires_grad=True)
    assert tg.autograd.gradcheck(
        lambda t: tg.nn.functional.interpolate(t, size=(3, 2), mode="bicubic", antialias=True),
        (x,))


@pytest.mark.parametrize("call", [
    lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4), scale_factor=0.5, antialias=True),
    lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4), scale_factor=0.5, mode="linear",
                                          antialias=True),
])
def test_interpolate_antialias_refusals_as_pytorchs(call, raises_as_torch):
    raises_as_torch(call)


# ---- forward AD: a primal that depends on parameters keeps its reverse-mode graph ----------
def _dual_through_params(L):
    fwAD = L.autograd.forward_ad
    w = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(L.tensor([1.0, 2.0, 3.0]), L.tensor([1.0, 0.0, -1.0]))
        p, t = fwAD.unpack_dual((d * w).sin().sum())
        q, _ = fwAD.unpack_dual((d * 2).sum())  # on the dual alone: no graph, as PyTorch's
        p.backward()
    return w.grad, t.detach(), p.requires_grad, q.requires_grad, q.grad_fn is None


def test_unpack_dual_primal_keeps_the_parameters_graph_as_pytorchs(torch_float64):
    ours, theirs = _dual_through_params(tg), _dual_through_params(torch_float64)
    for a, b in zip(ours[:2], theirs[:2], strict=True):
        np.testing.assert_allclose(np.asarray(a), b.numpy(), rtol=1e-12)
    assert ours[2:] == theirs[2:] == (True, False, True)


def test_view_dtype_is_refused_by_name_and_view_shape_still_works():
    x = tg.ones(2, 4, requires_grad=True)
    for dt in (tg.int64, tg.float32, tg.float64):
        with pytest.raises(NotImplementedError, match=r"view\(dtype\).*\.to\(dtype\)"):
            x.view(dt)
    assert tuple(x.view(4, 2).shape) == (4, 2) and tuple(x.view(-1).shape) == (8,)


def test_pairwise_distance_node_is_pytorchs(torch_float64):
    for L in (tg, torch_float64):
        a, b = L.ones(2, 3, requires_grad=True), L.zeros(2, 3)
        for p in (2.0, 1.0, 1.5, float("inf")):
            for y in (L.nn.functional.pairwise_distance(a, b, p=p),
                      L.nn.PairwiseDistance(p=p, keepdim=True)(a, b),
                      L.nn.functional.pairwise_distance(a[0], b[0], p=p)):
                assert type(y.grad_fn).__name__ == "NormBackward1"


# ---- scatter's deprecated reduce: add/multiply at the indices, no derivative --------------
def _scatter_reduced(L):
    x = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    s = L.tensor([[2.0, 3.0, 4.0], [0.5, 0.5, 0.5]])
    idx = L.tensor([[0, 1, 0], [0, 0, 0]])
    outs = [x.scatter(0, idx, s, reduce="add"), x.scatter(0, idx, s, reduce="multiply"),
            x.scatter(1, L.tensor([[2, 2], [0, 1]]), 1.5, reduce="multiply"),
            L.ones(2, dtype=L.int64).scatter(0, L.tensor([0, 0]), 3, reduce="multiply"),
            L.ones(4).scatter_(0, L.tensor([0, 0, 1]), L.tensor([2.0, 3.0, 4.0]), reduce="add")]
    return outs


def test_scatter_reduce_argument_as_pytorchs(torch_float64):
    ours, theirs = _scatter_reduced(tg), _scatter_reduced(torch_float64)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(np.asarray(a.detach()), b.detach().numpy())
        assert (a.grad_fn is None) == (b.grad_fn is None)
    for out in (ours[0], theirs[0]):
        assert type(out.grad_fn).__name__ == "NotImplemented"
        with pytest.raises(RuntimeError, match="derivative for aten::scatter is not implemented"):
            out.sum().backward()


@pytest.mark.parametrize("call", [
    lambda L: L.ones(2).scatter(0, L.tensor([0]), 1.0, reduce="mean"),
    lambda L: L.ones(2).scatter(0, L.tensor([0]), L.ones(1), reduce="sum"),
])
def test_scatter_reduce_argument_refusals(call, raises_as_torch):
    raises_as_torch(call)


def test_scatter_node_leads_to_input_and_src_as_pytorchs(torch_float64):
    for L in (tg, torch_float64):
        x, s = L.ones(2, 3, requires_grad=True), L.ones(1, 3, requires_grad=True)
        y = x.scatter(0, L.tensor([[0, 1, 0]]), s)
        assert [type(f).__name__ for f, _ in y.grad_fn.next_functions] == ["AccumulateGrad"] * 2
        y.backward(L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
        assert x.grad.tolist() == [[0.0, 2.0, 0.0], [4.0, 0.0, 6.0]]
        assert s.grad.tolist() == [[1.0, 5.0, 3.0]]


# ---- constraints print without their class's underscore; Binomial enumerates -------------
def test_constraint_reprs_as_pytorchs(torch):
    C, TC = tg.distributions.constraints, torch.distributions.constraints
    for name in ("boolean", "corr_cholesky", "dependent", "lower_cholesky", "lower_triangular",
                 "one_hot", "positive_definite", "positive_semidefinite", "simplex", "square",
                 "symmetric", "real", "positive", "unit_interval", "nonnegative_integer"):
        assert repr(getattr(C, name)) == repr(getattr(TC, name)), name
    assert repr(C.cat([C.real, C.positive])) == repr(TC.cat([TC.real, TC.positive]))
    assert repr(C.stack([C.real], 0)) == repr(TC.stack([TC.real], 0))


def test_binomial_enumerate_support_as_pytorchs(torch_float64):
    for args in [(5, [0.5]), (3, [[0.2, 0.4]]), (2, 0.3)]:
        n, p = args
        a = tg.distributions.Binomial(n, tg.tensor(p))
        b = torch_float64.distributions.Binomial(n, torch_float64.tensor(p))
        assert a.has_enumerate_support and b.has_enumerate_support
        for expand in (True, False):
            np.testing.assert_array_equal(np.asarray(a.enumerate_support(expand)),
                                          b.enumerate_support(expand).numpy())
    for L in (tg, torch_float64):
        with pytest.raises(NotImplementedError, match="Inhomogeneous total count"):
            L.distributions.Binomial(L.tensor([2.0, 3.0]), L.tensor([0.5, 0.5])).enumerate_support()


def test_reciprocal_node_is_pytorchs(torch_float64):
    for L in (tg, torch_float64):
        x = L.tensor([1.0, -2.0, 0.5], requires_grad=True)
        y = x.reciprocal()
        assert type(y.grad_fn).__name__ == "ReciprocalBackward0"
        assert type(L.reciprocal(x).grad_fn).__name__ == "ReciprocalBackward0"
        assert type((1 / x).grad_fn).__name__ == "MulBackward0"
        y.backward(L.tensor([1.0, 1.0, 1.0]))
        assert x.grad.tolist() == [-1.0, -0.25, -4.0]


def _selections(L):
    x = L.tensor([[1.0, 3.0, 2.0], [4.0, 0.5, 5.0]], requires_grad=True)
    return x, [x.kthvalue(2).values, x.kthvalue(2, dim=0, keepdim=True).values,
               x[0].kthvalue(1).values, L.log10(x), L.diag(x[0]), L.diag(x[0], 1),
               x.median(0).values, x.mode(1).values, x.nanmedian(1).values,
               x[1].median(0).values]


def test_selection_and_log10_nodes_are_pytorchs(torch_float64):
    """One node of PyTorch's name each (composites here), gradients unchanged."""
    (x, ours), (xt, theirs) = _selections(tg), _selections(torch_float64)
    for a, b in zip(ours, theirs, strict=True):
        assert type(a.grad_fn).__name__ == type(b.grad_fn).__name__
        g = tg.autograd.grad(a.sum(), x)[0]
        gt = torch_float64.autograd.grad(b.sum(), xt)[0]
        np.testing.assert_allclose(np.asarray(g), gt.numpy(), rtol=1e-14)
