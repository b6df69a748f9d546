"""Gaps found by tests/torch_scripts/s2181-s2260, each against PyTorch."""
import io

import pytest

import tapegrad as tg


def _sparse_adam_state(L):
    emb = L.nn.Embedding(4, 2, sparse=True)
    with L.no_grad():
        emb.weight.copy_(L.arange(8.0).view(4, 2))
    opt = L.optim.SparseAdam(emb.parameters(), lr=0.1)
    for idx in ([1, 3], [3, 0]):
        opt.zero_grad()
        emb(L.tensor(idx)).pow(2).sum().backward()
        opt.step()
    step = opt.state_dict()["state"][0]["step"]
    buf = io.BytesIO()
    L.save(opt.state_dict(), buf)
    buf.seek(0)
    again = L.optim.SparseAdam(emb.parameters(), lr=0.1)
    again.load_state_dict(L.load(buf))
    opt.zero_grad()
    emb(L.tensor([2])).sum().backward()
    again.step()
    return [type(step).__name__, step, again.state[emb.weight]["step"],
            emb.weight.detach().round(decimals=10).tolist()]


@pytest.mark.oracle
def test_sparse_adam_counts_steps_in_a_python_int(torch_float64):
    """(s2203) SparseAdam's ``state["step"]`` is an int, as PyTorch's (its other
    optimisers keep a 0-d tensor), and stays one through a state_dict round trip."""
    assert _sparse_adam_state(tg) == _sparse_adam_state(torch_float64)
