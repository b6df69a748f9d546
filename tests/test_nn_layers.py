"""Convolution, pooling, padding, normalisation and embedding (nn.functional and their
layers) against PyTorch: values and the gradients of every input and parameter (float64 to
1e-10; float32 to float32 rounding), train/eval behaviour, state_dict keys, reprs, PyTorch's
errors with nothing recorded, and a small CNN trained three steps from torch's weights."""
import functools

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad.tape import current_tape

IDX = np.array([[1, 0, 4], [3, 1, 1]])  # embedding indices (row 1 is the padding row below)


class Case:
    """``fn(L, F, *xs)`` with library ``L`` and its functional module; ``shapes`` of the
    differentiable inputs (drawn from N(0, 1))."""

    def __init__(self, fn, *shapes, fd=False):
        self.fn, self.shapes, self.fd = fn, shapes, fd


CASES = {
    "conv2d": Case(lambda L, F, x, w, b: F.conv2d(x, w, b), (2, 3, 7, 6), (4, 3, 3, 2), (4,),
                   fd=True),
    "conv2d_stride_pad_dilation": Case(
        lambda L, F, x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=(1, 2), dilation=(1, 2)),
        (2, 3, 7, 6), (4, 3, 3, 2), (4,)),
    "conv2d_groups_same": Case(lambda L, F, x, w, b: F.conv2d(x, w, b, groups=3, padding="same"),
                               (2, 3, 7, 6), (6, 1, 3, 3), (6,), fd=True),
    "conv2d_same_even_kernel": Case(lambda L, F, x, w: F.conv2d(x, w, padding="same"),
                                    (1, 2, 5, 6), (3, 2, 2, 4)),
    "conv2d_valid_unbatched": Case(lambda L, F, x, w: F.conv2d(x, w, padding="valid"),
                                   (3, 7, 6), (4, 3, 3, 3)),
    "conv1d": Case(lambda L, F, x, w, b: F.conv1d(x, w, b, stride=2, padding=1), (2, 3, 9),
                   (4, 3, 3), (4,), fd=True),
    "conv1d_groups_dilation": Case(lambda L, F, x, w: F.conv1d(x, w, groups=2, dilation=2),
                                   (2, 4, 9), (6, 2, 3)),
    "conv3d": Case(lambda L, F, x, w: F.conv3d(x, w, padding=1, stride=(1, 2, 1)),
                   (1, 2, 4, 4, 3), (3, 2, 2, 2, 2)),
    "max_pool2d": Case(lambda L, F, x: F.max_pool2d(x, 2), (2, 3, 6, 7), fd=True),
    "max_pool2d_pad_ceil": Case(lambda L, F, x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True),
                                (2, 3, 6, 7)),
    "max_pool2d_dilation_unbatched": Case(lambda L, F, x: F.max_pool2d(x, 2, 1, dilation=2),
                                          (3, 6, 7)),
    "max_pool1d": Case(lambda L, F, x: F.max_pool1d(x, 3, 2, 1), (2, 3, 8)),
    "avg_pool2d": Case(lambda L, F, x: F.avg_pool2d(x, 2), (2, 3, 6, 7), fd=True),
    "avg_pool2d_pad_ceil": Case(lambda L, F, x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True),
                                (2, 3, 6, 7)),
    "avg_pool2d_exclude_pad": Case(
        lambda L, F, x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
        (2, 3, 6, 7)),
    "avg_pool2d_divisor": Case(lambda L, F, x: F.avg_pool2d(x, 2, divisor_override=3),
                               (1, 2, 4, 4)),
    "avg_pool1d": Case(lambda L, F, x: F.avg_pool1d(x, 3, 2, 1), (2, 3, 8)),
    "adaptive_avg_pool2d": Case(lambda L, F, x: F.adaptive_avg_pool2d(x, (3, 2)), (2, 3, 7, 6)),
    "adaptive_avg_pool2d_global": Case(lambda L, F, x: F.adaptive_avg_pool2d(x, 1),
                                       (2, 3, 7, 6)),
    "adaptive_avg_pool1d": Case(lambda L, F, x: F.adaptive_avg_pool1d(x, 4), (2, 3, 7)),
    "pad_reflect": Case(lambda L, F, x: F.pad(x, (2, 1, 1, 2), mode="reflect"), (2, 3, 4, 5)),
    "pad_replicate": Case(lambda L, F, x: F.pad(x, (2, 1, 1, 2), mode="replicate"),
                          (2, 3, 4, 5)),
    "pad_circular": Case(lambda L, F, x: F.pad(x, (2, 1, 1, 2), mode="circular"), (2, 3, 4, 5)),
    "pad_constant_crop": Case(lambda L, F, x: F.pad(x, (2, -1, 1, 2), value=1.5), (2, 3, 4, 5)),
    "layer_norm": Case(lambda L, F, x, w, b: F.layer_norm(x, (4, 5), w, b), (2, 3, 4, 5),
                       (4, 5), (4, 5), fd=True),
    "layer_norm_plain": Case(lambda L, F, x: F.layer_norm(x, [5], eps=1e-3), (3, 5)),
    "group_norm": Case(lambda L, F, x, w, b: F.group_norm(x, 2, w, b), (2, 4, 3, 5), (4,),
                       (4,)),
    "batch_norm_train": Case(
        lambda L, F, x, w, b: F.batch_norm(x, None, None, w, b, training=True), (5, 4, 3),
        (4,), (4,), fd=True),
    "batch_norm_eval": Case(
        lambda L, F, x, w, b: F.batch_norm(x, L.tensor(np.arange(4.0)), L.tensor(
            np.arange(1.0, 5.0)), w, b), (5, 4, 3, 2), (4,), (4,)),
    "unfold": Case(lambda L, F, x: F.unfold(x, (2, 3), dilation=(1, 2), padding=1,
                                            stride=(2, 1)), (2, 3, 5, 6), fd=True),
    "embedding": Case(lambda L, F, w: F.embedding(L.tensor(IDX), w), (5, 3)),
    "embedding_padding": Case(lambda L, F, w: F.embedding(L.tensor(IDX), w, padding_idx=1),
                              (5, 3)),
    "conv_transpose2d": Case(lambda L, F, x, w, b: F.conv_transpose2d(x, w, b, stride=2,
                                                                      padding=1),
                             (2, 4, 3, 3), (4, 3, 4, 4), (3,), fd=True),
    "conv_transpose2d_groups_dilation_output_padding": Case(
        lambda L, F, x, w: F.conv_transpose2d(x, w, stride=(2, 1), padding=(0, 2),
                                              output_padding=(1, 0), groups=2,
                                              dilation=(1, 2)), (2, 4, 3, 5), (4, 3, 3, 3)),
    "conv_transpose2d_unbatched_crop": Case(lambda L, F, x, w: F.conv_transpose2d(x, w,
                                                                                  padding=2),
                                            (2, 4, 4), (2, 3, 3, 3)),
    "conv_transpose1d": Case(lambda L, F, x, w, b: F.conv_transpose1d(x, w, b, stride=3),
                             (2, 3, 4), (3, 2, 2), (2,), fd=True),
    "instance_norm": Case(lambda L, F, x, w, b: F.instance_norm(x, weight=w, bias=b),
                          (2, 3, 4, 5), (3,), (3,), fd=True),
    "instance_norm_running_eval": Case(
        lambda L, F, x: F.instance_norm(x, L.tensor(np.arange(3.0)), L.tensor(np.arange(
            1.0, 4.0)), use_input_stats=False), (2, 3, 4)),
    "rms_norm": Case(lambda L, F, x, w: F.rms_norm(x, (4, 5), w), (2, 3, 4, 5), (4, 5),
                     fd=True),
    "rms_norm_eps": Case(lambda L, F, x: F.rms_norm(x, [5], eps=1e-3), (3, 5)),
    "local_response_norm": Case(lambda L, F, x: F.local_response_norm(x, 3, 0.1, 0.6, 2.0),
                                (2, 5, 4, 3)),
    "local_response_norm_3d_even": Case(lambda L, F, x: F.local_response_norm(x, 2),
                                        (2, 5, 4)),
    "bilinear": Case(lambda L, F, a, b, w, c: F.bilinear(a, b, w, c), (3, 2), (3, 4),
                     (5, 2, 4), (5,), fd=True),
    "max_pool3d": Case(lambda L, F, x: F.max_pool3d(x, 2, padding=1), (1, 2, 4, 3, 5)),
    "avg_pool3d": Case(lambda L, F, x: F.avg_pool3d(x, (2, 1, 3), padding=(1, 0, 1)),
                       (1, 2, 4, 3, 5)),
    "adaptive_avg_pool3d": Case(lambda L, F, x: F.adaptive_avg_pool3d(x, (3, 2, 1)),
                                (1, 2, 4, 3, 5)),
    "embedding_bag_mean": Case(lambda L, F, w: F.embedding_bag(L.tensor(IDX), w), (5, 3)),
    "embedding_bag_sum_offsets_weights": Case(
        lambda L, F, w, p: F.embedding_bag(L.tensor(IDX.ravel()), w, L.tensor([0, 2, 2]),
                                           mode="sum", per_sample_weights=p), (5, 3), (6,)),
    "embedding_bag_max_padding_last_offset": Case(
        lambda L, F, w: F.embedding_bag(L.tensor(IDX.ravel()), w, L.tensor([0, 1, 4, 6]),
                                        mode="max", padding_idx=1, include_last_offset=True),
        (5, 3)),
    "adaptive_max_pool2d": Case(lambda L, F, x: F.adaptive_max_pool2d(x, (3, 4)),
                                (2, 3, 7, 6), fd=True),
    "adaptive_max_pool2d_none_unbatched": Case(
        lambda L, F, x: F.adaptive_max_pool2d(x, (None, 4)), (3, 5, 6)),
    "adaptive_max_pool1d": Case(lambda L, F, x: F.adaptive_max_pool1d(x, 4), (2, 3, 7)),
    "lp_pool2d": Case(lambda L, F, x: F.lp_pool2d(x, 2, (2, 3), stride=1), (2, 3, 5, 6)),
    "lp_pool1d": Case(lambda L, F, x: F.lp_pool1d(x.abs(), 1.5, 3, ceil_mode=True),
                      (2, 3, 7)),
    "fold": Case(lambda L, F, x: F.fold(x, (5, 6), (2, 3), dilation=(1, 2), padding=1,
                                        stride=(2, 1)), (2, 18, 12), fd=True),
    "fold_unbatched": Case(lambda L, F, x: F.fold(x, (4, 5), 2), (12, 12)),
    "adaptive_max_pool3d": Case(lambda L, F, x: F.adaptive_max_pool3d(x, (2, 3, 2)),
                                (1, 2, 5, 6, 4)),
    "lp_pool3d": Case(lambda L, F, x: F.lp_pool3d(x, 2, 2), (1, 2, 4, 4, 4)),
    "channel_shuffle": Case(lambda L, F, x: F.channel_shuffle(x, 3), (2, 6, 2, 2)),
    "conv_transpose3d": Case(lambda L, F, x, w: F.conv_transpose3d(x, w, stride=2),
                             (1, 2, 2, 3, 2), (2, 2, 2, 2, 2)),
}


