"""PyTorch's answers, compared case by case with torch 2.13: ``Tensor.grad_dtype`` (the
dtype a leaf's gradients are cast to as they arrive, its errors, ``.grad`` assignment under
it); create_graph gradients through piecewise-linear activations and poolings (they require
grad, with a zero derivative) and through piecewise-constant ops (zeros, not an unused
input); ``nn.Parameter(t)`` and ``copy.copy(parameter)`` on t's memory."""
import copy

import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")


def _show(v):
    """A comparable picture of a result: tensors as (dtype, values, requires_grad)."""
    if isinstance(v, (tuple, list)):
        return [_show(e) for e in v]
    if isinstance(v, (tg.Tensor, torch.Tensor)):
        return (str(v.dtype).split(".")[-1], np.round(v.detach().numpy().astype(float), 12)
                .tolist(), v.requires_grad)
    if isinstance(v, (tg.dtype, torch.dtype)):
        return str(v).split(".")[-1]
    return v


def _outcome(case, L):
    try:
        return _show(case(L))
    except Exception as e:  # noqa: BLE001 (the error is what is compared)
        return type(e).__name__, str(e)


def _same(case):
    assert _outcome(case, tg) == _outcome(case, torch)


# ---- grad_dtype ---------------------------------------------------------------------------
def _leaf32(L, n=3):
    return L.ones(n, dtype=L.float32, requires_grad=True)


def _gd_backward(L):
    x = _leaf32(L)
    x.grad_dtype = L.float64
    seen = []
    x.register_hook(lambda g: seen.append(str(g.dtype).split(".")[-1]))
    x.register_post_accumulate_grad_hook(lambda p: seen.append(str(p.grad.dtype)[-7:]))
    (x * 2).sum().backward()
    (x * 3).sum().backward()
    return x.grad, seen, x.grad_dtype


def _gd_none(L):
    x = _leaf32(L)
    x.grad_dtype = None
    x.grad = L.ones(3, dtype=L.float64)  # any dtype is accepted
    (x * 2).sum().backward()  # and kept: float32 gradients add into it
    return x.grad, x.grad_dtype


def _gd_assign_refused(L):
    x = _leaf32(L)
    x.grad_dtype = L.float64
    x.grad = L.ones(3, dtype=L.float32)  # against grad_dtype float64


def _gd_default_assign_refused(L):
    x = _leaf32(L)
    x.grad = L.ones(3, dtype=L.float64)


def _gd_grad(L):
    x = _leaf32(L)
    x.grad_dtype = L.float64
    return L.autograd.grad((x * 2).sum(), x)


def _gd_create_graph(L):
    w = L.ones(3, dtype=L.float64, requires_grad=True)
    w.grad_dtype = L.float32
    (w * 1.1).sum().backward(create_graph=True)
    return w.grad, w.grad.grad_fn is None


def _gd_scalar(L):
    s = L.tensor(2.0, dtype=L.float64, requires_grad=True)
    s.grad_dtype = L.float32
    (s * s * 1.1).backward()
    return s.grad


def _gd_linear(L):
    m = L.nn.Linear(2, 2).double()
    m.weight.grad_dtype = L.float32
    m(L.ones(1, 2, dtype=L.float64)).sum().backward()
    return m.weight.grad.dtype, m.bias.grad.dtype


def _gd_nonleaf_get(L):
    return (_leaf32(L) * 2).grad_dtype


def _gd_nonleaf_set(L):
    y = _leaf32(L) * 2
    y.grad_dtype = L.float64


def _gd_not_a_dtype(L):
    _leaf32(L).grad_dtype = "float"


def _gd_existing_grad(L):
    x = _leaf32(L)
    (x * 2).sum().backward()
    x.grad_dtype = L.float64


def _gd_not_inherited(L):
    x = _leaf32(L)
    x.grad_dtype = L.float64
    return (copy.deepcopy(x).grad_dtype, x.detach().grad_dtype,
            L.ones(2, dtype=L.float32).grad_dtype,
            L.nn.Parameter(L.ones(2, dtype=L.float32)).grad_dtype)


GRAD_DTYPE = [_gd_backward, _gd_none, _gd_assign_refused, _gd_default_assign_refused,
              _gd_grad, _gd_create_graph, _gd_scalar, _gd_linear, _gd_nonleaf_get,
              _gd_nonleaf_set, _gd_not_a_dtype, _gd_existing_grad, _gd_not_inherited]


@pytest.mark.parametrize("case", GRAD_DTYPE, ids=lambda c: c.__name__)
def test_grad_dtype(case):
    _same(case)


# ---- create_graph through piecewise ops ---------------------------------------------------
X = [-2.0, -0.5, 0.0, 0.3, 0.7, 1.0, 3.0, 7.0]
IMG = np.linspace(-2, 3, 32).reshape(1, 2, 4, 4)

