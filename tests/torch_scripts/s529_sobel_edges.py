import torch
import torch.nn.functional as F

img = torch.zeros(1, 1, 8, 8)
img[..., 2:6, 3:7] = 1.0
img[..., 4, 1] = 0.5
sobel_x = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
kernels = torch.stack([sobel_x, sobel_x.T]).unsqueeze(1)
print(kernels.shape)
g = F.conv2d(F.pad(img, (1, 1, 1, 1), mode="reflect"), kernels)
mag = torch.sqrt((g ** 2).sum(dim=1) + 1e-12)
print(g.shape, mag.shape)
print(mag[0].round(decimals=2))
angle = torch.atan2(g[:, 1], g[:, 0])
print(angle[0, 3, 2:8].round(decimals=3))
edges = (mag > 2).nonzero()
print(edges.shape, edges[:3])
# differentiable edge energy of a parametrised blob
c = torch.tensor([4.0, 4.5], requires_grad=True)
yy, xx = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
blob = torch.sigmoid(4 * (2.0 - torch.sqrt((yy - c[0]) ** 2 + (xx - c[1]) ** 2)))
gb = F.conv2d(blob.view(1, 1, 8, 8), kernels, padding=1)
energy = (gb ** 2).sum()
energy.backward()
print(round(energy.item(), 5), c.grad)
lap = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3)
print(F.conv2d(img, lap, padding=1).sum().item(), F.conv2d(img, lap).shape)
