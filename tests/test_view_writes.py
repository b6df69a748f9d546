"""In-place ops on views write through to their base, as in PyTorch (ops/views.py): each
program runs in tapegrad and in torch (float64) and every printed value and gradient must
agree; the refusals carry PyTorch's message."""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad.ops import views

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def _torch_float64():
    """torch's default dtype float64 for these tests only (torch.tensor of Python floats, as
    tapegrad's), restored after each."""
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(old)


def _plain_views(T):
    x = T.arange(12.0).reshape(3, 4)
    out = []
    x[0].fill_(5)
    out.append(x.clone())
    x.view(-1).add_(1)
    out.append(x.clone())
    x.t()[0].fill_(7)  # a row of a transpose: two views deep
    out.append(x.clone())
    x[:, 1].zero_()  # a column: not contiguous
    out.append(x.clone())
    x.diagonal().fill_(-1)
    out.append(x.clone())
    x[1:, 2:].mul_(3)
    out.append(x.clone())
    x.T[3] = 9.0  # setitem on a view
    out.append(x.clone())
    a, b = x.chunk(2, dim=1)
    b.sub_(1)
    out.append(x.clone())
    for row in x.unbind(0):
        row[0] += 100  # setitem of a 0-d view's sum
    out.append(x.clone())
    x.narrow(1, 1, 2).clamp_(max=4)
    out.append(x.clone())
    x.select(1, 3).neg_()
    out.append(x.clone())
    x.unsqueeze(0).permute(2, 0, 1)[1].exp_()
    out.append(x.clone())
    x.flatten()[::5].copy_(T.zeros(3))
    out.append(x.clone())
    x[..., 0].add_(x[..., 1])
    out.append(x.clone())
    return out


def _grad_views(T):
    w = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    c = T.tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -2.0]])
    y = w * c
    y[0].mul_(0)
    y.t()[1].mul_(10)
    y[:, 2].add_(w[:, 0] ** 2)
    y.diagonal().sigmoid_()
    z = y * 2
    z.view(-1)[1:4].pow_(2)
    (y.sum() + z.sum()).backward()
    return [y.detach().clone(), z.detach().clone(), w.grad.clone()]


def _no_grad_init(T):
    torch_like = T
    lstm = torch_like.nn.LSTM(3, 4)
    h = 4
    with torch_like.no_grad():
        lstm.bias_ih_l0[h:2 * h].fill_(1.0)  # the forget-gate bias idiom
        lstm.weight_hh_l0[:, 0].zero_()
        lstm.weight_ih_l0.t()[0].mul_(0.0)
    # (the random draws differ between the libraries: only the written parts are compared)
    return [lstm.bias_ih_l0.detach()[h:2 * h].clone(), lstm.weight_hh_l0.detach()[:, 0].clone(),
            lstm.weight_ih_l0.detach()[:, 0].clone()]


def _stale_view(T):
    a = T.zeros(4)
    v = a[1:3]
    a.add_(1)  # a changes after v was taken: v's op starts from a's values
    v.add_(1)
    p = T.ones(4, requires_grad=True)
    b = p * 1
    u = b[1:3]
    b.mul_(3)
    u.add_(1)
    b.sum().backward()
    return [a.clone(), v.clone(), b.detach().clone(), u.detach().clone(), p.grad.clone()]


def _float32_scalar_views(T):
    x = T.zeros(2, 3, dtype=T.float32)
    x[1, 2].add_(5)
    x[0][1].fill_(2)
    y = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True) * 1
    y[1, 1].mul_(3)  # a 0-d float64 view: the scalar in-place path
    return [x.clone(), y.detach().clone()]


@pytest.mark.parametrize("program", [_plain_views, _grad_views, _no_grad_init, _stale_view,
                                     _float32_scalar_views])
def test_matches_torch(program):
    got, want = program(tg), program(torch)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(np.asarray(g.tolist()), w.numpy(), rtol=1e-12, atol=0,
                                   err_msg=f"{program.__name__}: value {i}")


