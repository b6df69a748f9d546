import torch
import torch.nn.functional as F

h = torch.arange(2 * 4 * 3, dtype=torch.float64).reshape(2, 4, 3) / 10
lengths = torch.tensor([2, 4])
mask = torch.arange(4).unsqueeze(0) < lengths.unsqueeze(1)
print(mask, mask.dtype)
m = mask.unsqueeze(-1).to(h.dtype)
mean = (h * m).sum(1) / m.sum(1)
print(mean)
mx = h.masked_fill(~mask.unsqueeze(-1), float("-inf")).max(dim=1).values
print(mx)
last = h[torch.arange(2), lengths - 1]
print(last, h.gather(1, (lengths - 1).view(-1, 1, 1).expand(-1, 1, 3)).squeeze(1))
scores = torch.tensor([[0.5, 1.0, 3.0, -1.0], [0.1, 0.2, 0.3, 0.4]])
attn = F.softmax(scores.masked_fill(~mask, -1e4), dim=-1)
print(attn.round(decimals=4), (attn.unsqueeze(-1) * h).sum(1))
print(F.normalize(mean, p=2, dim=-1), F.normalize(mean, p=1, dim=0))
print(torch.nn.utils.rnn.pad_sequence([h[0, :2], h[1]], batch_first=True).shape)
counts = mask.sum(dim=1, keepdim=True)
print(counts, counts.dtype, (mask.float().cumsum(1) * mask).long())
seq = torch.tensor([[5, 6, 0, 0], [7, 8, 9, 1]])
print(seq.masked_select(mask), seq * mask, seq.where(mask, torch.tensor(-1)))
print(torch.nn.functional.one_hot(lengths - 1, 4).bool() == (torch.arange(4) == (lengths - 1).unsqueeze(1)))
