"""What the torch.func, NLP and 60-minute-blitz tutorials reached for that tapegrad lacked
(issue 22): each against PyTorch where PyTorch has it."""
import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn as nn
from tapegrad.func import functional_call, stack_module_state
from tapegrad.utils.benchmark import Measurement, Timer

torch = pytest.importorskip("torch")


def _close(a, b, tol=1e-10):
    np.testing.assert_allclose(np.asarray(a.detach()), b.detach().numpy(), rtol=tol, atol=tol)


# ---- einsum with three and more operands (the NTK and tensor-network idioms) ------------
@pytest.mark.parametrize("eq, shapes", [
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("ij,jk,kl", [(2, 3), (3, 4), (4, 2)]),
    ("bi,bij,bj->b", [(3, 2), (3, 2, 4), (3, 4)]),
    ("i,i,i->", [(5,), (5,), (5,)]),
    ("ab,bc,cd,de->ae", [(2, 3), (3, 2), (2, 4), (4, 3)]),
    ("ij,kl,jl->ik", [(2, 3), (4, 5), (3, 5)]),
])
def test_einsum_many_operands_match_torch(eq, shapes):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in shapes]
    xs = [tg.tensor(a, requires_grad=True) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    y, yt = tg.einsum(eq, *xs), torch.einsum(eq, *ts)
    _close(y, yt)
    (y * y).sum().backward()
    (yt * yt).sum().backward()
    for x, t in zip(xs, ts, strict=True):
        _close(x.grad, t.grad)
    _close(tg.einsum(eq, xs), torch.einsum(eq, ts))  # the list form


# ---- torch.where(condition) alone --------------------------------------------------------
@pytest.mark.parametrize("a", [[[0.0, 3.0, 1.0], [2.0, 0.0, 5.0]], [0.0, 1.0], 2.0, 0.0])
def test_where_condition_alone_is_nonzero_as_tuple(a):
    got = tg.where(tg.tensor(a) > 0.5)
    want = torch.where(torch.tensor(a) > 0.5)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == tg.int64 and g.tolist() == w.tolist()


def test_where_needs_both_values_or_neither():
    with pytest.raises(TypeError, match="condition alone"):
        tg.where(tg.tensor([True]), 1.0)


# ---- x[i][j] = v writes through, as in PyTorch (Bi-LSTM CRF, char-RNN, confusion matrix) --
def _chained(lib):
    a = lib.full((2, 5), -10000.0, dtype=lib.float64)
    a[0][3] = 0.0  # init_alphas[0][START] = 0.
    b = lib.zeros(4, 1, 6, dtype=lib.float64)
    for i, j in enumerate([2, 0, 5, 2]):
        b[i][0][j] = 1  # lineToTensor
    c = lib.zeros(3, 3, dtype=lib.float64)
    with lib.no_grad():
        for i, j in [(0, 1), (0, 1), (2, 2)]:
            c[i][j] += 1  # confusion[label_i][guess_i] += 1
    c[1].fill_(7.0)
    c[2].zero_()
    c[0].add_(1.0)
    return [a, b, c]


def test_chained_index_writes_reach_the_tensor():
    for g, w in zip(_chained(tg), _chained(torch), strict=True):
        _close(g, w)


def test_a_write_through_a_row_view_is_seen_by_the_next_op():
    w = tg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    x = tg.tensor([[1.0, 1.0], [1.0, 1.0]])
    (w * x).sum()  # x is now a constant on this tape
    x[1][0] = 5.0  # through a row view
    y = (w * x).sum()
    y.backward()
    assert w.grad.tolist() == [[1.0, 1.0], [5.0, 1.0]]
    assert float(y) == 1 + 2 + 15 + 4


def test_rows_of_grad_tensors_are_still_recorded():
    w = tg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (w[1] * 2).sum().backward()
    assert w.grad.tolist() == [[0.0, 0.0], [2.0, 2.0]]


# ---- top-level in-place spellings ---------------------------------------------------------
@pytest.mark.parametrize("name, args", [("clamp_", (-1.0, 1.0)), ("relu_", ()),
                                        ("sigmoid_", ()), ("exp_", ()), ("zero_", ()),
                                        ("fill_", (2.5,)), ("clip_", (0.0, 0.5))])
def test_top_level_inplace_functions(name, args):
    a = np.array([-2.0, 0.25, 3.0])
    x, t = tg.tensor(a), torch.tensor(a)
    assert getattr(tg, name)(x, *args) is x
    getattr(torch, name)(t, *args)
    _close(x, t)


# ---- nn.Sequential item assignment and deletion --------------------------------------------
def test_sequential_setitem_and_delitem_like_torch():
    for lib in (tg, torch):
        m = lib.nn.Sequential(lib.nn.Linear(10, 10), lib.nn.ReLU(), lib.nn.Linear(10, 10))
        m[2] = lib.nn.Linear(10, 5)
        m[-2] = lib.nn.Tanh()
        assert type(m[1]).__name__ == "Tanh" and m[2].out_features == 5
        assert m(lib.ones(3, 10)).shape == (3, 5)
        del m[0]
        assert list(dict(m.named_children())) == ["0", "1"]
        assert [tuple(p.shape) for p in m.parameters()] == [(5, 10), (5,)]


# ---- torch.func.stack_module_state, torch.vmap, Module.to('meta') (model ensembling) -----
def test_model_ensembling_matches_a_loop():
    tg.manual_seed(0)
    models = [nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)) for _ in range(5)]
    params, buffers = stack_module_state(models)
    assert {k: tuple(v.shape) for k, v in params.items()} == {
        "0.weight": (5, 8, 4), "0.bias": (5, 8), "2.weight": (5, 3, 8), "2.bias": (5, 3)}
    assert all(p.requires_grad and p.grad_fn is None for p in params.values())
    assert buffers == {}
    base = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)).to("meta")
    assert np.isnan(base[0].weight.detach().numpy()).all()  # shapes only

    def fmodel(params, buffers, x):
        return functional_call(base, (params, buffers), (x,))

    x = tg.randn(5, 6, 4)
    got = tg.vmap(fmodel)(params, buffers, x)
    want = tg.stack([m(xi) for m, xi in zip(models, x, strict=True)])
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), atol=1e-12)
    same = tg.vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x[0])
    np.testing.assert_allclose(same.detach().numpy(),
                               tg.stack([m(x[0]) for m in models]).detach().numpy(),
                               atol=1e-12)


