# in-place ops on non-leaf tensors keep gradients right: relu_, mul_, add_, sigmoid_, clamp_
import torch

x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y = x * 2
y.relu_()
y = y.mul(3).add_(1)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
x.grad = None
z = x.clone()
z.sigmoid_()
z = z.clamp(max=0.8)
z.sum().backward()
print(z, x.grad)
x.grad = None
w = x.exp() * 1
w[1:] *= 2
w.sum().backward()
print(x.grad)
