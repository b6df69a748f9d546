import torch

a = torch.ones(3, 4)
b = torch.ones(2, 4)
cases = [
    lambda: a + b,
    lambda: a @ b,
    lambda: torch.mm(a, torch.ones(3, 2)),
    lambda: torch.cat([a, torch.ones(3, 5)], dim=0),
    lambda: torch.stack([a, b]),
    lambda: a.t().view(12),
    lambda: a.view(5, -1),
    lambda: a.reshape(-1, -1),
    lambda: a.expand(2, 4),
    lambda: a[3],
    lambda: a[:, torch.tensor([0, 4])],
    lambda: torch.matmul(torch.ones(2, 3, 4), torch.ones(2, 5, 6)),
    lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(3, 4, 5)),
    lambda: a.squeeze(3),
    lambda: a.permute(0, 0),
    lambda: torch.ones(3).dot(torch.ones(4)),
    lambda: a.gather(1, torch.tensor([[0, 1]], dtype=torch.int32).float()),
    lambda: torch.nn.functional.linear(torch.ones(2, 3), torch.ones(4, 5)),
    lambda: torch.nn.Linear(3, 2)(torch.ones(2, 4)),
    lambda: a.sum(dim=2),
    lambda: a.transpose(0, 2),
    lambda: torch.zeros(2, 2).masked_fill(torch.tensor([True, False, True]), 1.0),
]
for k, c in enumerate(cases):
    try:
        c()
        print(k, "ok")
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        print(k, type(e).__name__, str(e)[:34])
