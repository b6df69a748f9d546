# backward of a non-scalar: the grad-can-be-implicitly-created error, then gradient=
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x ** 2
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:50])
y.backward(torch.tensor([[1.0, 0.0], [0.5, 2.0]]), retain_graph=True)
print(x.grad)
try:
    y.backward(torch.ones(3))
except RuntimeError as e:
    print("RuntimeError", str(e)[:45])
torch.autograd.backward([y.sum(), (x * 3).sum()], [torch.tensor(2.0), None])
print(x.grad)
