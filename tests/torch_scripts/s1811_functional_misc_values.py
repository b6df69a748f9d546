# torch.nn.functional odds and ends: pad modes, one_hot, fold/unfold, pixel ops, embedding_bag
import torch
import torch.nn.functional as F

x = torch.arange(1.0, 7.0).reshape(1, 2, 3)
for mode in ["constant", "reflect", "replicate", "circular"]:
    print(mode, F.pad(x, (2, 1), mode=mode))
print(F.pad(x, (1, 1, 1, 0), value=-1.0))
print(F.pad(x, (-1, 0)))
print(F.one_hot(torch.tensor([0, 2, 1])), F.one_hot(torch.tensor([[1], [0]]), num_classes=4).shape)
try:
    F.one_hot(torch.tensor([3]), num_classes=2)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    F.one_hot(torch.tensor([1.0]))
except RuntimeError as e:
    print("RuntimeError", e)
img = torch.arange(16.0).reshape(1, 1, 4, 4)
cols = F.unfold(img, kernel_size=2, stride=2)
print(cols)
print(F.fold(cols, output_size=(4, 4), kernel_size=2, stride=2).equal(img))
print(F.pixel_shuffle(torch.arange(8.0).reshape(1, 4, 1, 2), 2))
print(F.pixel_unshuffle(torch.arange(16.0).reshape(1, 1, 4, 4), 2).shape)
w = torch.arange(10.0).reshape(5, 2)
for mode in ["sum", "mean", "max"]:
    print(mode, F.embedding_bag(torch.tensor([0, 2, 4, 1]), w, torch.tensor([0, 1]), mode=mode))
print(F.embedding_bag(torch.tensor([[0, 1], [2, 3]]), w, per_sample_weights=torch.tensor([[1.0, 2.0], [0.5, 0.5]]), mode="sum"))
print(F.embedding(torch.tensor([0, 4]), w, padding_idx=0))
print(F.embedding(torch.tensor([3]), w.clone(), max_norm=1.0))
print(F.normalize(torch.tensor([[3.0, 4.0], [0.0, 0.0]]), dim=1))
print(F.cosine_similarity(torch.tensor([[1.0, 0.0]]), torch.tensor([[0.0, 0.0]])))
print(F.pairwise_distance(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0]]), p=1.0))
print(F.pdist(torch.tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])))
print(F.interpolate(torch.tensor([[[1.0, 2.0, 4.0]]]), scale_factor=2, mode="linear", align_corners=False))
print(F.interpolate(torch.tensor([[[1.0, 2.0, 4.0]]]), size=5, mode="nearest-exact"))
print(F.glu(torch.tensor([1.0, 2.0, 0.0, -1.0])), F.hardtanh(torch.tensor([-2.0, 0.5]), -1.0, 1.0))
print(F.threshold(torch.tensor([0.1, 0.9]), 0.5, -1.0), F.softsign(torch.tensor([1.0])))
print(F.local_response_norm(torch.ones(1, 3, 2), size=2))
print(F.affine_grid(torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]), [1, 1, 2, 2], align_corners=False))
