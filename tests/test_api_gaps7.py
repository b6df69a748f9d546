"""Gaps that PyTorch programs written for ``import tapegrad as torch`` stopped on (a missing
name, or a different answer), each checked against torch: once_differentiable, the
optimizer's state dict, grad modes on generators, grad_fn class names, batched grads,
autocast/GradScaler, torch.tensor of a tensor, the missing distributions, and short
programs of the kind tutorials and scripts are made of, run under both libraries."""
import warnings

import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

LIBS = pytest.mark.parametrize("L", [tg, torch], ids=["tapegrad", "torch"])


def _np(x):
    if isinstance(x, (tuple, list)):
        return [_np(v) for v in x]
    return np.asarray(x.detach().numpy() if hasattr(x, "detach") and not isinstance(x, tg.Tensor)
                      else (x.detach() if isinstance(x, tg.Tensor) else x), dtype=float)


def same(a, b, rtol=1e-6, atol=1e-8):
    """Nested results of one program under tapegrad (a) and torch (b) agree."""
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            same(a[k], b[k], rtol, atol)
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same(x, y, rtol, atol)
    elif isinstance(a, (str, bool, type(None))):
        assert a == b
    else:
        np.testing.assert_allclose(_np(a), _np(b), rtol=rtol, atol=atol)


def torch64(program):
    """``program(torch)`` with torch's default dtype tapegrad's (float64)."""
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        return program(torch)
    finally:
        torch.set_default_dtype(old)


def agree(program, rtol=1e-6, atol=1e-8):
    """One program gives the same answers under tapegrad and torch."""
    same(program(tg), torch64(program), rtol, atol)