def _arrays(case, rng, dtype=np.float64):
    return [rng.standard_normal(s).astype(dtype) for s in case.shapes]


def _run(L, case, arrays, u):
    xs = [L.tensor(a, requires_grad=True) for a in arrays]
    out = case.fn(L, L.nn.functional, *xs)
    grads = L.autograd.grad(out, xs, grad_outputs=L.tensor(u))
    return np.asarray(out.detach()), [np.asarray(g) for g in grads]


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(CASES))
def test_functional_matches_torch_float64(name, rng, torch):
    case = CASES[name]
    arrays = _arrays(case, rng)
    shape = tuple(case.fn(tg, F, *[tg.tensor(a) for a in arrays]).shape)
    u = rng.standard_normal(shape)
    out, grads = _run(tg, case, arrays, u)
    tout, tgrads = _run(torch, case, arrays, u)
    assert out.shape == tout.shape
    np.testing.assert_allclose(out, tout, rtol=1e-10, atol=1e-12)
    for g, tgr in zip(grads, tgrads, strict=True):
        np.testing.assert_allclose(g, tgr, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c.fd])
def test_functional_matches_finite_differences(name, rng, fd_dot, tg_vjp):
    case = CASES[name]
    arrays = _arrays(case, rng)
    fn = functools.partial(case.fn, tg, F)
    u = rng.standard_normal(tuple(fn(*[tg.tensor(a) for a in arrays]).shape))
    for i, (a, g) in enumerate(zip(arrays, tg_vjp(fn, arrays, u), strict=True)):
        v = rng.standard_normal(a.shape)
        assert np.vdot(g, v) == pytest.approx(fd_dot(fn, arrays, i, v, u), rel=1e-6, abs=1e-8)


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["conv2d", "conv2d_groups_same", "max_pool2d", "avg_pool2d",
                                  "layer_norm", "batch_norm_train"])
