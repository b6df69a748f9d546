"""PyTorch's answers where an argument has no derivative: losses that refuse class weights
(and soft margin's target) requiring grad, ops whose results require grad but whose backward
raises (heaviside, bincount's weights, histogram, unique), nextafter's gradient (input's
passes, other's is zero) and copysign's zero gradient to ``other``.  Each is compared with
torch's printout, error and gradients."""
import numpy as np
import pytest

import tapegrad as tg

X = np.array([[0.3, 0.6, 0.1], [0.2, 0.5, 0.9]])
P = np.array([[0.4, 0.7, 0.2], [0.3, 0.1, 0.8]])
W = np.array([0.5, 1.0, 2.0])
C2 = [2, 0]
C4 = [[[0, 1], [2, 0]], [[1, 1], [0, 2]]]


def _outcome(call, L):
    """What ``call`` gives: its loss and gradients, or its error (type and message), and
    whether the tape grew (nothing is left half-recorded by a refusal)."""
    x = L.tensor(X, requires_grad=True)
    x4 = L.tensor(np.arange(24.0).reshape(2, 3, 2, 2) / 10, requires_grad=True)
    w = L.tensor(W, requires_grad=True)
    p = L.tensor(P, requires_grad=True)
    try:
        loss = call(L, L.nn.functional, x, x4, w, p)
    except Exception as e:  # noqa: BLE001 (the error is what is compared)
        return type(e).__name__, str(e)
    loss.backward()
    return (round(float(loss.detach()), 12),
            [None if t.grad is None else np.round(t.grad.numpy(), 12).tolist()
             for t in (x, x4, w, p)])


LOSSES = {
    "nll_weight": lambda L, F, x, x4, w, p: F.nll_loss(x, L.tensor(C2), weight=w),
    "nll_1d_weight": lambda L, F, x, x4, w, p: F.nll_loss(x[0], L.tensor(2), weight=w),
    "nll_4d_weight": lambda L, F, x, x4, w, p: F.nll_loss(x4, L.tensor(C4), weight=w),
    "nll_3d_weight": lambda L, F, x, x4, w, p: F.nll_loss(x4[..., 0], L.tensor(C4)[..., 0],
                                                          weight=w),
    "ce_weight": lambda L, F, x, x4, w, p: F.cross_entropy(x, L.tensor(C2), weight=w),
    "ce_4d_weight": lambda L, F, x, x4, w, p: F.cross_entropy(x4, L.tensor(C4), weight=w),
    "ce_smooth_weight": lambda L, F, x, x4, w, p: F.cross_entropy(
        x, L.tensor(C2), weight=w, label_smoothing=0.1),
    "ce_detached_input": lambda L, F, x, x4, w, p: F.cross_entropy(x.detach(), L.tensor(C2),
                                                                   weight=w),
    # class probabilities: PyTorch composes this one, and its weight has a gradient
    "ce_probs_weight": lambda L, F, x, x4, w, p: F.cross_entropy(x, p.softmax(1), weight=w),
    "ce_plain_weight": lambda L, F, x, x4, w, p: F.cross_entropy(x, L.tensor(C2),
                                                                 weight=w.detach()),
    "bce_weight": lambda L, F, x, x4, w, p: F.binary_cross_entropy(x, p, weight=w),
    "bce_target": lambda L, F, x, x4, w, p: F.binary_cross_entropy(x, p),
    "bce_logits_weight": lambda L, F, x, x4, w, p: F.binary_cross_entropy_with_logits(
        x, p, weight=w),
    "bce_logits_pos_weight": lambda L, F, x, x4, w, p: F.binary_cross_entropy_with_logits(
        x, p, pos_weight=w),
    "bce_logits_target": lambda L, F, x, x4, w, p: F.binary_cross_entropy_with_logits(x, p),
    "multi_margin_weight": lambda L, F, x, x4, w, p: F.multi_margin_loss(x, L.tensor(C2),
                                                                         weight=w),
    "multi_margin_p2_weight": lambda L, F, x, x4, w, p: F.multi_margin_loss(
        x, L.tensor(C2), p=2, weight=w),
    "soft_margin_target": lambda L, F, x, x4, w, p: F.soft_margin_loss(x, p * 2 - 1),
    "soft_margin_detached": lambda L, F, x, x4, w, p: F.soft_margin_loss(x.detach(), p),
    "soft_margin_plain": lambda L, F, x, x4, w, p: F.soft_margin_loss(x, p.detach() * 2 - 1),
    "multilabel_soft_margin_weight": lambda L, F, x, x4, w, p: F.multilabel_soft_margin_loss(
        x, p, weight=w),
}


