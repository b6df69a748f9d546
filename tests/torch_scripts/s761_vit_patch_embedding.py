# Vision Transformer pieces: patch embedding by Conv2d stride=patch and by unfold, cls token,
# learned positional embedding nn.Parameter, nn.MultiheadAttention(batch_first=True), LayerNorm
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEmbed(nn.Module):
    def __init__(self, img_size=8, patch_size=4, in_chans=3, embed_dim=6):
        super().__init__()
        self.num_patches = (img_size // patch_size) ** 2
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, x):
        x = self.proj(x)
        return x.flatten(2).transpose(1, 2)


class ViT(nn.Module):
    def __init__(self, embed_dim=6, num_heads=2, num_classes=3):
        super().__init__()
        self.patch_embed = PatchEmbed(embed_dim=embed_dim)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, self.patch_embed.num_patches + 1, embed_dim))
        self.norm1 = nn.LayerNorm(embed_dim, eps=1e-6)
        self.attn = nn.MultiheadAttention(embed_dim, num_heads, batch_first=True)
        self.norm2 = nn.LayerNorm(embed_dim)
        self.mlp = nn.Sequential(nn.Linear(embed_dim, 12), nn.GELU(), nn.Linear(12, embed_dim))
        self.head = nn.Linear(embed_dim, num_classes)

    def forward(self, x):
        B = x.shape[0]
        x = self.patch_embed(x)
        cls_tokens = self.cls_token.expand(B, -1, -1)
        x = torch.cat((cls_tokens, x), dim=1)
        x = x + self.pos_embed
        h = self.norm1(x)
        a, w = self.attn(h, h, h, need_weights=True)
        x = x + a
        x = x + self.mlp(self.norm2(x))
        return self.head(x[:, 0]), w


model = ViT()
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        p.copy_(0.25 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.53 + i).view_as(p))
imgs = torch.cos(torch.arange(2 * 3 * 8 * 8, dtype=torch.float64) * 0.05).view(2, 3, 8, 8)
print(model.patch_embed(imgs).shape, model.patch_embed.num_patches)
patches = F.unfold(imgs, kernel_size=4, stride=4).transpose(1, 2)
via_unfold = patches @ model.patch_embed.proj.weight.flatten(1).T + model.patch_embed.proj.bias
print(patches.shape, torch.allclose(via_unfold, model.patch_embed(imgs)))
p2 = imgs.unfold(2, 4, 4).unfold(3, 4, 4)
print(p2.shape, p2.contiguous().view(2, 3, -1, 16).shape)
logits, attw = model(imgs)
print(logits.round(decimals=5), attw.shape, attw.sum(-1).allclose(torch.ones(2, 5)))
loss = F.cross_entropy(logits, torch.tensor([1, 2]))
loss.backward()
print(round(loss.item(), 6), model.cls_token.grad.shape, model.pos_embed.grad.abs().sum().item() > 0)
print([n for n, _ in model.named_parameters()][:6])
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