def test_functional_float32_matches_torch_float32(name, rng, torch):
    case = CASES[name]
    arrays = _arrays(case, rng, np.float32)
    xs = [tg.tensor(a, requires_grad=True) for a in arrays]
    out = case.fn(tg, F, *xs)
    assert out.dtype == tg.float32
    u = rng.standard_normal(tuple(out.shape)).astype(np.float32)
    out, grads = _run(tg, case, arrays, u)
    tout, tgrads = _run(torch, case, arrays, u)
    assert out.dtype == np.float32 and all(g.dtype == np.float32 for g in grads)
    np.testing.assert_allclose(out, tout, rtol=1e-5, atol=1e-5)
    for g, tgr in zip(grads, tgrads, strict=True):
        np.testing.assert_allclose(g, tgr, rtol=1e-4, atol=1e-4)


def test_conv_promotes_float32_data_meeting_float64_weights(rng):
    # (PyTorch raises; tapegrad's parameters are float64 by default, and its linear and
    # matmul promote the same way)
    conv = tg.nn.Conv2d(2, 3, 3)
    x = rng.standard_normal((2, 2, 5, 5)).astype(np.float32)
    xt = tg.tensor(x, requires_grad=True)
    y = conv(xt)
    assert y.dtype == tg.float64
    ref = conv(tg.tensor(x.astype(np.float64)))
    np.testing.assert_array_equal(np.asarray(y.detach()), np.asarray(ref.detach()))
    y.sum().backward()
    assert xt.grad.dtype == tg.float32 and conv.weight.grad.dtype == tg.float64


@pytest.mark.oracle
def test_max_pool_ties_and_indices_match_torch(torch):
    # integer values: many ties in each window (the gradient goes to the first maximum)
    x = np.random.default_rng(3).integers(0, 3, (2, 2, 5, 6)).astype(float)
    x[0, 0] = 0.0  # a plane of zeros, as after a ReLU
    u = np.random.default_rng(4).standard_normal((2, 2, 3, 3))
    res = []
    for L in (tg, torch):
        xt = L.tensor(x, requires_grad=True)
        y, idx = L.nn.functional.max_pool2d(xt, 3, 2, 1, return_indices=True)
        (g,) = L.autograd.grad(y, [xt], grad_outputs=L.tensor(u))
        res.append((np.asarray(y.detach()), np.asarray(idx), np.asarray(g)))
    for a, b in zip(*res, strict=True):
        np.testing.assert_array_equal(a, b)
    _, idx = F.max_pool1d(tg.tensor(x[0]), 2, return_indices=True)
    _, tidx = torch.nn.functional.max_pool1d(torch.tensor(x[0]), 2, return_indices=True)
    np.testing.assert_array_equal(np.asarray(idx), tidx.numpy())


# ---- layers against PyTorch's, from torch's weights --------------------------------------
def _copy_weights(module, tmodule):
    module.load_state_dict({k: tg.tensor(v.detach().numpy()) for k, v in
                            tmodule.state_dict().items()})


