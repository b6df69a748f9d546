"""F.interpolate (nearest, nearest-exact, linear, bilinear, trilinear, area) and Upsample
against PyTorch in float64: values and input gradients for upsampling and downsampling, by
size and by scale factor, align_corners both ways; reprs and errors."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle

CASES = {  # name: (kwargs, input shape)
    "nearest_scale2": ({"scale_factor": 2}, (2, 3, 4, 5)),
    "nearest_size": ({"size": (7, 3)}, (1, 2, 4, 5)),
    "nearest_1d_fraction": ({"scale_factor": 1.7}, (2, 3, 5)),
    "nearest_exact": ({"size": (7, 3), "mode": "nearest-exact"}, (1, 2, 4, 5)),
    "nearest_3d": ({"scale_factor": (2, 1, 0.5)}, (1, 1, 2, 3, 4)),
    "linear": ({"size": 7, "mode": "linear"}, (2, 3, 4)),
    "linear_align": ({"scale_factor": 2.5, "mode": "linear", "align_corners": True},
                     (2, 3, 4)),
    "bilinear_scale2": ({"scale_factor": 2, "mode": "bilinear"}, (2, 3, 4, 5)),
    "bilinear_down": ({"size": (3, 2), "mode": "bilinear"}, (1, 2, 5, 7)),
    "bilinear_align": ({"size": (6, 9), "mode": "bilinear", "align_corners": True},
                       (1, 2, 4, 5)),
    "bilinear_scale_recompute": ({"scale_factor": 1.3, "mode": "bilinear",
                                  "recompute_scale_factor": True}, (1, 2, 4, 5)),
    "bilinear_scale_fraction": ({"scale_factor": 1.3, "mode": "bilinear"}, (1, 2, 4, 5)),
    "bicubic": ({"size": (7, 3), "mode": "bicubic"}, (1, 2, 4, 5)),
    "bicubic_scale_align": ({"scale_factor": 2, "mode": "bicubic", "align_corners": True},
                            (1, 2, 3, 4)),
    "bicubic_down": ({"scale_factor": 0.6, "mode": "bicubic"}, (2, 1, 6, 7)),
    "trilinear": ({"size": (3, 4, 2), "mode": "trilinear"}, (1, 1, 2, 3, 4)),
    "area": ({"size": (2, 3), "mode": "area"}, (1, 2, 5, 7)),
    "area_3d": ({"size": (2, 3, 5), "mode": "area"}, (1, 2, 5, 4, 3)),
}


def _run(L, kwargs, x):
    xt = L.tensor(x, requires_grad=True)
    y = L.nn.functional.interpolate(xt, **kwargs)
    (g,) = L.autograd.grad((y * y.detach().cos()).sum(), [xt])
    return np.asarray(y.detach()), np.asarray(g)


@pytest.mark.parametrize("name", list(CASES))
def test_interpolate_matches_torch(name, rng, torch):
    kwargs, shape = CASES[name]
    x = rng.standard_normal(shape)
    for a, b in zip(_run(tg, kwargs, x), _run(torch, kwargs, x), strict=True):
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("build", [
    lambda nn: nn.Upsample(scale_factor=2), lambda nn: nn.Upsample(size=(3, 4), mode="bilinear"),
    lambda nn: nn.UpsamplingNearest2d(scale_factor=2),
    lambda nn: nn.UpsamplingBilinear2d(size=(5, 3))])
def test_upsample_modules_match_torch(build, rng, torch):
    x = rng.standard_normal((1, 2, 3, 3))
    m, tm = build(tg.nn), build(torch.nn)
    assert repr(m) == repr(tm)
    np.testing.assert_allclose(np.asarray(m(tg.tensor(x))), tm(torch.tensor(x)).numpy(),
                               rtol=1e-12)


ERRORS = {
    "both": lambda F, L: F.interpolate(L.zeros(1, 1, 2, 2), size=3, scale_factor=2),
    "neither": lambda F, L: F.interpolate(L.zeros(1, 1, 2, 2)),
    "align_nearest": lambda F, L: F.interpolate(L.zeros(1, 1, 2, 2), size=3,
                                                align_corners=True),
    "bilinear_3d": lambda F, L: F.interpolate(L.zeros(1, 1, 2), size=3, mode="bilinear"),
    "size_length": lambda F, L: F.interpolate(L.zeros(1, 1, 2, 2), size=(3, 3, 3)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name, raises_as_torch):
    raises_as_torch(lambda L: ERRORS[name](L.nn.functional, L))
