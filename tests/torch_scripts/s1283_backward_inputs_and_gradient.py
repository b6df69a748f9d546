# backward on a non-scalar needs gradient=; backward(inputs=...) restricts accumulation
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
y = a * b
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:48])
y.backward(gradient=torch.tensor([1.0, 0.1]), inputs=[a], retain_graph=True)
print(a.grad, b.grad)
y.backward(torch.ones(2), inputs=b)
print(a.grad, b.grad)
torch.autograd.backward([a.sum(), (b ** 2).sum()], grad_tensors=[torch.tensor(2.0), None])
print(a.grad, b.grad)
