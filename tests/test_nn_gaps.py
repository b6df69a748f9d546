"""torch.nn names that scripts stopped on, against PyTorch in float64: grid_sample and
affine_grid (every mode, padding mode and align_corners, 2-D and 3-D), ctc_loss (values,
gradients, reductions, zero_infinity, target layouts), max_unpool, fractional max pooling,
multilabel_margin_loss, the lazy modules, AdaptiveLogSoftmaxWithLoss, SyncBatchNorm and
Container; PyTorch's error messages for bad input."""
import itertools
import warnings

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as F

pytestmark = pytest.mark.oracle


def _compare(torch, call, arrays, grad_names, consts=None, atol=1e-12):
    """``call(F, L, d)`` in both libraries on leaves made from ``arrays`` (a dict); the
    first output's values and the gradients of a weighted sum for ``grad_names``."""
    results = []
    for lib, FF in ((tg, F), (torch, torch.nn.functional)):
        d = {k: lib.tensor(v, requires_grad=k in grad_names) for k, v in arrays.items()}
        d.update({k: lib.tensor(v) for k, v in (consts or {}).items()})
        out = call(FF, lib, d)
        y = out[0] if isinstance(out, tuple) else out
        w = np.cos(np.arange(y.numel()) * 0.7).reshape(tuple(y.shape))
        (y * lib.tensor(w)).sum().backward()
        grads = [None if d[k].grad is None else np.asarray(d[k].grad) for k in grad_names]
        extra = [np.asarray(o) for o in out[1:]] if isinstance(out, tuple) else []
        results.append((np.asarray(y.detach()), grads, extra))
    (a, ga, ea), (b, gb, eb) = results
    assert a.shape == b.shape
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=atol)
    for g1, g2 in zip(ga, gb, strict=True):
        np.testing.assert_allclose(g1, g2, rtol=1e-10, atol=atol)
    for e1, e2 in zip(ea, eb, strict=True):
        np.testing.assert_array_equal(e1, e2)


# ---- grid_sample / affine_grid ---------------------------------------------------------
GRID_CASES = [(2, m, p, a) for m, p, a in itertools.product(
    ("bilinear", "nearest", "bicubic"), ("zeros", "border", "reflection"), (True, False))]
GRID_CASES += [(3, m, p, a) for m, p, a in itertools.product(
    ("bilinear", "nearest"), ("zeros", "border", "reflection"), (True, False))]


@pytest.mark.parametrize("d,mode,padding,align", GRID_CASES)
def test_grid_sample_matches_torch(torch, d, mode, padding, align):
    rng = np.random.default_rng(len(mode) + 3 * len(padding) + d + align)
    x = rng.standard_normal((2, 3, 4, 5) if d == 2 else (2, 2, 3, 4, 5))
    grid = rng.uniform(-1.4, 1.4, (2, 5, 6, 2) if d == 2 else (2, 3, 2, 4, 3))
    _compare(torch, lambda F, L, v: F.grid_sample(v["x"], v["g"], mode=mode,
                                                  padding_mode=padding, align_corners=align),
             {"x": x, "g": grid}, ["x", "g"])


def test_grid_sample_float32_and_grid_points_on_pixels(torch):
    x = np.arange(12.0).reshape(1, 1, 3, 4)
    # points exactly on pixel centres and on the borders (where the clip's gradient is 0)
    g = np.array([[[[-1.0, -1.0], [1.0, 1.0], [0.0, 0.0], [-1.0, 1.0], [1 / 3, -1.0]]]])
    for pad in ("zeros", "border", "reflection"):
        _compare(torch, lambda F, L, v, pad=pad: F.grid_sample(v["x"], v["g"],
                                                               padding_mode=pad,
                                                               align_corners=True),
                 {"x": x, "g": g}, ["x", "g"])
    y = F.grid_sample(tg.tensor(x, dtype=tg.float32), tg.tensor(g, dtype=tg.float32),
                      align_corners=False)
    assert y.dtype == tg.float32


def test_spatial_transformer_step_matches_torch(torch):
    """The Spatial Transformer tutorial's pattern: theta from a layer, affine_grid, then
    grid_sample; gradients reach theta through the grid."""
    rng = np.random.default_rng(4)
    x, theta = rng.standard_normal((3, 2, 6, 7)), rng.standard_normal((3, 2, 3)) * 0.5
    _compare(torch, lambda F, L, v: F.grid_sample(
        v["x"], F.affine_grid(v["t"], list(v["x"].shape), align_corners=False),
        align_corners=False), {"x": x, "t": theta}, ["x", "t"])


