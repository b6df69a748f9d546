# Anomaly detection with an autoencoder: trained on normal data only, reconstruction error
# per sample via reduction="none", threshold from a quantile of training errors
# (torch.quantile), precision/recall on a test set with injected anomalies
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(631)
W = rng.standard_normal((2, 6))
normal = rng.standard_normal((80, 2)) @ W + 0.05 * rng.standard_normal((80, 6))
test_norm = rng.standard_normal((20, 2)) @ W + 0.05 * rng.standard_normal((20, 6))
anom = rng.standard_normal((6, 6)) * 1.5
Xtr = torch.from_numpy(normal)
Xte = torch.from_numpy(np.concatenate([test_norm, anom]))
yte = torch.cat([torch.zeros(20), torch.ones(6)]).bool()

ae = nn.Sequential(nn.Linear(6, 4), nn.ELU(), nn.Linear(4, 2), nn.ELU(), nn.Linear(2, 4),
                   nn.ELU(), nn.Linear(4, 6))
with torch.no_grad():
    for p in ae.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
opt = torch.optim.Adam(ae.parameters(), lr=0.01)
crit = nn.MSELoss(reduction="none")
for epoch in range(30):
    for xb in Xtr.split(20):
        opt.zero_grad()
        loss = crit(ae(xb), xb).mean()
        loss.backward()
        opt.step()
    if epoch % 10 == 9:
        print(epoch, f"{loss.item():.6f}")
ae.eval()
with torch.no_grad():
    tr_err = crit(ae(Xtr), Xtr).mean(1)
    te_err = crit(ae(Xte), Xte).mean(1)
thr = torch.quantile(tr_err, 0.95)
pred = te_err > thr
tp = (pred & yte).sum().item()
print("threshold", round(thr.item(), 6), "flagged", pred.sum().item())
print("precision", round(tp / max(pred.sum().item(), 1), 4), "recall", round(tp / yte.sum().item(), 4))
print(te_err[-6:].numpy().round(4), torch.quantile(tr_err, torch.tensor([0.25, 0.5, 0.75])).numpy().round(6))