LAYERS = {  # name: (build(nn), input shape, integer input)
    "Conv1d": (lambda nn: nn.Conv1d(3, 4, 3, stride=2, padding=1), (2, 3, 9)),
    "Conv1d_groups_nobias": (lambda nn: nn.Conv1d(4, 6, 3, groups=2, bias=False), (2, 4, 9)),
    "Conv2d": (lambda nn: nn.Conv2d(3, 5, 3, padding=1), (2, 3, 6, 7)),
    "Conv2d_same_dilation": (lambda nn: nn.Conv2d(2, 4, (3, 2), padding="same", dilation=2),
                             (2, 2, 7, 6)),
    "Conv2d_reflect_stride": (lambda nn: nn.Conv2d(2, 3, 3, stride=2, padding=1,
                                                   padding_mode="reflect"), (2, 2, 7, 6)),
    "Conv2d_circular_depthwise": (lambda nn: nn.Conv2d(3, 3, 3, padding=1, groups=3,
                                                       padding_mode="circular"), (1, 3, 5, 5)),
    "Conv3d": (lambda nn: nn.Conv3d(2, 3, 2), (1, 2, 4, 3, 3)),
    "ConvTranspose2d": (lambda nn: nn.ConvTranspose2d(4, 3, 4, 2, 1, bias=False),
                        (2, 4, 3, 3)),
    "ConvTranspose2d_groups_output_padding": (
        lambda nn: nn.ConvTranspose2d(4, 6, 3, stride=2, output_padding=1, groups=2,
                                      dilation=2), (2, 4, 3, 2)),
    "ConvTranspose1d": (lambda nn: nn.ConvTranspose1d(3, 2, 3, stride=2), (2, 3, 4)),
    "MaxPool2d": (lambda nn: nn.MaxPool2d(2), (2, 3, 6, 7)),
    "MaxPool1d": (lambda nn: nn.MaxPool1d(3, 2, padding=1), (2, 3, 8)),
    "AvgPool2d": (lambda nn: nn.AvgPool2d(3, stride=2, padding=1), (2, 3, 6, 7)),
    "AvgPool1d": (lambda nn: nn.AvgPool1d(2), (2, 3, 8)),
    "AdaptiveAvgPool2d": (lambda nn: nn.AdaptiveAvgPool2d((2, 3)), (2, 3, 5, 7)),
    "LayerNorm": (lambda nn: nn.LayerNorm(5), (3, 4, 5)),
    "LayerNorm_no_bias": (lambda nn: nn.LayerNorm([4, 5], bias=False), (3, 4, 5)),
    "LayerNorm_no_affine": (lambda nn: nn.LayerNorm(5, elementwise_affine=False), (3, 5)),
    "GroupNorm": (lambda nn: nn.GroupNorm(2, 4), (2, 4, 3, 3)),
    "BatchNorm1d": (lambda nn: nn.BatchNorm1d(4), (6, 4)),
    "BatchNorm1d_3d": (lambda nn: nn.BatchNorm1d(4, momentum=None), (3, 4, 5)),
    "BatchNorm2d": (lambda nn: nn.BatchNorm2d(3, momentum=0.3), (4, 3, 3, 2)),
    "BatchNorm2d_no_stats": (lambda nn: nn.BatchNorm2d(3, track_running_stats=False),
                             (4, 3, 3, 2)),
    "BatchNorm2d_no_affine": (lambda nn: nn.BatchNorm2d(3, affine=False), (4, 3, 3, 2)),
    "Flatten": (lambda nn: nn.Flatten(), (2, 3, 4)),
    "Flatten_dims": (lambda nn: nn.Flatten(0, 1), (2, 3, 4)),
    "Unflatten": (lambda nn: nn.Unflatten(1, (2, -1)), (3, 6)),
    "Embedding": (lambda nn: nn.Embedding(5, 3, padding_idx=1), "int"),
    "EmbeddingBag": (lambda nn: nn.EmbeddingBag(5, 3, mode="sum", padding_idx=0), "int"),
    "InstanceNorm2d": (lambda nn: nn.InstanceNorm2d(3), (2, 3, 4, 3)),
    "InstanceNorm1d_affine_stats": (lambda nn: nn.InstanceNorm1d(
        3, affine=True, track_running_stats=True), (2, 3, 5)),
    "InstanceNorm1d_unbatched": (lambda nn: nn.InstanceNorm1d(3, affine=True), (3, 5)),
    "RMSNorm": (lambda nn: nn.RMSNorm([4, 5]), (3, 4, 5)),
    "LocalResponseNorm": (lambda nn: nn.LocalResponseNorm(2), (2, 4, 3, 3)),
    "MaxPool3d": (lambda nn: nn.MaxPool3d(2), (1, 2, 4, 4, 3)),
    "AvgPool3d": (lambda nn: nn.AvgPool3d(2, padding=1), (1, 2, 4, 4, 3)),
    "AdaptiveAvgPool3d": (lambda nn: nn.AdaptiveAvgPool3d((2, 1, 3)), (1, 2, 4, 4, 3)),
    "Unfold": (lambda nn: nn.Unfold((2, 3), padding=1), (2, 3, 4, 4)),
    "AdaptiveMaxPool2d": (lambda nn: nn.AdaptiveMaxPool2d((2, 3)), (2, 3, 5, 7)),
    "AdaptiveMaxPool1d": (lambda nn: nn.AdaptiveMaxPool1d(3), (2, 3, 7)),
    "LPPool2d": (lambda nn: nn.LPPool2d(2, 3, stride=2), (2, 3, 6, 7)),
    "ChannelShuffle": (lambda nn: nn.ChannelShuffle(2), (2, 4, 3, 3)),
    "Fold": (lambda nn: nn.Fold((4, 5), 2), (2, 12, 12)),
    "AdaptiveMaxPool3d": (lambda nn: nn.AdaptiveMaxPool3d(2), (1, 2, 4, 5, 3)),
    "LPPool3d": (lambda nn: nn.LPPool3d(2, 2), (1, 2, 4, 4, 4)),
}