@pytest.mark.parametrize("name", list(LOSSES))
def test_losses_refuse_what_pytorch_cannot_differentiate(name, torch_float64):
    ours, theirs = (_outcome(LOSSES[name], L) for L in (tg, torch_float64))
    assert ours == theirs


@pytest.mark.parametrize("name", ["nll_weight", "bce_weight", "soft_margin_target",
                                  "multi_margin_weight", "bce_logits_pos_weight"])
def test_refused_losses_run_without_grad_mode_and_record_nothing(name):
    """Under no_grad the same call is a plain value; a refusal leaves the tape as it was."""
    x = tg.tensor(X, requires_grad=True)
    w = tg.tensor(W, requires_grad=True)
    p = tg.tensor(P, requires_grad=True)
    x4 = tg.tensor(np.zeros((2, 3, 2, 2)), requires_grad=True)
    with tg.no_grad():
        assert LOSSES[name](tg, tg.nn.functional, x, x4, w, p).grad_fn is None
    y = (x * 1.0).sum()  # (a live graph the refusal must not disturb)
    with pytest.raises(RuntimeError, match="is not differentiable with respect to argument"):
        LOSSES[name](tg, tg.nn.functional, x, x4, w, p)
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones_like(X))


V = np.array([0.3, 0.6, 1.7, 0.3, -0.0, 0.0])
DERIVATIVE_LESS = {
    "heaviside": lambda L, x, y: L.heaviside(x, y),
    "heaviside_values_only": lambda L, x, y: L.heaviside(x.detach(), y),
    "bincount": lambda L, x, y: L.bincount(L.tensor([0, 1, 1, 3, 0, 2]), weights=x),
    "histogram": lambda L, x, y: L.histogram(x, bins=2)[0],
    "histogram_edges": lambda L, x, y: L.histogram(x, bins=3).bin_edges,
    "histogram_weight": lambda L, x, y: L.histogram(x.detach(), bins=2, weight=y).hist,
    "unique": lambda L, x, y: L.unique(x),
    "unique_inverse": lambda L, x, y: L.unique(x, return_inverse=True, return_counts=True)[0],
    "unique_method": lambda L, x, y: x.unique(sorted=True),
    "unique_dim": lambda L, x, y: L.unique(x.view(3, 2), dim=0),
    "unique_consecutive": lambda L, x, y: L.unique_consecutive(x),
    "unique_consecutive_method": lambda L, x, y: x.unique_consecutive(return_counts=True)[0],
}


@pytest.mark.parametrize("name", list(DERIVATIVE_LESS))
def test_results_without_a_derivative_as_pytorch(name, torch_float64):
    """The value and its printout (grad_fn shown), then backward's error."""
    got = []
    for L in (tg, torch_float64):
        x = L.tensor(V, requires_grad=True)
        y = L.tensor(V[::-1].copy() + 1.0, requires_grad=True)
        out = DERIVATIVE_LESS[name](L, x, y)
        with pytest.raises((RuntimeError, NotImplementedError)) as err:
            out.sum().backward()
        got.append((repr(out), out.requires_grad, type(err.value).__name__, str(err.value)))
        with L.no_grad():
            assert not DERIVATIVE_LESS[name](L, x, y).requires_grad
    assert got[0] == got[1]


def test_derivative_less_results_of_plain_tensors_do_not_require_grad(torch_float64):
    for L in (tg, torch_float64):
        for call in DERIVATIVE_LESS.values():
            assert not call(L, L.tensor(V), L.tensor(V + 1.0)).requires_grad


