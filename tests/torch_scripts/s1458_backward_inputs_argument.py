# backward(inputs=...) restricts accumulation; autograd.grad on a subset
import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b + b ** 2
c.backward(inputs=[a], retain_graph=True)
print(a.grad, b.grad)
c.backward(inputs=[b], retain_graph=True)
print(a.grad, b.grad)
torch.autograd.backward(c, inputs=(a, b))
print(a.grad, b.grad)
d = a * 2
try:
    d.backward(inputs=[])
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
