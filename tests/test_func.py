"""tapegrad.func against torch.func: values, shapes and pytrees of grad, grad_and_value,
vjp, jvp, jacrev, jacfwd, hessian, vmap and functional_call, nested, on a few functions
(elementwise, matmul, reductions, several arguments, aux outputs).  Errors are in
test_func_errors.py."""
import numpy as np
import pytest

import tapegrad as tg
import tapegrad.autograd.forward_ad as fwAD
from tapegrad.utils._pytree import tree_flatten, tree_map, tree_unflatten

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 3))
X = RNG.standard_normal(3)
Y = RNG.standard_normal(3)


def lib_of(x):
    return torch if isinstance(x, torch.Tensor) else tg


def to(lib, tree):
    """numpy leaves -> lib tensors (float64)."""
    return tree_map(lambda a: lib.tensor(np.array(a)) if isinstance(a, np.ndarray) else a,
                    tree)


def same(got, want, tol=1e-9):
    g, gs = tree_flatten(got)
    w, ws = tree_flatten(want)
    assert repr(gs).replace("TreeSpec", "") == repr(ws).replace("TreeSpec", ""), (gs, ws)
    for a, b in zip(g, w, strict=True):
        if isinstance(b, torch.Tensor):
            assert isinstance(a, tg.Tensor), type(a)
            assert tuple(a.shape) == tuple(b.shape)
            np.testing.assert_allclose(np.asarray(a.detach()), b.detach().numpy(), rtol=tol,
                                       atol=tol)
        else:
            assert a == b


def both(run, *arrays):
    """``run(lib.func, *tensors)`` in each library; compared."""
    same(run(tg.func, *to(tg, arrays)), run(torch.func, *to(torch, arrays)))


# scalar functions of one or two tensors, written with methods both libraries share
def quad(x):
    return (x @ (lib_of(x).tensor(A) @ x)) * 0.5


SCALAR = {
    "elementwise": lambda x: (x.sin() * x).sum(),
    "matmul": quad,
    "reduction": lambda x: x.exp().sum().log() + (x * x).mean(),
    "pow_tanh": lambda x: (x.tanh() ** 3).sum(),
}
VECTOR = {
    "elementwise": lambda x: x.sin() * x,
    "matmul": lambda x: lib_of(x).tensor(A) @ x.tanh(),
    "reduction": lambda x: x.cumsum(0) * x.sum(),
}


@pytest.mark.parametrize("name", SCALAR)
def test_grad_and_value(name):
    f = SCALAR[name]
    both(lambda F, x: F.grad(f)(x), X)
    both(lambda F, x: F.grad_and_value(f)(x), X)


def test_grad_argnums_kwargs_pytrees_and_aux():
    def f(x, y, scale=1.0):
        return ((x * y).sin() * scale).sum()
    both(lambda F, x, y: F.grad(f, argnums=1)(x, y, scale=2.0), X, Y)
    both(lambda F, x, y: F.grad(f, argnums=(0, 1))(x, y), X, Y)
    both(lambda F, x, y: F.grad(f, argnums=-1)(x, y), X, Y)
    g = lambda d: (d["a"] * d["b"][0].cos()).sum()  # noqa: E731
    both(lambda F, x, y: F.grad(g)({"a": x, "b": [y]}), X, Y)
    h = lambda x: ((x * x).sum(), {"sq": x * x, "n": [x.sum()]})  # noqa: E731
    both(lambda F, x: F.grad(h, has_aux=True)(x), X)
    both(lambda F, x: F.grad_and_value(h, has_aux=True)(x), X)
    both(lambda F, x, y: F.grad(lambda x, y: x.sum(), argnums=(0, 1))(x, y), X, Y)  # unused


@pytest.mark.parametrize("name", VECTOR)
def test_vjp(name):
    f = VECTOR[name]

    def run(F, x, ct):
        out, fn = F.vjp(f, x)
        return out, fn(ct), fn(ct * 2)  # callable again
    both(run, X, Y)


