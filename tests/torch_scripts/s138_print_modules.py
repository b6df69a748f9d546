import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, d, p=0.1):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Dropout(p), nn.Linear(4 * d, d))
        self.p = p
    def extra_repr(self):
        return f"d={self.norm.normalized_shape[0]}, p={self.p}"
    def forward(self, x):
        return x + self.ff(self.norm(x))

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(100, 16, padding_idx=0)
        self.blocks = nn.ModuleList([Block(16) for _ in range(2)])
        self.heads = nn.ModuleDict({"cls": nn.Linear(16, 3, bias=False), "reg": nn.Linear(16, 1)})
        self.conv = nn.Conv1d(16, 8, kernel_size=3, padding=1, stride=2, dilation=1, groups=2)
        self.pool = nn.AdaptiveAvgPool1d(1)
        self.bn = nn.BatchNorm1d(8, momentum=0.2, affine=False)
        self.act = nn.LeakyReLU(0.2, inplace=True)
        self.lstm = nn.LSTM(16, 8, num_layers=2, batch_first=True, bidirectional=True, dropout=0.1)
        self.gru = nn.GRU(4, 4)
        self.mha = nn.MultiheadAttention(16, 4, batch_first=True)
        self.flat = nn.Flatten(1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.maxp = nn.MaxPool2d(2, stride=1, padding=1)
        self.conv2 = nn.ConvTranspose2d(3, 6, (3, 5), stride=(2, 1), output_padding=1)
        self.identity = nn.Identity()
        self.soft = nn.Softmax(dim=-1)
        self.ln = nn.GroupNorm(2, 8, eps=1e-3)
        self.ce = nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=-1)
        self.bce = nn.BCEWithLogitsLoss(pos_weight=torch.ones(3))
        self.huber = nn.HuberLoss(delta=0.5)
        self.pad = nn.ConstantPad1d((1, 2), 0.5)
        self.emb_bag = nn.EmbeddingBag(10, 3, mode="max")
        self.prelu = nn.PReLU(num_parameters=3)
        self.hard = nn.Hardtanh(-2.0, 2.0)
        self.thr = nn.Threshold(0.1, 20.0)
        self.cos = nn.CosineSimilarity(dim=1, eps=1e-6)
        self.unflat = nn.Unflatten(1, (2, 8))
        self.tel = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, batch_first=True)

m = Model()
print(m)
print(m.blocks[0], m.blocks[0].extra_repr())
print(nn.Sequential())
print(nn.ModuleList())
print(nn.Sequential(nn.Linear(2, 2)), nn.Linear(2, 2).extra_repr(), nn.Conv2d(1, 2, 3, bias=False).extra_repr())
opt = torch.optim.SGD(m.heads.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)
print(opt)
print(torch.optim.Adam([{"params": m.heads["cls"].parameters()}, {"params": m.heads["reg"].parameters(), "lr": 1e-2}], lr=1e-3))
print(torch.optim.AdamW(m.embed.parameters(), amsgrad=True))
print(torch.optim.RMSprop(m.embed.parameters(), lr=0.01, centered=True))