def _layer_step(L, module, x, u, integer):
    xt = L.tensor(x) if integer else L.tensor(x, requires_grad=True)
    out = module(xt)
    params = [p for _, p in module.named_parameters()]
    leaves = params if integer else [xt] + params
    grads = L.autograd.grad(out, leaves, grad_outputs=L.tensor(u))
    return np.asarray(out.detach()), [np.asarray(g) for g in grads]


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_matches_torch(name, rng, torch):
    build, shape = LAYERS[name]
    torch.manual_seed(0)
    tmod = build(torch.nn).double()
    mod = build(tg.nn)
    assert list(mod.state_dict()) == list(tmod.state_dict())
    assert repr(mod) == repr(tmod)
    _copy_weights(mod, tmod)
    integer = shape == "int"
    x = IDX if integer else rng.standard_normal(shape)
    shape_out = tuple(tmod.eval()(torch.tensor(x)).shape)  # (eval: no running stats move)
    for mode in ("train", "eval"):
        getattr(mod, mode)()
        getattr(tmod, mode)()
        u = rng.standard_normal(shape_out)
        out, grads = _layer_step(tg, mod, x, u, integer)
        tout, tgrads = _layer_step(torch, tmod, x, u, integer)
        np.testing.assert_allclose(out, tout, rtol=1e-10, atol=1e-12)
        for g, tgr in zip(grads, tgrads, strict=True):
            np.testing.assert_allclose(g, tgr, rtol=1e-10, atol=1e-12)
        for (k, v), (tk, tv) in zip(mod.state_dict().items(), tmod.state_dict().items(),
                                    strict=True):  # running statistics included
            assert k == tk
            np.testing.assert_allclose(np.asarray(v), tv.numpy(), rtol=1e-10, atol=1e-12)


def _unload(t):
    return t.detach().numpy() if hasattr(t, "numpy") else np.asarray(t)


@pytest.mark.oracle
def test_batch_norm_running_stats_over_steps(rng, torch):
    # momentum=None: the cumulative average; then eval uses the running statistics
    mods = (tg.nn.BatchNorm1d(3, momentum=None), torch.nn.BatchNorm1d(3, momentum=None).double())
    xs = [rng.standard_normal((4, 3)) * (i + 1) + i for i in range(3)]
    for m, L in zip(mods, (tg, torch), strict=True):
        for x in xs:
            m(L.tensor(x))
    for k in ("running_mean", "running_var", "num_batches_tracked"):
        np.testing.assert_allclose(np.asarray(mods[0].state_dict()[k]),
                                   mods[1].state_dict()[k].numpy(), rtol=1e-12)
    assert mods[0].num_batches_tracked.dtype == tg.int64
    x = rng.standard_normal((2, 3))
    out = [np.asarray(m.eval()(L.tensor(x)).detach())
           for m, L in zip(mods, (tg, torch), strict=True)]
    np.testing.assert_allclose(out[0], out[1], rtol=1e-12)


def test_batch_norm_eval_is_constant_in_the_batch(rng):
    bn = tg.nn.BatchNorm1d(2).eval()
    x = rng.standard_normal((3, 2))
    a = np.asarray(bn(tg.tensor(x)).detach())
    np.testing.assert_allclose(a, x / np.sqrt(1 + 1e-5))  # fresh stats: mean 0, var 1
    assert int(bn.num_batches_tracked) == 0


def test_dropout_train_and_eval():
    drop = tg.nn.Dropout(0.25)
    x = tg.ones(4000, requires_grad=True)
    y = drop(x)
    kept = np.asarray(y.detach()) != 0
    assert 0.7 < kept.mean() < 0.8
    np.testing.assert_allclose(np.asarray(y.detach())[kept], 1 / 0.75)
    y.sum().backward()
    np.testing.assert_allclose(np.asarray(x.grad), np.where(kept, 1 / 0.75, 0.0))
    drop.eval()
    assert drop(x) is x
    tg.manual_seed(11)
    a = tg.nn.Dropout(0.5)(tg.ones(50)).tolist()
    tg.manual_seed(11)
    assert tg.nn.Dropout(0.5)(tg.ones(50)).tolist() == a


@pytest.mark.parametrize("cls, shape", [("Dropout2d", (4, 6, 3, 3)), ("Dropout1d", (6, 5)),
                                        ("Dropout1d", (3, 6, 5))])
def test_channel_dropout_zeroes_whole_channels(cls, shape):
    drop = getattr(tg.nn, cls)(0.5)
    x = tg.ones(*shape, requires_grad=True)
    y = drop(x)
    per_channel = int(np.prod(shape[-2:] if cls == "Dropout2d" else shape[-1:]))
    v = np.asarray(y.detach()).reshape(-1, per_channel)
    assert (v.std(-1) == 0).all() and set(np.unique(v)) == {0.0, 2.0}
    y.sum().backward()
    np.testing.assert_array_equal(np.asarray(x.grad), np.asarray(y.detach()))
    assert drop.eval()(x) is x


def test_embedding_padding_row_and_from_pretrained(rng):
    emb = tg.nn.Embedding(4, 3, padding_idx=-1)
    assert emb.padding_idx == 3
    assert np.asarray(emb.weight.detach())[3].tolist() == [0.0, 0.0, 0.0]
    emb(tg.tensor([3, 0, 3])).sum().backward()
    g = np.asarray(emb.weight.grad)
    assert g[3].tolist() == [0.0] * 3 and g[0].tolist() == [1.0] * 3
    w = rng.standard_normal((4, 2))
    frozen = tg.nn.Embedding.from_pretrained(tg.tensor(w))
    assert not frozen.weight.requires_grad
    np.testing.assert_array_equal(np.asarray(frozen(tg.tensor([[2, 1]]))), w[[[2, 1]]])
    assert tg.nn.Embedding.from_pretrained(tg.tensor(w), freeze=False).weight.requires_grad


