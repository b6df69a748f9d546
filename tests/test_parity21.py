"""Parity with PyTorch, each item against it: the names of torch.special/linalg/fft
functions, GradientEdge inputs of autograd.grad/backward, the grad mode a compiled function
sees under no_grad, what tests/fuzz_autograd_api.py found, signed zeros in gradients
(pinned), geqrf/ormqr/orgqr."""
import pickle

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _np(t):
    return None if t is None else np.asarray(t.detach())


# ---- __name__ / __qualname__ of torch.special, torch.linalg, torch.fft functions ----------
@pytest.mark.parametrize("module", ["special", "linalg", "fft"])
def test_names_are_torchs(module, torch):
    ours, theirs = getattr(tg, module), getattr(torch, module)
    checked = 0
    for name in ours.__all__:
        f, g = getattr(ours, name), getattr(theirs, name, None)
        if isinstance(f, type) or g is None:
            continue
        assert (f.__name__, f.__qualname__) == (g.__name__, g.__qualname__), name
        assert f.__module__ == f"tapegrad.{module}"
        assert pickle.loads(pickle.dumps(f)) is f  # (found again through the module)
        checked += 1
    assert checked >= 20


def test_renamed_functions_keep_their_names_elsewhere_and_still_work():
    assert tg.erf.__name__ == "erf" and tg.special.erf.__name__ == "special_erf"
    assert tg.sigmoid.__qualname__ == "sigmoid"  # (not make_unary.<locals>.fn)
    x = tg.tensor([0.5, 1.5], requires_grad=True)
    tg.special.erf(x).sum().backward()
    np.testing.assert_allclose(_np(x.grad), 2 / np.sqrt(np.pi) * np.exp(-_np(x) ** 2))
    assert float(tg.linalg.norm(tg.ones(4))) == 2.0
    with pytest.raises(AttributeError, match="has no attribute 'special_nope'"):
        tg.special.special_nope  # noqa: B018


def test_nn_functional_names_match_torchs(torch):
    import torch.nn.functional as TF

    import tapegrad.nn.functional as F
    for name in ("relu", "softmax", "mse_loss", "sigmoid", "tanh", "logsigmoid", "gelu"):
        f, g = getattr(F, name), getattr(TF, name)
        assert f.__name__ == g.__name__, name
        assert f.__qualname__ in (g.__qualname__, g.__name__), name


# ---- torch.autograd.graph.get_gradient_edge ---------------------------------------------
def _edge_grads(L):
    get = L.autograd.graph.get_gradient_edge
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    e = get(y)
    z = (y * y).sum()
    out = [L.autograd.grad(z, [e], retain_graph=True), L.autograd.grad(z, e, retain_graph=True),
           L.autograd.grad(z, [e, x])]
    ex = get(x)
    out.append(L.autograd.grad((x * 2 * x * 2).sum(), [ex]))
    y = x * 3
    e = get(y)
    del y
    out.append(L.autograd.grad((x * x).sum(), [e], allow_unused=True))
    a, b = L.tensor([1.0, 2.0], requires_grad=True).unbind()
    out.append(L.autograd.grad(a * b, [get(b)]))
    return [[_np(g) for g in gs] for gs in out], (type(e).__name__, e.output_nr, ex == get(x))


def test_get_gradient_edge_as_grad_input(torch_float64):
    theirs, ours = _edge_grads(torch_float64), _edge_grads(tg)
    assert ours[1] == theirs[1]
    for a, b in zip(ours[0], theirs[0], strict=True):
        assert len(a) == len(b)
        for u, v in zip(a, b, strict=True):
            assert (u is None) == (v is None)
            if u is not None:
                np.testing.assert_array_equal(u, v)


@pytest.mark.parametrize("retain", [False, True])
def test_get_gradient_edge_in_backward_inputs(retain, torch_float64):
    got = []
    for L in (torch_float64, tg):
        get = L.autograd.graph.get_gradient_edge
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        if retain:
            y.retain_grad()
        (y * y).sum().backward(inputs=[get(y)])  # a non-leaf's edge: .grad if it retains
        first = (x.grad, _np(y.grad) if retain else None)
        (x * x).sum().backward(inputs=[get(x)])
        got.append((first, _np(x.grad)))
    assert got[1][0][0] is got[0][0][0] is None
    if retain:
        np.testing.assert_array_equal(got[1][0][1], got[0][0][1])
    np.testing.assert_array_equal(got[1][1], got[0][1])


