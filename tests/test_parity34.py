"""PyTorch's answers, compared with torch 2.13: ``manual_seed``'s range (a negative seed is
its 64-bit two's complement; past the range, PyTorch's overflow error) and the private
bases programs subclass or test against (``nn.modules.dropout._DropoutNd``,
``nn.modules.batchnorm._NormBase``)."""
import importlib

import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")


def _outcome(call, L):
    try:
        return call(L)
    except Exception as e:  # noqa: BLE001 (the error is what is compared)
        return type(e).__name__, str(e)


SEEDS = [-1, -5, 2 ** 63, 2 ** 64 - 1, 2 ** 64, -2 ** 63, -2 ** 63 - 1, 0, 1.5, True, "3"]


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
def test_manual_seed_range(seed):
    def seeded(L):
        L.manual_seed(seed)
        g = L.Generator().manual_seed(seed)
        return L.initial_seed(), g.initial_seed()
    try:
        assert _outcome(seeded, tg) == _outcome(seeded, torch)
    finally:
        tg.manual_seed(0)


def test_negative_seed_state_round_trip():
    """A seed past 2**63 (a negative one's two's complement) survives get/set_state."""
    g = tg.Generator().manual_seed(-1)
    first = tg.rand(3, generator=g)
    h = tg.Generator()
    h.set_state(tg.Generator().manual_seed(-1).get_state())
    assert h.initial_seed() == 2 ** 64 - 1
    assert tg.equal(tg.rand(3, generator=h), first)


DROPOUTS = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
            "FeatureAlphaDropout"]


@pytest.mark.parametrize("name", DROPOUTS)
def test_dropout_bases(name):
    def bases(L):
        base = importlib.import_module(f"{L.__name__}.nn.modules.dropout")._DropoutNd
        m = getattr(L.nn, name)(0.25)
        return isinstance(m, base), isinstance(m, L.nn.Dropout), repr(m)
    assert bases(tg) == bases(torch)


def test_custom_dropout_and_norm_bases():
    def custom(L):
        base = importlib.import_module(f"{L.__name__}.nn.modules.dropout")._DropoutNd
        norm = importlib.import_module(f"{L.__name__}.nn.modules.batchnorm")._NormBase

        class Scaled(base):
            def forward(self, x):
                return x * (1 - self.p) if self.training else x

        bad = _outcome(lambda L: base(1.5), L)
        m = Scaled(0.2)
        y = m(L.ones(2, dtype=L.float64))
        return (repr(m), y.tolist(), bad, isinstance(L.nn.BatchNorm1d(3), norm),
                isinstance(L.nn.InstanceNorm1d(3), norm))
    assert custom(tg) == custom(torch)
