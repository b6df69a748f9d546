"""Differences from PyTorch found by the scripts s260-s279 (tests/torch_scripts/) and the
torchapi19 brief, each against PyTorch: floor division's missing derivative, the nodes of
fill_/zero_ and of a bidirectional RNN's output, torch's qualified class names in messages,
module item assignment and get_* errors, a post-accumulate hook stepping in place,
remove_parametrizations, slogdet's sign, tensor() of data with no dtype, and forward mode
through linalg.inv/det/slogdet."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _node(t):
    return None if t.grad_fn is None else type(t.grad_fn).__name__


def _nexts(t):
    return [None if f is None else type(f).__name__ for f, _ in t.grad_fn.next_functions]


# ---- x // y has no derivative (torch.div(rounding_mode="floor") has: zero) ----------------
def _floor_cases(L):
    x = L.tensor([5.0, -3.0, 0.5], requires_grad=True)
    d = L.tensor([2.0, 2.0, -0.25])
    return x, [x // 2, 7.0 // x, L.floor_divide(x, d), x.floor_divide(d), x // x,
               x.float() // 3]


def test_floor_divide_has_no_derivative_as_pytorchs(torch_float64):
    x, ours = _floor_cases(tg)
    xt, theirs = _floor_cases(torch_float64)
    for y, yt in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(np.asarray(y.detach()), yt.detach().numpy())
        assert str(y.dtype) == str(yt.dtype)
        assert (_node(y), _nexts(y)) == (_node(yt), _nexts(yt)) == (
            "NotImplemented", _nexts(yt))
        for lib_y, lib_x in ((y, x), (yt, xt)):
            with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not "
                                                   "implemented"):
                (lib_y * lib_x.detach()).sum().backward()
            assert lib_x.grad is None
    for lib in (tg, torch_float64):  # in place on a non-leaf, as its out-of-place op
        z = lib.tensor([5.0, -3.0], requires_grad=True).clone()
        z //= 2
        assert (_node(z), _nexts(z)) == ("NotImplemented", ["CloneBackward0"])
        assert z.tolist() == [2.0, -2.0]
    # no grad: a plain result
    assert _node(tg.tensor([5.0]) // 2) is None
    with tg.no_grad():
        assert _node(x // 2) is None


def test_div_floor_rounding_keeps_its_zero_gradient(torch_float64):
    grads = []
    for L in (tg, torch_float64):
        x = L.tensor([5.0, -3.0], requires_grad=True)
        y = L.div(x, 2, rounding_mode="floor")
        assert _node(y) == "DivBackward2"
        (y * x).sum().backward()
        grads.append(x.grad.tolist())
    assert grads[0] == grads[1]


def test_floor_division_still_compiles_and_replays():
    def f(a):
        return ((a // 0.5) * a).sum()
    c = tg.compile(f)
    for v in ([1.3, -0.7, 2.2], [0.2, 0.9, -3.1]):
        x = tg.tensor(v)
        want = (np.floor(np.array(v) / 0.5) * np.array(v)).sum()
        np.testing.assert_allclose(float(c(x)), want, rtol=1e-14)
        # its gradient refuses, as eager's backward and PyTorch's do (replay gave the
        # other factor's, d/da = floor(a / 0.5), until the trace knew; tests/test_replay35)
        with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not "
                                               "implemented"):
            c.value_and_grad(tg.tensor(v, requires_grad=True))


# ---- fill_ and zero_ show PyTorch's nodes -------------------------------------------------
def _fills(L):
    x = L.tensor([5.0, -3.0], requires_grad=True)
    v = L.tensor(2.0, requires_grad=True)
    ys = [x.clone().zero_(), x.clone().fill_(0), x.clone().fill_(2.5), x.clone().fill_(v),
          L.zeros(2).fill_(v)]
    (ys[3] * L.tensor([1.0, 3.0])).sum().backward()
    return ys, (x.grad.tolist(), v.grad.tolist())


def test_fill_and_zero_nodes_as_pytorchs(torch_float64):
    (ours, g), (theirs, gt) = _fills(tg), _fills(torch_float64)
    for y, yt in zip(ours, theirs, strict=True):
        assert (_node(y), _nexts(y)) == (_node(yt), _nexts(yt))
        assert y.tolist() == yt.tolist()
    assert g == gt


# ---- a bidirectional RNN's output is PyTorch's CatBackward0 --------------------------------
@pytest.mark.parametrize("mode", ["LSTM", "GRU", "RNN"])
@pytest.mark.parametrize("batch_first", [False, True])
def test_bidirectional_rnn_output_node_and_gradient(torch_float64, mode, batch_first):
    outs = []
    for L in (tg, torch_float64):
        L.manual_seed(0)
        m = getattr(L.nn, mode)(3, 4, num_layers=2, bidirectional=True,
                                batch_first=batch_first)
        with L.no_grad():
            for i, p in enumerate(m.parameters()):
                p.copy_(L.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (-1) ** i)
        x = L.linspace(-1.0, 1.0, 30).reshape(5, 2, 3).requires_grad_()
        o, _ = m(x)
        (o * L.linspace(0.0, 1.0, o.numel()).reshape(o.shape)).sum().backward()
        outs.append((_node(o), o.detach().numpy() if L is not tg else np.asarray(o.detach()),
                     np.asarray(x.grad.tolist())))
    (n, o, g), (nt, ot, gt) = outs
    assert n == nt
    np.testing.assert_allclose(o, ot, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(g, gt, rtol=1e-10, atol=1e-13)


# ---- messages name classes by PyTorch's qualified names (torch.typename) -------------------
def _message(fn, L):
    try:
        fn(L)
    except Exception as e:  # (the messages compared)
        return type(e).__name__, str(e)
    return None


_MODULE_MESSAGES = [
    lambda L: L.optim.SGD(L.nn.Sequential(L.nn.Linear(2, 2)), lr=0.1),
    lambda L: L.optim.Adam(L.zeros(2, requires_grad=True), lr=0.1),
    lambda L: setattr(L.nn.Sequential(L.nn.Linear(2, 2)), "0", L.zeros(2)),
    lambda L: setattr(L.nn.Linear(2, 2), "weight", 3),
    lambda L: L.nn.Linear(2, 2).register_buffer("b", 3),
    lambda L: L.nn.Linear(2, 2).register_parameter("p", L.zeros(2)),
]


@pytest.mark.parametrize("case", range(len(_MODULE_MESSAGES)))
def test_module_and_optimizer_messages_name_torchs_classes(torch_float64, case):
    fn = _MODULE_MESSAGES[case]
    want = _message(fn, torch_float64)
    assert want is not None and _message(fn, tg) == want


@pytest.mark.parametrize("make", [
    lambda L: L.nn.Sequential(), lambda L: L.nn.Linear(2, 3), lambda L: L.nn.LSTM(2, 3),
    lambda L: L.nn.ReLU(), lambda L: L.nn.BatchNorm1d(3), lambda L: L.nn.MSELoss(),
    lambda L: L.nn.Conv2d(1, 1, 3), lambda L: L.nn.ModuleList(), lambda L: L.nn.Dropout(),
    lambda L: L.nn.MultiheadAttention(4, 2), lambda L: L.nn.Module(),
    lambda L: L.nn.TransformerEncoderLayer(4, 2), lambda L: L.nn.Embedding(3, 2),
    lambda L: L.nn.LayerNorm(3), lambda L: L.nn.Flatten(), lambda L: L.nn.Linear])
def test_typename_of_layers_as_pytorchs(torch_float64, make):
    assert tg.typename(make(tg)) == torch_float64.typename(make(torch_float64))


def test_layer_classes_keep_their_own_module_for_pickle():
    import pickle
    m = tg.nn.Sequential(tg.nn.Linear(2, 1))
    assert type(m).__module__.startswith("tapegrad.")
    again = pickle.loads(pickle.dumps(m))
    assert type(again) is tg.nn.Sequential and type(again[0]) is tg.nn.Linear


def test_typename_of_a_users_layer_is_its_own(torch_float64):
    names = []
    for L in (tg, torch_float64):
        class Net(L.nn.Module):
            pass
        names.append(L.typename(Net()))
    assert names[0] == names[1] and names[0].endswith("Net")


def test_sequential_and_module_list_item_assignment_messages(torch_float64):
    def seq(L):
        L.nn.Sequential(L.nn.Linear(2, 2))[0] = L.zeros(2)

    def lst(L):
        L.nn.ModuleList([L.nn.Linear(2, 2)])[-1] = 3
    for fn in (seq, lst):
        want = _message(fn, torch_float64)
        assert want is not None and _message(fn, tg) == want
    for L in (tg, torch_float64):  # None and a module still replace the item
        m = L.nn.Sequential(L.nn.Linear(2, 2), L.nn.ReLU())
        m[1] = L.nn.Tanh()
        m[0] = None
        assert [type(c).__name__ for c in m._modules.values()] == ["NoneType", "Tanh"]


# ---- the nodes of PyTorch's own ops made by a Function print as PyTorch's ----------------
def test_builtin_node_reprs_have_no_python_class_path(torch_float64):
    for L in (tg, torch_float64):
        x = L.tensor([3.0], requires_grad=True)
        assert repr((x // 2).grad_fn).startswith("<NotImplemented object at 0x")
        assert repr(L.lgamma(x).grad_fn).startswith("<LgammaBackward0 object at 0x")

        class Twice(L.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                return t * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        assert repr(Twice.apply(x).grad_fn).startswith(
            "<torch.autograd.function.TwiceBackward object at 0x")


# ---- a post-accumulate-grad hook may step the parameter in place (PyTorch's fused step) --
def _hooked_steps(L):
    w = L.tensor([1.0, 2.0], requires_grad=True)
    seen = []

    def step(p):
        seen.append(p.grad.tolist())
        with L.no_grad():
            p.add_(p.grad, alpha=-0.1)
        p.grad = None
    h = w.register_post_accumulate_grad_hook(step)
    for _ in range(3):
        (w ** 2 * L.tensor([1.0, 3.0])).sum().backward()
    h.remove()
    return seen, w.tolist()


def test_post_accumulate_hook_steps_in_place_as_pytorchs(torch_float64):
    (seen, w), (seen_t, w_t) = _hooked_steps(tg), _hooked_steps(torch_float64)
    np.testing.assert_allclose(seen, seen_t, rtol=1e-14)
    np.testing.assert_allclose(w, w_t, rtol=1e-14)


def test_modified_saved_value_before_backward_still_raises(torch_float64):
    for L in (tg, torch_float64):
        w = L.tensor([1.0, 2.0], requires_grad=True)
        w.register_post_accumulate_grad_hook(lambda p: None)
        y = w * 1
        z = (y ** 2).sum()
        with L.no_grad():
            y.add_(1.0)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            z.backward()


# ---- remove_parametrizations of a multi-tensor parametrization leaves a Parameter -----------
def test_weight_norm_removed_leaves_a_parameter(torch_float64):
    outs = []
    for L in (tg, torch_float64):
        lin = L.nn.Linear(3, 2)
        with L.no_grad():
            lin.weight.copy_(L.tensor([[1.0, 2.0, 2.0], [0.0, 3.0, 4.0]]))
        m = L.nn.utils.parametrizations.weight_norm(lin)
        L.nn.utils.parametrize.remove_parametrizations(m, "weight")
        outs.append((type(m.weight).__name__, m.weight.requires_grad, m.weight.grad_fn,
                     sorted(n for n, _ in m.named_parameters()), m.weight.tolist()))
    assert outs[0][:4] == outs[1][:4] == ("Parameter", True, None, ["bias", "weight"])
    np.testing.assert_allclose(outs[0][4], outs[1][4], rtol=1e-14)


def test_slogdet_sign_requires_grad_as_pytorchs(torch_float64):
    for L in (tg, torch_float64):
        A = L.tensor([[2.0, 1.0], [1.0, -3.0]], requires_grad=True)
        sign, lad = L.linalg.slogdet(A)
        assert sign.requires_grad and _node(sign) == _node(lad) == "LinalgSlogdetBackward0"
        assert sign.item() == -1.0
        (sign + lad).backward()
        g = np.asarray(A.grad.tolist())
        np.testing.assert_allclose(g, np.linalg.inv([[2.0, 1.0], [1.0, -3.0]]).T,
                                   rtol=1e-14)


@pytest.mark.parametrize("target", ["0.bias.x", "0.x", "1", "0.weight", "x.y", "0", "b"])
def test_get_submodule_and_parameter_messages(torch_float64, target):
    for get in ("get_submodule", "get_parameter", "get_buffer"):
        def fn(L):
            m = L.nn.Sequential(L.nn.Linear(2, 2), None)
            m.register_buffer("b", L.zeros(1))
            return getattr(m, get)(target)
        want = _message(fn, torch_float64)
        assert want is None or _message(fn, tg) == want


@pytest.mark.parametrize("make", [
    lambda L: object(), lambda L: [object()], lambda L: {"a": 1}, lambda L: "abc",
    lambda L: [1, "a"], lambda L: None, lambda L: [None], lambda L: {1, 2},
    lambda L: [[1, 2], [3, None]], lambda L: L.nn.Linear(2, 2)])
def test_tensor_of_uninferable_data_raises_as_pytorch(torch_float64, make):
    def fn(L):
        L.tensor(make(L))
    want = _message(fn, torch_float64)
    assert want is not None and _message(fn, tg) == want


# ---- forward mode through linalg.inv, det, slogdet (and what is built on them) -------------
_MATS = [[[2.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 4.0]],
         [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]],  # (singular: det's cofactors)
         [[-1.0, 0.2, 0.0], [0.3, 2.0, 1.0], [0.0, 1.0, -2.0]]]


@pytest.mark.parametrize("op", ["inv_batch", "det", "slogdet", "logdet", "inverse"])
def test_linalg_forward_mode_as_pytorchs(torch_float64, op):
    fns = {"inv_batch": lambda L, a: L.linalg.inv(a[::2]), "det": lambda L, a: L.linalg.det(a),
           "slogdet": lambda L, a: L.linalg.slogdet(a[::2])[1],
           "logdet": lambda L, a: L.logdet(a[:1]), "inverse": lambda L, a: L.inverse(a[2])}
    tan = np.linspace(-1.0, 1.0, 27).reshape(3, 3, 3)
    got = []
    for L in (tg, torch_float64):
        fw = L.autograd.forward_ad
        with fw.dual_level():
            d = fw.make_dual(L.tensor(_MATS), L.tensor(tan))
            got.append(np.asarray(fw.unpack_dual(fns[op](L, d)).tangent.tolist()))
    # (det at the singular matrix against PyTorch's only where its LU leaves a nonzero
    # pivot: with an exact zero, as its AVX-512 kernels give, its tangent reads 0, not
    # the adjugate's; the central differences below check ours there)
    keep = slice(None) if op != "det" or got[1][1] != 0 else [0, 2]
    np.testing.assert_allclose(got[0][keep], got[1][keep], rtol=1e-10, atol=1e-12)
    # and against central differences of the values
    a, h = np.array(_MATS), 1e-6
    f = lambda m: np.asarray(fns[op](tg, tg.tensor(m)).tolist())  # noqa: E731
    np.testing.assert_allclose(got[0], (f(a + h * tan) - f(a - h * tan)) / (2 * h),
                               rtol=1e-6, atol=1e-7)


def test_slogdet_sign_tangent_is_zero():
    fw = tg.autograd.forward_ad
    with fw.dual_level():
        d = fw.make_dual(tg.tensor(_MATS[0]), tg.ones(3, 3))
        sign, _ = tg.linalg.slogdet(d)
        t = fw.unpack_dual(sign).tangent
    assert t is None or t.tolist() == 0.0
