# A seq2seq GRU encoder-decoder with Luong dot-product attention and teacher forcing on
# a toy reversal task (fixed forcing schedule, not random): embeddings, bmm attention,
# masked padding, NLLLoss over log_softmax, and greedy decoding in eval
import torch
import torch.nn as nn
import torch.nn.functional as F

V, H, PAD, SOS = 7, 8, 0, 1
src = torch.tensor([[2, 3, 4, 5], [3, 5, 6, 0]])
tgt = torch.tensor([[5, 4, 3, 2], [6, 5, 3, 0]])
src_mask = src != PAD


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H, padding_idx=PAD)
        self.enc = nn.GRU(H, H, batch_first=True)
        self.dec = nn.GRUCell(H, H)
        self.out = nn.Linear(2 * H, V)

    def forward(self, src, tgt, force):
        enc_out, h = self.enc(self.emb(src))
        h = h.squeeze(0)
        inp = torch.full((src.shape[0],), SOS)
        logps = []
        for t in range(tgt.shape[1]):
            h = self.dec(self.emb(inp), h)
            scores = torch.bmm(enc_out, h.unsqueeze(2)).squeeze(2)
            attn = F.softmax(scores.masked_fill(~src_mask, float("-inf")), dim=1)
            ctx = torch.bmm(attn.unsqueeze(1), enc_out).squeeze(1)
            logp = F.log_softmax(self.out(torch.cat([h, ctx], 1)), dim=1)
            logps.append(logp)
            inp = tgt[:, t] if force[t] else logp.argmax(1)
        return torch.stack(logps, 1), attn


model = Seq2Seq()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.61 + i).view_as(p) * 0.4)
    model.emb.weight[PAD].zero_()
crit = nn.NLLLoss(ignore_index=PAD)
opt = torch.optim.Adam(model.parameters(), lr=0.03)
for epoch in range(3):
    force = [True, epoch % 2 == 0, True, False]
    logp, attn = model(src, tgt, force)
    loss = crit(logp.reshape(-1, V), tgt.reshape(-1))
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    print(epoch, f"{loss.item():.6f}", attn[1].detach().numpy().round(4))
model.eval()
with torch.no_grad():
    logp, attn = model(src, tgt, [False] * 4)
print(logp.argmax(2).tolist(), model.emb.weight.grad[PAD].abs().sum().item())
