import torch
import torch.nn as nn

x = torch.tensor([-3.0, -1.0, -0.25, 0.0, 0.3, 1.0, 2.5], requires_grad=True)
acts = [nn.Softsign(), nn.LogSigmoid(), nn.Softshrink(0.5), nn.Tanhshrink(), nn.Mish(),
        nn.Hardswish(), nn.Hardsigmoid(), nn.CELU(alpha=0.5), nn.SELU(), nn.Threshold(0.2, -9.0),
        nn.Hardtanh(-0.5, 1.5), nn.Hardshrink(0.3), nn.ReLU6(), nn.SiLU(), nn.GELU(approximate="tanh"),
        nn.ELU(alpha=2.0), nn.LeakyReLU(0.1), nn.Softplus(beta=2.0, threshold=3.0)]
for act in acts:
    if x.grad is not None:
        x.grad = None
    y = act(x)
    y.sum().backward()
    print(f"{act!r:45s}", [round(v, 4) for v in y.tolist()], [round(v, 4) for v in x.grad.tolist()])
m = torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
print(nn.Softmin(dim=1)(m).round(decimals=4))
print(nn.GLU(dim=-1)(torch.tensor([[1.0, 2.0, 0.0, -1.0]])).round(decimals=4))
pr = nn.PReLU(num_parameters=3, init=0.1)
z = torch.tensor([[-1.0, -2.0, 3.0], [2.0, -0.5, -1.0]])
out = pr(z)
out.sum().backward()
print(out.detach(), pr.weight.grad)
print(nn.Softmax2d()(torch.zeros(1, 2, 1, 2)))
rr = nn.RReLU(0.1, 0.3)
rr.eval()
print(rr(torch.tensor([-1.0, 1.0])))
