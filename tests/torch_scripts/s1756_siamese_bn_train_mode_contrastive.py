# SimSiam-style self-supervised step with BatchNorm in train mode: two fixed "views" from
# NumPy noise, projector and predictor MLPs with BatchNorm1d, negative cosine similarity
# with stop-gradient (detach) on the target branch, running statistics after training
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(1031)
X = torch.from_numpy(rng.standard_normal((16, 6)))


def mlp(i, h, o, last_bn=True):
    layers = [nn.Linear(i, h, bias=False), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, o)]
    if last_bn:
        layers.append(nn.BatchNorm1d(o, affine=False))
    return nn.Sequential(*layers)


encoder = mlp(6, 12, 8)
predictor = mlp(8, 4, 8, last_bn=False)
for m in (encoder, predictor):
    with torch.no_grad():
        for n, p in m.named_parameters():
            if p.dim() > 1:
                p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
            elif "bias" in n and not isinstance(m, nn.BatchNorm1d):
                p.zero_()
params = list(encoder.parameters()) + list(predictor.parameters())
opt = torch.optim.SGD(params, lr=0.05, momentum=0.9, weight_decay=1e-4)


def D(p, z):
    return -F.cosine_similarity(p, z.detach(), dim=-1).mean()


for it in range(6):
    v1 = X + 0.2 * torch.from_numpy(rng.standard_normal((16, 6)))
    v2 = X + 0.2 * torch.from_numpy(rng.standard_normal((16, 6)))
    z1, z2 = encoder(v1), encoder(v2)
    p1, p2 = predictor(z1), predictor(z2)
    loss = 0.5 * D(p1, z2) + 0.5 * D(p2, z1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}", f"{F.normalize(z1, dim=1).std(0).mean().item():.5f}")
print(encoder[1].running_mean[:4].numpy().round(5), encoder[4].running_var[:4].numpy().round(5))
print(encoder[4].weight, encoder[1].num_batches_tracked.item())
