# sub-pixel convolution pieces: pixel_shuffle, pixel_unshuffle, channel_shuffle, their grads
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(2 * 8 * 2 * 3, dtype=torch.float64).reshape(2, 8, 2, 3).requires_grad_()
y = F.pixel_shuffle(x, 2)
print(y.shape, y.grad_fn.name())
print(y[0, 0])
back = F.pixel_unshuffle(y, 2)
print(torch.equal(back, x), back.grad_fn.name())
(y * torch.linspace(0, 1, y.numel()).reshape(y.shape)).sum().backward()
print(x.grad[1, 7])
cs = nn.ChannelShuffle(4)
print(cs, cs(x)[0, :, 0, 0])
print(F.channel_shuffle(torch.arange(6.0).reshape(1, 6, 1, 1), 3).flatten())
print(nn.PixelShuffle(2), nn.PixelUnshuffle(3))
try:
    F.pixel_shuffle(torch.ones(1, 3, 2, 2), 2)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.pixel_unshuffle(torch.ones(1, 1, 3, 4), 2)
except Exception as e:
    print(type(e).__name__, e)
