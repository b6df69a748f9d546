"""Parity with PyTorch 2.13 (session 38): index dtypes and negative indices of the index_*
and scatter ops, any/all of uint8, uint8 keys as masks, and bool tensors into the ops whose
kernels refuse them."""
import operator
import warnings

import numpy as np
import pytest
import torch

import tapegrad as tg


@pytest.fixture(autouse=True)
def _float64(torch_float64):
    """torch's default dtype float64 (tapegrad's) in these tests only (conftest.py)."""


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = fn()
        except Exception as e:  # noqa: BLE001 (the error is the outcome compared)
            return type(e).__name__, str(e)
    # (values as their repr: NaN equals NaN there)
    return "ok", [(str(v.dtype).split(".")[-1], repr(v.tolist()))
                  for v in (r if isinstance(r, tuple) else (r,))]


def _same(case, table):
    assert _outcome(lambda: table[case](tg)) == _outcome(lambda: table[case](torch))


# ---- index ops: index dtypes, negative indices ---------------------------------------------
def _x(T):
    return T.arange(6.0).reshape(3, 2)


def _ix(T, dt, v=(0, 1)):
    return T.tensor(list(v), dtype=getattr(T, dt))


_INDEX = {
    "index_add(-1)": lambda T: _x(T).index_add(0, T.tensor([0, -1]), T.ones(2, 2)),
    "index_add_(-1)": lambda T: _x(T).index_add_(0, T.tensor([-1]), T.ones(1, 2)),
    "index_add(-4)": lambda T: _x(T).index_add(0, T.tensor([-4]), T.ones(1, 2)),
    "index_copy(-1)": lambda T: _x(T).index_copy(0, T.tensor([0, -1]), T.ones(2, 2)),
    "index_fill(-1)": lambda T: _x(T).index_fill(0, T.tensor([0, -1]), 7.0),
    "index_fill(-4)": lambda T: _x(T).index_fill(0, T.tensor([-4]), 7.0),
    "index_reduce(-1)": lambda T: _x(T).index_reduce(0, T.tensor([-1]), T.ones(1, 2), "amax"),
    "index_reduce(3)": lambda T: _x(T).index_reduce(0, T.tensor([3]), T.ones(1, 2), "amax"),
    "index_select(-1)": lambda T: _x(T).index_select(0, T.tensor([-1])),
    "index_add 2-d index": lambda T: _x(T).index_add(0, T.tensor([[0]]), T.ones(1, 2)),
    "scatter(float index)": lambda T: _x(T).scatter(1, T.tensor([[0.0]]), 1.0),
    "uint8 key": lambda T: _x(T)[T.tensor([1, 0, 1], dtype=T.uint8)],
    "uint8 key, dim 1": lambda T: _x(T)[:, T.tensor([0, 1], dtype=T.uint8)],
}
for _dt in ("int8", "int16", "int32", "uint8", "float32"):
    _INDEX.update({
        f"gather[{_dt}]": lambda T, d=_dt: _x(T).gather(1, _ix(T, d).reshape(1, 2)),
        f"scatter[{_dt}]": lambda T, d=_dt: _x(T).scatter(1, _ix(T, d).reshape(1, 2),
                                                          T.ones(1, 2)),
        f"scatter_[{_dt}]": lambda T, d=_dt: _x(T).scatter_(1, _ix(T, d).reshape(1, 2), 5.0),
        f"scatter_add[{_dt}]": lambda T, d=_dt: _x(T).scatter_add(1, _ix(T, d).reshape(1, 2),
                                                                  T.ones(1, 2)),
        f"scatter_reduce[{_dt}]": lambda T, d=_dt: _x(T).scatter_reduce(
            1, _ix(T, d).reshape(1, 2), T.ones(1, 2), "amax"),
        f"index_select[{_dt}]": lambda T, d=_dt: _x(T).index_select(0, _ix(T, d)),
        f"index_add[{_dt}]": lambda T, d=_dt: _x(T).index_add(0, _ix(T, d), T.ones(2, 2)),
        f"index_copy[{_dt}]": lambda T, d=_dt: _x(T).index_copy(0, _ix(T, d), T.ones(2, 2)),
        f"index_fill[{_dt}]": lambda T, d=_dt: _x(T).index_fill(0, _ix(T, d), 7.0),
        f"index_reduce[{_dt}]": lambda T, d=_dt: _x(T).index_reduce(0, _ix(T, d), T.ones(2, 2),
                                                                    "prod"),
        f"take[{_dt}]": lambda T, d=_dt: _x(T).take(_ix(T, d)),
        f"put[{_dt}]": lambda T, d=_dt: _x(T).put(_ix(T, d), T.ones(2)),
        f"index_put[{_dt}]": lambda T, d=_dt: _x(T).index_put((_ix(T, d),), T.ones(1)),
        f"take_along_dim[{_dt}]": lambda T, d=_dt: T.take_along_dim(
            _x(T), _ix(T, d).reshape(1, 2), 1),
    })
    if _dt != "uint8":  # (a uint8 key is a mask: above)
        _INDEX[f"x[{_dt}]"] = lambda T, d=_dt: _x(T)[_ix(T, d)]


