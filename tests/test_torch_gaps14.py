"""Gaps against PyTorch found in session 14: composite ops' node names (grad_fn,
next_functions), ``view`` of a non-contiguous tensor, the layout of copies (clone, *_like,
elementwise results), the dtype of mixed NumPy-scalar lists, LR schedulers' state_dict."""
import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as TF

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

pytestmark = pytest.mark.oracle


# ---- view of a non-contiguous tensor: PyTorch's rule (computeStride) -----------------------
_MAKE = {  # a (possibly non-contiguous) tensor from a contiguous 4x6 (or 2x3x4) one
    "plain": lambda x: x,
    "t": lambda x: x.t(),
    "slice_rows": lambda x: x[1:3],
    "slice_cols": lambda x: x[:, 1:4],
    "step_cols": lambda x: x[:, ::2],
    "step_rows": lambda x: x[::2],
    "t_slice": lambda x: x.t()[1:4],
    "unsq_t": lambda x: x.t().unsqueeze(1),
    "expand": lambda x: x[:1].expand(3, 6),
    "expand_col": lambda x: x[:, :1].expand(4, 5),
    "select_col": lambda x: x[:, 2],
    "narrow_t": lambda x: x.narrow(1, 2, 3).t(),
    "r3_permute": lambda x: x.reshape(2, 3, 4).permute(2, 0, 1),
    "r3_transpose12": lambda x: x.reshape(2, 3, 4).transpose(1, 2),
    "r3_transpose01": lambda x: x.reshape(2, 3, 4).transpose(0, 1),
    "r3_slice_last": lambda x: x.reshape(2, 3, 4)[..., :2],
    "r3_slice_mid": lambda x: x.reshape(2, 3, 4)[:, 1:],
    "r3_expand": lambda x: x.reshape(2, 3, 4)[:, :1].expand(2, 5, 4),
}


