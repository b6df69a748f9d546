"""Differences from PyTorch found by the scripts s1641 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import copy
import importlib
import io

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- nn.Parameter of a complex tensor (s1672, a Fourier neural operator's weights) -------
def _complex_parameter_story(L):
    w = L.tensor(np.arange(6.0).reshape(2, 3) * (0.5 + 0.25j))
    p = L.nn.Parameter(w)
    seen = [isinstance(p, L.nn.Parameter), p.requires_grad, p.is_leaf, str(p.dtype), repr(p),
            isinstance(w, L.nn.Parameter), L.nn.Parameter(w, requires_grad=False).requires_grad]
    m = L.nn.Module()
    m.w, m.lin = p, L.nn.Linear(3, 1)
    seen.append([n for n, _ in m.named_parameters()])
    buf = io.BytesIO()
    L.save(m.state_dict(), buf)
    buf.seek(0)
    saved = L.load(buf)
    dup = copy.deepcopy(m)
    seen += [sorted(saved), saved["w"].numpy().tolist(), isinstance(dup.w, L.nn.Parameter),
             [n for n, _ in dup.named_parameters()]]
    x = L.tensor(np.array([1 - 1j, 2 + 0.5j, -1j]))
    (m.w @ x).abs().pow(2).sum().backward()
    seen.append(m.w.grad.numpy().tolist())
    L.optim.SGD(m.parameters(), lr=0.1, momentum=0.9).step()
    seen.append(m.w.detach().numpy().tolist())
    m.zero_grad()
    m.load_state_dict(saved)
    seen += [m.w.grad, m.w.detach().numpy().tolist(),
             len(list(L.nn.ParameterList([L.nn.Parameter(w)]).parameters()))]
    return seen


def test_complex_parameter_registers_trains_and_saves_as_pytorch(torch_float64):
    ours, theirs = _complex_parameter_story(tg), _complex_parameter_story(torch_float64)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        if isinstance(a, list) and a and isinstance(a[0], list):
            np.testing.assert_allclose(np.array(a), np.array(b), rtol=1e-14)
        else:
            assert a == b


def test_complex_parameter_in_a_module_trains_as_pytorch(torch_float64):
    def run(L):
        class Spectral(L.nn.Module):
            def __init__(self):
                super().__init__()
                w = (np.linspace(-1, 1, 8) + 1j * np.linspace(0.5, -0.5, 8)).reshape(2, 4)
                self.weights = L.nn.Parameter(L.tensor(w, dtype=L.cdouble))

            def forward(self, x):
                return L.fft.irfft(L.fft.rfft(x)[:, :4] * self.weights, n=6)

        mod = Spectral()
        opt = L.optim.Adam(mod.parameters(), lr=0.05)
        x = L.tensor(np.sin(np.arange(12.0)).reshape(2, 6))
        losses = []
        for _ in range(3):
            opt.zero_grad()
            loss = mod(x).pow(2).mean()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, mod.weights.detach().numpy(), len(list(mod.parameters()))
    ours, theirs = run(tg), run(torch_float64)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)
    assert ours[2] == theirs[2]


# ---- affine_grid's base coordinates rounded as PyTorch's (s1691, a spatial transformer) ---
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("size", [(1, 1, 8, 8), (2, 1, 5, 7), (1, 2, 3, 10, 6), (1, 1, 1, 9)])
def test_affine_grid_points_bitwise_as_pytorch(size, align_corners, dtype, torch_float64):
    torch = torch_float64
    d = len(size) - 2
    eye = np.eye(d, d + 1)
    for shift in (0.0, 0.01):  # (identity: the base points themselves, bit for bit)
        theta = np.stack([eye + shift * (k + 1) * np.ones_like(eye) for k in range(size[0])])
        got = [L.nn.functional.affine_grid(L.tensor(theta, dtype=getattr(L, dtype)), size,
                                           align_corners=align_corners).numpy()
               for L in (tg, torch)]
        if shift == 0.0:
            np.testing.assert_array_equal(got[0], got[1])
        else:  # (theta's products summed in another order: within ulps)
            np.testing.assert_allclose(got[0], got[1], rtol=2e-6 if dtype == "float32"
                                       else 1e-14, atol=1e-7 if dtype == "float32" else 1e-16)


def test_grid_sample_gradient_through_identity_affine_grid_as_pytorch(torch_float64):
    """At an identity warp every point sits on a pixel centre, where the side its floor
    takes decides the bilinear gradient: a base point an ulp low took the left neighbour."""
    torch = torch_float64
    img = np.random.default_rng(0).random((1, 2, 8, 8))
    got = []
    for L in (tg, torch):
        F = L.nn.functional
        theta = L.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], requires_grad=True)
        grid = F.affine_grid(theta, (1, 2, 8, 8), align_corners=False)
        out = F.grid_sample(L.tensor(img), grid, align_corners=False)
        (g,) = L.autograd.grad(out.pow(2).sum(), theta)
        got.append(g.numpy())
    np.testing.assert_allclose(got[0], got[1], rtol=1e-12)


# ---- `with torch.device(...)`: the default-device context (s1733, meta-device loading) ----
def _build_on(L, dev):
    with L.device(dev) as d:
        m = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.ReLU(), L.nn.Linear(4, 2))
    src = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.ReLU(), L.nn.Linear(4, 2))
    with L.no_grad():
        for k, p in enumerate(src.parameters()):
            p.copy_(L.tensor(np.linspace(-1, 1, p.numel()).reshape(tuple(p.shape)) * (k + 1)))
    m = m.to_empty(device="cpu")
    result = m.load_state_dict(src.state_dict(), assign=True)
    x = L.tensor(np.arange(6.0).reshape(2, 3))
    return (str(d), str(result), m(x).detach().numpy(), m[0].weight.requires_grad,
            type(m[0].weight).__name__)


@pytest.mark.parametrize("dev", ["cpu", "meta"])
def test_device_context_manager_then_assign_load_as_pytorch(dev, torch_float64):
    ours, theirs = _build_on(tg, dev), _build_on(torch_float64, dev)
    assert ours[:2] == theirs[:2] and ours[3:] == theirs[3:]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-14)


def test_device_context_manager_of_cuda_raises_as_pytorch(torch_float64):
    for L in (tg, torch_float64):
        with pytest.raises((AssertionError, RuntimeError), match="not compiled with CUDA"):
            with L.device("cuda"):
                L.ones(2)


# ---- torch.nn.attention.sdpa_kernel / SDPBackend (modern attention code selects kernels) --
def test_sdpa_kernel_context_and_backends_as_pytorch(torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        att = importlib.import_module(L.__name__ + ".nn.attention")
        B = att.SDPBackend
        names = [(m.name, int(m), repr(m), str(m)) for m in (
            B.ERROR, B.MATH, B.FLASH_ATTENTION, B.EFFICIENT_ATTENTION, B.CUDNN_ATTENTION,
            B.OVERRIDEABLE)]
        q = L.tensor(np.sin(np.arange(24.0)).reshape(1, 2, 3, 4))
        with att.sdpa_kernel([B.MATH]) as state:
            inside = L.nn.functional.scaled_dot_product_attention(q, q * 0.5, q, is_causal=True)
        with att.sdpa_kernel(B.MATH, set_priority=True):
            pass
        with pytest.raises(AssertionError) as info:
            with att.sdpa_kernel((B.MATH,)):
                pass
        got.append((names, state, inside.numpy(), str(info.value)))
    assert got[0][0] == got[1][0] and got[0][1] == got[1][1] and got[0][3] == got[1][3]
    np.testing.assert_allclose(got[0][2], got[1][2], rtol=1e-13)


# ---- torch._assert, the assert reference models (torchvision's ViT) call ------------------
@pytest.mark.parametrize("cond", [True, False, 1, 0])
def test_underscore_assert_as_pytorch(cond, torch_float64):
    said = []
    for L in (tg, torch_float64):
        for c in (cond, L.tensor(bool(cond))):
            try:
                said.append(L._assert(c, "Expected (batch_size, seq_length, hidden_dim)"))
            except AssertionError as e:
                said.append(("AssertionError", str(e)))
    assert said[:2] == said[2:]


def test_parameter_subclasses_keep_their_arguments_as_pytorch(torch_float64):
    """Parameter's constructor (which now looks for a complex tensor) passes a subclass's
    own arguments (UninitializedParameter's device and dtype) through."""
    got = []
    for L in (tg, torch_float64):
        p = L.nn.UninitializedParameter(requires_grad=False, dtype=L.float32)
        lin = L.nn.LazyLinear(3)
        y = lin(L.ones(2, 5))
        got.append((type(p).__name__, p.requires_grad, tuple(y.shape), type(lin).__name__,
                    tuple(lin.weight.shape)))
    assert got[0] == got[1]


# ---- Dataset[...] / Sampler[...]: generic bases in type-hinted data code ----------------
def _typed_data_pipeline(L):
    data = L.utils.data

    class Pairs(data.Dataset[tuple]):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return L.tensor([float(i), 2.0 * i]), i % 2

    class Stream(data.IterableDataset[int]):
        def __iter__(self):
            return iter(range(4))

    class EveryOther(data.Sampler[int]):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(0, self.n, 2))

        def __len__(self):
            return (self.n + 1) // 2

    batches = [(x.tolist(), y.tolist()) for x, y in data.DataLoader(
        Pairs(), batch_size=2, sampler=EveryOther(5))]
    stream = [b.tolist() for b in data.DataLoader(Stream(), batch_size=3)]
    return (batches, stream, str(data.Dataset[int]).rsplit(".", 1)[-1],
            isinstance(Pairs(), data.Dataset), issubclass(Stream, data.Dataset))


