# A tiny Vision Transformer: patches by Conv2d(kernel=stride=patch) and, for comparison,
# F.unfold; a learned [CLS] token and position embeddings (nn.Parameter), pre-norm encoder
# layers with GELU, classification from the CLS output; trained a few steps
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(471)
imgs = torch.from_numpy(rng.standard_normal((6, 3, 8, 8)))
labels = torch.from_numpy(rng.integers(0, 4, 6))
P, D = 4, 12


class ViT(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch = nn.Conv2d(3, D, kernel_size=P, stride=P)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, D))
        self.pos_embed = nn.Parameter(torch.zeros(1, 1 + (8 // P) ** 2, D))
        layer = nn.TransformerEncoderLayer(D, 3, 24, dropout=0.0, activation="gelu",
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(D), enable_nested_tensor=False)
        self.head = nn.Linear(D, 4)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls, x), dim=1) + self.pos_embed
        return self.head(self.encoder(x)[:, 0])


model = ViT()
with torch.no_grad():
    for n, p in model.named_parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.2, tuple(p.shape))))
patches = F.unfold(imgs, kernel_size=P, stride=P).transpose(1, 2)
via_unfold = patches @ model.patch.weight.view(D, -1).T + model.patch.bias
print("unfold == conv", torch.allclose(via_unfold, model.patch(imgs).flatten(2).transpose(1, 2)))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.05)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=8, pct_start=0.25)
for step in range(8):
    model.train()
    loss = F.cross_entropy(model(imgs), labels, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 2 == 1:
        print(step, f"{loss.item():.6f}", f"{sched.get_last_lr()[0]:.6f}", f"{opt.param_groups[0]['betas'][0]:.4f}")
print(model.cls_token.grad.view(-1)[:4].numpy().round(6))
model.eval()
with torch.no_grad():
    print(model(imgs[:2]).softmax(-1).numpy().round(4))
