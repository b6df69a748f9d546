# full backward hook on a module with two inputs, one not requiring grad
import torch
import torch.nn as nn

class Mix(nn.Module):
    def forward(self, a, b):
        return a * b + a

def hook(m, gin, gout):
    print("gin", [None if g is None else g.tolist() for g in gin])
    print("gout", [g.tolist() for g in gout])

m = Mix()
m.register_full_backward_hook(hook)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
m(a, b).sum().backward()
print(a.grad)
b2 = torch.tensor([3.0, 4.0], requires_grad=True)
m(a, b2).pow(2).sum().backward()
print(a.grad, b2.grad)