@pytest.mark.parametrize("case", sorted(_INDEX))
def test_index_dtypes_and_negative_indices_are_torchs(case):
    _same(case, _INDEX)


def test_uint8_key_warns_as_torch():
    for T in (tg, torch):
        with pytest.warns(UserWarning, match="indexing with dtype torch.uint8 is now deprecated"):
            _x(T)[T.tensor([1, 0, 1], dtype=T.uint8)]


def test_int32_index_gradients_are_int64s():
    got = []
    for dt in ("int32", "int64"):
        x = tg.arange(6.0).reshape(3, 2).requires_grad_()
        i = _ix(tg, dt, (2, 0))
        y = x.scatter_add(0, i.reshape(2, 1), x[:2, :1] * 3) + x.index_add(0, i, x[1:] * 2)
        got.append(tg.autograd.grad(y.pow(2).sum(), x)[0].tolist())
    assert got[0] == got[1]


# ---- any/all: uint8 for a uint8 input ------------------------------------------------------
_TRUTH = {}
for _dt in ("uint8", "int8", "int64", "float64", "bool"):
    _TRUTH.update({
        f"any[{_dt}]": lambda T, d=_dt: T.tensor([0, 2, 3], dtype=getattr(T, d)).any(),
        f"all[{_dt}]": lambda T, d=_dt: T.tensor([0, 2, 3], dtype=getattr(T, d)).all(),
        f"any(0, keepdim)[{_dt}]": lambda T, d=_dt: T.any(
            T.tensor([[0, 2], [0, 0]], dtype=getattr(T, d)), 0, keepdim=True),
        f"all(-1)[{_dt}]": lambda T, d=_dt: T.tensor([[1, 2], [0, 1]],
                                                     dtype=getattr(T, d)).all(-1),
        f"all(empty)[{_dt}]": lambda T, d=_dt: T.tensor([], dtype=getattr(T, d)).all(),
    })


@pytest.mark.parametrize("case", sorted(_TRUTH))
def test_any_all_dtypes_are_torchs(case):
    _same(case, _TRUTH)


# ---- bool tensors into ops PyTorch's kernels refuse, or compute ----------------------------
def _b(T):
    return T.tensor([True, False, True])


_BOOL = {
    "abs": lambda T: T.abs(_b(T)), "absolute": lambda T: T.absolute(_b(T)),
    "abs()": lambda T: abs(_b(T)), "abs_": lambda T: _b(T).abs_(),
    "floor": lambda T: T.floor(_b(T)), "ceil": lambda T: _b(T).ceil(),
    "floor_": lambda T: _b(T).floor_(),
    "round": lambda T: T.round(_b(T)), "round(decimals=1)": lambda T: T.round(_b(T), decimals=1),
    "relu": lambda T: T.relu(_b(T)), "F.relu": lambda T: T.nn.functional.relu(_b(T)),
    "nn.ReLU": lambda T: T.nn.ReLU()(_b(T)),
    "positive": lambda T: T.positive(_b(T)), "+b": lambda T: +_b(T),
    "median": lambda T: _b(T).median(), "median(0)": lambda T: _b(T).median(0),
    "nanmedian": lambda T: _b(T).nanmedian(), "nanmedian(0)": lambda T: _b(T).nanmedian(0),
    "kthvalue": lambda T: _b(T).kthvalue(1),
    "argmax": lambda T: _b(T).argmax(), "argmin(0)": lambda T: T.argmin(_b(T), 0),
    "isfinite": lambda T: _b(T).isfinite(), "isinf": lambda T: T.isinf(_b(T)),
    "logit": lambda T: T.logit(_b(T)), "logit(eps)": lambda T: T.logit(_b(T), eps=0.25),
    "logit(uint8)": lambda T: T.logit(T.tensor([1, 2, 0], dtype=T.uint8)),
    "logit(int64)": lambda T: T.logit(T.tensor([1, 2, 0])),
    # what still works: integers, and bools where PyTorch takes them
    "abs(int)": lambda T: T.abs(T.tensor([-1, 2])), "floor(int)": lambda T: T.tensor([3]).floor(),
    "relu(int)": lambda T: T.relu(T.tensor([-1, 2])), "+int": lambda T: +T.tensor([1]),
    "argmax(uint8)": lambda T: T.tensor([1, 3], dtype=T.uint8).argmax(),
    "sign(b)": lambda T: _b(T).sign(), "exp(b)": lambda T: _b(T).exp(),
    "isfinite(int)": lambda T: T.tensor([1, 2]).isfinite(),
    "abs(0-d b)": lambda T: T.tensor(True).abs(),
}


