"""torch.nn.grad (convolution gradients), nn.utils.fusion (conv/linear + eval BatchNorm),
nn.init's deprecated names and nn.common_types, against PyTorch."""
import warnings

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


@pytest.mark.parametrize("d", [1, 2, 3])
def test_conv_input_and_weight_gradients_match_torch(torch, d):
    rng = np.random.default_rng(d)
    shape, wshape = (2, 4) + (5,) * d, (6, 2) + (3,) * d
    x, w = rng.standard_normal(shape), rng.standard_normal(wshape)
    kw = {"stride": 2, "padding": 1, "groups": 2}
    y = getattr(torch.nn.functional, f"conv{d}d")(torch.tensor(x), torch.tensor(w), **kw)
    go = rng.standard_normal(tuple(y.shape))
    for name, args in ((f"conv{d}d_input", (shape, w, go)), (f"conv{d}d_weight", (x, wshape,
                                                                                 go))):
        got = getattr(tg.nn.grad, name)(*[a if isinstance(a, tuple) else tg.tensor(a)
                                          for a in args], **kw)
        want = getattr(torch.nn.grad, name)(*[a if isinstance(a, tuple) else torch.tensor(a)
                                              for a in args], **kw)
        np.testing.assert_allclose(np.asarray(got.detach()), want.numpy(), atol=1e-12)


def test_conv_input_gradient_is_differentiable_in_the_weight():
    w = tg.randn(3, 2, 3, requires_grad=True)
    g = tg.nn.grad.conv1d_input((1, 2, 6), w, tg.ones(1, 3, 4))
    g.sum().backward()
    assert w.grad is not None and tuple(w.grad.shape) == (3, 2, 3)


@pytest.mark.parametrize("kind", ["conv", "conv_transpose", "linear"])
def test_fusion_matches_torch(torch, kind):
    rng = np.random.default_rng(0)
    layers = {"conv": ("Conv2d", (2, 3, 3), "BatchNorm2d", (1, 2, 5, 5)),
              "conv_transpose": ("ConvTranspose2d", (2, 3, 3), "BatchNorm2d", (1, 2, 4, 4)),
              "linear": ("Linear", (4, 3), "BatchNorm1d", (5, 4))}
    layer, args, norm, xshape = layers[kind]
    mods = []
    for L in (torch, tg):
        m, bn = getattr(L.nn, layer)(*args), getattr(L.nn, norm)(3)
        if L is torch:
            m, bn = m.double(), bn.double()
            with torch.no_grad():
                bn.running_mean.copy_(torch.tensor(rng.standard_normal(3)))
                bn.running_var.copy_(torch.tensor(rng.uniform(0.5, 2, 3)))
                bn.weight.copy_(torch.tensor(rng.standard_normal(3)))
                bn.bias.copy_(torch.tensor(rng.standard_normal(3)))
        else:
            for mine, theirs in zip((m, bn), mods[0], strict=True):
                mine.load_state_dict({k: tg.tensor(v.detach().numpy())
                                      for k, v in theirs.state_dict().items()})
        mods.append((m.eval(), bn.eval()))
    x = rng.standard_normal(xshape)
    outs = []
    for (m, bn), L in zip(mods, (torch, tg), strict=True):
        if kind == "linear":
            fused = L.nn.utils.fuse_linear_bn_eval(m, bn)
        else:
            fused = L.nn.utils.fuse_conv_bn_eval(m, bn, transpose=kind == "conv_transpose")
        outs.append((np.asarray(fused(L.tensor(x)).detach()),
                     np.asarray(bn(m(L.tensor(x))).detach())))
    np.testing.assert_allclose(outs[1][0], outs[0][0], atol=1e-12)
    np.testing.assert_allclose(outs[1][0], outs[1][1], atol=1e-12)
    with pytest.raises(AssertionError, match="Fusion only for eval!"):
        tg.nn.utils.fuse_conv_bn_eval(tg.nn.Conv2d(2, 3, 3), tg.nn.BatchNorm2d(3))


@pytest.mark.parametrize("name", ["uniform", "normal", "constant", "eye", "dirac",
                                  "xavier_uniform", "xavier_normal", "kaiming_uniform",
                                  "kaiming_normal", "orthogonal", "sparse"])
def test_deprecated_init_names_warn_and_initialise(name):
    t = tg.empty(2, 2, 3, 3) if name == "dirac" else tg.empty(3, 3)
    args = (0.5,) if name in ("constant", "sparse") else ()
    with pytest.warns(FutureWarning, match=f"`nn.init.{name}` is now deprecated in favor of "
                                           f"`nn.init.{name}_`."):
        out = getattr(tg.nn.init, name)(t, *args)
    assert out is t


def test_common_types_are_importable():
    from tapegrad.nn.common_types import _size_2_t, _size_any_t  # noqa: F401
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tg.nn.common_types._ratio_2_t is not None
