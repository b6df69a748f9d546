# second derivatives of common activations via double backward
import torch
import torch.nn.functional as F

x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
for name, f in [("softplus", F.softplus), ("elu", F.elu), ("gelu", F.gelu), ("silu", F.silu),
                ("mish", F.mish), ("selu", F.selu), ("celu", lambda t: F.celu(t, 0.5)),
                ("tanh_gelu", lambda t: F.gelu(t, approximate="tanh")), ("logsigmoid", F.logsigmoid),
                ("hardswish", F.hardswish), ("tanhshrink", F.tanhshrink)]:
    (d1,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    (d2,) = torch.autograd.grad(d1.sum(), x)
    print(name, d1.detach(), d2)