# ---- 1. once_differentiable -----------------------------------------------------------------
def _square(L):
    class Square(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @L.autograd.function.once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g
    return Square


@LIBS
def test_once_differentiable(L):
    x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    _square(L).apply(x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    (g,) = L.autograd.grad(_square(L).apply(x).sum(), x, create_graph=True)
    assert not g.requires_grad  # (its seed needs no grad: the backward ran under no_grad)
    v = L.ones(3, requires_grad=True)
    (g,) = L.autograd.grad(_square(L).apply(x), x, v, create_graph=True)
    assert g.requires_grad and g.tolist() == [2.0, 4.0, 6.0]
    with pytest.raises(RuntimeError, match="differentiate twice a function that was marked "
                                           "with @once_differentiable"):
        g.sum().backward()


# ---- 2. Optimizer.state ---------------------------------------------------------------------
def _momentum_script(L):
    L.manual_seed(0)
    w = L.nn.Parameter(L.tensor([1.0, -2.0, 0.5]))
    opt = L.optim.SGD([w], lr=0.1, momentum=0.9)
    fresh = opt.state[w]  # a parameter not stepped yet: an empty dict, no KeyError
    out = [len(fresh), type(opt.state).__name__]
    for _ in range(3):
        opt.zero_grad()
        (w ** 2).sum().backward()
        opt.step()
    out.append(opt.state[w]["momentum_buffer"].clone())
    opt.state[w]["momentum_buffer"].zero_()  # scripts reset it by hand
    (w ** 2).sum().backward()
    opt.step()
    out.append(w.detach().clone())
    sd = opt.state_dict()
    opt2 = L.optim.SGD([w], lr=0.1, momentum=0.9)
    opt2.load_state_dict(sd)
    out += [type(opt2.state).__name__, opt2.state[w]["momentum_buffer"]]
    return out


def test_optimizer_state_is_a_defaultdict():
    agree(_momentum_script)


# ---- 3. grad modes on generators, grad_mode module, inference tensors ------------------------
def _modes(L, make):
    """The grad mode a decorated generator sees at each step, and the caller's between."""
    @make(L)
    def steps(n):
        got = yield L.is_grad_enabled()
        for _ in range(n):
            got = yield (L.is_grad_enabled(), got)
        return "done"

    seen = []
    with L.set_grad_enabled(True):
        it = steps(2)
        seen.append(next(it))
        seen.append(L.is_grad_enabled())
        seen.append(it.send("x"))
        seen.append(L.is_grad_enabled())
        seen.append(it.send("y"))
        try:
            it.send(None)
        except StopIteration as stop:
            seen.append(stop.value)
        seen.append(L.is_grad_enabled())
    with L.no_grad():
        seen.append([v for v in make(L)(lambda: (yield L.is_grad_enabled()))()])
    return seen


@pytest.mark.parametrize("make", [
    lambda L: L.no_grad(), lambda L: L.no_grad, lambda L: L.enable_grad(),
    lambda L: L.set_grad_enabled(False), lambda L: L.inference_mode(),
    lambda L: L.inference_mode, lambda L: L.autograd.grad_mode.no_grad(),
    lambda L: L.autograd.grad_mode.set_grad_enabled(True)],
    ids=["no_grad()", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode()",
         "inference_mode", "grad_mode.no_grad", "grad_mode.set_grad_enabled"])
def test_grad_mode_decorates_generators(make):
    assert _modes(tg, make) == _modes(torch, make)
    assert tg.is_grad_enabled()


def test_generator_close_and_throw_under_no_grad():
    def run(L):
        log = []

        @L.no_grad()
        def gen():
            try:
                yield 1
                yield 2
            except ValueError:
                log.append(("caught", L.is_grad_enabled()))
                yield 3
            finally:
                log.append(("closed", L.is_grad_enabled()))
        g = gen()
        next(g)
        log.append(g.throw(ValueError("x")))
        log.append(L.is_grad_enabled())
        g.close()
        log.append(L.is_grad_enabled())
        return log
    assert run(tg) == run(torch)


def _inference(L):
    a = L.ones(2)
    with L.inference_mode():
        b = L.ones(2) * 2
        c = a + 1
        inside = L.is_inference_mode_enabled()
        with L.inference_mode(False):
            d = L.zeros(1)
    return [a.is_inference(), b.is_inference(), c.is_inference(), d.is_inference(), inside,
            L.is_inference_mode_enabled(), L.autograd.grad_mode.inference_mode is
            L.inference_mode]


def test_inference_tensors():
    assert _inference(tg) == _inference(torch)


# ---- 4. grad_fn node classes ----------------------------------------------------------------
# (mse_loss is composed of ops here, so its grad_fn is MeanBackward0, not MseLossBackward0:
# docs/limits.md)
NODE_PROGRAMS = {
    "mul": lambda L, a, b: a * b, "add": lambda L, a, b: a + b, "sum": lambda L, a, b: a.sum(),
    "mm": lambda L, a, b: a.mm(b), "matmul": lambda L, a, b: a @ b, "sub": lambda L, a, b: a - b,
    "div": lambda L, a, b: a / b, "exp": lambda L, a, b: a.exp(), "mean": lambda L, a, b: a.mean(),
    "pow": lambda L, a, b: a ** 2, "t": lambda L, a, b: a.t(), "view": lambda L, a, b: a.view(9),
    "select": lambda L, a, b: a[0], "relu": lambda L, a, b: a.relu(),
    "tanh": lambda L, a, b: a.tanh(), "sigmoid": lambda L, a, b: L.sigmoid(a),
    "cat": lambda L, a, b: L.cat([a, b]), "stack": lambda L, a, b: L.stack([a, b]),
    "unsqueeze": lambda L, a, b: a.unsqueeze(0), "neg": lambda L, a, b: -a,
    "clone": lambda L, a, b: a.clone(), "max": lambda L, a, b: a.max(),
    "mv": lambda L, a, b: L.matmul(a, b[0]), "permute": lambda L, a, b: a.permute(1, 0),
    "slice": lambda L, a, b: a[1:], "index": lambda L, a, b: a[L.tensor([0, 2])],
    "linear": lambda L, a, b: L.nn.functional.linear(a, b, b[0]),
    "softmax": lambda L, a, b: L.softmax(a, 1), "log_softmax": lambda L, a, b: a.log_softmax(1),
    "cross_entropy": lambda L, a, b: L.nn.functional.cross_entropy(a, L.tensor([0, 1, 2])),
    "where": lambda L, a, b: L.where(b > 0, a, b), "sum_dim": lambda L, a, b: a.sum(1),
    "norm": lambda L, a, b: a.norm(), "rsub": lambda L, a, b: 1 - a,
    "add_scalar": lambda L, a, b: a + 1, "mul_scalar": lambda L, a, b: a * 2,
    "reshape": lambda L, a, b: a.reshape(-1, 9), "flatten": lambda L, a, b: a.flatten(),
}


def _node_names(L):
    a = L.tensor(np.arange(9.0).reshape(3, 3) / 7, requires_grad=True)
    b = L.tensor(np.linspace(-1, 1, 9).reshape(3, 3))
    out = {}
    for k, f in NODE_PROGRAMS.items():
        y = f(L, a, b)
        out[k] = (type(y.grad_fn).__name__, y.grad_fn.name(),
                  [type(n).__name__ for n, _ in y.grad_fn.next_functions])
    return out


def test_grad_fn_classes_named_as_torch():
    mine, theirs = _node_names(tg), _node_names(torch)
    bad = {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]}
    assert not bad
    y = tg.ones(2, requires_grad=True) * 3
    assert isinstance(y.grad_fn, tg.autograd.graph.Node)
    assert type(y.grad_fn) is type((y * 2).grad_fn)  # one class per name


# ---- 5. broadcast errors in PyTorch's words --------------------------------------------------
@pytest.mark.parametrize("fn", [
    lambda L: L.ones(2, 3) + L.ones(2, 4), lambda L: L.ones(3, requires_grad=True) * L.ones(4),
    lambda L: L.where(L.ones(2, 3) > 0, L.ones(2, 3), L.ones(4, 3)),
    lambda L: L.ones(2, 3).add_(L.ones(2, 4)), lambda L: L.ones(3).add_(L.ones(2, 3)),
    lambda L: L.ones(3).expand(2, 4), lambda L: L.broadcast_tensors(L.ones(3), L.ones(4)),
    lambda L: L.maximum(L.ones(3), L.ones(4)), lambda L: L.ones(2, 2, 3) @ L.ones(3, 2, 2)],
    ids=["add", "mul", "where", "add_", "add_out", "expand", "broadcast_tensors", "maximum",
         "batched matmul"])
def test_broadcast_errors_hold_torchs_words(fn):
    with pytest.raises(RuntimeError) as theirs:
        fn(torch)
    with pytest.raises(RuntimeError) as mine:
        fn(tg)
    assert str(theirs.value).splitlines()[0] in str(mine.value)


# ---- 6. grad(is_grads_batched=True) ---------------------------------------------------------
def _batched(L):
    x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = L.tensor([[1.0, -2.0], [0.5, 4.0]], requires_grad=True)
    y = x ** 3
    (jac,) = L.autograd.grad(y, x, L.eye(3), is_grads_batched=True, create_graph=True)
    (hess,) = L.autograd.grad(jac, x, L.eye(3).unsqueeze(1).expand(3, 3, 3),
                              is_grads_batched=True)
    out = (w @ x[:2]).tanh()
    seeds = L.tensor(np.arange(10.0).reshape(5, 2) / 5)
    gw, gx = L.autograd.grad(out, (w, x), seeds, is_grads_batched=True)
    return [jac, hess, gw, gx, jac.requires_grad]


def test_grad_is_grads_batched():
    agree(_batched)
    x = tg.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="interpret the first dimension of each grad_output"):
        tg.autograd.grad(x * 2, x, tg.ones(3), is_grads_batched=True)


