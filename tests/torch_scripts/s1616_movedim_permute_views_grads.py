# axis moves: movedim, permute, swapaxes, unflatten, flatten ranges, views sharing storage
import torch

x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
m = x.movedim(0, -1)
print(m.shape, m.is_contiguous(), m.grad_fn.name(), m._base is x)
p = x.permute(2, 0, 1)
print(p.shape, p.stride(), x.swapaxes(0, 2).shape, x.mT.shape)
u = x.flatten(1).unflatten(1, (4, 3))
print(u.shape, u.grad_fn.name())
(m[..., 1] * 2).sum().backward()
print(x.grad[1, 0])
v = x.detach().view(6, 4)
v[0, 0] = 100
print(x[0, 0, 0], v.data_ptr() == x.data_ptr())
print(x.detach().T.shape if x.dim() == 2 else x.detach().permute(*reversed(range(3))).shape)
print(torch.movedim(x.detach(), (0, 1), (2, 0)).shape, x.detach().squeeze(0).shape, x.detach().unsqueeze(-1).stride())
try:
    x.permute(0, 1)
except RuntimeError as e:
    print(e)
