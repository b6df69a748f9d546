import torch
import torch.nn as nn

p = nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(p)
print(repr(nn.Parameter(torch.zeros(2), requires_grad=False)))
print(torch.Size([2, 3]), torch.float32, torch.int64, torch.device('cpu'), torch.ones(1).device, str(torch.bool))
print([torch.tensor(1.5), torch.tensor([1, 2])], (torch.ones(2),), {'w': torch.zeros(1)})
print(torch.arange(12.).reshape(3, 4) * 1000.5)
print(torch.tensor([1e-5, 1.0, 1e5]), torch.tensor([1e-3, 123.456]), torch.tensor([0.0001, 0.001]))
print(torch.tensor([1.0, 1e9]), torch.tensor([12345678.0, 0.5]), torch.tensor([-1e-12, 1e-12]))
print(torch.linspace(0, 1, 1500))
print(torch.arange(30.).reshape(5, 6) / 7)
print(torch.arange(3000).reshape(30, 100))
print(torch.ones(2, 3, 4)[:, :1])
torch.set_printoptions(precision=3, sci_mode=False)
print(torch.tensor([1e-5, 1.0, 1e5]), torch.tensor([3.14159265]))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([0.5, 2.0]))
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10), torch.arange(20).reshape(4, 5))
torch.set_printoptions(linewidth=40)
print(torch.arange(15.) * 1.5)
torch.set_printoptions(profile='default')
torch.set_printoptions(sci_mode=None)
print(torch.arange(15.) * 1.5)
print(torch.tensor([[True, False], [False, True]]), torch.tensor([], dtype=torch.int64), torch.zeros(0, 3), torch.empty(2, 0, 1))
print(torch.tensor(-0.0), torch.tensor([-0.0, 0.0]), torch.tensor([float('nan'), 1.5]), torch.tensor([float('inf'), -2.0]))
print(torch.tensor([1, -2, 300], dtype=torch.int16), torch.tensor([255], dtype=torch.uint8), torch.tensor([1.5], dtype=torch.float16))
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(y, z, out, sep='\n')
print(type(y.grad_fn).__name__, out.grad_fn.next_functions[0][0].__class__.__name__ if out.grad_fn.next_functions else None)
print(x.is_leaf, y.is_leaf, y.requires_grad, y.grad_fn.name())
a = torch.tensor([2.0, 3.0], requires_grad=True)
print(a.detach(), a.data, a.tolist(), a.numpy(force=True) if hasattr(a, 'numpy') else None)


class Custom(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1))
        self.inner = nn.Linear(2, 2)

    def extra_repr(self):
        return 'scale=1, mode=test'


print(Custom(), nn.Sequential(), nn.ModuleList(), nn.ModuleDict({'a': nn.ReLU()}))
print(nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1))))
print(f"{torch.tensor(2.5).item():.3f} {torch.tensor([1.0, 2.0]).sum():.1f} {float(torch.tensor(1.0) / 3):.4f}")
print("%.2f" % torch.tensor(0.12345).item(), str(torch.tensor(5)), format(torch.tensor(3.5), '.2e'))
