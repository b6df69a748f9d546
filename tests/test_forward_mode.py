"""Forward mode by the compiled tangent sweep (autograd/tangent.py) against torch.func and
torch.autograd.forward_ad: ``jvp``, ``jacfwd``, ``jvp(grad(f))`` (forward over reverse) and
dual tensors take the sweep, not transposition, and agree with PyTorch; where the sweep
cannot run (a custom Function, a result that must stay differentiable) they fall back and
still agree.  (Every op's tangent and second-order rule: tests/test_ops.py.)"""
import numpy as np
import pytest

import tapegrad as tg
import tapegrad.autograd.forward_ad as fwAD
from tapegrad import func as tg_func
from tapegrad.autograd import tangent

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(24)
X = RNG.uniform(0.2, 1.5, 6)
V = RNG.standard_normal(6)
M = RNG.standard_normal((4, 6))

FUNCS = {  # x (6,) -> a tensor, written for both libraries
    "elementwise": lambda x, lib: (x.sin() * x.exp() / (1 + x ** 2)).tanh().sqrt() + x.log(),
    "reductions": lambda x, lib: lib.stack([x.logsumexp(0), x.norm(), x.var(), x.prod(),
                                            x.max(), x.std(), x.amin()]),
    "softmax": lambda x, lib: x.reshape(2, 3).softmax(1) * x.reshape(2, 3).log_softmax(0),
    "linear_algebra": lambda x, lib: lib.tensor(M) @ x.sigmoid() + lib.nn.functional.linear(
        x.reshape(2, 3), x.reshape(2, 3)).sum(),
    "shape_and_select": lambda x, lib: lib.cat([x[1:] * x[:-1], x.flip(0)[::2]]).cumsum(0)
    + lib.where(x > 0.7, x, x.clamp(0.3, 0.9)).sum() + lib.maximum(x, x.cos()).sum(),
}


@pytest.fixture
def swept(monkeypatch):
    """Transposition refused: the tangent sweep must answer."""
    def refuse(*args, **kwargs):
        raise AssertionError("forward mode fell back to transposition")
    for mod, name in ((tg_func, "transposed_jvp"), (fwAD, "transposed_jvp"),
                      (tg_func, "_transposed_columns")):
        monkeypatch.setattr(mod, name, refuse)


def close(got, want, tol=1e-10):
    np.testing.assert_allclose(np.asarray(got.detach()), want.detach().numpy(), rtol=tol,
                               atol=tol)


@pytest.mark.parametrize("name", FUNCS)
def test_jvp_by_the_tangent_sweep_matches_torch(name, swept):
    f = FUNCS[name]
    got = tg.func.jvp(lambda x: f(x, tg), (tg.tensor(X),), (tg.tensor(V),))
    want = torch.func.jvp(lambda x: f(x, torch), (torch.tensor(X),), (torch.tensor(V),))
    for g, w in zip(got, want, strict=True):
        close(g, w)


@pytest.mark.parametrize("name", FUNCS)
def test_jacfwd_is_one_sweep_and_matches_torch(name, swept):
    f = FUNCS[name]
    close(tg.func.jacfwd(lambda x: f(x, tg))(tg.tensor(X)),
          torch.func.jacfwd(lambda x: f(x, torch))(torch.tensor(X)))


def test_jacfwd_several_inputs_and_outputs_in_chunks(swept, monkeypatch):
    """Lanes beyond tangent.LANE_VALUES run in chunks: the same Jacobian."""
    def f(a, b, lib):
        return {"p": a[:, None] * b, "q": (a.sin().sum() + b.exp()).tanh()}
    monkeypatch.setattr(tangent, "LANE_VALUES", 40)
    a, b = RNG.standard_normal(3), RNG.standard_normal(2)
    got = tg.func.jacfwd(lambda a, b: f(a, b, tg), argnums=(0, 1))(tg.tensor(a), tg.tensor(b))
    want = torch.func.jacfwd(lambda a, b: f(a, b, torch), argnums=(0, 1))(
        torch.tensor(a), torch.tensor(b))
    for k in ("p", "q"):
        for g, w in zip(got[k], want[k], strict=True):
            close(g, w)


