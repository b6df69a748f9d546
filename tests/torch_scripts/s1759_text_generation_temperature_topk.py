# Sampling utilities from text-generation code applied to fixed logits: temperature
# scaling, top-k filtering with topk + scatter, nucleus (top-p) filtering with sort,
# cumsum and the shifted-mask trick, repetition penalty; sampling uses NumPy uniforms
import numpy as np
import torch
import torch.nn.functional as F

rng = np.random.default_rng(1061)
logits = torch.from_numpy(rng.standard_normal((2, 10)) * 2)


def top_k_filter(logits, k):
    v, i = torch.topk(logits, k)
    out = torch.full_like(logits, float("-inf"))
    return out.scatter(1, i, v)


def top_p_filter(logits, p):
    sorted_logits, sorted_idx = torch.sort(logits, descending=True)
    cum = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
    remove = cum > p
    remove[..., 1:] = remove[..., :-1].clone()
    remove[..., 0] = False
    mask = remove.scatter(1, sorted_idx, remove)
    return logits.masked_fill(mask, float("-inf"))


def repetition_penalty(logits, prev, penalty=1.3):
    score = torch.gather(logits, 1, prev)
    score = torch.where(score < 0, score * penalty, score / penalty)
    return logits.scatter(1, prev, score)


def sample(probs, u):
    cdf = probs.cumsum(-1)
    return torch.searchsorted(cdf, u.unsqueeze(-1)).squeeze(-1).clamp_max(probs.size(-1) - 1)


for T in (0.5, 1.0, 1.5):
    probs = F.softmax(logits / T, dim=-1)
    ent = -(probs * probs.clamp_min(1e-12).log()).sum(-1)
    print(T, ent.numpy().round(4))
pk = F.softmax(top_k_filter(logits, 3), -1)
pp = F.softmax(top_p_filter(logits, 0.8), -1)
print((pk > 0).sum(1).tolist(), (pp > 0).sum(1).tolist(), pp.sum(1).numpy().round(10))
pen = repetition_penalty(logits, torch.tensor([[0, 1], [2, 2]]))
print(pen[:, :3].numpy().round(4))
u = torch.from_numpy(rng.random((2,)))
print(sample(pk, u).tolist(), sample(pp, u).tolist(), u.numpy().round(4))
