# How less common layers print (model summaries in notebooks): Unflatten, Fold/Unfold,
# PixelUnshuffle, ChannelShuffle, Upsample, GLU, Threshold, Hardshrink, Softmax2d, LPPool, etc.
import torch
import torch.nn as nn

layers = [nn.Unflatten(1, (2, 5)), nn.Flatten(0, -1), nn.Fold(output_size=(4, 5), kernel_size=2),
          nn.Unfold(kernel_size=(2, 3), dilation=1, padding=1, stride=2), nn.PixelUnshuffle(2),
          nn.PixelShuffle(3), nn.ChannelShuffle(2), nn.Upsample(scale_factor=2, mode="nearest"),
          nn.Upsample(size=(4, 4), mode="bilinear", align_corners=True), nn.GLU(dim=-1),
          nn.Threshold(0.1, 20.0), nn.Hardshrink(0.3), nn.Softshrink(), nn.Softmax2d(),
          nn.LPPool2d(2, 3, stride=2), nn.LocalResponseNorm(3), nn.RReLU(0.1, 0.3), nn.CELU(2.0),
          nn.Hardtanh(-2.0, 2.0), nn.ReLU6(inplace=True), nn.LogSoftmax(dim=1), nn.Softmin(dim=0),
          nn.PReLU(num_parameters=3, init=0.1), nn.ZeroPad1d((1, 2)), nn.ReflectionPad2d(1),
          nn.ReplicationPad3d((1, 0, 1, 0, 1, 0)), nn.CircularPad1d(2), nn.Dropout1d(0.2), nn.AlphaDropout(0.1),
          nn.FeatureAlphaDropout(0.3), nn.Identity(3, foo=1), nn.Bilinear(2, 3, 4, bias=False), nn.CosineSimilarity(dim=0, eps=1e-6),
          nn.InstanceNorm1d(4, affine=True), nn.GroupNorm(2, 4, eps=1e-3), nn.LayerNorm([3, 4], elementwise_affine=False),
          nn.RMSNorm(4), nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 8]) if False else nn.Tanhshrink(), nn.Mish(), nn.Hardswish()]
for layer in layers:
    print(layer)
