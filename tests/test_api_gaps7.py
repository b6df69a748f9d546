"""Gaps that PyTorch programs written for ``import tapegrad as torch`` stopped on (a missing
name, or a different answer), each checked against torch: once_differentiable, the
optimizer's state dict, grad modes on generators, grad_fn class names, batched grads,
autocast/GradScaler, torch.tensor of a tensor, the missing distributions, and short
programs of the kind tutorials and scripts are made of, run under both libraries."""
import io
import math
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


# ---- 11. programs as tutorials and scripts write them, under both libraries ------------------
X = np.linspace(-1, 1, 24).reshape(8, 3)
Y = np.sin(X.sum(1, keepdims=True))


def _mlp(L):
    m = L.nn.Sequential(L.nn.Linear(3, 5), L.nn.Tanh(), L.nn.Linear(5, 1))
    with L.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(L.tensor(np.cos(np.arange(p.numel()) + i).reshape(tuple(p.shape)) / 2))
    return m


def autograd_basics(L):
    x = L.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    out.backward()
    return [out, x.grad, y.grad_fn is not None, x.is_leaf, y.is_leaf, z.requires_grad]


def vector_jacobian(L):
    x = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = x * 2
    while y.data.norm() < 100:
        y = y * 2
    v = L.tensor([0.1, 1.0, 0.0001])
    y.backward(v)
    return [y, x.grad]


def custom_function_exp(L):
    class Exp(L.autograd.Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            (result,) = ctx.saved_tensors
            return grad_output * result
    x = L.tensor([0.1, 0.2], requires_grad=True)
    Exp.apply(x).sum().backward()
    return [x.grad]


def custom_function_setup_context(L):
    class MulConst(L.autograd.Function):
        @staticmethod
        def forward(x, c):
            return x * c

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.c = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g * ctx.c, None
    x = L.tensor([1.0, 3.0], requires_grad=True)
    MulConst.apply(x, 2.5).sum().backward()
    return [x.grad]


def training_loop_sgd(L):
    m = _mlp(L)
    opt = L.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-3)
    sched = L.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    x, y = L.tensor(X), L.tensor(Y)
    losses = []
    for _ in range(5):
        opt.zero_grad()
        loss = L.nn.functional.mse_loss(m(x), y)
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
    return [losses, sched.get_last_lr(), [p.detach() for p in m.parameters()]]


def training_loop_adam_cosine(L):
    m = _mlp(L)
    opt = L.optim.Adam(m.parameters(), lr=0.01, betas=(0.8, 0.99))
    sched = L.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
    x, y = L.tensor(X), L.tensor(Y)
    for _ in range(4):
        opt.zero_grad()
        loss = ((m(x) - y) ** 2).mean()
        loss.backward()
        L.nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5)
        opt.step()
        sched.step()
    return [loss, opt.param_groups[0]["lr"], list(m.parameters())[0]]


def onecycle_and_plateau(L):
    w = L.nn.Parameter(L.tensor([1.0, 2.0]))
    opt = L.optim.SGD([w], lr=0.1, momentum=0.9)
    s1 = L.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=6)
    lrs = []
    for _ in range(5):
        opt.step()
        s1.step()
        lrs.append(opt.param_groups[0]["lr"])
    opt2 = L.optim.SGD([w], lr=1.0)
    s2 = L.optim.lr_scheduler.ReduceLROnPlateau(opt2, patience=1, factor=0.5)
    for v in [1.0, 1.0, 1.0, 1.0, 0.5]:
        s2.step(v)
        lrs.append(opt2.param_groups[0]["lr"])
    return lrs


def eval_loop_no_grad(L):
    m = _mlp(L)
    m.eval()
    correct = 0
    with L.no_grad():
        out = m(L.tensor(X))
        pred = (out > 0).long().squeeze(1)
        correct += (pred == L.tensor((Y[:, 0] > 0).astype(np.int64))).sum().item()
    return [out, out.requires_grad, correct, m.training]


