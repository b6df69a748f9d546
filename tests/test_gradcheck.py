"""gradcheck / gradgradcheck: PyTorch's signature, defaults and messages; a wrong gradient
(made with a hook that scales it) is caught and reported with its worst element."""
import inspect
import warnings

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.autograd import GradcheckError, gradcheck, gradgradcheck

pytestmark = pytest.mark.usefixtures("collect_cycles")


def x64(*values, rg=True):
    return tg.tensor(np.array(values, np.float64), requires_grad=rg)


def scaled_square(t, k=1.5):
    """t * t with its gradient scaled by k: wrong on purpose (for k != 1)."""
    y = t * t
    y.register_hook(lambda g: g * k)
    return y


GOOD = {
    "sin*x": (lambda t: (t.sin() * t).sum(), lambda: (x64(0.5, 1.5),)),
    "vector out": (lambda t: t.exp() * 2 - t, lambda: (x64(0.1, -0.3, 0.7),)),
    "matmul": (lambda a, b: a @ b, lambda: (tg.tensor(np.arange(6.0).reshape(2, 3) / 7,
                                                      requires_grad=True),
                                            tg.tensor(np.linspace(-1, 1, 6).reshape(3, 2),
                                                      requires_grad=True))),
    "two outputs": (lambda a, b: (a * b, (a / b).sum()), lambda: (x64(1.0, 2.0),
                                                                 x64(3.0, -4.0))),
    "constant input": (lambda a, b: a.tanh() * b, lambda: (x64(0.2, 0.4), x64(2.0, 3.0,
                                                                              rg=False))),
    "non-tensor arg": (lambda a, n: a ** n, lambda: (x64(1.1, 0.9), 3)),
    "broadcast": (lambda a, b: (a * b).exp(), lambda: (x64(0.3, 0.2, 0.1), x64(1.5))),
    "scalar": (lambda a: a.log() * a, lambda: (tg.tensor(2.0, requires_grad=True),)),
}


@pytest.mark.parametrize("name", list(GOOD))
@pytest.mark.parametrize("fast_mode", [False, True], ids=["slow", "fast"])
def test_correct_gradients_pass(name, fast_mode):
    fn, inputs = GOOD[name]
    assert gradcheck(fn, inputs(), fast_mode=fast_mode)


def test_wrong_gradient_is_reported_with_worst_element():
    x = x64(1.0, 2.0, 3.0)
    with pytest.raises(GradcheckError) as err:
        gradcheck(scaled_square, (x,))
    msg = str(err.value)
    assert isinstance(err.value, RuntimeError)
    assert msg.startswith("Jacobian mismatch for output 0 with respect to input 0,\n"
                          "numerical:tensor([[2.0000, 0.0000, 0.0000],")
    assert "analytical:tensor([[3., 0., 0.],\n        [0., 6., 0.],\n        [0., 0., 9.]])" \
        in msg
    # the worst element: d y[2] / d x[2], 9 instead of 6
    assert "The worst element: d output0[2] / d input0[2] (Jacobian entry [2, 2])" in msg
    assert "analytical 9.0" in msg and "numerical 6.0000" in msg


@pytest.mark.oracle
def test_jacobians_and_header_match_torch():
    """PyTorch's gradcheck, on the same wrong function, reports the same Jacobians."""
    torch = pytest.importorskip("torch")

    def theirs(t):
        y = t * t
        y.register_hook(lambda g: g * 1.5)
        return y
    xt = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    with pytest.raises(RuntimeError) as t_err:
        torch.autograd.gradcheck(theirs, (xt,))
    with pytest.raises(GradcheckError) as m_err:
        gradcheck(scaled_square, (x64(1.0, 2.0, 3.0),))
    t_head = str(t_err.value).split("\n")[0]
    assert str(m_err.value).split("\n")[0] == t_head

    def matrix(msg, which):
        part = msg.split(which + ":")[1].split(")")[0]
        return np.array([float(v) for v in
                         part.replace("tensor(", "").replace("[", " ").replace("]", " ")
                         .replace(",", " ").split() if v[0].isdigit() or v[0] == "-"])
    for which in ("numerical", "analytical"):
        np.testing.assert_allclose(matrix(str(m_err.value), which),
                                   matrix(str(t_err.value), which), atol=1e-4)