@pytest.mark.parametrize("size", [(2, 3, 4, 5), (2, 1, 1, 3), (3, 2, 2, 3, 4), (1, 1, 5, 1)])
@pytest.mark.parametrize("align", [True, False])
def test_affine_grid_matches_torch(torch, size, align):
    d = len(size) - 2
    theta = np.random.default_rng(d).standard_normal((size[0], d, d + 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unit sizes with align_corners warn in both
        _compare(torch, lambda F, L, v: F.affine_grid(v["t"], size, align_corners=align),
                 {"t": theta}, ["t"])


def test_affine_grid_integer_theta_raises():
    with pytest.raises(ValueError, match="Expected theta to have floating point type, but "
                                         "got tapegrad.int64"):
        F.affine_grid(tg.ones(2, 2, 3, dtype=tg.int64), (2, 3, 4, 4), align_corners=False)


def test_default_align_corners_warns_as_torch():
    theta = tg.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
    with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
        grid = F.affine_grid(theta, (1, 1, 2, 2))
    with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
        F.grid_sample(tg.ones(1, 1, 2, 2), grid)


@pytest.mark.parametrize("call", [
    lambda L: L.nn.functional.grid_sample(L.ones(2, 3, 4, 5), L.zeros(3, 6, 7, 2),
                                          align_corners=False),
    lambda L: L.nn.functional.grid_sample(L.ones(2, 3, 4, 5), L.zeros(2, 6, 7, 3),
                                          align_corners=False),
    lambda L: L.nn.functional.grid_sample(L.ones(2, 3, 4, 5), L.zeros(2, 6, 7, 2, 2),
                                          align_corners=False),
    lambda L: L.nn.functional.grid_sample(L.ones(2, 3, 0, 5), L.zeros(2, 6, 7, 2),
                                          align_corners=False),
    lambda L: L.nn.functional.grid_sample(L.ones(2, 3, 4, 5, 6), L.zeros(2, 6, 7, 8, 3),
                                          mode="bicubic", align_corners=False),
    lambda L: L.nn.functional.grid_sample(L.ones(2, 3, 4, 5), L.zeros(2, 6, 7, 2),
                                          mode="area", align_corners=False),
    lambda L: L.nn.functional.grid_sample(L.ones(2, 3, 4, 5), L.zeros(2, 6, 7, 2),
                                          padding_mode="wrap", align_corners=False),
    lambda L: L.nn.functional.grid_sample(L.ones(2, 3, 4, 5, dtype=L.float32),
                                          L.zeros(2, 6, 7, 2, dtype=L.float64),
                                          align_corners=False),
    lambda L: L.nn.functional.grid_sample(L.ones(2, 3, 4, 5, dtype=L.int64),
                                          L.zeros(2, 6, 7, 2, dtype=L.int64),
                                          align_corners=False),
    lambda L: L.nn.functional.affine_grid(L.ones(2, 2, 3), (2, 3, 0, 4), align_corners=False),
    lambda L: L.nn.functional.affine_grid(L.ones(2, 2, 3), (2, 3, 5, 4, 4),
                                          align_corners=False),
    lambda L: L.nn.functional.affine_grid(L.ones(2, 2, 3), (2, 3), align_corners=False),
])
def test_grid_errors_as_torch(raises_as_torch, call):
    raises_as_torch(call)


# ---- ctc_loss --------------------------------------------------------------------------
def _ctc_case(rng, t, n, c, s, blank=0):
    logits = rng.standard_normal((t, n, c))
    targets = rng.integers(0, c, (n, s))
    targets[targets == blank] = (blank + 1) % c
    return logits, targets


CTC_CASES = {  # name: (T, N, C, S, input_lengths, target_lengths, reduction, zero_inf, extra)
    "none": (6, 2, 4, 3, [6, 5], [3, 2], "none", False, {}),
    "mean": (6, 3, 4, 3, [6, 5, 4], [3, 2, 0], "mean", False, {}),
    "sum_blank2": (6, 2, 4, 3, [6, 5], [3, 2], "sum", False, {"blank": 2}),
    "infeasible": (6, 2, 4, 3, [2, 5], [3, 2], "none", False, {}),
    "zero_infinity": (6, 2, 4, 3, [2, 5], [3, 2], "mean", True, {}),
    "repeats": (8, 1, 2, 4, [8], [4], "none", False, {}),
    "longer": (30, 4, 6, 10, [30, 25, 20, 28], [10, 7, 5, 9], "mean", False, {}),
}


@pytest.mark.parametrize("name", list(CTC_CASES))
@pytest.mark.parametrize("layout", ["padded", "concatenated"])
def test_ctc_loss_matches_torch(torch, name, layout):
    t, n, c, s, il, tl, reduction, zi, extra = CTC_CASES[name]
    rng = np.random.default_rng(len(name))
    logits, targets = _ctc_case(rng, t, n, c, s, extra.get("blank", 0))
    if layout == "concatenated":
        targets = np.concatenate([targets[i, :tl[i]] for i in range(n)])

    def call(F, L, v):
        return F.ctc_loss(v["x"].log_softmax(2), v["targets"], v["il"], v["tl"],
                          reduction=reduction, zero_infinity=zi, **extra)

    consts = {"targets": targets, "il": np.array(il), "tl": np.array(tl)}
    if name == "infeasible":  # inf loss: PyTorch's gradient is NaN in that sample
        out = [np.asarray(call(FF, L, {"x": L.tensor(logits), **{k: L.tensor(v) for k, v in
                                                                 consts.items()}}))
               for L, FF in ((tg, F), (torch, torch.nn.functional))]
        np.testing.assert_allclose(out[0], out[1], rtol=1e-12)
        return
    _compare(torch, call, {"x": logits}, ["x"], consts)


def test_ctc_loss_leaf_log_probs_and_unbatched_match_torch(torch):
    """PyTorch's CTC gradient is exp(lp) - posterior for any log_probs (the logits'
    gradient when lp is a log_softmax): tapegrad returns the same for a leaf."""
    rng = np.random.default_rng(7)
    lp = rng.standard_normal((5, 2, 3))
    consts = {"targets": np.array([[1, 2], [2, 2]]), "il": np.array([5, 4]),
              "tl": np.array([2, 1])}
    _compare(torch, lambda F, L, v: F.ctc_loss(v["lp"], v["targets"], v["il"], v["tl"],
                                               reduction="sum"), {"lp": lp}, ["lp"], consts)
    consts = {"targets": np.array([1, 2]), "il": np.array(5), "tl": np.array(2)}
    _compare(torch, lambda F, L, v: F.ctc_loss(v["x"].log_softmax(1), v["targets"], v["il"],
                                               v["tl"], reduction="none"),
             {"x": lp[:, 0]}, ["x"], consts)


def test_ctc_loss_gradient_matches_finite_differences():
    rng = np.random.default_rng(3)
    logits = tg.tensor(rng.standard_normal((5, 2, 4)), requires_grad=True)
    targets, il, tl = tg.tensor([[1, 2, 2], [3, 1, 0]]), [5, 4], [3, 2]
    assert tg.autograd.gradcheck(
        lambda x: F.ctc_loss(x.log_softmax(2), targets, il, tl, reduction="sum"), (logits,))


def test_ctc_module_float32_and_node_name(torch):
    loss_fn = tg.nn.CTCLoss(blank=0, zero_infinity=True)
    assert repr(loss_fn) == "CTCLoss()"
    x = tg.randn(6, 2, 5, dtype=tg.float32, requires_grad=True)
    loss = loss_fn(x.log_softmax(2), tg.tensor([[1, 2], [3, 4]]), (6, 6), (2, 2))
    assert loss.dtype == tg.float32 and loss.grad_fn is not None
    loss.backward()
    assert x.grad.dtype == tg.float32
    nll = F.ctc_loss(x.detach().log_softmax(2).requires_grad_(), tg.tensor([[1, 2], [3, 4]]),
                     (6, 6), (2, 2), reduction="none")
    assert nll.grad_fn.name() == "CtcLossBackward0"


@pytest.mark.parametrize("call", [
    lambda L: L.nn.functional.ctc_loss(L.zeros(6, 2, 4), L.ones(2, 3, dtype=L.int64), [7, 5],
                                       [3, 2]),
    lambda L: L.nn.functional.ctc_loss(L.zeros(6, 2, 4), L.ones(2, 3, dtype=L.int64), [6, 5],
                                       [4, 2]),
    lambda L: L.nn.functional.ctc_loss(L.zeros(6, 2, 4), L.ones(2, 3, dtype=L.int64), [6, 5],
                                       [3, 2], blank=4),
    lambda L: L.nn.functional.ctc_loss(L.zeros(6, 2, 4), L.ones(2, 3, dtype=L.int64), [6],
                                       [3]),
    lambda L: L.nn.functional.ctc_loss(L.zeros(6, 2, 4), L.ones(4, dtype=L.int64), [6, 5],
                                       [3, 2]),
    lambda L: L.nn.functional.ctc_loss(L.zeros(6, 2, 4), L.ones(2, 3, dtype=L.int64),
                                       L.tensor([6, -1]), L.tensor([0, 2])),
    lambda L: L.nn.functional.ctc_loss(L.zeros(6, 2, 4, dtype=L.int64),
                                       L.ones(2, 3, dtype=L.int64), [6, 5], [3, 2]),
])
def test_ctc_errors_as_torch(raises_as_torch, call):
    raises_as_torch(call)
    raises_as_torch(lambda L: L.nn.functional.ctc_loss(
        L.zeros(6, 2, 4), L.ones(2, 3, dtype=L.int64), [6, 5], [3, 2], reduction="x"),
        prefix=True)


# ---- max_unpool, fractional max pooling, multilabel margin ------------------------------
@pytest.mark.parametrize("d,shape,kw", [
    (1, (2, 3, 8), {}), (2, (2, 3, 6, 6), {}), (3, (1, 2, 4, 4, 4), {}),
    (2, (3, 6, 6), {"output_size": (7, 7)}), (1, (3, 8), {"output_size": [2, 3, 9]}),
    (2, (2, 3, 7, 7), {"kernel": 3, "stride": 2, "padding": 1}),  # overlapping windows
])
def test_max_unpool_matches_torch(torch, d, shape, kw):
    kw = dict(kw)
    k, stride, padding = kw.pop("kernel", 2), kw.pop("stride", None), kw.pop("padding", 0)
    x = torch.tensor(np.random.default_rng(d).standard_normal(shape))
    pool = getattr(torch.nn.functional, f"max_pool{d}d")
    y, idx = pool(x, k, stride, padding, return_indices=True)
    _compare(torch, lambda F, L, v: getattr(F, f"max_unpool{d}d")(
        v["y"], v["i"], k, stride, padding, **kw), {"y": y.numpy()}, ["y"],
        {"i": idx.numpy()})


def test_max_unpool_modules_round_trip(torch):
    x = np.random.default_rng(0).standard_normal((2, 3, 6, 6))
    for L in (tg, torch):
        pool, unpool = L.nn.MaxPool2d(2, return_indices=True), L.nn.MaxUnpool2d(2)
        y, i = pool(L.tensor(x))
        out = unpool(y, i, output_size=(2, 3, 7, 7))
        assert tuple(out.shape) == (2, 3, 7, 7)
    assert repr(tg.nn.MaxUnpool1d(2, 1, 1)) == repr(torch.nn.MaxUnpool1d(2, 1, 1))


@pytest.mark.parametrize("call", [
    lambda L: L.nn.functional.max_unpool2d(L.ones(2, 3, 3, 3), L.zeros(2, 3, 3, 3,
                                           dtype=L.int64), 2, output_size=(8, 8)),
    lambda L: L.nn.functional.max_unpool2d(L.ones(2, 3, 3, 3), L.full((2, 3, 3, 3), 36,
                                           dtype=L.int64), 2),
    lambda L: L.nn.functional.max_unpool2d(L.ones(2, 3, 3, 3), L.zeros(2, 3, 2, 3,
                                           dtype=L.int64), 2),
    lambda L: L.nn.functional.max_unpool2d(L.ones(2, 3, 3, 3), L.zeros(2, 3, 3, 3,
                                           dtype=L.int32), 2),
    lambda L: L.nn.functional.max_unpool2d(L.ones(3, 3), L.zeros(3, 3, dtype=L.int64), 2),
    lambda L: L.nn.functional.max_unpool1d(L.ones(3, 3), L.full((3, 3), 6, dtype=L.int64), 2),
])
def test_max_unpool_errors_as_torch(raises_as_torch, call):
    raises_as_torch(call)


@pytest.mark.parametrize("d,shape,k,out", [
    (2, (2, 3, 9, 8), 2, (4, 5)), (2, (2, 3, 9, 8), (3, 2), (5, 6)), (2, (3, 9, 8), 2, (4, 4)),
    (3, (2, 3, 7, 6, 8), 2, (3, 4, 5)), (3, (2, 3, 7, 6, 8), (3, 2, 2), (4, 4, 5)),
])
def test_fractional_max_pool_matches_torch(torch, d, shape, k, out):
    rng = np.random.default_rng(d)
    x, samples = rng.standard_normal(shape), rng.random((1 if len(shape) == d + 1 else
                                                         shape[0], shape[-d - 1], d))
    _compare(torch, lambda F, L, v: getattr(F, f"fractional_max_pool{d}d")(
        v["x"], k, output_size=out, return_indices=True, _random_samples=v["u"]),
        {"x": x}, ["x"], {"u": samples})


def test_fractional_max_pool_ratio_module_and_random_draw(torch):
    x = np.random.default_rng(1).standard_normal((2, 3, 10, 8))
    samples = np.random.default_rng(2).random((2, 3, 2))
    outs = [L.nn.FractionalMaxPool2d(2, output_ratio=0.5, _random_samples=L.tensor(samples))(
        L.tensor(x)) for L in (tg, torch)]
    np.testing.assert_array_equal(np.asarray(outs[0]), outs[1].numpy())
    y, i = F.fractional_max_pool2d(tg.tensor(x), 2, output_size=3, return_indices=True)
    assert tuple(y.shape) == (2, 3, 3, 3)
    flat = tg.tensor(x).reshape(2, 3, -1)  # the indices name the maxima picked
    np.testing.assert_array_equal(np.asarray(flat.gather(2, i.reshape(2, 3, -1))).ravel(),
                                  np.asarray(y).ravel())


@pytest.mark.parametrize("call", [
    lambda L: L.nn.functional.fractional_max_pool2d(L.ones(2, 3, 9, 8), 2),
    lambda L: L.nn.functional.fractional_max_pool2d(L.ones(2, 3, 9, 8), 2, output_size=(9, 4),
                                                    _random_samples=L.zeros(2, 3, 2)),
    lambda L: L.nn.functional.fractional_max_pool2d(L.ones(2, 3, 9, 8), 2, output_size=(4, 4),
                                                    _random_samples=L.zeros(1, 3, 2)),
    lambda L: L.nn.functional.fractional_max_pool2d(L.ones(2, 3, 9, 8), 2, output_size=(4, 4),
                                                    _random_samples=L.zeros(2, 3, 3)),
    lambda L: L.nn.functional.fractional_max_pool3d(L.ones(2, 3, 5, 6, 7), 2,
                                                    output_size=(5, 3, 3),
                                                    _random_samples=L.zeros(2, 3, 3)),
    lambda L: L.nn.FractionalMaxPool2d(2),
    lambda L: L.nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5),
    lambda L: L.nn.FractionalMaxPool2d(2, output_ratio=1.5),
])
def test_fractional_max_pool_errors_as_torch(raises_as_torch, call):
    raises_as_torch(call)


MULTILABEL_TARGET = np.array([[3, 0, -1, 1], [1, 2, 3, -1], [0, 1, 2, 3]])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_multilabel_margin_loss_matches_torch(torch, reduction):
    x = np.random.default_rng(5).standard_normal((3, 4))
    _compare(torch, lambda F, L, v: F.multilabel_margin_loss(v["x"], v["t"],
                                                             reduction=reduction),
             {"x": x}, ["x"], {"t": MULTILABEL_TARGET})
    _compare(torch, lambda F, L, v: F.multilabel_margin_loss(v["x"], v["t"]),
             {"x": x[0]}, ["x"], {"t": MULTILABEL_TARGET[0]})
    # a hinge exactly at 0 has gradient 0, as PyTorch's
    _compare(torch, lambda F, L, v: L.nn.MultiLabelMarginLoss(reduction=reduction)(
        v["x"], v["t"]), {"x": np.array([[0.0, 1.0, 0.0]])}, ["x"],
        {"t": np.array([[1, -1, 0]])})


@pytest.mark.parametrize("call", [
    lambda L: L.nn.functional.multilabel_margin_loss(L.ones(2, 4),
                                                     L.tensor([[4, 0, -1, 1], [1, 2, 3, -1]])),
    lambda L: L.nn.functional.multilabel_margin_loss(L.ones(2, 4), L.tensor([[3, 0, -1]])),
    lambda L: L.nn.functional.multilabel_margin_loss(L.ones(2, 4), L.ones(2, 4,
                                                     dtype=L.float32)),
    lambda L: L.nn.functional.multilabel_margin_loss(L.ones(2, 3, 4),
                                                     L.zeros(2, 3, 4, dtype=L.int64)),
])
def test_multilabel_margin_errors_as_torch(raises_as_torch, call):
    raises_as_torch(call)


# ---- lazy modules ----------------------------------------------------------------------
LAZY = [("LazyConv1d", (4, 3), (2, 3, 7)), ("LazyConv2d", (4, 3), (2, 3, 6, 5)),
        ("LazyConv3d", (4, 2), (2, 3, 4, 4, 4)), ("LazyConvTranspose1d", (4, 3), (3, 5)),
        ("LazyConvTranspose2d", (4, 3), (2, 3, 5, 5)),
        ("LazyConvTranspose3d", (4, 2), (1, 3, 3, 3, 3)), ("LazyBatchNorm1d", (), (4, 3)),
        ("LazyBatchNorm2d", (), (4, 3, 2, 2)), ("LazyBatchNorm3d", (), (4, 3, 2, 2, 2)),
        ("LazyInstanceNorm1d", (), (4, 3, 5)), ("LazyInstanceNorm2d", (), (4, 3, 5, 5)),
        ("LazyInstanceNorm3d", (), (4, 3, 2, 3, 3)), ("LazyLinear", (3,), (4, 5))]


@pytest.mark.parametrize("name,args,shape", LAZY)
def test_lazy_module_materializes_like_torch(torch, name, args, shape):
    m = getattr(tg.nn, name)(*args)
    tm = getattr(torch.nn, name)(*args, dtype=torch.float64)
    assert repr(m) == repr(tm)
    assert repr(m.weight) == repr(tm.weight) == "<UninitializedParameter>"
    assert isinstance(m.weight, tg.nn.UninitializedParameter)
    opt = tg.optim.SGD(m.parameters(), lr=0.1)  # made before the shapes are known
    x = np.random.default_rng(0).standard_normal(shape)
    m(tg.tensor(x))
    tm(torch.tensor(x))
    assert type(m).__name__ == type(tm).__name__ and type(m.weight) is tg.nn.Parameter
    assert repr(m) == repr(tm)
    assert [(n, tuple(p.shape)) for n, p in m.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in tm.named_parameters()]
    assert [(n, tuple(b.shape)) for n, b in m.named_buffers()] == \
        [(n, tuple(b.shape)) for n, b in tm.named_buffers()]
    m.load_state_dict({k: tg.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
    y, ty = m(tg.tensor(x)), tm(torch.tensor(x))
    np.testing.assert_allclose(np.asarray(y.detach()), ty.detach().numpy(), atol=1e-12)
    y.pow(2).sum().backward()
    before = m.weight.detach().clone()
    opt.step()
    assert not np.array_equal(np.asarray(m.weight.detach()), np.asarray(before))


def test_lazy_module_loads_a_checkpoint_before_its_first_call(torch):
    tm = torch.nn.Conv2d(3, 4, 3, dtype=torch.float64)
    m = tg.nn.LazyConv2d(4, 3)
    m.load_state_dict({k: tg.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
    assert type(m) is tg.nn.Conv2d and m.in_channels == 3
    x = np.random.default_rng(0).standard_normal((1, 3, 5, 5))
    np.testing.assert_allclose(np.asarray(m(tg.tensor(x)).detach()),
                               tm(torch.tensor(x)).detach().numpy(), atol=1e-12)


@pytest.mark.parametrize("call", [
    lambda L: L.nn.LazyConv2d(4, 3)(L.ones(5, 5)),
    lambda L: L.nn.LazyConv2d(4, 3, groups=2)(L.ones(1, 3, 5, 5)),
    lambda L: L.nn.LazyInstanceNorm1d()(L.ones(3, 5)),
])
def test_lazy_errors_as_torch(raises_as_torch, call):
    raises_as_torch(call)


def test_uninitialized_parameter_and_buffer():
    p = tg.nn.UninitializedParameter()
    assert p.requires_grad and repr(p) == "<UninitializedParameter>"
    p.materialize((2, 3), dtype=tg.float32)
    assert type(p) is tg.nn.Parameter and tuple(p.shape) == (2, 3) and p.dtype == tg.float32
    b = tg.nn.UninitializedBuffer()
    assert not b.requires_grad and repr(b) == "<UninitializedBuffer>"
    b.materialize((4,))
    assert type(b) is tg.Tensor and tuple(b.shape) == (4,)


# ---- AdaptiveLogSoftmaxWithLoss, SyncBatchNorm, Container -------------------------------
def test_adaptive_log_softmax_matches_torch(torch):
    tm = torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0,
                                             head_bias=True).double()
    m = tg.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0, head_bias=True)
    assert repr(m) == repr(tm)
    m.load_state_dict({k: tg.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
    rng = np.random.default_rng(0)
    x, t = rng.standard_normal((7, 8)), np.array([0, 9, 4, 3, 7, 2, 5])
    out, tout = m(tg.tensor(x), tg.tensor(t)), tm(torch.tensor(x), torch.tensor(t))
    np.testing.assert_allclose(np.asarray(out.output.detach()), tout.output.detach().numpy(),
                               rtol=1e-12)
    assert abs(out.loss.item() - tout.loss.item()) < 1e-12
    out.loss.backward()
    tout.loss.backward()
    for (_, p), (_, tp) in zip(m.named_parameters(), tm.named_parameters(), strict=True):
        np.testing.assert_allclose(np.asarray(p.grad), tp.grad.numpy(), atol=1e-14)
    np.testing.assert_allclose(np.asarray(m.log_prob(tg.tensor(x)).detach()),
                               tm.log_prob(torch.tensor(x)).detach().numpy(), atol=1e-12)
    np.testing.assert_array_equal(np.asarray(m.predict(tg.tensor(x))),
                                  tm.predict(torch.tensor(x)).numpy())
    one = m(tg.tensor(x[0]), tg.tensor(t[0])).output
    assert one.shape == () and abs(one.item() - tm(torch.tensor(x[0]),
                                                    torch.tensor(t[0])).output.item()) < 1e-12


@pytest.mark.parametrize("call", [
    lambda L: L.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6])(L.ones(7, 8), L.zeros(3,
                                                             dtype=L.int64)),
    lambda L: L.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6])(L.ones(2, 8), L.tensor([0, 10])),
    lambda L: L.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6])(L.ones(8), L.zeros(8,
                                                             dtype=L.int64)),
    lambda L: L.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3]),
])
def test_adaptive_log_softmax_errors_as_torch(raises_as_torch, call):
    raises_as_torch(call)


