# Assorted nn.functional values: cosine_similarity eps, pairwise_distance keepdim, normalize dims, one_hot num_classes, softsign, tanhshrink, glu dims
import torch
import torch.nn.functional as F

a = torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
b = torch.tensor([[1.0, 0.0, -1.0], [1.0, 1.0, 1.0]])
print(F.cosine_similarity(a, b), F.cosine_similarity(a, b, dim=0), F.pairwise_distance(a, b, keepdim=True), F.pairwise_distance(a, b, p=1.0, eps=0.0))
print(F.normalize(a, dim=0), F.normalize(a, p=float("inf"), dim=1))
print(F.one_hot(torch.tensor([0, 2]), num_classes=4), F.one_hot(torch.tensor([[1], [0]])))
print(F.softsign(b), F.tanhshrink(b), F.glu(torch.arange(8.0).view(2, 4), dim=-1), F.logsigmoid(b))
print(F.softmin(b, dim=1), F.gelu(b, approximate="tanh"), F.selu(b), F.celu(b, alpha=2.0), F.silu(b), F.mish(b))
print(F.hardtanh(b * 3, min_val=-2.0, max_val=2.0), F.rrelu(b, training=False), F.prelu(b, torch.tensor([0.25])), F.threshold(b, 0.5, 9.0))
print(F.linear(a, b), F.bilinear(a, b, torch.ones(1, 3, 3)), F.embedding(torch.tensor([1, 0]), b))
try:
    F.one_hot(torch.tensor([3]), num_classes=2)
except RuntimeError as e:
    print("RuntimeError:", e)
