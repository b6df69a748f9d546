"""Differences from PyTorch found by the scripts s1355 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- elu/selu/celu: slope alpha*scale*input_scale at 0, curvature 0 there, NaN linear ----
POINTS = [float("-inf"), -2.0, -1e-300, -0.0, 0.0, 1e-300, 1.0, float("inf"), float("nan")]
ELUS = [lambda F, x: F.elu(x), lambda F, x: F.elu(x, 2.0), lambda F, x: F.selu(x),
        lambda F, x: F.celu(x, 0.5), lambda F, x: F.celu(x, 3.0),
        lambda F, x: F.elu(x.clone(), 0.7, inplace=True)]


@pytest.mark.parametrize("act", range(len(ELUS)))
def test_elu_family_first_and_second_derivative_at_pinned_points(act, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        x = L.tensor(POINTS, requires_grad=True)
        y = ELUS[act](L.nn.functional, x)
        (d1,) = L.autograd.grad(y.sum(), x, create_graph=True)
        (d2,) = L.autograd.grad(d1.sum(), x)
        got.append((y.detach().numpy(), d1.detach().numpy(), d2.numpy()))
    for ours, theirs in zip(got[0], got[1], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-14, atol=0)  # (exp(x) as expm1 + 1: ulps)
        np.testing.assert_array_equal(np.signbit(ours), np.signbit(theirs))


# ---- matmul's grad_fn: PyTorch's squeeze, batched view, or transposed-fold copy ---------
PAIRS = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (3,)),
         ((3,), (5, 3, 4)), ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)), ((5, 2, 3), (5, 3, 4)),
         ((1, 2, 3), (5, 3, 4)), ((1, 2, 3), (1, 3, 4)), ((1, 3), (5, 3, 4)),
         ((2, 3), (5, 3, 1)), ((1, 1, 2, 3), (5, 3, 4)), ((6, 5, 2, 3), (3,)),
         ((3,), (6, 5, 3, 4)), ((2, 3), (6, 5, 3, 4)), ((5, 2, 3), (1, 3, 4))]


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("grads", [(True, False), (False, True), (True, True)])
@pytest.mark.parametrize("shapes", PAIRS)
def test_matmul_grad_fn_names_as_pytorch(shapes, grads, dtype, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        a, b = (L.ones(*s, dtype=getattr(L, dtype), requires_grad=g)
                for s, g in zip(shapes, grads, strict=True))
        y = a @ b
        got.append((y.grad_fn.name(), type(L.matmul(a, b).grad_fn).__name__,
                    str(y).split("grad_fn=")[1]))
    assert got[0] == got[1]


# ---- assigning .grad of another dtype: PyTorch's message (C name, then ScalarType) -------
@pytest.mark.parametrize("leaf", ["float64", "float32"])
@pytest.mark.parametrize("grad", ["int32", "int64", "float32", "float64", "bool", "int8",
                                  "uint8", "int16", "float16", "complex128"])
def test_grad_assignment_dtype_message_as_pytorch(grad, leaf, torch_float64):
    torch = torch_float64
    if grad == leaf:
        return
    said = []
    for L in (tg, torch):
        p = L.zeros(2, dtype=getattr(L, leaf), requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            p.grad = L.zeros(2, dtype=getattr(L, grad))
        said.append(str(info.value).split(" (defaults")[0])
    assert said[0] == said[1]


# ---- nll_loss / cross_entropy of (N, C, d...) input: PyTorch's NllLoss2DBackward0 -------
@pytest.mark.parametrize("shapes", [((2, 3, 4), (2, 4)), ((1, 3, 2, 4), (1, 2, 4)),
                                    ((1, 3, 2, 2, 2), (1, 2, 2, 2)), ((2, 3), (2,))])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("kind", ["nll", "nll_weight_ignored", "cross_entropy"])
def test_nll_loss_node_of_spatial_input_as_pytorch(shapes, reduction, kind, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        F = L.nn.functional
        x = L.tensor(np.linspace(-1, 1, int(np.prod(shapes[0]))).reshape(shapes[0]),
                     requires_grad=True)
        t = L.tensor(np.arange(int(np.prod(shapes[1]))).reshape(shapes[1]) % 3)
        if kind == "cross_entropy":
            y = F.cross_entropy(x, t, reduction=reduction)
        elif kind == "nll":
            y = F.nll_loss(x, t, reduction=reduction)
        else:
            t.view(-1)[0] = -100
            y = F.nll_loss(x, t, weight=L.tensor([1.0, 2.0, 0.5]), reduction=reduction)
        (g,) = L.autograd.grad(y.sum(), x)
        got.append((y.grad_fn.name(), y.detach().numpy(), g.numpy()))
    assert got[0][0] == got[1][0]
    for ours, theirs in zip(got[0][1:], got[1][1:], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-13)


# ---- a reshape or flatten that must copy: PyTorch's UnsafeViewBackward0 ------------------
RESHAPES = [lambda x: x.transpose(1, 2).reshape(2, 12),
            lambda x: (x * 1).transpose(1, 2).reshape(-1),
            lambda x: x.transpose(1, 2).flatten(1), lambda x: x.reshape(6, 4),
            lambda x: x[:, ::2].reshape(-1), lambda x: x[:, 1:].reshape(-1),
            lambda x: x.permute(2, 0, 1).flatten(), lambda x: x.transpose(0, 1)[0].reshape(-1),
            lambda x: x.transpose(1, 2).flatten(0, 1), lambda x: x.flatten(),
            lambda x: x[0].t().reshape(12)]


@pytest.mark.parametrize("make", range(len(RESHAPES)))
def test_reshape_that_copies_names_unsafe_view_as_pytorch(make, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        x = L.tensor(np.arange(24.0).reshape(2, 3, 4), requires_grad=True)
        y = RESHAPES[make](x)
        (g,) = L.autograd.grad(y, x, L.tensor(np.arange(float(y.numel())).reshape(y.shape)))
        got.append((type(y.grad_fn).__name__, y.detach().numpy(), g.numpy()))
    assert got[0][0] == got[1][0]
    for ours, theirs in zip(got[0][1:], got[1][1:], strict=True):
        np.testing.assert_array_equal(ours, theirs)
