# A model-summary helper as people paste into notebooks: print(model) for a network of
# many layer kinds (their extra_repr), named_modules walk with per-module parameter
# counts, trainable vs frozen totals, and module types by name
import collections
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1, groups=c, bias=False, padding_mode="reflect")
        self.pw = nn.Conv2d(c, 2 * c, 1, dilation=1, stride=(1, 1))
        self.norm = nn.GroupNorm(2, 2 * c, eps=1e-4)
        self.act = nn.SiLU(inplace=True)
        self.scale = nn.Parameter(torch.ones(1))

    def extra_repr(self):
        return f"c={self.conv.in_channels}"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(collections.OrderedDict([
            ("conv", nn.Conv2d(3, 4, kernel_size=3, stride=2, padding=1)),
            ("bn", nn.BatchNorm2d(4, momentum=0.05)),
            ("relu", nn.ReLU()),
        ]))
        self.blocks = nn.ModuleList([Block(4), nn.Identity()])
        self.heads = nn.ModuleDict({"cls": nn.Linear(8, 3), "box": nn.Linear(8, 4, bias=False)})
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.shuffle = nn.PixelShuffle(2)
        self.drop = nn.Dropout2d(p=0.1)
        self.ln = nn.LayerNorm([8], elementwise_affine=False)
        self.emb = nn.Embedding(10, 4, padding_idx=0, max_norm=1.0)
        self.lstm = nn.LSTM(4, 6, num_layers=2, batch_first=True, proj_size=3, bidirectional=True)
        self.mha = nn.MultiheadAttention(8, 2, batch_first=True, kdim=6, vdim=5)
        self.unflat = nn.Unflatten(1, (2, 4))
        self.pl = nn.ParameterList([nn.Parameter(torch.zeros(2)), nn.Parameter(torch.ones(3))])


net = Net()
net.stem.requires_grad_(False)
print(net)
for name, mod in net.named_modules():
    own = sum(p.numel() for p in mod.parameters(recurse=False))
    if own:
        print(f"{name or '<root>':24s} {type(mod).__name__:20s} {own}")
total = sum(p.numel() for p in net.parameters())
train = sum(p.numel() for p in net.parameters() if p.requires_grad)
print("total", total, "trainable", train, "frozen", total - train)
print(collections.Counter(type(m).__name__ for m in net.modules()).most_common(4))
print(len(list(net.children())), len(list(net.named_buffers())), len(net.state_dict()))
