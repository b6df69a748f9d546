# InfoNCE / NT-Xent style contrastive loss with temperature on normalised embeddings
import torch
import torch.nn.functional as F

z1 = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], requires_grad=True)
z2 = torch.tensor([[0.9, 0.1], [0.2, 0.8], [1.0, 0.7]], requires_grad=True)
tau = 0.5
a = F.normalize(z1, dim=1)
b = F.normalize(z2, dim=1)
logits = a @ b.T / tau
labels = torch.arange(3)
loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
loss.backward()
print(logits.detach(), round(loss.item(), 8))
print(z1.grad, z2.grad)
print(F.normalize(torch.zeros(1, 2), dim=1), F.normalize(torch.tensor([[3.0, 4.0]]), p=1, dim=1))
