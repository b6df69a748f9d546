"""``torch.quasirandom.SobolEngine``: Sobol low-discrepancy points in [0, 1)^dimension,
drawn by SciPy's generator (Joe & Kuo's direction numbers, as PyTorch's).  Unscrambled
draws equal PyTorch's; scrambled ones (``scramble=True``) use SciPy's scrambling, so they
differ from PyTorch's numbers but not in kind.  Draws are constants (no gradient)."""
import copy
import warnings
import weakref

from . import creation, dtypes
from ._state import state


class SobolEngine:
    """``draw(n)`` gives the next ``n`` points, shape (n, dimension)."""

    MAXBIT = 30
    MAXDIM = 21201

    def __init__(self, dimension, scramble=False, seed=None):
        if dimension > self.MAXDIM or dimension < 1:
            raise ValueError("Supported range of dimensionality for SobolEngine is "
                             f"[1, {self.MAXDIM}]")
        self.dimension, self.scramble, self.seed = dimension, scramble, seed
        self.reset()

    def _engine(self):
        from scipy.stats import qmc  # SciPy on first use, as tapegrad.special

        return qmc.Sobol(self.dimension, scramble=self.scramble, seed=self.seed)

    def reset(self):
        self._sobol = self._engine()
        self.num_generated = 0
        # the trace this engine was made in, when its points are then f's own (not when
        # scrambled from OS entropy: another scramble at each call of f)
        fixed = not self.scramble or self.seed is not None
        self._made = weakref.ref(state.tracing) if state.tracing is not None and fixed \
            else None
        return self

    def _advance(self):
        """Before points are taken while f is traced: from an engine made outside f (whose
        points depend on the draws before: the next ones at each call) or scrambled from
        entropy, they are a draw (``creation.DRAWS``), which the trace refuses, as it
        refuses ``rand``; it puts the engine back (``_restore``) for f to run eagerly."""
        t = state.tracing
        if t is not None and (self._made is None or self._made() is not t):
            creation.DRAWS[0] += 1
            t.__dict__.setdefault("drawn", {}).setdefault(
                id(self), (self, (copy.deepcopy(self._sobol), self.num_generated)))

    def _restore(self, st):
        self._sobol, self.num_generated = st

    def draw(self, n=1, out=None, dtype=None):
        self._advance()
        with warnings.catch_warnings():  # SciPy warns on counts that are not powers of 2
            warnings.simplefilter("ignore", UserWarning)
            pts = self._sobol.random(n)
        self.num_generated += n
        result = creation.tensor(pts, dtype=dtype or dtypes.default_float())
        if out is not None:
            out.resize_as_(result).copy_(result)
            return out
        return result

    def draw_base2(self, m, out=None, dtype=None):
        total = self.num_generated + 2 ** m
        if total & (total - 1):
            raise ValueError(f"The balance properties of Sobol' points require n to be a "
                             f"power of 2. {self.num_generated} points have been previously "
                             f"generated, then: n={self.num_generated}+2**{m}={total}. If you "
                             "still want to do this, please use 'SobolEngine.draw()' instead.")
        return self.draw(2 ** m, out, dtype)

    def fast_forward(self, n):
        self._advance()
        self._sobol.fast_forward(n)
        self.num_generated += n
        return self

    def __repr__(self):
        parts = [f"dimension={self.dimension}"]
        if self.scramble:
            parts.append("scramble=True")
        if self.seed is not None:
            parts.append(f"seed={self.seed}")
        return f"SobolEngine({', '.join(parts)})"


__all__ = ["SobolEngine"]