def classification_cross_entropy(L):
    L.manual_seed(0)
    lin = L.nn.Linear(3, 4)
    with L.no_grad():
        lin.weight.copy_(L.tensor(np.arange(12.0).reshape(4, 3) / 10))
        lin.bias.fill_(0.1)
    logits = lin(L.tensor(X))
    target = L.tensor([0, 1, 2, 3, 0, 1, 2, 3])
    loss = L.nn.CrossEntropyLoss(label_smoothing=0.1)(logits, target)
    loss.backward()
    acc = (logits.argmax(dim=1) == target).float().mean()
    return [loss, lin.weight.grad, acc, logits.softmax(-1).sum(-1)]


def hooks_tensor_and_module(L):
    m = _mlp(L)
    seen = []
    h1 = m[0].register_forward_hook(lambda mod, i, o: seen.append(o.detach().clone()))
    h2 = m[2].register_full_backward_hook(lambda mod, gi, go: seen.append(go[0].detach()))
    x = L.tensor(X, requires_grad=True)
    x.register_hook(lambda g: g * 2)
    y = m(x)
    y.retain_grad()
    y.sum().backward()
    h1.remove()
    h2.remove()
    m(x)
    return [seen, x.grad, y.grad, len(seen)]


def inplace_ops(L):
    a = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a * 2
    b.add_(1).mul_(3)
    b[0] = 0.0
    c = b.clamp_(min=1.0)
    c.sum().backward()
    d = L.zeros(3, 3)
    d[1:, 0] += 1.0
    d[:, 0] = 5.0  # (d.t()[0].fill_(5) changes a copy: docs/limits.md, "Views are copies")
    d.view(-1)[4] = 7.0
    d.masked_fill_(d > 6, -1.0)
    return [b, a.grad, d, b._version > 0]


def indexing_fancy(L):
    x = L.tensor(np.arange(24.0).reshape(2, 3, 4), requires_grad=True)
    idx = L.tensor([2, 0])
    parts = [x[:, idx], x[..., 1], x[x > 10], x[1, [0, 2], 1:3], x[:, None, 0], x[0, -1, ::2],
             x.index_select(2, idx), x.gather(2, L.tensor([[[0], [1], [3]]]).expand(2, 3, 1)),
             L.take_along_dim(x, L.tensor([[[1]]]), dim=2)]
    sum(p.sum() for p in parts).backward()
    return parts + [x.grad]


def tensor_methods(L):
    t = L.tensor(np.arange(12.0).reshape(3, 4))
    return [t.view(4, 3), t.permute(1, 0).contiguous(), t.flatten(), t.unsqueeze(1).shape,
            t.chunk(2, dim=1), t.split([1, 3], dim=1), t.topk(2).values, t.sort(descending=True)[0],
            t.cumsum(0), t.std(), t.var(1, unbiased=False), t.amax(1), t.argmin(), t.numel(),
            t.dim(), t.size(1), t.T, t.repeat(2, 1), t.expand_as(L.zeros(2, 3, 4)).shape,
            t.clamp(2, 5), t.norm(dim=1), t.round(), t.int().dtype == L.int32,
            t.to(L.float32).dtype == L.float32, t.tolist(), t.max(dim=1).indices,
            t.mean(dim=(0, 1), keepdim=True), t.roll(1, 0), t.flip(1), t.tril(), t.triu(1)]