def test_raise_exception_false_returns_false():
    assert gradcheck(scaled_square, (x64(1.0, 2.0),), raise_exception=False) is False
    assert gradcheck(scaled_square, (x64(1.0, 2.0),), raise_exception=False,
                     fast_mode=True) is False
    # within the tolerance: a gradient off by 1e-7 relative passes
    assert gradcheck(lambda t: scaled_square(t, 1 + 1e-7), (x64(1.0, 2.0),))


def test_fast_mode_failure_message():
    with pytest.raises(GradcheckError, match="computed in fast mode"):
        gradcheck(scaled_square, (x64(1.0, 2.0),), fast_mode=True)


def test_tolerances_are_used():
    x = x64(1.0, 2.0)
    assert not gradcheck(lambda t: scaled_square(t, 1.01), (x,), raise_exception=False)
    assert gradcheck(lambda t: scaled_square(t, 1.01), (x,), rtol=0.02)


def test_not_reentrant():
    rng = np.random.default_rng(0)

    def noisy(t):
        y = t * 2
        y.register_hook(lambda g: g + tg.tensor(rng.normal(0, 1e-9, 2)))
        return y
    with pytest.raises(GradcheckError, match="Backward is not reentrant"):
        gradcheck(noisy, (x64(1.0, 2.0),))
    assert gradcheck(noisy, (x64(1.0, 2.0),), nondet_tol=1e-6)


def test_no_input_requires_grad_matches_torch():
    with pytest.raises(ValueError, match="gradcheck expects at least one input tensor to "
                                         "require gradient, but none of them have "
                                         "requires_grad=True."):
        gradcheck(lambda t: t * 2, (x64(1.0, rg=False),))


def test_float32_warns_as_torch():
    x = tg.tensor([1.0, 2.0], dtype=tg.float32, requires_grad=True)
    with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double "
                                         "precision floating point"):
        assert gradcheck(lambda t: t * 2, (x,), eps=1e-3, atol=1e-2)


def test_output_not_requiring_grad_must_be_constant():
    x = x64(1.0, 2.0)
    assert gradcheck(lambda t: (t * 2, tg.tensor([1.0, 2.0])), (x,))
    with pytest.raises(GradcheckError, match="Numerical gradient for function expected to be "
                                             "zero"):
        gradcheck(lambda t: (t * 2, (t * 3).detach()), (x,))


def test_check_grad_dtypes():
    assert gradcheck(lambda t: t.sin(), (x64(0.5),), check_grad_dtypes=True)


def test_unsupported_checks_say_so():
    for flag in ("check_batched_grad", "check_forward_ad", "check_batched_forward_grad"):
        with pytest.raises(NotImplementedError, match=flag):
            gradcheck(lambda t: t * 2, (x64(1.0),), **{flag: True})


def test_gradgradcheck_passes_and_catches_a_wrong_second_derivative():
    assert gradgradcheck(lambda t: (t * t).sin(), (x64(1.0, 2.0),))

    class Square(tg.autograd.Function):  # right first derivative, constant in x
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x.detach() * g

    x = x64(1.0, 2.0)
    assert gradcheck(Square.apply, (x,))
    assert not gradgradcheck(Square.apply, (x,), raise_exception=False)
    with pytest.raises(GradcheckError):
        gradgradcheck(Square.apply, (x,))


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["gradcheck", "gradgradcheck"])
def test_signature_matches_torch(name):
    torch = pytest.importorskip("torch")
    theirs = inspect.signature(getattr(torch.autograd, name)).parameters
    mine = inspect.signature(getattr(tg.autograd, name)).parameters
    assert list(mine) == list(theirs)
    for p in theirs:
        assert (mine[p].kind, mine[p].default) == (theirs[p].kind, theirs[p].default), p


def test_gradcheck_leaves_inputs_unchanged():
    x = x64(0.5, 1.5)
    before = x.detach().numpy().copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gradcheck(lambda t: t.exp().sum(), (x,))
    assert np.array_equal(x.detach().numpy(), before) and x.grad is None