def test_vjp_pytrees_several_primals_and_aux():
    f = lambda x, y: {"s": x * y, "t": (x.sum(), y.exp())}  # noqa: E731

    def run(F, x, y):
        out, fn = F.vjp(f, x, y)
        return out, fn({"s": y, "t": (x.sum() * 0 + 1.5, x)})
    both(run, X, Y)

    def aux(F, x):
        out, fn, a = F.vjp(lambda x: (x.sin(), {"c": x.cos()}), x, has_aux=True)
        return out, fn(x), a
    both(aux, X)


@pytest.mark.parametrize("name", VECTOR)
def test_jvp(name):
    f = VECTOR[name]
    both(lambda F, x, t: F.jvp(f, (x,), (t,)), X, Y)


def test_jvp_several_primals_pytree_outputs_and_aux():
    f = lambda x, y: ((x * y).sin(), [x.sum() * y])  # noqa: E731
    both(lambda F, x, y: F.jvp(f, (x, y), (y, x)), X, Y)
    g = lambda x: (x.exp(), {"aux": x * 2})  # noqa: E731
    both(lambda F, x, t: F.jvp(g, (x,), (t,), has_aux=True), X, Y)
    both(lambda F, x, t: F.jvp(lambda x: x.sum() * 0 + 1.0, (x,), (t,)), X, Y)  # constant


def test_linearize():
    f = lambda x, y: {"a": x.sin() * y, "b": (x @ y.exp(),)}  # noqa: E731

    def run(F, x, y):
        out, jvp_fn = F.linearize(f, x, y)
        return out, jvp_fn(y, x), jvp_fn(x, x * 0)  # one recorded transpose, two products
    both(run, X, Y)


@pytest.mark.parametrize("jac", ["jacrev", "jacfwd"])
@pytest.mark.parametrize("name", VECTOR)
def test_jacobians(jac, name):
    both(lambda F, x: getattr(F, jac)(VECTOR[name])(x), X)


@pytest.mark.parametrize("jac", ["jacrev", "jacfwd"])
def test_jacobian_layouts(jac):
    f = lambda x, y: {"p": x * y, "q": (x.sum() * y.sum(),)}  # noqa: E731
    both(lambda F, x, y: getattr(F, jac)(f, argnums=(0, 1))(x, y), X, Y)
    both(lambda F, x, y: getattr(F, jac)(f, argnums=1)(x, y), X, Y)
    g = lambda d: (d["u"] @ d["v"].reshape(3, 1)).exp()  # noqa: E731
    both(lambda F, x, y: getattr(F, jac)(g)({"u": x.reshape(1, 3), "v": y}), X, Y)
    h = lambda x: (x.sin(), x.cos())  # noqa: E731
    both(lambda F, x: getattr(F, jac)(h, has_aux=True)(x), X)
    both(lambda F, x: getattr(F, jac)(lambda x: x.sum() * 0 + 1.0)(x), X)  # independent


@pytest.mark.parametrize("name", SCALAR)
def test_hessian(name):
    both(lambda F, x: F.hessian(SCALAR[name])(x), X)


def test_hessian_argnums_tuple():
    f = lambda x, y: (x.sin() * y * y).sum()  # noqa: E731
    both(lambda F, x, y: F.hessian(f, argnums=(0, 1))(x, y), X, Y)


def test_nested_transforms():
    f = SCALAR["pow_tanh"]
    both(lambda F, x: F.grad(lambda x: F.grad(f)(x).sum())(x), X)
    both(lambda F, x: F.jacrev(F.jacrev(VECTOR["elementwise"]))(x), X)
    both(lambda F, x: F.jacfwd(F.jacrev(f))(x), X)
    both(lambda F, x, v: F.jvp(F.grad(f), (x,), (v,)), X, Y)  # hvp, forward over reverse
    both(lambda F, x, v: F.jvp(lambda u: F.grad(f)(u), (x,), (v,)), X, Y)  # (transposition)
    both(lambda F, x: F.grad(lambda x: F.grad(lambda y: (x * y).sin().sum())(x).sum())(x), X)
    s = lambda x: x.sin().sum()  # noqa: E731
    both(lambda F, x: F.grad(F.grad(F.grad(s)))(x[0]), X)