def test_get_gradient_edge_errors(raises_as_torch):
    raises_as_torch(lambda L: L.autograd.graph.get_gradient_edge(L.ones(2)))
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    e = tg.autograd.graph.get_gradient_edge(y)
    y.mul_(3)
    with pytest.raises(RuntimeError, match="modified in place after get_gradient_edge"):
        tg.autograd.grad((y * y).sum(), [e])


# ---- tg.compile of a function that reads the grad mode -----------------------------------
def _branchy(x):
    return (x * x).sum() if tg.is_grad_enabled() else (x * 3).sum()


def test_compiled_value_under_no_grad_sees_the_mode_as_eager_does():
    x = np.array([1.0, 2.0])
    for first_off in (False, True):
        c = tg.compile(_branchy)
        if first_off:
            with tg.no_grad():
                assert c(x) == 9.0
        assert c(x) == 5.0
        with tg.no_grad():
            assert c(x) == float(_branchy(tg.tensor(x))) == 9.0
            np.testing.assert_array_equal(c.value_batch(np.stack([x, 2 * x])), [9.0, 18.0])
        with tg.inference_mode():
            assert c(x) == 9.0
        assert c(x) == 5.0
        np.testing.assert_array_equal(c.grad(x), [2.0, 4.0])
        with tg.no_grad():  # a derivative: f sees grad mode on, as torch.func.grad's does
            np.testing.assert_array_equal(c.grad(x), [2.0, 4.0])


def test_compiled_function_that_does_not_read_the_mode_keeps_one_trace():
    c = tg.compile(lambda x: (x * x).sum())
    x = np.array([1.0, 2.0])
    assert c(x) == 5.0
    with tg.no_grad():
        assert c(x) == 5.0
    assert c._off is None and len(c.traces) == 1


# ---- found by tests/fuzz_autograd_api.py -------------------------------------------------
@pytest.mark.parametrize("view", ["slice", "view", "leaf_slice", "expand", "t"])
def test_detach_in_place_of_a_view_raises(view, raises_as_torch, torch):
    make = {"slice": lambda L: L.ones(3)[1:], "view": lambda L: L.ones(3).view(-1),
            "leaf_slice": lambda L: L.ones(3, requires_grad=True)[1:],
            "expand": lambda L: L.ones(1).expand(3), "t": lambda L: L.ones(2, 3).t()}[view]
    made = {L: make(L) for L in (torch, tg)}  # (before: the call must record nothing)
    raises_as_torch(lambda L: made[L].detach_(), prefix=True)
    assert made[tg].requires_grad == made[torch].requires_grad  # (left as it was)


@pytest.mark.parametrize("create_graph", [False, True])
def test_materialized_gradients_require_grad_with_create_graph(create_graph, torch_float64):
    got = []
    for L in (torch_float64, tg):
        x = L.ones(2, requires_grad=True)
        u = L.ones(2, requires_grad=True)
        gs = L.autograd.grad((x * 2).sum(), [x, u], create_graph=create_graph,
                             materialize_grads=True)
        got.append([(g.requires_grad, g.is_leaf, _np(g).tolist()) for g in gs])
    assert got[1] == got[0]


def _hooks_before_the_unused_input_error(ra, rb):
    # the same error; PyTorch ran the tensor hooks of the sweep before raising it, tapegrad
    # raises first (found, not fixed)
    return ra[1] == rb[1] and ra[1] is not None and ra[3] == rb[3] and ra[4] != rb[4]


# differences docs/limits.md lists, left out of the fuzzing: a write through an alias or into
# a constant after use (not detected), a view read after its base changed (old values), the
# version counter a detach() or an inference tensor's clone shares, retain_grad during
# autograd.grad, and a multi-grad hook on a leaf during autograd.grad (PyTorch refuses)
_AGREEING_KINDS = ("unary", "binary", "backward", "grad", "hook", "post_hook", "grad_mode",
                   "zero_grad", "leaf", "requires_grad_")


@pytest.mark.parametrize("block", range(4))
def test_random_autograd_programs_agree_with_torch(block, torch_float64):
    import fuzz_autograd_api as fuzz
    for seed in range(block * 50, block * 50 + 50):
        d = fuzz.first_difference(seed, torch_float64, _AGREEING_KINDS)
        if d is not None:
            i, step, ra, rb = d
            assert _hooks_before_the_unused_input_error(ra, rb), (seed, i, ra, rb)