@pytest.mark.parametrize("case", sorted(_BOOL))
def test_bool_operands_are_torchs(case):
    _same(case, _BOOL)


# ---- float16: a number over a tensor, comparisons with a 0-d float tensor -------------------
def _halves():
    rng = np.random.default_rng(38)
    return np.concatenate([rng.uniform(-100, 100, 500), rng.uniform(-1, 1, 500),
                           [65504.0, 6e-5, 1e-7, 0.0, -0.0, np.inf, 0.1, 1 / 3]]).astype("float16")


@pytest.mark.parametrize("c", [0.1, 1.7, 1 / 3, 3, 1e-3, 7.0, -2.5])
def test_number_over_half_is_torchs(c):
    """PyTorch: c times the reciprocal rounded to half, in float32, rounded once."""
    v = _halves()
    got = (c / tg.tensor(v)).numpy()
    want = (c / torch.tensor(v)).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("left", [False, True])
@pytest.mark.parametrize("op", ["eq", "ne", "lt", "le", "gt", "ge"])
@pytest.mark.parametrize("dts", [("float16", "float32"), ("float16", "float64"),
                                 ("float32", "float64"), ("float32", "float16")])
def test_compare_with_0d_float_tensor_is_torchs(dts, op, left):
    v = np.concatenate([_halves(), [np.float32(0.1), np.float32(1 / 3), 0.1]])
    out = []
    for T in (tg, torch):
        x = T.tensor(v.astype(dts[0]))
        fn = getattr(operator, op)
        for c in (0.1, 1 / 3, float(np.float32(0.1))):
            s = T.tensor(c, dtype=getattr(T, dts[1]))
            out.append((fn(s, x) if left else fn(x, s)).tolist())
    assert out[:3] == out[3:]


# ---- x ** 0 and x ** 1 under create_graph ---------------------------------------------------
def _pow_create_graph(T, e):
    x = T.tensor([1.0, -2.0, 0.0], requires_grad=True)
    g, = T.autograd.grad((x ** e).sum(), x, create_graph=True)
    out = [g.tolist(), g.requires_grad]
    if g.requires_grad:
        out.append(T.autograd.grad(g.sum(), x, allow_unused=True)[0].tolist())
    return out


@pytest.mark.parametrize("e", [0, 0.0, 1, 1.0, 2, 3])
def test_pow_create_graph_gradient_at_exponents_zero_and_one_is_torchs(e):
    """x ** 0's was "unused" (an error), x ** 1's did not require grad."""
    assert _pow_create_graph(tg, e) == _pow_create_graph(torch, e)