# ---- 7. autocast and GradScaler, disabled as without CUDA ------------------------------------
def _amp_loop(L):
    L.manual_seed(0)
    model = L.nn.Linear(3, 1)
    with L.no_grad():
        model.weight.copy_(L.tensor([[0.5, -1.0, 2.0]]))
        model.bias.fill_(0.1)
    opt = L.optim.SGD(model.parameters(), lr=0.05)
    scaler = L.amp.GradScaler("cuda")
    old = L.cuda.amp.GradScaler()
    x = L.tensor(np.linspace(-1, 1, 12).reshape(4, 3))
    y = L.tensor([[1.0], [0.0], [2.0], [-1.0]])

    @L.autocast(device_type="cuda", dtype=L.float16)
    def forward(inp):
        return model(inp)

    losses = []
    for step in range(3):
        opt.zero_grad()
        with L.amp.autocast("cuda"), L.cuda.amp.autocast():
            loss = L.nn.functional.mse_loss(forward(x), y)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        L.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
        losses.append(loss.detach())
    return [losses, model.weight.detach(), scaler.get_scale(), scaler.is_enabled(),
            scaler.state_dict(), old.is_enabled(), L.is_autocast_enabled(), loss.dtype == L.float64
            if L is tg else loss.dtype == torch.float64]


