# f-string format specs on 0-dim tensors and items, round(), int()/float()/bool() conversions, divmod-like ops
import torch

t = torch.tensor(3.14159)
print(f"{t:.2f}", f"{t.item():8.3f}", f"{t:e}", "{:>10.4f}".format(t))
print(f"{torch.tensor(7):d}", f"{torch.tensor(7):03d}" if True else None)
print(round(t.item(), 3), int(t), float(torch.tensor(2)), bool(torch.tensor(0.0)), bool(torch.tensor([1])))
print(torch.tensor(5) // 2, torch.tensor(-5) // 2, torch.tensor(-5.0) % 3, divmod(7, 2))
print(torch.tensor([1.5, 2.5, -0.5, 0.5]).round(), torch.tensor([1.234, 5.678]).round(decimals=1))
print(torch.tensor([2.7, -2.7]).trunc(), torch.tensor([2.7, -2.7]).floor(), torch.tensor([2.7, -2.7]).ceil(), torch.tensor([2.7, -2.7]).frac())
print(str(torch.tensor(1.0)), repr(torch.tensor(1e-12)), str(torch.tensor(-0.0)))
print("%.3f" % torch.tensor(1.23456))
print(f"{torch.tensor(0.5, requires_grad=True) * 2:.1f}")
try:
    print(f"{torch.tensor([1.0, 2.0]):.2f}")
except (TypeError, ValueError, RuntimeError) as e:
    print(type(e).__name__)
print(t.item() == 3.14159, torch.tensor(1) == 1, 2 in torch.tensor([1, 2, 3]))
print(hash(torch.tensor(1)) is not None, len(torch.zeros(4, 2)), int(torch.tensor([7])))
print(torch.tensor(10).__index__() if hasattr(torch.tensor(10), "__index__") else None, [0, 1, 2][torch.tensor(1)])
