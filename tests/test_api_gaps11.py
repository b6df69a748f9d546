"""What PyTorch scripts reached for that tapegrad lacked or computed differently (round 11),
each checked against torch in float64: gradients at median ties, ``embedding``'s
``scale_grad_by_freq``, ``EmbeddingBag.from_pretrained``, transforms' ``cache_size``,
multi_margin_loss on the margin, ``nn.Sequential``'s list methods and ``Module.half``."""
import warnings

import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

from tests.test_api_gaps7 import agree  # noqa: E402

X0 = np.array([[2.0, 2.0, 7.0, -3.0], [7.0, 1.0, 2.0, 7.0]])
W = np.arange(1.0, 9.0).reshape(2, 4) ** 0.5  # weights the output before the gradient


# ---- median of all elements: ties share the gradient ---------------------------------------
@pytest.mark.parametrize("name", ["median", "nanmedian"])
@pytest.mark.parametrize("data", [X0, np.array([1.0, np.nan, 1.0, np.nan]),
                                  np.array([np.nan, 2.0, 2.0, 5.0, 2.0]),
                                  np.array([np.inf, np.inf, 1.0]), np.array([-np.inf, 1.0, -np.inf, 2.0]), np.array([3.0])])
def test_median_of_all_elements_splits_the_gradient_among_ties(name, data):
    def program(L):
        x = L.tensor(data, requires_grad=True)
        y = getattr(x, name)()
        return y, L.autograd.grad(y * 3, x)[0]
    agree(program)


def test_median_without_grad_and_with_dim_are_unchanged():
    def program(L):
        x = L.tensor(X0)
        y = L.tensor(X0, requires_grad=True)
        m = y.median(1)
        return x.median(), m.values, m.indices, L.autograd.grad(m.values.sum(), y)[0]
    agree(program)


# ---- embedding ----------------------------------------------------------------------------
@pytest.mark.parametrize("padding_idx", [None, 0, 2])
def test_embedding_scale_grad_by_freq(padding_idx):
    def program(L):
        w = L.tensor(np.arange(12.0).reshape(6, 2) / 7, requires_grad=True)
        i = L.tensor([[1, 1, 2], [1, 0, 3], [2, 5, 5]])
        y = L.nn.functional.embedding(i, w, padding_idx=padding_idx, scale_grad_by_freq=True)
        g = L.autograd.grad((y ** 2).sum(), w, create_graph=True)[0]
        return y, g, L.autograd.grad((g * g).sum(), w)[0]
    agree(program)


def test_embedding_scale_grad_by_freq_second_order_is_exact():
    # the derivative of the scaled gradient: 1/count once, not twice (the lookup's own
    # derivative is 1, only its backward is scaled)
    w0 = np.arange(12.0).reshape(6, 2) / 7
    w = tg.tensor(w0, requires_grad=True)
    i = tg.tensor([1, 1, 2, 1])
    y = tg.nn.functional.embedding(i, w, scale_grad_by_freq=True)
    g = tg.autograd.grad((y ** 2).sum(), w, create_graph=True)[0]
    # g = 2 w (rows looked up, each once after the 1/count): d sum(g^2)/dw = 8 w there
    np.testing.assert_allclose(g.detach().numpy()[[1, 2]], 2 * w0[[1, 2]])
    h = tg.autograd.grad((g * g).sum(), w)[0].numpy()
    np.testing.assert_allclose(h[[1, 2]], 8 * w0[[1, 2]])
    assert not h[[0, 3, 4, 5]].any()


def test_embedding_module_scale_grad_by_freq_trains_as_torch():
    def program(L):
        emb = L.nn.Embedding(5, 3, scale_grad_by_freq=True,
                             _weight=L.tensor(np.linspace(-1, 1, 15).reshape(5, 3)))
        opt = L.optim.SGD(emb.parameters(), lr=0.5)
        for _ in range(3):
            opt.zero_grad()
            emb(L.tensor([1, 1, 1, 2, 4])).pow(2).sum().backward()
            opt.step()
        with L.no_grad():
            y = emb(L.tensor([1, 1]))  # no gradient: the plain lookup
        return emb.weight.detach(), y, repr(emb)
    agree(program)


