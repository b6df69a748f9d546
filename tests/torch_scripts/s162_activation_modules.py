import torch
import torch.nn as nn

x = torch.linspace(-3, 3, 7, requires_grad=True)
acts = [nn.SiLU(), nn.Mish(), nn.Hardswish(), nn.Hardsigmoid(), nn.CELU(alpha=0.5), nn.SELU(),
        nn.LogSigmoid(), nn.Softsign(), nn.Tanhshrink(), nn.Hardshrink(0.6), nn.Softshrink(0.6),
        nn.ReLU6(), nn.ELU(alpha=1.2), nn.LeakyReLU(0.05), nn.Softplus(beta=2, threshold=5)]
for act in acts:
    y = act(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    print(repr(act), y.grad_fn.name(), [round(v, 4) for v in y.tolist()], [round(v, 4) for v in g.tolist()])
m = torch.arange(12.0).reshape(2, 6)
print(nn.GLU()(m), nn.GLU(dim=0)(m.T))
print(nn.Softmin(dim=1)(m[:, :3]))
img = torch.arange(2 * 3 * 2 * 2.0).reshape(2, 3, 2, 2) / 10
print(nn.Softmax2d()(img)[0].round(decimals=4))
print(nn.Threshold(0.5, -1.0)(x.detach()))
