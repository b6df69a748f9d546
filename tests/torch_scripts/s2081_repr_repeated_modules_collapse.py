import torch
import torch.nn as nn

stack = nn.Sequential(*[nn.Linear(4, 4) for _ in range(3)], nn.ReLU(), nn.ReLU(), nn.Linear(4, 2))
print(stack)
ml = nn.ModuleList([nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2)) for _ in range(2)])
print(ml)
md = nn.ModuleDict({"enc": nn.LSTM(3, 4, batch_first=True, dropout=0.0, num_layers=1), "drop": nn.Dropout(0.25), "emb": nn.Embedding(10, 3, padding_idx=1)})
print(md)
print(nn.Conv1d(2, 4, 3, stride=2, padding=1, dilation=2, groups=2, bias=False, padding_mode="reflect"))
print(nn.ConvTranspose2d(3, 2, 4, stride=2, padding=1, output_padding=1))
print(nn.LayerNorm([4, 5], eps=1e-6, elementwise_affine=False), nn.GroupNorm(2, 4), nn.InstanceNorm1d(3, affine=True))
print(nn.MaxPool2d(2, stride=1, ceil_mode=True), nn.AvgPool1d(3, count_include_pad=False), nn.AdaptiveMaxPool2d((2, None)))
print(nn.Upsample(scale_factor=2, mode="bilinear"), nn.Flatten(0, -1), nn.Unflatten(1, (2, 3)))
print(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True))
print(nn.MultiheadAttention(8, 2))
print(nn.Softmax(dim=-1), nn.LeakyReLU(0.1, inplace=True), nn.Hardtanh(-2, 2), nn.ELU(alpha=0.5), nn.Threshold(0.1, 0.0))
print(nn.CrossEntropyLoss(label_smoothing=0.1), nn.BCEWithLogitsLoss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss())
print(nn.Identity(3, unused="x"), nn.Bilinear(2, 3, 4), nn.PReLU(num_parameters=3), nn.EmbeddingBag(5, 2, mode="max"))
class Custom(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.zeros(2))
        self.inner = nn.Linear(1, 1)
    def extra_repr(self):
        return "w_shape=(2,)\nsecond_line=True"
print(Custom())