def test_view_of_a_leaf_that_requires_grad_is_refused_and_left_unchanged():
    for T in (tg, torch):
        w = T.ones(2, 3, requires_grad=True)
        for op in (lambda: w[0].mul_(2), lambda: w.t()[0].fill_(1), lambda: w[:, 1].zero_(),
                   lambda: w.view(-1).add_(1)):
            with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires "
                                                   "grad is being used in an in-place"):
                op()
        assert w.detach().sum().item() == 6.0


def test_base_and_is_view():
    x = tg.zeros(3, 4)
    v = x.t()[1]
    assert v._is_view() and views.root(v) is x and v._base is x
    assert not x._is_view() and x._base is None
    assert not x.flip(0)._is_view()  # flip copies in PyTorch too


def test_a_view_records_one_put_row_on_its_base():
    w = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = w * 2
    y[1:].mul_(w[:2])
    assert y.tolist() == [2.0, 4.0, 12.0]
    y.sum().backward()
    assert w.grad.tolist() == [2.0 + 4.0, 2.0 * 1 + 6.0, 4.0]


def test_views_that_copy_in_pytorch_do_not_write_through():
    x = tg.arange(4.0)
    x.flip(0).fill_(9)
    x.repeat(2).fill_(9)
    x.clone().fill_(9)
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0]


def _chain(T, x, rng):
    """A random chain of PyTorch view ops on x (each a view there), recorded as its steps."""
    v = x
    for _ in range(rng.integers(1, 4)):
        nd = v.ndim
        choice = rng.integers(0, 7)
        if nd == 0:
            v = v.unsqueeze(0)
        elif choice == 0 and nd >= 2:
            v = v.t() if nd == 2 else v.transpose(0, nd - 1)
        elif choice == 1 and v.shape[0] > 1:
            v = v[int(rng.integers(0, v.shape[0]))]
        elif choice == 2:
            n = v.shape[-1]
            a = int(rng.integers(0, n))
            v = v[..., a:n]
        elif choice == 3 and nd >= 2:
            v = v.diagonal()
        elif choice == 4:
            v = v.unsqueeze(int(rng.integers(0, nd + 1)))
        elif choice == 5 and nd >= 2:
            v = v.permute(*reversed(range(nd)))
        else:
            v = v.narrow(0, 0, max(1, v.shape[0] - 1))
    return v


_OPS = [lambda v, T: v.mul_(-2.0), lambda v, T: v.add_(1.5), lambda v, T: v.fill_(3.0),
        lambda v, T: v.zero_(), lambda v, T: v.sigmoid_(), lambda v, T: v.copy_(v * v)]


def _random_program(T, seed, grad):
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(1, 5, size=rng.integers(1, 4)))
    leaf = T.tensor(rng.standard_normal(shape), requires_grad=grad)
    x = leaf * 1.0 if grad else leaf
    v = _chain(T, x, rng)
    _OPS[rng.integers(0, len(_OPS))](v, T)
    out = [v.detach().clone()]  # (read before w's op: a view read after its base changed
    w = _chain(T, x, rng)  # shows old values here, docs/limits.md)
    _OPS[rng.integers(0, len(_OPS))](w, T)
    out.append(x.detach().clone())
    if grad:
        try:
            (x * T.arange(x.numel()).reshape(x.shape)).sum().backward()
        except RuntimeError as e:  # copy_(v * v) saved v, then changed it: both refuse
            assert "modified by an inplace operation" in str(e)
            return out, "refused"
        out.append(leaf.grad.clone())
    return out, "ran"


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("grad", [False, True])
def test_random_view_chains_match_torch(seed, grad):
    """A random chain of views of a non-leaf (or of a plain tensor), a random in-place op on
    its end, then another chain and op: the view, the base and the leaf's gradient (or the
    refusal of the backward) as torch's."""
    (got, how), (want, how_torch) = _random_program(tg, seed, grad), \
        _random_program(torch, seed, grad)
    # torch shares one version counter between a view and its base, so a change of x after
    # sigmoid_ saved the view is refused there; tapegrad holds a copy of the saved value and
    # runs (docs/limits.md, "Modified after saved"): then the values before it are compared
    assert how == how_torch or (how, how_torch) == ("ran", "refused")
    for i, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(np.asarray(g.tolist()), w.numpy(), rtol=1e-12, atol=1e-15,
                                   err_msg=f"seed {seed}: value {i}")


