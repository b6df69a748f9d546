"""Names PyTorch scripts reached for that tapegrad lacked (round 10), each checked against
torch in float64: ``torch.fft``'s real helpers (``fftfreq``, ``rfftfreq``, ``fftshift``,
``ifftshift``), ``torch.segment_reduce``, ``kl_divergence`` between Wisharts, SequentialLR's
milestone restart (no deprecation warning) and the legacy ``torch.Tensor(*sizes)``."""
import warnings

import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

from tests.test_api_gaps7 import agree, same, torch64  # noqa: E402


# ---- torch.fft: the real-valued helpers ----------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 5, 8])
@pytest.mark.parametrize("d", [1.0, 0.1, 3])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fftfreq_and_rfftfreq_equal_torch_bit_for_bit(n, d, dtype):
    for name in ("fftfreq", "rfftfreq"):
        a = getattr(tg.fft, name)(n, d, dtype=getattr(tg, dtype)).numpy()
        b = getattr(torch.fft, name)(n, d, dtype=getattr(torch, dtype)).numpy()
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def test_fftfreq_takes_the_default_dtype_and_requires_grad():
    assert tg.fft.fftfreq(4).dtype == tg.get_default_dtype()
    assert tg.fft.rfftfreq(4, requires_grad=True).requires_grad


@pytest.mark.parametrize("dim", [None, 0, 1, -1, (0, 1), [1]])
def test_fftshift_and_ifftshift_values_and_grads(dim):
    x0 = np.arange(15.0).reshape(3, 5) ** 1.5
    w = np.linspace(-1, 2, 15).reshape(3, 5)

    def program(L):
        x = L.tensor(x0, requires_grad=True)
        f, i = L.fft.fftshift(x, dim=dim), L.fft.ifftshift(x, dim=dim)
        back = L.fft.ifftshift(L.fft.fftshift(x, dim=dim), dim=dim)
        g = L.autograd.grad(((f + 2 * i) * L.tensor(w)).sum(), x)[0]
        return f, i, back, g
    agree(program)


def test_fft_names_it_lacks_raise_attribute_error():  # (the transforms: test_complex.py)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        tg.fft.nope  # noqa: B018


# ---- torch.segment_reduce --------------------------------------------------------------------
@pytest.mark.parametrize("reduce", ["sum", "mean", "max", "min", "prod", "amax", "amin"])
@pytest.mark.parametrize("initial", [None, 4.5])
def test_segment_reduce_values_and_grads_1d(reduce, initial):
    d0 = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 5.0])

    def program(L):
        d = L.tensor(d0, requires_grad=True)
        out = L.segment_reduce(d, reduce, lengths=L.tensor([2, 0, 4]), initial=initial)
        g = L.autograd.grad((out.nan_to_num(0) * L.tensor([1.0, 2.0, 3.0])).sum(), d)[0]
        return out.detach().nan_to_num(0, 1e300, -1e300), g
    agree(program)


@pytest.mark.parametrize("reduce", ["sum", "mean", "max", "prod"])
def test_segment_reduce_along_an_inner_axis_with_offsets_and_lengths(reduce):
    x0 = np.random.default_rng(0).standard_normal((3, 4, 2))
    lengths = [[1, 3], [2, 2], [4, 0]]
    w = np.random.default_rng(1).standard_normal((3, 2, 2))

    def program(L):
        x = L.tensor(x0, requires_grad=True)
        a = L.segment_reduce(x, reduce, lengths=L.tensor(lengths), axis=1)
        b = L.segment_reduce(x, reduce, offsets=L.tensor([[0, 1, 4], [0, 2, 4], [0, 4, 4]]),
                             axis=1)
        c = L.segment_reduce(x, reduce, lengths=L.tensor([1, 2]), axis=0)
        g = L.autograd.grad((a.nan_to_num(0, 0, 0) * L.tensor(w)).sum() + c.sum(), x)[0]
        return a.detach().nan_to_num(0, 1e300, -1e300), b.detach().nan_to_num(0, 1e300, -1e300), \
            c, g
    agree(program)