# ---- signed zeros in gradients (docs/limits.md "Zero adjoints") --------------------------
SIGNED = {
    "neg": lambda L, x: -x, "abs": lambda L, x: x.abs(), "relu": lambda L, x: L.relu(x),
    "mul0": lambda L, x: x * 0.0, "square": lambda L, x: x * x, "sin": lambda L, x: x.sin(),
    "clamp": lambda L, x: x.clamp(0, 1), "sum": lambda L, x: x.sum(),
    "amax": lambda L, x: x.amax(), "select": lambda L, x: x[2], "slice": lambda L, x: x[1:3],
    "maximum": lambda L, x: L.maximum(x, L.zeros_like(x)), "index": lambda L, x: x[[1, 1, 3]],
    "where": lambda L, x: L.where(x > 0, x, L.zeros_like(x)), "pad": lambda L, x: x.flip(0),
}
SEEDS = {"pos": 1.0, "neg": -1.0, "negzero": -0.0}


@pytest.mark.parametrize("seed", sorted(SEEDS))
@pytest.mark.parametrize("op", sorted(SIGNED))
def test_zero_gradients_differ_from_torch_in_their_sign_only_and_are_positive(op, seed,
                                                                              torch_float64):
    got = []
    for L in (torch_float64, tg):
        x = L.tensor([-2.0, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0], requires_grad=True)
        y = SIGNED[op](L, x)
        y.backward(L.full(y.shape, SEEDS[seed]))
        got.append(_np(x.grad))
    theirs, ours = got
    np.testing.assert_array_equal(ours, theirs)  # (-0.0 == 0.0)
    assert not (np.signbit(ours) & (ours == 0) & ~np.signbit(theirs)).any()  # never -0.0 alone


# ---- geqrf, ormqr, orgqr -------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (2, 4, 3), (3, 5)])
def test_geqrf_is_torchs(shape, torch_float64):
    A = np.random.default_rng(1).standard_normal(shape)
    (ta, tt), (ga, gt) = torch_float64.geqrf(torch_float64.tensor(A)), tg.geqrf(tg.tensor(A))
    np.testing.assert_allclose(_np(ga), ta.numpy(), atol=1e-14)
    np.testing.assert_allclose(_np(gt), tt.numpy(), atol=1e-14)
    assert type(tg.geqrf(tg.tensor(A))).__name__ == "geqrf" and tg.tensor(A).geqrf().tau.shape \
        == tt.shape


def test_geqrf_backward_raises_as_torch(raises_as_torch):
    made = {}
    for L in (tg, __import__("torch")):
        a, _ = L.geqrf(L.tensor(np.eye(3) + 0.5, requires_grad=True))
        made[L] = a.sum()
    raises_as_torch(lambda L: made[L].backward())
    assert tg.geqrf(tg.ones(2, 2, requires_grad=True)).a.grad_fn.name() == "GeqrfBackward0"


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
def test_ormqr_value_and_gradients_against_torch_and_fd(left, transpose, torch_float64):
    rng = np.random.default_rng(2)
    A = rng.standard_normal((4, 3))
    C = rng.standard_normal((4, 2) if left else (2, 4))
    W = rng.standard_normal(C.shape)
    got = []
    for L in (torch_float64, tg):
        a, tau = (t.detach().requires_grad_() for t in L.geqrf(L.tensor(A)))
        c = L.tensor(C, requires_grad=True)
        o = L.ormqr(a, tau, c, left, transpose)
        (o * L.tensor(W)).sum().backward()
        got.append([_np(v) for v in (o, a.grad, tau.grad, c.grad)])
    for ours, theirs in zip(got[1], got[0], strict=True):
        np.testing.assert_allclose(ours, theirs, atol=1e-13)
    a, tau = (t.detach().requires_grad_() for t in tg.geqrf(tg.tensor(A)))
    assert tg.autograd.gradcheck(lambda a, tau, c: tg.ormqr(a, tau, c, left, transpose),
                                 (a, tau, tg.tensor(C, requires_grad=True)))
    np.testing.assert_array_equal(_np(tg.orgqr(a, tau)), _np(tg.linalg.householder_product(a, tau)))