@pytest.mark.oracle
def test_embedding_max_norm_renormalises_like_torch(torch):
    w = np.arange(12.0).reshape(4, 3)
    idx = np.array([0, 2, 2])
    outs = []
    for L in (tg, torch):
        weight = L.tensor(w.copy())
        out = L.nn.functional.embedding(L.tensor(idx), weight, max_norm=5.0)
        outs.append((np.asarray(out), _unload(weight)))
    for a, b in zip(*outs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6)


# ---- default initialisation ----------------------------------------------------------------
def test_conv_and_linear_start_as_torch_does():
    tg.manual_seed(5)
    conv = tg.nn.Conv2d(8, 64, 5)  # fan_in 200: U(-1/sqrt(200), 1/sqrt(200))
    bound = 1 / np.sqrt(8 * 25)
    w, b = np.asarray(conv.weight.detach()), np.asarray(conv.bias.detach())
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert np.abs(w).max() > 0.99 * bound  # spread over the whole interval
    assert w.std() == pytest.approx(bound / np.sqrt(3), rel=0.03)
    assert abs(w.mean()) < 0.01 * bound * 3
    tg.manual_seed(5)
    again = tg.nn.Conv2d(8, 64, 5)
    np.testing.assert_array_equal(np.asarray(again.weight.detach()), w)
    lin = tg.nn.Linear(400, 300)
    wl = np.asarray(lin.weight.detach()).copy()
    assert np.abs(wl).max() <= 0.05 and wl.std() == pytest.approx(0.05 / np.sqrt(3), rel=0.03)
    lin.reset_parameters()  # a fresh draw, in place, outside the graph
    assert lin.weight.is_leaf and not np.array_equal(np.asarray(lin.weight.detach()), wl)
    assert np.abs(np.asarray(lin.bias.detach())).max() <= 0.05
    emb = tg.nn.Embedding(300, 100)
    assert np.asarray(emb.weight.detach()).std() == pytest.approx(1.0, rel=0.03)
    assert tg.nn.Conv1d(2, 3, 3, dtype=tg.float32).weight.dtype == tg.float32


# ---- errors: PyTorch's messages, nothing recorded -------------------------------------------
def _x(L, *shape):
    return L.ones(*shape, dtype=L.float64, requires_grad=True) * 1.0  # a non-leaf


def _w(L, *shape):
    return L.ones(*shape, dtype=L.float64)


def _call(f, *args, **kwargs):
    return lambda: f(*args, **kwargs)