# ---- a custom Function inside torch.func transforms ---------------------------------------
def _function(T, kind):
    if kind == "ctx forward":
        class Double(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        return Double

    class Double(T.autograd.Function):
        generate_vmap_rule = kind == "generate_vmap_rule"

        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 2

        @staticmethod
        def jvp(ctx, t):
            return t * 2

    if kind == "vmap rule":
        Double.vmap = staticmethod(lambda info, in_dims, x: (x * 2, in_dims[0]))
    return Double


_TRANSFORMS = {"vmap": lambda T, f: T.func.vmap(f), "jacfwd": lambda T, f: T.func.jacfwd(f),
               "jacrev": lambda T, f: T.func.jacrev(f),
               "grad": lambda T, f: T.func.grad(lambda x: f(x).sum()),
               "vjp": lambda T, f: (lambda x: T.func.vjp(f, x)[0]),
               "jvp": lambda T, f: (lambda x: T.func.jvp(f, (x,), (x,))[1]),
               "vmap(grad)": lambda T, f: T.func.vmap(T.func.grad(lambda x: f(x).sum())),
               "none": lambda T, f: f}


@pytest.mark.parametrize("transform", sorted(_TRANSFORMS))
@pytest.mark.parametrize("kind", ["ctx forward", "setup_context", "generate_vmap_rule",
                                  "vmap rule"])
def test_custom_function_under_transforms_is_torchs(kind, transform):
    def run(T):
        return _TRANSFORMS[transform](T, _function(T, kind).apply)(T.ones(3) * 1.5)
    got, want = _outcome(lambda: run(tg)), _outcome(lambda: run(torch))
    assert got == want


# ---- integer and bool inputs to nn.functional ops -------------------------------------------
def _ints(T):
    return T.tensor([[1, 2], [0, 1]])


def _F(T):
    return T.nn.functional


_NN = {
    "gelu": lambda T: _F(T).gelu(_ints(T)), "gelu(b)": lambda T: _F(T).gelu(_b(T)),
    "leaky_relu": lambda T: _F(T).leaky_relu(_ints(T)), "silu(b)": lambda T: _F(T).silu(_b(T)),
    "elu": lambda T: _F(T).elu(_ints(T)), "selu": lambda T: _F(T).selu(_ints(T)),
    "mish": lambda T: _F(T).mish(_ints(T)), "hardswish": lambda T: _F(T).hardswish(_ints(T)),
    "hardsigmoid": lambda T: _F(T).hardsigmoid(_ints(T)), "glu": lambda T: _F(T).glu(_ints(T)),
    "hardshrink": lambda T: _F(T).hardshrink(_ints(T)),
    "softshrink": lambda T: _F(T).softshrink(_ints(T)),
    "softplus": lambda T: _F(T).softplus(_ints(T)), "softplus(b)": lambda T: _F(T).softplus(_b(T)),
    "logsigmoid": lambda T: _F(T).logsigmoid(_ints(T)),
    "hardtanh(b)": lambda T: _F(T).hardtanh(_b(T)), "relu6(b)": lambda T: _F(T).relu6(_b(T)),
    "threshold(b)": lambda T: _F(T).threshold(_b(T), 0, 0),
    "layer_norm": lambda T: _F(T).layer_norm(_ints(T), (2,)),
    "group_norm": lambda T: _F(T).group_norm(_ints(T)[None], 1),
    "nll_loss": lambda T: _F(T).nll_loss(_ints(T), T.tensor([0, 1])),
    "cross_entropy": lambda T: _F(T).cross_entropy(_ints(T), T.tensor([0, 1])),
    "cross_entropy 3-d": lambda T: _F(T).cross_entropy(_ints(T)[None], T.tensor([[0, 1]])),
    "binary_cross_entropy": lambda T: _F(T).binary_cross_entropy(_ints(T), _ints(T)),
    "bce_with_logits": lambda T: _F(T).binary_cross_entropy_with_logits(_ints(T), _ints(T)),
    "kl_div": lambda T: _F(T).kl_div(_ints(T), _ints(T)),
    "soft_margin_loss": lambda T: _F(T).soft_margin_loss(_ints(T), _ints(T)),
    "hinge_embedding_loss": lambda T: _F(T).hinge_embedding_loss(_ints(T), _ints(T)),
    "normalize": lambda T: _F(T).normalize(_ints(T)),
    "dropout": lambda T: _F(T).dropout(_ints(T), 0.5),
    "dropout(b)": lambda T: _F(T).dropout(_b(T), 0.5),
    "dropout(p=0)": lambda T: _F(T).dropout(_ints(T), 0.0),
    "dropout(eval)": lambda T: _F(T).dropout(_ints(T), 0.5, training=False),
    "alpha_dropout": lambda T: _F(T).alpha_dropout(_ints(T), 0.5, True),
}


@pytest.mark.parametrize("case", sorted(_NN))
def test_nn_functional_integer_inputs_are_torchs(case):
    _same(case, _NN)


# ---- out= of a reduction: computed in out's dtype -------------------------------------------
_OUT = {}
for _name in ("sum", "prod", "cumsum", "cumprod"):
    for _dt in ("int64", "int32", "float32", "float64"):
        for _src in ("float", "int"):
            _OUT[f"{_name}[{_src} into {_dt}]"] = lambda T, n=_name, d=_dt, s=_src: getattr(T, n)(
                T.tensor([[1.7, 2.6], [-0.5, 0.5]]) if s == "float" else T.tensor([[1, 2], [3, 4]]),
                1, out=T.empty((2, 2) if n.startswith("cum") else (2,), dtype=getattr(T, d)))


@pytest.mark.parametrize("case", sorted(_OUT))
def test_reduction_into_out_of_another_dtype_is_torchs(case):
    _same(case, _OUT)


# ---- rand_like / randn_like of an integer or bool tensor ------------------------------------
_LIKE = {"rand_like(int)": lambda T: T.rand_like(T.tensor([1, 2])),
         "randn_like(int32)": lambda T: T.randn_like(T.tensor([1], dtype=T.int32)),
         "rand_like(bool)": lambda T: T.rand_like(T.tensor([True])),
         "rand_like(int, dtype=float32)": lambda T: T.rand_like(T.tensor([1]),
                                                                dtype=T.float32).dtype,
         "randn_like(float16)": lambda T: T.randn_like(T.ones(2, dtype=T.float16)).dtype}


@pytest.mark.parametrize("case", sorted(_LIKE))
def test_random_like_of_integers_is_torchs(case):
    def outcome(T):
        try:
            return "ok", str(_LIKE[case](T))
        except Exception as e:  # noqa: BLE001 (the error is the outcome compared)
            return type(e).__name__, str(e)
    assert outcome(tg) == outcome(torch)
