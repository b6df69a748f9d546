# shifting and flipping: roll, flip, rot90, fliplr/flipud, and gradients routed back
import torch

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
r = torch.roll(x, shifts=1, dims=1)
print(r, r.grad_fn.name())
(r * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
print(x.grad)
print(torch.roll(x.detach(), 2), torch.roll(x.detach(), (1, -1), (0, 1)))
x.grad = None
f = x.flip(0, 1)
(f * torch.arange(6.0).reshape(2, 3)).sum().backward()
print(f, x.grad)
print(torch.rot90(x.detach()), torch.rot90(x.detach(), 2), torch.rot90(x.detach(), -1, (0, 1)))
print(x.detach().fliplr(), x.detach().flipud())
try:
    torch.rot90(x.detach(), 1, (0, 0))
except RuntimeError as e:
    print(e)