# name: (setup(L, F, nn) -> the failing call, its inputs made; exception; PyTorch's phrase)
BAD = {
    "conv2d channels": (lambda L, F, nn: _call(nn.Conv2d(1, 8, 3).double(), _x(L, 3, 28, 28)),
                        RuntimeError, "Given groups=1, weight of size [8, 1, 3, 3], expected "
                        "input[1, 3, 28, 28] to have 1 channels, but got 3 channels instead"),
    "conv2d batched channels": (lambda L, F, nn: _call(F.conv2d, _x(L, 2, 3, 5, 5),
                                                       _w(L, 2, 2, 3, 3)),
                                RuntimeError, "expected input[2, 3, 5, 5] to have 2 channels"),
    "conv2d 2-D input": (lambda L, F, nn: _call(F.conv2d, _x(L, 5, 5), _w(L, 2, 1, 3, 3)),
                         RuntimeError, "Expected 3D (unbatched) or 4D (batched) input to "
                                       "conv2d, but got input of size: [5, 5]"),
    "conv1d 4-D input": (lambda L, F, nn: _call(F.conv1d, _x(L, 1, 1, 2, 9), _w(L, 2, 1, 3)),
                         RuntimeError, "Expected 2D (unbatched) or 3D (batched) input to "
                                       "conv1d, but got input of size: [1, 1, 2, 9]"),
    "conv2d kernel too big": (lambda L, F, nn: _call(F.conv2d, _x(L, 1, 2, 2),
                                                     _w(L, 1, 1, 3, 3)),
                              RuntimeError, "Calculated padded input size per channel: (2 x 2)"
                              ". Kernel size: (3 x 3). Kernel size can't be greater than "
                              "actual input size"),
    "conv2d bias size": (lambda L, F, nn: _call(F.conv2d, _x(L, 1, 1, 4, 4), _w(L, 2, 1, 3, 3),
                                                _w(L, 3)),
                         RuntimeError, "expected bias to be 1-dimensional with 2 elements"),
    "conv2d stride 0": (lambda L, F, nn: _call(F.conv2d, _x(L, 1, 1, 4, 4), _w(L, 2, 1, 3, 3),
                                               stride=0),
                        RuntimeError, "non-positive stride is not supported"),
    "Conv2d same strided": (lambda L, F, nn: _call(nn.Conv2d, 1, 8, 3, stride=2,
                                                   padding="same"),
                            ValueError, "padding='same' is not supported for strided "
                                        "convolutions"),
    "Conv2d padding string": (lambda L, F, nn: _call(nn.Conv2d, 1, 8, 3, padding="full"),
                              ValueError, "Invalid padding string 'full', should be one of"),
    "Conv2d in groups": (lambda L, F, nn: _call(nn.Conv2d, 3, 8, 3, groups=2), ValueError,
                         "in_channels must be divisible by groups"),
    "Conv2d out groups": (lambda L, F, nn: _call(nn.Conv2d, 4, 6, 3, groups=4), ValueError,
                          "out_channels must be divisible by groups"),
    "max_pool2d pad": (lambda L, F, nn: _call(F.max_pool2d, _x(L, 1, 1, 4, 4), 3, padding=2),
                       RuntimeError, "pad should be at most half of effective kernel size, "
                                     "but got pad=2, kernel_size=3 and dilation=1"),
    "max_pool2d too small": (lambda L, F, nn: _call(F.max_pool2d, _x(L, 1, 2, 2), 3),
                             RuntimeError, "Given input size: (1x2x2). Calculated output size:"
                                           " (1x0x0). Output size is too small"),
    "max_pool2d 2-D": (lambda L, F, nn: _call(F.max_pool2d, _x(L, 4, 4), 2), RuntimeError,
                       "non-empty 3D or 4D (batch mode) tensor expected for input"),
    "avg_pool2d pad": (lambda L, F, nn: _call(F.avg_pool2d, _x(L, 1, 1, 4, 4), 3, padding=2),
                       RuntimeError, "pad should be at most half of effective kernel size"),
    "BatchNorm1d one value": (lambda L, F, nn: _call(nn.BatchNorm1d(3).double(), _x(L, 1, 3)),
                              ValueError, "Expected more than 1 value per channel when "
                                          "training, got input size"),
    "BatchNorm1d dims": (lambda L, F, nn: _call(nn.BatchNorm1d(3).double(), _x(L, 3)),
                         ValueError, "expected 2D or 3D input (got 1D input)"),
    "BatchNorm2d dims": (lambda L, F, nn: _call(nn.BatchNorm2d(3).double(), _x(L, 2, 3, 4)),
                         ValueError, "expected 4D input (got 3D input)"),
    "batch_norm stats size": (lambda L, F, nn: _call(F.batch_norm, _x(L, 4, 5), _w(L, 3),
                                                     _w(L, 3)),
                              RuntimeError, "running_mean should contain 5 elements not 3"),
    "LayerNorm shape": (lambda L, F, nn: _call(nn.LayerNorm(5).double(), _x(L, 4, 3)),
                        RuntimeError, "Given normalized_shape=[5], expected input with shape "
                                      "[*, 5], but got input of size[4, 3]"),
    "layer_norm weight": (lambda L, F, nn: _call(F.layer_norm, _x(L, 3, 4), (4,), _w(L, 3)),
                          RuntimeError, "Expected weight to be of same shape as "
                                        "normalized_shape, but got weight of shape [3] and "
                                        "normalized_shape = [4]"),
    "group_norm groups": (lambda L, F, nn: _call(F.group_norm, _x(L, 3, 4), 3), RuntimeError,
                          "Expected number of channels in input to be divisible by num_groups"),
    "Embedding index": (lambda L, F, nn: _call(nn.Embedding(5, 3), L.tensor([5])), IndexError,
                        "index out of range in self"),
    "Embedding float": (lambda L, F, nn: _call(nn.Embedding(5, 3), L.tensor([1.0])),
                        RuntimeError, "Expected tensor for argument #1 'indices' to have one of"
                                      " the following scalar types: Long, Int; but got"),
    "Embedding padding_idx": (lambda L, F, nn: _call(nn.Embedding, 5, 3, padding_idx=5),
                              AssertionError, "Padding_idx must be within num_embeddings"),
    "Flatten dim": (lambda L, F, nn: _call(nn.Flatten(), _x(L, 3)), IndexError,
                    "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    "Unflatten sizes": (lambda L, F, nn: _call(nn.Unflatten(1, (2, 2)), _x(L, 3, 5)),
                        RuntimeError, "unflatten: Provided sizes [2, 2] don't multiply up to "
                                      "the size of dim 1 (5) in the input tensor"),
    "pad odd": (lambda L, F, nn: _call(F.pad, _x(L, 2, 3), (1, 2, 3)), RuntimeError,
                "Padding length must be divisible by 2"),
    "conv_transpose2d channels": (
        lambda L, F, nn: _call(F.conv_transpose2d, _x(L, 1, 5, 3, 3), _x(L, 4, 3, 3, 3)),
        RuntimeError, "Given transposed=1, weight of size [4, 3, 3, 3], expected input[1, 5, 3,"
                      " 3] to have 4 channels, but got 5 channels instead"),
    "conv_transpose2d output_padding": (
        lambda L, F, nn: _call(F.conv_transpose2d, _x(L, 1, 4, 3, 3), _x(L, 4, 3, 3, 3),
                               output_padding=1), RuntimeError,
        "output padding must be smaller than either stride or dilation, but got "
        "output_padding_height: 1 output_padding_width: 1 stride_height: 1 stride_width: 1 "
        "dilation_height: 1 dilation_width: 1"),
    "conv_transpose2d too small": (
        lambda L, F, nn: _call(F.conv_transpose2d, _x(L, 4, 3, 3), _x(L, 4, 3, 3, 3),
                               padding=3), RuntimeError,
        "Given input size per channel: (3 x 3). Calculated output size per channel: (-1 x -1)."
        " Output size is too small"),
    "fold kernel": (lambda L, F, nn: _call(F.fold, _x(L, 1, 5, 9), (4, 4), 2), RuntimeError,
                    "Expected size of input's dimension 1 to be divisible by the product of "
                    "kernel_size, but got input.size(1)=5 and kernel_size=(2, 2)"),
    "fold blocks": (lambda L, F, nn: _call(F.fold, _x(L, 1, 4, 8), (4, 4), 2), RuntimeError,
                    "expected size of input's dimension 2 to match the calculated number of "
                    "sliding blocks 3 * 3 = 9, but got input.size(2)=8."),
    "ConvTranspose2d padding_mode": (
        lambda L, F, nn: _call(nn.ConvTranspose2d, 4, 3, 3, padding_mode="reflect"),
        ValueError, 'Only "zeros" padding mode is supported for ConvTranspose2d'),
    "ConvTranspose2d output_size": (
        lambda L, F, nn: _call(nn.ConvTranspose2d(4, 3, 3, stride=2).double(),
                               _x(L, 1, 4, 3, 3), output_size=[9, 9]), ValueError,
        "requested an output size of [9, 9], but valid sizes range from [7, 7] to [8, 8]"),
}


