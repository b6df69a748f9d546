"""``torch.quasirandom.SobolEngine``: Sobol low-discrepancy points in [0, 1)^dimension,
drawn by SciPy's generator (Joe & Kuo's direction numbers, as PyTorch's).  Unscrambled
draws equal PyTorch's; scrambled ones (``scramble=True``) use SciPy's scrambling, so they
differ from PyTorch's numbers but not in kind.  Draws are constants (no gradient)."""
import warnings

from . import creation, dtypes


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
        return self

    def draw(self, n=1, out=None, dtype=None):
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