PIECEWISE = {
    "relu6": lambda F, L, x: F.relu6(x),
    "hardtanh": lambda F, L, x: F.hardtanh(x),
    "hardtanh_bounds": lambda F, L, x: F.hardtanh(x, -0.4, 0.5),
    "hardtanh_inplace": lambda F, L, x: F.hardtanh(x.clone(), inplace=True),
    "leaky_relu": lambda F, L, x: F.leaky_relu(x, 0.2),
    "leaky_relu_inplace": lambda F, L, x: F.leaky_relu(x.clone(), 0.1, inplace=True),
    "threshold": lambda F, L, x: F.threshold(x, 0.5, -1.0),
    "hardshrink": lambda F, L, x: F.hardshrink(x),
    "softshrink": lambda F, L, x: F.softshrink(x),
    "prelu": lambda F, L, x: F.prelu(x, L.tensor([0.25], dtype=L.float64)),
    "rrelu_eval": lambda F, L, x: F.rrelu(x, training=False),
    "relu": lambda F, L, x: F.relu(x),
    "where": lambda F, L, x: L.where(x > 0, x, 0.1 * x),  # (PyTorch's: no grad needed)
    "floor": lambda F, L, x: L.floor(x),
    "ceil": lambda F, L, x: L.ceil(x),
    "round": lambda F, L, x: L.round(x),
    "round_decimals": lambda F, L, x: L.round(x, decimals=1),
    "sign": lambda F, L, x: L.sign(x),
    "floor_times_x": lambda F, L, x: L.floor(x) * x,
    "max_pool2d": lambda F, L, x: F.max_pool2d(x.reshape(1, 2, 2, 2), 2),
    "max_pool2d_overlap": lambda F, L, x: F.max_pool2d(x.reshape(1, 1, 2, 4), 2, 1, 1),
    "adaptive_max_pool2d": lambda F, L, x: F.adaptive_max_pool2d(x.reshape(1, 1, 2, 4), 1),
    "avg_pool2d": lambda F, L, x: F.avg_pool2d(x.reshape(1, 1, 2, 4), 2),
    "adaptive_avg_pool2d": lambda F, L, x: F.adaptive_avg_pool2d(x.reshape(1, 2, 2, 2), 1),
}


@pytest.mark.parametrize("name", list(PIECEWISE))
def test_create_graph_piecewise(name):
    """The first gradient (values, requires_grad) and, where it requires grad, the second
    (zeros for the piecewise-linear ones), as PyTorch's."""
    def case(L):
        x = L.tensor(X, dtype=L.float64, requires_grad=True)
        y = PIECEWISE[name](L.nn.functional, L, x)
        (g,) = L.autograd.grad(y.sum(), x, create_graph=True)
        if not g.requires_grad:
            return g
        (h,) = L.autograd.grad((g * g).sum(), x)
        return g, h
    _same(case)


# ---- nn.Parameter on its source's memory --------------------------------------------------
def _param_shares(L):
    t = L.ones(3, dtype=L.float64)
    p = L.nn.Parameter(t)
    t.add_(1.0)
    first = (p.tolist(), p._version, t._version)
    with L.no_grad():
        p.mul_(3.0)
    opt = L.optim.SGD([p], lr=0.5)
    (p * p).sum().backward()
    opt.step()
    return first, t, p, t._version


def _param_of_view(L):
    v = L.arange(6.0, dtype=L.float64)[1:4]
    p = L.nn.Parameter(v)
    with L.no_grad():
        p[0] = 100.0
    return v


def _param_of_0d(L):
    z = L.tensor(2.0, dtype=L.float64)
    p = L.nn.Parameter(z)
    z.add_(1.0)
    return p


def _param_of_leaf(L):
    w = L.ones(2, dtype=L.float64, requires_grad=True)
    p = L.nn.Parameter(w)
    (p * 2).sum().backward()
    return w.grad is None, p.grad, p.is_leaf


def _param_of_nonleaf(L):
    w = L.ones(2, dtype=L.float64, requires_grad=True)
    p = L.nn.Parameter(w * 3)
    return p, p.is_leaf, p.grad_fn is None


def _param_copy(L):
    p = L.nn.Parameter(L.ones(3, dtype=L.float64))
    p.grad = L.full((3,), 2.0, dtype=L.float64)
    q = copy.copy(p)
    with L.no_grad():
        q[0] = 5.0
    d = copy.deepcopy(p)
    with L.no_grad():
        d[1] = 7.0
    return type(q).__name__, q.grad, p, q, d, d.grad


def _param_copy_frozen(L):
    b = L.nn.Parameter(L.ones(2, dtype=L.float64), requires_grad=False)
    c = copy.copy(b)
    return type(c).__name__, c.requires_grad


PARAMETERS = [_param_shares, _param_of_view, _param_of_0d, _param_of_leaf, _param_of_nonleaf,
              _param_copy, _param_copy_frozen]


@pytest.mark.parametrize("case", PARAMETERS, ids=lambda c: c.__name__)
def test_parameter_memory(case):
    _same(case)


# ---- torch.distributed in one process -----------------------------------------------------
DISTRIBUTED = [lambda d: d.is_available() and d.is_initialized(), lambda d: d.is_initialized(),
               lambda d: d.get_rank(), lambda d: d.get_world_size(), lambda d: d.barrier(),
               lambda d: d.get_backend(), lambda d: d.new_group()]


@pytest.mark.parametrize("i", range(len(DISTRIBUTED)))
def test_distributed_without_a_group(i):
    """What a training script asks before any collective: PyTorch's answers (and errors)
    for a process that never called init_process_group."""
    def case(L):
        return DISTRIBUTED[i](tg.distributed if L is tg else torch.distributed)
    _same(case)


def test_distributed_has_no_backend():
    assert tg.distributed.is_available() is False
    with pytest.raises(RuntimeError, match="one process"):
        tg.distributed.init_process_group("gloo")
