"""``tg.compile(f)(tensors)`` as ``torch.compile`` behaves: one row of the caller's graph,
its backward the replay's vector-Jacobian product, guards still checked; eager where
replay would lose a gradient (f reads other tensors that require grad)."""
import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def _f(lib):
    def f(x, y):
        return lib.stack([(x * y).sum(), (x.sin() * y).sum(), (x.exp() / (1 + y * y)).sum()])
    return f


def _pair(lib, **kw):
    x = lib.tensor([0.3, -1.2, 2.0], **kw)
    y = lib.tensor([1.5, 0.5, -0.7], **kw)
    return x, y


def test_a_compiled_call_is_one_row_with_torchs_gradients():
    x, y = _pair(tg, requires_grad=True)
    c = tg.compile(_f(tg))
    z = c(x * 2, y)
    assert z.grad_fn.name() == "CompiledFunctionBackward"
    ((z * tg.tensor([1.0, -2.0, 0.5])).sum() + x.sum()).backward()
    xt, yt = _pair(torch, dtype=torch.float64, requires_grad=True)
    zt = _f(torch)(xt * 2, yt)
    ((zt * torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)).sum() + xt.sum()).backward()
    np.testing.assert_allclose(np.asarray(z.detach()), zt.detach().numpy(), rtol=1e-13)
    np.testing.assert_allclose(np.asarray(x.grad), xt.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(y.grad), yt.grad.numpy(), rtol=1e-12)
    # only y requires grad: x's argument gets no gradient
    xs, ys = _pair(tg)[0], _pair(tg, requires_grad=True)[1]
    (gy,) = tg.autograd.grad(c(xs, ys).sum(), ys)
    xt, yt = _pair(torch, dtype=torch.float64)[0], _pair(torch, dtype=torch.float64,
                                                         requires_grad=True)[1]
    (want,) = torch.autograd.grad(_f(torch)(xt, yt).sum(), yt)
    np.testing.assert_allclose(np.asarray(gy), want.numpy(), rtol=1e-12)


def _branchy(x):
    if x[0] > 0:
        return (x * x).sum()
    return x.sin().sum()


@pytest.mark.parametrize("x0", [1.5, -0.5])
def test_guards_hold_in_a_compiled_call(x0):
    c = tg.compile(_branchy)
    c(tg.tensor([1.0, 2.0], requires_grad=True))  # traced on the first branch
    x = tg.tensor([x0, 2.0], requires_grad=True)
    c(x).backward()
    want = 2 * np.array([x0, 2.0]) if x0 > 0 else np.cos([x0, 2.0])
    np.testing.assert_allclose(np.asarray(x.grad), want, rtol=1e-14)
    strict = tg.compile(_branchy, on_divergence="raise")
    strict(tg.tensor([1.0, 2.0], requires_grad=True))
    if x0 < 0:
        with pytest.raises(tg.replay.DivergenceError, match="another branch"):
            strict(tg.tensor([x0, 2.0], requires_grad=True))


def test_tensors_f_reads_besides_its_arguments_run_it_eagerly():
    lin = tg.nn.Linear(3, 2).double()
    c = tg.compile(lambda x: lin(x).tanh().sum())
    x = tg.tensor([0.1, 0.2, 0.3], requires_grad=True)
    y = c(x)
    assert y.grad_fn.name() != "CompiledFunctionBackward"
    y.backward()
    lt = torch.nn.Linear(3, 2).double()
    with torch.no_grad():
        lt.weight.copy_(torch.from_numpy(np.asarray(lin.weight.detach())))
        lt.bias.copy_(torch.from_numpy(np.asarray(lin.bias.detach())))
    xt = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64, requires_grad=True)
    lt(xt).tanh().sum().backward()
    np.testing.assert_allclose(np.asarray(lin.weight.grad), lt.weight.grad.numpy(), rtol=1e-13)
    np.testing.assert_allclose(np.asarray(x.grad), xt.grad.numpy(), rtol=1e-13)
    p = tg.tensor(2.0, requires_grad=True)
    w = p * 3  # a value of the caller's graph, closed over
    c = tg.compile(lambda x: (x * w).sum())
    c(x).backward()
    np.testing.assert_allclose(float(p.grad), 3 * 0.6, rtol=1e-14)


def test_create_graph_through_a_compiled_call_gives_second_derivatives():
    x, y = _pair(tg, requires_grad=True)
    c = tg.compile(_f(tg))
    (gx,) = tg.autograd.grad(c(x, y).sum(), x, create_graph=True)
    (hx,) = tg.autograd.grad(gx.sum(), x)
    xt, yt = _pair(torch, dtype=torch.float64, requires_grad=True)
    (gt,) = torch.autograd.grad(_f(torch)(xt, yt).sum(), xt, create_graph=True)
    (ht,) = torch.autograd.grad(gt.sum(), xt)
    np.testing.assert_allclose(np.asarray(gx.detach()), gt.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(hx), ht.numpy(), rtol=1e-12)


def test_without_grad_the_call_is_f_itself():
    x, y = _pair(tg, requires_grad=True)
    with tg.no_grad():
        z = tg.compile(_f(tg))(x, y)
    assert not z.requires_grad
    np.testing.assert_allclose(np.asarray(z), _f(torch)(*_pair(torch, dtype=torch.float64)),
                               rtol=1e-13)


def test_a_compiled_call_inside_another_trace_is_recorded_into_it():
    inner = tg.compile(lambda x: (x * x).sum())
    outer = tg.compile(lambda x: inner(x * 2) + x.sum())
    x = np.array([1.0, -2.0])
    np.testing.assert_allclose(outer.grad(x), 8 * x + 1, rtol=1e-14)
    t = tg.tensor(x, requires_grad=True)
    outer(t).backward()
    np.testing.assert_allclose(np.asarray(t.grad), 8 * x + 1, rtol=1e-14)


def test_a_tensor_read_only_on_another_branch_still_gets_its_gradient():
    w = tg.tensor(3.0, requires_grad=True)
    c = tg.compile(lambda x: (x * w).sum() if x[0] > 0 else x.sum())
    c(tg.tensor([-1.0, 2.0], requires_grad=True))  # traced on the branch without w
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    c(x).backward()
    np.testing.assert_allclose(np.asarray(x.grad), [3.0, 3.0])
    assert float(w.grad) == 3.0


def test_random_draws_are_not_frozen_and_follow_the_eager_sequence():
    c = tg.compile(lambda x: tg.nn.functional.dropout(x, 0.5, training=True))
    x = tg.ones(64, requires_grad=True)
    tg.manual_seed(0)
    got = [np.asarray(c(x).detach()) for _ in range(3)]
    tg.manual_seed(0)
    want = [np.asarray(tg.nn.functional.dropout(x, 0.5, training=True).detach())
            for _ in range(3)]
    assert not np.array_equal(got[0], got[1])
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)


def test_a_compiled_module_runs_once_per_call():
    bn = tg.nn.BatchNorm1d(3).double()
    c = tg.compile(bn)
    c(tg.randn(4, 3, requires_grad=True)).sum().backward()
    assert int(bn.num_batches_tracked) == 1
    assert bn.weight.grad is not None
