# F.one_hot, F.pad modes (reflect/replicate/circular/constant value), F.unfold/fold, pixel_shuffle, F.normalize
import torch
import torch.nn.functional as F

print(F.one_hot(torch.tensor([0, 2, 1]), num_classes=4), F.one_hot(torch.tensor([[1], [0]])).shape)
x = torch.arange(6.0).view(1, 2, 3)
print(F.pad(x, (1, 2), mode="reflect"))
print(F.pad(x, (2, 1), mode="replicate"))
print(F.pad(x, (1, 1), mode="circular"))
print(F.pad(x, (0, 0, 1, 0), value=-1.0))
img = torch.arange(16.0).view(1, 1, 4, 4)
cols = F.unfold(img, kernel_size=2, stride=2)
print(cols.shape, cols[0, :, 0])
print(F.fold(cols, output_size=(4, 4), kernel_size=2, stride=2).equal(img))
print(F.pixel_shuffle(torch.arange(8.0).view(1, 4, 1, 2), 2))
print(F.pixel_unshuffle(img, 2).shape)
print(F.normalize(torch.tensor([[3.0, 4.0], [0.0, 0.0]]), dim=1))
print(F.normalize(torch.tensor([[1.0, 1.0]]), p=1, dim=1))
print(F.cosine_similarity(torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 1.0]])).round(decimals=5))
print(F.pairwise_distance(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0]]), eps=0.0))
print(F.interpolate(torch.tensor([[[1.0, 2.0, 4.0]]]), scale_factor=2, mode="linear", align_corners=False))
print(F.interpolate(torch.tensor([[[1.0, 2.0]]]), size=3, mode="nearest"))
