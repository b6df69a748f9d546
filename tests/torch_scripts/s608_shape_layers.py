import torch
import torch.nn as nn

x = torch.arange(2 * 8 * 2 * 2, dtype=torch.float64).reshape(2, 8, 2, 2)
print(nn.Flatten()(x).shape, nn.Flatten(0, 1)(x).shape, nn.Flatten(start_dim=2)(x).shape)
print(nn.Unflatten(1, (2, 4))(x).shape, nn.Unflatten(-1, torch.Size([1, 2]))(x).shape)
ps = nn.PixelShuffle(2)
y = ps(x)
print(y.shape, torch.equal(nn.PixelUnshuffle(2)(y), x))
print(nn.ChannelShuffle(2)(x)[0, :, 0, 0])
up = nn.Upsample(scale_factor=2, mode="nearest")
print(up(x[:, :1]).shape, up(x[:1, :1])[0, 0])
print(nn.Upsample(size=(3, 3), mode="bilinear", align_corners=True)(x[:1, :1])[0, 0])
print(nn.UpsamplingNearest2d(scale_factor=2)(x[:1, :1]).shape, nn.Identity(54, unused="x")(x).shape)
seq = nn.Sequential(nn.Conv2d(8, 4, 1), nn.Flatten(), nn.Unflatten(1, (4, 4)))
print(seq(x).shape, seq)
fold = nn.Fold(output_size=(3, 3), kernel_size=2)
unfold = nn.Unfold(kernel_size=2)
patches = unfold(torch.arange(9.0).reshape(1, 1, 3, 3))
print(patches, fold(patches))
print(nn.ZeroPad2d((1, 0, 0, 1))(torch.ones(1, 1, 2, 2)), nn.ConstantPad1d(2, 3.5)(torch.zeros(1, 1, 1)))
print(nn.ReflectionPad1d(2)(torch.arange(4.0).reshape(1, 1, 4)), nn.ReplicationPad2d(1)(torch.arange(4.0).reshape(1, 1, 2, 2)).shape)
print(nn.CircularPad1d(1)(torch.arange(3.0).reshape(1, 1, 3)))
try:
    nn.Unflatten(1, (3, 3))(x)
except RuntimeError as e:
    print("RuntimeError", str(e)[:50])
