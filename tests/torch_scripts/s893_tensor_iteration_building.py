# Building tensors incrementally the way beginners do: appending to a list then stack/cat,
# torch.cat in a loop, preallocating and filling rows, and converting lists of tensors
import torch

rows = []
for i in range(4):
    rows.append(torch.tensor([i, i ** 2], dtype=torch.float32))
print(torch.stack(rows), torch.stack(rows, dim=1).shape, torch.vstack(rows).shape, torch.hstack(rows).shape)
acc = torch.empty(0, 2)
for r in rows:
    acc = torch.cat([acc, r.unsqueeze(0).double()])
print(acc, acc.dtype)
out = torch.zeros(4, 2)
for i, r in enumerate(rows):
    out[i] = r
print(out, torch.equal(out, torch.stack(rows).double()))
print(torch.tensor([r.tolist() for r in rows]), torch.tensor([float(r[1]) for r in rows]))
try:
    torch.tensor(rows)
except (ValueError, TypeError) as e:
    print(type(e).__name__, str(e)[:60])
print(torch.stack([torch.tensor(1.0), torch.tensor(2.0)]), torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]))
print(torch.column_stack([torch.arange(3), torch.arange(3) * 2]), torch.dstack([torch.ones(2), torch.zeros(2)]).shape, torch.row_stack([torch.ones(2), torch.zeros(2)]))
