import torch
import torch.nn as nn

small = nn.Linear(2, 3)
big = nn.Linear(4, 3)
try:
    big.load_state_dict(small.state_dict())
except RuntimeError as e:
    msg = str(e)
    print("RuntimeError", "size mismatch for weight" in msg, msg.splitlines()[0])
sd = small.state_dict()
sd["weight"] = torch.ones(3, 2, dtype=torch.float32)
small.load_state_dict(sd)
print(small.weight.dtype, small.weight[0])
sd["bias"] = torch.tensor([1, 2, 3])
small.load_state_dict(sd)
print(small.bias, small.bias.dtype)
m = nn.Sequential(nn.Linear(2, 2))
try:
    m.load_state_dict({"0.weight": torch.zeros(2, 2)})
except RuntimeError as e:
    print(str(e).splitlines()[0], "0.bias" in str(e))
r = m.load_state_dict({"0.weight": torch.zeros(2, 2), "0.bias": torch.ones(2), "1.weight": torch.ones(1)}, strict=False)
print(r.missing_keys, r.unexpected_keys, m[0].bias)
p_before = m[0].weight
m.load_state_dict({"0.weight": torch.full((2, 2), 7.0), "0.bias": torch.zeros(2)}, assign=True)
print(m[0].weight is p_before, type(m[0].weight).__name__, m[0].weight.requires_grad)
