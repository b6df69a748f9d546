import torch

s = torch.Size([2, 3, 4])
print(s, s.numel(), s[1:], s + (5,), s == (2, 3, 4), list(s), len(s), isinstance(s, tuple))
t = torch.zeros(s)
print(t.size(), t.size(-1), t.shape[0], t.dim(), t.ndimension(), t.nelement(), t.numel())
print(t.new_zeros((2,)).shape, t.new_ones(3, 1).shape, t.new_full((2,), 7.0), t.new_tensor([1, 2]).dtype, t.new_empty(0).shape)
print(torch.Size([]), torch.zeros(()).shape, torch.tensor(5).shape == torch.Size([]))
print(t.unflatten(2, (2, 2)).shape, t.flatten(0, 1).shape, t.movedim(0, -1).shape, t.swapaxes(0, 2).shape)
print([c.shape for c in t.chunk(2, dim=1)], [c.shape for c in t.split([1, 3], dim=2)], [c.shape for c in t.tensor_split(3, dim=2)])
print([x.shape for x in t.unbind(0)], torch.hsplit(t, 3)[0].shape, torch.vsplit(torch.ones(4, 2), [1])[1].shape)
print(t.view(-1, 4).shape, t[..., None].shape, t[None, :, None].shape, t[:, [0, 2]].shape, t[t.sum(-1) == 0].shape)
print(t.expand(3, 2, 3, 4).shape, t.repeat(1, 2, 1).shape, t.tile((2,)).shape, t.repeat_interleave(2, dim=0).shape)
print(torch.broadcast_shapes((2, 1), (1, 3), (3,)), torch.broadcast_tensors(torch.ones(2, 1), torch.ones(3))[0].shape)
print(t.narrow(2, 1, 2).shape, t.select(1, 0).shape, t.diagonal(dim1=1, dim2=2).shape, t.mT.shape)
try:
    t.view(5, -1)
except RuntimeError as e:
    print("RuntimeError", e)
