import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp


def exp_reducer(x):
    return x.exp().sum(dim=1)


inputs = torch.linspace(-1, 1, 4).view(2, 2)
print(jacobian(exp_reducer, inputs).round(decimals=4))
print(jacobian(exp_reducer, inputs, create_graph=True).grad_fn is not None)


def exp_adder(x, y):
    return 2 * x.exp() + 3 * y


jx, jy = jacobian(exp_adder, (torch.tensor([0.5, 1.0]), torch.tensor([1.0, 2.0])))
print(jx, jy)


def pow_reducer(x):
    return x.pow(3).sum()


print(hessian(pow_reducer, torch.tensor([[1.0, 2.0], [3.0, 4.0]])).shape)
print(hessian(pow_reducer, torch.tensor([1.0, -2.0])))
v = torch.ones(2)
out, vjp_val = vjp(exp_reducer, inputs, v)
print(out.round(decimals=4), vjp_val.round(decimals=4))
out, jvp_val = jvp(exp_reducer, inputs, torch.ones(2, 2))
print(jvp_val.round(decimals=4))
out, hvp_val = hvp(pow_reducer, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0]))
print(out, hvp_val)
print(jacobian(lambda x: x ** 2, torch.tensor([1.0, 2.0, 3.0]), vectorize=True, strategy="reverse-mode"))
print(jacobian(lambda x: x.sin(), torch.tensor([0.0, 1.0]), strategy="forward-mode", vectorize=True).round(decimals=6))