EDGES = np.array([0.3, -0.0, 0.0, 1e-320, -np.inf, np.inf, np.nan, 1.0, 3.0])
TOWARD = np.array([1.0, 1.0, -1.0, 0.0, 0.0, np.inf, 1.0, np.nan, 3.0])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("other_grad", [False, True])
def test_nextafter_values_node_and_gradients(dtype, other_grad, torch_float64):
    got = []
    for L in (tg, torch_float64):
        x = L.tensor(EDGES.astype(dtype), requires_grad=True)
        y = L.tensor(TOWARD.astype(dtype), requires_grad=other_grad)
        out = L.nextafter(x, y)
        out.backward(L.tensor(np.linspace(1, 2, len(EDGES)).astype(dtype)))
        got.append((out.detach().numpy(), type(out.grad_fn).__name__, x.grad.numpy(),
                    None if y.grad is None else y.grad.numpy()))
    ours, theirs = got
    assert ours[0].tobytes() == theirs[0].tobytes()  # (bit for bit: signs of zero, NaN)
    assert ours[1] == theirs[1] == "NextafterBackward0"
    # the gradient passes where input != other (but where the input is infinite: ours is 0)
    finite = np.isfinite(EDGES) | np.isnan(EDGES)
    np.testing.assert_array_equal(ours[2][finite], theirs[2][finite])
    if other_grad:
        np.testing.assert_array_equal(ours[3], theirs[3])
    else:
        assert ours[3] is theirs[3] is None


def test_nextafter_broadcasts_and_number_other(torch_float64):
    got = []
    for L in (tg, torch_float64):
        x = L.tensor([[1.0], [2.0]], requires_grad=True)
        out = L.nextafter(x, L.tensor([0.0, 5.0, 1.0]))
        out.sum().backward()
        got.append((out.detach().numpy().tobytes(), x.grad.numpy().tolist()))
    assert got[0] == got[1]


def test_copysign_gives_other_a_zero_gradient(torch_float64):
    got = []
    for L in (tg, torch_float64):
        x = L.tensor([0.5, -1.5, 2.0, 0.0], requires_grad=True)
        y = L.tensor([-1.0, 2.0, -0.0, np.inf], requires_grad=True)
        out = L.copysign(x, y)
        out.sum().backward()
        got.append((repr(out), x.grad.numpy().tolist(), y.grad.numpy().tolist()))
    assert got[0] == got[1]


@pytest.mark.parametrize("name", ["heaviside_", "floor_divide_"])
def test_in_place_spellings_name_themselves_in_the_error(name, torch_float64):
    got = []
    for L in (tg, torch_float64):
        x = L.tensor([0.5, -1.0, 0.0], requires_grad=True)
        y = x * 1
        getattr(y, name)(L.tensor([0.7]))
        with pytest.raises(RuntimeError) as err:
            y.sum().backward()
        got.append((repr(y), y._version, str(err.value)))
    assert got[0] == got[1]


SAMPLERS = [("normal_", ()), ("normal_", (1.0, 2.0)), ("uniform_", ()), ("uniform_", (-1.0, 1.0)),
            ("bernoulli_", ()), ("bernoulli_", (0.3,)), ("exponential_", ()),
            ("random_", ()), ("random_", (5,)), ("random_", (1, 5)), ("cauchy_", ()),
            ("log_normal_", ()), ("geometric_", (0.5,)), ("fill_", (1.0,)), ("zero_", ())]


@pytest.mark.parametrize("name, args", SAMPLERS)
def test_in_place_draws_on_a_tensor_with_history_as_pytorch(name, args, torch_float64):
    """PyTorch's node, a zero gradient to what the tensor was (normal_ and uniform_ passed
    the whole gradient through), the version counter, and the leaf refusal."""
    got = []
    for L in (tg, torch_float64):
        x = L.tensor([0.2, 0.4, -0.3], requires_grad=True)
        y = x * 1
        getattr(y, name)(*args)
        node = type(y.grad_fn).__name__
        (y * L.tensor([2.0, 3.0, 4.0])).sum().backward()
        with pytest.raises(RuntimeError) as err:
            getattr(L.tensor([1.0], requires_grad=True), name)(*args)
        got.append((node, y._version, x.grad.tolist(), str(err.value)))
    assert got[0] == got[1]


