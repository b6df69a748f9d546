# register_hook on intermediate tensors to capture and scale grads
import torch

grads = {}
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * 2
h.register_hook(lambda g: grads.__setitem__("h", g.clone()))
z = h.exp()
handle = z.register_hook(lambda g: g * 0.5)
out = z.sum()
out.backward()
print(grads["h"])
print(x.grad)
handle.remove()
x.grad = None
(x * 2).exp().sum().backward()
print(x.grad)
