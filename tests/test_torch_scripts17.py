"""The gaps scripts s160-s199 (tests/torch_scripts/, run by test_torch_scripts13.py) found,
each against PyTorch: node names (kron, einsum, multi_dot, quantile, logdet, std_mean,
lu_solve, complex views and parts, CopySlices), the conjugate bit, ctx.mark_dirty, inference
tensors' restrictions, stft/istft, grad_fn hooks, lazy probs/logits in reprs, and optimizer
steps rounded as PyTorch's kernels."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _mats(L):
    a = L.tensor([[2.0, 1.0], [0.5, 3.0]], requires_grad=True)
    b = L.tensor([[1.0, -1.0], [2.0, 0.5]], requires_grad=True)
    v = L.tensor([1.0, 4.0, 2.0, 3.0], requires_grad=True)
    return a, b, v


NODES = {  # op -> f(L, a, b, v): PyTorch's node for the op (its last step)
    "kron": lambda L, a, b, v: L.kron(a, b),
    "kron_vec": lambda L, a, b, v: L.kron(v, a[0]),
    "einsum_mm": lambda L, a, b, v: L.einsum("ij,jk->ik", a, b),
    "einsum_mm_t": lambda L, a, b, v: L.einsum("ij,jk->ki", a, b),
    "einsum_outer": lambda L, a, b, v: L.einsum("i,j->ij", v, v),
    "einsum_hadamard": lambda L, a, b, v: L.einsum("ij,ij->ij", a, b),
    "einsum_dot": lambda L, a, b, v: L.einsum("i,i->", v, v),
    "einsum_three": lambda L, a, b, v: L.einsum("ij,jk,kl->il", a, b, a),
    "einsum_trace": lambda L, a, b, v: L.einsum("ii", a),
    "einsum_diag": lambda L, a, b, v: L.einsum("ii->i", a),
    "einsum_t": lambda L, a, b, v: L.einsum("ij->ji", a),
    "einsum_identity": lambda L, a, b, v: L.einsum("i", v),
    "einsum_rowsum": lambda L, a, b, v: L.einsum("ij->j", a),
    "multi_dot": lambda L, a, b, v: L.linalg.multi_dot([a, b, a]),
    "multi_dot_vec": lambda L, a, b, v: L.linalg.multi_dot([v[:2], a, b]),
    "quantile": lambda L, a, b, v: L.quantile(v, 0.3),
    "quantile_dim": lambda L, a, b, v: L.quantile(a, L.tensor([0.2, 0.9]), dim=1),
    "nanquantile": lambda L, a, b, v: L.nanquantile(v, 0.6, interpolation="midpoint"),
    "logdet": lambda L, a, b, v: L.logdet(a),
    "std_mean_std": lambda L, a, b, v: L.std_mean(v)[0],
    "std_mean_mean": lambda L, a, b, v: L.std_mean(a, dim=1)[1],
    "var_mean": lambda L, a, b, v: L.var_mean(v)[0],
    "lu_solve": lambda L, a, b, v: L.linalg.lu_solve(*L.linalg.lu_factor(a), b),
    "circular_pad": lambda L, a, b, v: L.nn.functional.pad(a.reshape(1, 1, 2, 2), (1, 1, 1, 0),
                                                           mode="circular"),
    "hardswish": lambda L, a, b, v: L.nn.functional.hardswish(v - 5),
}


@pytest.mark.parametrize("op", sorted(NODES))
def test_composite_shows_pytorchs_node_and_keeps_its_gradients(torch_float64, op):
    torch = torch_float64
    got, want = NODES[op](tg, *_mats(tg)), NODES[op](torch, *_mats(torch))
    assert got.grad_fn.name() == want.grad_fn.name()
    assert type(got.grad_fn).__name__ == type(want.grad_fn).__name__
    assert repr(got) == repr(want)
    grads = []
    for L in (tg, torch):
        args = _mats(L)
        y = NODES[op](L, *args)
        (y * L.arange(1.0, y.numel() + 1).reshape(y.shape)).sum().backward()
        grads.append([None if t.grad is None else np.asarray(t.grad.detach()) for t in args])
    for ours, theirs in zip(*grads, strict=True):
        if theirs is None:
            assert ours is None or not ours.any()
        else:
            np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def test_copy_slices_name_class_and_repr_as_torch(torch_float64):
    torch = torch_float64
    seen = []
    for L in (tg, torch):
        y = L.tensor([1.0, 2.0, 3.0], requires_grad=True) * 2
        y[0] = 5.0
        seen.append((y.grad_fn.name(), type(y.grad_fn).__name__,
                     repr(y.grad_fn).split(" at ")[0], repr(y)))
    assert seen[0] == seen[1]


def test_hardswish_is_negative_zero_up_to_minus_three(torch_float64):
    x = [-5.0, -3.0, -2.9, 0.0, 3.0]
    got = tg.nn.functional.hardswish(tg.tensor(x)).numpy()
    want = torch_float64.nn.functional.hardswish(torch_float64.tensor(x)).numpy()
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_complex_views_and_parts_show_pytorchs_nodes(torch_float64):
    torch = torch_float64
    seen = []
    for L in (tg, torch):
        x = L.tensor([[1.0, 2.0], [3.0, -1.0]], requires_grad=True)
        z = L.view_as_complex(x)
        r = L.view_as_real(z * 2)
        c = L.tensor([1 + 2j, 3 - 1j], requires_grad=True)
        parts = (c.real, c.imag, (c * 2).real, L.real(c), L.imag(c * 1j))
        seen.append((z.grad_fn.name(), r.grad_fn.name(), repr(z), repr(r),
                     [(p.grad_fn.name(), repr(p)) for p in parts]))
        (parts[0].sum() + 3 * parts[1].sum()).backward()
        seen[-1] += (c.grad.tolist(),)
    assert seen[0] == seen[1]
    z = tg.view_as_complex(tg.ones(2, 2, requires_grad=True))
    assert z.grad_fn is z.grad_fn  # (one node object per node, as PyTorch's)


def test_complex_part_is_a_view(torch_float64):
    for L in (tg, torch_float64):
        w = L.zeros(2, dtype=L.complex128)
        w.real = L.tensor([1.0, 2.0])
        w.imag.add_(3)
        assert w.tolist() == [1 + 3j, 2 + 3j]


CONJ = [lambda z: z.conj(), lambda z: z.conj().conj(), lambda z: z.conj().resolve_conj(),
        lambda z: z, lambda z: z.conj() * 1, lambda z: z.conj().clone()]


@pytest.mark.parametrize("f", CONJ)
def test_conjugate_bit_as_torch(torch_float64, f):
    got = f(tg.tensor([1 + 1j, 2 - 3j]))
    want = f(torch_float64.tensor([1 + 1j, 2 - 3j]))
    assert got.is_conj() == want.is_conj()
    assert got.tolist() == want.tolist()
    assert tg.resolve_conj(got).is_conj() is False


def test_custom_function_node_repr_names_its_module(torch_float64):
    reprs = []
    for L in (tg, torch_float64):
        class Twice(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        y = Twice.apply(L.ones(2, requires_grad=True))
        reprs.append((repr(y.grad_fn).split(" at ")[0], repr(y), type(y.grad_fn).__name__))
    assert reprs[0] == reprs[1]


# ---- distributions: lazy probs/logits, Gumbel's nodes -------------------------------------
READS = [(), ("probs",), ("logits",), ("entropy",), ("log_prob",), ("mean",), ("probs", "logits")]


@pytest.mark.parametrize("reads", READS)
@pytest.mark.parametrize("kind", ["Categorical-logits", "Categorical-probs", "Bernoulli-logits",
                                  "Bernoulli-probs", "OneHotCategorical-logits"])
def test_probs_logits_made_when_read_show_in_repr_as_torch(torch_float64, kind, reads):
    name, given = kind.split("-")
    out = []
    for L in (tg, torch_float64):
        param = L.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
        d = getattr(L.distributions, name)(**{given: param})
        for r in reads:
            if r == "log_prob":
                d.log_prob(d.enumerate_support()[0])
            elif r == "entropy":
                d.entropy()
            else:
                getattr(d, r)
        out.append((repr(d), d.param_shape, np.asarray(d.probs).round(12).tolist(),
                    np.asarray(d.logits).round(12).tolist()))
    assert out[0] == out[1]


def test_gumbel_log_prob_and_cdf_as_torch(torch_float64):
    res = []
    for L in (tg, torch_float64):
        loc = L.tensor([0.0, 1.0], requires_grad=True)
        scale = L.tensor([1.0, 2.0], requires_grad=True)
        g = L.distributions.Gumbel(loc, scale)
        x = L.tensor([0.5, -1.5])
        lp, cdf = g.log_prob(x), g.cdf(x)
        (lp.sum() + cdf.sum()).backward()
        res.append((lp.grad_fn.name(), cdf.grad_fn.name(), lp.tolist(), cdf.tolist(),
                    loc.grad.tolist(), scale.grad.tolist()))
    assert res[0][:2] == res[1][:2]
    np.testing.assert_allclose(np.concatenate(res[0][2:]), np.concatenate(res[1][2:]),
                               rtol=1e-13)


# ---- ctx.mark_dirty ------------------------------------------------------------------------
def _dirty_fn(L):
    class MulInPlace(L.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            x.mul_(k)
            ctx.mark_dirty(x)
            ctx.k = k
            return x

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None
    return MulInPlace


def test_mark_dirty_rebases_the_input_as_torch(torch_float64):
    res = []
    for L in (tg, torch_float64):
        x = L.tensor([3.0, 1.0, 2.0], requires_grad=True)
        h = x.sin()  # (sin saves x, not h: h may change)
        out = _dirty_fn(L).apply(h, 3.0)
        y = (out * out).sum() + h.sum()
        y.backward()
        res.append((out is h, h._version, out.grad_fn.name(), repr(out), x.grad.tolist()))
    assert res[0][:4] == res[1][:4]
    np.testing.assert_allclose(res[0][4], res[1][4], rtol=1e-14)


def test_mark_dirty_gradient_by_finite_differences():
    def f(x):
        return (_dirty_fn(tg).apply(x.sin(), 2.5) ** 2).sum()
    x0 = np.array([0.3, -1.2, 2.0])
    x = tg.tensor(x0, requires_grad=True)
    f(x).backward()
    h = 1e-6
    fd = [(float(f(tg.tensor(x0 + h * e))) - float(f(tg.tensor(x0 - h * e)))) / (2 * h)
          for e in np.eye(3)]
    np.testing.assert_allclose(x.grad.numpy(), fd, rtol=1e-7)


def _dirty_leaf(L):
    return _dirty_fn(L).apply(L.tensor([1.0, 2.0], requires_grad=True), 2.0)


def _dirty_not_returned(L):
    class Forgot(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g
    return Forgot.apply(L.tensor([1.0, 2.0], requires_grad=True) * 1)


def _dirty_then_saved_check(L):
    x = L.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    y = h * h  # (saves h, then the Function changes it)
    _dirty_fn(L).apply(h, 2.0)
    y.sum().backward()


@pytest.mark.parametrize("call", [_dirty_leaf, _dirty_not_returned, _dirty_then_saved_check])
def test_mark_dirty_refusals_as_torch(call, torch_float64):
    errors = []
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            call(L)
        errors.append(str(info.value).split(" Hint:")[0].split(". Hint")[0])
    assert errors[0] == errors[1]


# ---- inference tensors ----------------------------------------------------------------------
def _inference_value(L):
    with L.inference_mode():
        return L.tensor([1.0, -2.0]) * 3


INFERENCE = {
    "saved_by_mul": lambda L, y, w: (y * w).sum().backward(),
    "saved_by_matmul": lambda L, y, w: (y @ w).backward(),
    "saved_by_exp_input": lambda L, y, w: (w.exp() * y).sum().backward(),
    "inplace_outside": lambda L, y, w: y.add_(1),
    "inplace_outside_no_grad": lambda L, y, w: _under_no_grad(L, lambda: y.mul_(2)),
}


def _under_no_grad(L, f):
    with L.no_grad():
        f()
ALLOWED = {
    "add": lambda L, y, w: (y + w).sum().backward(),
    "inplace_inside": None,  # (below: y.add_(1) inside inference_mode)
    "clone_then_mul": lambda L, y, w: (y.clone() * w).sum().backward(),
    "no_record": lambda L, y, w: y * 2,
}


@pytest.mark.parametrize("name", sorted(INFERENCE))
def test_inference_tensor_refusals_as_torch(name, torch_float64):
    errors = []
    for L in (tg, torch_float64):
        y, w = _inference_value(L), L.tensor([0.5, 2.0], requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            INFERENCE[name](L, y, w)
        errors.append(str(info.value))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_inference_tensor_allowed_uses_as_torch(name, torch_float64):
    res = []
    for L in (tg, torch_float64):
        with L.inference_mode(False):
            y, w = _inference_value(L), L.tensor([0.5, 2.0], requires_grad=True)
            if name == "inplace_inside":
                with L.inference_mode():
                    y.add_(1)
            else:
                ALLOWED[name](L, y, w)
        res.append((y.tolist(), None if w.grad is None else w.grad.tolist()))
    assert res[0] == res[1]


# ---- stft / istft ---------------------------------------------------------------------------
STFTS = [dict(n_fft=16, hop_length=4, window="hann"), dict(n_fft=16),
         dict(n_fft=12, hop_length=3, win_length=8, window="hamming8", center=False),
         dict(n_fft=16, hop_length=5, window="hann", normalized=True),
         dict(n_fft=8, hop_length=2, onesided=False, pad_mode="constant"),
         dict(n_fft=10, hop_length=4, window="hann", pad_mode="replicate")]


def _stft_kw(L, kw):
    kw = dict(kw)
    w = kw.pop("window", None)
    if w == "hann":
        kw["window"] = L.hann_window(kw["n_fft"])
    elif w == "hamming8":
        kw["window"] = L.hamming_window(8)
    return kw


def _signal(L, batch):
    t = L.arange(64.0) / 16
    x = L.sin(2 * np.pi * 2 * t) + 0.5 * L.cos(2 * np.pi * 5 * t) + 0.1 * t
    return (L.stack([x, x.flip(0)]) if batch else x).requires_grad_()


@pytest.mark.parametrize("batch", [False, True])
@pytest.mark.parametrize("k", range(len(STFTS)))
def test_stft_values_gradients_and_node_as_torch(torch_float64, k, batch):
    torch = torch_float64
    res = []
    for L in (tg, torch):
        x = _signal(L, batch)
        S = L.stft(x, **_stft_kw(L, STFTS[k]), return_complex=True)
        weight = L.arange(float(S.numel())).reshape(S.shape) / S.numel()
        ((S.abs() ** 2) * weight).sum().backward()
        res.append((tuple(S.shape), S.grad_fn.name(), S.detach().numpy(), x.grad.numpy()))
    assert res[0][:2] == res[1][:2]
    np.testing.assert_allclose(res[0][2], res[1][2], atol=1e-11)
    np.testing.assert_allclose(res[0][3], res[1][3], rtol=1e-9, atol=1e-10)


def test_stft_real_output_is_view_as_real(torch_float64):
    got = tg.stft(_signal(tg, False), 16, return_complex=False)
    with pytest.warns(UserWarning):
        want = torch_float64.stft(_signal(torch_float64, False), 16, return_complex=False)
    assert got.grad_fn.name() == want.grad_fn.name()
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), atol=1e-11)


@pytest.mark.parametrize("length", [None, 50, 70])
@pytest.mark.parametrize("k", [0, 1, 3])  # (2: no center, the window's zero edges: refused)
def test_istft_inverts_stft_and_matches_torch(torch_float64, k, length):
    torch = torch_float64
    res = []
    for L in (tg, torch):
        kw = _stft_kw(L, STFTS[k])
        S = L.stft(_signal(L, False).detach(), **kw, return_complex=True).requires_grad_()
        y = L.istft(S, **kw, length=length)
        (y * L.arange(float(y.numel()))).sum().backward()
        res.append((tuple(y.shape), y.grad_fn.name(), y.detach().numpy(), S.grad.numpy()))
    assert res[0][:2] == res[1][:2]
    np.testing.assert_allclose(res[0][2], res[1][2], atol=1e-11)
    np.testing.assert_allclose(res[0][3], res[1][3], rtol=1e-9, atol=1e-10)
    if res[0][0] == (64,):
        np.testing.assert_allclose(res[0][2], _signal(tg, False).detach().numpy(), atol=1e-12)


def test_stft_istft_gradcheck():
    w = tg.hann_window(8)
    x = tg.tensor(np.sin(np.arange(24.0) * 0.7), requires_grad=True)
    assert tg.autograd.gradcheck(
        lambda s: tg.stft(s, 8, 2, window=w, return_complex=True).abs(), (x,))
    assert tg.autograd.gradcheck(
        lambda s: tg.istft(tg.stft(s * s, 8, 2, window=w, return_complex=True), 8, 2,
                           window=w, length=24), (x,))


STFT_ERRORS = [lambda L: L.stft(L.ones(64), 16),
               lambda L: L.stft(L.ones(64), 100, return_complex=True, center=False),
               lambda L: L.stft(L.ones(2, 2, 16), 4, return_complex=True),
               lambda L: L.stft(L.ones(64), 16, window=L.ones(8), return_complex=True),
               lambda L: L.istft(L.ones(9, 5), 16)]


@pytest.mark.parametrize("call", STFT_ERRORS)
def test_stft_bad_input_as_torch(call, torch_float64, raises_as_torch):
    raises_as_torch(call)


def test_windows_take_their_parameters_by_keyword(torch_float64):
    for name, kw in [("kaiser_window", dict(periodic=True, beta=8.0)),
                     ("kaiser_window", dict(periodic=False)),
                     ("hamming_window", dict(periodic=False, alpha=0.5, beta=0.5))]:
        got = getattr(tg, name)(7, **kw).numpy()
        want = getattr(torch_float64, name)(7, **kw).numpy()
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)


# ---- hooks on grad_fn -----------------------------------------------------------------------
def _node_hooks(L, replace):
    log = []
    x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = x * w
    z = y.sin()
    out = (z * L.tensor([1.0, 2.0, 3.0])).sum()

    def post(gi, go):
        log.append(("post", [None if g is None else g.tolist() for g in gi], go[0].tolist()))
        return (gi[0] * 2, None) if replace else None

    def pre(go):
        log.append(("pre", go[0].tolist()))
        return (go[0] + 1,) if replace else None
    y.grad_fn.register_hook(post)
    z.grad_fn.register_prehook(pre)
    h = out.grad_fn.register_prehook(lambda go: log.append(("never",)))
    h.remove()
    out.backward()
    return log, x.grad.tolist(), None if w.grad is None else w.grad.tolist()


@pytest.mark.parametrize("replace", [False, True])
def test_grad_fn_hooks_as_torch(torch_float64, replace):
    got, want = _node_hooks(tg, replace), _node_hooks(torch_float64, replace)
    assert [e[0] for e in got[0]] == [e[0] for e in want[0]]
    for a, b in zip(got[0], want[0], strict=True):
        assert str(a) == str(b) or np.allclose(
            np.asarray(a[1], float), np.asarray(b[1], float), rtol=1e-14)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-14)
    if replace:  # (None for w's part: w gets no gradient)
        assert got[2] is None and want[2] is None
    else:
        np.testing.assert_allclose(got[2], want[2], rtol=1e-14)


def test_grad_fn_hook_under_create_graph_is_refused():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.grad_fn.register_hook(lambda gi, go: None)
    with pytest.raises(NotImplementedError, match="node.register_hook"):
        tg.autograd.grad(y.sum(), x, create_graph=True)


# ---- optimizers: PyTorch's rounding, step for step ---------------------------------------
OPTIMIZERS = [("NAdam", dict(lr=0.05)),
              ("NAdam", dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
              ("NAdam", dict(lr=0.05, weight_decay=0.1)), ("Adamax", dict(lr=0.05)),
              ("Adamax", dict(lr=0.05, weight_decay=0.1)), ("ASGD", dict(lr=0.01, t0=3)),
              ("ASGD", dict(lr=0.01, weight_decay=0.1)),
              ("RMSprop", dict(lr=0.01, centered=True, momentum=0.9, weight_decay=0.1)),
              ("RMSprop", dict(lr=0.01, momentum=0.5)), ("RAdam", dict(lr=0.05, weight_decay=0.1))]


@pytest.mark.parametrize("k", range(len(OPTIMIZERS)))
def test_optimizer_trajectories_bit_for_bit(torch_float64, k):
    """addcdiv_ as (value * t1) / t2 + self, add(alpha=) and addcmul_ as one multiply-add:
    30 float64 steps agree with PyTorch's to the last bit where PyTorch runs its AVX2
    kernels, within two ulps where it runs its AVX-512 ones (which round a step differently)."""
    opt, kw = OPTIMIZERS[k]
    runs = []
    for L in (tg, torch_float64):
        p = L.nn.Parameter(L.tensor([0.3, -1.7, 2.2]))
        o = getattr(L.optim, opt)([p], **kw)
        for _ in range(30):
            o.zero_grad()
            (((p - L.tensor([1.0, 2.0, -3.0])) ** 3).abs().sum() * 0.37).backward()
            o.step()
        runs.append(np.asarray(p.detach()))
    if torch_float64.backends.cpu.get_cpu_capability() == "AVX2":
        np.testing.assert_array_equal(runs[0], runs[1])
    np.testing.assert_array_max_ulp(runs[0], runs[1], maxulp=2)


# ---- in-place on the outputs of multi-output view ops --------------------------------------
def _grad_base(L):
    return L.ones(2, 3, requires_grad=True).clone()


MULTI = {
    "unbind": lambda L: _grad_base(L).unbind(0)[0].add_(1),
    "split": lambda L: _grad_base(L).split(1, 0)[1].mul_(2),
    "chunk": lambda L: _grad_base(L).chunk(2, 1)[0].zero_(),
    "split_sizes": lambda L: _grad_base(L).split([1, 2], 1)[0].zero_(),
    "of_a_leaf": lambda L: L.ones(2, 3, requires_grad=True).unbind(0)[1].add_(1),
    "view_of_one": lambda L: _grad_base(L).unbind(0)[0].view(3).add_(1),
}


@pytest.mark.parametrize("name", sorted(MULTI))
def test_inplace_on_multi_output_views_refused_as_torch(name, torch_float64):
    errors = []
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            MULTI[name](L)
        errors.append(str(info.value))
    assert errors[0] == errors[1]


def _allowed_multi(L):
    y = L.ones(2, 3).unbind(0)[0].add_(1)  # (nothing requires grad)
    with L.no_grad():
        z = _grad_base(L).split(1, 0)[0].mul_(3)
    w = _grad_base(L).tensor_split(2, 1)[0].zero_()  # (not a multi-output view op)
    x = L.ones(2, 3, requires_grad=True)
    u = x.unbind(0)
    (u[0] * 2 + u[1]).sum().backward()
    return y.tolist(), z.tolist(), w.tolist(), x.grad.tolist()


def test_multi_output_views_otherwise_as_torch(torch_float64):
    assert _allowed_multi(tg) == _allowed_multi(torch_float64)
