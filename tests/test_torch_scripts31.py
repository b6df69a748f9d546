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