@pytest.mark.parametrize("call, error, match", [
    (lambda L, x: L.segment_reduce(x, "foo", lengths=L.tensor([1, 3])), RuntimeError,
     "reduce argument must be either sum, prod, mean, amax or amin, got foo"),
    (lambda L, x: L.segment_reduce(x, "sum"), RuntimeError,
     "Either lengths or offsets must be defined"),
    (lambda L, x: L.segment_reduce(x, "sum", lengths=L.tensor([1, 2])), RuntimeError,
     "to sum to data.size"),
    (lambda L, x: L.segment_reduce(x, "sum", lengths=L.tensor([5, -1])), RuntimeError,
     "lengths contains negative value"),
    (lambda L, x: L.segment_reduce(x, "sum", lengths=L.tensor([1, 3]), axis=1), RuntimeError,
     "Expected axis to be the last dimension of lengths"),
    (lambda L, x: L.segment_reduce(x, "sum", indices=L.tensor([0, 1])), RuntimeError,
     "indices based reduction is not supported yet"),
    (lambda L, x: L.segment_reduce(x.long(), "sum", lengths=L.tensor([1, 3])),
     NotImplementedError, "not implemented for 'Long'"),
])
def test_segment_reduce_refuses_as_torch(call, error, match):
    for L in (tg, torch):
        with pytest.raises(error, match=match):
            call(L, L.ones(4, 3, dtype=L.float64))


# ---- kl_divergence(Wishart, Wishart) ----------------------------------------------------------
def _wishart_kl(L, df1, df2):
    D = L.distributions
    C = L.tensor([[2.0, 0.3], [0.3, 1.0]], requires_grad=True)
    W1 = D.Wishart(L.tensor(df1), covariance_matrix=L.eye(2))
    W2 = D.Wishart(L.tensor(df2, requires_grad=True), covariance_matrix=C)
    k = D.kl_divergence(W1, W2)
    return k, L.autograd.grad(k, [C, W2.df])


def test_wishart_kl_matches_torch_and_its_closed_form():
    agree(lambda L: _wishart_kl(L, 5.0, 6.0))
    # the closed form: (n2/2)(log|S2| - log|S1|) + (n1/2)(tr(S2^-1 S1) - p)
    # + log G_p(n2/2) - log G_p(n1/2) + ((n1 - n2)/2) psi_p(n1/2)
    from scipy.special import multigammaln, digamma
    n1, n2, S1, S2 = 5.0, 6.0, np.eye(2), np.array([[2.0, 0.3], [0.3, 1.0]])
    psi = sum(digamma(n1 / 2 - i / 2) for i in range(2))
    want = n2 / 2 * (np.linalg.slogdet(S2)[1] - np.linalg.slogdet(S1)[1]) + \
        n1 / 2 * (np.trace(np.linalg.solve(S2, S1)) - 2) + multigammaln(n2 / 2, 2) - \
        multigammaln(n1 / 2, 2) + (n1 - n2) / 2 * psi
    assert float(_wishart_kl(tg, n1, n2)[0]) == pytest.approx(want, rel=1e-10)


def test_a_batch_of_wishart_kls_is_one_kl_each():
    """PyTorch's Bregman sum mixes the batch of df terms together; each KL here is that
    of its own pair (torch's unbatched answers)."""
    D = tg.distributions
    C = tg.tensor([[2.0, 0.3], [0.3, 1.0]])
    k = D.kl_divergence(D.Wishart(tg.tensor([5.0, 3.0]), covariance_matrix=tg.eye(2)),
                        D.Wishart(tg.tensor(6.0), covariance_matrix=C))
    want = [torch64(lambda L, d=d: _wishart_kl(L, d, 6.0)[0]).item() for d in (5.0, 3.0)]
    np.testing.assert_allclose(k.detach().numpy(), want, rtol=1e-10)


