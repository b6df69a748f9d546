"""Differences from PyTorch found by the scripts s438 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- autograd.functional: a wrong-sized v is refused in PyTorch's words (_validate_v) --------
def _f(L):
    return L.autograd.functional


@pytest.mark.parametrize("call", [
    lambda L: _f(L).jvp(lambda a: a, L.ones(3), L.ones(2)),
    lambda L: _f(L).jvp(lambda a, b: a, (L.ones(3), L.ones(3)), (L.ones(2), L.ones(3))),
    lambda L: _f(L).jvp(lambda a, b: a, (L.ones(3), L.ones(3)), (L.ones(3),)),
    lambda L: _f(L).vjp(lambda a: a, L.ones(3), (L.ones(2), L.ones(2))),
    lambda L: _f(L).vjp(lambda a: (a, a), L.ones(3), (L.ones(3), L.ones(2))),
    lambda L: _f(L).vjp(lambda a: (a, a), L.ones(3), (L.ones(3),)),
    lambda L: _f(L).vjp(lambda a: a, L.ones(3), L.ones(2)),  # (no row left by the call)
    lambda L: _f(L).hvp(lambda a: a.sum(), L.ones(3), L.ones(2)),
    lambda L: _f(L).vhp(lambda a: a.sum(), (L.ones(3),), (L.ones(3), L.ones(3))),
    lambda L: _f(L).vhp(lambda a: a.sum(), L.ones(3), (L.ones(3), L.ones(3))),
])
def test_functional_v_of_the_wrong_size_refused_as_pytorch(call, raises_as_torch):
    raises_as_torch(call)
