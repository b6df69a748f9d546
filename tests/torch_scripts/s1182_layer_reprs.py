# Printing many layers: extra_repr of conv/pool/norm/rnn/attention/activation/loss modules
import torch.nn as nn

for m in [nn.Conv1d(2, 4, 3, stride=2, padding=1, dilation=2, groups=2, bias=False, padding_mode="reflect"),
          nn.Conv2d(3, 8, (3, 5), padding="same"), nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=1),
          nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True), nn.AvgPool1d(2), nn.AdaptiveAvgPool2d((None, 3)),
          nn.BatchNorm2d(4, eps=1e-3, momentum=None, affine=False), nn.LayerNorm([3, 4], elementwise_affine=False),
          nn.GroupNorm(2, 4), nn.InstanceNorm2d(3, affine=True), nn.Embedding(10, 3, padding_idx=1, max_norm=2.0),
          nn.LSTM(3, 4, num_layers=2, dropout=0.1, bidirectional=True), nn.GRU(2, 3, batch_first=True), nn.RNN(2, 2, nonlinearity="relu"),
          nn.MultiheadAttention(8, 2), nn.LeakyReLU(0.2, inplace=True), nn.Softmax(dim=-1), nn.ELU(alpha=0.5), nn.Hardtanh(-2, 2),
          nn.CrossEntropyLoss(label_smoothing=0.1), nn.NLLLoss(ignore_index=3), nn.SmoothL1Loss(beta=0.5), nn.Upsample(scale_factor=2, mode="nearest"),
          nn.Dropout(0.25), nn.Identity(), nn.Flatten(), nn.Unflatten(1, (2, 2)), nn.PixelShuffle(2), nn.ZeroPad2d(2), nn.ConstantPad1d((1, 2), 0.5),
          nn.CosineSimilarity(dim=0), nn.PairwiseDistance(p=1.0), nn.EmbeddingBag(5, 2, mode="max"), nn.LSTMCell(2, 3), nn.Bilinear(2, 3, 4, bias=False),
          nn.TransformerEncoderLayer(8, 2, 16)]:
    print(m)
