import torch
import torch.nn.functional as F

x = torch.linspace(-3, 3, 7, requires_grad=True)
acts = {
    "softplus_beta": lambda v: F.softplus(v, beta=2.0, threshold=4.0), "elu": lambda v: F.elu(v, alpha=0.5),
    "celu": lambda v: F.celu(v, alpha=2.0), "selu": F.selu, "glu": lambda v: F.glu(torch.cat([v, v.flip(0)])),
    "hardtanh": lambda v: F.hardtanh(v, -2.0, 1.5), "threshold": lambda v: F.threshold(v, 0.5, -9.0),
    "rrelu_eval": lambda v: F.rrelu(v, training=False), "logsigmoid": F.logsigmoid, "mish": F.mish, "silu": F.silu,
    "hardshrink": lambda v: F.hardshrink(v, 1.5), "softshrink": lambda v: F.softshrink(v, 1.0), "tanhshrink": F.tanhshrink,
    "softsign": F.softsign, "hardsigmoid": F.hardsigmoid, "hardswish": F.hardswish, "relu6": F.relu6,
    "leaky": lambda v: F.leaky_relu(v, 0.2), "prelu": lambda v: F.prelu(v, torch.tensor([0.25])), "gelu_tanh": lambda v: F.gelu(v, approximate="tanh"),
    "softmin": lambda v: F.softmin(v, dim=0), "softmax_dtype": lambda v: F.softmax(v, dim=0, dtype=torch.float32).double(),
}
for name, f in acts.items():
    x.grad = None
    y = f(x)
    y.sum().backward()
    print(name, y.detach().round(decimals=4).tolist(), x.grad.round(decimals=4).tolist())
v = torch.tensor([-1.0, 0.5, 2.0])
F.relu_(v)
print(v)
F.hardtanh_(v, 0.0, 1.0)
print(v, F.elu_(torch.tensor([-1.0])), F.leaky_relu_(torch.tensor([-2.0]), 0.1))
print(F.dropout(v, p=0.5, training=False), F.alpha_dropout(v, 0.5, training=False), F.feature_alpha_dropout(v, 0.2, training=False))
print(F.gumbel_softmax(torch.zeros(2, 3), tau=0.5, hard=True).sum(1), F.normalize(torch.tensor([[0.0, 0.0]]), eps=1e-3))
