# F.normalize and cosine_similarity gradients, including zero vectors (eps)
import torch
import torch.nn.functional as F

a = torch.tensor([[3.0, 4.0], [0.0, 0.0], [1.0, -1.0]], requires_grad=True)
b = torch.tensor([[1.0, 0.0], [1.0, 1.0], [-1.0, 1.0]])
n = F.normalize(a, dim=1)
print(n)
(n * b).sum().backward()
print(a.grad)
a.grad = None
cs = F.cosine_similarity(a, b, dim=1)
print(cs)
cs.sum().backward()
print(a.grad)
print(F.pairwise_distance(a.detach(), b), torch.cdist(a.detach(), b, p=1))
