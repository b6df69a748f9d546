"""Differences from PyTorch found by the scripts s1194 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- pad_packed_sequence: batch_first transposes before unsorting, as PyTorch ----------
@pytest.mark.parametrize("enforce_sorted, lengths", [(True, [3, 2, 1]), (False, [1, 3, 2])])
@pytest.mark.parametrize("batch_first", [True, False])
def test_pad_packed_sequence_node_layout_and_grads_as_pytorch(enforce_sorted, lengths,
                                                              batch_first, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        rnn = L.nn.utils.rnn
        x = L.tensor(np.arange(18.0).reshape(3, 3, 2), requires_grad=True)
        packed = rnn.pack_padded_sequence(x * 1, L.tensor(lengths), batch_first=True,
                                          enforce_sorted=enforce_sorted)
        out, lens = rnn.pad_packed_sequence(packed, batch_first=batch_first, total_length=4)
        (g,) = L.autograd.grad(out, x, L.tensor(np.arange(24.0).reshape(out.shape)))
        got.append((out.grad_fn.name(), out.is_contiguous(), lens.tolist(),
                    out.detach().numpy(), g.numpy()))
    if not (enforce_sorted and not batch_first):  # (PyTorch's CopySlices there: a view here)
        assert got[0][:3] == got[1][:3]
    for ours, theirs in zip(got[0][3:], got[1][3:], strict=True):
        np.testing.assert_array_equal(ours, theirs)


# ---- full backward hooks: grad_input holds zeros for tensor args not requiring grad -----
class _Mix:
    def __init__(self, L):
        class Mix(L.nn.Module):
            def forward(self, a, b, k, c):
                return a * b + a * k + c.sum()
        self.module = Mix()


@pytest.mark.parametrize("b_grad", [False, True])
def test_full_backward_hook_grad_input_of_constant_tensors_as_pytorch(b_grad, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        seen = []

        def hook(m, gin, gout, seen=seen):
            seen.append([None if g is None else (g.tolist(), str(g.dtype).split(".")[1])
                         for g in gin])
            return (gin[0] * 2, L.ones(2, dtype=L.float32), None, None)  # (entries of constants are ignored)

        m = _Mix(L).module
        m.register_full_backward_hook(hook)
        a = L.tensor([1.0, 2.0], requires_grad=True)
        b = L.tensor([3.0, 4.0], dtype=L.float32, requires_grad=b_grad)
        m(a, b, 2, L.tensor([1, 2])).sum().backward()
        got.append((seen, a.grad.tolist(), None if b.grad is None else b.grad.tolist()))
    assert got[0] == got[1]


# ---- abs: the gradient is sign(x) * g, so an inf or nan g at x = 0 (or nan) gives nan ---
SEEDS = [1.0, -2.0, float("inf"), float("-inf"), float("nan")]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_abs_gradient_at_zero_multiplies_as_pytorch(dtype, torch_float64):
    torch = torch_float64
    xs = np.array([0.0, -0.0, float("nan"), 1.5, -1.5] * 5, dtype)
    seed = np.repeat(SEEDS, 5).astype(dtype)
    got = []
    for L in (tg, torch):
        x = L.tensor(xs, requires_grad=True)
        (g,) = L.autograd.grad(x.abs(), x, L.tensor(seed))
        (gg,) = L.autograd.grad(x.abs(), x, L.tensor(seed), create_graph=True)
        got.append((g.numpy(), gg.detach().numpy()))
    for ours, theirs in zip(got[0], got[1], strict=True):
        np.testing.assert_array_equal(ours, theirs)  # (nan where nan; equal zeros either sign)


def test_abs_tangent_at_zero_as_pytorch(torch_float64):
    torch = torch_float64
    xs, ts = np.array([0.0, 0.0, 0.0, 2.0, -2.0]), np.array([1.0, np.inf, np.nan, np.inf, 3.0])
    got = []
    for L in (tg, torch):
        with L.autograd.forward_ad.dual_level():
            y = L.abs(L.autograd.forward_ad.make_dual(L.tensor(xs), L.tensor(ts)))
            got.append(L.autograd.forward_ad.unpack_dual(y).tangent.numpy())
    np.testing.assert_array_equal(got[0], got[1])


def test_abs_replay_gradient_at_zero_as_pytorch(torch_float64):
    """Replay's reverse rule, interpreted and as the fused kernel's template."""
    torch = torch_float64
    s = np.array([np.inf, 2.0, np.nan])
    X = np.array([[0.0, 1.0, -1.0], [0.0, 0.0, 2.0], [1.0, -0.0, 0.0]])
    want = []
    for x in X:
        t = torch.tensor(x, requires_grad=True)
        (t.abs() * torch.tensor(s)).sum().backward()
        want.append(t.grad.numpy())
    f = tg.compile(lambda x: (x.abs() * tg.tensor(s)).sum(), fused=False)
    _, G0 = f.value_and_grad_batch(X)
    assert f.compile_fused(X[0], wait=True) == ["fused"]
    _, G1 = f.value_and_grad_batch(X)
    np.testing.assert_array_equal(G0, np.array(want))
    np.testing.assert_array_equal(G1, np.array(want))