def _rosen(x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


@pytest.mark.parametrize("f, compiled", [
    (_rosen, True), (lambda x: (x.sin() * x.exp()).sum() / (x * x).sum(), True),
    (lambda x: (x.reshape(2, 3).softmax(1) * 2).pow(2).mean() + x.logsumexp(0), True),
    (lambda x: x.norm() * x.sum(), False)],
    ids=["rosenbrock", "elementwise", "softmax", "norm_falls_back"])
def test_hvp_forward_over_reverse_matches_torch(f, compiled, monkeypatch):
    """jvp(grad(f)) by the forward-over-reverse sweep where every op has a second-order
    rule (the vector norm has none yet: reverse over reverse), the same values either way."""
    calls = []
    hvp = tangent.hvp
    monkeypatch.setattr(tangent, "hvp", lambda *a: calls.append(hvp(*a)) or calls[-1])
    got = tg.func.jvp(tg.func.grad(f), (tg.tensor(X),), (tg.tensor(V),))
    want = torch.func.jvp(torch.func.grad(f), (torch.tensor(X),), (torch.tensor(V),))
    for g, w in zip(got, want, strict=True):
        close(g, w, 1e-9)
    assert (calls[0] is not None) == compiled


def test_hvp_several_primals():
    f = lambda a, b: (a.sin() * b.cos()).sum() + (a * a * b).sum()  # noqa: E731
    a, b, u, v = (RNG.standard_normal(3) for _ in range(4))
    got = tg.func.jvp(tg.func.grad(f, argnums=(0, 1)), (tg.tensor(a), tg.tensor(b)),
                      (tg.tensor(u), tg.tensor(v)))
    want = torch.func.jvp(torch.func.grad(f, argnums=(0, 1)),
                          (torch.tensor(a), torch.tensor(b)), (torch.tensor(u), torch.tensor(v)))
    for gs, ws in zip(got, want, strict=True):
        for g, w in zip(gs, ws, strict=True):
            close(g, w)


@pytest.mark.parametrize("name", FUNCS)
def test_dual_tensors_by_the_tangent_sweep(name, swept):
    def run(fw, lib):
        with fw.dual_level():
            d = fw.make_dual(lib.tensor(X), lib.tensor(V))
            return fw.unpack_dual(FUNCS[name](d, lib)).tangent
    close(run(fwAD, tg), run(torch.autograd.forward_ad, torch))


def test_float32_tangents_keep_the_dtype(swept):
    f = FUNCS["elementwise"]
    x, v = X.astype(np.float32), V.astype(np.float32)
    got = tg.func.jvp(lambda x: f(x, tg), (tg.tensor(x),), (tg.tensor(v),))[1]
    want = torch.func.jvp(lambda x: f(x, torch), (torch.tensor(x),), (torch.tensor(v),))[1]
    assert got.dtype == tg.float32
    close(got, want, 1e-5)


class _Cube(tg.autograd.Function):
    generate_vmap_rule = True  # (PyTorch's transforms take a Function so written)

    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


def test_custom_function_falls_back_to_transposition():
    """The sweep stops at a custom Function's row; jvp and jacfwd then transpose."""
    f = lambda x: _Cube.apply(x.sin()).exp()  # noqa: E731
    x, v = tg.tensor(X), tg.tensor(V)
    out = _Cube.apply(x.detach().requires_grad_(True).sin())
    assert tangent.sweep([out], [x], [V]) is None
    want = np.exp(np.sin(X) ** 3) * 3 * np.sin(X) ** 2 * np.cos(X)
    np.testing.assert_allclose(np.asarray(tg.func.jvp(f, (x,), (v,))[1]), want * V)
    np.testing.assert_allclose(np.asarray(tg.func.jacfwd(f)(x)), np.diag(want), atol=1e-15)


def test_jvp_inside_grad_stays_differentiable():
    """A jvp whose result must stay differentiable (inside grad) is recorded: transposition,
    as before; the gradient matches torch's."""
    def run(F, lib):
        v = lib.tensor(V)
        return F.grad(lambda x: F.jvp(lambda y: (y.sin() * y).exp(), (x,), (v,))[1].sum())(
            lib.tensor(X))
    close(run(tg.func, tg), run(torch.func, torch))


def _custom(lib):
    class Scaled(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_forward(x)
            ctx.save_for_backward(x)
            ctx.k = k
            return x * k, x.sin()

        @staticmethod
        def jvp(ctx, x_t, k_t):
            assert k_t is None  # (a number's tangent)
            (x,) = ctx.saved_tensors
            return x_t * ctx.k, x_t * x.cos()

        @staticmethod
        def backward(ctx, g, h):
            (x,) = ctx.saved_tensors
            return g * ctx.k + h * x.cos(), None
    return Scaled


def test_function_jvp_and_save_for_forward_match_torch(swept):
    def run(lib):
        with lib.autograd.forward_ad.dual_level():
            d = lib.autograd.forward_ad.make_dual(lib.tensor(X), lib.tensor(V))
            a, b = _custom(lib).apply(d.exp(), 2.5)
            return lib.autograd.forward_ad.unpack_dual((a * b).tanh()).tangent
    close(run(tg), run(torch))
    # func.jvp refuses it, as torch.func: its forward takes ctx (no setup_context)
    errors = []
    for lib in (tg, torch):
        scaled = _custom(lib)
        with pytest.raises(RuntimeError, match="must override the setup_context") as e:
            lib.func.jvp(lambda x, s=scaled: s.apply(x, 2.5)[1], (lib.tensor(X),),
                         (lib.tensor(V),))
        errors.append(str(e.value))
    assert errors[0] == errors[1]


def test_function_without_jvp_raises_torchs_error_in_forward_ad():
    def run(lib):
        class Twice(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        with lib.autograd.forward_ad.dual_level():
            d = lib.autograd.forward_ad.make_dual(lib.tensor(X), lib.tensor(V))
            with pytest.raises(NotImplementedError) as e:  # (torch: at apply; here: unpack)
                lib.autograd.forward_ad.unpack_dual(Twice.apply(d))
            return str(e.value)
    assert run(tg) == run(torch)