def _shapes(n, shape):
    """Target shapes of ``n`` elements, -1 included."""
    out = [(n,), (-1,), (1, n), (n, 1)]
    for a in range(2, n):
        if n % a == 0:
            out.append((a, n // a))
            for b in range(2, n // a):
                if (n // a) % b == 0:
                    out.append((a, b, n // a // b))
    out.append(tuple(shape) + (1,))
    out.append((1,) + tuple(shape))
    if len(shape) >= 2:
        out.append(tuple(shape[:-2]) + (shape[-2] * shape[-1],))
        out.append((shape[0] * shape[1],) + tuple(shape[2:]))
        out.append(tuple(shape[:-1]) + (1, shape[-1]))
    return list(dict.fromkeys(out))


@pytest.mark.parametrize("make", list(_MAKE))
def test_view_of_noncontiguous_raises_where_torch_does(make):
    a = np.arange(24.0).reshape(4, 6)
    xt, xg = _MAKE[make](torch.tensor(a)), _MAKE[make](tg.tensor(a))
    assert xg.stride() == xt.stride()
    checked = 0
    for shape in _shapes(xt.numel(), xt.shape):
        try:
            want = xt.view(*shape)
        except RuntimeError as e:
            with pytest.raises(RuntimeError) as got:
                xg.view(*shape)
            assert str(got.value) == str(e), shape
            checked += 1
            continue
        got = xg.view(*shape)
        assert tuple(got.shape) == tuple(want.shape), shape
        # (the stride of a dim of size 1, never stepped, can differ: docs/limits.md)
        assert [s for s, n in zip(got.stride(), got.shape) if n != 1] == \
            [s for s, n in zip(want.stride(), want.shape) if n != 1], shape
        np.testing.assert_array_equal(np.asarray(got), want.numpy())
        # reshape never raises: a copy where a view cannot be
        np.testing.assert_array_equal(np.asarray(xg.reshape(*shape)),
                                      xt.reshape(*shape).numpy())
    # (the table's non-contiguous layouts that some shape cannot view)
    assert bool(checked) == (make in ("t", "slice_cols", "step_rows", "t_slice", "unsq_t",
                                      "expand", "expand_col", "narrow_t", "r3_permute",
                                      "r3_transpose12", "r3_transpose01", "r3_slice_last",
                                      "r3_slice_mid", "r3_expand"))


def test_view_as_and_grad_of_a_valid_view_of_a_transpose():
    a = np.arange(6.0).reshape(2, 3)
    xg = tg.tensor(a, requires_grad=True)
    xt = torch.tensor(a, requires_grad=True)
    with pytest.raises(RuntimeError, match="Use .reshape"):
        xg.t().view_as(tg.zeros(6))
    yg, yt = xg.t().view(3, 1, 2), xt.t().view(3, 1, 2)
    assert yg.grad_fn.name() == yt.grad_fn.name()
    (yg * tg.tensor(np.arange(6.0).reshape(3, 1, 2))).sum().backward()
    (yt * torch.tensor(np.arange(6.0).reshape(3, 1, 2))).sum().backward()
    np.testing.assert_array_equal(np.asarray(xg.grad), xt.grad.numpy())


# ---- composite ops under PyTorch's node names ------------------------------------------------
_IDX = [1, 2, 3, 0, 1, 2, 3, 0]
_NODES = {  # (F, lib, x (2, 3, 8, 8) float64 requiring grad) -> the op's result
    "gelu": lambda F, m, x: F.gelu(x),
    "gelu_tanh": lambda F, m, x: F.gelu(x, approximate="tanh"),
    "silu": lambda F, m, x: F.silu(x),
    "mish": lambda F, m, x: F.mish(x),
    "leaky_relu": lambda F, m, x: F.leaky_relu(x, 0.1),
    "elu": lambda F, m, x: F.elu(x),
    "selu": lambda F, m, x: F.selu(x),
    "celu": lambda F, m, x: F.celu(x),
    "hardtanh": lambda F, m, x: F.hardtanh(x),
    "relu6": lambda F, m, x: F.relu6(x),
    "hardsigmoid": lambda F, m, x: F.hardsigmoid(x),
    "hardswish": lambda F, m, x: F.hardswish(x),
    "softshrink": lambda F, m, x: F.softshrink(x),
    "hardshrink": lambda F, m, x: F.hardshrink(x),
    "threshold": lambda F, m, x: F.threshold(x, 0.1, 2.0),
    "glu": lambda F, m, x: F.glu(x, -1),
    "prelu": lambda F, m, x: F.prelu(x, m.full((1,), 0.25, requires_grad=True)),
    "rrelu": lambda F, m, x: F.rrelu(x, training=False),
    "clamp_min": lambda F, m, x: x.clamp_min(0.0),
    "clamp_max": lambda F, m, x: m.clamp_max(x, 0.0),
    "layer_norm": lambda F, m, x: F.layer_norm(x, (8,)),
    "layer_norm_affine": lambda F, m, x: F.layer_norm(x, (8,), m.ones(8, requires_grad=True),
                                                      m.zeros(8, requires_grad=True)),
    "group_norm": lambda F, m, x: F.group_norm(x, 3),
    "batch_norm_train": lambda F, m, x: F.batch_norm(x, m.zeros(3), m.ones(3), training=True),
    "batch_norm_eval": lambda F, m, x: F.batch_norm(x, m.zeros(3), m.ones(3), m.ones(3),
                                                    None, training=False),
    "instance_norm": lambda F, m, x: F.instance_norm(x),
    "conv2d": lambda F, m, x: F.conv2d(x, m.ones(4, 3, 3, 3, requires_grad=True), m.ones(4)),
    "conv2d_unbatched": lambda F, m, x: F.conv2d(x[0], m.ones(4, 3, 3, 3)),
    "conv1d": lambda F, m, x: F.conv1d(x[0, :, 0], m.ones(2, 3, 3)),
    "conv3d": lambda F, m, x: F.conv3d(x[None], m.ones(4, 2, 3, 3, 3)),
    "conv_transpose2d": lambda F, m, x: F.conv_transpose2d(x, m.ones(3, 4, 3, 3), stride=2),
    "pad_constant": lambda F, m, x: F.pad(x, (1, 1)),
    "pad_reflect1": lambda F, m, x: F.pad(x[0], (1, 2), mode="reflect"),
    "pad_reflect2": lambda F, m, x: F.pad(x, (1, 1, 2, 0), mode="reflect"),
    "pad_replicate1": lambda F, m, x: F.pad(x[0], (1, 1), mode="replicate"),
    "pad_replicate2": lambda F, m, x: F.pad(x, (1, 1, 1, 1), mode="replicate"),
    "pad_replicate3": lambda F, m, x: F.pad(x, (1, 1, 1, 1, 1, 1), mode="replicate"),
    "linear_2d": lambda F, m, x: F.linear(x[0, 0], m.ones(5, 8), m.ones(5)),
    "linear_4d": lambda F, m, x: F.linear(x, m.ones(5, 8), m.ones(5)),
    "linear_4d_nobias": lambda F, m, x: F.linear(x, m.ones(5, 8)),
    "linear_1d": lambda F, m, x: F.linear(x[0, 0, 0], m.ones(5, 8), m.ones(5)),
    "linear_1d_nobias": lambda F, m, x: F.linear(x[0, 0, 0], m.ones(5, 8)),
    "embedding": lambda F, m, x: F.embedding(m.tensor([1, 2]), x[0, 0]),
    "max_pool2d": lambda F, m, x: F.max_pool2d(x, 2),
    "max_pool2d_indices": lambda F, m, x: F.max_pool2d(x, 2, return_indices=True)[0],
    "max_pool1d": lambda F, m, x: F.max_pool1d(x[0], 2),
    "max_pool3d": lambda F, m, x: F.max_pool3d(x, 2),
    "avg_pool2d": lambda F, m, x: F.avg_pool2d(x, 2),
    "avg_pool1d": lambda F, m, x: F.avg_pool1d(x[0], 2),
    "avg_pool3d": lambda F, m, x: F.avg_pool3d(x, 2),
    "adaptive_avg_pool2d_1": lambda F, m, x: F.adaptive_avg_pool2d(x, 1),
    "adaptive_avg_pool2d_3": lambda F, m, x: F.adaptive_avg_pool2d(x, 3),
    "adaptive_max_pool2d": lambda F, m, x: F.adaptive_max_pool2d(x, 3),
    "interpolate_nearest": lambda F, m, x: F.interpolate(x, scale_factor=2),
    "interpolate_nearest1d": lambda F, m, x: F.interpolate(x[0], scale_factor=2),
    "interpolate_bilinear": lambda F, m, x: F.interpolate(x, scale_factor=2, mode="bilinear"),
    "interpolate_bicubic": lambda F, m, x: F.interpolate(x, size=(5, 5), mode="bicubic"),
    "interpolate_linear": lambda F, m, x: F.interpolate(x[0], scale_factor=2, mode="linear"),
    "pixel_shuffle": lambda F, m, x: F.pixel_shuffle(x.reshape(6, 4, 4, 4), 2),
    "pixel_unshuffle": lambda F, m, x: F.pixel_unshuffle(x, 2),
    "unfold": lambda F, m, x: F.unfold(x, 2),
    "fold": lambda F, m, x: F.fold(x.reshape(2, 12, 16), (5, 5), 2),
    "nll_loss_none": lambda F, m, x: F.nll_loss(x[0, 0], m.tensor(_IDX), reduction="none"),
    "nll_loss_weight": lambda F, m, x: F.nll_loss(x[0, 0], m.tensor(_IDX), weight=m.ones(8)),
    "cross_entropy_none": lambda F, m, x: F.cross_entropy(x[0, 0], m.tensor(_IDX),
                                                          reduction="none"),
    "mse_loss": lambda F, m, x: F.mse_loss(x, x.detach()),
    "mse_loss_none": lambda F, m, x: F.mse_loss(x, x.detach() + 1, reduction="none"),
    "smooth_l1_loss": lambda F, m, x: F.smooth_l1_loss(x, x.detach()),
    "huber_loss": lambda F, m, x: F.huber_loss(x, x.detach(), reduction="sum"),
    "bce": lambda F, m, x: F.binary_cross_entropy(x.sigmoid(), x.detach().sigmoid()),
    "bce_logits": lambda F, m, x: F.binary_cross_entropy_with_logits(x, x.detach().sigmoid()),
    "soft_margin_loss": lambda F, m, x: F.soft_margin_loss(x, x.detach().sign()),
    "multi_margin_loss": lambda F, m, x: F.multi_margin_loss(x[0, 0], m.tensor(_IDX)),
    "multilabel_margin_loss": lambda F, m, x: F.multilabel_margin_loss(
        x[0, 0, :2], m.tensor([[1, 2, -1, 0, 0, 0, 0, 0], [3, -1, 0, 0, 0, 0, 0, 0]])),
    "margin_ranking_loss": lambda F, m, x: F.margin_ranking_loss(x, x.detach(), x.detach().sign()),
}
_MODULES = {  # (nn, x) -> a module's result
    "Linear": lambda nn, x: nn.Linear(8, 5)(x[0, 0]),
    "Linear_4d": lambda nn, x: nn.Linear(8, 5)(x),
    "Conv2d": lambda nn, x: nn.Conv2d(3, 4, 3)(x),
    "ConvTranspose2d": lambda nn, x: nn.ConvTranspose2d(3, 2, 3)(x),
    "BatchNorm2d": lambda nn, x: nn.BatchNorm2d(3)(x),
    "BatchNorm2d_eval": lambda nn, x: nn.BatchNorm2d(3).eval()(x),
    "LayerNorm": lambda nn, x: nn.LayerNorm(8)(x),
    "GroupNorm": lambda nn, x: nn.GroupNorm(3, 3)(x),
    "PReLU": lambda nn, x: nn.PReLU()(x),
    "Upsample": lambda nn, x: nn.Upsample(scale_factor=2)(x),
    "GELU": lambda nn, x: nn.GELU()(x),
    "LSTM_out": lambda nn, x: nn.LSTM(8, 4)(x[0])[0],
    "LSTM_h": lambda nn, x: nn.LSTM(8, 4)(x[0])[1][0],
    "LSTM_batch_first": lambda nn, x: nn.LSTM(8, 4, batch_first=True)(x[0])[0],
    "GRU_out": lambda nn, x: nn.GRU(8, 4, num_layers=2)(x[0])[0],
    "RNN_out": lambda nn, x: nn.RNN(8, 4)(x[0])[0],
    "Embedding": lambda nn, x: nn.Embedding(10, 4)(x.detach()[0, 0].abs().long().clamp(0, 9)),
}


# PyTorch's node there stands for a pipeline of its own nodes (a 1-d pooling runs as a 2-d
# one between an unsqueeze and a squeeze; nn.Linear's addmm reads weight.t()): the name
# matches, the next_functions differ (docs/limits.md)
_NAME_ONLY = {"max_pool1d", "avg_pool1d", "Linear"}


def _node(y, op=None):
    g = y.grad_fn
    edges = tuple(None if f is None else f.name() for f, _ in g.next_functions)
    return (type(g).__name__, g.name()) + ((edges,) if op not in _NAME_ONLY else ())


def _x(lib):
    a = np.random.default_rng(0).standard_normal((2, 3, 8, 8))
    return lib.tensor(a, requires_grad=True)


@pytest.fixture
def float64_torch():
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(old)


@pytest.mark.parametrize("op", list(_NODES))
def test_composite_node_names_and_edges_as_torch(op, float64_torch):
    xt, xg = _x(torch), _x(tg)
    yt, yg = _NODES[op](F, torch, xt), _NODES[op](TF, tg, xg)
    assert _node(yg, op) == _node(yt, op)
    assert repr(yg).endswith(f"grad_fn=<{yt.grad_fn.name()}>)")
    # the name changes no value or gradient
    u = np.random.default_rng(1).standard_normal(tuple(yt.shape))
    (yt * torch.tensor(u)).sum().backward()
    (yg * tg.tensor(u)).sum().backward()
    np.testing.assert_allclose(np.asarray(yg.detach()), yt.detach().numpy(), rtol=1e-6,
                               atol=1e-9)
    np.testing.assert_allclose(np.asarray(xg.grad), xt.grad.numpy(), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name", list(_MODULES))
def test_module_node_names_and_edges_as_torch(name, float64_torch):
    torch.manual_seed(0)
    yt, yg = _MODULES[name](torch.nn, _x(torch)), _MODULES[name](tg.nn, _x(tg))
    assert _node(yg, name) == _node(yt, name)


def test_named_node_is_its_row_and_stays_out_of_inputs_and_inplace_rows():
    x = tg.randn(4, 4, requires_grad=True)
    y = TF.gelu(x)
    assert y.grad_fn.next_functions[0][0].variable is x
    assert y.grad_fn is y.grad_fn  # one node per row, as PyTorch's
    z = y * 2
    assert z.grad_fn.next_functions[0][0] is y.grad_fn
    # an input handed back unchanged keeps its own node: dropout off, zero padding
    h = x * 1.0
    assert TF.dropout(h, 0.5, training=False).grad_fn.name() == "MulBackward0"
    # a later in-place write into the named result is a node of its own
    y.mul_(2)
    assert y.grad_fn.name() == "MulBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "GeluBackward0"
    y.sum().backward()
    xt = torch.tensor(x.detach().numpy(), requires_grad=True)
    (F.gelu(xt) * 2).sum().backward()
    np.testing.assert_allclose(np.asarray(x.grad), xt.grad.numpy(), rtol=1e-12)


def test_named_nodes_cost_no_rows():
    """A composite's name is a note beside the tape, not a row (ops/_record.named_result)."""
    from tapegrad.tape import current_tape
    x = tg.randn(4, 4, requires_grad=True)
    tape = current_tape()
    n0 = tape.nrows
    by_hand = x * 0.5 * (1.0 + (x * (1.0 / np.sqrt(2.0))).erf())
    n1 = tape.nrows
    y = TF.gelu(x)
    assert tape.nrows - n1 == n1 - n0
    assert by_hand.grad_fn.name() == "MulBackward0" and y.grad_fn.name() == "GeluBackward0"


# ---- LR schedulers' state_dict: PyTorch's keys, in its order, loadable both ways ------------
def _schedulers(m):
    p = [m.nn.Parameter(m.zeros(2))]
    S = m.optim.lr_scheduler

    def opt():
        return m.optim.SGD(p, lr=0.1, momentum=0.9)

    o1, o2 = opt(), opt()
    return {
        "StepLR": S.StepLR(opt(), 2),
        "MultiStepLR": S.MultiStepLR(opt(), [1, 3]),
        "ConstantLR": S.ConstantLR(opt()),
        "LinearLR": S.LinearLR(opt()),
        "ExponentialLR": S.ExponentialLR(opt(), 0.9),
        "PolynomialLR": S.PolynomialLR(opt()),
        "CosineAnnealingLR": S.CosineAnnealingLR(opt(), 10),
        "CosineAnnealingWarmRestarts": S.CosineAnnealingWarmRestarts(opt(), 3),
        "CyclicLR": S.CyclicLR(opt(), 0.01, 0.1, step_size_up=3),
        "OneCycleLR": S.OneCycleLR(opt(), 0.1, total_steps=12),
        "OneCycleLR_3phase_linear": S.OneCycleLR(opt(), 0.1, total_steps=12, three_phase=True,
                                                 anneal_strategy="linear"),
        "LambdaLR": S.LambdaLR(opt(), lambda e: 0.9 ** e),
        "MultiplicativeLR": S.MultiplicativeLR(opt(), lambda e: 0.9),
        "ReduceLROnPlateau": S.ReduceLROnPlateau(opt(), mode="max", patience=1),
        "SequentialLR": S.SequentialLR(o1, [S.ConstantLR(o1), S.ExponentialLR(o1, 0.9)], [2]),
        "ChainedScheduler": S.ChainedScheduler([S.ConstantLR(o2), S.ExponentialLR(o2, 0.9)]),
    }


def _advance(name, sched, n):
    for i in range(n):
        if hasattr(sched, "optimizer"):
            sched.optimizer.step()
        sched.step(1.0 - i) if name == "ReduceLROnPlateau" else sched.step()


def _opt(sched):
    return sched.optimizer if hasattr(sched, "optimizer") else sched._schedulers[0].optimizer


def _plain(state):
    """A state dict with its functions left out (their values are the schedulers' own)."""
    return {k: ([_plain(s) for s in v] if k == "_schedulers" else v) for k, v in state.items()
            if k != "lr_lambdas"}


@pytest.mark.parametrize("name", list(_schedulers(tg)))
def test_scheduler_state_dict_keys_order_and_values_as_torch(name):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        st, sg = _schedulers(torch)[name], _schedulers(tg)[name]
        _advance(name, st, 4)
        _advance(name, sg, 4)
        dt, dg = st.state_dict(), sg.state_dict()
        assert list(dg) == list(dt)
        assert repr(_plain(dg)) == repr(_plain(dt))
        # torch's state dict loads into a fresh tapegrad scheduler (and ours into torch's):
        # both then go on as the saved ones
        tg_fresh, torch_fresh = _schedulers(tg)[name], _schedulers(torch)[name]
        tg_fresh.load_state_dict(dt)
        torch_fresh.load_state_dict(dg)
        for fresh, saved in ((tg_fresh, st), (torch_fresh, sg)):  # (and the optimizer's lrs,
            for g, h in zip(_opt(fresh).param_groups, _opt(saved).param_groups):  # as a
                g.update({k: v for k, v in h.items() if k != "params"})  # checkpoint does)
        for s in (st, sg, tg_fresh, torch_fresh):
            _advance(name, s, 3)
        want = st.get_last_lr()
        for s in (sg, tg_fresh, torch_fresh):
            np.testing.assert_allclose(s.get_last_lr(), want, rtol=1e-12)
        assert repr(_plain(tg_fresh.state_dict())) == repr(_plain(st.state_dict()))


def test_scheduler_flags_as_torch_during_steps():
    p = [tg.nn.Parameter(tg.zeros(2))]
    seen = []

    class Probe(tg.optim.lr_scheduler.LRScheduler):
        def get_lr(self):
            seen.append((self._is_initial, self._get_lr_called_within_step))
            return self.base_lrs

    s = Probe(tg.optim.SGD(p, lr=0.1))
    s.optimizer.step()
    s.step()
    assert seen == [(True, True), (False, True)]
    assert not s._is_initial and not s._get_lr_called_within_step


# ---- dtype of lists mixing NumPy scalars and Python numbers ----------------------------------
_MIXED = [
    [np.float32(1), np.int64(2)], [np.float32(1), 2.0], [np.float32(1), np.float64(2)],
    [np.int32(1), np.int64(2)], [np.int32(1), 2], [np.int32(1), 2.0], [np.float16(1), 2],
    [np.float16(1), 2.0], [np.float16(1), np.float32(2)], [np.int8(1), np.uint8(2)],
    [np.uint8(1), 2], [np.int16(1), np.float16(2)], [np.float64(1), np.float32(2)],
    [1, np.float32(2)], [True, np.float32(1)], [[np.float32(1)], [np.int64(2)]],
    [np.float32(1)], [np.int32(1)], [np.int64(1), 2.5], [np.int32(3), True],
    [np.float32(1), np.float16(2)], [np.int64(1), np.float16(2)], [np.bool_(True)],
    [np.bool_(True), np.bool_(False)], [np.float16(1), True], [np.int8(1), True, 2],
    [[np.float16(1), 2.0], [1, 2]], [np.uint8(1), np.int8(1)], [2.0, np.float16(1)],
]


@pytest.mark.parametrize("default", ["float64", "float32"])
@pytest.mark.parametrize("i", range(len(_MIXED)))
def test_mixed_numpy_scalar_lists_infer_torch_dtype(i, default):
    old_t, old_g = torch.get_default_dtype(), tg.get_default_dtype()
    torch.set_default_dtype(getattr(torch, default))
    tg.set_default_dtype(getattr(tg, default))
    try:
        want, got = torch.tensor(_MIXED[i]), tg.tensor(_MIXED[i])
    finally:
        torch.set_default_dtype(old_t)
        tg.set_default_dtype(old_g)
    assert str(got.dtype) == str(want.dtype)
    np.testing.assert_array_equal(np.asarray(got), want.numpy())