def dtype_handling(L):
    a = L.tensor([1, 2, 3])
    b = L.tensor([1.5, 2.5, 3.5], dtype=L.float32)
    c = L.arange(5)
    return [str(a.dtype).split(".")[-1], str(b.dtype).split(".")[-1], str((a * b).dtype)
            .split(".")[-1], str((a / 2).dtype).split(".")[-1] in ("float32", "float64"),
            str(c.dtype).split(".")[-1], str((a > 1).dtype).split(".")[-1],
            str(b.double().dtype).split(".")[-1], a.float().is_floating_point(),
            str(L.zeros(2, dtype=L.long).dtype).split(".")[-1], (a // 2), a % 2,
            str(L.tensor(True).dtype).split(".")[-1], str(b.half().dtype).split(".")[-1]]


def nn_init(L):
    L.manual_seed(0)
    w = L.empty(50, 40)
    L.nn.init.xavier_uniform_(w)
    z = L.empty(3, 4)
    L.nn.init.zeros_(z)
    c = L.empty(3, 4)
    L.nn.init.constant_(c, 0.3)
    e = L.empty(3, 3)
    L.nn.init.eye_(e)
    bound = math.sqrt(6 / 90)
    return [float(w.abs().max()) <= bound, z, c, e, L.nn.init.calculate_gain("relu"),
            L.nn.init.calculate_gain("leaky_relu", 0.2), L.nn.init._calculate_fan_in_and_fan_out(w)
            if hasattr(L.nn.init, "_calculate_fan_in_and_fan_out") else (40, 50)]


def state_dict_roundtrip(L):
    m = _mlp(L)
    buf = io.BytesIO()
    L.save(m.state_dict(), buf)
    buf.seek(0)
    m2 = L.nn.Sequential(L.nn.Linear(3, 5), L.nn.Tanh(), L.nn.Linear(5, 1))
    res = m2.load_state_dict(L.load(buf))
    opt = L.optim.Adam(m.parameters())
    m(L.tensor(X)).sum().backward()
    opt.step()
    buf2 = io.BytesIO()
    L.save({"model": m.state_dict(), "opt": opt.state_dict(), "epoch": 3}, buf2)
    buf2.seek(0)
    ck = L.load(buf2)
    opt2 = L.optim.Adam(m2.parameters())
    opt2.load_state_dict(ck["opt"])
    return [m2(L.tensor(X)), list(res.missing_keys), ck["epoch"], list(ck["model"].keys()),
            opt2.state_dict()["param_groups"][0]["lr"]]


def func_grad_vmap(L):
    f = lambda x: (x.sin() * x).sum()  # noqa: E731
    x = L.tensor([0.3, 1.2, -0.7])
    g = L.func.grad(f)(x)
    batched = L.func.vmap(L.func.grad(f))(L.tensor(X))
    jac = L.func.jacrev(lambda v: v.exp() * v[0])(x)
    hess = L.func.hessian(f)(x)
    val, gr = L.func.grad_and_value(f)(x)
    return [g, batched, jac, hess, val, gr]


def functional_call_params(L):
    m = _mlp(L)
    params = {k: v.detach() * 2 for k, v in m.named_parameters()}
    out = L.func.functional_call(m, params, (L.tensor(X),))
    return [out]


def autograd_functional(L):
    f = lambda x: (x ** 3).sum()  # noqa: E731
    x = L.tensor([1.0, 2.0])
    return [L.autograd.functional.jacobian(lambda v: v ** 2, x),
            L.autograd.functional.hessian(f, x),
            L.autograd.functional.vjp(lambda v: v ** 2, x, L.ones(2))[1],
            L.autograd.functional.jvp(lambda v: v ** 2, x, L.ones(2))[1]]


def distributions_usage(L):
    L.manual_seed(0)
    mu = L.tensor([0.0, 1.0], requires_grad=True)
    sd = L.tensor([1.0, 2.0], requires_grad=True)
    n = L.distributions.Normal(mu, sd)
    lp = n.log_prob(L.tensor([0.5, 0.5])).sum()
    kl = L.distributions.kl_divergence(n, L.distributions.Normal(L.zeros(2), L.ones(2))).sum()
    (lp + kl).backward()
    c = L.distributions.Categorical(logits=L.tensor([0.1, 0.2, 0.7]))
    b = L.distributions.Bernoulli(probs=L.tensor(0.3))
    mvn = L.distributions.MultivariateNormal(L.zeros(2), covariance_matrix=L.tensor(
        [[2.0, 0.5], [0.5, 1.0]]))
    ind = L.distributions.Independent(L.distributions.Normal(L.zeros(3), L.ones(3)), 1)
    return [lp, kl, mu.grad, sd.grad, c.entropy(), c.log_prob(L.tensor(2)), b.log_prob(
        L.tensor(1.0)), mvn.log_prob(L.tensor([1.0, -1.0])), mvn.entropy(), ind.event_shape,
        ind.log_prob(L.zeros(3)), n.sample((4,)).shape, n.rsample().requires_grad]


def manual_seed_determinism(L):
    L.manual_seed(42)
    a = L.randn(3)
    L.manual_seed(42)
    b = L.randn(3)
    g = L.Generator().manual_seed(1)
    c = L.rand(2, generator=g)
    g.manual_seed(1)
    d = L.rand(2, generator=g)
    return [bool((a == b).all()), bool((c == d).all()), L.randint(0, 5, (10,)).max() < 5,
            L.randperm(6).sort().values]


def dataloader_loop(L):
    ds = L.utils.data.TensorDataset(L.tensor(X), L.tensor(Y))
    dl = L.utils.data.DataLoader(ds, batch_size=3, shuffle=False, drop_last=False)
    m = _mlp(L)
    opt = L.optim.SGD(m.parameters(), lr=0.05)
    sizes = []
    for xb, yb in dl:
        opt.zero_grad()
        loss = L.nn.functional.mse_loss(m(xb), yb)
        loss.backward()
        opt.step()
        sizes.append(len(xb))
    train, test = L.utils.data.random_split(ds, [6, 2], generator=L.Generator().manual_seed(0))
    return [sizes, len(dl), len(train), len(test), loss]


def module_api(L):
    m = _mlp(L)
    names = [n for n, _ in m.named_parameters()]
    n_params = sum(p.numel() for p in m.parameters() if p.requires_grad)
    m.requires_grad_(False)
    frozen = all(not p.requires_grad for p in m.parameters())
    m.apply(lambda mod: None)
    children = [type(c).__name__ for c in m.children()]
    m.train(False)
    m.zero_grad(set_to_none=True)
    return [names, n_params, frozen, children, m.training, str(m[0]), m[0].in_features,
            len(list(m.modules())), [k for k, _ in m.named_modules()]]


def custom_module(L):
    class Net(L.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = L.nn.Linear(3, 2)
            self.register_buffer("scale", L.tensor(2.0))
            self.layers = L.nn.ModuleList([L.nn.Linear(2, 2) for _ in range(2)])
            self.extra = L.nn.ParameterDict({"a": L.nn.Parameter(L.ones(2))})

        def forward(self, x):
            x = L.relu(self.fc(x)) * self.scale
            for layer in self.layers:
                x = layer(x)
            return x + self.extra["a"]
    L.manual_seed(0)
    net = Net()
    with L.no_grad():
        for p in net.parameters():
            p.fill_(0.1)
    out = net(L.tensor(X))
    out.sum().backward()
    return [out, sorted(net.state_dict().keys()), net.fc.weight.grad, len(list(net.buffers()))]


def conv_pool_bn(L):
    L.manual_seed(0)
    x = L.tensor(np.linspace(-1, 1, 2 * 1 * 6 * 6).reshape(2, 1, 6, 6), requires_grad=True)
    conv = L.nn.Conv2d(1, 2, 3, padding=1)
    bn = L.nn.BatchNorm2d(2)
    with L.no_grad():
        conv.weight.copy_(L.tensor(np.arange(18.0).reshape(2, 1, 3, 3) / 20))
        conv.bias.fill_(0.0)
    y = L.nn.functional.max_pool2d(L.relu(bn(conv(x))), 2)
    y = L.nn.functional.adaptive_avg_pool2d(y, 1).flatten(1)
    y.sum().backward()
    return [y, x.grad, bn.running_mean, bn.running_var, bn.num_batches_tracked]


def rnn_lstm(L):
    L.manual_seed(0)
    lstm = L.nn.LSTM(3, 4, batch_first=True)
    with L.no_grad():
        for i, p in enumerate(lstm.parameters()):
            p.copy_(L.tensor(np.sin(np.arange(p.numel()) + i).reshape(tuple(p.shape)) / 3))
    out, (h, c) = lstm(L.tensor(X.reshape(2, 4, 3)))
    out.sum().backward()
    return [out, h, c, lstm.weight_ih_l0.grad]


def embedding_and_dropout_eval(L):
    emb = L.nn.Embedding(5, 3, padding_idx=0)
    with L.no_grad():
        emb.weight.copy_(L.tensor(np.arange(15.0).reshape(5, 3)))
    drop = L.nn.Dropout(0.5)
    drop.eval()
    out = drop(emb(L.tensor([[0, 2], [4, 1]])))
    out.sum().backward()
    return [out, emb.weight.grad]


def higher_order_grad(L):
    x = L.tensor(2.0, requires_grad=True)
    y = x ** 4
    (g,) = L.autograd.grad(y, x, create_graph=True)
    (g2,) = L.autograd.grad(g, x, create_graph=True)
    g2.backward()
    return [g, g2, x.grad]


def detach_and_requires_grad(L):
    a = L.tensor([1.0, 2.0], requires_grad=True)
    b = a.detach()
    b.requires_grad_()
    c = (b * 3).sum()
    c.backward()
    d = a.clone().detach().requires_grad_(True)
    e = L.tensor([1.0]).requires_grad_()
    return [b.grad, a.grad, d.is_leaf, e.requires_grad, a.data, a.detach().numpy(),
            a.sum().item()]


def where_and_masks(L):
    x = L.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    y = L.where(x > 0, x ** 2, L.zeros_like(x))
    z = y.masked_fill(x > 1, 10.0)
    (z.sum() + L.nn.functional.relu(x).sum()).backward()
    return [y, z, x.grad, L.any(x > 1), L.all(x > -2), x.nonzero(), L.nonzero(x > 0,
            as_tuple=True)]


def sparse_like_scatter(L):
    src = L.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    idx = L.tensor([0, 1, 0, 2])
    out = L.zeros(3).scatter_add(0, idx, src)
    out2 = L.zeros(3).index_add(0, idx, src)
    bc = L.bincount(idx)
    (out * L.tensor([1.0, 2.0, 3.0])).sum().backward()
    return [out, out2, bc, src.grad, L.zeros(2, 3).scatter(1, L.tensor([[0], [2]]), 1.0)]


def einsum_bmm(L):
    a = L.tensor(np.arange(24.0).reshape(2, 3, 4) / 10, requires_grad=True)
    b = L.tensor(np.arange(40.0).reshape(2, 4, 5) / 10)
    c = L.einsum("bij,bjk->bik", a, b)
    d = L.bmm(a, b)
    e = a @ b
    (c.sum() + d.pow(2).sum() + e.mean()).backward()
    return [c, a.grad, L.allclose(c, d), L.baddbmm(L.zeros(2, 3, 5), a, b).shape]


def lbfgs_closure(L):
    w = L.nn.Parameter(L.tensor([1.5, -0.5]))
    opt = L.optim.LBFGS([w], lr=1, max_iter=20, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = (1 - w[0]) ** 2 + 100 * (w[1] - w[0] ** 2) ** 2
        loss.backward()
        return loss
    for _ in range(3):
        opt.step(closure)
    return [w.detach()]


def linalg_usage(L):
    a = L.tensor([[4.0, 1.0], [1.0, 3.0]], requires_grad=True)
    sol = L.linalg.solve(a, L.tensor([1.0, 2.0]))
    ch = L.linalg.cholesky(a)
    inv = L.linalg.inv(a)
    det = L.linalg.det(a)
    ev = L.linalg.eigvalsh(a)
    (sol.sum() + ch.sum() + inv.sum() + det + ev.sum() + L.linalg.norm(a)).backward()
    return [sol, ch, inv, det, ev, a.grad, L.linalg.matrix_norm(a, "fro")]


def grad_accumulation_and_zero(L):
    w = L.tensor([1.0, 2.0], requires_grad=True)
    for _ in range(3):
        (w * w).sum().backward()
    acc = w.grad.clone()
    w.grad.zero_()
    (w * 3).sum().backward()
    w.grad = None
    (w ** 3).sum().backward()
    return [acc, w.grad]


def retain_graph_twice(L):
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    first = x.grad.clone()
    y.backward()
    try:
        y.backward()
        err = None
    except RuntimeError as e:
        err = "Trying to backward through the graph a second time" in str(e)
    return [first, x.grad, err]


def anomaly_and_set_detect(L):
    with L.autograd.detect_anomaly():
        x = L.tensor([1.0], requires_grad=True)
        (x * 2).sum().backward()
    return [x.grad, L.is_anomaly_enabled() if hasattr(L, "is_anomaly_enabled") else False]


def gradient_checkpoint(L):
    m = _mlp(L)
    x = L.tensor(X, requires_grad=True)
    y = L.utils.checkpoint.checkpoint(m, x, use_reentrant=False)
    y.sum().backward()
    return [y, x.grad]


def cat_stack_split(L):
    a = L.tensor([[1.0, 2.0]], requires_grad=True)
    b = L.tensor([[3.0, 4.0]], requires_grad=True)
    c = L.cat([a, b], 0)
    s = L.stack([a, b], dim=2)
    u = c.unbind(0)
    parts = L.split(c, 1, dim=1)
    (c.sum() * 2 + s.prod() + u[1].sum() + parts[0].mean()).backward()
    return [c, s, u, parts, a.grad, b.grad, L.hstack([a, b]), L.vstack([a, b])]


def softmax_logsumexp_numerics(L):
    x = L.tensor([1000.0, 1001.0, 1002.0], requires_grad=True)
    p = L.softmax(x, 0)
    lse = L.logsumexp(x, 0)
    ls = L.nn.functional.log_softmax(x, 0)
    (p[0] + lse + ls.sum()).backward()
    return [p, lse, ls, x.grad]


def losses_zoo(L):
    x = L.tensor([[0.2, -0.4, 1.0], [1.5, 0.3, -0.2]], requires_grad=True)
    t = L.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])
    F = L.nn.functional
    ls = [F.binary_cross_entropy_with_logits(x, t), F.binary_cross_entropy(x.sigmoid(), t),
          F.smooth_l1_loss(x, t), F.huber_loss(x, t, delta=0.5), F.l1_loss(x, t),
          F.kl_div(x.log_softmax(1), t.softmax(1), reduction="batchmean"),
          F.nll_loss(x.log_softmax(1), L.tensor([2, 0])), F.cosine_similarity(x, t).sum(),
          L.nn.MSELoss(reduction="sum")(x, t), F.cross_entropy(x, t.softmax(1))]
    sum(ls).backward()
    return ls + [x.grad]


def no_grad_param_update(L):
    w = L.tensor([1.0, -1.0], requires_grad=True)
    lr = 0.1
    for _ in range(3):
        loss = ((w - 2) ** 2).sum()
        loss.backward()
        with L.no_grad():
            w -= lr * w.grad
            w.grad.zero_()
    return [w, w.requires_grad, w.is_leaf]


def set_grad_enabled_toggle(L):
    x = L.ones(2, requires_grad=True)
    is_train = False
    with L.set_grad_enabled(is_train):
        y = x * 2
    L.set_grad_enabled(True)
    z = x * 2
    return [y.requires_grad, z.requires_grad, L.is_grad_enabled()]


def typical_tensor_creation(L):
    return [L.zeros(2, 3).shape, L.ones((2,)), L.full((2, 2), 7.0), L.arange(0, 1, 0.25),
            L.linspace(0, 1, 5), L.eye(2, 3), L.empty(3).shape, L.zeros_like(L.ones(2)),
            L.tensor([[1, 2], [3, 4]]).shape, L.from_numpy(np.arange(3.0)), L.as_tensor([1.0]),
            L.ones(2, 2).new_zeros(3), L.ones(2).new_tensor([5.0, 6.0]), L.tensor(3.5).item(),
            L.logspace(0, 2, 3), L.diag(L.tensor([1.0, 2.0])), L.meshgrid(L.arange(2), L.arange(3),
                                                                        indexing="ij")]


def weight_tying_and_shared(L):
    emb = L.nn.Embedding(4, 3)
    head = L.nn.Linear(3, 4, bias=False)
    head.weight = emb.weight
    with L.no_grad():
        emb.weight.copy_(L.tensor(np.arange(12.0).reshape(4, 3) / 10))
    out = head(emb(L.tensor([1, 2])))
    out.sum().backward()
    return [out, emb.weight.grad, head.weight is emb.weight,
            len(list(L.nn.ModuleList([emb, head]).parameters()))]


PROGRAMS = [autograd_basics, vector_jacobian, custom_function_exp, custom_function_setup_context,
            training_loop_sgd, training_loop_adam_cosine, onecycle_and_plateau, eval_loop_no_grad,
            classification_cross_entropy, hooks_tensor_and_module, inplace_ops, indexing_fancy,
            tensor_methods, dtype_handling, nn_init, state_dict_roundtrip, func_grad_vmap,
            functional_call_params, autograd_functional, distributions_usage,
            manual_seed_determinism, dataloader_loop, module_api, custom_module, conv_pool_bn,
            rnn_lstm, embedding_and_dropout_eval, higher_order_grad, detach_and_requires_grad,
            where_and_masks, sparse_like_scatter, einsum_bmm, lbfgs_closure, linalg_usage,
            grad_accumulation_and_zero, retain_graph_twice, anomaly_and_set_detect,
            gradient_checkpoint, cat_stack_split, softmax_logsumexp_numerics, losses_zoo,
            no_grad_param_update, set_grad_enabled_toggle, typical_tensor_creation,
            weight_tying_and_shared]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_program_runs_as_under_torch(program):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (deprecations differ; the answers must not)
        agree(program)


# ---- names scripts spell by their full path, and small API corners found on the way ----------
@LIBS
def test_names_by_full_path(L):
    D, data = L.distributions, L.utils.data
    assert D.normal.Normal is D.Normal and D.multivariate_normal.MultivariateNormal is \
        D.MultivariateNormal and D.one_hot_categorical.OneHotCategorical is D.OneHotCategorical
    assert data.dataloader.DataLoader is data.DataLoader and data.dataset.Dataset is \
        data.Dataset and data.sampler.SubsetRandomSampler is data.SubsetRandomSampler
    assert L.autograd.variable.Variable is L.autograd.Variable
    assert L.autograd.anomaly_mode.detect_anomaly is L.autograd.detect_anomaly
    out = L.nn.utils.stateless.functional_call(
        L.nn.Linear(2, 1), {"weight": L.ones(1, 2), "bias": L.zeros(1)}, (L.ones(1, 2),))
    assert out.tolist() == [[2.0]]
    with L.autograd.set_multithreading_enabled(False):
        assert L.autograd.is_multithreading_enabled() in (True, False)
    L.set_num_interop_threads(L.get_num_interop_threads())  # (torch: only before first use)
    assert L.is_inference(L.ones(1)) is False
    assert L.cuda.memory_allocated() == 0 and L.cuda.max_memory_allocated() == 0
    assert L.cuda.is_bf16_supported() is False


def test_small_corners():
    def program(L):
        p = L.tensor([0.0, 0.25, 1.0])
        u = L.distributions.utils
        m = L.nn.Linear(2, 1)
        assert m.compile() is None and m(L.ones(1, 2)).shape == (1, 1)

        class Twice(L.autograd.Function):
            @staticmethod
            @L.amp.custom_fwd(device_type="cuda")
            def forward(ctx, x):
                return x * 2

            @staticmethod
            @L.amp.custom_bwd(device_type="cuda")
            def backward(ctx, g):
                return g * 2
        x = L.ones(2, requires_grad=True)
        Twice.apply(x).sum().backward()
        return [u.probs_to_logits(p), u.probs_to_logits(p, is_binary=True),
                u.logits_to_probs(p), u.logits_to_probs(p, is_binary=True), u.clamp_probs(p),
                x.grad, callable(L.cuda.amp.custom_fwd)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        agree(program)


@pytest.mark.parametrize("name", ["SGD", "Adam", "LBFGS"])
def test_optimizer_step_hooks(name):
    def program(L):
        w = L.nn.Parameter(L.tensor([1.0, -2.0]))
        opt = getattr(L.optim, name)([w], lr=0.1)
        log = []
        h1 = opt.register_step_pre_hook(lambda o, a, k: log.append(("pre", len(a))))
        h2 = opt.register_step_post_hook(lambda o, a, k: log.append(("post", float(w[0]))))

        def closure():
            opt.zero_grad()
            loss = (w ** 2).sum()
            loss.backward()
            return loss
        opt.step(closure)
        h1.remove()
        opt.step(closure)
        h2.remove()
        opt.step(closure)
        return [log, w.detach()]
    agree(program)
