"""Gaps found by tests/torch_scripts/s2021-s2100, each against PyTorch."""
import pytest

import tapegrad as tg


def _data_takes_inference(L):
    with L.inference_mode():
        made_inside = L.ones(2)
    p = L.nn.Parameter(L.zeros(2))
    p.data = made_inside  # (s2095: a parameter given an inference tensor's values)
    plain = L.zeros(2)
    plain.data = made_inside
    with L.inference_mode():
        inside = L.ones(2)
    inside.data = L.zeros(2)
    (p * 2).sum().backward()
    return [p.is_inference(), p.requires_grad, plain.is_inference(), inside.is_inference(),
            p.grad.tolist()]


@pytest.mark.oracle
def test_data_assignment_takes_the_values_inference_flag(torch):
    """``x.data = t`` makes x an inference tensor exactly when t is one (set_data)."""
    assert _data_takes_inference(tg) == _data_takes_inference(torch)


VIEWS = [lambda t: t.view(4), lambda t: t.t(), lambda t: t[0], lambda t: t[:, 1:],
         lambda t: t.reshape(4), lambda t: t.detach(), lambda t: t.data,
         lambda t: t.unsqueeze(0), lambda t: t.expand(3, 2, 2)[0], lambda t: t.split(1)[0],
         lambda t: t.unbind()[1], lambda t: t.diagonal(), lambda t: t.permute(1, 0),
         lambda t: t.as_strided((2,), (1,)), lambda t: t.unfold(0, 1, 1),
         lambda t: t * 2, lambda t: t.clone()]


@pytest.mark.oracle
@pytest.mark.parametrize("make", VIEWS)
def test_a_view_of_an_inference_tensor_is_one(make, torch):
    """(s2095: ``p.data = inference.expand(2, 2)``) Views, expands, ``detach()`` and
    ``.data`` of an inference tensor, taken outside the mode, are inference tensors; new
    results are not."""
    got = []
    for L in (tg, torch):
        with L.inference_mode():
            t = L.ones(2, 2, dtype=L.float64)
        v = make(t)
        got.append(v.is_inference())
        try:  # (PyTorch lets a detach() or .data be written; an expand never)
            v.add_(1)
            got.append("written")
        except RuntimeError as e:
            got.append(str(e)[:40])
    assert got[:2] == got[2:]