@pytest.mark.parametrize("name, args", SAMPLERS[:-2])
def test_in_place_draws_under_no_grad_and_their_ranges(name, args):
    x = tg.tensor([0.2, 0.4, -0.3], requires_grad=True)
    with tg.no_grad():
        getattr(x, name)(*args)
    assert x.grad_fn is None and x.requires_grad and x._version == 1
    v = x.detach().numpy()
    if name == "uniform_":
        lo, hi = args or (0.0, 1.0)
        assert ((v >= lo) & (v < hi)).all()
    if name in ("bernoulli_", "random_"):
        assert (v == np.round(v)).all() and (v >= (args[0] if len(args) == 2 else 0)).all()


def test_normal_and_uniform_draw_as_nn_init_does():
    """The method and nn.init draw the same numbers from one seed (PyTorch's do too)."""
    for method, init in (("normal_", tg.nn.init.normal_), ("uniform_", tg.nn.init.uniform_)):
        tg.manual_seed(7)
        a = getattr(tg.empty(5), method)()
        tg.manual_seed(7)
        np.testing.assert_array_equal(a.numpy(), init(tg.empty(5)).numpy())


DRAWS = {
    "normal_mean": lambda L, p: L.normal(p, 1.0), "normal_both": lambda L, p: L.normal(p, p),
    "normal_std": lambda L, p: L.normal(0.0, p), "normal_detached_mean": lambda L, p: L.normal(
        p.detach(), p), "bernoulli": lambda L, p: L.bernoulli(p), "bernoulli_method": lambda L, p:
    p.bernoulli(), "bernoulli_p": lambda L, p: L.bernoulli(p, 0.5), "poisson": lambda L, p:
    L.poisson(p), "binomial": lambda L, p: L.binomial(p * 0 + 5, p),
}


def _edges(node):
    return [None if f is None else type(f).__name__ for f, _ in node.next_functions]


@pytest.mark.parametrize("name", list(DRAWS))
def test_draws_from_parameters_that_require_grad_as_pytorch(name, torch_float64):
    """The node (its name and edges) and a zero gradient, or backward's error."""
    got = []
    for L in (tg, torch_float64):
        p = L.tensor([0.2, 0.7], requires_grad=True)
        out = DRAWS[name](L, p)
        try:
            out.sum().backward()
            after = p.grad.tolist()
        except RuntimeError as e:
            after = str(e)
        got.append((out.requires_grad, type(out.grad_fn).__name__, out.grad_fn.name(),
                    _edges(out.grad_fn), after))
        with L.no_grad():
            assert not DRAWS[name](L, p).requires_grad
        with pytest.raises(RuntimeError, match="out=... arguments don't support"):
            L.normal(p, 1.0, out=L.empty(2))
    assert got[0] == got[1]


def test_draws_keep_their_values_and_plain_parameters_make_plain_draws():
    for seed in range(3):
        tg.manual_seed(seed)
        plain = tg.normal(tg.tensor([0.2, 0.7]), tg.tensor([1.0, 2.0]))
        tg.manual_seed(seed)
        drawn = tg.normal(tg.tensor([0.2, 0.7], requires_grad=True), tg.tensor([1.0, 2.0]))
        assert plain.grad_fn is None and not plain.requires_grad
        assert plain.numpy().tobytes() == drawn.detach().numpy().tobytes()


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("lengths", [[4, 3, 1], [1, 4, 3], [4, 4, 2]])
def test_packing_nodes_values_and_gradients_as_pytorch(batch_first, lengths, torch_float64):
    got = []
    for L in (tg, torch_float64):
        rnn = L.nn.utils.rnn
        x = L.tensor(np.arange(24.0).reshape(4, 3, 2) / 7, requires_grad=True)
        xi = x.transpose(0, 1) if batch_first else x
        sort = lengths == sorted(lengths, reverse=True)
        packed = rnn.pack_padded_sequence(xi, lengths, batch_first=batch_first,
                                          enforce_sorted=sort)
        out, lens = rnn.pad_packed_sequence(packed, batch_first=batch_first, total_length=5)
        w = L.tensor(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape)))
        (out * w).sum().backward()
        got.append((type(packed.data.grad_fn).__name__, type(out.grad_fn).__name__,
                    out.is_contiguous(), out.tolist(), lens.tolist(), x.grad.tolist()))
    assert got[0] == got[1]


