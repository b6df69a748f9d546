# print() of layers with non-default options (extra_repr) as the docs show them
import torch
import torch.nn as nn

layers = [
    nn.Conv2d(3, 8, (3, 5), stride=(2, 1), padding=(1, 2), dilation=2, groups=1, bias=False,
              padding_mode="reflect"),
    nn.Conv1d(4, 4, 3, groups=4, padding="same"),
    nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=1),
    nn.LSTM(4, 8, num_layers=2, batch_first=True, dropout=0.1, bidirectional=True, proj_size=3),
    nn.GRU(3, 5, bias=False),
    nn.RNN(2, 3, nonlinearity="relu"),
    nn.Embedding(10, 3, padding_idx=0, max_norm=1.0),
    nn.EmbeddingBag(10, 3, mode="max"),
    nn.MultiheadAttention(8, 2, batch_first=True),
    nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True),
    nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True),
    nn.Flatten(1, -1), nn.Unflatten(1, (2, 3)),
    nn.Dropout(p=0.3, inplace=True), nn.Dropout2d(0.1), nn.AlphaDropout(0.2),
    nn.LayerNorm([4, 5], elementwise_affine=False, eps=1e-6), nn.GroupNorm(2, 4, affine=False),
    nn.BatchNorm2d(3, momentum=None, track_running_stats=False), nn.InstanceNorm1d(3, affine=True),
    nn.PReLU(3, init=0.1), nn.Softmax(dim=-1), nn.LogSoftmax(1), nn.LeakyReLU(0.2, inplace=True),
    nn.ELU(alpha=0.5), nn.Hardtanh(-2.0, 2.0), nn.Softplus(beta=2, threshold=10), nn.GELU("tanh"),
    nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True, return_indices=True),
    nn.AvgPool1d(2, count_include_pad=False), nn.AdaptiveAvgPool2d((None, 4)), nn.LPPool2d(2, 3),
    nn.ZeroPad2d((1, 2, 0, 1)), nn.ReflectionPad1d(2), nn.ConstantPad1d(1, 3.5),
    nn.Bilinear(2, 3, 4, bias=False), nn.Identity(54, unused="x"), nn.CosineSimilarity(dim=0),
    nn.PixelShuffle(2), nn.Threshold(0.1, 20.0), nn.Hardshrink(0.3), nn.CELU(2.0),
    nn.CrossEntropyLoss(label_smoothing=0.1), nn.BCEWithLogitsLoss(), nn.TripletMarginLoss(margin=2.0),
    nn.Fold(output_size=(4, 4), kernel_size=2), nn.Unfold(kernel_size=(2, 3), dilation=1, padding=1),
    nn.ChannelShuffle(2), nn.RMSNorm([4], eps=1e-5), nn.CircularPad2d(1), nn.LazyLinear(3),
]
for layer in layers:
    print(layer)
