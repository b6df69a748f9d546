# shape helpers: movedim, unflatten, swapaxes, squeeze multi-dim, expand_as, repeat vs tile, grads
import torch

x = torch.arange(6.0).reshape(1, 2, 3, 1).requires_grad_()
print(x.squeeze((0, 3)).shape, x.squeeze().shape, x.movedim(1, -1).shape, x.swapaxes(1, 2).shape)
print(x.flatten().unflatten(0, (3, 2)))
y = x.squeeze().repeat(2, 1)
z = x.squeeze().tile((1, 2))
print(y.shape, z.shape)
(y.sum() + (z * 2).sum()).backward()
print(x.grad.squeeze())
print(torch.ones(3, 1).expand_as(torch.zeros(3, 4)).shape, torch.ones(2, 3).expand(-1, 3).shape)
print(torch.arange(4).reshape(2, 2).T.contiguous().view(-1), torch.arange(4).view(2, 2).mT)
