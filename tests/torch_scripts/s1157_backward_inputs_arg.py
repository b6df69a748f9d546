# backward(inputs=...) restricts accumulation; grad of non-leaf via inputs; retain_grad interplay
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
h = a * b
h.retain_grad()
loss = (h ** 2).sum()
loss.backward(inputs=[a], retain_graph=True)
print(a.grad, b.grad, h.grad)
loss.backward(inputs=[b, h], retain_graph=True)
print(a.grad, b.grad, h.grad)
loss.backward()
print(a.grad, b.grad, h.grad)
c = torch.tensor(2.0, requires_grad=True)
(c ** 3).backward(gradient=torch.tensor(0.5), inputs=c)
print(c.grad)
torch.autograd.backward([(a * 2).sum(), (b * 3).sum()], grad_tensors=[torch.tensor(1.0), torch.tensor(2.0)])
print(a.grad, b.grad)
