"""Differences from PyTorch found by the scripts s728 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- isclose/allclose of shapes that do not broadcast: PyTorch's RuntimeError and words ----
@pytest.mark.parametrize("name", ["allclose", "isclose"])
@pytest.mark.parametrize("shapes", [((2, 5), (2, 5, 5)), ((3,), (4,)), ((2, 3), (3, 2))])
def test_close_refuses_unbroadcastable_shapes_in_pytorchs_words(name, shapes, torch_float64):
    errors = []
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            getattr(L, name)(L.ones(*shapes[0]), L.ones(*shapes[1]))
        errors.append(str(info.value))
    assert errors[0].startswith(errors[1])
