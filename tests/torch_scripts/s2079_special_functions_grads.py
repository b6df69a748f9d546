import torch

x = torch.tensor([0.5, 1.0, 2.5], requires_grad=True)
fns = {
    "lgamma": torch.lgamma, "digamma": torch.digamma, "erf": torch.erf, "erfc": torch.erfc,
    "erfinv": lambda t: torch.erfinv(t / 3), "expm1": torch.expm1, "log1p": torch.log1p,
    "sinc": torch.sinc, "xlogy": lambda t: torch.xlogy(t, t + 1), "i0": torch.special.i0,
    "i0e": torch.special.i0e, "i1": torch.special.i1, "ndtr": torch.special.ndtr,
    "ndtri": lambda t: torch.special.ndtri(t / 3), "log_ndtr": torch.special.log_ndtr,
    "logit": lambda t: torch.logit(t / 3), "entr": torch.special.entr, "polygamma1": lambda t: torch.polygamma(1, t),
    "mvlgamma": lambda t: torch.mvlgamma(t + 1, p=2), "xlog1py": lambda t: torch.special.xlog1py(t, t),
    "expit": torch.special.expit, "erfcx": torch.special.erfcx, "softplus": torch.nn.functional.softplus,
    "logaddexp": lambda t: torch.logaddexp(t, 2 * t), "hypot": lambda t: torch.hypot(t, t + 1),
    "atan2": lambda t: torch.atan2(t, 1 - t), "gammaln_zeta": lambda t: torch.special.zeta(t + 2, torch.tensor(1.0)),
}
for name, f in fns.items():
    y = f(x)
    try:
        (g,) = torch.autograd.grad(y.sum(), x)
        gs = g.round(decimals=5)
    except (RuntimeError, NotImplementedError) as e:
        gs = type(e).__name__
    print(name, y.detach().round(decimals=5), gs)
print(torch.special.gammainc(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0])).round(decimals=5))
print(torch.special.bessel_j0(torch.tensor([0.0, 1.0, 5.0])).round(decimals=5))
print(torch.special.log_softmax(torch.tensor([1.0, 2.0, 3.0]), 0).round(decimals=5))
print(torch.special.round(torch.tensor([0.5, 1.5, 2.5])), torch.special.exp2(torch.tensor([3.0])))
