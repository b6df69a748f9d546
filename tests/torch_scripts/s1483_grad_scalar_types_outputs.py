# autograd.grad with outputs as a list, grad_outputs mixing None and tensors, only_inputs
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y1 = x.prod()
y2 = x * 3
g = torch.autograd.grad([y1, y2], x, grad_outputs=[None, torch.tensor([1.0, -1.0])])
print(g)
g2 = torch.autograd.grad(outputs=(x ** 2).sum(), inputs=(x,), create_graph=False)
print(g2, g2[0].requires_grad)
try:
    torch.autograd.grad(x.sum(), torch.tensor([1.0]))
except RuntimeError as e:
    print("RuntimeError", str(e)[:50])
try:
    torch.autograd.grad(torch.tensor(1.0), x)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
