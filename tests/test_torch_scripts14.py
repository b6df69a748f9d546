"""The gaps found by the second round of outsiders' scripts (tests/torch_scripts/s40_*
and up, run by tests/test_torch_scripts13.py), each checked against PyTorch."""
import numpy as np
import pytest

import tapegrad as tg

SIZE_KEYWORD = [lambda L: L.zeros(size=(2, 1)), lambda L: L.ones(size=[3]),
                lambda L: L.empty(size=(0, 2)), lambda L: L.zeros(size=(2,), dtype=L.int64),
                lambda L: L.ones(size=(), requires_grad=True),
                lambda L: L.empty(2, 3, memory_format=L.contiguous_format, pin_memory=False)]


@pytest.mark.parametrize("make", SIZE_KEYWORD)
def test_creation_takes_size_by_keyword(make, torch):
    ours, theirs = make(tg), make(torch)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.requires_grad == theirs.requires_grad
    assert str(ours.dtype).replace("64", "32") == str(theirs.dtype).replace("64", "32")


@pytest.mark.parametrize("call", [lambda L: L.zeros(2, foo=1), lambda L: L.ones(2, size=(3,)),
                                  lambda L: L.empty(1, size=(2,))])
def test_creation_refuses_a_second_size_or_an_unknown_keyword(call, raises_as_torch):
    raises_as_torch(call)
