# tensor hooks that scale or replace gradients, on leaves and intermediates; handle.remove
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x.register_hook(lambda g: g * 10)
y = x * 3
hy = y.register_hook(lambda g: g + 1)
(y ** 2).sum().backward()
print(x.grad)
h.remove(); hy.remove()
x.grad = None
(x * 3).pow(2).sum().backward()
print(x.grad)
z = torch.tensor([1.0, -1.0], requires_grad=True)
z.register_hook(lambda g: None)
z.register_hook(lambda g: print("second hook sees", g))
(z * 2).sum().backward()
print(z.grad)
