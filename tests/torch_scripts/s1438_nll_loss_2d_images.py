# NLL / cross-entropy over an image (N, C, H, W) with per-pixel targets
import torch
import torch.nn.functional as F

x = torch.arange(24.0).reshape(1, 3, 2, 4).sin().requires_grad_()
t = torch.tensor([[[0, 1, 2, 1], [2, 2, 0, 0]]])
loss = F.cross_entropy(x, t)
print(loss)
loss.backward()
print(x.grad[0, :, 0])
print(F.nll_loss(F.log_softmax(x, 1), t, reduction="none"))
t2 = t.clone(); t2[0, 0, 0] = 255
print(F.cross_entropy(x, t2, ignore_index=255))
