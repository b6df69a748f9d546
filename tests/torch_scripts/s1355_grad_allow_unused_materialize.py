# autograd.grad with unused inputs: allow_unused, materialize_grads, create_graph
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
c = torch.tensor(4.0, requires_grad=True)
y = (a * c).sum()
try:
    torch.autograd.grad(y, [a, b, c], retain_graph=True)
except RuntimeError as e:
    print("err:", str(e).split("\n")[0])
ga, gb, gc = torch.autograd.grad(y, [a, b, c], allow_unused=True, retain_graph=True)
print(ga, gb, gc)
ga, gb, gc = torch.autograd.grad(y, [a, b, c], materialize_grads=True, create_graph=True)
print(ga, gb, gc, ga.requires_grad, gb.requires_grad)
h = torch.autograd.grad(ga.sum(), c)
print(h)
