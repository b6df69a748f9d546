# interpolate: nearest, bilinear align_corners both ways, scale_factor, and grads
import torch
import torch.nn.functional as F

x = torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]], requires_grad=True)
print(F.interpolate(x, scale_factor=2, mode="nearest")[0, 0])
a = F.interpolate(x, size=(3, 3), mode="bilinear", align_corners=True)
b = F.interpolate(x, size=(3, 3), mode="bilinear", align_corners=False)
print(a[0, 0])
print(b[0, 0])
(a.sum() + 2 * b.sum()).backward()
print(x.grad[0, 0])
print(F.interpolate(torch.tensor([[[0.0, 1.0, 4.0]]]), size=5, mode="linear", align_corners=True))