def test_sync_batch_norm_is_batch_norm_in_one_process(torch, raises_as_torch):
    rng = np.random.default_rng(0)
    m, tm = tg.nn.SyncBatchNorm(3), torch.nn.SyncBatchNorm(3).double()
    assert repr(m) == repr(tm)
    for shape in ((4, 3), (4, 3, 5), (2, 3, 2, 2)):
        x = rng.standard_normal(shape)
        np.testing.assert_allclose(np.asarray(m(tg.tensor(x)).detach()),
                                   tm(torch.tensor(x)).detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(np.asarray(m.running_var), tm.running_var.numpy(), atol=1e-12)
    raises_as_torch(lambda L: L.nn.SyncBatchNorm(3)(L.ones(3)))
    net = tg.nn.Sequential(tg.nn.Conv2d(1, 2, 3), tg.nn.BatchNorm2d(2),
                           tg.nn.Sequential(tg.nn.BatchNorm1d(4)))
    bn_weight = net[1].weight
    net = tg.nn.SyncBatchNorm.convert_sync_batchnorm(net)
    assert type(net[1]) is tg.nn.SyncBatchNorm and net[1].weight is bn_weight
    assert type(net[2][0]) is tg.nn.SyncBatchNorm and type(net[0]) is tg.nn.Conv2d


def test_container_is_a_deprecated_module(torch):
    with pytest.warns(FutureWarning, match="`nn.Container` is deprecated"):
        c = tg.nn.Container(a=tg.nn.Linear(2, 3))
    with pytest.warns(FutureWarning):
        tc = torch.nn.Container(a=torch.nn.Linear(2, 3))
    assert repr(c) == repr(tc) and [n for n, _ in c.named_parameters()] == ["a.weight",
                                                                            "a.bias"]


# ---- linear_cross_entropy, CrossMapLRN2d, conv_tbc ---------------------------------------
@pytest.mark.parametrize("case", ["plain", "k_dim", "unbatched_options", "probabilities"])
def test_linear_cross_entropy_matches_torch(torch, case):
    rng = np.random.default_rng(len(case))
    W, W3 = rng.standard_normal((5, 4)), rng.standard_normal((5, 2, 4))
    calls = {
        "plain": (lambda F, L, v: F.linear_cross_entropy(v["x"], v["w"], v["t"],
                                                         ignore_index=4),
                  {"x": rng.standard_normal((3, 4)), "w": W}, {"t": np.array([1, 0, 4])}),
        "k_dim": (lambda F, L, v: F.linear_cross_entropy(
            v["x"], v["w"], v["t"], linear_bias=v["b"], reduction="none", label_smoothing=0.1),
            {"x": rng.standard_normal((3, 4)), "w": W3, "b": rng.standard_normal((5, 2))},
            {"t": np.array([[1, 0], [4, 3], [2, 2]])}),
        # (torch's chunked path, which options selects, costs seconds on its first call)
        "unbatched_options": (lambda F, L, v: F.linear_cross_entropy(
            v["x"], v["w"], v["t"], options=L.nn.LinearCrossEntropyOptions() if L is tg
            else None),
            {"x": rng.standard_normal(4), "w": W}, {"t": np.array(2)}),
        "probabilities": (lambda F, L, v: F.linear_cross_entropy(v["x"], v["w"], v["t"]),
                          {"x": rng.standard_normal((3, 4)), "w": W},
                          {"t": rng.dirichlet(np.ones(5), 3)}),
    }
    call, arrays, consts = calls[case]
    _compare(torch, call, arrays, list(arrays), consts)


def test_linear_cross_entropy_module_matches_torch(torch, raises_as_torch):
    tm = torch.nn.LinearCrossEntropyLoss(4, 5, out_features=(2,), bias=True).double()
    m = tg.nn.LinearCrossEntropyLoss(4, 5, out_features=(2,), bias=True)
    assert repr(m) == repr(tm)
    m.load_state_dict({k: tg.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
    x, t = np.random.default_rng(0).standard_normal((3, 4)), np.array([[1, 0], [4, 3], [2, 2]])
    assert abs(m(tg.tensor(x), tg.tensor(t)).item() -
               tm(torch.tensor(x), torch.tensor(t)).item()) < 1e-12
    raises_as_torch(lambda L: L.nn.functional.linear_cross_entropy(L.ones(2, 3, 4),
                                                                   L.ones(5, 4), L.ones(2)))
    raises_as_torch(lambda L: L.nn.functional.linear_cross_entropy(L.ones(3, 4), L.ones(5, 3),
                                                                   L.ones(3)))


def test_cross_map_lrn2d_values_match_torch(torch, raises_as_torch):
    x = np.random.default_rng(1).standard_normal((2, 9, 2, 3))
    for size in (1, 2, 3, 5, 6, 12):
        np.testing.assert_allclose(
            np.asarray(tg.nn.CrossMapLRN2d(size, 0.5, 0.75, 2)(tg.tensor(x))),
            torch.nn.CrossMapLRN2d(size, 0.5, 0.75, 2)(torch.tensor(x)).numpy(), rtol=1e-13)
    assert repr(tg.nn.CrossMapLRN2d(3)) == repr(torch.nn.CrossMapLRN2d(3))
    # the gradient is the forward's own derivative (PyTorch's legacy backward is not)
    assert tg.autograd.gradcheck(lambda v: tg.nn.CrossMapLRN2d(5, 0.5, 0.75, 2)(v),
                                 (tg.tensor(x[:1, :7], requires_grad=True),))
    raises_as_torch(lambda L: L.nn.CrossMapLRN2d(3)(L.ones(2, 3, 4)))


def test_conv_tbc_and_native_channel_shuffle_match_torch(torch):
    rng = np.random.default_rng(2)
    for pad in (0, 1):
        _compare(torch, lambda F, L, v, pad=pad: (tg.nn.functional if L is tg else L).conv_tbc(
            v["x"], v["w"], v["b"], pad), {"x": rng.standard_normal((7, 2, 3)),
                                           "w": rng.standard_normal((3, 3, 4)),
                                           "b": rng.standard_normal(4)}, ["x", "w", "b"])
    x = rng.standard_normal((2, 6, 2))
    np.testing.assert_array_equal(np.asarray(F.native_channel_shuffle(tg.tensor(x), 3)),
                                  torch.nn.functional.native_channel_shuffle(
                                      torch.tensor(x), 3).numpy())


def test_torch_dispatch_helpers_for_copied_code():
    """Code copied from torch's functional.py runs: no override ever applies."""
    x = tg.tensor([-1.0, 2.0])
    assert not F.has_torch_function((x,)) and not F.has_torch_function_unary(x)
    assert not F.has_torch_function_variadic(x, x)
    assert F.handle_torch_function(F.relu, (x,), x).tolist() == [0.0, 2.0]
    pool = F.boolean_dispatch("return_indices", 6, False, F.max_pool2d_with_indices,
                              F.max_pool2d, __name__, "max_pool2d")
    assert isinstance(pool(tg.ones(1, 1, 2, 2), 2, return_indices=True), tuple)
    assert tuple(pool(tg.ones(1, 1, 2, 2), 2).shape) == (1, 1, 1, 1)
    F.assert_int_or_pair((1, 2), "k", "{} bad")
    with pytest.raises(AssertionError, match="k bad"):
        F.assert_int_or_pair((1, 2, 3), "k", "{} bad")
