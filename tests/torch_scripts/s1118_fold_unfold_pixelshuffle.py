# F.unfold/fold round trip (overlapping counts), pixel_shuffle/unshuffle, channel_shuffle, nn.Unflatten
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(32.0).view(1, 2, 4, 4)
cols = F.unfold(x, kernel_size=2, stride=1, padding=0, dilation=1)
print(cols.shape)
back = F.fold(cols, output_size=(4, 4), kernel_size=2)
print(back[0, 0])
ones = F.fold(F.unfold(torch.ones(1, 1, 4, 4), 3, padding=1), (4, 4), 3, padding=1)
print(ones[0, 0])
print(F.unfold(x, kernel_size=(2, 3), dilation=(1, 1), stride=(2, 1)).shape)
ps = F.pixel_shuffle(torch.arange(16.0).view(1, 4, 2, 2), 2)
print(ps, F.pixel_unshuffle(ps, 2).shape)
print(nn.ChannelShuffle(2)(torch.arange(4.0).view(1, 4, 1, 1)).flatten())
print(nn.Unflatten(1, (2, 3))(torch.zeros(4, 6)).shape, nn.Flatten(0, 1)(torch.zeros(2, 3, 4)).shape)
y = x.clone().requires_grad_()
F.fold(F.unfold(y, 2), (4, 4), 2).sum().backward()
print(y.grad[0, 0])