def test_no_grad_outside_and_connected_inputs():
    x = tg.tensor(X)
    with tg.no_grad():
        g = tg.func.grad(SCALAR["elementwise"])(x)
        j = tg.func.jacfwd(VECTOR["matmul"])(x)
    assert not g.requires_grad and not j.requires_grad
    same(g, torch.func.grad(SCALAR["elementwise"])(torch.tensor(X)))
    # an input that requires grad: the result is differentiable (the hessian's row sums)
    xr = tg.tensor(X, requires_grad=True)
    tg.func.grad(SCALAR["matmul"])(xr).sum().backward()
    np.testing.assert_allclose(np.asarray(xr.grad), ((A + A.T) / 2).sum(0), rtol=1e-12)
    assert not tg.func.grad(SCALAR["matmul"])(tg.tensor(X)).requires_grad


# ---- vmap ------------------------------------------------------------------------------
B = RNG.standard_normal((4, 3))
C = RNG.standard_normal((3, 4))


def test_vmap_in_dims_out_dims():
    mv = lambda m, v: m @ v  # noqa: E731
    both(lambda F, b, x: F.vmap(mv, in_dims=(None, 0))(tg.tensor(A) if F is tg.func else
                                                       torch.tensor(A), b), B, X)
    both(lambda F, b: F.vmap(lambda v: v.sin().sum())(b), B)
    both(lambda F, c: F.vmap(lambda v: v * 2, in_dims=1)(c), C)
    both(lambda F, c: F.vmap(lambda v: v * 2, in_dims=1, out_dims=1)(c), C)
    both(lambda F, c: F.vmap(lambda v: v * 2, in_dims=-1, out_dims=-1)(c), C)
    both(lambda F, b, c: F.vmap(lambda u, v: u * v, in_dims=(0, 1))(b, c), B, C)
    both(lambda F, b, x: F.vmap(lambda u, v: (u * v, v.sum()), in_dims=(0, None),
                                out_dims=(1, None))(b, x), B, X)
    both(lambda F, b: F.vmap(lambda v: [v, {"k": v.sum()}])(b), B)
    both(lambda F, b, c: F.vmap(lambda d: d["u"] + d["v"], in_dims=({"u": 0, "v": 1},))(
        {"u": b, "v": c}), B, C)
    both(lambda F, b, x: F.vmap(lambda u, w=None: u * w)(b, w=x), B, X)  # kwargs unbatched
    both(lambda F, b: F.vmap(lambda v: v * 2)(b[:0]), B)  # an empty batch
    both(lambda F, b: F.vmap(F.vmap(lambda s: s * s))(b), B)  # nested
    both(lambda F, b: F.vmap(F.vmap(lambda s, t: s * t, in_dims=(0, None)),
                             in_dims=(None, 0))(b[0], b[:, 0]), B)


def test_vmap_of_transforms_and_transforms_of_vmap():
    f = SCALAR["reduction"]
    both(lambda F, b: F.vmap(F.grad(f))(b), B)
    both(lambda F, b: F.vmap(F.grad_and_value(f))(b), B)
    both(lambda F, b: F.vmap(F.jacrev(VECTOR["matmul"]))(b), B)
    both(lambda F, b: F.vmap(F.hessian(SCALAR["pow_tanh"]))(b), B)
    both(lambda F, b: F.grad(lambda m: F.vmap(lambda r: r.sin().sum())(m).sum())(b), B)
    both(lambda F, b, x: F.vmap(F.grad(lambda w, r: ((w * r).sum() ** 2)), in_dims=(None, 0))(
        x, b), B, X)