def test_autocast_and_gradscaler_pass_through():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        agree(_amp_loop)
    tg.amp._warned.clear()
    with pytest.warns(UserWarning, match="autocast.*disabled"):
        tg.autocast("cuda")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tg.autocast("cuda")  # (once)
        tg.autocast("cpu", enabled=False)


# ---- 8. torch.tensor(t) of a tensor ---------------------------------------------------------
def _copy_construct(L):
    a = L.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        b = L.tensor(a)
        c = L.tensor(a * 2, dtype=L.float32, requires_grad=True)
    b[0] = 5.0  # a copy: a is untouched
    return [a.detach(), b, b.requires_grad, c, c.requires_grad, c.is_leaf,
            [(w.category.__name__, str(w.message)) for w in seen]]


def test_tensor_of_a_tensor_copies_and_warns():
    agree(_copy_construct)


# ---- 9. Weibull, Pareto, NegativeBinomial, Multinomial --------------------------------------
def _distributions(L):
    D = L.distributions
    sc = L.tensor([1.0, 2.0], requires_grad=True)
    k = L.tensor([0.7, 3.0], requires_grad=True)
    a = L.tensor([0.5, 3.0], requires_grad=True)
    out = {}
    for name, d, v in [("weibull", D.Weibull(sc, k), L.tensor([0.5, 2.5])),
                       ("pareto", D.Pareto(sc, a), L.tensor([1.5, 4.0]))]:
        lp = d.log_prob(v)
        total = lp.sum() + d.entropy().sum() + d.mean[1] + d.variance[1]
        out[name] = [lp, d.entropy(), d.mean, d.variance, d.mode, d.cdf(v),
                     d.icdf(L.tensor([0.3, 0.9])), *L.autograd.grad(total, (sc, k, a),
                                                                    allow_unused=True)]
    p = L.tensor([0.3, 0.8], requires_grad=True)
    d = D.NegativeBinomial(L.tensor([3.0, 5.5]), probs=p)
    lp = d.log_prob(L.tensor([0.0, 7.0]))
    d2 = D.NegativeBinomial(4, logits=L.tensor([0.2, -1.0]))
    out["negbin"] = [lp, d.mean, d.variance, d.mode, L.autograd.grad(lp.sum() + d.variance.sum(),
                                                                     p),
                     d2.log_prob(L.tensor([2.0, 0.0])), d2.mean]
    pr = L.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]], requires_grad=True)
    d = D.Multinomial(6, probs=pr)
    lp, e = d.log_prob(L.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 6.0]])), d.entropy()
    d3 = D.Multinomial(4, logits=L.tensor([0.1, -0.5, 2.0, 0.0]))
    out["multinomial"] = [lp, e, d.mean, d.variance, L.autograd.grad(lp.sum() + e.sum(), pr),
                          d3.log_prob(L.tensor([1.0, 0.0, 3.0, 0.0])), d3.entropy(),
                          d.batch_shape, d.event_shape, d.sample((5,)).shape,
                          d.sample().sum(-1), repr(d)]
    return out


