# Tiny sequence classifier on a TransformerEncoderLayer stack, trained a few steps.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def fill_(model):
    # reproducible weights without relying on the RNG
    with torch.no_grad():
        for i, (name, p) in enumerate(model.named_parameters()):
            n = p.numel()
            p.copy_(0.2 * torch.sin(torch.arange(n) * 0.37 + i).reshape(p.shape))


class Classifier(nn.Module):
    def __init__(self, vocab=11, d=8, heads=2, classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        layer = nn.TransformerEncoderLayer(d, heads, dim_feedforward=16, dropout=0.0,
                                           batch_first=True, norm_first=True, activation="gelu")
        self.enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = nn.Linear(d, classes)

    def forward(self, tokens):
        pad = tokens == 0
        h = self.enc(self.emb(tokens) * math.sqrt(8), src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).to(h.dtype)
        pooled = (h * keep).sum(1) / keep.sum(1)
        return self.head(pooled)


model = Classifier()
fill_(model)
tokens = torch.tensor([[3, 4, 5, 0, 0], [1, 2, 2, 9, 10], [7, 7, 0, 0, 0], [5, 6, 8, 1, 0]])
labels = torch.tensor([0, 1, 2, 1])
print(model.enc.layers[0].self_attn)
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
for step in range(6):
    opt.zero_grad()
    logits = model(tokens)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}")
print(logits.shape, logits.argmax(1).tolist())
print(model.emb.weight.grad[0].abs().sum().item())
