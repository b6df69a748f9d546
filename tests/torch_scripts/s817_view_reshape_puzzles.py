# Reshaping puzzles: unflatten, flatten ranges, movedim, swapaxes, view with -1, split into
# patches via unfold, channels-first vs last conversion, squeeze of several dims
import torch

x = torch.arange(24).view(2, 3, 4)
print(x.unflatten(2, (2, 2)).shape, x.flatten(1).shape, x.flatten(0, 1).shape, x.flatten().shape)
print(torch.movedim(x, 0, -1).shape, x.movedim((0, 1), (2, 0)).shape, x.swapaxes(0, 2).shape, x.swapdims(1, 2).shape)
print(x.permute(2, 0, 1)[1], x.view(-1, 4)[-1], x.reshape(4, -1).shape)
img = torch.arange(16).view(1, 4, 4)
patches = img.unfold(1, 2, 2).unfold(2, 2, 2)
print(patches.shape, patches[0, 1, 0])
print(patches.reshape(-1, 4))
y = torch.zeros(1, 3, 1, 5, 1)
print(y.squeeze().shape, y.squeeze(0).shape, y.squeeze((0, 2)).shape, y.squeeze(-1).shape)
print(y.unsqueeze(-1).shape, y[None].shape, y[..., None, :].shape, y[:, None, :, None].shape)
print(torch.atleast_2d(torch.tensor(1.0)).shape, torch.atleast_3d(torch.ones(2)).shape, torch.atleast_1d(torch.tensor(3)))
a = torch.arange(6)
print(a.view(2, 3).t().reshape(-1), a.view(3, 2).T.contiguous().view(-1))
print(a.unflatten(0, (2, -1)), a.view(2, 1, 3).expand(2, 4, 3).shape, a.view(2, 3).repeat(1, 2))
print(torch.tensor_split(a, [1, 4]), torch.tensor_split(a, 4), a.hsplit(3) if hasattr(a, "hsplit") else None)
print(torch.vsplit(torch.arange(12).view(4, 3), [1]), torch.dsplit(torch.arange(8).view(1, 2, 4), 2)[1].shape)
b = torch.arange(12).view(3, 4)
print(torch.rot90(b), torch.rot90(b, 2), torch.rot90(b, -1, (0, 1)).shape, torch.fliplr(b)[0], torch.flipud(b)[0])