# ---- SequentialLR restarts its next scheduler quietly ---------------------------------------
def test_sequential_lr_matches_torch_without_a_deprecation_warning():
    def program(L):
        opt = L.optim.SGD([L.zeros(2, requires_grad=True)], lr=0.1)
        S = L.optim.lr_scheduler
        s = S.SequentialLR(opt, [S.LinearLR(opt, 0.5, total_iters=2),
                                 S.ExponentialLR(opt, 0.9)], milestones=[2])
        lrs = []
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            for _ in range(5):
                opt.step()
                s.step()
                lrs.append(opt.param_groups[0]["lr"])
        return lrs, s.get_last_lr()
    agree(program)


# ---- torch.Tensor(*sizes) ---------------------------------------------------------------------
def test_legacy_sizes_constructor_builds_parameters():
    def program(L):
        w = L.nn.Parameter(L.Tensor(3, 2))
        L.nn.init.constant_(w, 0.5)
        return list(w.shape), list(L.Tensor(2, 3, 4).shape), list(L.Tensor().shape), \
            w.requires_grad, w.dtype == L.get_default_dtype(), w.sum().item()
    same(program(tg), torch64(program))
    with pytest.raises(TypeError, match="sizes"):
        tg.Tensor(2, -3)


def test_legacy_one_argument_constructor_reads_as_torchs():
    """``torch.Tensor(n)`` is n floats (the bias of a hand-written Linear layer), and int
    data become the default float dtype; float data keep theirs."""
    def program(L):
        class Linear(L.nn.Module):
            def __init__(self, n_in, n_out):
                super().__init__()
                self.weight = L.nn.Parameter(L.Tensor(n_out, n_in))
                self.bias = L.nn.Parameter(L.Tensor(n_out))
                L.nn.init.constant_(self.weight, 0.25)
                L.nn.init.constant_(self.bias, -1.0)

            def forward(self, x):
                return L.nn.functional.linear(x, self.weight, self.bias)

        m = Linear(3, 2)
        x = L.Tensor([[1, 2, 3], [4, 5, 6]])
        y = m(x).pow(2).sum()
        y.backward()
        ints = L.Tensor(np.array([1, 2]))
        return (list(m.bias.shape), m.bias.dtype == L.get_default_dtype(),
                x.dtype == L.get_default_dtype(), ints.dtype == L.get_default_dtype(),
                ints.tolist(), y.item(), m.weight.grad.tolist(), m.bias.grad.tolist(),
                list(L.Tensor(0).shape))
    same(program(tg), torch64(program))
    assert tg.Tensor(np.float32([1.5])).dtype == tg.float32  # kept, as torch.tensor would


def test_scatter_reduce_node_has_torchs_name():
    for L in (tg, torch):
        x = L.ones(3, requires_grad=True)
        out = L.zeros(2).scatter_reduce(0, L.tensor([0, 1, 0]), x, "sum")
        assert type(out.grad_fn).__name__ == "ScatterReduceBackward0"


# ---- small names: norm_except_dim, invert_permutation, torch.compiler, torch.GradScaler -----
@pytest.mark.parametrize("p, dim", [(2, 0), (1, 1), (3, -1), (2, 2)])
def test_norm_except_dim_values_and_grads(p, dim):
    v0 = np.random.default_rng(2).standard_normal((2, 3, 4))

    def program(L):
        v = L.tensor(v0, requires_grad=True)
        out = L.norm_except_dim(v, p, dim)
        return out, L.autograd.grad(out.sum(), v)[0]
    agree(program)


def test_invert_permutation_and_compiler_questions():
    for L in (tg, torch):
        rnn = L.nn.utils.rnn
        assert rnn.invert_permutation(L.tensor([2, 0, 3, 1])).tolist() == [1, 3, 0, 2]
        assert rnn.invert_permutation(None) is None
        assert L.compiler.is_compiling() is False

        @L.compiler.disable
        def f(x):
            return x * 2

        @L.compiler.disable(recursive=False)
        def g(x):
            return x + 1
        assert f(3) == 6 and g(3) == 4
    assert tg.GradScaler is tg.amp.GradScaler
