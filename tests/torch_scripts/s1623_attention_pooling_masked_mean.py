# masked mean pooling and attention pooling over padded sequences, with gradients
import torch

h = torch.arange(2 * 4 * 3, dtype=torch.float64).reshape(2, 4, 3).div(10).requires_grad_()
lengths = torch.tensor([4, 2])
mask = torch.arange(4)[None, :] < lengths[:, None]
mean = (h * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
print(mask, mean)
q = torch.tensor([1.0, -1.0, 0.5])
scores = (h @ q).masked_fill(~mask, float("-inf"))
att = scores.softmax(-1)
pooled = (att[..., None] * h).sum(1)
print(att.detach(), pooled.detach())
(mean.sum() + pooled.sum()).backward()
print(h.grad[1])