def test_stack_module_state_like_torch():
    tm = [torch.nn.BatchNorm1d(3) for _ in range(2)]
    tp, tb = torch.func.stack_module_state(tm)
    gm = [nn.BatchNorm1d(3) for _ in range(2)]
    gp, gb = stack_module_state(gm)
    assert {k: tuple(v.shape) for k, v in gp.items()} == \
        {k: tuple(v.shape) for k, v in tp.items()}
    assert {k: tuple(v.shape) for k, v in gb.items()} == \
        {k: tuple(v.shape) for k, v in tb.items()}
    with pytest.raises(RuntimeError, match="at least one model"):
        stack_module_state([])
    gm[0].eval()
    with pytest.raises(RuntimeError, match="training/eval"):
        stack_module_state(gm)


def test_vmap_is_func_vmap():
    assert tg.vmap is tg.func.vmap


# ---- torch.utils.benchmark.Timer ------------------------------------------------------------
def test_timer_measurement_api():
    t = Timer(stmt="f(x)", setup="y = 1", globals={"f": lambda v: v + 1, "x": 2},
              label="lbl", description="d")
    m = t.timeit(4)
    assert isinstance(m, Measurement) and m.number_per_run == 4 and len(m.times) == 1
    assert m.times[0] > 0 and m.mean == m.times[0] == m.median
    assert "4 runs" in repr(m) and "lbl" in repr(m)  # (the label titles it, not the stmt)
    b = t.blocked_autorange(min_run_time=0.01)
    assert b.times and all(x > 0 for x in b.times) and b.iqr >= 0
    with pytest.raises(ValueError, match="Python"):
        Timer("x", language="c++")


# ---- bool tensors print as PyTorch prints them -----------------------------------------------
@pytest.mark.parametrize("v", [[True, True], [[True, False], [False, True]], [False],
                               [[True] * 3] * 2])
def test_bool_repr_matches_torch(v):
    assert repr(tg.tensor(v)) == repr(torch.tensor(v))


# ---- OneCycleLR and LinearLR: the lr (and momentum) sequences PyTorch gives -------------
@pytest.mark.parametrize("opt, kw", [
    ("SGD", {"max_lr": 0.1, "total_steps": 20}),
    ("SGD", {"max_lr": [0.1, 0.05], "epochs": 3, "steps_per_epoch": 4,
             "anneal_strategy": "linear", "pct_start": 0.25}),
    ("Adam", {"max_lr": 0.01, "total_steps": 15, "three_phase": True}),
    ("Adam", {"max_lr": 0.01, "total_steps": 9, "cycle_momentum": False}),
])
def test_one_cycle_lr_matches_torch(opt, kw):
    def run(lib):
        a, b = lib.zeros(2, requires_grad=True), lib.zeros(2, requires_grad=True)
        extra = {"momentum": 0.9} if opt == "SGD" else {}
        o = getattr(lib.optim, opt)([{"params": [a]}, {"params": [b]}], lr=1.0, **extra)
        s = lib.optim.lr_scheduler.OneCycleLR(o, **kw)
        seen = []
        for _ in range(s.total_steps - 1):
            o.step()
            s.step()
            g = o.param_groups
            seen.append((s.get_last_lr(), [x.get("momentum", x.get("betas")) for x in g]))
        return seen
    got, want = run(tg), run(torch)
    assert len(got) == len(want)
    for (gl, gm), (wl, wm) in zip(got, want, strict=True):
        np.testing.assert_allclose(gl, wl, rtol=1e-15)
        assert str(gm) == str(wm)


