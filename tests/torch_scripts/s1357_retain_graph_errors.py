# second backward without retain_graph, then with it: grads accumulate
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x.exp() * x).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e)[:80])
z = x.pow(3).sum()
g = torch.autograd.grad(z, x, create_graph=True)[0]
g.sum().backward()
print(x.grad)
try:
    torch.autograd.grad(z, x)
except RuntimeError as e:
    print("grad again:", str(e)[:60])
