import torch
import torch.nn as nn
import torch.nn.functional as F

SOS, EOS = 0, 1


class Encoder(nn.Module):
    def __init__(self, n_in, hid):
        super().__init__()
        self.embedding = nn.Embedding(n_in, hid)
        self.gru = nn.GRU(hid, hid, batch_first=True)

    def forward(self, x):
        return self.gru(self.embedding(x))


class Decoder(nn.Module):
    def __init__(self, hid, n_out):
        super().__init__()
        self.embedding = nn.Embedding(n_out, hid)
        self.gru = nn.GRU(hid, hid, batch_first=True)
        self.out = nn.Linear(hid, n_out)

    def forward(self, enc_out, hidden, target=None, max_len=4):
        batch = enc_out.size(0)
        inp = torch.empty(batch, 1, dtype=torch.long).fill_(SOS)
        outs = []
        for i in range(max_len):
            o, hidden = self.gru(F.relu(self.embedding(inp)), hidden)
            o = self.out(o)
            outs.append(o)
            if target is not None:
                inp = target[:, i].unsqueeze(1)  # teacher forcing
            else:
                _, top = o.topk(1)
                inp = top.squeeze(-1).detach()
        outs = torch.cat(outs, dim=1)
        return F.log_softmax(outs, dim=-1), hidden


def det_init(m):
    for i, p in enumerate(m.parameters()):
        with torch.no_grad():
            p.copy_(0.3 * torch.sin(1.3 * torch.arange(p.numel()) + i).reshape(p.shape))


enc, dec = Encoder(6, 5), Decoder(5, 7)
enc.apply(det_init) if False else det_init(enc)
det_init(dec)
src = torch.tensor([[2, 3, 4], [5, 2, 1]])
tgt = torch.tensor([[3, 4, 5, EOS], [6, 2, EOS, EOS]])
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=0.02)
for it in range(5):
    opt.zero_grad()
    eo, eh = enc(src)
    logp, _ = dec(eo, eh, tgt)
    loss = F.nll_loss(logp.view(-1, logp.size(-1)), tgt.view(-1))
    loss.backward()
    opt.step()
    print(it, round(loss.item(), 6))
with torch.no_grad():
    eo, eh = enc(src)
    logp, h = dec(eo, eh)
print(logp.argmax(-1).tolist(), h.shape, eo.shape)
print(type(loss.grad_fn).__name__, type(logp.grad_fn))
print(enc.gru)
print([k for k in enc.gru.state_dict()])
