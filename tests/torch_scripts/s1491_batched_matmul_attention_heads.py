# multi-head attention by hand with reshape/transpose and batched matmul; printed outputs
import torch

B, T, H, D = 1, 3, 2, 2
x = torch.arange(B * T * H * D, dtype=torch.float64).reshape(B, T, H * D) / 10
Wq = torch.eye(H * D, requires_grad=True)
q = (x @ Wq).view(B, T, H, D).transpose(1, 2)
k = x.view(B, T, H, D).transpose(1, 2)
att = (q @ k.transpose(-2, -1)) / D ** 0.5
print(att.shape, att.grad_fn.name())
w = att.softmax(-1)
out = (w @ k).transpose(1, 2).reshape(B, T, H * D)
print(out)
out.sum().backward()
print(Wq.grad)
