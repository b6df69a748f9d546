# activation values on a fixed grid: GELU (tanh), SiLU, Mish, ELU alpha, CELU, SELU, Softplus threshold, Hardswish, LogSigmoid, Softsign, Tanhshrink, Threshold, PReLU, RReLU eval, GLU
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.linspace(-3, 3, 7)
for name, f in [("gelu", lambda t: F.gelu(t)), ("gelu_tanh", lambda t: F.gelu(t, approximate="tanh")),
                ("silu", F.silu), ("mish", F.mish), ("elu", lambda t: F.elu(t, alpha=0.5)),
                ("celu", lambda t: F.celu(t, alpha=2.0)), ("selu", F.selu),
                ("softplus", lambda t: F.softplus(t, beta=2, threshold=3)), ("hardswish", F.hardswish),
                ("hardsigmoid", F.hardsigmoid), ("logsigmoid", F.logsigmoid), ("softsign", F.softsign),
                ("tanhshrink", F.tanhshrink), ("hardshrink", lambda t: F.hardshrink(t, 1.5)),
                ("softshrink", lambda t: F.softshrink(t, 0.5)), ("relu6", F.relu6),
                ("threshold", lambda t: F.threshold(t, 1.0, -9.0)), ("leaky", lambda t: F.leaky_relu(t, 0.1))]:
    print(name, f(x).round(decimals=4))
pr = nn.PReLU(num_parameters=1, init=0.3)
print(pr(x).round(decimals=4))
rr = nn.RReLU(0.1, 0.3).eval()
print(rr(x).round(decimals=4))
print(F.glu(torch.arange(8.0).view(2, 4), dim=1).round(decimals=4))
g = x.clone().requires_grad_()
F.mish(g).sum().backward()
print(g.grad.round(decimals=4))
print(F.softmin(torch.tensor([1.0, 2.0, 3.0]), dim=0).round(decimals=4), F.log_softmax(torch.tensor([[1.0, 2.0]]), dim=-1))
