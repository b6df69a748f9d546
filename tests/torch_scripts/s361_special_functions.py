import torch
import torch.special as S

x = torch.tensor([0.3, 1.2, 2.5, 4.0], requires_grad=True)
fns = {
    "gammaln": S.gammaln, "digamma": S.digamma, "polygamma1": lambda t: S.polygamma(1, t), "polygamma2": lambda t: torch.polygamma(2, t),
    "erf": S.erf, "erfc": S.erfc, "erfinv": lambda t: S.erfinv(t / 5), "erfcx": S.erfcx, "expit": S.expit, "logit": lambda t: S.logit(t / 5),
    "i0": S.i0, "i0e": S.i0e, "i1": S.i1, "i1e": S.i1e, "ndtr": S.ndtr, "ndtri": lambda t: S.ndtri(t / 5), "log_ndtr": S.log_ndtr,
    "xlogy": lambda t: S.xlogy(t, t + 1), "xlog1py": lambda t: S.xlog1py(t, t), "sinc": S.sinc, "entr": S.entr, "expm1": S.expm1,
    "log1p": S.log1p, "exp2": S.exp2, "round": S.round, "multigammaln": lambda t: S.multigammaln(t + 2, 2), "lgamma": torch.lgamma,
    "mvlgamma": lambda t: torch.mvlgamma(t + 1, 1),
}
for name, f in fns.items():
    x.grad = None
    y = f(x)
    if y.requires_grad:
        y.sum().backward()
        g = [round(v, 5) for v in x.grad.tolist()]
    else:
        g = None
    print(name, [round(v, 6) for v in y.tolist()], g)
print(S.zeta(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 2.0])), S.gammainc(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0])), S.gammaincc(torch.tensor([1.0]), torch.tensor([0.5])))
print(S.bessel_j0(torch.tensor([0.0, 1.0, 5.0])), S.bessel_j1(torch.tensor([1.0])), S.spherical_bessel_j0(torch.tensor([1.0, 2.0])))
print(S.logsumexp(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=1), S.softmax(torch.tensor([1.0, 2.0]), 0), S.log_softmax(torch.tensor([1.0, 2.0]), 0))
print(S.airy_ai(torch.tensor([0.0, 1.0])), S.scaled_modified_bessel_k0(torch.tensor([1.0])), S.modified_bessel_i0(torch.tensor([1.0])))
print(S.chebyshev_polynomial_t(torch.tensor([0.5]), 3), S.hermite_polynomial_h(torch.tensor([0.5]), 3), S.legendre_polynomial_p(torch.tensor([0.5]), 2), S.laguerre_polynomial_l(torch.tensor([0.5]), 2))
print(torch.digamma(torch.tensor([0.0, -1.0, 1.0])), torch.lgamma(torch.tensor([0.0, -1.0, -0.5])), torch.polygamma(1, torch.tensor([0.0])))
