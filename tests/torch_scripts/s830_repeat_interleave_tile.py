# repeat vs repeat_interleave vs tile vs expand: the differences people ask about, with
# tensor repeats, dims, output_size, and gradients through each
import torch

a = torch.tensor([[1, 2], [3, 4]])
print(a.repeat(2, 1), a.repeat(1, 2, 1).shape, a.tile((2,)), a.tile((2, 1, 1)).shape)
print(a.repeat_interleave(2), a.repeat_interleave(2, dim=0), a.repeat_interleave(torch.tensor([1, 3]), dim=1))
print(torch.repeat_interleave(torch.tensor([2, 0, 1])), torch.repeat_interleave(torch.tensor([5, 6]), torch.tensor([1, 2]), output_size=3))
print(a.expand(3, 2, 2).shape, a[:, None].expand(-1, 3, -1).reshape(-1, 2))
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x.repeat(3) * torch.arange(6.0)).sum().backward()
print(x.grad)
x.grad = None
(x.repeat_interleave(3) * torch.arange(6.0)).sum().backward()
print(x.grad)
x.grad = None
(x.expand(4, 2) * torch.arange(8.0).view(4, 2)).sum().backward()
print(x.grad)
x.grad = None
x.tile(2).pow(2).sum().backward()
print(x.grad)
print(torch.ones(2, 3).repeat_interleave(2, dim=-1).shape, torch.tensor(7).repeat(3), torch.tensor([1, 2]).repeat(2, 2))