def test_generic_dataset_and_sampler_bases_as_pytorch(torch_float64):
    assert _typed_data_pipeline(tg) == _typed_data_pipeline(torch_float64)


# ---- dir(module) lists its parameters, buffers and submodules (tab completion, getattr) --
def test_module_dir_lists_registered_names_as_pytorch(torch_float64):
    got = []
    for L in (tg, torch_float64):
        m = L.nn.Sequential(L.nn.Linear(2, 3), L.nn.BatchNorm1d(3))
        m.extra = L.nn.Linear(1, 1)
        m.register_buffer("steps", L.zeros(1))
        names = dir(m)
        got.append(([n for n in names if n in ("extra", "steps", "training", "forward")],
                    any(n[0].isdigit() for n in names), "weight" in dir(m[0]),
                    "running_mean" in dir(m[1]), names == sorted(names)))
    assert got[0] == got[1]


# ---- a 0-d Parameter formats as its str, not its number; a Parameter's dtype message -----
@pytest.mark.parametrize("spec", ["", ".3f", "10"])
def test_zero_dim_parameter_format_as_pytorch(spec, torch_float64):
    said = []
    for L in (tg, torch_float64):
        out = []
        for t in (L.nn.Parameter(L.tensor(1.5)), L.tensor(1.5), L.tensor(2.0, requires_grad=True),
                  L.nn.Parameter(L.tensor(1.5), requires_grad=False)):
            try:
                out.append(format(t, spec).replace("torch.", ""))
            except TypeError as e:
                out.append(("TypeError", str(e)))
        said.append(out)
    assert said[0] == said[1]


def test_integer_parameter_refused_in_pytorchs_words(torch_float64):
    said = []
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            L.nn.Parameter(L.ones(2, dtype=L.long))
        said.append(str(info.value).split(" (got")[0])
    assert said[0] == said[1]