def test_vmap_path_replay_and_loop():
    f = SCALAR["reduction"]
    v = tg.func.vmap(tg.func.grad(f))
    assert v.path is None
    got = v(tg.tensor(B))
    assert v.path == "replay" and "path=replay" in repr(v)
    same(got, torch.func.vmap(torch.func.grad(f))(torch.tensor(B)))
    c = tg.func.vmap(tg.func.grad(lambda u, v: (u * v.exp()).sum(), argnums=(0, 1)),
                     in_dims=(1, None))
    same(c(tg.tensor(C), tg.tensor(X)), torch.func.vmap(torch.func.grad(
        lambda u, v: (u * v.exp()).sum(), argnums=(0, 1)), in_dims=(1, None))(
        torch.tensor(C), torch.tensor(X)))
    assert c.path == "replay"
    w = tg.func.vmap(tg.func.grad(f, has_aux=False), in_dims=0)
    w(tg.tensor(B, requires_grad=True))  # a result to differentiate further: the loop
    assert w.path == "loop"

    def branchy(x):  # data-dependent control flow: replay retraces per branch
        return (x * x).sum() if float(x.sum()) > 0 else x.sin().sum()
    b = tg.func.vmap(tg.func.grad_and_value(branchy))
    same(b(tg.tensor(B)), torch.func.vmap(torch.func.grad_and_value(
        lambda x: torch.where(x.sum() > 0, (x * x).sum(), x.sin().sum())))(torch.tensor(B)))
    assert b.path == "replay+loop"  # the points of the other branch ran eagerly


def _grads_of_branchy_w(lib, rows):
    """Per-row gradients of f, which reads the parameter w only when x[0] > 0, and w's
    gradient of a loss on them (tapegrad: vmap(grad(f)); torch: torch.func.grad per row,
    as torch's vmap cannot take an ``if`` on a value)."""
    w = lib.tensor(A[0, :2], requires_grad=True)

    def f(x):
        return (x * w).sin().sum() if x[0] > 0 else (x * x).sum()
    if lib is tg:
        v = tg.func.vmap(tg.func.grad(f))
        g = v(tg.tensor(rows))
        assert v.path == "loop"  # the eager point reached w: no replay, every graph kept
    else:
        g = torch.stack([torch.func.grad(f)(torch.tensor(r)) for r in rows])
    return g, lib.autograd.grad((g * g.cos()).sum(), [w])


def test_vmap_grad_reaching_a_parameter_off_the_trace_keeps_the_graph():
    rows = np.array([[-1.0, 2.0], [1.0, 2.0]])
    for order in (rows, rows[::-1].copy()):  # traced at the branch without w, then with it
        same(_grads_of_branchy_w(tg, order), _grads_of_branchy_w(torch, order))


def test_vmap_randomness():
    x = tg.ones(4, 3)
    noisy = lambda v: v + tg.randn(3)  # noqa: E731
    with pytest.raises(RuntimeError, match="randomness error mode"):
        tg.func.vmap(noisy)(x)
    same_ = tg.func.vmap(noisy, randomness="same")(x)
    assert np.allclose(np.asarray(same_)[0], np.asarray(same_)[1:])
    diff = tg.func.vmap(noisy, randomness="different")(x)
    assert not np.allclose(np.asarray(diff)[0], np.asarray(diff)[1])
    with pytest.raises(RuntimeError, match="randomness error mode"):
        tg.func.vmap(tg.func.grad(lambda v: (v * tg.randn(3)).sum()))(x)


# ---- functional_call -------------------------------------------------------------------
def _linear(lib):
    m = lib.nn.Linear(3, 2).double() if lib is torch else lib.nn.Linear(3, 2)
    with lib.no_grad():
        m.weight.copy_(lib.tensor(A[:2]))
        m.bias.copy_(lib.tensor(X[:2]))
    return m


def test_functional_call_and_per_parameter_grads():
    def run(F, lib, x):
        m = _linear(lib)
        params = {"weight": lib.tensor(A[1:]), "bias": lib.tensor(Y[:2])}
        out = F.functional_call(m, params, (x,))
        grads = F.grad(lambda p, x: F.functional_call(m, p, x).tanh().sum())(params, x)
        per_sample = F.vmap(F.grad(lambda p, r: F.functional_call(m, p, (r,)).sin().sum()),
                            in_dims=(None, 0))(params, lib.tensor(B))
        return out, grads, per_sample, m.weight  # the module's own weight is back
    same(run(tg.func, tg, tg.tensor(X)), run(torch.func, torch, torch.tensor(X)))


