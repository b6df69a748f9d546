# binary cross-entropy variants: weight, pos_weight, probabilities at 0 and 1 (clamped log)
import torch
import torch.nn.functional as F

z = torch.tensor([[-2.0, 0.0, 3.0], [1.0, -1.0, 0.5]], requires_grad=True)
y = torch.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 0.5]])
l1 = F.binary_cross_entropy_with_logits(z, y, pos_weight=torch.tensor([1.0, 2.0, 3.0]))
l1.backward(); print(l1, z.grad); z.grad = None
l2 = F.binary_cross_entropy_with_logits(z, y, weight=torch.tensor([0.5, 1.0, 2.0]), reduction="sum")
l2.backward(); print(l2, z.grad)
p = torch.tensor([0.0, 1.0, 0.5, 1e-30], requires_grad=True)
l3 = F.binary_cross_entropy(p, torch.tensor([0.0, 0.0, 1.0, 1.0]), reduction="none")
print(l3)
l3.sum().backward(); print(p.grad)