@pytest.mark.parametrize("freeze", [True, False])
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_from_pretrained(freeze, mode):
    def program(L):
        w = L.tensor(np.linspace(-1, 1, 40).reshape(10, 4))
        bag = L.nn.EmbeddingBag.from_pretrained(w, freeze=freeze, mode=mode, padding_idx=9)
        out = bag(L.tensor([1, 2, 4, 9, 4, 3]), L.tensor([0, 3, 4]))
        grad = None
        if not freeze:
            grad = L.autograd.grad((out * L.arange(12.0).reshape(3, 4)).sum(), bag.weight)[0]
        return out, bag.weight.requires_grad, grad, repr(bag)
    agree(program)


def test_embedding_bag_weight_shape_is_checked():
    with pytest.raises(AssertionError, match="Shape of weight"):
        tg.nn.EmbeddingBag(3, 2, _weight=tg.zeros(2, 2))


# ---- distributions: transforms take cache_size ---------------------------------------------
@pytest.mark.parametrize("name", ["TanhTransform", "ExpTransform", "SigmoidTransform",
                                  "SoftplusTransform", "AbsTransform"])
def test_transforms_take_cache_size(name):
    def program(L):
        t = getattr(L.distributions.transforms, name)(cache_size=1)
        base = L.distributions.Normal(L.tensor([0.1, -0.3]), L.tensor([0.5, 1.2]))
        x = L.tensor([0.2, 0.4], requires_grad=True)
        y = t(x)
        ld = t.log_abs_det_jacobian(x, y) if name != "AbsTransform" else y * 0
        lp = L.distributions.TransformedDistribution(base, [t]).log_prob(y.detach()) \
            if name != "AbsTransform" else y * 0
        return y, ld, lp, L.autograd.grad((y + ld).sum(), x)[0]
    agree(program)
    with pytest.raises(ValueError, match="cache_size must be 0 or 1"):
        tg.distributions.transforms.TanhTransform(cache_size=2)


# ---- multi_margin_loss on the margin --------------------------------------------------------
@pytest.mark.parametrize("p", [1, 2])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_multi_margin_loss_no_gradient_on_the_margin(p, reduction):
    def program(L):
        # row 0: x[0] sits exactly on the margin of target 1 (1 - 2 + 1 = 0)
        x = L.tensor([[1.0, 2.0, 0.5, -1.0], [0.3, -0.2, 2.2, 0.1]], requires_grad=True)
        loss = L.nn.functional.multi_margin_loss(x, L.tensor([1, 2]), p=p,
                                                 weight=L.tensor([1.0, 2.0, 0.5, 1.0]),
                                                 reduction=reduction)
        return loss, L.autograd.grad(loss.sum(), x)[0]
    agree(program)


# ---- nn.Sequential as a list; Module.half ---------------------------------------------------
def test_sequential_insert_extend_pop_add():
    def names(s):
        return [(k, type(m).__name__) for k, m in s._modules.items()]

    def program(L):
        nn = L.nn
        s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())
        s.insert(1, nn.Identity()).insert(-1, nn.GELU()).insert(5, nn.ELU())
        out = [names(s)]
        out.append(type(s.pop(0)).__name__)
        out.append(names(s))
        out.append(names(s + nn.Sequential(nn.ReLU())))
        s += nn.Sequential(nn.Softplus())
        s.extend([nn.Hardtanh()])
        out.append(names(s))
        out.append(names(s[2:4]))
        named = nn.Sequential(__import__("collections").OrderedDict(a=nn.ReLU(), b=nn.Tanh()))
        out.append(names(named[1:]))
        x = L.tensor([-1.0, 0.5, 2.0])
        out.append(s(x))
        return out
    agree(program)
    s = tg.nn.Sequential(tg.nn.ReLU())
    with pytest.raises(IndexError, match="Index out of range: 3"):
        s.insert(3, tg.nn.ReLU())
    with pytest.raises(ValueError, match="only objects of Sequential"):
        s + tg.nn.ModuleList()  # noqa: B018


def test_module_half_casts_the_floats():
    def program(L):
        m = L.nn.Sequential(L.nn.Linear(2, 2), L.nn.BatchNorm1d(2))
        m.half()
        return ([str(p.dtype).split(".")[-1] for p in m.parameters()],
                str(m[1].num_batches_tracked.dtype).split(".")[-1])
    agree(program)


# ---- the interpreted sweep warns of nothing -------------------------------------------------
def test_flip_backward_raises_no_overflow_warning():
    x = tg.tensor(X0, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g = tg.autograd.grad((x.fliplr() * tg.tensor(W)).sum(), x)[0]
    np.testing.assert_array_equal(g.numpy(), W[:, ::-1])
