# a tiny segmentation head: per-pixel cross-entropy with class weights on (N, C, H, W) logits
import torch
import torch.nn as nn

conv = nn.Conv2d(1, 3, 1)
with torch.no_grad():
    conv.weight.copy_(torch.tensor([[[[1.0]]], [[[-1.0]]], [[[0.5]]]]))
    conv.bias.copy_(torch.tensor([0.0, 0.5, -0.5]))
img = torch.tensor([[[[0.0, 1.0], [2.0, -1.0]]]])
target = torch.tensor([[[0, 1], [2, 1]]])
crit = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 1.0]))
loss = crit(conv(img), target)
print(loss)
loss.backward()
print(conv.weight.grad.flatten(), conv.bias.grad)
print(nn.CrossEntropyLoss(reduction="none")(conv(img), target))
