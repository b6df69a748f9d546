# Gradients at non-differentiable points: abs/relu/clamp/leaky_relu/hardtanh/elu/max/min at ties and boundaries
import torch
import torch.nn.functional as F

x = torch.tensor([-1.0, 0.0, 1.0, 2.0], requires_grad=True)
for name, f in [("abs", torch.abs), ("relu", F.relu), ("clamp", lambda t: t.clamp(0.0, 1.0)), ("leaky", lambda t: F.leaky_relu(t, 0.1)),
                ("hardtanh", lambda t: F.hardtanh(t, -1.0, 1.0)), ("elu", F.elu), ("relu6", lambda t: F.relu6(t * 3)), ("sign", torch.sign),
                ("hardsigmoid", F.hardsigmoid), ("hardswish", F.hardswish), ("softshrink", lambda t: F.softshrink(t, 1.0)), ("threshold", lambda t: F.threshold(t, 1.0, 0.0))]:
    g, = torch.autograd.grad(f(x).sum(), x)
    print(name, g)
t = torch.tensor([3.0, 1.0, 3.0, 2.0], requires_grad=True)
for name, f in [("max", lambda a: a.max()), ("amax", lambda a: a.amax()), ("maxdim", lambda a: a.max(dim=0).values), ("min", lambda a: a.min()),
                ("norm_inf", lambda a: a.norm(p=float("inf"))), ("median", lambda a: torch.tensor([1.0, 2.0, 2.0, 3.0]).sum() * 0 + a.median()),
                ("maximum", lambda a: torch.maximum(a, torch.tensor(3.0)).sum()), ("fmax", lambda a: torch.fmax(a, torch.full((4,), 2.0)).sum())]:
    g, = torch.autograd.grad(f(t), t)
    print(name, g)
z = torch.tensor([0.0, 4.0], requires_grad=True)
print(torch.autograd.grad(z.sqrt().sum(), z)[0], torch.autograd.grad((z ** 0.5).sum(), z)[0], torch.autograd.grad((z ** 0).sum(), z)[0], torch.autograd.grad((z ** 2).sum(), z)[0])
print(torch.autograd.grad(torch.pow(z, 1.5).sum(), z)[0], torch.autograd.grad(z.norm(), z)[0], torch.autograd.grad(F.normalize(z, dim=0).sum(), z)[0])
o = torch.zeros(2, requires_grad=True)
print(torch.autograd.grad(o.norm(), o)[0], torch.autograd.grad(torch.linalg.vector_norm(o), o)[0], torch.autograd.grad(o.abs().sum(), o)[0])
