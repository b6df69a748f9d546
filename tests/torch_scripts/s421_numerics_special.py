import torch

x = torch.tensor([0.1, 0.5, 1.0, 2.5, 10.0])
sp = torch.special
print(sp.erfinv(torch.tensor([-0.5, 0.0, 0.9])), sp.expit(x), sp.logit(torch.tensor([0.2, 0.7]), eps=1e-6))
print(sp.gammaln(x), sp.digamma(x), sp.polygamma(1, x), sp.multigammaln(x + 2, 2))
print(sp.i0(x), sp.i0e(x), sp.i1(x), sp.i1e(x), sp.ndtr(x), sp.ndtri(torch.tensor([0.1, 0.5])), sp.log_ndtr(-x))
print(sp.xlogy(x, x), sp.xlog1py(x, x), sp.entr(x), sp.sinc(x), sp.round(x), sp.log1p(x), sp.expm1(x), sp.exp2(x))
print(sp.zeta(x + 1, torch.tensor(1.0)), sp.softmax(x, 0), sp.log_softmax(x, 0), sp.logsumexp(x, 0), sp.erfcx(x))
print(sp.bessel_j0(x), sp.bessel_j1(x), sp.gammainc(x, x), sp.gammaincc(x, 2 * x))
print(torch.lgamma(x), torch.mvlgamma(x + 2, 3), torch.igamma(x, x), torch.sinc(x), torch.frexp(x), torch.ldexp(x, torch.tensor(2)))
print(torch.hypot(x, x), torch.logaddexp(x, -x), torch.logaddexp2(x, x), torch.copysign(x, -1), torch.nextafter(torch.tensor(1.0), torch.tensor(2.0)) - 1)
print(torch.fmod(torch.tensor([-3.0, 3.0]), 2), torch.remainder(torch.tensor([-3.0, 3.0]), 2), torch.float_power(torch.tensor([2]), 3), torch.trunc(-x), torch.fix(-x))
print(torch.gcd(torch.tensor([12, 18]), torch.tensor([8, 27])), torch.lcm(torch.tensor([4]), torch.tensor([6])), torch.signbit(torch.tensor([-0.0, 1.0])))
print(torch.isclose(x, x + 1e-9), torch.isfinite(torch.tensor([1.0, float("inf")])), torch.isneginf(torch.tensor([-float("inf")])), torch.isreal(x).all())
y = x.clone().requires_grad_()
for fn in (sp.erfinv, sp.i0, sp.ndtri, sp.xlogy, sp.entr, sp.log_ndtr, sp.i1e, sp.erfcx, sp.sinc):
    val = fn(y / 11) if fn in (sp.erfinv, sp.ndtri) else (fn(y, y) if fn is sp.xlogy else fn(y))
    g, = torch.autograd.grad(val.sum(), y)
    print(fn.__name__, g.round(decimals=5))
