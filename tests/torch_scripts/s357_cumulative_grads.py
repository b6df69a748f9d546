import torch

x = torch.tensor([2.0, 0.0, -1.5, 3.0, 0.0, 0.5], requires_grad=True)
w = torch.arange(1.0, 7.0)
for name, f in [("cumprod", lambda t: t.cumprod(0)), ("cumsum", lambda t: t.cumsum(0)),
                ("logcumsumexp", lambda t: t.logcumsumexp(0)), ("cummax", lambda t: t.cummax(0).values),
                ("cummin", lambda t: t.cummin(0).values), ("diff", lambda t: torch.diff(t, n=2, prepend=torch.tensor([1.0]), append=t[-1:] * 2)),
                ("trapz", lambda t: torch.trapezoid(t, dx=0.5).expand(6)), ("ctrapz", lambda t: torch.cat([torch.cumulative_trapezoid(t), t[:1]])),
                ("prod", lambda t: t.prod().expand(6)), ("cumsum_rev", lambda t: t.flip(0).cumsum(0).flip(0))]:
    x.grad = None
    y = f(x)
    (y * w).sum().backward()
    print(name, [round(v, 5) for v in y.tolist()], [round(v, 5) for v in x.grad.tolist()])
print(x.cummax(0).indices, x.cummin(0).indices)
m = torch.tensor([[1.0, 2.0, 0.0], [3.0, 0.0, 0.0]], requires_grad=True)
m.prod(dim=1).sum().backward()
print(m.grad)
xs = torch.linspace(0, 1, 5)
print(torch.trapezoid(xs ** 2, xs), torch.cumulative_trapezoid(xs ** 2, x=xs), torch.gradient(xs ** 2, spacing=0.25))
print(torch.gradient(torch.tensor([[1.0, 2.0, 4.0], [2.0, 5.0, 9.0]]), dim=1, edge_order=2))
print(torch.diff(torch.tensor([[1, 3, 6], [2, 2, 0]]), dim=0), torch.diff(torch.tensor([1, 4, 9]), append=torch.tensor([16, 25])))
print(torch.cumsum(torch.tensor([1, 2, 3], dtype=torch.int32), 0).dtype, torch.tensor([True, True, False]).cumsum(0))
