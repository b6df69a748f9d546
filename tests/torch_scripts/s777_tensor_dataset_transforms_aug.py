# Image-style augmentation written with tensor ops (no torchvision): flips, rot90, random-free crops,
# normalisation with per-channel mean/std, mixup with a fixed lambda, one-hot soft targets
import torch
import torch.nn.functional as F

imgs = torch.arange(2 * 3 * 4 * 4, dtype=torch.float64).view(2, 3, 4, 4) / 95.0
print(torch.flip(imgs, dims=[3])[0, 0, 0], imgs.flip(-2)[0, 0, :, 0], torch.rot90(imgs, 1, dims=(2, 3))[0, 0, 0])
mean = imgs.mean(dim=(0, 2, 3))
std = imgs.std(dim=(0, 2, 3))
norm = (imgs - mean[None, :, None, None]) / std.view(1, 3, 1, 1)
print(mean, std.round(decimals=4), norm.mean(dim=(0, 2, 3)).abs().max() < 1e-12)
crop = imgs[:, :, 1:3, 0:2]
print(crop.shape, F.pad(crop, (1, 1, 1, 1), mode="reflect").shape, F.pad(crop, (1, 1, 1, 1)).sum() == crop.sum())
up = F.interpolate(crop, size=(4, 4), mode="bilinear", align_corners=False)
print(up[0, 0].round(decimals=4))
labels = torch.tensor([0, 2])
lam = 0.7
perm = torch.tensor([1, 0])
mixed = lam * imgs + (1 - lam) * imgs[perm]
soft = lam * F.one_hot(labels, 3).double() + (1 - lam) * F.one_hot(labels[perm], 3).double()
print(mixed.shape, soft)
logits = mixed.mean(dim=(2, 3))
print(F.cross_entropy(logits, soft).round(decimals=6), (-(soft * F.log_softmax(logits, -1)).sum(-1).mean()).round(decimals=6))
gray = (imgs * torch.tensor([0.299, 0.587, 0.114]).view(1, 3, 1, 1)).sum(1, keepdim=True)
print(gray.shape, gray[1, 0, 3].round(decimals=4), gray.expand(-1, 3, -1, -1).shape)
cutout = imgs.clone()
cutout[:, :, 1:3, 1:3] = 0
print((cutout == 0).sum().item(), cutout.count_nonzero(dim=(1, 2, 3)))
print(torch.clamp(imgs * 1.5 - 0.2, 0.0, 1.0).max().item(), imgs.unfold(2, 2, 2).unfold(3, 2, 2).shape)
