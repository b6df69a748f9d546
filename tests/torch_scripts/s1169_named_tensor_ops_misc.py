# Everyday tensor reshaping: expand vs repeat vs repeat_interleave, tile, broadcast_to, narrow, movedim, flatten ranges
import torch

x = torch.tensor([[1, 2, 3]])
print(x.expand(2, 3), x.repeat(2, 2), x.repeat_interleave(2, dim=1), torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([3, 1])))
print(torch.tile(torch.tensor([1, 2]), (2, 2)), torch.broadcast_to(torch.tensor([1, 2]), (3, 2)), torch.broadcast_shapes((2, 1), (1, 3)))
y = torch.arange(24).view(2, 3, 4)
print(y.narrow(2, 1, 2).shape, y.movedim(0, -1).shape, y.flatten(1).shape, y.flatten(0, 1).shape, y.unflatten(2, (2, 2)).shape)
print(y.permute(2, 0, 1).is_contiguous(), y.permute(2, 0, 1).contiguous().is_contiguous(), y.mT.shape, y[..., None].shape, y[:, None, :, None].shape)
print(y.squeeze().shape, torch.zeros(1, 2, 1).squeeze((0, 2)).shape, y.unsqueeze(-1).stride(), y.stride(), y.view(-1, 4).shape)
print(torch.zeros(3, 1).expand(-1, 4).stride(), x.expand(2, 3).contiguous().stride(), y.transpose(0, 2).stride())
a = torch.tensor([1.0, 2.0], requires_grad=True)
(a.repeat(3) * torch.arange(6.0)).sum().backward()
print(a.grad)
a.grad = None
(a.expand(3, 2) * torch.arange(6.0).view(3, 2)).sum().backward()
print(a.grad)
a.grad = None
(a.repeat_interleave(torch.tensor([2, 1])) * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(a.grad)