@pytest.mark.parametrize("source", [[0.9, -0.4, 2.0], [], [[5.0]]])
@pytest.mark.parametrize("in_place", [False, True])
def test_masked_scatter_of_an_empty_mask_gives_source_a_zero_gradient(source, in_place,
                                                                      torch_float64):
    got = []
    for L in (tg, torch_float64):
        x = L.tensor([0.3, -0.0, 1.2], requires_grad=True)
        y = L.tensor(source, requires_grad=True)
        o = (x * 1).masked_scatter_(x > 10, y) if in_place else x.masked_scatter(x > 10, y)
        o.sum().backward()
        got.append((repr(o), x.grad.tolist(), y.grad.tolist()))
    assert got[0] == got[1]


HALF = 0.5  # (one float object: the constants below are the same object, as in user code)


def _shared_constant_programs(L):
    F = L.nn.functional
    return {
        "clamp_equal_bounds": lambda x: x.clamp(1.0, 1.0) * x,
        "clamp_after_same_constant": lambda x: (x * HALF).clamp(HALF, 2.0) * x,
        "clamp_min_after_same": lambda x: (x * HALF).clamp(min=HALF) + (x * HALF).clamp(max=HALF),
        "softplus_same_beta_threshold": lambda x: F.softplus(x, beta=HALF, threshold=HALF),
        "softplus_after_same_constant": lambda x: F.softplus(x * HALF, beta=HALF, threshold=20.0),
        "clamp_equal_plus": lambda x: x.clamp(HALF, HALF) + x * x,
    }


@pytest.mark.parametrize("name", list(_shared_constant_programs(tg)))
def test_constants_read_in_pairs_are_written_in_pairs(name, torch_float64):
    """clamp's and softplus's rows read two consecutive constants; the constant pool's reuse
    of the last float object left the second unwritten where both were one object
    (clamp(1.0, 1.0): an index past the pool, read unchecked by compiled code): values,
    gradients and Hessian-vector products against torch, and replay against eager."""
    xs = np.array([-2.0, -0.25, 0.5, 0.75, 3.0])
    got = []
    for L in (tg, torch_float64):
        f = _shared_constant_programs(L)[name]
        x = L.tensor(xs, requires_grad=True)
        y = f(x).sum()
        (g,) = L.autograd.grad(y, x, create_graph=True)
        h = None  # (g of a clamp alone is constant: it requires no grad, as PyTorch's)
        if g.requires_grad:
            (h,) = L.autograd.grad((g * L.tensor(np.linspace(1, 2, 5))).sum(), x,
                                   allow_unused=True)
        got.append((float(y), g.tolist(), None if h is None else h.tolist()))
    np.testing.assert_allclose(got[0][0], got[1][0], rtol=1e-14)
    np.testing.assert_allclose(got[0][1], got[1][1], rtol=1e-14)
    np.testing.assert_allclose(got[0][2] or np.zeros(5), got[1][2] or np.zeros(5), atol=1e-14)
    f = _shared_constant_programs(tg)[name]
    c = tg.compile(lambda x: f(x).sum())
    for p in (xs, xs[::-1] * 0.7, xs + 0.1):
        x = tg.tensor(p, requires_grad=True)
        y = f(x).sum()
        y.backward()
        v, g = c.value_and_grad(p)
        np.testing.assert_allclose(v, float(y), rtol=1e-14)
        np.testing.assert_allclose(g, x.grad.numpy(), rtol=1e-14)
