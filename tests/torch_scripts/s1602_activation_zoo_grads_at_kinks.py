# activations at their kinks: relu6, hardtanh, hardswish, hardsigmoid, threshold, rrelu eval
import torch
import torch.nn as nn
import torch.nn.functional as F

pts = torch.tensor([-3.0, -1.0, 0.0, 1.0, 3.0, 6.0], requires_grad=True)
acts = {"relu6": F.relu6, "hardtanh": F.hardtanh, "hardswish": F.hardswish,
        "hardsigmoid": F.hardsigmoid, "threshold": lambda t: F.threshold(t, 1.0, -5.0),
        "softplus": lambda t: F.softplus(t, beta=2, threshold=5), "mish": F.mish,
        "silu": F.silu, "logsigmoid": F.logsigmoid, "softsign": F.softsign,
        "tanhshrink": F.tanhshrink, "leaky": lambda t: F.leaky_relu(t, 0.1)}
for name, f in acts.items():
    y = f(pts)
    (g,) = torch.autograd.grad(y.sum(), pts)
    print(name, y.detach(), g, y.grad_fn.name())
r = nn.RReLU(0.1, 0.3)
r.eval()
print(r(pts.detach()), r)
print(nn.Hardtanh(-2, 2), nn.Threshold(0.5, 0.0), nn.Softplus(beta=2.0))
print(F.glu(torch.tensor([1.0, 2.0, 0.0, 1.0])), F.softmin(torch.tensor([1.0, 2.0]), 0))
