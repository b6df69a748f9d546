# A hidden Markov model with learnable logits: forward algorithm in log space with
# logsumexp, Baum-Welch-free gradient training of log-likelihood, posterior marginals via
# autograd (d logZ / d emission log-probs), Viterbi with max
import numpy as np
import torch
import torch.nn as nn

K, V, T = 3, 4, 12
rng = np.random.default_rng(381)
obs = torch.from_numpy(rng.integers(0, V, size=(5, T)))


class HMM(nn.Module):
    def __init__(self):
        super().__init__()
        self.init_logits = nn.Parameter(torch.from_numpy(rng.normal(0, 0.5, K)))
        self.trans_logits = nn.Parameter(torch.from_numpy(rng.normal(0, 0.5, (K, K))))
        self.emit_logits = nn.Parameter(torch.from_numpy(rng.normal(0, 0.5, (K, V))))

    def log_likelihood(self, x, return_emis=False):
        log_pi = self.init_logits.log_softmax(0)
        log_A = self.trans_logits.log_softmax(1)
        log_B = self.emit_logits.log_softmax(1)
        emis = log_B[:, x].permute(1, 2, 0)
        if return_emis:
            emis = emis.detach().requires_grad_(True)
        alpha = log_pi + emis[:, 0]
        for t in range(1, x.size(1)):
            alpha = torch.logsumexp(alpha.unsqueeze(2) + log_A, dim=1) + emis[:, t]
        ll = torch.logsumexp(alpha, dim=1)
        return (ll, emis) if return_emis else ll

    def viterbi(self, x):
        log_A = self.trans_logits.log_softmax(1)
        emis = self.emit_logits.log_softmax(1)[:, x].T
        v = self.init_logits.log_softmax(0) + emis[0]
        ptrs = []
        for t in range(1, len(x)):
            v, idx = (v.unsqueeze(1) + log_A).max(0)
            v = v + emis[t]
            ptrs.append(idx)
        path = [v.argmax().item()]
        for idx in reversed(ptrs):
            path.append(idx[path[-1]].item())
        return path[::-1]


hmm = HMM()
opt = torch.optim.Adam(hmm.parameters(), lr=0.1)
for it in range(10):
    opt.zero_grad()
    nll = -hmm.log_likelihood(obs).mean()
    nll.backward()
    opt.step()
    if it % 3 == 0:
        print(it, f"{nll.item():.6f}")
ll, emis = hmm.log_likelihood(obs[:1], return_emis=True)
post, = torch.autograd.grad(ll.sum(), emis)
print(post[0, :4].numpy().round(4), post.sum(-1)[0, :3].numpy().round(8))
with torch.no_grad():
    print(hmm.viterbi(obs[0]), obs[0].tolist())
    print(hmm.trans_logits.softmax(1).numpy().round(4))
