import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.linspace(-3, 3, 9, requires_grad=True)
acts = {
    "selu": F.selu, "celu": lambda v: F.celu(v, alpha=0.5), "hardswish": F.hardswish,
    "hardsigmoid": F.hardsigmoid, "hardtanh": lambda v: F.hardtanh(v, -2.0, 2.0),
    "relu6": F.relu6, "softsign": F.softsign, "tanhshrink": F.tanhshrink,
    "softshrink": lambda v: F.softshrink(v, 0.5), "hardshrink": lambda v: F.hardshrink(v, 1.0),
    "threshold": lambda v: F.threshold(v, 0.5, -1.0), "logsigmoid": F.logsigmoid,
    "rrelu_eval": lambda v: F.rrelu(v, training=False), "elu": lambda v: F.elu(v, 2.0),
    "gelu_tanh": lambda v: F.gelu(v, approximate="tanh"), "mish": F.mish, "silu": F.silu,
    "leaky": lambda v: F.leaky_relu(v, 0.2), "softplus": lambda v: F.softplus(v, beta=2, threshold=3),
}
for name, fn in acts.items():
    if x.grad is not None:
        x.grad = None
    y = fn(x)
    y.sum().backward()
    print(name, [round(v, 5) for v in y.tolist()], [round(v, 5) for v in x.grad.tolist()])
print(F.dropout(x, p=0.5, training=False) is x, F.alpha_dropout(x, 0.3, training=False).equal(x))
print(nn.SELU(), nn.CELU(0.5), nn.Hardswish(), nn.RReLU(0.1, 0.3), nn.Threshold(0.1, 20), nn.Softplus(2, 10), nn.GLU(dim=0))
m = nn.PReLU(num_parameters=3, init=0.1)
z = torch.tensor([[-1.0, 2.0, -3.0], [4.0, -5.0, 6.0]])
out = m(z)
out.sum().backward()
print(out, m.weight.grad)
print(F.glu(torch.arange(8.0).view(2, 4), dim=-1))
print(nn.Softmax2d()(torch.arange(8.0).view(1, 2, 2, 2)))
