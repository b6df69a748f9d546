# printing models: custom extra_repr, nested containers, ModuleDict/ParameterList reprs, layer reprs with options
import torch
import torch.nn as nn

class Scale(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s
        self.register_buffer("offset", torch.zeros(2))
    def extra_repr(self):
        return f"s={self.s}"
    def forward(self, x):
        return x * self.s + self.offset

net = nn.Sequential(
    nn.Conv2d(3, 8, kernel_size=(3, 5), stride=(2, 1), padding=1, bias=False, padding_mode="reflect"),
    nn.BatchNorm2d(8, eps=1e-3, momentum=0.01),
    nn.LeakyReLU(0.2, inplace=True),
    nn.MaxPool2d(2, ceil_mode=True),
    nn.Flatten(start_dim=1),
    nn.Dropout(p=0.25),
    nn.Linear(16, 4),
    Scale(0.5),
)
print(net)
print(nn.ModuleDict({"enc": nn.Linear(2, 2), "act": nn.GELU(approximate="tanh")}))
print(nn.ParameterList([nn.Parameter(torch.ones(2, 3)), nn.Parameter(torch.zeros(1))]))
print(nn.LSTM(4, 8, num_layers=2, batch_first=True, dropout=0.1, bidirectional=True))
print(nn.Embedding(10, 3, padding_idx=0, max_norm=1.0))
print(nn.TransformerEncoderLayer(8, 2, dim_feedforward=16).self_attn)
print(nn.Upsample(scale_factor=2, mode="bilinear"), nn.AdaptiveAvgPool2d((1, None)), nn.Softmax(dim=-1))
print(nn.Identity(), nn.Unflatten(1, (2, 4)), nn.ConstantPad1d((1, 2), 0.5), nn.Hardtanh(-2, 2))
