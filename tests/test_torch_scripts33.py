"""Differences from PyTorch found by the scripts s1501 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- a node's register_hook: one grad_input per next_functions edge (None for x * 2) -----
MAKERS = [lambda x: x * 2, lambda x: x + 1, lambda x: x - 3.0, lambda x: x / 4,
          lambda x: x * x, lambda x: x * x.detach(), lambda x: x.exp()]
RETURNS = [lambda gi, go: None, lambda gi, go: tuple(None if g is None else g * 10 for g in gi),
           lambda gi, go: (gi[0] * 10,)]


@pytest.mark.parametrize("ret", range(len(RETURNS)))
@pytest.mark.parametrize("make", range(len(MAKERS)))
def test_node_post_hook_sees_an_entry_per_edge(make, ret, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = MAKERS[make](x)
        seen = []

        def hook(gi, go):
            seen.append([None if g is None else g.tolist() for g in gi])
            return RETURNS[ret](gi, go)
        y.grad_fn.register_hook(hook)
        try:
            y.sum().backward()
            said = None
        except RuntimeError as e:
            said = str(e)
        got.append((len(y.grad_fn.next_functions), seen, said,
                    None if x.grad is None else x.grad.tolist()))
    assert got[0] == got[1]


# ---- grid_sample: PyTorch's one node, a result of its own (no view of an intermediate) ----
@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("dims", [2, 3])
@pytest.mark.parametrize("which", [(True, True), (True, False), (False, True)])
def test_grid_sample_node_and_result_as_pytorch(mode, dims, which, torch_float64):
    torch = torch_float64
    if mode == "bicubic" and dims == 3:
        return
    got = []
    for L in (tg, torch):
        img = L.tensor(np.linspace(-1, 1, 2 * 3 ** dims).reshape(1, 2, *[3] * dims),
                       requires_grad=which[0])
        grid = L.tensor(np.linspace(-0.9, 0.8, 4 * dims).reshape(1, *[2] * (dims - 1), 2, dims)
                        if dims == 2 else
                        np.linspace(-0.9, 0.8, 8 * dims).reshape(1, 2, 2, 2, dims),
                        requires_grad=which[1])
        y = L.nn.functional.grid_sample(img, grid, mode=mode, align_corners=False)
        grads = L.autograd.grad(y.pow(2).sum(), [t for t in (img, grid) if t.requires_grad])
        got.append((type(y.grad_fn).__name__,
                    [None if f is None else type(f).__name__ for f, _ in y.grad_fn.next_functions],
                    y._is_view(), y._base is None, y.is_contiguous(), y.detach().numpy(),
                    [g.numpy() for g in grads]))
    assert got[0][:5] == got[1][:5]
    np.testing.assert_allclose(got[0][5], got[1][5], rtol=1e-12, atol=1e-14)
    for ours, theirs in zip(got[0][6], got[1][6], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


# ---- an index out of bounds: PyTorch's message (an int by its place in the key, a tensor by
# its place among the tensor indices), no more ------------------------------------------
KEYS = [lambda L: (L.tensor([5]),), lambda L: (5,), lambda L: (1, 3), lambda L: (slice(None), 7),
        lambda L: (slice(None), slice(None), L.tensor([5])),
        lambda L: (slice(None), L.tensor([0]), L.tensor([5])),
        lambda L: (L.tensor([0]), slice(None), L.tensor([5])),
        lambda L: (0, slice(None), L.tensor([5])), lambda L: (Ellipsis, L.tensor([5])),
        lambda L: (None, slice(None), L.tensor([5])), lambda L: (L.tensor([0]), L.tensor([7])),
        lambda L: (slice(None), [0, 5]), lambda L: (None, 1, 5), lambda L: (None, 1, None, 2, 9),
        lambda L: (Ellipsis, 9), lambda L: (0, Ellipsis, -9), lambda L: (0, 0, 0, 0),
        lambda L: (L.tensor([[True, False, True], [True, True, True]]), L.tensor([9])),
        lambda L: (slice(None), L.tensor([True, False, True]), L.tensor([5])),
        lambda L: (L.tensor([0]), 1, L.tensor([9]))]


@pytest.mark.parametrize("how", ["get", "set", "index_put_"])
@pytest.mark.parametrize("key", range(len(KEYS)))
def test_index_out_of_bounds_message_as_pytorch(key, how, torch):
    said = []
    for L in (tg, torch):
        x, k = L.zeros(2, 3, 4), KEYS[key](L)
        if how == "index_put_" and not all(isinstance(i, L.Tensor) for i in k):
            return
        with pytest.raises(IndexError) as info:
            if how == "get":
                x[k]
            elif how == "set":
                x[k] = 1.0
            else:
                x.index_put_(k, L.tensor(1.0))
        said.append(str(info.value))
    assert said[0] == said[1]


@pytest.mark.parametrize("dim, index", [(0, [[5]]), (1, [[0], [-1]]), (1, [[9], [0]])])
def test_gather_out_of_bounds_message_as_pytorch(dim, index, torch):
    said = []
    for L in (tg, torch):
        with pytest.raises(RuntimeError) as info:
            L.zeros(3, 4).gather(dim, L.tensor(index))
        said.append(str(info.value))
    assert said[0] == said[1]


# ---- the orthogonal parametrization's map: PyTorch's enum ---------------------------------
@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4)])
@pytest.mark.parametrize("kind", [None, "matrix_exp", "cayley", "householder"])
def test_orthogonal_map_is_pytorchs_enum(kind, shape, torch):
    got = []
    for L in (tg, torch):
        lin = L.nn.Linear(shape[1], shape[0])
        L.nn.utils.parametrizations.orthogonal(lin, orthogonal_map=kind)
        m = lin.parametrizations.weight[0].orthogonal_map
        got.append((str(m), repr(m), m.name, m.value, type(m).__name__))
    assert got[0] == got[1]


# ---- lstsq's residuals: on PyTorch's node, with gradients to A and B ----------------------
@pytest.mark.parametrize("driver", [None, "gelsy", "gelsd", "gelss", "gels"])
@pytest.mark.parametrize("vector", [False, True])
@pytest.mark.parametrize("grads", [(True, True), (True, False), (False, True)])
def test_lstsq_residuals_node_and_gradients_as_pytorch(driver, vector, grads, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        A = L.tensor([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.5]], requires_grad=grads[0])
        B = L.tensor([[1.0, 2.0], [0.0, 1.0], [2.0, -1.0], [1.0, 0.5]], requires_grad=grads[1])
        b = B[:, 0] if vector else B
        r = L.linalg.lstsq(A, b, driver=driver).residuals
        row = [r.requires_grad, None if r.grad_fn is None else r.grad_fn.name(), r.detach().numpy()]
        if r.numel():
            leaves = [t for t in (A, B) if t.requires_grad]
            row += [g.numpy() for g in L.autograd.grad((r * L.arange(1.0, r.numel() + 1)).sum(),
                                                      leaves)]
        got.append(row)
    assert got[0][:2] == got[1][:2]
    for ours, theirs in zip(got[0][2:], got[1][2:], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def test_lstsq_driver_message_as_pytorch(torch):
    said = []
    for L in (tg, torch):
        with pytest.raises(RuntimeError) as info:
            L.linalg.lstsq(L.ones(3, 2), L.ones(3, 1), driver="gesvd")
        said.append(str(info.value))
    assert said[0] == said[1]


# ---- a negative-ord vector norm: PyTorch's node, gradient 0 (not nan) where an entry is 0 --
@pytest.mark.parametrize("ord", [-1, -2, -0.5, -3])
@pytest.mark.parametrize("values", [[3.0, -4.0, 0.0, 1.0], [0.0, 0.0], [2.0, -1.0],
                                    [[1.0, 0.0], [2.0, 3.0]]])
@pytest.mark.parametrize("dim", [None, -1])
def test_negative_ord_vector_norm_gradient_as_pytorch(ord, values, dim, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        x = L.tensor(values, requires_grad=True)
        n = L.linalg.vector_norm(x, ord, dim=dim)
        (g,) = L.autograd.grad(n.sum(), x, create_graph=True)
        (h,) = L.autograd.grad(g.sum(), x, allow_unused=True, materialize_grads=True)
        got.append((n.grad_fn.name(), n.detach().numpy(), g.detach().numpy(), h.numpy()))
    assert got[0][0] == got[1][0]
    for ours, theirs in zip(got[0][1:3], got[1][1:3], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=0)


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool", "uint8"])
@pytest.mark.parametrize("call", [lambda L, x: L.linalg.vector_norm(x), lambda L, x: L.norm(x),
                                  lambda L, x: x.norm(p=1), lambda L, x: L.linalg.norm(x),
                                  lambda L, x: L.linalg.vector_norm(x, float("inf"))])
def test_norm_of_integers_message_as_pytorch(dtype, call, torch):
    said = []
    for L in (tg, torch):
        with pytest.raises(RuntimeError) as info:
            call(L, L.tensor([1, 0], dtype=getattr(L, dtype)))
        said.append(str(info.value))
    assert said[0] == said[1]


# ---- fft2/fftn/ifft2/ifftn of a real input: PyTorch makes it complex (FftC2CBackward0) ----
@pytest.mark.parametrize("name", ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn"])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_nd_fft_of_real_input_node_and_gradient_as_pytorch(name, norm, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        x = L.tensor(np.linspace(-1, 2, 12).reshape(3, 4), requires_grad=True)
        y = getattr(L.fft, name)(x, norm=norm)
        w = L.tensor(np.linspace(0.5, 1.5, 12).reshape(3, 4))
        (g,) = L.autograd.grad((y.real * w).sum() + (y.imag * w.flip(0)).sum(), x)
        got.append((y.grad_fn.name(), L.view_as_real(y.detach().resolve_conj()).numpy(), g.numpy()))
    assert got[0][0] == got[1][0]
    for ours, theirs in zip(got[0][1:], got[1][1:], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


# ---- small wordings and names: a complex output's implicit gradient, fold, ndtr ----------
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("call", [lambda L, z: z.sum().backward(),
                                  lambda L, z: L.autograd.grad(z.sum(), z),
                                  lambda L, z: (z * 2).backward(),
                                  lambda L, z: L.autograd.backward(z.sum())])
def test_implicit_gradient_of_complex_output_message_as_pytorch(dtype, call, torch):
    said = []
    for L in (tg, torch):
        z = L.tensor([1 + 1j, 2 - 1j], dtype=getattr(L, dtype), requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            call(L, z)
        said.append(str(info.value))
    assert said[0] == said[1]


def test_fold_indivisible_channels_message_as_pytorch(torch):
    said = []
    for L in (tg, torch):
        with pytest.raises(RuntimeError) as info:
            L.nn.functional.fold(L.ones(1, 5, 4), (3, 3), 2)
        said.append(str(info.value))
    assert said[0] == said[1]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_ndtr_node_name_and_gradient_as_pytorch(dtype, torch):
    got = []
    for L in (tg, torch):
        x = L.tensor([-2.0, 0.3, 1.0], dtype=getattr(L, dtype), requires_grad=True)
        y = L.special.ndtr(x)
        (g,) = L.autograd.grad(y.sum(), x)
        got.append((y.grad_fn.name(), g.numpy()))
    assert got[0][0] == got[1][0]
    np.testing.assert_allclose(got[0][1], got[1][1], rtol=1e-6)


# ---- Beta and Dirichlet modes (clamped, one-hot where all a < 1), Beta checked as Dirichlet --
CONCS = [(2.0, 5.0), (0.5, 2.0), (0.5, 0.5), (3.0, 0.7), (1.0, 1.0), ([2.0, 0.5], [3.0, 0.2])]


@pytest.mark.parametrize("a, b", CONCS)
def test_beta_and_dirichlet_mode_as_pytorch(a, b, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        c1 = L.tensor(a, requires_grad=True)
        m = L.distributions.Beta(c1, L.tensor(b)).mode
        d = L.distributions.Dirichlet(L.stack([c1, L.tensor(b)], -1)).mode
        got.append((m.grad_fn.name(), m.detach().numpy(), d.detach().numpy()))
    assert got[0][0] == got[1][0]
    for ours, theirs in zip(got[0][1:], got[1][1:], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-14)


@pytest.mark.parametrize("a, b", [(-1.0, 1.0), (1.0, 0.0), ([1.0, -2.0], [1.0, 1.0])])
def test_beta_argument_check_message_as_pytorch(a, b, torch_float64):
    torch = torch_float64
    said = []
    for L in (tg, torch):
        with pytest.raises(ValueError) as info:
            L.distributions.Beta(L.tensor(a), L.tensor(b))
        said.append(str(info.value))
    assert said[0] == said[1]


def test_inverse_transform_type_name_as_pytorch(torch):
    names = [type(L.distributions.transforms.SigmoidTransform().inv).__name__ for L in (tg, torch)]
    assert names[0] == names[1]


# ---- masked_fill's non-bool mask and mean of integers: PyTorch's words, no more ----------
@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8", "float32",
                                   "float64", "float16"])
@pytest.mark.parametrize("how", ["masked_fill", "masked_fill_"])
def test_masked_fill_non_bool_mask_message_as_pytorch(dtype, how, torch):
    said = []
    for L in (tg, torch):
        with pytest.raises(RuntimeError) as info:
            getattr(L.zeros(3), how)(L.tensor([1, 0, 1], dtype=getattr(L, dtype)), 0.0)
        said.append(str(info.value))
    assert said[0] == said[1]


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool", "uint8", "int8"])
@pytest.mark.parametrize("dim", [None, 0])
def test_mean_of_integers_message_as_pytorch(dtype, dim, torch):
    said = []
    for L in (tg, torch):
        x = L.tensor([1, 0], dtype=getattr(L, dtype))
        with pytest.raises(RuntimeError) as info:
            x.mean() if dim is None else x.mean(dim)
        said.append(str(info.value))
    assert said[0] == said[1]


# ---- scaled_dot_product_attention with a mask and is_causal: both apply (PyTorch's CPU) ----
@pytest.mark.parametrize("kind", ["bool", "float", "float_neg_inf"])
@pytest.mark.parametrize("keys", [3, 2, 4])
def test_sdpa_mask_and_causal_combine_as_pytorch(kind, keys, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        q = L.tensor(np.linspace(-1, 1, 24).reshape(1, 2, 3, 4), requires_grad=True)
        k = L.tensor(np.linspace(1, -1, 8 * keys).reshape(1, 2, keys, 4), requires_grad=True)
        v = L.tensor(np.arange(8.0 * keys).reshape(1, 2, keys, 4) / 10)
        m = np.arange(3 * keys).reshape(3, keys) % 3
        mask = (L.tensor(m != 1) if kind == "bool" else
                L.tensor(m * 0.5 - 0.5) if kind == "float" else
                L.tensor(np.where(m == 2, -np.inf, m * 0.3)))
        o = L.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask,
                                                         is_causal=True)
        got.append([o.detach().numpy()] + [g.numpy() for g in L.autograd.grad(
            (o * o).sum(), [q, k])])
    for ours, theirs in zip(got[0], got[1], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("shapes, kw", [
    (((1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4)), {}),
    (((2, 3, 4), (2, 3, 4), (2, 3, 4)), {}),
    (((1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 5)), {}),
    (((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4)), {}),
    (((1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4)), {"dropout_p": 0.5}),
    (((1, 4, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4)), {"enable_gqa": True}),
    (((2, 1, 2, 3, 4), (2, 1, 2, 3, 4), (2, 1, 2, 3, 4)), {})])
def test_sdpa_mask_and_causal_refused_where_pytorch_refuses(shapes, kw, torch_float64):
    torch = torch_float64
    said = []
    for L in (tg, torch):
        q, k, v = (L.ones(s) for s in shapes)
        try:
            L.nn.functional.scaled_dot_product_attention(
                q, k, v, attn_mask=L.ones(shapes[0][-2], shapes[1][-2], dtype=L.bool),
                is_causal=True, **kw)
            said.append(None)
        except RuntimeError as e:
            said.append(str(e))
    assert said[0] == said[1]


# ---- load_state_dict(assign=True) puts the state_dict's tensors in place -----------------
@pytest.mark.parametrize("bias_grad", [True, False])
@pytest.mark.parametrize("as_parameter", [True, False])
def test_load_state_dict_assign_as_pytorch(bias_grad, as_parameter, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        net = L.nn.Sequential(L.nn.Linear(2, 2), L.nn.BatchNorm1d(2))
        net[0].bias.requires_grad_(bias_grad)
        sd = {k: v.clone() * 0 + 1 for k, v in net.state_dict().items()}
        w = L.ones(2, 2) * 3
        sd["0.weight"] = L.nn.Parameter(w, requires_grad=False) if as_parameter else w
        old = [net[0].weight, net[0].bias, net[1].running_mean]
        keys = net.load_state_dict(sd, assign=True)
        now = [net[0].weight, net[0].bias, net[1].running_mean]
        got.append(([a is b for a, b in zip(old, now, strict=True)],
                    [now[0] is sd["0.weight"], now[2] is sd["1.running_mean"]],
                    [type(t).__name__ for t in now], [t.requires_grad for t in now],
                    net(L.ones(3, 2)).sum().item(), list(keys.missing_keys)))
    assert got[0] == got[1]


# ---- Tensor.broadcast_to takes sizes apart or as size=, as PyTorch's method --------------
@pytest.mark.parametrize("call", [lambda L, x: x.broadcast_to((2, 3, 2)),
                                  lambda L, x: x.broadcast_to(2, 3, 2),
                                  lambda L, x: x.broadcast_to(size=(3, 2)),
                                  lambda L, x: L.broadcast_to(x, size=[3, 4]),
                                  lambda L, x: x.broadcast_to([-1, 5]),
                                  lambda L, x: x.broadcast_to(L.Size([3, 4]))])
def test_broadcast_to_sizes_as_pytorch(call, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        x = L.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
        y = call(L, x)
        (g,) = L.autograd.grad((y * 2).sum(), x)
        got.append((tuple(y.shape), y.tolist(), g.tolist(), y.grad_fn.name()))
    assert got[0] == got[1]


def test_cross_entropy_target_out_of_bounds_message_as_pytorch(torch):
    said = []
    for L in (tg, torch):
        with pytest.raises(IndexError) as info:
            L.nn.functional.cross_entropy(L.zeros(2, 3), L.tensor([0, 3]))
        said.append(str(info.value))
    assert said[0] == said[1]


# ---- a generator's state holds its seed: set_state and fork_rng bring initial_seed back ----
def test_rng_state_restores_initial_seed_as_pytorch(torch):
    got = []
    for L in (tg, torch):
        L.manual_seed(5)
        s = L.get_rng_state()
        L.manual_seed(9)
        L.set_rng_state(s)
        first = L.initial_seed()
        L.manual_seed(123)
        with L.random.fork_rng():
            L.manual_seed(0)
        g = L.Generator().manual_seed(3)
        st = g.get_state()
        g.manual_seed(4)
        g.set_state(st)
        got.append((first, L.initial_seed(), g.initial_seed()))
    assert got[0] == got[1]


# ---- a convolution function's bad padding string: RuntimeError in PyTorch's words ---------
@pytest.mark.parametrize("fn, shape, kw", [
    ("conv1d", (1, 1, 5), {"padding": "same", "stride": 2}),
    ("conv2d", (1, 1, 5, 5), {"padding": "same", "stride": (1, 2)}),
    ("conv3d", (1, 1, 4, 4, 4), {"padding": "full"}),
    ("conv2d", (1, 1, 5, 5), {"padding": "full"})])
def test_conv_function_padding_string_error_as_pytorch(fn, shape, kw, torch):
    said = []
    for L in (tg, torch):
        x, w = L.ones(shape), L.ones((1, 1) + (3,) * (len(shape) - 2))
        with pytest.raises(Exception) as info:
            getattr(L.nn.functional, fn)(x, w, **kw)
        said.append((type(info.value).__name__, str(info.value)))
    assert said[0] == said[1]


def test_conv_layer_same_padding_stride_error_as_pytorch(torch):
    said = []
    for L in (tg, torch):
        with pytest.raises(ValueError) as info:
            L.nn.Conv2d(1, 1, 3, padding="same", stride=2)
        said.append(str(info.value))
    assert said[0] == said[1]


# ---- implicit gradient of a non-scalar output: PyTorch's words, no more ------------------
@pytest.mark.parametrize("call", [lambda L, y, x: y.backward(),
                                  lambda L, y, x: L.autograd.grad(y, x),
                                  lambda L, y, x: L.autograd.backward([y])])
def test_implicit_gradient_of_non_scalar_message_as_pytorch(call, torch_float64):
    torch = torch_float64
    said = []
    for L in (tg, torch):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            call(L, x * 2, x)
        said.append(str(info.value))
    assert said[0] == said[1]