# ---- out[t] = h in a loop: writes in place into the tape's slot (ops/shape.py put) --------
# (T, B, H) below has at least LAZY_MIN elements, so x's values are kept aside and every write
# after the first goes into x's own slot; each program runs in both libraries.
_T, _B, _H = 6, 32, 32


def _fill(T, w, x, between=None):
    """Fill out[t] = tanh(h @ w) row by row; ``between(out, t)`` runs after each write and
    returns a tensor added to the loss (reads of the values of that moment)."""
    out = T.zeros(_T, _B, _H)
    h, extra = x, 0.0
    for t in range(_T):
        h = T.tanh(h @ w)
        out[t] = h
        if between is not None:
            extra = extra + between(out, t)
    return out, extra


def _leaves(T, dtype=np.float64):
    rng = np.random.default_rng(3)
    w = T.tensor((rng.standard_normal((_H, _H)) * 0.3).astype(dtype), requires_grad=True)
    x = T.tensor(rng.standard_normal((_B, _H)).astype(dtype), requires_grad=True)
    return w, x


def _in_place_rows(t):
    return len(t._tok.tape.in_place or {})


@pytest.mark.parametrize("between", [None, "sum", "exp", "row", "scaled"])
def test_row_fill_matches_torch(between):
    fns = {None: None,
           "sum": lambda out, t: out.sum() * 0.1,  # reads no values: kept aside, in place
           "exp": lambda out, t: out.exp().sum() * 0.01,  # saves its result only
           "row": lambda out, t: out[max(t - 1, 0)].sum() * 0.3,  # a row (saves nothing)
           "scaled": lambda out, t: (out * 0.5).pow(2).sum()}  # pow reads out's copy
    got = []
    for T in (tg, torch):
        w, x = _leaves(T)
        out, extra = _fill(T, w, x, fns[between])
        loss = (out ** 3).sum() + extra
        gw, gx, gout = T.autograd.grad(loss, (w, x, out), retain_graph=True)
        loss.backward()
        got.append([out.detach().numpy(), gw.numpy(), gx.numpy(), gout.numpy(),
                    w.grad.numpy(), x.grad.numpy()])
        if T is tg and between in (None, "sum", "exp", "row"):
            assert _in_place_rows(out) == 1
    for a, b in zip(*got):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_row_fill_float32_and_retain_graph():
    got = []
    for T in (tg, torch):
        w, x = _leaves(T, np.float32)
        out = T.zeros(_T, _B, _H, dtype=T.float32)
        h = x
        for t in range(_T):
            h = T.tanh(h @ w)
            out[t] = h
        loss = (out ** 2).sum()
        loss.backward(retain_graph=True)
        loss.backward()  # the slot's adjoints are rebuilt from the same rows
        got.append((w.grad.numpy(), x.grad.numpy(), out.dtype))
    np.testing.assert_allclose(got[0][0], got[1][0], rtol=2e-4, atol=1e-4)
    np.testing.assert_allclose(got[0][1], got[1][1], rtol=2e-4, atol=1e-4)
    assert str(got[0][2]).endswith("float32")


def test_row_fill_second_order_matches_torch():
    got = []
    for T in (tg, torch):
        w, x = _leaves(T)
        out, extra = _fill(T, w, x, lambda out, t: out.sum() * 0.1)
        loss = (out ** 2).sum() + extra
        gw, gout = T.autograd.grad(loss, (w, out), create_graph=True)
        (gw.pow(2).sum() + (gout ** 2).sum()).backward()
        got.append([gw.detach().numpy(), gout.detach().numpy(), w.grad.numpy(),
                    x.grad.numpy()])
    for a, b in zip(*got):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-11)


