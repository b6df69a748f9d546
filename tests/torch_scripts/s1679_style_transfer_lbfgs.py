# Neural style transfer in miniature: a fixed conv feature extractor (requires_grad_(False)),
# Gram matrices for style, content loss, the input image optimized with LBFGS, clamp_ under no_grad
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(291)
content = torch.from_numpy(rng.random((1, 3, 8, 8)))
style = torch.from_numpy(rng.random((1, 3, 8, 8)))


class Normalization(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = torch.tensor(mean).view(-1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1)

    def forward(self, img):
        return (img - self.mean) / self.std


def gram_matrix(x):
    b, c, h, w = x.size()
    f = x.view(b * c, h * w)
    return torch.mm(f, f.t()).div(b * c * h * w)


cnn = nn.Sequential(Normalization([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
                    nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 4, 3, padding=1), nn.ReLU())
with torch.no_grad():
    for i, p in enumerate(cnn.parameters()):
        p.copy_(torch.from_numpy(np.random.default_rng(i).normal(0, 0.4, tuple(p.shape))))
cnn.requires_grad_(False).eval()


def features(x):
    out = {}
    for i, layer in enumerate(cnn):
        x = layer(x)
        if i in (2, 4):
            out[i] = x
    return out


target_c = features(content)[4].detach()
target_s = {k: gram_matrix(v).detach() for k, v in features(style).items()}
img = content.clone().requires_grad_(True)
optimizer = torch.optim.LBFGS([img])
run = [0]


def closure():
    with torch.no_grad():
        img.clamp_(0, 1)
    optimizer.zero_grad()
    f = features(img)
    s_loss = sum(F.mse_loss(gram_matrix(f[k]), target_s[k]) for k in target_s)
    c_loss = F.mse_loss(f[4], target_c)
    loss = 1e4 * s_loss + c_loss
    loss.backward()
    run[0] += 1
    if run[0] % 10 == 0:
        print(f"run {run[0]}: style {s_loss.item():.6e} content {c_loss.item():.6f}")
    return loss


for _ in range(2):
    optimizer.step(closure)
with torch.no_grad():
    img.clamp_(0, 1)
print(run[0], img[0, :, 0, :3].detach().numpy().round(4))
print(all(p.grad is None for p in cnn.parameters()), img.grad.abs().max().item() > 0)