def _tape_state():
    t = current_tape()
    t.flush()
    return (t.nrows, t.nslots, t.nvals, len(t.consts), len(t.meta))


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_raises_and_records_nothing(name):
    setup, exc, phrase = BAD[name]
    call = setup(tg, F, tg.nn)
    before = _tape_state()
    with pytest.raises(exc) as info:
        call()
    assert phrase in str(info.value)
    assert _tape_state() == before


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(BAD))
def test_torch_raises_the_same(name, torch):
    setup, exc, phrase = BAD[name]
    with pytest.raises(exc) as info:
        setup(torch, torch.nn.functional, torch.nn)()
    assert phrase in str(info.value)


# ---- end to end: a small CNN trained from torch's weights -------------------------------
def _cnn(nn, batch_norm=False):
    return nn.Sequential(nn.Conv2d(1, 4, 3), *([nn.BatchNorm2d(4)] if batch_norm else []),
                         nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4 * 5 * 5, 3))


def _train(L, model, x, y, steps=3):
    opt = L.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = L.nn.functional.cross_entropy(model(L.tensor(x)), L.tensor(y))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


@pytest.mark.oracle
@pytest.mark.parametrize("batch_norm", [False, True], ids=["plain", "batch_norm"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_small_cnn_trains_as_torch(batch_norm, dtype, torch):
    r = np.random.default_rng(8)
    x = r.standard_normal((8, 1, 12, 12)).astype(dtype)
    y = r.integers(0, 3, 8)
    torch.manual_seed(1)
    tmodel = _cnn(torch.nn, batch_norm).to(getattr(torch, dtype))
    model = _cnn(tg.nn, batch_norm).to(getattr(tg, dtype))
    _copy_weights(model, tmodel)
    losses, tlosses = _train(tg, model, x, y), _train(torch, tmodel, x, y)
    tol = 1e-10 if dtype == "float64" else 1e-5
    np.testing.assert_allclose(losses, tlosses, rtol=tol)
    assert losses[-1] < losses[0]
    for (k, v), tv in zip(model.state_dict().items(), tmodel.state_dict().values(), strict=True):
        assert v.dtype == (tg.int64 if k.endswith("num_batches_tracked") else getattr(tg, dtype))
        np.testing.assert_allclose(np.asarray(v, np.float64), tv.double().numpy(),
                                   rtol=tol, atol=tol)


@pytest.mark.oracle
def test_bilinear_module_matches_torch(rng, torch):
    tm = torch.nn.Bilinear(2, 3, 4).double()
    m = tg.nn.Bilinear(2, 3, 4)
    assert repr(m) == repr(tm) and list(m.state_dict()) == list(tm.state_dict())
    _copy_weights(m, tm)
    a, b = rng.standard_normal((5, 2)), rng.standard_normal((5, 3))
    np.testing.assert_allclose(np.asarray(m(tg.tensor(a), tg.tensor(b)).detach()),
                               tm(torch.tensor(a), torch.tensor(b)).detach().numpy(),
                               rtol=1e-12)


@pytest.mark.parametrize("cls", ["AlphaDropout", "FeatureAlphaDropout", "Dropout3d"])
def test_more_dropouts_train_and_eval(cls):
    tg.manual_seed(0)
    m = getattr(tg.nn, cls)(0.2)
    x = tg.randn(200, 10, 2, 2, 2)
    assert m.eval()(x) is x
    y = np.asarray(m.train()(x))
    if cls == "Dropout3d":  # whole channels zeroed, the rest scaled by 1 / (1 - p)
        zero = (y == 0).all(axis=(2, 3, 4))
        assert 0.1 < zero.mean() < 0.3
        np.testing.assert_allclose(y[~zero], np.asarray(x)[~zero] / 0.8)
    else:  # selu's statistics kept: mean 0 and variance 1 stay so
        assert abs(y.mean()) < 0.05 and abs(y.std() - 1.0) < 0.05


@pytest.mark.oracle
def test_adaptive_max_pool_indices_match_torch(rng, torch):
    x = rng.standard_normal((2, 3, 7, 6))
    x[0, 0, :2, :2] = 5.0  # a tie inside a window: the first (row-major) maximum is chosen
    for out in [(3, 4), (2, 2), (7, 6), (5, 4)]:
        v, i = tg.nn.functional.adaptive_max_pool2d(tg.tensor(x), out, return_indices=True)
        tv, ti = torch.nn.functional.adaptive_max_pool2d(torch.tensor(x), out, True)
        np.testing.assert_array_equal(np.asarray(v), tv.numpy())
        np.testing.assert_array_equal(np.asarray(i), ti.numpy())
    _, i = tg.nn.functional.max_pool2d_with_indices(tg.tensor(x), 2)
    np.testing.assert_array_equal(np.asarray(i), torch.nn.functional.max_pool2d_with_indices(
        torch.tensor(x), 2)[1].numpy())