def test_functional_call_tied_weights_and_buffers():
    for lib in (tg, torch):
        m = lib.nn.Module()
        m.a = lib.nn.Linear(2, 2, bias=False)
        m.b = m.a
        m.register_buffer("scale", lib.ones(1))
        new = {"a.weight": lib.eye(2) * 2, "scale": lib.ones(1) * 3}
        m.forward = lambda x, m=m: m.b(x) * m.scale
        got = lib.func.functional_call(m, new, (lib.ones(1, 2),))
        assert np.allclose(np.asarray(got.detach()), 6.0)
        assert np.allclose(np.asarray(m.scale), 1.0)


def test_results_stay_differentiable_through_a_closed_over_parameter():
    """A transformed function that reads a parameter (a PINN's network): the transform's
    result is differentiable with respect to it, as torch.func's."""
    def run(F, lib, x, t, b):
        w = lib.tensor(A[0], requires_grad=True)
        u = lambda v: ((w * v).sin() * v).sum()  # noqa: E731
        field = lambda v: (w * v).tanh()  # noqa: E731
        parts = [F.grad(u)(x), F.jacrev(field)(x), F.jacfwd(field)(x), F.jvp(field, (x,), (t,))[1],
                 F.jvp(F.grad(u), (x,), (t,))[1], F.vjp(field, x)[1](t)[0], F.vmap(F.grad(u))(b)]
        grads = lib.autograd.grad(sum((p ** 2).sum() for p in parts), w, allow_unused=True)[0]
        return [p.detach() for p in parts], grads
    got = run(tg.func, tg, tg.tensor(X), tg.tensor(Y), tg.tensor(B))
    want = run(torch.func, torch, torch.tensor(X), torch.tensor(Y), torch.tensor(B))
    same(got, want)
    v = tg.func.vmap(tg.func.grad(lambda r: (tg.tensor(A[0], requires_grad=True) * r).sum()))
    v(tg.tensor(B))
    assert v.path == "loop"  # replay's results could not be differentiated


def test_forward_ad_tangent_through_a_closed_over_parameter():
    tfw = torch.autograd.forward_ad
    out = []
    for lib, fw in ((tg, fwAD), (torch, tfw)):
        w = lib.tensor(A[1], requires_grad=True)
        with fw.dual_level():
            d = fw.make_dual(lib.tensor(X), lib.tensor(Y))
            t = fw.unpack_dual((d * w).sin()).tangent
        out.append((t.detach(), lib.autograd.grad(t.sum(), w)[0]))
    same(*out)


def test_pytree_specs_print_as_torchs():
    import collections

    from torch.utils import _pytree as tp
    Pair = collections.namedtuple("Pair", "a b")
    for tree in [1, None, (1,), [1, (2, None)], {"a": 1, "b": [2, {"c": 3}]}, Pair(1, [2]),
                 collections.OrderedDict(b=1, a=(2,)), collections.defaultdict(list, a=[1])]:
        leaves, spec = tree_flatten(tree)
        t_leaves, t_spec = tp.tree_flatten(tree)
        assert leaves == t_leaves
        assert repr(spec) == repr(t_spec) and spec.pprint() == tp.treespec_pprint(t_spec)
        assert tree_unflatten(leaves, spec) == tree
        assert type(tree_unflatten(leaves, spec)) is type(tree)


def test_grad_of_an_ordered_dict_is_an_ordered_dict():
    import collections
    out = [lib.func.grad(lambda p: (p["w"] * p["w"].sin()).sum())(
        collections.OrderedDict(w=lib.tensor(X))) for lib in (tg, torch)]
    assert type(out[0]) is collections.OrderedDict
    same(*out)
