"""tapegrad for SciPy users: gradients, Hessian-vector products and sparse Hessians for
scipy.optimize.minimize, and a sparse Jacobian for scipy.optimize.least_squares.

    python examples/scipy_optimize.py

Each derivative is traced once and replayed at every iterate (tapegrad.compile and the
plans of tapegrad.sparse); the sparse ones come as scipy.sparse CSR matrices.
"""
import time

import numpy as np
from scipy.optimize import least_squares, minimize

import tapegrad as tg


def chain(x):
    """A smooth convex chain: exp(x) - 2 x per variable, coupled to its neighbours (a
    tridiagonal Hessian)."""
    return (x.exp() - 2 * x).sum() + ((x[1:] - x[:-1]) ** 2).sum() \
        + 0.1 * ((x[1:] + x[:-1]) ** 4).sum()


def broyden_tridiagonal(x):
    """Broyden's tridiagonal equations (More, Garbow and Hillstrom's test set):
    (3 - 2 x_i) x_i - x_{i-1} - 2 x_{i+1} + 1 = 0, x_0 = x_{n+1} = 0: a tridiagonal
    Jacobian."""
    padded = tg.cat([tg.zeros(1), x, tg.zeros(1)])
    return (3 - 2 * x) * x - padded[:-2] - 2 * padded[2:] + 1


def main():
    n = 1000
    x0 = np.linspace(-1.0, 2.0, n)
    f = tg.compile(chain)

    # 1. gradient with the value (jac=True) and Hessian-vector products (hessp)
    t = time.perf_counter()
    res = minimize(f.value_and_grad, x0, jac=True, hessp=f.hvp, method="Newton-CG",
                   options={"xtol": 1e-12})
    g = abs(f.grad(res.x)).max()
    print(f"Newton-CG, jac=True, hessp: f = {res.fun:.6f}, max |grad| = {g:.1e}, "
          f"{res.nit} iterations, {time.perf_counter() - t:.2f} s")
    assert res.success and g < 1e-8
    best = res.fun

    # 2. the sparse Hessian (a CSR matrix): pattern and star colouring found once
    hess = tg.sparse.hessian_plan(chain, x0)
    print(f"sparse Hessian: {hess.pattern.nnz} nonzeros of {n * n}, {hess.ncolors} "
          "Hessian-vector products per evaluation")
    t = time.perf_counter()
    res = minimize(f.value_and_grad, x0, jac=True, hess=hess, method="trust-constr",
                   options={"gtol": 1e-10, "xtol": 1e-14})
    g = abs(f.grad(res.x)).max()
    print(f"trust-constr, sparse hess: f = {res.fun:.6f}, max |grad| = {g:.1e}, "
          f"{res.nit} iterations, {time.perf_counter() - t:.2f} s")
    assert g < 1e-6 and abs(res.fun - best) < 1e-8

    # 3. least squares with a sparse Jacobian (a callable returning CSR)
    m = 2000
    r = tg.compile(broyden_tridiagonal)
    jac = tg.sparse.jacobian_plan(broyden_tridiagonal, -np.ones(m))
    print(f"sparse Jacobian: {jac.pattern.nnz} nonzeros of {m * m}, {jac.ncolors} "
          f"{jac.mode} sweeps per evaluation")
    t = time.perf_counter()
    res = least_squares(r, -np.ones(m), jac=jac, method="trf", xtol=1e-15, ftol=1e-15,
                        gtol=1e-15)
    print(f"least_squares, sparse jac: cost = {res.cost:.1e}, max |r| = "
          f"{abs(res.fun).max():.1e}, {res.nfev} evaluations, {time.perf_counter() - t:.2f} s")
    assert abs(res.fun).max() < 1e-10

if __name__ == "__main__":
    main()