def test_new_distributions_against_torch():
    with np.errstate(all="ignore"):
        agree(_distributions, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("make", [
    lambda D: D.Weibull(tg.tensor([1.5]), tg.tensor([2.0])),
    lambda D: D.Pareto(tg.tensor([1.0]), tg.tensor([4.0])),
    lambda D: D.NegativeBinomial(tg.tensor([3.0]), probs=tg.tensor([0.4])),
    lambda D: D.Multinomial(5, probs=tg.tensor([0.2, 0.3, 0.5]))],
    ids=["Weibull", "Pareto", "NegativeBinomial", "Multinomial"])
def test_new_distributions_sample_their_moments(make):
    tg.manual_seed(0)
    d = make(tg.distributions)
    x = d.sample((40000,))
    assert tuple(x.shape) == (40000, *d.batch_shape, *d.event_shape)
    np.testing.assert_allclose(np.asarray(x.mean(0)), np.asarray(d.mean), rtol=0.03)
    np.testing.assert_allclose(np.asarray(x.var(0)), np.asarray(d.variance), rtol=0.08)
    assert np.isfinite(np.asarray(d.log_prob(x[:100]))).all()
    if d.has_rsample:
        p = d.scale.clone().requires_grad_()
        (type(d)(p, d.concentration if hasattr(d, "concentration") else d.alpha)
         .rsample((10,)).sum().backward())
        assert p.grad is not None and float(p.grad.sum()) > 0


# ---- 10. parametrizations.orthogonal --------------------------------------------------------
def _orthogonal(L, kind):
    lin = L.nn.Linear(3, 3)
    with L.no_grad():
        lin.weight.copy_(L.tensor(np.arange(9.0).reshape(3, 3) / 5 - np.eye(3)))
        lin.bias.zero_()
    m = L.nn.utils.parametrizations.orthogonal(lin, orthogonal_map=kind)
    w0 = m.weight.detach().clone()
    opt = L.optim.SGD(m.parameters(), lr=0.1)
    x = L.tensor(np.linspace(-1, 1, 6).reshape(2, 3))
    for _ in range(2):
        opt.zero_grad()
        (m(x) ** 3).sum().backward()
        opt.step()
    w = m.weight.detach()
    return [w0, w, w @ w.T, sorted(m.state_dict()), type(m).__name__]


@pytest.mark.parametrize("kind", ["matrix_exp", "cayley", "householder"])
def test_orthogonal_parametrization(kind):
    agree(lambda L: _orthogonal(L, kind), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("kind", ["matrix_exp", "householder"])
@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 4)])
def test_orthogonal_without_trivialization(kind, shape):
    def program(L):
        lin = L.nn.Linear(shape[1], shape[0])
        with L.no_grad():
            lin.weight.copy_(L.tensor(np.arange(np.prod(shape), dtype=float).reshape(shape) / 5
                                      - np.eye(*shape)))
        m = L.nn.utils.parametrizations.orthogonal(lin, orthogonal_map=kind,
                                                      use_trivialization=False)
        m.weight.sum().backward()
        return [m.weight, m.parametrizations.weight.original.grad, sorted(m.state_dict())]
    agree(program, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3)])
def test_orthogonal_rectangular_and_batched(shape):
    class Holder(tg.nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = tg.nn.Parameter(tg.randn(*shape))
    m = tg.nn.utils.parametrizations.orthogonal(Holder())
    w = m.weight
    small = min(shape[-2:])
    gram = w.mT @ w if shape[-2] > shape[-1] else w @ w.mT
    np.testing.assert_allclose(np.asarray(gram.detach()), np.broadcast_to(np.eye(small),
                               gram.shape), atol=1e-12)
    w.sum().backward()
    assert m.parametrizations.weight.original.grad is not None
    with pytest.raises(ValueError, match="Expected a matrix"):
        tg.nn.utils.parametrizations.orthogonal(tg.nn.Linear(2, 2), "bias")
