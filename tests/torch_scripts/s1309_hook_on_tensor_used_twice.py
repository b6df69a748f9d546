# a hook on a tensor used twice fires once with the summed grad; hooks on leaves vs .grad
import torch

calls = []
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 3
h.register_hook(lambda g: calls.append(g.clone()))
out = (h * h).sum() + h.sum()
out.backward()
print(len(calls), calls[0])
print(x.grad)
y = torch.tensor([1.0], requires_grad=True)
y.register_hook(lambda g: g * 0)
(y * 5).backward()
print(y.grad)