def test_one_cycle_lr_refuses_a_step_too_many():
    o = tg.optim.SGD([tg.zeros(1, requires_grad=True)], lr=1.0)
    s = tg.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=2)
    o.step()
    s.step()
    s.step()
    with pytest.raises(ValueError, match="Tried to step 3 times"):
        s.step()


@pytest.mark.parametrize("kw", [{}, {"start_factor": 0.5, "end_factor": 0.1,
                                     "total_iters": 3}])
def test_linear_lr_matches_torch(kw):
    def run(lib):
        o = lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=0.3)
        s = lib.optim.lr_scheduler.LinearLR(o, **kw)
        out = []
        for _ in range(8):
            o.step()
            s.step()
            out.append(s.get_last_lr()[0])
        return out
    assert run(tg) == run(torch)


# ---- legacy tensor types (torch.FloatTensor, torch.LongTensor...) ---------------------------
def test_legacy_tensor_types_like_torch():
    for name in ("FloatTensor", "DoubleTensor", "LongTensor", "IntTensor", "BoolTensor",
                 "ByteTensor"):
        G, T = getattr(tg, name), getattr(torch, name)
        g, t = G([1, 0, 2]), T([1, 0, 2])
        assert g.tolist() == t.tolist() and g.type() == t.type() == f"torch.{name}"
        assert isinstance(g, G) and isinstance(g, tg.Tensor)
        assert tuple(G(2, 3).shape) == tuple(T(2, 3).shape) == (2, 3)
        assert tg.ones(2).type(G).type() == torch.ones(2).type(T).type()
    assert not isinstance(tg.ones(2, dtype=tg.float64), tg.FloatTensor)
    assert tuple(tg.FloatTensor([]).shape) == (0,)


# ---- in-place shape changes -----------------------------------------------------------------
def _reshaped(lib):
    t = lib.arange(12.0).reshape(3, 4)
    out = [tuple(t.unsqueeze_(0).shape), tuple(t.squeeze_(0).shape), tuple(t.t_().shape)]
    out.append(t.tolist())
    out.append(tuple(t.transpose_(0, 1).unsqueeze_(-1).squeeze_().shape))
    w = lib.ones(2, 3, requires_grad=True)
    y = w * 2
    y.unsqueeze_(1)
    (y * lib.arange(6.0).reshape(2, 1, 3)).sum().backward()
    out.append(w.grad.tolist())
    return out


def test_inplace_shape_changes_like_torch():
    assert _reshaped(tg) == _reshaped(torch)
    w = tg.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        w.unsqueeze_(0)


def test_is_inference_mode_enabled_like_torch():
    def run(lib):
        seen = [lib.is_inference_mode_enabled()]
        with lib.inference_mode():
            seen.append(lib.is_inference_mode_enabled())
            with lib.inference_mode(False):
                seen.append(lib.is_inference_mode_enabled())
            seen.append(lib.is_inference_mode_enabled())
        seen.append(lib.is_inference_mode_enabled())
        seen.append(lib.inference_mode()(lib.is_inference_mode_enabled)())
        return seen
    assert run(tg) == run(torch) == [False, True, False, True, False, True]


# ---- nn.DataParallel without a GPU (the DCGAN tutorial) -------------------------------------
def test_data_parallel_forwards_like_torch_on_cpu():
    import tapegrad.nn.parallel  # noqa: F401 (the tutorial's import)
    g = nn.DataParallel(nn.Linear(3, 2))
    t = torch.nn.DataParallel(torch.nn.Linear(3, 2))
    assert list(g.state_dict()) == list(t.state_dict()) == ["module.weight", "module.bias"]
    x = np.ones((4, 3))
    g.module.weight.data = tg.tensor(t.module.weight.detach().double().numpy())
    g.module.bias.data = tg.tensor(t.module.bias.detach().double().numpy())
    _close(g(tg.tensor(x)), t.double()(torch.tensor(x)))
    g0 = nn.DataParallel(nn.Linear(3, 2), [0])
    t0 = torch.nn.DataParallel(torch.nn.Linear(3, 2), [0])
    assert g0.device_ids == t0.device_ids == []  # no CUDA: ids are ignored, as in PyTorch
