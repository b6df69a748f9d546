import torch
import torch.nn as nn


class WithNone(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("maybe", None)
        self.register_parameter("bias", None)
        self.lin = nn.Linear(2, 2, bias=False)
        self.cache = {}

    def forward(self, x):
        if self.maybe is None:
            self.maybe = x.detach().mean(0)
        return self.lin(x - self.maybe)


m = WithNone()
print(m.state_dict().keys(), m.bias, [n for n, _ in m.named_buffers()])
with torch.no_grad():
    m.lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(m(torch.tensor([[1.0, 1.0], [3.0, 5.0]])), list(m.state_dict().keys()))
print(m.lin.weight.dtype, m.half().lin.weight.dtype, m.double().maybe.dtype)
print(type(m.to(torch.float32)).__name__, m.lin.weight.dtype, m.maybe.dtype)
e = nn.Linear(3, 2, device="cpu")
print(e.weight.device, e.weight.shape, e.to_empty(device="cpu").weight.device)
lazy = nn.LazyLinear(4)
lazy(torch.ones(2, 7))
print(type(lazy).__name__, lazy.weight.shape, lazy.in_features)
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
print(seq.__class__.__name__, len(seq), [type(s).__name__ for s in seq[::-1]], seq.get_extra_state() if hasattr(seq, "x") else None)
print(sum(1 for _ in seq.modules()), nn.Module().training, hasattr(nn.Module(), "forward"))
try:
    nn.Module()(1)
except NotImplementedError as err:
    print("NotImplementedError", str(err)[:50])
cp = nn.utils.parameters_to_vector(seq.parameters())
nn.utils.vector_to_parameters(torch.arange(cp.numel(), dtype=cp.dtype), seq.parameters())
print(cp.shape, seq[0].weight, seq[0].bias)
print(nn.utils.clip_grad_norm_([p for p in seq.parameters()], 1.0))
seq(torch.ones(1, 2)).sum().backward()
print(nn.utils.clip_grad_norm_(seq.parameters(), 1.0, norm_type="inf"), nn.utils.get_total_norm([p.grad for p in seq.parameters()]) if hasattr(nn.utils, "get_total_norm") else None)