def test_row_fill_grad_of_earlier_values_only():
    """A loss of the values before the last writes: they are not swept, and the tensor's
    present values are unused, as in torch."""
    got = []
    for T in (tg, torch):
        w, x = _leaves(T)
        out = T.zeros(_T, _B, _H)
        h, s = x, None
        for t in range(_T):
            h = T.tanh(h @ w)
            out[t] = h
            if t == 2:
                s = (out.sum(0) ** 2).sum() if T is torch else out.sum(0).pow(2).sum()
        gw, gout = T.autograd.grad(s, (w, out), allow_unused=True)
        got.append((gw.numpy(), gout))
    np.testing.assert_allclose(got[0][0], got[1][0], rtol=1e-10)
    assert got[0][1] is None and got[1][1] is None


def test_row_fill_hooks_and_retain_grad_see_the_present_values():
    got = []
    for T in (tg, torch):
        w, x = _leaves(T)
        out, _ = _fill(T, w, x)
        seen = []
        out.register_hook(lambda g: seen.append(g.clone()) or g * 2)
        out.retain_grad()
        s = out.sum() * 0.5
        (s * s + (out ** 2).sum()).backward()
        got.append([seen[0].numpy(), out.grad.numpy(), w.grad.numpy()])
    for a, b in zip(*got):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_row_fill_version_error_when_the_old_values_were_saved():
    """sin saves its input: the next write cannot overwrite it, and backward refuses as
    torch does; exp saves its output only, so its backward runs in both."""
    for T in (tg, torch):
        w, x = _leaves(T)
        out = T.zeros(_T, _B, _H)
        out[0] = T.tanh(x @ w)
        y = out.sin()
        out[1] = T.tanh(x @ w)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            (y.sum() + out.sum()).backward()


def test_row_fill_through_views_matches_torch():
    got = []
    for T in (tg, torch):
        w, x = _leaves(T)
        out = T.zeros(_T, _B, _H)
        h = x
        for t in range(_T):
            h = T.tanh(h @ w)
            if t % 3 == 0:
                out[t].copy_(h)
            elif t % 3 == 1:
                out.view(_T, -1)[t] = h.reshape(-1)
            else:
                out[t, :, 1:] = h[:, 1:]
        ((out ** 2).sum()).backward()
        got.append([out.detach().numpy(), w.grad.numpy(), x.grad.numpy()])
    for a, b in zip(*got):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_row_fill_graph_views_follow_the_versions():
    w, x = _leaves(tg)
    out, _ = _fill(tg, w, x)
    node, names = out.grad_fn, []
    while node is not None and len(names) < 3 * _T:
        names.append(node.name())
        node = node.next_functions[0][0]  # (x's edge; the second is v's)
    assert names == ["torch::autograd::CopySlices"] * _T  # one per write, down to the zeros (a constant)


def test_row_fill_replays():
    def f(w):
        out = tg.zeros(_T, _B, _H)
        h = tg.ones(_B, _H)
        for t in range(_T):
            h = tg.tanh(h @ w)
            out[t] = h
        return (out ** 2).sum()

    w0 = np.random.default_rng(5).standard_normal((_H, _H)) * 0.3
    cf = tg.compile(f)
    for scale in (1.0, 0.5):
        w = tg.tensor(w0 * scale, requires_grad=True)
        f(w).backward()
        np.testing.assert_allclose(cf.grad(w0 * scale), w.grad.numpy(), rtol=1e-10)


def test_row_fill_then_an_out_of_place_write_leaves_it_unchanged():
    """index_copy (a PUT row too) returns a new tensor: the filled one keeps its values."""
    got = []
    for T in (tg, torch):
        w, x = _leaves(T)
        out, _ = _fill(T, w, x)
        before = out.detach().clone()
        y = out.index_copy(0, T.tensor([1, 3]), T.tanh(x @ w).expand(2, _B, _H) * 2)
        assert (out.detach() == before).all()
        ((y ** 2).sum() + (out ** 3).sum()).backward()
        got.append([out.detach().numpy(), y.detach().numpy(), w.grad.numpy(), x.grad.numpy()])
    for a, b in zip(*got):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
